"""Order in time is a relation between two events, and English writes each relation both ways round:
`A, then B` = `A before B` = `B after A` = `After A, B` = `B once A`. So an order word answers for another when
both put the same event first, and never when they put it last (`before breakfast` → `after breakfast`)."""
from __future__ import annotations

import re

from .lexicon import MarkerClass
from .notes import Marker, Note

# the event written after these words comes later, or earlier, than the other one
_LATER_AFTER_IT = frozenset({"before", "prior to", "ahead of", "in advance of", "then", "until", "till",
                             "followed by"})
_EARLIER_AFTER_IT = frozenset({"after", "once", "following", "since", "as soon as"})
_CLAUSE_END = re.compile(r"[,;.:!?\n]")
_ANAPHOR = re.compile(r"\s+(?:that|this|it|which|these|those)\b", re.IGNORECASE)


def events(note: Note, marker: Marker) -> tuple[set[str], set[str]] | None:
    """(the earlier event's words, the later event's words) of an order word, or None when it relates no two
    events it names (`afterwards`, `later`)."""
    word = marker.text.casefold()
    if word not in _LATER_AFTER_IT and word not in _EARLIER_AFTER_IT:
        return None
    start, end = note.sentences[marker.sentence]
    if _ANAPHOR.match(note.text, marker.end):  # `chill them after that`: `that` is the event told before
        clause = max((m.end() for m in _CLAUSE_END.finditer(note.text, start, marker.start)), default=start)
        told = note.said_between(start, clause) if clause > start else (
            note.said_between(*note.sentences[marker.sentence - 1]) if marker.sentence else set())
        here = note.said_between(clause, marker.start)
        if not told or not here:
            return None
        return (told, here) if word in _EARLIER_AFTER_IT else (here, told)
    stop = _CLAUSE_END.search(note.text, marker.end, end)
    right = note.said_between(marker.end, stop.start() if stop else end)
    left = note.said_between(start, marker.start)
    if not left and stop:  # `After the cold crash, keg it`: the other event follows the comma
        left = note.said_between(stop.end(), end)
    if not left or not right:
        return None
    return (left, right) if word in _LATER_AFTER_IT else (right, left)


def states_same_order(note: Note, marker: Marker, other: Note, sentences: list[int]) -> bool:
    """Another order word of `other`'s sentences puts the same event first, and none puts it last."""
    mine = events(note, marker)
    if mine is None:
        return False
    earlier, later = mine
    for candidate in (*other.markers, *other.weak_markers):
        if candidate.cls != MarkerClass.ORDER or candidate.sentence not in sentences:
            continue
        theirs = events(other, candidate)
        if theirs is None:
            continue
        their_earlier, their_later = theirs
        if (earlier & their_later) or (later & their_earlier):
            continue  # the other way round
        if (earlier & their_earlier) or (later & their_later):
            return True
    return False


__all__ = ["events", "states_same_order"]
