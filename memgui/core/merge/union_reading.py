"""Each note the sentence union reads, read once (issue 26 item 5): MergeGuard's tokens (`extract_tokens`) and
the strict lens's facts (`strict.facts`) of a sentence or clause are taken from one scan of the whole note, by
the span the text holds in it, instead of scanning every sentence, then every clause, again.

Exact, not approximate: a span's matches are the note's matches inside it when no match of the note crosses
either end, and the characters just outside it are ones no pattern's look-around tells from the text's edge
(white space, a parenthesis, ";" — and "," on the right, not followed by a digit). Then every pattern, tried at
each place inside the span, takes the same paths in the span alone as in the note (a path that read past an end
failed in the note, and fails at the span's end). A span that is not clean, and a text that is no span of a
note read (a clause list joined anew), is read alone, as before. Whether a capitalised word is a proper name
depends on what starts a sentence: that is judged in the text itself. The scan uses the lens's and the guard's
own patterns and pre-tests; tests/core/merge/test_union_reading.py holds every answer equal to reading the text
alone, and fails when the lens's patterns change in a way the scan does not follow.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import re
from array import array
from collections.abc import Iterable

from ..netfx import fold_case
from . import guard_tokens, strict
from .guard import extract_tokens

Facts = tuple[tuple[str, str], ...]  # (token, kind), as `strict.facts` and `extract_tokens` give them

_LEFT_CLEAN = frozenset(" \t\n\r();")  # before a span: no look-behind tells these from the text's start
_RIGHT_CLEAN = frozenset(" \t\n\r();")  # after it: no look-ahead tells these from the text's end
# A raw match is one integer (a note of 1 MB can hold a million): its start, pattern id and length, so that the
# matches sort by start and an array holds each in 8 bytes. Pattern ids: MergeGuard's classes first, then the
# strict lens's patterns, then proper names.
_GUARD, _STRICT, _NAME = 0, 32, 255
_LENGTH = (1 << 24) - 1  # a longer match (or a note of 2 GB) is not packed: the note is then read text by text
assert len(guard_tokens.TOKEN_KINDS) <= _STRICT and _STRICT + len(strict.FACT_KINDS) < _NAME
_CALENDAR_KINDS = frozenset({"iso_date", "written_date", "reverse_date"})  # what `calendar_date` reads
_CALENDAR_CLASSES = tuple(number for number, kind in enumerate(guard_tokens.TOKEN_KINDS) if kind in _CALENDAR_KINDS)


def _pattern(key: int) -> int:
    return (key >> 24) & 0xFF


def _packed(matches: Iterable[re.Match[str]], pattern: int) -> list[int]:
    """The matches packed (a length of `_LENGTH` or more is written `_LENGTH`: the note is then not read by spans)."""
    return [(m.start() << 32) | (pattern << 24) | min(m.end() - m.start(), _LENGTH) for m in matches]


def _too_long(keys: list[int]) -> bool:
    return any(key & _LENGTH == _LENGTH for key in keys)


def _match(text: str, key: int) -> str:
    start = key >> 32
    return text[start:start + (key & _LENGTH)]


@functools.lru_cache(maxsize=4096)
def text_facts(text: str) -> Facts:
    """The strict lens's facts of `text` read alone (asked of a clause several times, read once)."""
    return tuple(strict.facts(text))


@functools.lru_cache(maxsize=4096)
def text_tokens(text: str) -> Facts:
    """MergeGuard's tokens of `text` read alone."""
    return tuple(extract_tokens(text))


@functools.lru_cache(maxsize=1 << 16)
def normalised(text: str) -> str:
    """`strict.normalise_text`, once per distinct text (the same tokens come back clause after clause)."""
    return strict.normalise_text(text)


@functools.lru_cache(maxsize=1 << 16)
def _fact(match: str) -> tuple[str, str]:
    """A lens match as `strict.facts` keeps it, and its normal form."""
    token = match.strip().rstrip(".,:;)]")
    return token, normalised(token)


@functools.lru_cache(maxsize=1 << 16)
def _token(match: str) -> tuple[str, str]:
    """A guard match as `extract_tokens` keeps it, and its case-folded form."""
    token = match.rstrip(guard_tokens._TRAILING)
    return token, fold_case(token)


