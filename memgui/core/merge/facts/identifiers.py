"""Values a note names rather than measures: Netclaw's load-bearing tokens (URLs, versions, identifiers, paths),
e-mail addresses, #channels and phone numbers (phonenumbers, as E.164), each keyed case-insensitively unless its
case is part of it (values.py reads the amounts and the calendar around them)."""
from __future__ import annotations

import bisect
import re

from ..guard import TokenKind, extract_tokens
from .calendar_values import MEDICAL_FREQUENCIES
from .currencies import CURRENCY_WORDS
from .value_types import Value, ValueKind, fmt, inside

_PHONE_HINT = re.compile(r"(?:\+?\d[\d ().-]{6,}\d)")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?![\w-])")
_URL = re.compile(r"(?<![\w+.-])[a-z][a-z0-9+.-]*://[^\s\"'<>)\]`\u2018\u2019\u201c\u201d]+", re.IGNORECASE)  # as strict.py
# A web address written without its scheme (`github.com/ana/dotfiles`): a host name and a path.
_BARE_URL = re.compile(r"(?<![\w@/.:-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[\w.~%+-]+)+/?(?![\w@])", re.IGNORECASE)
_CHANNEL = re.compile(r"(?<![\w#&])#[a-z][\w-]*", re.IGNORECASE)
_PATH = re.compile(r"(?<![\w/~.])(?:~|\.{1,2})?/(?:[\w.@-]+/)*[\w@.-]+/?(?![\w/])")


def tokens(text: str) -> list[Value]:
    """URLs, e-mail addresses, #channels, paths and Netclaw's identifier tokens, keyed case-insensitively."""
    spans: list[tuple[int, int]] = []
    out = _linked(text, spans)
    wanted: dict[str, ValueKind] = {}  # lower-cased token -> kind
    cased: dict[str, str] = {}  # a code whose case is part of it (`Blue-Heron-42`): compared as written
    for token, kind in extract_tokens(text):
        if _read_elsewhere(token, kind):
            continue
        wanted.setdefault(token.lower(), ValueKind(kind))  # an identifier class (the others are read elsewhere)
        if _CASE_MATTERS.search(token):
            cased[token.lower()] = token
    for m in _AMPERSAND_ACRONYM.finditer(text):  # `L&D`, `R&D`, `P&L`: one acronym, not two letters
        wanted.setdefault(m.group(0).lower(), ValueKind.ALL_CAPS)
    for m in _V_VERSION.finditer(text):  # `v1.4.2` = `version 1.4.2` (MergeGuard's own classes read `4.2`)
        spans.append((m.start(), m.end()))
        decimal = {f"n:{fmt(float(m.group(1)))}"} if m.group(1).count(".") == 1 else set()  # `version 2.0`
        out.append(Value(frozenset({f"token:{m.group(1)}"} | decimal), ValueKind.VERSION, m.group(0), m.start(),
                         m.end(), "version"))
    taken = sorted(spans)
    for start, end, token in _occurrences(text, list(wanted)):
        if any(a < end and start < b for a, b in taken[max(0, bisect.bisect_left(taken, (start, start)) - 2):
                                                          bisect.bisect_right(taken, (end, end)) + 1]):
            continue
        bisect.insort(taken, (start, end))
        found = wanted[token]
        key = f"token:{text[start:end]}" if token in cased else f"token:{token.casefold()}"
        out.append(Value(frozenset({key}), found, text[start:end], start, end, found))
    return out


def _linked(text: str, spans: list[tuple[int, int]]) -> list[Value]:
    """URLs, e-mail addresses, #channels and paths, none inside another; their spans are appended to `spans`."""
    out = []
    for kind, pattern in ((ValueKind.URL, _URL), (ValueKind.URL, _BARE_URL), (ValueKind.EMAIL, _EMAIL),
                          (ValueKind.CHANNEL, _CHANNEL), (ValueKind.PATH, _PATH)):
        for m in pattern.finditer(text):
            token = m.group(0).rstrip(".,:;)]")
            if kind == ValueKind.PATH and token.count("/") < 2 and not token.startswith(("~", ".")):
                continue  # `and/or`, `24/7`, `km/h` are not paths
            if inside(m.start(), m.start() + len(token), spans):
                continue
            spans.append((m.start(), m.start() + len(token)))
            bare = pattern is _BARE_URL  # either scheme: the same address as `https://…`
            keys = {f"{kind}:{scheme}{token.casefold()}" for scheme in (("https://", "http://") if bare else ("",))}
            out.append(Value(frozenset(keys), kind, token, m.start(), m.start() + len(token), kind))
    return out


_READ_AS_AMOUNTS_OR_DATES = frozenset({TokenKind.INTEGER, TokenKind.QUANTITY, TokenKind.ISO_DATE,
                                       TokenKind.WRITTEN_DATE, TokenKind.REVERSE_DATE, TokenKind.SLASH_DATE})


def _read_elsewhere(token: str, kind: TokenKind) -> bool:
    """A MergeGuard token that is no identifier here: read as a frequency, an amount, a date, a number or words."""
    if token.casefold().replace(".", "") in MEDICAL_FREQUENCIES:
        return True  # `BID`, `q.d.`: how often (calendar_values)
    if kind is TokenKind.ALL_CAPS and token.casefold() in CURRENCY_WORDS:
        return True  # `EUR 280` is an amount
    if kind in _READ_AS_AMOUNTS_OR_DATES:
        return True  # read here with their units and dates
    if kind is TokenKind.DOTTED_IDENTIFIER and token.casefold().replace(".", "") in _LATIN_ABBREVIATIONS:
        return True  # `i.e.`, `e.g.`: a way of writing, not an identifier
    if kind is TokenKind.VERSION and re.fullmatch(r"\d+\.\d+", token):
        return True  # `1.5 hours`, `37.5 °C`: a decimal number, read with its unit
    if kind is TokenKind.KEBAB_CASE and re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+", token) and _plain_words(token):
        return True  # `second-hand`, `check-in`: English words joined, read as words
    # `under-16s`, `under-nines` is an age bound (values.age_groups)
    return bool(_AGE_GROUP.fullmatch(token) or _AGE_GROUP_WORDS.fullmatch(token))


