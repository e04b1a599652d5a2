"""A value the other note states in another way: with the unit a plain number lacked, or without the unit its
neighbour gives it (`£38 full / £20 half` = `thirty-eight pounds … and twenty`), as a plain hour beside the half of
the day (`7–10pm` = `evenings from seven to ten`), as a number after the first letters of what it counts (`Year 11`
for `Y11`) or inside a compound (`km-24`). `source_value_in` and `body_value_in` ask every way, for a source's
value in the body and for the body's in a source."""
from __future__ import annotations

import re

from .bounds import bound_of
from .matching import Index, number_coded, number_in_compound, unbound, value_found, whole_word_in
from .notes import Note
from .value_types import ValueKind, number_key
from .values import Value


def source_value_in(value: Value, note: Note, body: Index, source: Index) -> Value | None:
    """Where the body states a source's `value`: the same value, the number with its unit named, without the unit a
    neighbour of the same unit gives it, as a plain hour beside its half of the day, or inside a compound."""
    return value_found(value, body) or unit_named(value, body) or unit_elided(value, body, source) or \
        hour_said_plainly(value, body) or number_in_compound(value, note, body)


def unit_named(bare: Value, body: Index) -> Value | None:
    """The body's amount that writes a source's plain number with its unit (`32 front` → `32 psi`, `net 30` →
    `30 days`, `pick up by 10` → `by 10 am`): the body names what the number counts and changes no amount, nor
    its bound. Never the other way round (see `unit_added`): a body that drops a unit has lost what its number
    meant."""
    number = number_key(bare) if bare.kind == ValueKind.NUMBER else None
    if number is None:
        return None
    for i in body.amounts.get(number.body, []):
        found = body.note.values[i]
        bounds = {bound_of(k) for k in found.keys}
        if number.bound in bounds or (not number.bound and "<=" in bounds):
            return found  # `pick up by 10` → `by 10 am`, `net 15` → `within 15 days`: a deadline's number
    return None


def unit_added(with_unit: Value, source: Index) -> Value | None:
    """The source's plain number that a body's amount writes with a unit (the converse look-up of `unit_named`)."""
    if not with_unit.amount:
        return None
    bounds = {bound_of(k) for k in with_unit.keys}
    if "<=" in bounds:
        bounds.add("")  # `by 10 am` restates `by 10`, `within 15 days` `net 15`
    for bound in bounds:
        for i in source.keys.get(f"{bound}n:{with_unit.amount}", []):
            if source.note.values[i].kind == ValueKind.NUMBER:
                return source.note.values[i]
    return None


def unit_elided(value: Value, other: Index, source: Index) -> Value | None:
    """The other's plain number that restates `value` with its unit left to a neighbour: `£38 full / £20 half` said
    as `thirty-eight pounds for a full plot and twenty for a half`. The plain number counts as the amount only
    where it is coordinated with another amount of the same unit that the source states as it is (`25 days …
    used 11` → `11 days … used 25` lends no unit: the source's `11` had none)."""
    if not value.amount or value.kind not in (ValueKind.MONEY, ValueKind.QUANTITY):
        return None
    bounds = {bound_of(k) for k in value.keys}
    if len(bounds) != 1:
        return None
    for i in other.keys.get(f"{bounds.pop()}n:{value.amount}", []):
        if other.note.values[i].dimension == "number" and len(other.note.values[i].keys) == 1 and \
                value.dimension in _units_beside(other.note, i, source):
            return other.note.values[i]
    return None


def elided_unit_found(bare: Value, note: Note, source: Index) -> Value | None:
    """The converse of `unit_elided`: the source's amount that a body's plain number restates, its unit given by
    another amount of the body's sentence that the source states too."""
    number = number_key(bare)
    if bare.dimension != "number" or number is None or number.bound or bare not in note.values:
        return None
    dimensions = _units_beside(note, note.values.index(bare), source)
    return next((source.note.values[i] for i in source.amounts.get(number.body, [])
                 if source.note.values[i].dimension in dimensions), None)


_COORDINATED = re.compile(r"\b(?:and|or|to|then|plus)\b|[,;/–—]|(?<!\w)-|-(?!\w)", re.IGNORECASE)