class NoteReading:
    """One note, scanned whole on demand: every raw match of every pattern with its place, sorted by start."""

    def __init__(self, text: str):
        self.text = text
        self.spans_pay = False  # set by the caller: most of the note will be asked about, so scan it whole
        self._strict: list[int] | None = None  # the lens's patterns' matches and names, pattern by pattern
        self._keys: array[int] | None = None  # and the guard's classes, sorted by start, once spans are asked for
        self._starts: array[int] = array("q")
        self._furthest: array[int] = array("q")  # the furthest end of the matches up to each (does one cross?)
        self._whole: Facts | None = None
        self._unpacked = False  # a match too long to pack, or a note too long: every text is read alone

    def whole_facts(self) -> Facts:
        """`strict.facts` of the whole note: from the scan when there is one, else the lens's own reading."""
        if self._whole is None and self._strict is None:
            self._whole = text_facts(self.text) if len(self.text) <= 4096 else tuple(strict.facts(self.text))
        if self._whole is None and _too_long(self._strict_matches()):
            self._whole = tuple(strict.facts(self.text))
        if self._whole is None:
            self._whole = _facts(text_tokens(self.text), self._strict_matches(), self.text, 0, self.text)
        return self._whole

    def span(self, start: int, end: int) -> tuple[Facts, Facts] | None:
        """(tokens, facts) of `text[start:end]`, or None when the span is not clean (read it alone)."""
        text = self.text
        if (start and text[start - 1] not in _LEFT_CLEAN) or (end < len(text) and text[end] not in _RIGHT_CLEAN
                                                              and not _comma_ends(text, end)):
            return None
        keys = self._keys if self._keys is not None or self._unpacked else self._index()
        if keys is None:
            return None
        first, last = bisect.bisect_left(self._starts, start), bisect.bisect_left(self._starts, end)
        if (first and self._furthest[first - 1] > start) or (last and self._furthest[last - 1] > end):
            return None  # a match crosses an end
        inside = sorted(keys[first:last], key=_pattern)  # by pattern, each in text order (the sort is stable)
        split = bisect.bisect_left(inside, _STRICT, key=_pattern)
        tokens = _tokens([(_pattern(key), _match(text, key)) for key in inside[:split]])
        return tokens, _facts(tokens, inside[split:], text, start, text[start:end])

    def _strict_matches(self) -> list[int]:
        if self._strict is None:
            self._strict = []
            for number, matches in strict.fact_scans(self.text):
                self._strict += _packed(matches, _NAME if number == strict.NAME_PATTERN else _STRICT + number)
        return self._strict

    def _index(self) -> array[int] | None:
        text = self.text
        self._unpacked = len(text) >= 1 << 31
        if self._unpacked:
            return None
        patterns = guard_tokens._patterns_for(text)
        keys = list(self._strict_matches())
        seen: dict[object, object] = {}  # MergeGuard's pre-tests (exact: a class they rule out cannot match)
        for number, pattern in enumerate(patterns.patterns):
            if not guard_tokens._may_match(number, text, patterns is guard_tokens._ASCII_PATTERNS, seen):
                continue
            matches = (guard_tokens._file_path_matches(text, patterns) if number == guard_tokens._FILE_PATH
                       else pattern.finditer(text))
            keys += _packed(matches, _GUARD + number)
        self._unpacked = _too_long(keys)
        if self._unpacked:
            return None
        keys.sort()
        self._keys = array("q", keys)
        self._starts = array("q", (key >> 32 for key in keys))
        self._furthest = array("q", itertools.accumulate(((key >> 32) + (key & _LENGTH) for key in keys), max))
        return self._keys


def _facts(tokens: Facts, matches: Iterable[int], note: str, start: int, text: str) -> Facts:
    """`strict.facts`'s collection: its tokens, then each pattern's matches in order, then the proper names
    (capitalised words not at a sentence start, judged in `text`, which starts at `start` in `note`); the first
    spelling of each normal form kept."""
    found: dict[str, tuple[str, str]] = {}
    for token, kind in tokens:
        token, key = _fact(token)
        if key and key not in found:
            found[key] = (token, kind)
    for packed in matches:
        at = packed >> 32
        number, match = (packed >> 24) & 0xFF, note[at:at + (packed & _LENGTH)]  # `_pattern`, `_match`, inlined
        if number == _NAME:
            if not strict.is_name(text, at - start, match):
                continue
            kind = "name"
        else:
            kind = strict.FACT_KINDS[number - _STRICT]
        token, key = _fact(match)
        if key and key not in found:
            found[key] = (token, kind)
    return tuple(found.values())


def _tokens(matches: Iterable[tuple[int, str]]) -> Facts:
    """`extract_tokens`'s collection from the (class, match) of each class in order: each match without its
    trailing punctuation, the first spelling of each case-folded token, and the first class that found it."""
    found: dict[str, tuple[str, str]] = {}
    for number, match in matches:
        token, key = _token(match)
        if token and key not in found:
            found[key] = (token, guard_tokens.TOKEN_KINDS[number - _GUARD])
    return tuple(found.values())


