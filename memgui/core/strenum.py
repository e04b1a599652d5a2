"""`StrEnum`: an enum whose members are their string values, for every string that crosses a seam (a fact's
direction, a decision's keyword, a verdict). A member is a `str`, so it compares equal to its value, is written
as its value to JSON and SQLite, and prints as its value (`f"{Direction.DROPPED}"` is `dropped`), as Python 3.11's
`enum.StrEnum` does; this project supports 3.10, which has no `enum.StrEnum`."""
from __future__ import annotations

import enum


class StrEnum(str, enum.Enum):
    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(str.__str__(self), spec)


__all__ = ["StrEnum"]
