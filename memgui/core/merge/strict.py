"""The strict lens: facts a reviewer needs kept that Netclaw's MergeGuard cannot see.

MergeGuard (guard.py) is Netclaw's rule and stays exactly Netclaw's: it governs the append fallback. Its
retention is a substring test over 14 token classes, so a merged body that turns `02:30` into `14:30`,
"14 August" into "14 September", "no sugar" into "and sugar" or `600` into `6000` passes it. The strict
lens is reported beside it, never instead of it.

`check_strict` is the fact lens (facts/lens.py) in both directions: a value, term or marker a source states that
the body drops, one the body adds, one it changes or re-attaches to another subject; same meaning is the same fact
(values by normal form, words by lemma, WordNet synonym or spelling), and the report says what it equated. To that
`with_titles` adds each identifier of a source's title (a word with a digit, `_`, `-` or `.` inside, or camelCase)
that is in neither the merged body nor the kept title. memgui's judge (align.py) runs it only over the source and
body sentences its alignment did not prove, and maps the findings back to the whole texts.

The pattern reading the lens began with stays here for the readers that list a note's facts (conflicts.py,
decide/groups.py): `facts` gives (token, kind) of MergeGuard's tokens, URLs, times, paths, dates by day and month,
months and weekdays, amounts with their unit, numbers, e-mail addresses, `#channels`, proper names and negations
with the word they negate; `fact_scans` gives their raw matches, and `contains_whole` is its match (whole tokens,
case-insensitive, white space collapsed by `normalise_text`: `2026-02` is not kept by `2026`).

Pure: strings in, a frozen report out.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..netfx import StrEnum
from .facts.lens import Equated, FactAtRisk, check_facts
from .facts.report import Direction, FactKind
from .guard import TokenKind, extract_tokens

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_MONTH_NAMES = "january|february|march|april|june|july|august|september|october|november|december"
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_UNITS = (
    r"[kmgtp]i?b|bytes?|kb|mb|gb|tb|pb|ms|us|µs|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|"
    r"months?|years?|yrs?|%|percent|x|times|requests?|reqs?|calls?|rps|qps|users?|items?|rows?|tokens?|"
    r"files?|retries|attempts?|cores?|threads?|workers?|nodes?|replicas?|pods?|gpus?|cpus?|vcpus?|"
    r"mhz|ghz|hz|kbps|mbps|gbps|km|m|cm|mm|kg|g|mg|l|ml|°c|°f|c|f|eur|usd|gbp|chf|€|\$|£|k|mi|miles?|lbs?"
)
_PER = r"(?:\s*(?:/|per)\s*[a-z]+)?"


def _lead(first: str, not_after: str) -> str:
    """`(?<![not_after])first`, written with the one-character class `first` first: Python's engine then skips
    to candidate characters with a fast scan instead of testing a look-behind at every position (as MergeGuard's
    patterns do, guard_tokens.py). Same matches: the look-behind moved past `first` tests the same character."""
    return f"{first}(?<![{not_after}]{first})"


# Under IGNORECASE a letter also matches these (Unicode's simple case folding): the classes written out below
# hold them, so that a pattern can start with a class the engine scans for without the flag.
_CASE_EXTRAS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}


def _first_letters(words: str) -> str:
    """The class of characters a case-insensitive word of `words` ("a|b|…") can start with, written out."""
    letters = sorted({word[0] for word in words.split("|")})
    return "[" + "".join(f"{ch}{ch.upper()}{_CASE_EXTRAS.get(ch, '')}" for ch in letters) + "]"


def _words_lead(words: str, rest: str) -> str:
    """`\\b(?:words)rest`, case-insensitive, written with the words' first letters' class first (compiled without
    IGNORECASE: the flag would hide the class from the fast scan). Same matches: the class holds every character
    a word's first letter matches case-insensitively, `\\b` before a letter is "no word character before it", and
    each word's first letter is checked on the character taken (`(?<=j)anuary`), in the words' own order."""
    first = _first_letters(words)
    branches = "|".join(f"(?<={word[0]}){re.escape(word[1:])}" for word in words.split("|"))
    return _lead(first, r"\w") + f"(?i:(?:{branches}){rest})"


class ScanKind(StrEnum):
    """The kind of a fact the lens's patterns read (`facts`, `fact_scans`) beside MergeGuard's TokenKind: conflicts.py
    groups both into the classes a conflict is reported in (`CLASS_OF_KIND`)."""

    URL = "url"
    TIME = "time"
    PATH = "path"
    EMAIL = "email"
    CHANNEL = "channel"
    DAY_MONTH = "day_month"
    MONTH = "month"
    WEEKDAY = "weekday"
    QUANTITY = "quantity"
    MONEY = "money"
    NUMBER = "number"
    NEGATION = "negation"
    NAME = "name"  # a capitalised word `is_name` tells a proper name (`NAME_PATTERN`)


_KIND_PATTERNS: tuple[tuple[ScanKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, flags))
    for kind, pattern, flags in (
        # any scheme: s3://, ssh://, postgres://; a URL holds no backtick or curly quote (`shopapp://` in code marks)
        (ScanKind.URL, r"(?<![\w+.-])[a-z][a-z0-9+.-]*://[^\s\"'<>)\]`\u2018\u2019\u201c\u201d]+", re.I),
        (ScanKind.TIME, _lead(r"\d", r"\w:") + r"\d?:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?![\w:])", re.I),
        # `(?<![\w/~.])(?:~|\.{1,2})?/`: each way in led by its first character, in the same order
        (ScanKind.PATH, r"(?:~(?<![\w/~.]~)/|\.(?<![\w/~.]\.)\.?/|/(?<![\w/~.]/))(?:[\w.@-]+/)*[\w@-]+/?(?![\w/])", re.I),
        (ScanKind.EMAIL, r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?![\w-])", re.I),
        (ScanKind.CHANNEL, _lead("#", r"\w#&") + r"[a-z][\w-]*", re.I),
        (ScanKind.DAY_MONTH, _lead(r"\d", r"\w") + rf"\d?(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b\.?", re.I),
        (ScanKind.DAY_MONTH, _words_lead(_MONTHS, r"\.?\s+\d{1,2}(?:st|nd|rd|th)?(?!\w)"), 0),
        (ScanKind.MONTH, _words_lead(_MONTH_NAMES, r"\b"), 0),
        (ScanKind.WEEKDAY, _words_lead(_WEEKDAYS, r"s?\b"), 0),
        (ScanKind.QUANTITY, _lead(r"\d", r"\w.") + rf"\d*(?:[.,]\d+)?\s?(?:{_UNITS})(?![\w]){_PER}", re.I),
        (ScanKind.QUANTITY, _lead(r"\d", r"\w.") + r"\d*(?:[.,]\d+)?\s+[a-z]+\s+per\s+[a-z]+", re.I),
        # money and rates: €1,150/month, $12.50 per seat, 600/min
        (ScanKind.MONEY, _lead("[€$£¥]", r"\w.,") + rf"\s?\d+(?:[.,]\d+)*(?![\w]|[.,]\d){_PER}", re.I),
        (ScanKind.QUANTITY, _lead(r"\d", r"\w.,") + r"\d*(?:[.,]\d+)*\s?/\s?[a-z]+(?![\w/])", re.I),
        (ScanKind.QUANTITY, _lead(r"\d", r"\w.,") + r"\d*(?:[.,]\d+)?\s?[a-zµ]+/[a-z]+(?![\w/])", re.I),  # 18 ng/mL, 90 km/h
        (ScanKind.NUMBER, _lead(r"\d", r"\w.,:/-") + r"\d*(?:[.,]\d+)*(?![\w:/-]|[.,]\d)", re.I),
        (ScanKind.NEGATION, _words_lead("no|not|never|without|don't|doesn't|isn't|won't|can't|cannot", r"\s+[\w'-]+"), 0),
    )
)
# What each pattern cannot match without (None: no such test): a short text skips most patterns at once. The
# day-month, month, weekday, rate and negation patterns also hold one of a few words (or a "/"): an ASCII text
# (where IGNORECASE is plain ASCII case) that holds none of them in lower case is not scanned for them
# (`_WORDS_NEEDED`).
_KIND_NEEDS = ("://", ":", "/", "@", "#", "digit", "digit", None, None, "digit", "digit", "€$£¥", "digit", "digit",
               "digit", None)
assert len(_KIND_NEEDS) == len(_KIND_PATTERNS)
_WORDS_NEEDED: dict[int, tuple[str, ...]] = {
    5: tuple(_MONTHS.split("|")),  # day_month: `14 August`, `2nd of Jan`
    6: tuple(_MONTHS.split("|")),  # day_month: `August 14th`
    7: tuple(_MONTH_NAMES.split("|")),  # month
    8: ("day",),  # weekday: every weekday ends in "day"
    10: ("per",),  # quantity: `600 requests per minute`
    12: ("/",),  # quantity: `600/min`
    13: ("/",),  # quantity: `18 ng/mL`
    15: ("no", "never", "without", "n't"),  # negation: no, not, cannot; never; without; don't, isn't, can't…
}
assert [kind for kind, _ in (_KIND_PATTERNS[i] for i in _WORDS_NEEDED)] == [
    ScanKind.DAY_MONTH, ScanKind.DAY_MONTH, ScanKind.MONTH, ScanKind.WEEKDAY, ScanKind.QUANTITY, ScanKind.QUANTITY,
    ScanKind.QUANTITY, ScanKind.NEGATION]
_DIGIT = re.compile(r"\d")
# A capitalised word not at a sentence start (after `.`, `!`, `?`, `:`, a line start or a list marker, the
# text's first included). Titles such as "Dr." do not end a sentence.
_PROPER = re.compile(_lead("[A-Z]", r"\w'’-") + r"[a-z]+(?:[-'’][A-Z]?[a-z]+)*(?![\w'’])")
# a title or abbreviation whose full stop does not end a sentence ("Dr. Okafor")
ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "prof", "st", "mt", "sr", "jr", "vs", "e.g", "i.e"})
# The rule _sentence_start applies, as a pattern searched in the text before the word:
_SENTENCE_END = re.compile(r"(?:^\s*[-*+>#]*\s*|[.!?:;]\s*|\n\s*[-*+>#]*\s*|(?:^|\n)\s*\d+[.)]\s+|[\"“(]\s*)$")
_COMMON_CAPITALS = frozenset({
    "i", "the", "a", "an", "this", "that", "these", "those", "it", "we", "they", "he", "she", "you", "our",
    "my", "your", "their", "its", "if", "when", "for", "and", "or", "but", "so", "also", "then", "note",
    "use", "run", "see", "in", "on", "at", "to", "from", "with", "by", "as", "is", "are", "was", "all",
})
# an identifier in a title, begun at a word's start (`hC` of `GPhC` is no identifier of its own)
_TITLE_IDENTIFIER = re.compile(r"(?<![\w.-])(?:[A-Za-z0-9][\w.-]*[\d_.-][\w.-]*[A-Za-z0-9]|[a-z]+[A-Z]\w*)")
_SPACES = re.compile(r"\s+")
# One spelling per unit after an amount, so `47 min` keeps `47 minutes`, `2gb` keeps `2 GB`, `80 percent` keeps
# `80%` and `€60 a month` keeps `€60/month` (a different unit or rate still differs).
_UNIT_SPELLINGS = {
    "min": "min mins minute minutes", "s": "s sec secs second seconds", "h": "h hr hrs hour hours",
    "ms": "ms msec millisecond milliseconds", "day": "day days", "week": "week weeks", "month": "month months mo mth",
    "year": "year years yr yrs", "%": "% percent", "kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb",
}
_UNIT_OF = {spelling: unit for unit, spellings in _UNIT_SPELLINGS.items() for spelling in spellings.split()}
# After a digit; "-" as in "a 25-minute talk". The digit is taken (and put back) so that the pattern starts with
# a class the engine scans for: a match ends on a unit's letter, before no word character, so no digit it
# starts from was taken by the one before — the same matches as `(?<=\d)[ -]?(unit)`.
_AMOUNT_UNIT = re.compile(
    r"(\d)[ -]?(" + "|".join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True)) + r")(?![\w%])")
_RATE_UNIT = re.compile(r"/(?<=\d/)(mo|mth|yr)(?![\w/])")  # after an amount: `€49/mo`, not `~/mo` or `a/mo/b`
# A number written as a word is the number ("four drives" keeps "4 drives", "two years" keeps "2 years"). Not
# "one": it is as often a pronoun ("the one on the left", "one of them").
_NUMBER_WORDS = {word: str(n) for n, word in enumerate(
    ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"], start=2)}
_NUMBER_WORD = re.compile(  # `\b(?:two|three|…)\b` in a case-folded text, led by the words' first letters
    _lead("[" + "".join(sorted({word[0] for word in _NUMBER_WORDS})) + "]", r"\w")
    + "(?:" + "|".join(f"(?<={word[0]}){word[1:]}" for word in _NUMBER_WORDS) + r")\b")
# "600 requests per minute", "€60 a month" (after an amount) are rates: "/". Each way in (`(?<=[\w%])\s/\s?`,
# `(?<=[\w%])/\s`, `\s+per\s+`, `(?<=\d)\s+a\s+`, in that order) led by its first character, white space or "/".
_PER_SPELLING = re.compile(
    r"[\s/](?:(?<=[\w%]\s)/\s?(?=[a-z])|(?<=[\w%]/)\s(?=[a-z])|(?<=\s)\s*per\s+(?=[a-z])"
    r"|(?<=\d\s)\s*a\s+(?=(?:month|year|week|day|hour)\b))")


# The lens's report types are the fact model's (facts/lens.py): an item at risk has a direction (dropped, added,
# changed), a kind, the source and body spans, and the report lists what it equated.
AtRisk = FactAtRisk


@dataclass(frozen=True)
class StrictReport:
    passed: bool
    at_risk: tuple[FactAtRisk, ...]
    checked: int  # distinct facts looked for
    equated: tuple[Equated, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "checked": self.checked, "at_risk": [a.to_dict() for a in self.at_risk],
                "equated": [e.to_dict() for e in self.equated]}


def normalise_text(text: str) -> str:
    """The form facts are compared in: white space collapsed, case-folded, numbers two to twelve in digits, a
    rate's month or year written out (`€49/mo` is `€49/month`, `$12.98/yr` is `$12.98/year`), "per" as "/",
    one spelling per unit after an amount (`47 minutes` is `47 min`)."""
    folded = _SPACES.sub(" ", text).strip().casefold()
    folded = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group()], folded)
    if "/" in folded:
        folded = _RATE_UNIT.sub(lambda m: f"/{_UNIT_OF[m.group(1)]}", folded)
    folded = _PER_SPELLING.sub("/", folded)
    return _AMOUNT_UNIT.sub(lambda m: m.group(1) + _spelled_unit(_UNIT_OF[m.group(2)]), folded)


_normalised_token = functools.lru_cache(maxsize=1 << 15)(normalise_text)  # tokens recur, clause after clause


def _spelled_unit(unit: str) -> str:
    return unit if unit == "%" else " " + unit


def _proper_names(text: str) -> Iterable[str]:
    for m in _PROPER.finditer(text):
        if is_name(text, m.start(), m.group(0)):
            yield m.group(0)


def is_name(text: str, at: int, word: str) -> bool:
    """The capitalised word `word` at `at` in `text` (a match `fact_scans` gives as `NAME_PATTERN`) is a proper
    name: not a sentence's first word (any word is capitalised there; a title such as "Dr." ends no sentence),
    nor a word often capitalised ("The", "When")."""
    if _sentence_start(text, at) and not _after_abbreviation(text, at):
        return False
    return word.casefold() not in _COMMON_CAPITALS


_MARKS = "-*+>#"  # list, quote and heading markers


def _space_before(text: str, end: int) -> int:
    """Where the run of white space that ends at `end` starts."""
    while end and text[end - 1].isspace():
        end -= 1
    return end


def _sentence_start(text: str, at: int) -> bool:
    """`_SENTENCE_END.search(text[:at])`, reading back from `at` only over the white space, markers and item
    number before it (a search of the whole prefix for each capitalised word is quadratic in the text)."""
    last = _space_before(text, at)  # text[last:at] is white space
    if last and text[last - 1] in '.!?:;"“(':
        return True  # after a full stop, a colon…, an opening quote or parenthesis
    if not last or "\n" in text[last:at]:
        return True  # at the start, or a line's first word
    marks = last
    while marks and text[marks - 1] in _MARKS:
        marks -= 1
    if marks < last:  # "- ", "> ", "## " at the start or on a line of their own
        space = _space_before(text, marks)
        if not space or "\n" in text[space:marks]:
            return True
    if last < at and text[last - 1] == ")":  # "2) " at the start of a line
        digits = last - 1
        while digits and text[digits - 1].isdecimal():
            digits -= 1
        if digits < last - 1:
            space = _space_before(text, digits)
            return not space or "\n" in text[space:digits]
    return False


def _after_abbreviation(text: str, at: int) -> bool:
    """`text[:at]` ends with a title such as "Dr." (then white space): its full stop ends no sentence."""
    last = _space_before(text, at)
    if not last or text[last - 1] != ".":
        return False
    start = last - 1
    longest = max(map(len, ABBREVIATIONS))
    while start and (text[start - 1].isalnum() or text[start - 1] in "_.") and last - 1 - start <= longest:
        start -= 1
    return text[start:last - 1].casefold() in ABBREVIATIONS


StrictKind = TokenKind | ScanKind  # the kind `facts` gives a fact: MergeGuard's token class or a lens pattern's


def facts(text: str) -> list[tuple[str, StrictKind]]:
    """(token, kind) of every fact the lens looks for in `text`, first spelling kept, in order found."""
    found: dict[str, tuple[str, StrictKind]] = {}

    def add(token: str, kind: StrictKind) -> None:
        token = token.strip().rstrip(".,:;)]")
        key = _normalised_token(token)
        if key and key not in found:
            found[key] = (token, kind)

    for token, kind in extract_tokens(text):
        add(token, kind)
    for number, matches in fact_scans(text):
        if number == NAME_PATTERN:
            for m in matches:
                if is_name(text, m.start(), m.group(0)):
                    add(m.group(0), ScanKind.NAME)
        else:
            for m in matches:
                add(m.group(0), FACT_KINDS[number])
    return list(found.values())


FACT_KINDS = tuple(kind for kind, _ in _KIND_PATTERNS)  # the kind of each pattern `fact_scans` numbers
NAME_PATTERN = len(FACT_KINDS)  # the number `fact_scans` gives the capitalised words (`is_name` tells a name)


def fact_scans(text: str, kinds: Container[ScanKind] | None = None) -> Iterator[tuple[int, Iterator[re.Match[str]]]]:
    """The lens's raw matches in `text`, pattern by pattern in the lens's order: (the pattern's number, its
    matches in text order); a pattern the text cannot hold (its pre-tests) is skipped. Last, the capitalised
    words (`NAME_PATTERN`). `kinds`: only the patterns of these kinds, and no names. What `facts` keeps of a match
    is its text without surrounding punctuation, the first spelling of each normal form. (Public for readers
    that place each match.)"""
    digits = _DIGIT.search(text) is not None
    lower = text.lower() if text.isascii() else None
    for number, ((kind, pattern), needs) in enumerate(zip(_KIND_PATTERNS, _KIND_NEEDS)):
        if kinds is not None and kind not in kinds:
            continue
        if needs is None or (digits if needs == "digit" else any(ch in text for ch in needs)):
            words = _WORDS_NEEDED.get(number)
            if lower is not None and words is not None and not any(word in lower for word in words):
                continue
            yield number, pattern.finditer(text)
    if kinds is None:
        yield NAME_PATTERN, _PROPER.finditer(text)


def contains_whole(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` (both normalised) with no word character glued to either end."""
    start = 0
    while True:
        at = haystack.find(needle, start)
        if at < 0:
            return False
        end = at + len(needle)
        left_ok = at == 0 or not (haystack[at - 1].isalnum() or haystack[at - 1] == "_") or not (
            needle[0].isalnum() or needle[0] == "_")
        right_ok = end == len(haystack) or not (haystack[end].isalnum() or haystack[end] == "_") or not (
            needle[-1].isalnum() or needle[-1] == "_")
        # a number glued to a decimal/ordinal continuation ("600" in "600.5", "7" in "7,5") is another number
        if right_ok and needle[-1].isdigit() and end + 1 < len(haystack) and haystack[end] in ".," and \
                haystack[end + 1].isdigit():
            right_ok = False
        if left_ok and needle[0].isdigit() and at >= 2 and haystack[at - 1] in ".," and haystack[at - 2].isdigit():
            left_ok = False
        if left_ok and right_ok:
            return True
        start = at + 1


