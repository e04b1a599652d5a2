"""Values a note states, each in one normal form however it was written: numbers (digits or words, `1,200`,
`1.5k`), ordinals (`2nd` = `second`), amounts with units (`4 GB` = `4 gigabytes`, `90 min` = `1.5 hours`,
read by pint), money (`€40` = `40 euros`), dates in any order (`14 July`, `July 14th`, `2026-07-14`,
`3 April 2026`), times (`09:45` = `9:45 am`), weekdays and months (`Tue` = `Tuesday` = `Tuesdays`), rates
(`twice a week` = `2 times per week`), phone numbers (phonenumbers, as E.164), and Netclaw's load-bearing
tokens (URLs, versions, identifiers, paths) plus e-mail addresses and #channels (those read in identifiers.py,
the calendar in calendar_values.py, currencies in currencies.py, what a unit word means in units.py).

A `Value` carries every key it may be compared by: a bare `9:45` is both 09:45 and 21:45, a partial date
`14 July` is `--07-14`; two values are the same fact when their keys meet.
"""
from __future__ import annotations

import dataclasses
import re
import unicodedata

from . import worded_values as worded
from .bounds import COMPARED_GREATER, COMPARED_LESSER, bound_before, strip_bound
from .calendar_values import ADVERB_PERIODS, MONTHS, WEEKDAYS, cron_values, dates, frequencies, quarters, times
from .currencies import CURRENCY_SYMBOLS, CURRENCY_WORDS
from .identifiers import age_groups, phones, tokens
from .lexicon import FUNCTION_WORDS
from .shares import even_splits, fractions, ratios
from .units import CALENDAR_UNITS, GLUED_UNITS, amount_keys, currency_code, unit_of
from .value_context import (
    DEADLINE_LABEL,
    MOMENT_BOUND_AFTER,
    MOMENT_KINDS,
    compound_durations,
    every_either,
    labelled_amount,
    limited,
    one_moment_bound,
    range_days,
)
from .value_types import Value, ValueKind, fmt, inside

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12,
           "k": 1000, "m": 10**6, "bn": 10**9, "mn": 10**6}
NUMBER_WORDS = frozenset(_ONES + _TENS + ["hundred", "thousand", "million", "billion", "trillion"])
# ordinals by the English rule (first..twelfth irregular, -ieth for tens, -th otherwise)
_IRREGULAR_ORDINALS = {"first": 1, "second": 2, "third": 3, "fifth": 5, "eighth": 8, "ninth": 9, "twelfth": 12}


def ordinal_value(word: str) -> int | None:
    """`third` → 3, `twentieth` → 20, `fourteenth` → 14, anything else → None."""
    word = word.casefold()
    if word in _IRREGULAR_ORDINALS:
        return _IRREGULAR_ORDINALS[word]
    if word.endswith("ieth") and word[:-4] + "y" in _TENS:
        return 20 + 10 * _TENS.index(word[:-4] + "y")
    if word.endswith("th") and word[:-2] in _ONES:
        return _ONES.index(word[:-2])
    return None


ORDINAL_WORDS = frozenset(w for w in (
    [*_IRREGULAR_ORDINALS, *(o + "th" for o in _ONES[4:]), *(t[:-1] + "ieth" for t in _TENS)])
    if ordinal_value(w) is not None)


# Thousands grouped by spaces, before a currency's name (`16 800 kr`, `2 500 EUR`): one amount. Elsewhere a space
# between digits is no grouping (`Ph 03 6264 8810`, `Mila 7 Arlo 4`).
_SPACED = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?=\s?(?:" + "|".join(sorted((w for w in CURRENCY_WORDS if len(w) > 1),
                                                                        key=len, reverse=True)) + r")\b)"
_NUMBER = re.compile(
    r"(?<![\w.,-])(?<!(?<!\d)/)(?<!\d:)(?P<sign>[-−+]|±)?(?P<cur>[€$£¥₹₩₽₺₪₫฿₴₦₱])?\s?(?P<n>" + _SPACED +
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
    r"(?P<vf>[½¼¾⅓⅔⅛⅜⅝⅞])?(?P<ord>st|nd|rd|th)?(?P<sfx>k|m|bn|mn|x|×|%)?(?:(?![\w@]|[.,]\d)|(?=[a-zA-Zµ°]+\b))", re.IGNORECASE)
