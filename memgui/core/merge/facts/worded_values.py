"""Values said in words rather than digits: a price of nothing (`free`, `no charge`), a meeting of two (`one-to-one`),
one of a period or a measure (`a week`, `an hour`, `every litre`), and every hour of every day (`24/7`, `around the
clock`). values.py reads them beside the numbers."""
from __future__ import annotations

import re

from .units import CALENDAR_UNITS, amount_keys
from .value_types import Value, ValueKind, fmt

_ARTICLE_DURATION = re.compile(r"(?<![\w.])(?:an?|one)\s+(?P<unit>" + "|".join(
    ["second", "minute", "hour", "day", "week", "fortnight", "month", "year", "decade"]) + r")\b(?!\s*(?:ago\b)|-)",
    re.IGNORECASE)
_RATE_BEFORE = re.compile(r"(?:\d|\bx|\btimes|\bonce|\btwice|\bthrice|[%€$£¥])\s*$", re.IGNORECASE)


_FREE = re.compile(r"\b(?:free\s+of\s+charge|at\s+no\s+(?:cost|charge)|no\s+charge|costs?\s+nothing|pays?\s+nothing|"
                   r"(?:don['’]t|doesn['’]t|do\s+not|does\s+not|won['’]t|needn['’]t|never)\s+(?:have\s+to\s+|need\s+to\s+)?"
                   r"pay(?:\s+(?:anything|a\s+penny|a\s+thing))?(?=\s*[.;,)]|\s*$)|"
                   r"(?<=\bis\s)free|(?<=\bare\s)free|(?<=['’]s\s)free|(?<=\bfor\s)free|free(?=\s+(?:for|to|entry|"
                   r"admission|parking|of|up\s+to)\b)|free(?=\s*[.;,)≤<]))", re.IGNORECASE)


def free(text: str) -> list[Value]:
    """`free`, `no charge`, `pays nothing`: a price of nothing, as much a price as `£5` (not `gluten-free`,
    `free time`)."""
    return [Value(frozenset({"money:free"}), ValueKind.MONEY, m.group(0), m.start(), m.end(), "money:free")
            for m in _FREE.finditer(text) if text[max(0, m.start() - 1):m.start()] != "-"
            and not re.search(r"\b(?:kept|keep|keeps|keeping|leave|leaves|left|stay|stays|remain|remains)\s+$",
                              text[max(0, m.start() - 10):m.start()], re.IGNORECASE)  # `Wednesdays kept free`: open
            and not re.search(r"\bfeel\s+$", text[max(0, m.start() - 8):m.start()], re.IGNORECASE)]


_ONE_TO_ONE = re.compile(r"(?<![\w:])(?:1\s?:\s?1|1-(?:on|to)-1|(?:1|one)[\s-](?:on|to)[\s-](?:1|one))(?![\w:]|\.\d)",
                         re.IGNORECASE)


def one_to_ones(text: str) -> list[Value]:
    """`1:1`, `one-to-one`, `1-on-1`: a meeting of two, not the number one."""
    return [Value(frozenset({"meeting:1:1"}), ValueKind.TERM, m.group(0), m.start(), m.end(), "meeting")
            for m in _ONE_TO_ONE.finditer(text)]


def article_durations(text: str) -> list[Value]:
    """`a week`, `an hour`, `one month` as durations (`a week before` = `seven days before`); not the `a week` of
    a rate (`twice a week`, `€5 a week`), which the rate reads."""
    out = []
    for m in _ARTICLE_DURATION.finditer(text):
        if _RATE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        seconds = CALENDAR_UNITS[m.group("unit").casefold()]
        keys = {f"duration:{fmt(seconds)}"}
        if m.group(0)[:1].casefold() == "a" and _COUNTED_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            keys.add(f"freq:{fmt(1 / seconds)}")  # `2 jars of honey a year`: how often, as `each year` says
        out.append(Value(frozenset(keys), ValueKind.QUANTITY, m.group(0), m.start(), m.end(), "duration"))
    return out


# One of a measure said with a word, not a digit: `a litre of milk`, `to every litre of water` (= `per 1 L`)
_ARTICLE_AMOUNT = re.compile(r"(?<![\w.])(?:an?|one|every|each|per)\s+(?P<unit>(?:kilo|centi|milli)?(?:litre|liter|metre|meter)|"
                             r"mile|kilo|kilogram|gram|ounce|pint|gallon|cup|tablespoon|teaspoon|foot|inch|yard|acre|"
                             r"hectare|tonne|ton)\b(?!-)", re.IGNORECASE)


# At every hour of every day: `24/7` and the phrases that say it
_ROUND_THE_CLOCK = re.compile(r"(?<![\w/])24\s?/\s?7(?![\w/])|\b(?:a)?round[\s-]the[\s-]clock\b|\b24\s+hours\s+a\s+day,?\s+"
                              r"(?:7|seven)\s+days\s+a\s+week\b|\ball\s+day,?\s+every\s+day\b|\bday\s+and\s+night\b",
                              re.IGNORECASE)


def round_the_clock(text: str) -> list[Value]:
    """`24/7` = `around the clock` = `24 hours a day, 7 days a week`: always open, always on."""
    return [Value(frozenset({"always:24/7"}), ValueKind.FREQUENCY, m.group(0), m.start(), m.end(), "frequency")
            for m in _ROUND_THE_CLOCK.finditer(text)]


def article_amounts(text: str) -> list[Value]:
    """`a litre`, `every kilometre`: one of the measure, as `1 L`, `1 km` say it."""
    out = []
    for m in _ARTICLE_AMOUNT.finditer(text):
        if _RATE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue  # `45p a mile`, `2 kg per litre`: the rate reads it
        amount = amount_keys(1, m.group("unit"))
        if amount:
            keys, kind, dimension = amount
            out.append(Value(frozenset(keys), kind, m.group(0), m.start(), m.end(), dimension))
    return out


# a count earlier in the clause, and no word that makes the period a length (`for a year`, `in a week`)
_COUNTED_BEFORE = re.compile(r"\d[^,;.:()\n]*?\s(?!(?:for|in|within|after|over|about|than|per|each)\s+$)\S+\s+$")


__all__ = ["article_amounts", "article_durations", "free", "one_to_ones", "round_the_clock"]
