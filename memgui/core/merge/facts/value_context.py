"""A value read with its neighbours (values.py reads each value alone, then these passes): a run of days (`Mon–Fri`),
a moment bounded after it (`23:45 at the latest`), `every Monday or Tuesday`, a compound duration (`1 h 30 min`),
an amount under a limit's name (`limit: 50 lux`) or a unit's label (`days: 90`)."""
from __future__ import annotations

import dataclasses
import itertools
import re

from .bounds import bound_of
from .units import amount_keys
from .value_types import Value, ValueKind, fmt, number_key

_DAY_RANGE_GLUE = re.compile(r"\s*(?:-|–|—|to|and|&|through|thru|until|till|or)\s+(?:the\s+)?|\s*[-–—&]\s*",
                             re.IGNORECASE)


def range_days(text: str, found: list[Value]) -> list[Value]:
    """`Feb 10–14` = `the 10th to the 14th of February`: a day number at the other end of a range or a pair from
    a date is a day of the same month."""
    out = list(found)
    for i, value in enumerate(found):
        if value.kind not in (ValueKind.NUMBER, ValueKind.ORDINAL) or any(k[:1] in "<>=~" for k in value.keys):
            continue
        day = next((int(float(k.split(":")[1])) for k in value.keys if re.fullmatch(r"(?:n|ordinal):\d{1,2}", k)), 0)
        if not 1 <= day <= 31:
            continue
        neighbours = [(found[i + 1], value.end, found[i + 1].start)] if i + 1 < len(found) else []
        neighbours += [(found[i - 1], found[i - 1].end, value.start)] if i else []
        for date, gap_start, gap_end in neighbours:
            days = [k for k in date.keys if re.fullmatch(r"date:[\d?]{4}-\d\d-\d\d", k)]
            if date.kind == ValueKind.DATE and days and _DAY_RANGE_GLUE.fullmatch(text[gap_start:gap_end]):
                out[i] = dataclasses.replace(value, keys=value.keys | {f"{k[:-2]}{day:02d}" for k in days})
                break
    return out


MOMENT_KINDS = (ValueKind.TIME, ValueKind.WEEKDAY, ValueKind.DATE)
MOMENT_BOUND_AFTER = re.compile(r"\s*,?\s*(?:at\s+the\s+(latest|earliest)|or\s+(earlier|before|sooner|later|after)|"
                                 r"(onwards|onward))\b", re.IGNORECASE)  # `from 11 pm onwards` = `after 23:00`
# `Deadline for ep 7: Fri 23:59` = `due by 23:59 on Friday`: a moment labelled as a deadline is its latest
DEADLINE_LABEL = re.compile(r"\b(?:deadline|due\s+date)\b[^.;:\n]{0,40}(?::|\bis)\s*(?:[A-Za-z]{2,9}\.?,?\s+)?$",
                             re.IGNORECASE)
_MOMENT_GLUE = re.compile(r"[\s,]*(?:(?-i:[A-Z]{2,5})|(?:[A-Z][a-z]+\s+){1,3}(?:Standard\s+|Daylight\s+)?Time)?"
                          r"[\s,]*(?:(?:at|on|of)(?:\s+(?:the|an?))?)?[\s,]*", re.IGNORECASE)  # `11:59 pm KST on Friday`


def one_moment_bound(text: str, found: list[Value]) -> list[Value]:
    """`by Wed noon` = `by midday on Wednesday`: a day and a time written together are one moment, and a bound
    written before either bounds both."""
    moments = [i for i, v in enumerate(found) if v.kind in MOMENT_KINDS]
    for a, b in itertools.pairwise(moments):
        first, second = found[a], found[b]
        if first.kind == second.kind or not _MOMENT_GLUE.fullmatch(text[first.end:second.start]):
            continue
        bounds = {bound_of(k) for v in (first, second) for k in v.keys} - {""}
        if len(bounds) != 1 or not bounds <= {"<=", ">="}:
            continue  # a deadline bounds the day and the time; `after 3 pm on a Friday` is a Friday from 3 pm
        bound = bounds.pop()
        found[a], found[b] = (v if any(bound_of(k) for k in v.keys) else
                              dataclasses.replace(v, keys=frozenset(f"{bound}{k}" for k in v.keys))
                              for v in (first, second))
    return found