_UNIT_WORD = re.compile(r"\s?-?\s?(?P<u>°[CF]\b|[A-Za-zµμ°%]+(?!\d)[²³]?"
                        r"(?:(?<!\d[pc])/(?!(?:min|sec|hr|h|s|day|wk|mo|mth|yr|year|month|week|hour|"
                        r"minute|second)s?\b)[A-Za-zµμ]+)?)")
_RATE = re.compile(r"\s*(?:/\s*|\s+per\s+|\s+(?:from\s+|for\s+|out\s+of\s+)?each\s+(?!(?:day|night|morning|evening|"
                   r"afternoon|week|weekend|month|year|hour|time)s?\b)|(?:\s+|-)an?(?:\s+|-)|\s+for\s+(?:an?\s+|one\s+)?(?=(?:\d+\s+)?"
                   r"(?:min|minute|hour|hr|day|week|night)s?\b))(?P<half>half\s+(?:an?\s+)?)?(?P<n>\d+(?:\.\d+)?\s+)?"
                   r"(?P<u>[A-Za-z]+)\b")  # `$200 from each paycheck` = `$200/paycheck`
_LIST_NUMBER = re.compile(r"\d{1,3}[.)](?:\s+(?=\S)|\s*$)")
_PER_CENT = re.compile(r"\s?per\s+cent\b", re.IGNORECASE)


def _opens_line(text: str, at: int) -> bool:
    """`at` starts a line or follows a sentence end (where `1.` numbers an item)."""
    before = text[:at].rstrip(" \t")
    return not before or before[-1] in "\n.!?" or (before[-1] == ":" and text[at:at + 2] == "1.")  # `Steps: 1. …`


# Letters glued to a number: a unit only when units.GLUED_UNITS holds them (`10mg`), else an identifier.
_SECOND_UNIT_WORD = re.compile(r"[ _]([A-Za-z]+)\b")
_UNIT_MODIFIERS = frozenset({"square", "sq", "cubic", "fluid", "nautical", "metric", "imperial", "light"})
_LETTERS = re.compile(r"[A-Za-zµμ]+")


def _number(text: str) -> float:
    text = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3})", "", text)  # `16 800` (_SPACED)
    if "," in text and re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        text = text.replace(",", "")
    return float(text.replace(",", "."))


@dataclasses.dataclass
class _Reading:
    """One number of `_numbers` as it is read: its value, what it was written with, and what the words around it
    make of it (keys, kind, dimension and the span it covers)."""

    value: float
    sfx: str  # `k`, `m`, `%`, `x`…, casefolded; "" when none or when the letters are a glued unit (`10mg`)
    cur: str | None  # the currency symbol before it (`€40`) or, once read, after it (`40€`)
    ordinal: str | None  # `st`, `nd`, `rd`, `th`
    end: int
    follow: re.Match[str] | None  # the unit word after it (_UNIT_WORD)
    begin: int = 0
    counted_end: int = 0  # the end of the counted noun (`3 apples`), past `end`
    keys: set[str] = dataclasses.field(default_factory=set)
    kind: ValueKind = ValueKind.NUMBER
    dimension: str = "number"


