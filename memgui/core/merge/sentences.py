"""One sentence splitter and one tokenizer for every check of a merge (the alignment, the lens, the union draft).

A sentence is a span of its text. A token is one word or one value of a sentence, with the class that decides how
it must be found in another sentence:

- **value**: a number, amount, date, time, money, URL, version, identifier… (facts/values.py, one normal form);
  found by a shared normal-form key;
- **marker**: a closed-class word that carries meaning (negation, modality, quantity, condition, order,
  frequency…: facts/lexicon.py; a past auxiliary's tense, a pronoun's person); found by the same `MarkerKey` (class,
  value) or an equivalent one only, never by a synonym;
- **name**: a capitalised word inside a sentence, or a word with digits or inner capitals; found by its spelling;
- **content**: any other open-class word; found by lemma, a main-sense synonym of the same part of speech, or a
  derivational form (lexical.py);
- **function**: articles, pronouns, auxiliaries, most prepositions: never owed.
"""
from __future__ import annotations

import bisect
import enum
import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from ..netfx import APPEND_MARKER_RE, LONE_SURROGATE, StrEnum
from .facts.lexicon import BOUNDS, FUNCTION_WORDS, PHRASES, MarkerClass

# A full stop ends a sentence unless a lower-case word or a number follows (`approx. 20`, `eff. 1 Apr`) or it ends
# a title (`Dr. Varga`); a line break, a blank line and a list item always do.
SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bSr\.)(?<!\bProf\.)"
                          r"(?<!\bNo\.)[\"”')\]]*[ \t]+(?![\sa-z\d])|(?<=[.!?])[\"”')\]]*[ \t]*\n|"
                          r"\n\s*\n|\n(?=\s*(?:[-*+•]|\d+[.)])\s)|\n")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•>#]+|\d+[.)])\s+")
_RULE_LINE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
# Function words that still carry a fact: markers are read before function words, and these few are owed too.
OWED_FUNCTION = frozenset("from until till before after since without between per vs other another or".split())
# Whose a thing is, or who acts, is a fact (`my car` is not `her car`): the personal pronouns and determiners, by
# person and number.
PERSON = {**dict.fromkeys("i me my mine myself".split(), "1s"), **dict.fromkeys("we us our ours ourselves".split(), "1p"),
          **dict.fromkeys("you your yours yourself yourselves".split(), "2"),
          **dict.fromkeys("he him his himself".split(), "3m"), **dict.fromkeys("she her hers herself".split(), "3f"),
          **dict.fromkeys("they them their theirs themselves".split(), "3p")}
# The past of an auxiliary is a fact of time (`is in the small hall` is not `was in the small hall`).
PAST_AUXILIARIES = frozenset("was were had did".split())
MAX_SENTENCE_CHARS = 4000
_OPERATORS = "~^<>=≤≥±"  # a longer "sentence" (a log line, a list with no stops) is read, never proved


# Where a clause ends inside a sentence: punctuation and the conjunctions that join clauses. A restatement may move
# whole clauses; inside one, the order of what it states is who does what to whom.
CLAUSE_BREAK = re.compile(r"[,;:()\[\]]|\s[—–-]\s|\b(?:and|but|or|then|because|so|while|whereas|when|if|unless|"
                          r"after|before|once|until|since)\b", re.IGNORECASE)


class Feature(StrEnum):
    """What a marker token states beside the lexicon's classes (MarkerClass)."""

    TENSE = "tense"  # a past auxiliary: `past`
    PERSON = "person"  # a personal pronoun or determiner: `1s`, `1p`, `2`, `3m`, `3f`, `3p` (PERSON)


class MarkerKey(NamedTuple):
    """How a marker token is found: its class and value (`negation`, `not`). A tuple: lexicon.EQUIVALENT_MARKERS's
    (class, value) pairs are keys of the same shape."""

    cls: MarkerClass | Feature
    value: str


NEGATED = MarkerKey(MarkerClass.NEGATION, "not")
# The marker each marker word is (the lexicon's phrases first, then bounds, a past auxiliary, a pronoun's person).
_MARKER_OF: dict[str, MarkerKey] = {
    **{w: MarkerKey(Feature.PERSON, p) for w, p in PERSON.items()},
    **dict.fromkeys(PAST_AUXILIARIES, MarkerKey(Feature.TENSE, "past")),
    **{w: MarkerKey(MarkerClass.BOUND, b) for w, b in BOUNDS.items()},
    **{w: MarkerKey(*cv) for w, cv in PHRASES.items()},
}


class TokenClass(enum.Enum):
    VALUE = "value"
    MARKER = "marker"
    NAME = "name"
    CONTENT = "content"
    FUNCTION = "function"


@dataclass(frozen=True)
class Token:
    text: str
    start: int  # in the sentence's text
    end: int
    cls: TokenClass
    keys: frozenset[str]  # how it is found: value keys, or the word in lower case (none for a marker)
    clause: int = 0  # which clause of its sentence it stands in (CLAUSE_BREAK)
    marker: MarkerKey | None = None  # how a marker is found

    @property
    def owed(self) -> bool:
        return self.cls is not TokenClass.FUNCTION


