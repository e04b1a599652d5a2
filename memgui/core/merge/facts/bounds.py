"""Bounds of an amount or a moment, as key prefixes (`<=n:5` for `at most 5`): the bound written before it (`up
to`, `over`, `shorter than`, `before 05:00`, `due`), one a negation turns round (`never going below three`), and
what a key's bound is."""
from __future__ import annotations

import re

from .. import lexical
from .currencies import CURRENCY_WORDS
from .lexicon import BOUNDS, FUNCTION_WORDS

_BOUND_SYMBOLS = {"≤": "<=", "≥": ">=", "<": "<", ">": ">", "~": "~", "≈": "~", "±": "~"}


_MOMENT_ORDER = {"before": "<", "after": ">", "once": ">"}  # of a moment: `before 05:00` = `earlier than 5 a.m.`
_OFFSET_BEFORE = re.compile(r"(?:\d|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|several))\s*-?"
                            r"(?:min|mins|minutes?|h|hrs?|hours?|days?|nights?|weeks?|wks?|months?|years?)\s+$")
_DEADLINES = frozenset({"due", "due on", "due by", "due in", "due at", "due date", "deadline", "deadline is", "deadline of", "deadline on"})


def strip_bound(key: str) -> str:
    """A value key without its bound: `<=n:5` → `n:5`."""
    return key.lstrip("<>=~")


# a comparative before `than` and an amount bounds it (`shorter than 22 ft` = `under 22 ft`); without an amount
# it stays a comparison. Only comparatives whose direction is the amount's own (not `faster`, `slower`: a pace).
COMPARED_LESSER = ("younger", "earlier", "shorter", "smaller", "lower", "lighter", "cheaper", "colder", "cooler", "narrower",
           "thinner", "sooner", "lesser", "quieter", "softer", "shallower")
COMPARED_GREATER = ("older", "later", "longer", "bigger", "larger", "higher", "greater", "heavier", "dearer", "warmer",
            "hotter", "wider", "thicker", "taller", "louder", "deeper", "steeper")
_COMPARED = {f"{word} than": "<" for word in COMPARED_LESSER} | {f"{word} than": ">" for word in COMPARED_GREATER}


_UNIT_BOUNDS = frozenset({"min", "mins"})  # bound words that are also units
_AMOUNT_WORD = re.compile(r"[\d.,½¼¾]+|half|an?|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|"
                          r"fifty|sixty|ninety")


_INVERSE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_BOUND_NEGATION = re.compile(r"\b(?:not|never|no\s+longer)\s+(?:\w+\s+)?$|n['’]t\s+(?:\w+\s+)?$", re.IGNORECASE)
# the second of two bounds under one negation: `never going below three or above twelve`
_SECOND_NEGATED = re.compile(r"\b(?:not|never)\b[^.;:,\n]{0,30}\s[\w.,$€£%]+\s+(?:or|nor)\s+$", re.IGNORECASE)


def _negated_bound(text: str, start: int, bound: str, phrase: str) -> str:
    """`never going below three` is at least three, `isn't over 5` at most 5: a negation before a bound (at most one
    word between) turns it round, and reaches a second bound joined by `or`."""
    if bound not in _INVERSE or phrase.split()[0] in ("no", "not", "never"):
        return bound  # `no more than`, `not before`: the negation is the phrase's own
    at = text.casefold().rfind(phrase, max(0, start - 24 - len(phrase)), start)
    if at < 0:
        return bound
    lead = text[max(0, at - 60):at]
    return _INVERSE[bound] if _BOUND_NEGATION.search(lead) or _SECOND_NEGATED.search(lead) else bound


_RANGE_FROM = re.compile(r"\bfrom\s+\S+\s*$")
_LAST_WORD = re.compile(r"([^\W\d_]+)[\s(\[{\"'“*_,;:.=]*$")


