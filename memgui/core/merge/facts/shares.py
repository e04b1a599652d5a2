"""Shares and ratios of a whole: `half` = `50%`, `three-quarters of an hour` = `45 minutes`, `a quarter of a
kilogram` = `250 g`, `1:4` = `1 part cement to 4 parts sand`, `split 50/50` = `shared equally`."""
from __future__ import annotations

import re

from .currencies import CURRENCY_WORDS
from .units import CALENDAR_UNITS, amount_keys
from .value_types import Value, ValueKind, fmt

_FRACTION = re.compile(r"\b(half|a[\s-]quarter|one[\s-]quarter|a[\s-]third|one[\s-]third|two[\s-]thirds|"
                       r"three[\s-]quarters)(?![-\w])(?!\s+(?:an?|past|to)\b)|\b(quarter)(?=-)", re.IGNORECASE)  # `quarter-strength`
_FRACTIONS = {"quarter": 0.25, "half": 0.5, "a quarter": 0.25, "one quarter": 0.25, "a third": 1 / 3, "one third": 1 / 3,
              "two thirds": 2 / 3, "three quarters": 0.75}


_OF_A_UNIT = re.compile(r"\s+of\s+an?\s+(second|minute|hour|day|week|month|year)\b", re.IGNORECASE)
_OF_A_MEASURE = re.compile(r"\s+of\s+an?\s+([a-z]+)\b", re.IGNORECASE)  # `a quarter of a kilogram` = `250 g`


_EVEN_SPLIT = re.compile(r"(?<![\w.])(?:50\s?[/-]\s?50|fifty[\s-]fifty)(?![\w.]|/\d)", re.IGNORECASE)


def even_splits(text: str) -> list[Value]:
    """`split 50/50` = `shared equally` (matching.value_found finds it in words too)."""
    return [Value(frozenset({"share:equal"}), ValueKind.QUANTITY, m.group(0), m.start(), m.end(), "share")
            for m in _EVEN_SPLIT.finditer(text)]


_RATIO = re.compile(r"(?<![\w:.])(\d{1,3})((?::\d{1,3})+)(?![\w:]|\.\d)")
_PARTS_RATIO = re.compile(r"\b(\d{1,3}|one|a)\s+parts?\s+(?:of\s+)?[^\W\d_]+(?:\s+[^\W\d_]+)?\s+to\s+(\d{1,3})\s+parts?"
                          r"(?:\s+(?:of\s+)?[^\W\d_]+(?:\s+[^\W\d_]+)?,?\s+and\s+(\d{1,3})\s+parts?)?", re.IGNORECASE)


def ratios(text: str) -> list[Value]:
    """`1:4` = `1 part cement to 4 parts sand`, `1:5:5` = `one part starter to five parts flour and five parts
    water`. A colon chain is a ratio, not a clock, when one of its later parts has a single digit."""
    out = []
    for m in _RATIO.finditer(text):
        later = m.group(2).split(":")[1:]
        if any(len(part) == 1 for part in later):
            terms = [m.group(1), *later]
            out.append(Value(frozenset({"ratio:" + ":".join(str(int(t)) for t in terms)}), ValueKind.QUANTITY, m.group(0),
                             m.start(), m.end(), "ratio"))
    for m in _PARTS_RATIO.finditer(text):
        terms = ["1" if t.casefold() in ("one", "a") else t for t in m.groups() if t]
        out.append(Value(frozenset({"ratio:" + ":".join(str(int(t)) for t in terms)}), ValueKind.QUANTITY, m.group(0),
                         m.start(), m.end(), "ratio"))
    return out


def fractions(text: str) -> list[Value]:
    """`half` = `50%`, `three quarters` = `75%`; `a quarter of an hour` = `15 minutes`."""
    out = []
    for m in _FRACTION.finditer(text):
        share = _FRACTIONS[" ".join((m.group(1) or m.group(2)).casefold().replace("-", " ").split())]
        unit = _OF_A_UNIT.match(text, m.end())
        if unit:
            seconds = share * CALENDAR_UNITS[unit.group(1).casefold()]
            out.append(Value(frozenset({f"duration:{fmt(seconds)}"}), ValueKind.QUANTITY, text[m.start():unit.end()],
                             m.start(), unit.end(), "duration"))
            continue
        measure = _OF_A_MEASURE.match(text, m.end())
        amount = amount_keys(share, measure.group(1)) if measure and measure.group(1).casefold() not in \
            CURRENCY_WORDS else None
        if measure and amount and amount[1] == "quantity":
            out.append(Value(frozenset(amount[0]), ValueKind.QUANTITY, text[m.start():measure.end()], m.start(), measure.end(),
                             amount[2]))
        else:
            out.append(Value(frozenset({f"frac:{fmt(share)}"}), ValueKind.QUANTITY, m.group(0), m.start(), m.end(), "percent"))
    return out


__all__ = ["even_splits", "fractions", "ratios"]