def _numbers(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    out = []
    for m in _NUMBER.finditer(text):
        at = m.start("n")
        if inside(at, m.end("n"), taken) or (_LIST_NUMBER.match(text, at) and _opens_line(text, at)):
            continue  # `1.` or `2)` numbering a list item
        r = _number_read(text, m)
        if r is None:
            continue
        end = r.end
        if re.fullmatch(r"1[5-9]\d0|20\d0", m.group("n")) and text[end:end + 1] in "sS" and \
                not text[end + 1:end + 2].isalnum() and not r.cur:  # `the 1990s`: a decade, not 1990 seconds
            out.append(Value(frozenset({f"decade:{m.group('n')}"}), ValueKind.DATE, text[at:end + 1], at, end + 1, "date"))
            continue
        r.counted_end, r.begin = r.end, m.start() if (m.group("sign") or r.cur) else at
        _read_kind(text, m, r)
        _read_sequence_and_age(text, m, r)
        _read_bound_after(text, r)
        _read_rate(text, r)
        bound = bound_before(text, m.start(), deadline=bool(r.ordinal))  # `by the 5th`: a day of the month
        if bound:
            r.keys = {f"{bound}{k}" for k in r.keys}
        written = fmt(r.value) if r.kind in (ValueKind.QUANTITY, ValueKind.MONEY, ValueKind.RATE) and not r.ordinal else ""
        out.append(Value(frozenset(r.keys), r.kind, text[r.begin:r.end].strip(), r.begin, r.end, r.dimension,
                         amount=written))
    return out


def _number_read(text: str, m: re.Match[str]) -> _Reading | None:
    """The number `m` found, with its suffix (`1.5k`), a glued unit (`10mg`), a scale word (`3 million`) and its
    sign applied; None when it is part of a code (`77-PL-3021`) or an identifier (`7940HS`)."""
    value = _number(m.group("n")) + (unicodedata.numeric(m.group("vf")) if m.group("vf") else 0)  # `1½`
    if _DOT_THOUSANDS.fullmatch(m.group("n")) and _beside_currency(text, m):
        value = float(m.group("n").replace(".", ""))  # `CLP 12.990`, `340.000 CLP`: thousands, as much of the world writes them
    sfx = (m.group("sfx") or "").casefold()
    end = m.end()
    glued = _LETTERS.match(text, m.start("sfx")) if sfx in ("k", "m", "bn", "mn") else None
    if glued and glued.group(0).casefold() in GLUED_UNITS and glued.end() > m.end("sfx"):
        sfx, end = "", m.start("sfx")  # `10mg`, `5km`, `2kb`: a unit, not a thousand or a million of grams
    if sfx in ("k", "m", "bn", "mn"):
        value *= _SCALES[sfx]
    follow = _UNIT_WORD.match(text, end)
    if follow and "-" in text[end:follow.end()] and (re.match(r"-\d", text[follow.end():follow.end() + 2]) or (
            follow.group("u").isupper() and re.match(r"-\w", text[follow.end():follow.end() + 2]))):
        return None  # `77-PL-3021`: a code, not 77 of a unit
    if text[end:end + 1].isalpha() and not (follow and follow.group("u").casefold() in GLUED_UNITS):
        return None  # glued letters that are not a unit (`7940HS`, `R2D2`): an identifier, not an amount
    if follow is not None and follow.group("u").casefold() in ("thousand", "million", "billion", "trillion"):
        value *= _SCALES[follow.group("u").casefold()]
        end = follow.end()
        follow = _UNIT_WORD.match(text, end)
    if m.group("sign") == "−" or (m.group("sign") == "-" and not text[max(0, m.start() - 1):m.start()].strip()):
        value = -value
    return _Reading(value, sfx, m.group("cur"), m.group("ord"), end, follow)


_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+")


def _beside_currency(text: str, m: re.Match[str]) -> bool:
    """A currency's sign or name right before or after the number (a money amount has no thousandths)."""
    before = _CODE_BEFORE.search(text, max(0, m.start() - 5), m.start())
    after = _UNIT_WORD.match(text, m.end())
    return bool(m.group("cur") or (before and currency_code(before.group("code"))) or
                (after and currency_code(after.group("u").split("/")[0])))


def _read_kind(text: str, m: re.Match[str], r: _Reading) -> None:
    """What the number is: a temperature, money, an ordinal, a percentage, a multiple, an amount of a unit or a
    count of a noun (keys, kind, dimension and where its span ends)."""
    degrees = _DEGREES.match(text, r.end)
    code = _CODE_BEFORE.search(text, max(0, m.start() - 5), m.start())
    value = r.value
    if degrees and not (r.ordinal or r.cur or r.sfx):
        scale = degrees.group("scale").casefold()[0]
        r.keys, r.kind, r.dimension = {f"temp:{scale}:{fmt(value)}"}, ValueKind.QUANTITY, "temperature"
        r.follow, r.end = None, degrees.end()
    elif code and not r.cur and (cur_code := currency_code(code.group("code"))):
        r.keys, r.kind, r.dimension = {f"money:{cur_code}:{fmt(value)}"}, ValueKind.MONEY, f"money:{cur_code}"
        r.follow, r.begin = None, code.start()
    if r.ordinal:
        r.keys, r.kind, r.dimension = {f"ordinal:{fmt(value)}"}, ValueKind.ORDINAL, "ordinal"
        counted = SEQUENCE_NOUNS.get(r.follow.group("u").casefold().rstrip(".")) if r.follow else None
        if counted:  # `the 5th floor`: the one of that order, as `floor 5` says it
            r.keys.add(f"ordinal:{fmt(value)}:{counted}")
    elif r.kind != ValueKind.NUMBER:
        pass  # a temperature or an amount after a currency code, read above
    elif r.cur or (text[r.end:r.end + 1] in CURRENCY_SYMBOLS and not text[r.end + 1:r.end + 2].isalnum()):
        r.cur = r.cur or text[r.end]  # `€40` or `40€`, as much of Europe writes it
        r.keys, r.kind, r.dimension = ({f"money:{CURRENCY_SYMBOLS[r.cur]}:{fmt(value)}"}, ValueKind.MONEY,
                                       f"money:{CURRENCY_SYMBOLS[r.cur]}")
        r.end += 0 if m.group("cur") else 1
    elif r.sfx == "%":
        r.keys, r.kind, r.dimension = {f"percent:{fmt(value)}", f"frac:{fmt(value / 100)}"}, ValueKind.QUANTITY, "percent"
    elif r.sfx in ("x", "×"):  # `2.5x` = `2.5×`; `2× A100` = `two A100s`
        r.keys, r.kind, r.dimension = {f"times:{fmt(value)}", f"n:{fmt(value)}"}, ValueKind.QUANTITY, "times"
    else:
        _read_plain(text, m, r)


def _read_plain(text: str, m: re.Match[str], r: _Reading) -> None:
    """A number with no sign of its kind on itself: `10 per cent`, `4 GB`, `3 apples`, or a bare number."""
    value = r.value
    r.keys = {f"n:{fmt(value)}"} | ({f"kilo:{fmt(value / 1000)}"} if r.sfx == "k" else set())
    per_cent = _PER_CENT.match(text, r.end)
    if per_cent:  # `10 per cent` = `10%`
        r.keys, r.kind, r.dimension = {f"percent:{fmt(value)}", f"frac:{fmt(value / 100)}"}, ValueKind.QUANTITY, "percent"
        r.end = per_cent.end()
    elif r.follow:
        _read_unit(text, r.follow, r)
    elif text[m.start() - 1:m.start()] in CURRENCY_SYMBOLS:
        r.keys = {f"money:{CURRENCY_SYMBOLS[text[m.start() - 1]]}:{fmt(value)}"}


def _read_unit(text: str, follow: re.Match[str], r: _Reading) -> None:
    """The word after a plain number: `percent`, `times`, a unit in one or two words (`22 nautical miles`), or the
    noun it counts."""
    value, unit_text = r.value, follow.group("u")
    if unit_text.casefold() in ("percent", "pct"):
        r.keys, r.kind, r.dimension = {f"percent:{fmt(value)}", f"frac:{fmt(value / 100)}"}, ValueKind.QUANTITY, "percent"
        r.end = follow.end()
    elif unit_text.casefold() in ("times", "x"):
        r.keys, r.kind, r.dimension = {f"times:{fmt(value)}"}, ValueKind.QUANTITY, "times"
        r.end = follow.end()
    else:
        amount = amount_keys(value, unit_text) or amount_keys(value, unit_text.split(" ")[0])
        pair = _SECOND_UNIT_WORD.match(text, follow.end()) if unit_text.isalpha() else None
        two_words = amount_keys(value, f"{unit_text} {pair.group(1)}") if pair and (
            not amount or unit_text.casefold() in _UNIT_MODIFIERS) else None
        if two_words and pair:  # `22 nautical miles`, `40 square metres`: one unit in two words
            r.keys, r.kind, r.dimension = two_words
            r.end = pair.end()
        elif amount:
            r.keys, r.kind, r.dimension = amount
            r.end = follow.start() + len(unit_text if amount_keys(value, unit_text) else
                                         unit_text.split(" ")[0]) + (follow.start("u") - follow.start())
        elif unit_text.casefold() not in FUNCTION_WORDS and unit_text.casefold() not in _CONJUNCTIONS:
            r.dimension = f"count:{unit_text.casefold().rstrip('s')}"
            r.counted_end = follow.end()


def _read_sequence_and_age(text: str, m: re.Match[str], r: _Reading) -> None:
    """`day 1`, `wk 3`: a place in a sequence; `18 years old`: an age."""
    at, value = m.start("n"), r.value
    named = _SEQUENCE_BEFORE.search(text, max(0, at - 12), at) if r.keys == {f"n:{fmt(value)}"} else None
    counted = SEQUENCE_NOUNS.get(named.group(1).casefold()) if named else None
    if counted and value == int(value) and 0 < value < 100:  # `day 1`, `wk 3`: the first day, the third week
        r.keys |= {f"ordinal:{fmt(value)}:{counted}"}
    age = _AGE.match(text, m.end())
    if age and not (r.ordinal or r.cur or r.sfx):
        r.keys = {f"n:{fmt(value)}", f"age:{fmt(value)}"}  # `18 years old`, `2-year-old` is an age
        r.kind, r.dimension, r.end = ValueKind.NUMBER, "age", age.end()


def _read_bound_after(text: str, r: _Reading) -> None:
    """`5 or more`, `3 at most`, `2-hr min`: a bound written after the amount."""
    after = _BOUND_AFTER.match(text, r.end) or (
        _BOUND_AFTER.match(text, r.counted_end) if r.counted_end > r.end else None)
    least = _MIN_AFTER_UNIT.match(text, r.end) if not after and r.dimension == "duration" else None
    if least:  # `2-hr min`: a unit is written, so `min` is its minimum
        r.keys, r.end = {f">={k}" for k in r.keys}, least.end()
    if after:
        r.keys = {f"{'>=' if after.group('up') or after.group('plus') or after.group('least') else '<='}{k}"
                  for k in r.keys}
        r.end = after.end()


def _read_rate(text: str, r: _Reading) -> None:
    """An amount per something: per a period (`$600 monthly`, `3/wk`), per a noun (`$85 per person`), or each
    (`£5 apiece`)."""
    rate = _RATE.match(text, r.end) or (_RATE.match(text, r.counted_end) if r.counted_end > r.end else None)
    adverb = _RATE_ADVERB.match(text, r.end) if r.kind == ValueKind.MONEY and not rate else None
    if adverb:  # `$600 monthly` = `$600/mo`: an amount per period
        r.keys = {f"{k}/{fmt(_ADVERB_SECONDS[' '.join(adverb.group(1).casefold().split())])}s" for k in r.keys}
        r.kind, r.dimension, r.end = ValueKind.RATE, f"rate:{r.dimension}", adverb.end()
    if rate and rate.group(0).lstrip().startswith("for") and r.kind != ValueKind.MONEY:
        rate = None  # `for 3 days` rates only a price: `£28 for 30 minutes` = `£28 per half hour`
    if rate and rate.group("u").casefold() in CALENDAR_UNITS:
        _per_period(rate, r)
    elif rate and not rate.group("n") and (re.match(r"\s+per\s|/\S|.*\beach\s", rate.group(0)) or (
            re.match(r"[\s-]+an?[\s-]", rate.group(0)) and (r.kind == ValueKind.MONEY or unit_of(rate.group("u"))))) and \
            rate.group("u").casefold() not in FUNCTION_WORDS:  # `45p a mile` = `45p/mile`
        _per_noun(rate, r)
    each = _EACH.match(text, max(r.end, r.counted_end)) if r.kind != ValueKind.RATE else None
    if each:  # `two pellets each`, `£5 apiece`: an amount per item, not in all
        r.keys = {f"{k}/per:each" for k in r.keys}
        r.kind, r.dimension, r.end = ValueKind.RATE, f"rate:{r.dimension}", each.end()


def _per_period(rate: re.Match[str], r: _Reading) -> None:
    """`3 per week`, `1x/wk`: an amount per a calendar period (and, for a multiple, how often)."""
    per = CALENDAR_UNITS[rate.group("u").casefold()] * float(rate.group("n") or 1) * (
        0.5 if rate.group("half") else 1)
    times = [k for k in r.keys if k.startswith("times:")]
    r.keys = {f"{k}/{fmt(per)}s" for k in r.keys}
    if times:  # `1x/wk` = `once a week`, `2x/yr` = `twice a year`: how often
        r.keys.add(f"freq:{fmt(float(times[0][6:]) / per)}")
    r.kind, r.dimension, r.end = ValueKind.RATE, f"rate:{r.dimension}", rate.end()


def _per_noun(rate: re.Match[str], r: _Reading) -> None:
    """`$85 per person`, `€20/room`, `45p a mile`: an amount per a noun, or a unit ratio (`km/h`)."""
    follow = r.follow
    ratio = amount_keys(r.value, f"{follow.group('u')}/{rate.group('u')}") if r.kind == ValueKind.QUANTITY and follow \
        and unit_of(rate.group("u")) else None
    noun = rate.group("u").casefold().rstrip("s")  # `$85 per person`, `€20/room`
    noun = "each" if noun in _PER_HEAD else noun  # `per person` = `each` = `per head`
    r.keys = ratio[0] if ratio else {f"{k}/per:{noun}" for k in r.keys}
    r.kind, r.dimension, r.end = (ratio[1], ratio[2], rate.end()) if ratio else (
        ValueKind.RATE, f"rate:{r.dimension}", rate.end())




_SLASH_FRACTION = re.compile(r"(?<![\w./-])(\d{1,2})/(\d{1,2})(?![\w/]|[.,]\d)")


def _slash_fractions(text: str) -> list[Value]:
    """`1/2 cup` = `half a cup`, `3/4"` = `0.75 inch`: a share written with a slash, read only before its unit
    (`118/76`, `24/7` are two numbers; `16/9` may be a date, read before this)."""
    out = []
    for m in _SLASH_FRACTION.finditer(text):
        top, bottom = int(m.group(1)), int(m.group(2))
        follow = _UNIT_WORD.match(text, m.end())
        if not 0 < top < bottom <= 16 or not follow:
            continue
        amount = amount_keys(top / bottom, follow.group("u"))
        if amount:
            keys, kind, dimension = amount
            out.append(Value(frozenset(keys), kind, text[m.start():follow.end()], m.start(), follow.end(), dimension,
                             amount=fmt(top / bottom)))
    return out


_COURSE = re.compile(r"(?<![\w.])[x×]\s?(\d{1,3})\s?(d|days?|w|wks?|weeks?|mo|months?)\b", re.IGNORECASE)
_COURSE_UNITS = {"d": 86400, "w": 604800, "wk": 604800, "mo": 2629800}


def _courses(text: str) -> list[Value]:
    """`x7d`, `× 2 wk`: for how long (a course of medicine, a trial) — `for seven days`."""
    out = []
    for m in _COURSE.finditer(text):
        unit = m.group(2).casefold()
        seconds = _COURSE_UNITS.get(unit[:2] if unit.startswith(("wk", "mo")) else unit[:1], 0) * int(m.group(1))
        if seconds:
            out.append(Value(frozenset({f"duration:{fmt(seconds)}"}), ValueKind.QUANTITY, m.group(0), m.start(), m.end(),
                             "duration", amount=m.group(1)))
    return out


_COUNT_X = re.compile(r"(?<=[^\W\d_])\s*(?P<count>(?<=\s)[x×]\s?(?P<n>\d{1,4})|×\s?(?P<m>\d{1,4}))\b(?![x×.,]?\d)",
                      re.IGNORECASE)


def _counts(text: str) -> list[Value]:
    """`oat milk x2`, `eggs × 12`: how many of what the list names — `two cartons of oat milk`."""
    return [Value(frozenset({f"n:{int(m.group('n') or m.group('m'))}"}), ValueKind.NUMBER, m.group("count"), m.start("count"),
                  m.end("count"), "number") for m in _COUNT_X.finditer(text)]


_AGE = re.compile(r"[\s-]*(?:years?|yrs?)[\s-]*old\b|[\s-]*(?:years?|yrs?)\s+of\s+age\b", re.IGNORECASE)
_BOUND_AFTER = re.compile(r"\s*(?:(?:or|and)\s+(?:(?P<up>over|more|above|up|upwards|after|" + "|".join(COMPARED_GREATER) + r")|"
                          r"(?:under|less|fewer|below|before|" + "|".join(COMPARED_LESSER) + r"))\b(?!\s+(?:a|an|the|any|each|every|my|"
                          r"your|our|their|his|her|its|this|that|than)\b|\s*[\d$€£¥])|(?P<plus>(?<=[\w%])\+)|"  # `18+`, not `£1,850 + VAT`
                          r",?\s*(?:(?P<least>minimum|at\s+(?:the\s+)?least|at\s+the\s+earliest)|max(?:imum)?|at\s+(?:the\s+)?most|"
                          r"at\s+the\s+latest)\b"
                          r"(?!\s*(?:of\s+)?[\d$€£¥]))",  # `one piece, max 4 minutes`: the bound is the next amount's
                          re.IGNORECASE)  # `65 or older`, `18+`, `0.2 g max`
_DEGREES = re.compile(r"\s?(?:°\s?|degrees?\s+)(?P<scale>c|f|celsius|fahrenheit|centigrade)\b", re.IGNORECASE)
# Nouns of a sequence, which a number after them counts in order (`day 1` = `the first day`, `wk 3` = `week three`),
# and their short forms: a closed list, by what each names (not `unit 4` or `room 12`, which name a place).
SEQUENCE_NOUNS = {**{w: w for w in "day week month year round stage phase level step session lap set game match episode "
                     "chapter part season term semester lesson module heat leg floor row sprint".split()},
                  "wk": "week", "mo": "month", "yr": "year", "ep": "episode", "ch": "chapter", "fl": "floor",
                  "lvl": "level", "sem": "semester"}
_SEQUENCE_BEFORE = re.compile(r"\b([A-Za-z]{2,8})\.?\s+$")
# Subordinating conjunctions: a clause follows them, never a thing a number counts (`hives 1–4 until each takes`)
_CONJUNCTIONS = frozenset("until till unless while whilst whereas although though because since whether once after "
                          "before when whenever where wherever if so".split())
_MIN_AFTER_UNIT = re.compile(r"\s+min\b\.?(?!\s*[\d.])", re.IGNORECASE)
_CODE_BEFORE = re.compile(r"\b(?P<code>[A-Z]{3})\s?$")


_PER_HEAD = frozenset({"person", "people", "head", "individual", "pax", "capita"})
# `£35 annual rent`, `£35 each year`: an amount per period
_ADVERB_SECONDS = {k: v for k, v in ADVERB_PERIODS.items() if k != "biweekly"} | {
    "each year": 31557600, "every year": 31557600, "each month": 2629800, "every month": 2629800, "each week": 604800,
    "every week": 604800, "each day": 86400, "every day": 86400}
_RATE_ADVERB = re.compile(r"\s+(" + "|".join(sorted(_ADVERB_SECONDS, key=len, reverse=True)).replace(" ", r"\s+")
                          + r")\b", re.IGNORECASE)
_EACH = re.compile(r"\s*(?:each|apiece|a head|per head)\b(?!\s*[^\W\d_])", re.IGNORECASE)  # not `each evening`
_DIGIT_CODE = re.compile(r"(?<![\w.-])\d+(?:-\d+){2,}(?![\w-])")  # `3-19-27`: a combination, a code
_NUMBER_RANGE = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)\s?[-–]\s?(\d+(?:\.\d+)?)(?!\w|[.,]\d|-\d)")  # `9-12`, `24–28`