def _named_before(text: str, start: int) -> bool:
    """The word just before `start` is written with a capital (`BACS`, `Heathrow`): a name, not a unit (a currency
    code is the amount's own: `capped at USD 150`)."""
    m = _LAST_WORD.search(text, max(0, start - 24), start)
    return m is not None and m.group(1)[:1].isupper() and m.group(1).casefold() not in CURRENCY_WORDS


def bound_before(text: str, start: int, deadline: bool = False) -> str:
    """The bound written just before an amount ("at most 5", "up to 3", "over 40"): '' when none. `by` bounds
    only a `deadline` (a date or a time): `by Friday` is at the latest, `up by 4%` is how much."""
    window = re.split(r"[;!?\n]", text[max(0, start - 24):start].casefold())[-1]  # not across a clause's end
    symbol = window.rstrip(" ")[-1:]
    if symbol in _BOUND_SYMBOLS:  # `≤5`, `~2019`, `> 40`
        return _BOUND_SYMBOLS[symbol]
    before = [w.strip("([{\"'“*_,;:.=") for w in window.split()]
    before = [w for w in before if w]  # `max = 10`: the sign of a setting is no word
    while before and before[-1] in ("the", "a", "an"):
        before.pop()  # "by the 15th of January"
    for skip in (0, 1):  # "below 2", "below version 2"
        words = before[: len(before) - skip] if skip else before
        if skip and (not before or before[-1] in FUNCTION_WORDS or before[-1] in BOUNDS or not before[-1].isalpha()
                     or before[-1] in ("every", "each") or _named_before(text, start)):
            break  # (`over I2C1 twice a minute`, `paid by BACS 12 Jun`: a code or a name between is no unit of the
            # bound amount; `due every October` recurs, no deadline)
        for size in (3, 2, 1):
            phrase = " ".join(words[-size:]) if len(words) >= size else ""
            if phrase in _UNIT_BOUNDS and len(words) > size and _AMOUNT_WORD.fullmatch(words[-size - 1]):
                continue  # `30 min every evening`: the unit of the amount before it, not a minimum
            if phrase == "over" and len(words) > size and re.fullmatch(r"\d[\d.,]*", words[-size - 1]):
                return ""  # `118 over 76`: a reading of two numbers, not more than 76
            if phrase == "up to" and _RANGE_FROM.search(window.rsplit(phrase, 1)[0]):
                return ""  # `from 3.19 up to 3.22`: the end of a range, not a most
            if phrase == "up to" and len(words) > size and ("v", "go") in lexical.bases(words[-size - 1]):
                return ""  # `the fee goes up to 55 EUR` (a form of `go`): the new level, not a most
            if phrase in BOUNDS and BOUNDS[phrase] not in ("from", "to", "range") and (deadline or phrase != "by") and \
                    phrase not in ("at the latest", "at the earliest") and not phrase.startswith("or "):  # those
                # follow their amount (`45 hours or more, though every other week`)
                return _negated_bound(text, start, BOUNDS[phrase], phrase)
            if phrase in _COMPARED:  # `younger than 18` = `under 18`; without an amount it stays a comparison
                return _negated_bound(text, start, _COMPARED[phrase], phrase)
            if deadline and phrase in _DEADLINES:
                return "<="  # `due 30 May` = `by 30 May`
            if deadline and phrase in _MOMENT_ORDER and not _OFFSET_BEFORE.search(window.rsplit(phrase, 1)[0]):
                return _MOMENT_ORDER[phrase]  # `before 05:00` = `earlier than 5 am` (a negation there is the act's;
                # `3 weeks before the 12 June wedding` counts back from the day, which it does not bound)
    return ""


def bound_of(key: str) -> str:
    """The bound a key is written with (`<=` of `<=time:12:00`), '' for none."""
    return key[:len(key) - len(strip_bound(key))]


__all__ = ["COMPARED_GREATER", "COMPARED_LESSER", "bound_before", "bound_of", "strip_bound"]
