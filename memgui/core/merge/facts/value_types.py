"""A value as the lens compares it, and the span bookkeeping the readers share."""
from __future__ import annotations

import bisect
from dataclasses import dataclass

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


__all__ = ["Value", "ValueKind", "fmt", "inside"]
