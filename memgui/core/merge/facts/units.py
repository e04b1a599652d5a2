"""What a unit word means: its dimension and factor (pint, with the spellings notes use that pint reads
otherwise), calendar units as seconds, and the keys of an amount written with a unit or a currency."""
from __future__ import annotations

import functools
from typing import Any

from .currencies import CURRENCY_WORDS
from .lexicon import FUNCTION_WORDS
from .value_types import ValueKind, fmt


@functools.lru_cache(maxsize=4096)
def unit_of(spelling: str) -> tuple[str, float] | None:
    """(dimension, factor to base units) of a unit as written (`GB`, `gigabytes`, `min`, `°C`, `ng/mL`), by
    pint; None for a word that is not a unit (a counted noun: `4 drives`)."""
    word = spelling.strip()
    if not word or ((word.casefold() in FUNCTION_WORDS or word.casefold() in _NOT_UNITS) and word not in ("W", "V")):
        return None  # `248 W` is watts, `w/ Jess` is with
    if " " in word and word.split()[0].casefold() in FUNCTION_WORDS:
        return None  # `10 at a time`: no unit begins with a function word
    registry = _registry()
    word = _DATA_UNITS.get(word, word)  # `kb`, `mb` are kilobytes and megabytes in a note, not barns (`Mb` stays a megabit)
    for candidate in dict.fromkeys((word.replace(" ", "_"), word,  # pint names `fl_oz`, reads `square metre`
                                    word.replace(" per ", "/").replace(" a ", "/").replace(" an ", "/"),
                                    word.upper() if len(word) <= 3 else word, word.lower())):
        try:
            quantity = registry.Quantity(1, candidate).to_base_units()
        except Exception:  # pint raises many kinds for a word that is not a unit
            continue
        return str(quantity.units), float(quantity.magnitude)
    return None


_DATA_UNITS = {"NM": "nmi", "kb": "kB", "KB": "kB", "mb": "MB", "kib": "KiB", "mib": "MiB", "kilo": "kg", "kilos": "kg",
               "Kilo": "kg", "Kilos": "kg", "gig": "GB", "gigs": "GB", "meg": "MB", "megs": "MB"}
# (`NM` in capitals is the nautical mile of charts and flight plans; pint reads it as nanometres, written `nm`.)
# Words pint reads as a unit but notes use as words ("3 in", "5 pm", "2 a", "4 at", "1 m" as million).
_NOT_UNITS = frozenset("in at a an am pm as or to of is it by on no and are be do go me my us we he".split()
                       + "point line drop stone rod story hand degree cycle turn count bit barn".split()
                       + "bag bags bale bales bolt bolts board boards chain chains cord link links span square".split()
                       + "year years yr yrs month months week weeks day days".split())


@functools.lru_cache(maxsize=1)
def _registry() -> Any:  # pint.UnitRegistry, whose type pint does not export to a checker
    import pint  # 0.4 s on first use: only notes with an amount pay it
    return pint.UnitRegistry(cache_folder=None)


CALENDAR_UNITS = {"second": 1, "sec": 1, "secs": 1, "seconds": 1, "s": 1, "minute": 60, "minutes": 60,
                   "min": 60, "mins": 60, "hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "h": 3600,
                   "day": 86400, "days": 86400, "week": 604800, "weeks": 604800, "fortnight": 1209600,
                   "wk": 604800, "wks": 604800, "mos": 2629800, "mths": 2629800,
                   "month": 2629800, "months": 2629800, "mo": 2629800, "mth": 2629800, "quarter": 7889400,
                   "year": 31557600, "years": 31557600, "yr": 31557600, "yrs": 31557600, "ms": 0.001,
                   "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "decade": 315576000,
                   "decades": 315576000, "century": 3155760000, "annum": 31557600, "y": 31557600}