_DIMENSION_GLUE = re.compile(r"\s*(?:x|×|by)\s*$", re.IGNORECASE)


def _dimensions(text: str, found: list[Value]) -> list[Value]:
    """`28 x 140 mm` = `28 by 140 millimetres`: each side of a size is an amount in the last side's unit (not
    `28 times`, and `by` there is no deadline)."""
    found = sorted(found, key=lambda v: v.start)
    out = list(found)
    for k in range(1, len(out)):  # `90×108 in`: `in` after a size is inches (alone it is the preposition)
        inches = re.match(r'\s?(?:in\b\.?|")', text[out[k].end:out[k].end + 4])
        if out[k].kind == ValueKind.NUMBER and out[k - 1].kind == ValueKind.NUMBER and inches and \
                _DIMENSION_GLUE.match(text[out[k - 1].end:out[k].start]):
            amount = amount_keys(_number(out[k].text), "inch")
            if amount:
                out[k] = Value(frozenset(amount[0]), ValueKind.QUANTITY, text[out[k].start:out[k].end + inches.end()],
                               out[k].start, out[k].end + inches.end(), amount[2])
    for k in range(len(found) - 1, 0, -1):
        unit_side = out[k]
        if unit_side.kind != ValueKind.QUANTITY or not any(strip_bound(key).startswith("q:meter:") for key in unit_side.keys):
            continue  # a size is lengths (`4× 14TB` is four drives)
        j = k - 1
        while j >= 0:
            side = out[j]
            glue = text[side.end:out[j + 1].start] if side.kind != ValueKind.QUANTITY or "times:" in min(side.keys) else ""
            written = text[side.start:side.end]
            if side.kind == ValueKind.QUANTITY and "times:" in min(side.keys):  # `28 x` read as a multiple
                glue, written = " x", written.rstrip(" x×X")
            if not (_DIMENSION_GLUE.match(glue) or glue == " x") or not re.fullmatch(r"\d+(?:\.\d+)?", written.strip()):
                break
            amount = amount_keys(_number(written.strip()), _unit_word(unit_side))
            if not amount:
                break
            out[j] = Value(frozenset(amount[0]), ValueKind.QUANTITY, side.text, side.start, side.end, amount[2])
            out[j + 1] = dataclasses.replace(out[j + 1], keys=frozenset(strip_bound(key) for key in out[j + 1].keys))
            j -= 1
    return out