_YEAR_ALONE = re.compile(r"(?:19|20)\d\d")


def _date_years(text: str) -> set[str]:
    """The years of the dates `text` writes, however written (`18/05/25`, `May 2025`)."""
    from .facts.value_types import ValueKey, ValueKind
    from .facts.values import values
    dates = [ValueKey.read(key) for v in values(text) if v.kind == ValueKind.DATE for key in v.keys]
    return {str(k.date.year) for k in dates if k is not None and not k.bound and k.date and k.date.year}


def check_strict(source_bodies: Sequence[str | None], merged_body: str | None,
                 titles: Sequence[str | None] = (), kept_title: str | None = None) -> StrictReport:
    """memgui's lens: the fact model in both directions (facts/lens.py) — every fact of every source kept,
    nothing added, nothing re-attached. `titles` are the sources' titles: an identifier in one of them must
    survive in the merged body or in `kept_title` (the target's title, which the merge keeps)."""
    report = check_facts(source_bodies, merged_body)
    return with_titles(report.at_risk, report.checked, report.equated, merged_body, titles, kept_title)


def with_titles(at_risk: Sequence[FactAtRisk], checked: int, equated: Sequence[Equated], merged_body: str | None,
                titles: Sequence[str | None] = (), kept_title: str | None = None) -> StrictReport:
    """The lens's findings over the bodies, plus each identifier of a source's title that is in neither the whole
    merged body nor the kept title (a body word a title states is not counted as added)."""
    if not any(titles) and not kept_title:  # nothing to look for (and a long body is not normalised for nothing)
        return StrictReport(not at_risk, tuple(at_risk), checked, tuple(equated))
    merged_and_title = normalise_text(f"{merged_body or ''}\n{kept_title or ''}")
    lost_titles: dict[str, FactAtRisk] = {}
    years: set[str] | None = None  # the years of the body's dates, read when a title's year is not written out
    for index, title in enumerate(titles):
        for m in _TITLE_IDENTIFIER.finditer(title or ""):
            key = normalise_text(m.group(0))
            if key in lost_titles or contains_whole(merged_and_title, key):
                continue
            if _YEAR_ALONE.fullmatch(key):
                if years is None:
                    years = _date_years(merged_body or "")
                if key in years:
                    continue  # `… 2025` of a title, `renewed on 18/05/25` in the body
            lost_titles[key] = FactAtRisk(Direction.DROPPED, FactKind.TITLE_IDENTIFIER, m.group(0), (index,), None, None, None,
                                          f"{m.group(0)!r} of source {index + 1}'s title is in neither the body "
                                          "nor the kept title")
    titled = normalise_text("\n".join(t or "" for t in (*titles, kept_title)))
    kept = tuple(a for a in at_risk  # a body word the titles state is not invented
                 if not (a.direction is Direction.ADDED and contains_whole(titled, normalise_text(a.body_token or ""))))
    found = kept + tuple(lost_titles.values())
    return StrictReport(not found, found, checked + len(lost_titles), tuple(equated))


__all__ = ["FACT_KINDS", "NAME_PATTERN", "AtRisk", "ScanKind", "StrictKind", "StrictReport", "check_strict",
           "contains_whole", "fact_scans", "facts", "is_name", "normalise_text", "with_titles"]