_AGE_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                          "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())} | {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70, "eighties": 80}
_AGE_FORMS = {**{f"{w}s": n for w, n in _AGE_WORDS.items() if n < 20}, **{w: n for w, n in _AGE_WORDS.items() if n >= 20}}
_AGE_GROUP_WORDS = re.compile(r"(?<![\w-])(under|over)-(" + "|".join(sorted(_AGE_FORMS, key=len, reverse=True)) + r")\b",
                              re.IGNORECASE)
_V_VERSION = re.compile(r"(?<![\w.])[vV](\d+(?:\.\d+){1,3})(?!\w|\.\d)")
_AGE_GROUP = re.compile(r"(?P<bound>under|over|u)-?(?P<n>\d{1,3})s?", re.IGNORECASE)


def age_groups(text: str) -> list[Value]:
    """`Under-16s`, `over-60s`, `U12s`: everyone below or above an age, as `under 16` reads."""
    out = []
    for m in re.finditer(r"(?<![\w-])(?:under|over|U)-?\d{1,3}s\b", text, re.IGNORECASE):
        g = _AGE_GROUP.fullmatch(m.group(0))
        if g:
            sign = ">" if g.group("bound").casefold() == "over" else "<"
            out.append(Value(frozenset({f"{sign}n:{int(g.group('n'))}"}), ValueKind.NUMBER, m.group(0), m.start(), m.end(),
                             "number"))
    for m in _AGE_GROUP_WORDS.finditer(text):  # `under-nines`, `over-sixties`
        age = _AGE_FORMS.get(m.group(2).casefold())
        if age:
            sign = ">" if m.group(1).casefold() == "over" else "<"
            out.append(Value(frozenset({f"{sign}n:{age}"}), ValueKind.NUMBER, m.group(0), m.start(), m.end(), "number"))
    return out


_LATIN_ABBREVIATIONS = frozenset({"ie", "eg", "etc", "vs", "cf", "am", "pm", "nb", "ps", "approx", "viz", "al"})
_AMPERSAND_ACRONYM = re.compile(r"(?<![\w&])[A-Z]{1,3}&[A-Z]{1,3}(?![\w&])")
# a digit and both cases in one token: a password, a code, a booking reference — its case is part of it
_CASE_MATTERS = re.compile(r"^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])")


def _occurrences(text: str, tokens: list[str]) -> list[tuple[int, int, str]]:
    """Every occurrence of the (lower-case) tokens in `text`, case-insensitively, longest first where they overlap:
    one pass for all of them (ahocorasick-rs), so a long text with many identifiers stays linear."""
    if not tokens:
        return []
    lower = text.lower()
    if len(lower) != len(text):  # a character whose lower case is longer: offsets would drift
        return sorted((m.start(), m.end(), token) for token in tokens
                      for m in re.finditer(re.escape(token), text, re.IGNORECASE))
    import ahocorasick_rs
    automaton = ahocorasick_rs.AhoCorasick(tokens, matchkind=ahocorasick_rs.MatchKind.LeftmostLongest)
    return [(start, end, tokens[index]) for index, start, end in automaton.find_matches_as_indexes(lower)]


def _plain_words(token: str) -> bool:
    from wordfreq import zipf_frequency  # every part an ordinary English word
    return all(zipf_frequency(part, "en") >= 3.0 for part in token.casefold().split("-"))


def phones(text: str) -> list[Value]:
    if not _PHONE_HINT.search(text):
        return []
    import phonenumbers  # only for text with a run of seven digits or more
    found: dict[tuple[int, int], set[str]] = {}
    raw: dict[tuple[int, int], str] = {}
    windows: list[list[int]] = []  # only around runs of digits: the matcher is slow on long prose
    for hint in _PHONE_HINT.finditer(text):
        start, end = max(0, hint.start() - 12), min(len(text), hint.end() + 30)
        if windows and start <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([start, end])
    for (offset, stop), region in ((w, r) for w in windows for r in _PHONE_REGIONS):
        for m in phonenumbers.PhoneNumberMatcher(text[offset:stop], region, leniency=phonenumbers.Leniency.POSSIBLE):
            m.start += offset
            m.end += offset
            if sum(ch.isdigit() for ch in m.raw_string) < 8:
                continue  # `2 – 19`, `14 07`: digits, not a phone number
            e164 = phonenumbers.format_number(m.number, phonenumbers.PhoneNumberFormat.E164)
            ext = f"x{m.number.extension}" if m.number.extension else ""  # an extension is part of the number
            found.setdefault((m.start, m.end), set()).update({f"phone:{e164}{ext}",
                                                              f"phone:{m.number.national_number}{ext}"})
            raw[(m.start, m.end)] = m.raw_string
    out: list[Value] = []
    taken: list[tuple[int, int]] = []
    for (start, end), keys in sorted(found.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        if any(s <= start < e for s, e in taken):
            continue
        taken.append((start, end))
        out.append(Value(frozenset(keys), ValueKind.PHONE, raw[(start, end)], start, end, "phone"))
    return out


# Regions whose national numbers notes are written in most (a national number has no country code to say).
_PHONE_REGIONS = ("US", "GB", "DE", "FR", "IN", "AU")


__all__ = ["age_groups", "phones", "tokens"]