def _unit_word(value: Value) -> str:
    match = re.search(r"[^\d\s.,]+$", value.text)
    return ("inch" if match.group(0) in ("in", '"') else match.group(0)) if match else ""


def _digit_codes(text: str) -> list[Value]:
    return [Value(frozenset({f"token:{m.group(0)}"}), ValueKind.CODE, m.group(0), m.start(), m.end(), "code")
            for m in _DIGIT_CODE.finditer(text)]


def _range_ends(text: str, found: list[Value]) -> list[Value]:
    """The upper end of a bare range (`runs 9-12` = `from 9 to 12`), which the number reader skips after a dash."""
    starts = {v.start for v in found}
    ends = [(v.start, v.end) for v in found]
    out = []
    for m in _NUMBER_RANGE.finditer(text):
        if m.start(1) in starts and not inside(m.start(2), m.end(2), ends):
            out.append(Value(frozenset({f"n:{fmt(_number(m.group(2)))}"}), ValueKind.NUMBER, m.group(2), m.start(2), m.end(2),
                             "number"))
    return out


_SIZE_X = re.compile(r"(?<=\d)[xX](?=\d)")
_CALENDAR_KINDS = (ValueKind.TIME, ValueKind.DATE, ValueKind.MONTH, ValueKind.WEEKDAY)  # `by Friday` is a deadline


