"""Conflict evidence between two sources: what one states that the other does not, and where both state a
fact of the same kind with different values (a version, a date, a time, a number, a name, an identifier).

A reviewer deciding "same fact?" needs exactly this beside the sources: two notes about a Postgres upgrade
that disagree on `15.7` vs `16.4`, or on prod vs staging, are siblings, not duplicates. `likely_different`
marks a whole cluster before any model call when its members each name their own identifiers and share
none (different packages, different hosts, different versions of different things).

Pure: strings in, frozen values out. Facts are those of the strict lens (strict.py), compared whole.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

from ..netfx import StrEnum
from .contrasts import contrasts
from .diff import DiffSpan, word_diff
from .facts import wordnet
from .facts.lens import check_facts
from .facts.notes import Note, lemma_of, read_note
from .facts.report import Direction, FactKind
from .guard import TokenKind, extract_tokens
from .strict import ScanKind, StrictKind, contains_whole, facts, normalise_text


class ConflictClass(StrEnum):
    """The classes a conflict is reported in that are no fact kind of the lens (report.FactKind has the rest)."""

    NAME = "name"
    IDENTIFIER = "identifier"
    AMOUNT = "amount"  # `value_conflicts`: amounts of one unit (the conflict's `unit`)
    ALIGNED_VALUE = "aligned value"  # the alignment: two aligned sentences that differ in a value
    WORDING = "wording"  # … or in other words


FactClass = FactKind | ConflictClass  # a conflict's class: a lens fact kind, or one of ConflictClass

_IDENTIFIER, _NAME = ConflictClass.IDENTIFIER, ConflictClass.NAME
# Fact kinds (strict.facts) grouped into the classes a conflict is reported in.
CLASS_OF_KIND: dict[StrictKind, FactClass] = {
    TokenKind.VERSION: FactKind.VERSION, TokenKind.URL: FactKind.URL, ScanKind.URL: FactKind.URL,
    **dict.fromkeys((TokenKind.ISO_DATE, TokenKind.WRITTEN_DATE, TokenKind.REVERSE_DATE, TokenKind.SLASH_DATE,
                     ScanKind.DAY_MONTH, ScanKind.MONTH), FactKind.DATE),
    ScanKind.WEEKDAY: FactKind.WEEKDAY, ScanKind.TIME: FactKind.TIME,
    **dict.fromkeys((TokenKind.INTEGER, ScanKind.NUMBER, TokenKind.QUANTITY, ScanKind.QUANTITY, ScanKind.MONEY),
                    FactKind.NUMBER),
    ScanKind.NAME: _NAME, ScanKind.EMAIL: FactKind.EMAIL, ScanKind.CHANNEL: FactKind.CHANNEL,
    TokenKind.FILE_PATH: FactKind.PATH, ScanKind.PATH: FactKind.PATH,
    **dict.fromkeys((TokenKind.DOTTED_IDENTIFIER, TokenKind.CAMEL_CASE, TokenKind.SNAKE_CASE, TokenKind.KEBAB_CASE,
                     TokenKind.ALL_CAPS), _IDENTIFIER),
    ScanKind.NEGATION: FactKind.NEGATION,
}
assert set(CLASS_OF_KIND) == {*TokenKind, *ScanKind}
# Classes that name a thing: a cluster whose members share none of these is "likely different facts".
NAMING_CLASSES: frozenset[FactClass] = frozenset({
    _IDENTIFIER, FactKind.VERSION, FactKind.URL, FactKind.PATH, FactKind.EMAIL, FactKind.CHANNEL, _NAME})


@dataclass(frozen=True)
class Conflict:
    fact_class: FactClass
    a: tuple[str, ...]  # values only the first source states
    b: tuple[str, ...]  # values only the second source states
    unit: str = ""  # an AMOUNT's unit, as `value_conflicts` groups amounts (`€#/month`, `# ng/ml`)

    def to_dict(self, a_id: str = "A", b_id: str = "B") -> dict[str, Any]:
        return {"class": self.fact_class, a_id: list(self.a), b_id: list(self.b)}


@dataclass(frozen=True)
class PairEvidence:
    only_in_a: tuple[tuple[str, FactClass], ...]  # (fact, class) the second source lacks
    only_in_b: tuple[tuple[str, FactClass], ...]
    shared: tuple[tuple[str, FactClass], ...]
    conflicts: tuple[Conflict, ...]
    spans: tuple[DiffSpan, ...]  # word diff of the first source against the second (empty unless asked)

    def to_dict(self, a_id: str = "A", b_id: str = "B") -> dict[str, Any]:
        return {
            "only_in": {a_id: [f for f, _ in self.only_in_a], b_id: [f for f, _ in self.only_in_b]},
            "conflicts": [c.to_dict(a_id, b_id) for c in self.conflicts],
            "spans": [
                {"op": s.op, "a": [s.a_start, s.a_end], "b": [s.b_start, s.b_end], "a_text": s.a_text,
                 "b_text": s.b_text}
                for s in self.spans if s.changed
            ],
        }


def _classified(text: str) -> list[tuple[str, FactClass]]:
    """The facts of `text` with their class, each a whole token there and not a piece of a longer fact
    (the `06` of `2025-06-11`, the `CVE` of `CVE-2024-35195` say nothing on their own)."""
    own = normalise_text(text)
    found = [(token, CLASS_OF_KIND[kind]) for token, kind in facts(text)
             if contains_whole(own, normalise_text(token))]
    keys = [normalise_text(t) for t, _ in found]
    return [f for f, key in zip(found, keys) if not any(key != other and key in other for other in keys)]


def pair_evidence(a: str | None, b: str | None, *, a_title: str = "", b_title: str = "",
                  with_diff: bool = True) -> PairEvidence:
    """What differs between two sources (titles count as part of each source's facts)."""
    a, b = a or "", b or ""
    a_all, b_all = f"{a_title}\n{a}", f"{b_title}\n{b}"
    a_norm, b_norm = normalise_text(a_all), normalise_text(b_all)
    a_facts, b_facts = _classified(a_all), _classified(b_all)
    only_a = tuple(f for f in a_facts if not contains_whole(b_norm, normalise_text(f[0])))
    only_b = tuple(f for f in b_facts if not contains_whole(a_norm, normalise_text(f[0])))
    shared = tuple(f for f in a_facts if contains_whole(b_norm, normalise_text(f[0])))
    conflicts = []
    for fact_class in dict.fromkeys(c for _, c in only_a):
        mine = tuple(t for t, c in only_a if c == fact_class)
        theirs = tuple(t for t, c in only_b if c == fact_class)
        if mine and theirs:
            conflicts.append(Conflict(fact_class, mine, theirs))
    named = {(c.fact_class, value) for c in conflicts for value in (*c.a, *c.b)}
    for conflict in fact_conflicts(a, b):  # the fact model: changed values, words, markers, bindings
        if not any((conflict.fact_class, value) in named for value in (*conflict.a, *conflict.b) if value != "—"):
            conflicts.append(conflict)
            named |= {(conflict.fact_class, value) for value in (*conflict.a, *conflict.b)}
    for contrast in contrasts(a, b):  # the alignment: any two aligned sentences that differ, whatever the class
        words = {w.casefold() for w in (*contrast.a_words, *contrast.b_words)}
        if not any(value.casefold() in words or any(w in value.casefold().split() for w in words)
                   for _, value in named):
            # a value that differs keeps two notes apart before any decision; other words are wording (groups.py)
            fact_class = ConflictClass.ALIGNED_VALUE if contrast.of_values else ConflictClass.WORDING
            conflicts.append(Conflict(fact_class, contrast.a_words, contrast.b_words))
            named |= {(fact_class, value) for value in (*contrast.a_words, *contrast.b_words)}
    spans = word_diff(a, b).spans if with_diff else ()
    return PairEvidence(only_a, only_b, shared, tuple(conflicts), tuple(spans))


# What the lens reports when the second note is read as a merge of the first: every kind it knows.
_CONTRADICTIONS = frozenset({Direction.CHANGED})
_POLARITY_CLASSES = frozenset({
    FactKind.NEGATION, FactKind.QUANTIFIER, FactKind.FREQUENCY, FactKind.RESTRICTION, FactKind.CONDITION,
    FactKind.COMPARISON, FactKind.ORDER, FactKind.DIRECTION, FactKind.MODALITY, FactKind.HEDGE, FactKind.STATE})
_NEGATED_WORD = re.compile(r"(?:un|non-?)([^\W\d_]{3,})", re.IGNORECASE)


def fact_conflicts(a: str | None, b: str | None) -> tuple[Conflict, ...]:
    """Where two notes state the same thing differently, by the fact model (facts/lens.py): a value, word or
    name changed in a sentence both state (`Sunflower42` / `Sunflower24`, `sister` / `wife`, `east` / `west`),
    a marker one states and the other's restatement lacks (`not`, `all` / `some`, `must` / `may`), or two
    names that trade places. Facts only one note states are not conflicts (see `only_in`)."""
    found: dict[FactKind, tuple[list[str], list[str]]] = {}
    # both ways round: a changed fact is seen from either note, but a marker only from the note that has it
    for first, second, flipped in ((a, b, False), (b, a, True)):
        for item in check_facts([first or ""], second or "").at_risk:
            negated = _NEGATED_WORD.fullmatch(item.body_token or item.token or "") if item.kind is FactKind.TERM else None
            if negated and re.search(rf"\b{re.escape(negated.group(1))}\b", (first if item.direction is Direction.ADDED
                                                                              else second) or "", re.IGNORECASE):
                item = dataclasses.replace(item, kind=FactKind.NEGATION)  # `paid` / `unpaid`: one word, one negated
            if item.direction in _CONTRADICTIONS or item.kind in _POLARITY_CLASSES:
                mine, theirs = found.setdefault(item.kind, ([], []))
                if flipped:
                    mine, theirs = theirs, mine
                if item.direction is not Direction.ADDED:
                    mine.append(item.token)
                if item.direction is not Direction.DROPPED:
                    theirs.append(item.body_token or item.token)
    return tuple(Conflict(kind, tuple(dict.fromkeys(x)) or ("—",), tuple(dict.fromkeys(y)) or ("—",))
                 for kind, (x, y) in found.items())


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_AMOUNT = re.compile(r"\d.*[^\W\d_]|[€$£¥]\s?\d")  # a number with a unit or a currency


_AMOUNT_KINDS = frozenset({ScanKind.MONEY, ScanKind.QUANTITY, TokenKind.QUANTITY})


def _amounts(text: str) -> dict[str, set[str]]:
    """Amounts with a unit (money, rates, quantities) by their unit: `€1,150/month` -> {"€#/month": …}."""
    values = {normalise_text(token) for token, kind in facts(text) if kind in _AMOUNT_KINDS}
    out: dict[str, set[str]] = {}
    for value in values:
        if not any(value != other and value in other for other in values):  # not the `1,150/month` of `€1,150/month`
            out.setdefault(_NUMBER.sub("#", value), set()).add(value)
    return out


_DATE_FORMATS = ("%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y")
_ORDINAL_OR_PUNCT = re.compile(r"(?<=\d)(?:st|nd|rd|th)\b|[,.]", re.IGNORECASE)
_SEPT = re.compile(r"\bsept\b", re.IGNORECASE)  # strptime knows Sep and September, not Sept


def _cleaned_date(token: str) -> str:
    """A date as strptime reads it: no ordinal suffixes or punctuation, `Sept` as `Sep`, single spaces."""
    return " ".join(_SEPT.sub("Sep", _ORDINAL_OR_PUNCT.sub(" ", token)).split())


def calendar_date(token: str, kind: TokenKind) -> str | None:
    """A MergeGuard date token as YYYY-MM-DD however it was written (`2 Sep 2025`, `September 2nd, 2025`,
    `2025-09-02T10:00Z`); None for a token that is not a full date."""
    if kind is TokenKind.ISO_DATE:
        return token[:10]
    if kind in (TokenKind.WRITTEN_DATE, TokenKind.REVERSE_DATE):
        cleaned = _cleaned_date(token)
        for fmt in _DATE_FORMATS:
            try:
                return datetime.strptime(cleaned, fmt).date().isoformat()
            except ValueError:
                continue
    return None


_DAY_MONTH_FORMATS = ("%d %B", "%d %b", "%B %d", "%b %d")


def day_and_month(token: str) -> str | None:
    """A strict-lens day–month fact (`2 December`, `Dec 2nd`, `14th of August`) as MM-DD; None otherwise."""
    cleaned = _cleaned_date(token.replace(" of ", " "))
    for fmt in _DAY_MONTH_FORMATS:
        try:
            return datetime.strptime(f"2000 {cleaned}", f"%Y {fmt}").strftime("%m-%d")  # 2000: 29 February exists
        except ValueError:
            continue
    return None


def _calendar_dates(text: str) -> set[str]:
    """The full dates a note states (day, month and year), each as YYYY-MM-DD however it was written."""
    dates = (calendar_date(token, kind) for token, kind in extract_tokens(text))
    return {date for date in dates if date}


def value_conflicts(a: str | None, b: str | None) -> tuple[Conflict, ...]:
    """Values two notes disagree on: amounts of the same unit (`€1,150/month` vs `€1,173/month`, `18 ng/mL` vs
    `41 ng/mL`) or calendar dates (`2025-11-18` vs `2026-02-20`; `1 May 2026` and `2026-05-01` agree), where
    each states one the other does not. Two notes that disagree on a value are not the same fact written
    twice — one is another month, test or plan, or supersedes the other — so they are never merged without
    the reviewer choosing to."""
    a, b = a or "", b or ""
    a_norm, b_norm = normalise_text(a), normalise_text(b)
    a_amounts, b_amounts = _amounts(a), _amounts(b)
    found = []
    for unit in sorted(a_amounts.keys() & b_amounts.keys()):
        mine = tuple(sorted(v for v in a_amounts[unit] if not contains_whole(b_norm, v)))
        theirs = tuple(sorted(v for v in b_amounts[unit] if not contains_whole(a_norm, v)))
        if mine and theirs:
            found.append(Conflict(ConflictClass.AMOUNT, mine, theirs, unit))
    a_dates, b_dates = _calendar_dates(a), _calendar_dates(b)
    if a_dates - b_dates and b_dates - a_dates:  # `1 May 2026` and `2026-05-01` are the same date
        found.append(Conflict(FactKind.DATE, tuple(sorted(a_dates - b_dates)), tuple(sorted(b_dates - a_dates))))
    return tuple(found)


# Changes that bind another value to the same subject: a value of one kind where the other note's sentence
# that restates it has another, two subjects that traded values, a word turned into its opposite.
_BINDING_KINDS = frozenset({
    FactKind.NUMBER, FactKind.QUANTITY, FactKind.MONEY, FactKind.RATE, FactKind.DATE, FactKind.TIME, FactKind.WEEKDAY,
    FactKind.MONTH, FactKind.FREQUENCY, FactKind.VERSION, FactKind.URL, FactKind.EMAIL, FactKind.PHONE,
    FactKind.ORDINAL, FactKind.PATH, FactKind.BINDING})


def _value_changes(a: str | None, b: str | None) -> list[Conflict]:
    """Changed values of one subject: the value's neighbouring word (before or after it in its sentence) is the
    same in both notes (`port 5432` / `port 5433`, `rent is €1,150` / `rent is €1,173`), or two names or
    values traded places. A number near other words (`Ryzen 9` / `VE 8.2`) is another fact, not a conflict."""
    a_note, b_note = read_note(a or ""), read_note(b or "")
    out = []
    for item in check_facts([a or ""], b or "").at_risk:
        if item.direction is not Direction.CHANGED or item.kind not in _BINDING_KINDS:
            continue
        if item.kind is FactKind.BINDING or _neighbours(a_note, item.source_span) & _neighbours(b_note, item.body_span):
            out.append(Conflict(item.kind, (item.token,), (item.body_token or "",)))
    return out


def _neighbours(note: Note, span: tuple[int, int] | None) -> set[str]:
    """The content words just before and just after a span, in its sentence."""
    if span is None:
        return set()
    before = [w for w in note.words if w.end <= span[0]]
    after = [w for w in note.words if w.start >= span[1]]
    near = set()
    if before and not note.text[before[-1].end:span[0]].strip(" ,:(*_`").count(".") and \
            len(note.text[before[-1].end:span[0]]) < 24:
        near.add(before[-1].lemma)
    if after and len(note.text[span[1]:after[0].start]) < 12 and "." not in note.text[span[1]:after[0].start]:
        near.add(after[0].lemma)
    return near


def _contradictions(bodies: Sequence[str | None]) -> str:
    """One line when two notes bind different values to the same subject (a changed value or binding in a
    sentence both state): two such notes are siblings, not duplicates. "" when none do."""
    for i, j in combinations(range(len(bodies)), 2):
        conflicts = [c for c in _value_changes(bodies[i], bodies[j]) if c.fact_class in _BINDING_KINDS]
        if conflicts:
            first = conflicts[0]
            return (f"notes {i + 1} and {j + 1} state the same thing differently: {first.fact_class} "
                    f"{', '.join(first.a)} vs {', '.join(first.b)}")
        opposite = _opposite(bodies[i] or "", bodies[j] or "")
        if opposite:
            return f"notes {i + 1} and {j + 1} say opposite things in look-alike sentences: {opposite}"
    return ""


def _opposite(a: str, b: str) -> str:
    """Two look-alike sentences that differ by a word and its antonym (`home kit` / `away kit`, `paid` /
    `unpaid`): each is about its own thing. "x vs y", or ""."""
    def forms(word: str) -> set[str]:
        return {word.casefold(), lemma_of(word.casefold())}  # `paid` / `unpaid`: WordNet pairs the participles

    for c in contrasts(a, b):
        for x in c.a_words:
            for y in c.b_words:
                if any(wordnet.antonyms(p, q) for p in forms(x) for q in forms(y)):
                    return f"{x} vs {y}"
    return ""


@dataclass(frozen=True)
class DifferentFactsMark:
    likely_different: bool
    reason: str  # one line for the reviewer; "" when not marked


def likely_different(bodies: Sequence[str | None], titles: Sequence[str | None] = ()) -> DifferentFactsMark:
    """A cluster is likely different facts when every pair of members names things (identifiers, versions,
    URLs, paths, names) that the other lacks, and the pair shares none of them: each note is about its own
    thing, whatever its wording has in common with the others."""
    titles = list(titles) + [""] * (len(bodies) - len(titles))
    if len(bodies) < 2:
        return DifferentFactsMark(False, "")
    contradictions = _contradictions(bodies)
    if contradictions:
        return DifferentFactsMark(True, contradictions)
    for i, j in combinations(range(len(bodies)), 2):
        ev = pair_evidence(bodies[i], bodies[j], a_title=titles[i] or "", b_title=titles[j] or "", with_diff=False)
        own_i = [f for f, c in ev.only_in_a if c in NAMING_CLASSES]
        own_j = [f for f, c in ev.only_in_b if c in NAMING_CLASSES]
        # a shared name, or a shared amount with its unit (`18 ng/mL`, `€1,150/month`): the same thing
        shares = [f for f, c in ev.shared if c in NAMING_CLASSES or (c is FactKind.NUMBER and _AMOUNT.search(f))]
        if shares or not own_i or not own_j:
            return DifferentFactsMark(False, "")
    return DifferentFactsMark(True, "each member names its own identifiers and none are shared")


__all__ = ["CLASS_OF_KIND", "NAMING_CLASSES", "Conflict", "ConflictClass", "DifferentFactsMark", "FactClass",
           "PairEvidence", "fact_conflicts", "likely_different", "pair_evidence", "value_conflicts"]