def _units_beside(note: Note, i: int, source: Index) -> set[str]:
    """The units of the amounts coordinated with value `i` in its sentence (`£38 … and 20`, `between 1 and 1.5
    bar`; not `four 5-minute efforts`, where the plain number counts the amounts), each as the source states it."""
    sentence, bare = note.value_sentence[i], note.values[i]

    def between(v: Value) -> tuple[int, int]:
        return min(v.end, bare.end), max(v.start, bare.start)
    return {v.dimension for j, v in enumerate(note.values) if j != i and v.amount and
            note.value_sentence[j] == sentence and _COORDINATED.search(note.text[slice(*between(v))]) and
            not any(between(v)[0] <= w.start and w.end <= between(v)[1] and w.dimension not in ("number", "ordinal")
                    and (w.amount or w.kind in (ValueKind.TIME, ValueKind.DATE)) for w in note.values) and  # (a list of plain numbers
            # between takes the same unit; a name between, `the iOS app 48`, is no amount)
            any(key in source.keys for key in v.keys)}


_PART_OF_DAY = {"morning": "am", "mornings": "am", "afternoon": "pm", "afternoons": "pm", "evening": "pm",
                "evenings": "pm", "night": "pm", "nights": "pm", "tonight": "pm"}
_CLOCK_LEAD = re.compile(r"(?:\b(?:at|from|to|until|till|til|between|and|by|around)|[-–—])\s*$", re.IGNORECASE)


def hour_said_plainly(time: Value, other: Index) -> Value | None:
    """The other's plain number that says a time's hour where its sentence says the half of the day: `7–10pm`
    restated as `Wednesday evenings from seven to ten`."""
    if time.kind != ValueKind.TIME or not time.amount:
        return None
    halves = _halves_of(time)
    for i in other.keys.get(f"n:{time.amount}", []):
        bare = other.note.values[i]
        if bare.dimension == "number" and _CLOCK_LEAD.search(other.note.text, max(0, bare.start - 12), bare.start) \
                and halves & _halves_said(other.note, other.note.value_sentence[i]):
            return bare
    return None


def time_of_plain_hour(bare: Value, note: Note, source: Index) -> Value | None:
    """The converse of `hour_said_plainly`: the source's time that a body's plain number restates."""
    number = number_key(bare)
    if bare.dimension != "number" or number is None or number.bound or bare not in note.values or \
            not _CLOCK_LEAD.search(note.text, max(0, bare.start - 12), bare.start):
        return None
    said = _halves_said(note, note.value_sentence[note.values.index(bare)])
    for i in source.amounts.get(number.body, []):
        time = source.note.values[i]
        if time.kind == ValueKind.TIME and said & _halves_of(time):
            return time
    return None


def body_value_in(value: Value, body: Note, source: Index) -> Value | None:
    """Where a source states the body's `value`: the same value, with another bound, written without the unit
    the body gives it, or in a plain number whose unit or half of the day the body's sentence supplies."""
    if value_found(value, source) or value_found(unbound(value), source) or unit_added(value, source) or \
            elided_unit_found(value, body, source) or time_of_plain_hour(value, body, source):
        return value
    if value.dimension == "number" and re.fullmatch(r"\d{3,}", value.text) and whole_word_in(value.text,
                                                                                        source.lower_text):
        return value  # `port 8081` where a source writes `127.0.0.1:8081`
    return value if number_coded(value, body, source) else None


def _halves_of(time: Value) -> set[str]:
    """The halves of the day a clock time may be in (`7–10pm`: pm; a plain `9:45`: am, or pm by its `pm` key)."""
    return {"pm" if int(k[5:7]) >= 12 or k.endswith("pm") else "am" for k in time.keys if k.startswith("time:")}


def _halves_said(note: Note, sentence: int) -> set[str]:
    start, end = note.sentences[sentence]
    return {_PART_OF_DAY[w] for w in re.findall(r"[a-z]+", note.text[start:end].casefold()) if w in _PART_OF_DAY}


def number_in_a_name(body: Note, value: Value, sources: list[Note]) -> bool:
    """`Mazda 3` where a source writes `Mazda3` (or `Mazda-3`): the number is part of a name the source has."""
    if value.kind != ValueKind.NUMBER:
        return False
    name = re.search(r"([^\W\d_]+)[ -]?$", body.text[max(0, value.start - 30):value.start])
    if not name:
        return False
    glued = [f"{name.group(1)}{value.text}".casefold(), f"{name.group(1)}-{value.text}".casefold()]
    return any(whole_word_in(g, note.text.casefold()) for note in sources for g in glued)


__all__ = ["body_value_in", "number_in_a_name", "source_value_in"]