def values(text: str) -> list[Value]:
    """Every value `text` states, in the order written, none inside another."""
    text = _SIZE_X.sub("×", text)  # `35x45mm` is a size, `35 × 45 mm` (same length: spans do not move)
    scheduled = cron_values(text)
    found = scheduled + [t for t in tokens(text) if not any(s.start < t.end and t.start < s.end for s in scheduled)]
    dated = [(d.start, d.end) for d in dates(text)]
    found += [p for p in phones(text) if not any(s < p.end and p.start < e for s, e in dated)]
    taken = [(v.start, v.end) for v in found]
    found += [v for v in frequencies(text) + worded.round_the_clock(text) if not inside(v.start, v.end, taken)]
    taken = [(v.start, v.end) for v in found]
    for date in dates(text):
        if not inside(date.start, date.end, taken):
            found.append(date)
    taken = [(v.start, v.end) for v in found]
    found += [v for v in quarters(text) + _courses(text) + _counts(text) + age_groups(text) + worded.one_to_ones(text)
              + worded.free(text) if not inside(v.start, v.end, taken)]
    taken = [(v.start, v.end) for v in found]
    found += times(text, taken)
    found += [v for v in _digit_codes(text) if not inside(v.start, v.end, [(x.start, x.end) for x in found])]
    found += [v for v in even_splits(text) if not inside(v.start, v.end, [(x.start, x.end) for x in found])]
    found += [v for v in _slash_fractions(text) + ratios(text)
              if not inside(v.start, v.end, [(x.start, x.end) for x in found])]
    taken = [(v.start, v.end) for v in found]
    found += _numbers(text, taken)
    found += _range_ends(text, found)
    found = _dimensions(text, found)
    taken = [(v.start, v.end) for v in found]
    shares = fractions(text)
    found = [v for v in found if not any(f.start <= v.start and v.end <= f.end and f.kind == ValueKind.QUANTITY and
                                         f.dimension == "duration" for f in shares)]
    taken = [(v.start, v.end) for v in found]
    found += [v for v in shares + worded.article_durations(text) + worded.article_amounts(text)
              if not any(s < v.end and v.start < e for s, e in taken)]
    found.sort(key=lambda v: (v.start, -v.end))
    kept: list[Value] = []
    for v in found:
        if kept and v.start < kept[-1].end and (v.start, v.end) != (kept[-1].start, kept[-1].end):
            continue  # overlaps an earlier, longer value (one span may state two facts: day and frequency)
        if v.kind in _CALENDAR_KINDS or v.kind == ValueKind.FREQUENCY or (
                v.dimension in ("duration", "percent") and not any(k[:1] in "<>=~" for k in v.keys)):
            bound = bound_before(text, v.start, deadline=v.kind in _CALENDAR_KINDS) or (
                "<=" if v.kind in MOMENT_KINDS and DEADLINE_LABEL.search(text, max(0, v.start - 60), v.start) else "")
            after = MOMENT_BOUND_AFTER.match(text, v.end) if v.kind in MOMENT_KINDS and not bound else None
            if after:  # `ends 23:45 at the latest` = `by 23:45`
                bound = ">=" if after.group(3) or (after.group(1) or after.group(2)).casefold() in (
                    "earliest", "later", "after") else "<="
            # "around 6 pm"; "before 14 July" is an order marker
            if bound:
                v = dataclasses.replace(v, keys=frozenset(f"{bound}{k}" for k in v.keys))
        kept.append(every_either(text, limited(text, labelled_amount(text, v))))
    return compound_durations(text, one_moment_bound(text, range_days(text, kept)))


__all__ = [
    "CURRENCY_WORDS",
    "MONTHS",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "WEEKDAYS",
    "Value",
    "fmt",
    "ordinal_value",
    "unit_of",
    "values",
]
