"""Codes and the names they stand for: a note writes `LHR-SFO`, `EN/PT` or `DE`, its merge "London Heathrow to
San Francisco", "English–Portuguese" or "Germany". Airports from `airportsdata` (airports.py); countries (ISO 3166-1)
and languages (ISO 639) from `pycountry`'s tables, read on first need only."""
from __future__ import annotations

import functools
import re

from . import airports

_CODE = re.compile(r"^[A-Z]{2,3}$")
# `UK` is the code everyone writes for the United Kingdom; ISO 3166-1 reserves it and assigns `GB`
_ALIASES = {"UK": "GB"}


@functools.lru_cache(maxsize=1)
def _iso_table() -> dict[str, frozenset[str]]:
    """ISO country code (alpha-2 and alpha-3) and language code (alpha-2) → the names it stands for, lower case."""
    try:
        import pycountry
    except ImportError:  # the lens works without it: codes then compare as written
        return {}
    out: dict[str, set[str]] = {}
    for country in pycountry.countries:
        names = {getattr(country, field, "") for field in ("name", "common_name", "official_name")}
        for code in (country.alpha_2, country.alpha_3):
            out.setdefault(code, set()).update(name.casefold() for name in names if name)
    for language in pycountry.languages:
        code = getattr(language, "alpha_2", "")
        if code:
            out.setdefault(code.upper(), set()).add(language.name.casefold())
    return {code: frozenset(names) for code, names in out.items()}


def names_of(code: str) -> frozenset[str]:
    """The places, countries and languages a code in capitals stands for; empty for a token that is no code."""
    if not _CODE.match(code):
        return frozenset()
    return airports.places_of(code) | _iso_table().get(_ALIASES.get(code, code), frozenset())


def named_by_code(word: str, codes: list[str]) -> bool:
    """`Heathrow`, `Portuguese` or `Germany` where the other note writes `LHR`, `PT` or `DE`."""
    low = word.casefold().replace("’", "'")
    return any(low in names_of(code) for code in codes)


__all__ = ["named_by_code", "names_of"]
