"""When a marker of one note need not stand word for word in the other: a range or a pair writes it (`from 8
until 1`, `both … and`), or a negation only turns a bound round. lens.py asks these before it reports a marker
dropped or added."""
from __future__ import annotations

import re

from .lexicon import MarkerClass
from .notes import Marker, Note
from .value_types import ValueKind
from .values import NUMBER_WORDS

_NEGATED_BOUND = re.compile(r"\s+(?:\w+\s+)?(?:below|under|above|over|more\s+than|less\s+than|fewer\s+than|"
                            r"earlier\s+than|later\s+than)\s+(?:[\d$€£¥]|(?:" + "|".join(sorted(NUMBER_WORDS)) +
                            r")\b)", re.IGNORECASE)


def negates_a_bound(note: Note, marker: Marker) -> bool:
    """`never going below three`: the negation turns the bound round (values read it as `at least three`), and says
    nothing more."""
    return marker.cls == MarkerClass.NEGATION and bool(_NEGATED_BOUND.match(note.text, marker.end))


_BOTH_AND = re.compile(r"both\b[^.;:!?\n]{1,80}?\band\b", re.IGNORECASE)


def both_and(note: Note, marker: Marker) -> bool:
    """`both the nut … and the saddle`: `both` before its `and` counts the two things the pair names, which the
    pair says already — when a body drops it. Added, it may claim for both what a source said of one
    (`keep brand names in German; translate units` → `both brand names and units stay in German`)."""
    return marker.key == (MarkerClass.QUANTIFIER, "both") and bool(_BOTH_AND.match(note.text, marker.start))


_RANGE_WORDS = frozenset({"until", "till", "til", "through", "thru", "to"})


def glues_a_range(note: Note, marker: Marker) -> bool:
    """`from 8 in the morning until 1` is the range `8am–1pm`: the word between its two ends is how the range is
    written, and the two values say it."""
    if marker.text.casefold() not in _RANGE_WORDS:
        return False
    before = [v for v in note.values if v.end <= marker.start and marker.start - v.end <= 3]
    after = [v for v in note.values if v.start >= marker.end and v.start - marker.end <= 3]
    return any(a.kind == b.kind or {a.kind, b.kind} <= {ValueKind.TIME, ValueKind.NUMBER} for a in before for b in after)


_PAIR = re.compile(r"\b(?:and|plus)\b|[&+]")


def pair_restated(marker: Marker, sentences: list[str]) -> bool:
    """`both` says there are two, and so does a pair the other side joins (`slip due Fri + $12` = `the slip and
    $12 are both due Friday`); not a pair only the side that says `both` names (`Ben and Lou are both vegan`)."""
    return marker.text.casefold() == "both" and any(_PAIR.search(text) for text in sentences)


__all__ = ["both_and", "glues_a_range", "negates_a_bound", "pair_restated"]
