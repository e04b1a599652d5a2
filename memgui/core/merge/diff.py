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
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work, run_to_end

EQUAL, INSERT, DELETE, REPLACE = "equal", "insert", "delete", "replace"

# Words (Unicode letters/digits/underscore, with inner . - ' / : kept so versions, URLs, paths and
# identifiers stay one token), single punctuation marks, and whitespace runs.
_TOKEN_RE = re.compile(r"\w+(?:[.\-'/:@#]+\w+)*|\s+|[^\w\s]", re.UNICODE)
# A sentence ends after . ! ? (followed by whitespace) or at a blank/new line.
_SENTENCE_RE = re.compile(r"[^\n]*?(?:[.!?](?=\s)|\n|$)\s*", re.UNICODE)

# difflib is quadratic (worse on repeated tokens), so it only aligns blocks up to this many token pairs
# (len(a) × len(b)); bigger blocks are cut at anchors — tokens that occur exactly once on each side, in
# order (patience diff) — and a piece with no anchor left is reported as one replace. Any input stays
# near-linear: 100 KB in well under a second.
MAX_ALIGN_PAIRS = 400_000


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
        self.spans: list[list[Any]] = []  # [op, a0, a1, b0, b1]

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
        merged: list[list[Any]] = []
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


def _unique_anchors(ka: Sequence[str], kb: Sequence[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """Patience anchors of ka[a0:a1] × kb[b0:b1]: keys occurring exactly once on each side, the longest run
    of them in the same order on both sides (O(n log n))."""
    count_a: dict[str, int] = {}
    for i in range(a0, a1):
        count_a[ka[i]] = count_a.get(ka[i], 0) + 1
    count_b: dict[str, int] = {}
    pos_b: dict[str, int] = {}
    for j in range(b0, b1):
        count_b[kb[j]] = count_b.get(kb[j], 0) + 1
        pos_b[kb[j]] = j
    pairs = [(i, pos_b[ka[i]]) for i in range(a0, a1)
             if count_a[ka[i]] == 1 and count_b.get(ka[i]) == 1]
    # longest increasing subsequence of the b positions (patience sorting with back-links)
    tails: list[int] = []  # index into pairs of the smallest tail of each length
    back: list[int] = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        at = _bisect_tails(pairs, tails, j)
        if at > 0:
            back[n] = tails[at - 1]
        if at == len(tails):
            tails.append(n)
        else:
            tails[at] = n
    out: list[tuple[int, int]] = []
    n = tails[-1] if tails else -1
    while n >= 0:
        out.append(pairs[n])
        n = back[n]
    return out[::-1]


def _bisect_tails(pairs: list[tuple[int, int]], tails: list[int], j: int) -> int:
    """The first tail whose b position is not below `j`."""
    lo, hi = 0, len(tails)
    while lo < hi:
        mid = (lo + hi) // 2
        if pairs[tails[mid]][1] < j:
            lo = mid + 1
        else:
            hi = mid
    return lo


def aligned_opcodes(ka: Sequence[str], kb: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes of two key sequences in near-linear time (see MAX_ALIGN_PAIRS)."""
    out: list[tuple[str, int, int, int, int]] = []

    def emit(tag: str, i1: int, i2: int, j1: int, j2: int) -> None:
        if i1 == i2 and j1 == j2:
            return
        if tag != "equal":
            tag = "replace" if (i2 > i1 and j2 > j1) else ("delete" if i2 > i1 else "insert")
        if out and out[-1][0] == tag and out[-1][2] == i1 and out[-1][4] == j1:
            out[-1] = (tag, out[-1][1], i2, out[-1][3], j2)
        else:
            out.append((tag, i1, i2, j1, j2))

    def solve(a0: int, a1: int, b0: int, b1: int) -> None:
        head = 0
        while a0 + head < a1 and b0 + head < b1 and ka[a0 + head] == kb[b0 + head]:
            head += 1
        tail = 0
        while a1 - tail > a0 + head and b1 - tail > b0 + head and ka[a1 - tail - 1] == kb[b1 - tail - 1]:
            tail += 1
        emit("equal", a0, a0 + head, b0, b0 + head)
        i0, i1, j0, j1 = a0 + head, a1 - tail, b0 + head, b1 - tail
        if i0 == i1 or j0 == j1 or (i1 - i0) * (j1 - j0) <= MAX_ALIGN_PAIRS:
            if i0 < i1 or j0 < j1:
                matcher = SequenceMatcher(None, ka[i0:i1], kb[j0:j1], autojunk=False)
                for tag, x1, x2, y1, y2 in matcher.get_opcodes():
                    emit(tag, i0 + x1, i0 + x2, j0 + y1, j0 + y2)
        else:
            anchors = _unique_anchors(ka, kb, i0, i1, j0, j1)
            if not anchors:
                emit("replace", i0, i1, j0, j1)
            else:
                pi, pj = i0, j0
                for ai, aj in anchors:
                    solve(pi, ai, pj, aj)
                    emit("equal", ai, ai + 1, aj, aj + 1)
                    pi, pj = ai + 1, aj + 1
                solve(pi, i1, pj, j1)
        emit("equal", a1 - tail, a1, b1 - tail, b1)

    solve(0, len(ka), 0, len(kb))
    return out


def _diff_tokens(builder: _Builder, ta: list[_Tok], tb: list[_Tok], a0: int, a1: int, b0: int, b1: int) -> None:
    """Word-align one changed block [a0:a1) × [b0:b1) (character offsets)."""
    if not ta or not tb:
        builder.add(REPLACE, a0, a1, b0, b1)
        return
    for tag, i1, i2, j1, j2 in aligned_opcodes([t.key for t in ta], [t.key for t in tb]):
        sa = ta[i1].start if i1 < len(ta) else a1
        ea = ta[i2 - 1].end if i2 > i1 else sa
        sb = tb[j1].start if j1 < len(tb) else b1
        eb = tb[j2 - 1].end if j2 > j1 else sb
        builder.add(EQUAL if tag == "equal" else tag, sa, ea, sb, eb)


def word_diff_work(a: str, b: str, *, cancel: CancelToken | None = None) -> Work[WordDiff]:
    """Generator form of `word_diff`: yields Progress(Step.DIFFING, done, total) per changed block and
    raises `Cancelled` between blocks once `cancel` is set."""
    cancel = cancel or NEVER_CANCELLED
    a = a or ""
    b = b or ""
    builder = _Builder(a, b)
    sa, sb = _sentences(a), _sentences(b)
    opcodes: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in aligned_opcodes([_sentence_key(s) for s in sa], [_sentence_key(s) for s in sb]):
        if tag == "replace" and i2 - i1 == j2 - j1 and i2 - i1 > 1:
            # As many sentences changed on each side: pair them in order (each is then diffed alone).
            opcodes.extend(("replace", i1 + n, i1 + n + 1, j1 + n, j1 + n + 1) for n in range(i2 - i1))
        else:
            opcodes.append((tag, i1, i2, j1, j2))
    total = sum(1 for op in opcodes if op[0] != "equal")
    done = 0
    yield Progress(Step.DIFFING, 0, total)
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
        yield Progress(Step.DIFFING, done, total)
    cancel.raise_if_cancelled()
    return builder.result()


def word_diff(a: str, b: str, *, cancel: CancelToken | None = None) -> WordDiff:
    """Word-level diff of `a` (e.g. a source body) against `b` (e.g. the merged body)."""
    return run_to_end(word_diff_work(a, b, cancel=cancel))