@dataclass(frozen=True)
class Sentence:
    index: int
    start: int  # in the note's text
    end: int
    text: str
    structural: bool = False  # an append marker or a rule line: Netclaw's structure, not a statement

    @property
    def plain(self) -> str:
        """The words and symbols alone, case-folded: two sentences the same up to case, spacing and punctuation
        are equal. An operator or a currency sign is no punctuation (`~18.2` is not `^18.2`), and the case of a
        word with digits is kept (`Blue-Heron-42` is a secret as written)."""
        return plain_text(self.text)


_PLAIN_PIECE = re.compile(r"[^\W_]+|[~^<>=≤≥±$€£¥%+#@&*/]")
_CASED = re.compile(r"[\w~^<>=≤≥±$€£¥%+#@&*/-]+")


_DIGIT_AND_CAPITAL = re.compile(r"[A-Z][\w~^<>=≤≥±$€£¥%+#@&*/-]*\d|\d[\w~^<>=≤≥±$€£¥%+#@&*/-]*[A-Z]")


@functools.lru_cache(maxsize=1 << 14)
def plain_text(text: str) -> str:
    """The form `Sentence.plain` compares in."""
    if not _DIGIT_AND_CAPITAL.search(text):
        return " ".join(_PLAIN_PIECE.findall(text.casefold()))
    keep_case = {w for w in _CASED.findall(text) if any(c.isdigit() for c in w) and any(c.isupper() for c in w)}
    pieces = _PLAIN_PIECE.findall(text)
    if not keep_case:
        return " ".join(p.casefold() for p in pieces)
    cased = {p for w in keep_case for p in _PLAIN_PIECE.findall(w)}
    return " ".join(p if p in cased else p.casefold() for p in pieces)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)


@functools.lru_cache(maxsize=32)
def split(text: str) -> tuple[Sentence, ...]:
    """The sentences of `text`, in order, each a stripped span; empty pieces dropped. A fenced code block is one
    sentence, closed or not: it is kept or left whole, never cut. (Cached: one merge's check splits its texts
    once.)"""
    out: list[Sentence] = []
    at = 0
    for fence in [*_FENCE.finditer(text), None]:
        end = fence.start() if fence else len(text)
        _split_prose(text, at, end, out)
        if fence:
            block = fence.group().strip()
            out.append(Sentence(len(out), fence.start() + fence.group().index(block[:1]),
                                fence.start() + fence.group().index(block[:1]) + len(block), block))
            at = fence.end()
    return tuple(out)


def _split_prose(text: str, start: int, stop: int, out: list[Sentence]) -> None:
    at = start
    for m in [*SENTENCE_END.finditer(text, start, stop), None]:
        end = m.start() if m else stop
        piece = text[at:end]
        lead = len(piece) - len(piece.lstrip())
        stripped = piece.strip()
        if (stripped and _WORD.search(stripped)) or (stripped and APPEND_MARKER_RE.search(stripped)):
            structural = bool(APPEND_MARKER_RE.fullmatch(stripped) or _RULE_LINE.match(stripped))
            out.append(Sentence(len(out), at + lead, at + lead + len(stripped), stripped, structural))
        if m:
            at = m.end()


def _is_name(word: str, at: int, text: str) -> bool:
    if any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:]):
        return True
    if not word[:1].isupper():
        return False
    before = _LIST_MARK.sub("", text[:at]).rstrip()
    return bool(before) and before[-1] not in ".!?:\"“(-–—•*"


# A contraction is its stem and what the clitic stands for (`doesn't` = does + not, `we'll` = we + will).
_NEGATED_STEMS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "is"}
_CLITICS = {"'ll": "will", "'d": "would", "'re": "are", "'ve": "have", "'m": "am"}


def tokens(sentence: str) -> list[Token]:
    """The tokens of one sentence, in order, each spelled as the sentence writes it. Values first (their spans
    swallow the words they are written with), then one token per remaining word; a contraction gives two."""
    from .facts.number_words import digitised
    from .facts.values import values
    # a lone surrogate (text that was not UTF-8) is read as U+FFFD, one character for one: spans do not move, and
    # the alignment never proves such a sentence anyway (align.py's `_Read.read`)
    sentence = LONE_SURROGATE.sub("\ufffd", sentence)
    text, regions = digitised(sentence.replace("’", "'"))  # `four` read as 4, in place (spans do not move)
    out: list[Token] = []
    taken: list[tuple[int, int]] = []
    for v in values(text):
        if v.implied or not v.keys:
            continue
        if any(s < v.end and v.start < e for s, e in taken):
            continue
        start = v.start - 1 if v.start and text[v.start - 1] in _OPERATORS else v.start  # `~18.2.0`, `>=3`
        stop = v.end
        for a, b in regions:  # a number word written as digits: the value is the word as the sentence spells it
            if a < stop and start < b:
                start, stop = min(start, a), max(stop, b)
        taken.append((start, stop))
        out.append(Token(sentence[start:stop].strip(), start, stop, TokenClass.VALUE, frozenset(v.keys)))
    for m in _WORD.finditer(text):
        overlapping = [(s, e) for s, e in taken if s < m.end() and m.start() < e]
        if overlapping and any(s <= m.start() and m.end() <= e for s, e in overlapping):
            continue  # a word the value is written with
        if overlapping:  # a value read inside a longer word (`00045678` of `123PA00045678`): the word is owed whole
            word = sentence[m.start():m.end()]
            out.append(Token(word, m.start(), m.end(), TokenClass.NAME, frozenset({word.casefold()})))
            continue
        out += _word_tokens(sentence, text, m.start(), m.end())
    out.sort(key=lambda t: t.start)
    out = _range_words(out)
    value_spans = [(t.start, t.end) for t in out if t.cls is TokenClass.VALUE]
    breaks = [m.start() for m in CLAUSE_BREAK.finditer(text) if not _inside(m.start(), m.group()[:1].isalpha(), value_spans)]
    return [Token(t.text, t.start, t.end, t.cls, t.keys, bisect.bisect_right(breaks, t.start), t.marker) for t in out]


