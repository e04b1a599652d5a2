"""Airport codes and the places they name: a travel note writes `LHR-SFO`, its merge "London Heathrow to San
Francisco". The IATA table is `airportsdata`'s (every airport's name and city), read on first need only."""
from __future__ import annotations

import functools
import re

# words of airport names that name no place of their own
_GENERIC = frozenset("airport international intl regional municipal national field county city air base am main de "
                     "la le el del of the and saint st metropolitan area airfield aerodrome terminal".split())
_CODE = re.compile(r"^[A-Z]{3}$")


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    """IATA code → the place words of its airport's name and city (`LHR` → london, heathrow)."""
    try:
        import airportsdata
        airports = airportsdata.load("IATA")
    except (ImportError, OSError, ValueError):  # the lens works without it: codes then compare as written
        return {}
    out = {}
    for code, row in airports.items():
        words = re.findall(r"[^\W\d_][\w'’]*", f"{row.get('name', '')} {row.get('city', '')}".casefold())
        out[code] = frozenset(w.replace("’", "'") for w in words if w not in _GENERIC and len(w) > 2)
    return out


def places_of(code: str) -> frozenset[str]:
    """The place words an airport code stands for; empty for a token that is no airport code."""
    if not _CODE.match(code):
        return frozenset()
    return _table().get(code, frozenset())


def named_by_code(word: str, codes: list[str]) -> bool:
    """`Heathrow` (or `London`) where the other note writes `LHR`."""
    low = word.casefold().replace("’", "'")
    return any(low in places_of(code) for code in codes)


__all__ = ["named_by_code", "places_of"]
