"""Word-level diff of two texts as spans (pure, cancellable).

`word_diff(a, b)` compares a source body `a` with a merged body `b` and returns `WordDiff.spans`: a run of
`DiffSpan`s covering both texts end to end, each `equal`, `insert` (only in b), `delete` (only in a) or
`replace`, with character offsets into both texts so a view can highlight either side.

Big inputs stay responsive: the texts are first aligned sentence by sentence (cheap), and only the changed
sentence blocks are diffed word by word. `word_diff_work` is the generator form: it yields `Progress`
between blocks and checks the cancel token there. Whitespace differences (reflowed lines, double spaces)
count as equal, so a re-wrapped paragraph shows no change.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Work, run_to_end

EQUAL, INSERT, DELETE, REPLACE = "equal", "insert", "delete", "replace"

# Words (Unicode letters/digits/underscore, with inner . - ' / : kept so versions, URLs, paths and
# identifiers stay one token), single punctuation marks, and whitespace runs.
_TOKEN_RE = re.compile(r"\w+(?:[.\-'/:@#]+\w+)*|\s+|[^\w\s]", re.UNICODE)
# A sentence ends after . ! ? (followed by whitespace) or at a blank/new line.
_SENTENCE_RE = re.compile(r"[^\n]*?(?:[.!?](?=\s)|\n|$)\s*", re.UNICODE)

# Above this many tokens on both sides of one changed block, word alignment is skipped and the
# block is reported as one replace (difflib is quadratic in the worst case).
MAX_BLOCK_TOKENS = 6000


@dataclass(frozen=True)
class DiffSpan:
    op: str  # "equal" | "insert" | "delete" | "replace"
    a_start: int
    a_end: int
    b_start: int
    b_end: int
    a_text: str
    b_text: str

    @property
    def changed(self) -> bool:
        return self.op != EQUAL


@dataclass(frozen=True)
class WordDiff:
    spans: tuple[DiffSpan, ...]
    a_length: int
    b_length: int
    inserted_words: int
    deleted_words: int

    @property
    def identical(self) -> bool:
        return all(span.op == EQUAL for span in self.spans)

    def changed_spans(self) -> tuple[DiffSpan, ...]:
        return tuple(span for span in self.spans if span.changed)


@dataclass(frozen=True)
class _Tok:
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def key(self) -> str:
        return " " if self.text.isspace() else self.text


def tokenize(text: str, offset: int = 0) -> list[_Tok]:
    """Split text into word, punctuation and whitespace tokens that cover it exactly."""
    return [_Tok(m.group(0), offset + m.start()) for m in _TOKEN_RE.finditer(text)]


def _sentences(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos = 0
    for m in _SENTENCE_RE.finditer(text):
        if m.end() == m.start():
            continue
        out.append(_Tok(m.group(0), m.start()))
        pos = m.end()
    if pos < len(text):  # pragma: no cover - the pattern always reaches the end
        out.append(_Tok(text[pos:], pos))
    return out


def _sentence_key(tok: _Tok) -> str:
    return " ".join(tok.text.split())


def _word_count(text: str) -> int:
    return sum(1 for t in _TOKEN_RE.findall(text) if not t.isspace() and re.match(r"\w", t))


class _Builder:
    """Collects raw opcodes as spans, merging neighbours of the same kind."""

    def __init__(self, a: str, b: str):
        self.a, self.b = a, b
        self.spans: list[list] = []  # [op, a0, a1, b0, b1]

    def add(self, op: str, a0: int, a1: int, b0: int, b1: int) -> None:
        if a0 == a1 and b0 == b1:
            return
        if op != EQUAL:
            op = REPLACE if (a1 > a0 and b1 > b0) else (DELETE if a1 > a0 else INSERT)
        if self.spans:
            last = self.spans[-1]
            if last[2] == a0 and last[4] == b0 and (last[0] == op or (op != EQUAL and last[0] != EQUAL)):
                last[2], last[4] = a1, b1
                if op != EQUAL:
                    last[0] = REPLACE if (last[2] > last[1] and last[4] > last[3]) else (
                        DELETE if last[2] > last[1] else INSERT)
                return
        self.spans.append([op, a0, a1, b0, b1])

    def _absorb_small_equals(self) -> None:
        """Semantic clean-up: an equal run of only whitespace between two changes joins them,
        so "a b c" → "x y z" reads as one replacement, not three."""
        merged: list[list] = []
        i = 0
        spans = self.spans
        while i < len(spans):
            cur = spans[i]
            if (cur[0] == EQUAL and merged and merged[-1][0] != EQUAL and i + 1 < len(spans)
                    and spans[i + 1][0] != EQUAL and self.a[cur[1]:cur[2]].isspace()):
                nxt = spans[i + 1]
                prev = merged[-1]
                prev[2], prev[4] = nxt[2], nxt[4]
                prev[0] = REPLACE if (prev[2] > prev[1] and prev[4] > prev[3]) else (
                    DELETE if prev[2] > prev[1] else INSERT)
                i += 2
                continue
            merged.append(list(cur))
            i += 1
        self.spans = merged

    def result(self) -> WordDiff:
        self._absorb_small_equals()
        spans = tuple(
            DiffSpan(op, a0, a1, b0, b1, self.a[a0:a1], self.b[b0:b1]) for op, a0, a1, b0, b1 in self.spans
        )
        inserted = sum(_word_count(s.b_text) for s in spans if s.op in (INSERT, REPLACE))
        deleted = sum(_word_count(s.a_text) for s in spans if s.op in (DELETE, REPLACE))
        return WordDiff(spans, len(self.a), len(self.b), inserted, deleted)


def _diff_tokens(builder: _Builder, ta: list[_Tok], tb: list[_Tok], a0: int, a1: int, b0: int, b1: int) -> None:
    """Word-align one changed block [a0:a1) × [b0:b1) (character offsets)."""
    if not ta or not tb or (len(ta) > MAX_BLOCK_TOKENS and len(tb) > MAX_BLOCK_TOKENS):
        builder.add(REPLACE, a0, a1, b0, b1)
        return
    matcher = SequenceMatcher(None, [t.key for t in ta], [t.key for t in tb], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        sa = ta[i1].start if i1 < len(ta) else a1
        ea = ta[i2 - 1].end if i2 > i1 else sa
        sb = tb[j1].start if j1 < len(tb) else b1
        eb = tb[j2 - 1].end if j2 > j1 else sb
        builder.add(EQUAL if tag == "equal" else tag, sa, ea, sb, eb)


def word_diff_work(a: str, b: str, *, cancel: CancelToken | None = None) -> Work[WordDiff]:
    """Generator form of `word_diff`: yields Progress("diffing", done, total) per changed block and
    raises `Cancelled` between blocks once `cancel` is set."""
    cancel = cancel or NEVER_CANCELLED
    a = a or ""
    b = b or ""
    builder = _Builder(a, b)
    sa, sb = _sentences(a), _sentences(b)
    matcher = SequenceMatcher(None, [_sentence_key(s) for s in sa], [_sentence_key(s) for s in sb], autojunk=False)
    opcodes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1 and i2 - i1 > 1:
            # As many sentences changed on each side: pair them in order (each is then diffed alone).
            opcodes.extend(("replace", i1 + n, i1 + n + 1, j1 + n, j1 + n + 1) for n in range(i2 - i1))
        else:
            opcodes.append((tag, i1, i2, j1, j2))
    total = sum(1 for op in opcodes if op[0] != "equal")
    done = 0
    yield Progress("diffing", 0, total)
    for tag, i1, i2, j1, j2 in opcodes:
        cancel.raise_if_cancelled()
        ca0 = sa[i1].start if i1 < len(sa) else len(a)
        ca1 = sa[i2 - 1].end if i2 > i1 else ca0
        cb0 = sb[j1].start if j1 < len(sb) else len(b)
        cb1 = sb[j2 - 1].end if j2 > j1 else cb0
        if tag == "equal":
            # Sentences equal up to whitespace: report them equal (offsets differ only in spacing).
            builder.add(EQUAL, ca0, ca1, cb0, cb1)
            continue
        if tag == "replace":
            _diff_tokens(builder, tokenize(a[ca0:ca1], ca0), tokenize(b[cb0:cb1], cb0), ca0, ca1, cb0, cb1)
        else:
            builder.add(tag, ca0, ca1, cb0, cb1)
        done += 1
        yield Progress("diffing", done, total)
    cancel.raise_if_cancelled()
    return builder.result()


def word_diff(a: str, b: str, *, cancel: CancelToken | None = None) -> WordDiff:
    """Word-level diff of `a` (e.g. a source body) against `b` (e.g. the merged body)."""
    return run_to_end(word_diff_work(a, b, cancel=cancel))