_RANGE_WORDS = frozenset({"to", "through", "thru"})


def _range_words(out: list[Token]) -> list[Token]:
    """`to` between two values is the word of a range (`10 to 12 days` = `10–12 days`, `Oct 26 to Feb 15`), said by a
    dash as well: no direction of its own (the two values keep their order, `Reno to Boise` keeps its `to`)."""
    return [Token(t.text, t.start, t.end, TokenClass.FUNCTION, frozenset({t.text.casefold()}))
            if t.text.casefold() in _RANGE_WORDS and 0 < k < len(out) - 1 and out[k - 1].cls is TokenClass.VALUE
            and out[k + 1].cls is TokenClass.VALUE else t for k, t in enumerate(out)]


def _inside(at: int, word: bool, spans: list[tuple[int, int]]) -> bool:
    """A clause break inside a value is part of it (`1,000`, `09:45`, `July 14, 2026`), and so is a conjunction
    that begins one (`once a month`, `before 9am`). `spans` are sorted and do not overlap."""
    k = bisect.bisect_right(spans, (at, 1 << 62)) - 1
    return k >= 0 and (spans[k][0] < at < spans[k][1] or (word and spans[k][0] == at))


def _word_tokens(sentence: str, text: str, start: int, end: int) -> list[Token]:
    """One word as tokens: a possessive's `'s` dropped, a contraction split into its stem and its clitic."""
    word = text[start:end]
    low = word.casefold()
    if low.endswith("n't") and len(low) > 3:
        stem = low[:-3]
        return [*_as(sentence, start, end - 3, _NEGATED_STEMS.get(stem, stem), text),
                Token(sentence[end - 3:end], end - 3, end, TokenClass.MARKER, frozenset(), marker=NEGATED)]
    if low == "cannot":
        return [*_as(sentence, start, start + 3, "can", text),
                Token(sentence[start + 3:end], start + 3, end, TokenClass.MARKER, frozenset(), marker=NEGATED)]
    for clitic, meaning in _CLITICS.items():
        if low.endswith(clitic) and len(low) > len(clitic):
            cut = end - len(clitic)
            return [*_as(sentence, start, cut, low[: -len(clitic)], text), *_as(sentence, cut, end, meaning, text)]
    possessive = _POSSESSIVE.search(word)
    cut = start + possessive.start() if possessive else end
    return _as(sentence, start, cut, low[: cut - start], text)


def _as(sentence: str, start: int, end: int, low: str, text: str) -> list[Token]:
    """The token of the word at [start, end), read as `low` (its lower-case form, or what a clitic stands for)."""
    word = sentence[start:end]
    if not low:
        return []
    if low == "one":  # a number however it is used (`Declan is one on alternate weeks`)
        return [Token(word, start, end, TokenClass.VALUE, frozenset({"number:1"}))]
    marker = _MARKER_OF.get(low)
    if marker is not None and (marker.cls is not Feature.PERSON or not (word.isupper() and len(word) > 1)):
        return [Token(word, start, end, TokenClass.MARKER, frozenset(), marker=marker)]
    if low in FUNCTION_WORDS and low not in OWED_FUNCTION and not (word.isupper() and _is_name(word, start, text)):
        # (a capital inside a sentence is no article: the `A` of `A+`, the `IT` of `IT desk`)
        return [Token(word, start, end, TokenClass.FUNCTION, frozenset({low}))]
    if _is_name(word, start, text):
        return [Token(word, start, end, TokenClass.NAME, frozenset({low}))]
    return [Token(word, start, end, TokenClass.CONTENT, frozenset({low}))]


__all__ = [
    "CLAUSE_BREAK",
    "MAX_SENTENCE_CHARS",
    "NEGATED",
    "OWED_FUNCTION",
    "PERSON",
    "SENTENCE_END",
    "Feature",
    "MarkerKey",
    "Sentence",
    "Token",
    "TokenClass",
    "plain_text",
    "split",
    "tokens",
]
