"""Sentences a merged body states more than once (a draft that repeats itself, 181 % of its longest source):
the bulk preview flags them. Pure; the sentence split and comparison key are the union draft's."""
from __future__ import annotations

from .sentences import split

MIN_KEY = 12  # shorter units ("Notes:", a bullet of two words) repeat harmlessly


def repeated_sentences(body: str | None) -> list[str]:
    """Each sentence (or markdown line) the body states again later, as first written, in body order."""
    seen: dict[str, str] = {}
    repeated: dict[str, str] = {}
    for sentence in split(body or ""):
        key = sentence.plain
        if len(key) < MIN_KEY or sentence.structural:
            continue
        if key in seen:
            repeated.setdefault(key, seen[key])
        else:
            seen[key] = sentence.text
    return list(repeated.values())


__all__ = ["repeated_sentences"]
