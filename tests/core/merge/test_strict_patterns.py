"""The strict lens's patterns are written with a character class first (issue 26 item 5: the engine then skips to
candidate characters instead of trying a look-behind or `\\b` at every position). Each must find exactly what the
pattern it replaced found: the originals are kept here, and every rewritten pattern is compared with its original
on generated texts, on every character in front of each lead, and through `normalise_text`."""
from __future__ import annotations

import re

from hypothesis import example, given, settings, strategies as st

from memgui.core.merge import strict
from text_fuzz import PIECES, WORDS

_M, _N, _W, _U, _P = strict._MONTHS, strict._MONTH_NAMES, strict._WEEKDAYS, strict._UNITS, strict._PER
ORIGINAL = [re.compile(p, re.IGNORECASE) for p in (
    r"(?<![\w+.-])[a-z][a-z0-9+.-]*://[^\s\"'<>)\]`\u2018\u2019\u201c\u201d]+",  # no code mark or curly quote
    r"(?<![\w:])\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?![\w:])",
    r"(?<![\w/~.])(?:~|\.{1,2})?/(?:[\w.@-]+/)*[\w@-]+/?(?![\w/])",
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?![\w-])",
    r"(?<![\w#&])#[a-z][\w-]*",
    rf"(?<!\w)\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_M})\b\.?",
    rf"\b(?:{_M})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?!\w)",
    rf"\b(?:{_N})\b",
    rf"\b(?:{_W})s?\b",
    rf"(?<![\w.])\d+(?:[.,]\d+)?\s?(?:{_U})(?![\w]){_P}",
    r"(?<![\w.])\d+(?:[.,]\d+)?\s+[a-z]+\s+per\s+[a-z]+",
    rf"(?<![\w.,])[€$£¥]\s?\d+(?:[.,]\d+)*(?![\w]|[.,]\d){_P}",
    r"(?<![\w.,])\d+(?:[.,]\d+)*\s?/\s?[a-z]+(?![\w/])",
    r"(?<![\w.,])\d+(?:[.,]\d+)?\s?[a-zµ]+/[a-z]+(?![\w/])",
    r"(?<![\w.,:/-])\d+(?:[.,]\d+)*(?![\w:/-]|[.,]\d)",
    r"\b(?:no|not|never|without|don't|doesn't|isn't|won't|can't|cannot)\s+[\w'-]+",
)] + [re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*(?![\w'’])")]
REWRITTEN = [pattern for _, pattern in strict._KIND_PATTERNS] + [strict._PROPER]
_UNITS_OF = "|".join(sorted(map(re.escape, strict._UNIT_OF), key=len, reverse=True))
NORMALISING = [  # (original, rewritten, rewritten's match span as the original's: the amount's digit is taken)
    (re.compile(r"(?<=\d)[ -]?(" + _UNITS_OF + r")(?![\w%])"), strict._AMOUNT_UNIT, 1),
    (re.compile(r"(?<=\d)/(mo|mth|yr)(?![\w/])"), strict._RATE_UNIT, 0),
    (re.compile(r"\b(?:" + "|".join(strict._NUMBER_WORDS) + r")\b"), strict._NUMBER_WORD, 0),
    (re.compile(r"(?<=[\w%])(?:\s/\s?|/\s)(?=[a-z])|\s+per\s+(?=[a-z])|(?<=\d)\s+a\s+(?=(?:month|year|week|day|hour)\b)"),
     strict._PER_SPELLING, 0),
]
ANY_CHAR = st.characters(blacklist_categories=())  # surrogates (Cs) included
_PIECES = ["jan", "January", "Sept.", "sep", "mon", "Monday", "sundays", "no", "Not", "don't", "cannot", "isn't", "per",
           "GB", "ms", "am", "p.m.", "of", "14th", "//", "../", "./", "~/", "s3://", "Okafor", "O'Neil", "Anne-Marie",
           "two", "Twelve", "eleven", "a month", "mo", "mth", "yr", "min", "minutes", "%", "percent", "€", "$", "#",
           "12", "5", ":", ".", ",", "-", "/", " / ", " ", "\n", "\u017f", "\u212a", "\u0130", "\u0131", "\u0663"]
TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=6), st.sampled_from(PIECES), st.sampled_from(WORDS),
                          st.sampled_from(_PIECES)), max_size=16).map("".join)


def _spans(pattern: re.Pattern[str], text: str, shift: int = 0) -> list[tuple[int, int]]:
    return [(m.start() + shift, m.end()) for m in pattern.finditer(text)]


@settings(max_examples=600, deadline=None)
@given(TEXT)
@example("x/mnt/a ../b ~/c 5:30 pm #ops 14 Aug, Sept 3rd, Mondays, don't go, Okafor €5/month 9 km/h 3 GB")
@example("\u017fept 3 \u0130sn't it \u212a 2 minutes, two per day, 5 a month, 5-minute, €49/mo")
def test_rewritten_patterns_find_what_the_originals_found(text: str) -> None:
    for original, rewritten in zip(ORIGINAL, REWRITTEN, strict=True):
        assert _spans(rewritten, text) == _spans(original, text), (original.pattern, text)
    folded = text.casefold()
    for original, rewritten, shift in NORMALISING:
        assert _spans(rewritten, folded, shift) == _spans(original, folded), (original.pattern, folded)


def test_every_character_before_and_as_each_lead() -> None:
    """Each pattern's lead is a class written out in place of IGNORECASE or a look-behind: every character up to
    U+3000 and the case-folding ones beyond it, as a first letter and as the one before it."""
    chars = [chr(c) for c in range(0x3000)] + ["\u212a", "\ufb00", "\ud800", "\U0001d400"]
    for template in ("{}anuary 5", "{}onday", "{}ot x", "{}sn't x", "{}5:30", "{}/x/y", "{}€5", "{}Bc", "{}#ab",
                     "{}12 gb", "{}5/min", "{}ept 3", "{}wo", "{}leven", "1{} per x", "5{}/mo", "5{}min"):
        for before in ("", "a", "."):
            text = "\n".join(before + template.format(c) for c in chars)
            for original, rewritten in zip(ORIGINAL, REWRITTEN, strict=True):
                assert _spans(rewritten, text) == _spans(original, text), (original.pattern, template, before)
            for original, rewritten, shift in NORMALISING:
                assert _spans(rewritten, text, shift) == _spans(original, text), (original.pattern, template, before)


def test_first_letter_classes_hold_every_case_insensitive_match() -> None:
    """The classes that replace IGNORECASE hold exactly the characters the words' first letters match without
    case, over all of Unicode."""
    everything = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    for words in (strict._MONTHS, strict._WEEKDAYS, "no|not|never|without|don't|doesn't|isn't|won't|can't|cannot"):
        letters = "".join(sorted({word[0] for word in words.split("|")}))
        assert set(re.findall(strict._first_letters(words), everything)) == set(
            re.findall(f"[{letters}]", everything, re.IGNORECASE))