_EVERY_OR = re.compile(r"\bevery\s+[^.;:\n]{1,40}\bor\s+$", re.IGNORECASE)


def every_either(text: str, value: Value) -> Value:
    """`every 7,500 mi or 6 mo`: the `every` reaches the second limit too, which is a frequency as well as a
    duration (`every six months`)."""
    if value.dimension != "duration" or not _EVERY_OR.search(text, max(0, value.start - 50), value.start):
        return value
    seconds = [float(k[9:]) for k in value.keys if re.fullmatch(r"duration:[\d.e+]+", k)]
    if not seconds or seconds[0] <= 0:
        return value
    return dataclasses.replace(value, keys=value.keys | {f"freq:{fmt(1 / seconds[0])}"})


_DURATION_GLUE = re.compile(r"\s*(?:,|and)?\s*$")


def compound_durations(text: str, found: list[Value]) -> list[Value]:
    """`4 hours 15 minutes` = `255 min`, `1h 30m`, `2 days and 6 hours`: a duration written in parts is one."""
    out: list[Value] = []
    for value in found:
        previous = out[-1] if out else None
        if previous is not None and _seconds(previous) and _seconds(value) and \
                _seconds(previous) > _seconds(value) and _DURATION_GLUE.match(text[previous.end:value.start]):
            total = _seconds(previous) + _seconds(value)
            out[-1] = Value(frozenset({f"duration:{fmt(total)}"}), ValueKind.QUANTITY, text[previous.start:value.end],
                            previous.start, value.end, "duration")
            continue
        out.append(value)
    return out


def _seconds(value: Value) -> float:
    keys = [k for k in value.keys if k.startswith("duration:") and "/" not in k]  # not a rate of durations
    return float(keys[0][9:]) if len(keys) == 1 and len(value.keys) == 1 else 0.0


_UNIT_LABEL = re.compile(r"(?:\b|_)([A-Za-z]+)[ \t]*[:=][ \t]*$")


# A limit named before its amount in the clause: `Lux limit for works on paper: 50 lux`, `the noise limit is 85 dB`
_LIMIT_LABEL = re.compile(r"\b(?:(limit|cap|ceiling)|(minimum))\b[^.;:!?\n\d]{0,40}?(?::|\bis|\bof|\bat)?\s*$",
                          re.IGNORECASE)


def limited(text: str, value: Value) -> Value:
    """An amount a limit is named for is that amount and at most it (at least it, for a minimum): `limit: 50 lux`
    = `no more than fifty lux` = `the limit is 50 lux`."""
    if value.kind not in (ValueKind.NUMBER, ValueKind.QUANTITY, ValueKind.MONEY) or any(k[:1] in "<>=~" for k in value.keys):
        return value
    label = _LIMIT_LABEL.search(text, max(0, value.start - 50), value.start)
    if not label:
        return value
    bound = "<=" if label.group(1) else ">="
    return dataclasses.replace(value, keys=value.keys | {f"{bound}{k}" for k in value.keys})


def labelled_amount(text: str, value: Value) -> Value:
    """A number under a unit's label (`days: 90`, `timeout_seconds = 30`) is that amount as well: `90 days`."""
    number = number_key(value)
    label = _UNIT_LABEL.search(text, max(0, value.start - 40), value.start) if number and not number.bound else None
    if value.kind != ValueKind.NUMBER or number is None or label is None:
        return value
    amount = amount_keys(float(number.body), label.group(1))
    return dataclasses.replace(value, keys=value.keys | set(amount[0])) if amount else value
