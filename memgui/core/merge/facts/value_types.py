"""A value as the lens compares it, and the span bookkeeping the readers share."""
from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .bounds import bound_of, strip_bound
from .report import FactKind

# What a value is: the fact kind of a value at risk, one enum with the lens's kinds (no second list of the same names)
ValueKind = FactKind


@dataclass(frozen=True)
class Value:
    keys: frozenset[str]  # any shared key is the same fact
    kind: ValueKind
    text: str
    start: int
    end: int
    dimension: str = ""  # what the value measures ("quantity:[length]", "money:EUR", "date"), for binding
    implied: bool = False  # read between the lines (`on Thursdays`: weekly): it answers for a fact, owes none
    amount: str = ""  # the number an amount with a unit is written with (`30` of `30 days`), formatted


class KeyHead(StrEnum):
    """What a value's key counts: the word before its first colon (`date:2025-03-18`, `q:meter:2.4`)."""
    AGE, ALWAYS, CHANNEL, DATE, DECADE, DURATION, EMAIL = "age", "always", "channel", "date", "decade", "duration", "email"
    FRAC, FREQ, KILO, MEETING, MONEY, MONTH, N, ORDINAL = "frac", "freq", "kilo", "meeting", "money", "month", "n", "ordinal"
    PATH, PERCENT, PHONE, Q, QUARTER, RATIO, SHARE = "path", "percent", "phone", "q", "quarter", "ratio", "share"
    TEMP, TIME, TIMES, TOKEN, URL, WEEKDAY, WEEKDAYS, ZONE = "temp", "time", "times", "token", "url", "weekday", "weekdays", "zone"


class KeyDate(NamedTuple):
    year: int | None  # None: the text gives no year (`14 July`)
    month: int
    day: int | None  # None: a month (`May 2025`)
    exact: bool  # nothing after the day (not `????-05@mid`)


@dataclass(frozen=True)
class ValueKey:
    """A value's key read back — the one reader of the format the value readers write (`<=date:2024-11`): the
    bound before it, what it counts, and the value as written in normal form."""
    bound: str  # `<`, `<=`, `~`… ("" for the value itself)
    head: KeyHead
    body: str

    @classmethod
    def read(cls, key: str) -> ValueKey | None:
        head, colon, body = strip_bound(key).partition(":")
        return cls(bound_of(key), KeyHead(head), body) if colon and head in _HEADS else None

    @functools.cached_property
    def date(self) -> KeyDate | None:
        """The day or month of a date key (a bound one too)."""
        m = _DATE_BODY.match(self.body) if self.head is KeyHead.DATE else None
        if m is None:
            return None
        year, day = m.group(1), m.group(3)
        return KeyDate(int(year) if year.isdigit() else None, int(m.group(2)), int(day) if day else None,
                       m.end() == len(self.body))

    @property
    def unit(self) -> str:
        """The dimension a quantity is measured in (`meter` of `q:meter:2.4`)."""
        return self.body.partition(":")[0] if self.head is KeyHead.Q else ""


def number_key(value: Value) -> ValueKey | None:
    """The key of a value that is one number (`n:7`, `<=n:7`), read; None for anything else."""
    read = ValueKey.read(next(iter(value.keys))) if len(value.keys) == 1 else None
    return read if read is not None and read.head is KeyHead.N else None


_HEADS = frozenset(KeyHead)
_DATE_BODY = re.compile(r"(\d{4}|\?{4})-(\d{2})(?:-(\d{2}))?")


def fmt(value: float) -> str:
    return f"{value:.6g}"


def inside(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    """[start, end) lies within one of the spans. Long lists are searched by bisection (sorted once per length:
    the callers append while scanning and query a list that no longer grows)."""
    if len(taken) < 24:
        return any(s <= start and end <= e for s, e in taken)
    cached = _SORTED_SPANS.get(id(taken))
    if cached is None or cached[0] != len(taken) or cached[3] is not taken:
        spans = sorted(taken)
        reach, widest = [], -1
        for _, e in spans:
            widest = max(widest, e)
            reach.append(widest)
        cached = (len(taken), [s for s, _ in spans], reach, taken)
        _SORTED_SPANS.clear()  # one list at a time is queried
        _SORTED_SPANS[id(taken)] = cached
    at = bisect.bisect_right(cached[1], start) - 1
    return at >= 0 and cached[2][at] >= end


_SORTED_SPANS: dict[int, tuple[int, list[int], list[int], list[tuple[int, int]]]] = {}  # length, starts, reach, list


__all__ = ["KeyDate", "KeyHead", "Value", "ValueKey", "ValueKind", "fmt", "inside", "number_key"]