def _comma_ends(text: str, end: int) -> bool:
    """A "," after a span, then white space or the end: no number reads on through it (`[.,]\\d`)."""
    return text[end] == "," and (end + 1 == len(text) or text[end + 1] in " \t\n\r")


def _dates_alone(text: str) -> tuple[Facts, tuple[str, ...]]:
    """`Reader.dates` of a text read alone, by the date patterns only: no earlier class or pattern finds a token
    of their shape (a date holds a space or a dash between digits, and a month name or a year), so what they
    find is what the full readings list, in the same order."""
    patterns = guard_tokens._patterns_for(text).patterns
    calendar = _tokens((number, match) for number in _CALENDAR_CLASSES for match in patterns[number].findall(text))
    day_months: dict[str, str] = {}
    for _, matches in strict.fact_scans(text, ("day_month",)):
        for match in matches:
            token, key = _fact(match.group())
            if key:
                day_months.setdefault(key, token)
    return calendar, tuple(day_months.values())


class Reader:
    """The tokens and facts of every text the union asks about, each read once: from the scan of a note when
    the text was located in one (`locate`), else alone."""

    def __init__(self) -> None:
        self._notes: dict[str, NoteReading] = {}
        # where a text stands: its note and its start, in two maps (a (note, start) tuple per text would be one
        # more object the garbage collector tracks for good: tens of thousands of them on a long note)
        self._at: dict[str, int] = {}
        self._in: dict[str, NoteReading] = {}
        # a text's tokens and facts, in two maps: a (tokens, facts) pair would stay tracked by the garbage
        # collector into the oldest generation (a tuple is untracked only once what it holds is, and a collection
        # looks at the pair before the tuples it holds), and tens of thousands of them brought full collections
        self._tokens: dict[str, Facts] = {}
        self._facts: dict[str, Facts] = {}
        self.whole: dict[str, dict[str, str]] = {}  # the union's memo: a source's facts that stand whole in it

    def note(self, text: str) -> NoteReading:
        reading = self._notes.get(text)
        if reading is None:
            reading = self._notes[text] = NoteReading(text)
        return reading

    def locate(self, text: str, note: NoteReading, start: int) -> None:
        """`text` stands at `start` in `note` (checked): read it from there when asked."""
        if start >= 0 and text not in self._at and note.text.startswith(text, start):
            self._at[text] = start
            self._in[text] = note

    def whole_facts(self, text: str) -> Facts:
        """`strict.facts` of a whole note."""
        return self.note(text).whole_facts() if len(text) > 256 else text_facts(text)

    def tokens(self, text: str) -> Facts:
        known = self._tokens.get(text)
        return known if known is not None else self._read(text)[0]

    def facts(self, text: str) -> Facts:
        known = self._facts.get(text)
        return known if known is not None else self._read(text)[1]

    def dates(self, text: str) -> tuple[Facts, tuple[str, ...]]:
        """MergeGuard's full dates of `text` (the tokens `calendar_date` reads) and the strict lens's day-month
        facts, as `tokens` and `facts` list them; a text not read yet and not a span of a scanned note (a
        clause list joined anew, a whole note) is scanned for these patterns only."""
        tokens = self._tokens.get(text)
        note = self._in.get(text)
        if tokens is None and note is not None and note.spans_pay and len(text) < len(note.text):
            tokens = self._read(text)[0]
        if tokens is None:
            return _dates_alone(text)
        return (tuple(item for item in tokens if item[1] in _CALENDAR_KINDS),
                tuple(token for token, kind in self._facts[text] if kind == "day_month"))

    def _read(self, text: str) -> tuple[Facts, Facts]:
        tokens, facts = self._from_note(text) or (text_tokens(text), text_facts(text))
        self._tokens[text] = tokens
        self._facts[text] = facts
        return tokens, facts

    def _from_note(self, text: str) -> tuple[Facts, Facts] | None:
        note = self._in.get(text)
        if note is None:
            return None
        start = self._at[text]
        if start == 0 and len(text) == len(note.text):
            return text_tokens(text), self.whole_facts(text)
        if not note.spans_pay:  # few texts asked: reading them alone is cheaper than scanning the note
            return None
        return note.span(start, start + len(text))


__all__ = ["Facts", "NoteReading", "Reader", "normalised", "text_facts", "text_tokens"]