# Units written glued to a number (`2gb`, `14TB`, `5km`); pint would read any letters as some unit
# (`7940HS` as hectoseconds), and glued letters are more often an identifier.
GLUED_UNITS = frozenset(
    "b kb mb gb tb pb kib mib gib tib ms s sec m h hr hrs min mins d km cm mm kg g mg mcg µg l ml dl mhz ghz hz "
    "w kw kwh mw v mv mah a ma pt px in ft lb lbs oz mph kph kmh fps rpm gbps mbps kbps c f yr yrs mo wk p y".split())


@functools.lru_cache(maxsize=256)
def iso_currency(word: str) -> bool:
    """An ISO 4217 code written in capitals beside an amount (`60k CLP`, `CLP 340.000`), by pycountry's table; not
    one that is an English word as well (`TOP 10`, `ALL 3`: WordNet's index)."""
    if len(word) != 3 or not word.isupper() or not word.isalpha():
        return False
    import pycountry

    from .. import lexical
    return pycountry.currencies.get(alpha_3=word) is not None and not lexical.is_word(word)


def currency_code(word: str) -> str | None:
    """The code a currency's name or ISO code stands for (`euros` → EUR, `kr` → SEK, `CLP`), or None."""
    return CURRENCY_WORDS.get(word.casefold()) or (word if iso_currency(word) else None)


def amount_keys(value: float, unit_text: str) -> tuple[set[str], ValueKind, str] | None:
    """Keys, kind and dimension of `value unit_text` when `unit_text` is a unit or a currency."""
    word = unit_text.strip().rstrip(".")
    low = word.casefold()
    if low in ("pound", "pounds"):  # `2 pounds`: sterling or weight, whichever the other note says
        mass = amount_keys(value, "lb")
        assert mass is not None
        return {f"money:GBP:{fmt(value)}"} | mass[0], ValueKind.MONEY, "money:GBP"
    code = currency_code(word)
    if code:
        if code.endswith("/100"):
            return {f"money:{code[:3]}:{fmt(value / 100)}"}, ValueKind.MONEY, f"money:{code[:3]}"
        return {f"money:{code}:{fmt(value)}"}, ValueKind.MONEY, f"money:{code}"
    time_unit = low.split("/")[0].split(" ")[0]
    if time_unit in CALENDAR_UNITS and "/" not in low and " " not in low:
        seconds = value * CALENDAR_UNITS[time_unit]
        return {f"duration:{fmt(seconds)}"}, ValueKind.QUANTITY, "duration"
    if low == "c":  # a recipe's cups or a temperature, never the speed of light: `1½ c flour`, `bake at 180c`
        cups = amount_keys(value, "cup")
        assert cups is not None
        return cups[0] | {f"temp:c:{fmt(value)}"}, ValueKind.QUANTITY, cups[2] if value <= 10 else "temperature"
    unit = unit_of(word)
    if unit is None:
        return None
    dimension, factor = unit
    if "kelvin" in dimension and "/" not in dimension and low in ("°c", "c", "degc", "celsius", "°f", "f",
                                                                     "fahrenheit", "degf"):
        return {f"temp:{low.lstrip('°')[0]}:{fmt(value)}"}, ValueKind.QUANTITY, "temperature"
    if dimension == "second":  # `90d`, `2 fortnights`: a duration like `90 days`, whichever reader found it
        return {f"duration:{fmt(value * factor)}"}, ValueKind.QUANTITY, "duration"
    keys = {f"q:{dimension}:{fmt(value * factor)}"}
    base = unit_of(word[1:]) if low[:1] == "k" and len(low) > 1 else None
    if base and base[0] == dimension and abs(factor / base[1] - 1000) < 1e-9:
        keys.add(f"kilo:{fmt(value)}")  # `128 kbps`, `5 km`: what `128k`, `5k` say where the unit goes unwritten
    return keys, ValueKind.QUANTITY, f"quantity:{dimension}"


__all__ = ["CALENDAR_UNITS", "GLUED_UNITS", "amount_keys", "unit_of"]
