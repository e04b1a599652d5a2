"""Netclaw's load-bearing tokens of one text (netclaw-compat §10): 14 token classes (URL, dates, versions,
quantities, paths, identifiers, integers), each match without trailing ``. , : ; ) ]``, de-duplicated
case-insensitively in the order Netclaw collects them. guard.py checks a merged body against them.

To match .NET regex semantics exactly, the patterns below do not use Python's ``\\b``, ``\\w``, ``\\d``
and ``\\s``: .NET works on UTF-16 code units, its word characters are the BMP letters (L*), non-spacing
marks (Mn), decimal digits (Nd) and connector punctuation (Pc) (plus ZWJ/ZWNJ for ``\\b``), its digits
are BMP Nd, and its white space is ``char.IsWhiteSpace``. Astral characters are two surrogates in .NET,
hence never word characters or digits. Case-insensitive comparison mirrors ``OrdinalIgnoreCase``
(per-character simple upper-casing).

The scans take shortcuts (a class skipped when the text lacks what it needs, identifier classes searched
only around their markers, a long text scanned as its distinct chunks); each equals a full scan
(`iter_matches(text, shortcuts=False)`; property tests in tests/core/merge/test_guard.py).
"""
from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from itertools import chain, pairwise, repeat
from typing import Any, NamedTuple

from ..netfx import NET_WS_CLASS, StrEnum, fold_case

# --------------------------------------------------------------------------------------------------
# .NET character classes as Python regex class bodies (BMP only; see the module docstring). For pure
# ASCII text .NET and the small ASCII classes agree, so ASCII text (the common case) uses cheap patterns;
# the exact Unicode patterns are compiled once, on the first non-ASCII text.

_ASCII_WS_CLASS = "\\t\\n\\x0b\\x0c\\r "


def _ci(word: str) -> str:
    """`word` matched case-insensitively the way .NET's RegexOptions.IgnoreCase does for these ASCII
    words (en-US/invariant culture): each letter in either case, plus the Unicode case equivalents
    U+017F ſ (of s) and U+212A K (of k). Unlike Python's re.IGNORECASE, i does not match ı or İ."""
    extra = {"s": "\u017f", "k": "\u212a"}
    out = []
    for ch in word:
        if ch.isalpha():
            out.append(f"[{ch.lower()}{ch.upper()}{extra.get(ch.lower(), '')}]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


_MONTH_WORDS = (
    ("Jan", "uary"), ("Feb", "ruary"), ("Mar", "ch"), ("Apr", "il"), ("May", ""), ("Jun", "e"),
    ("Jul", "y"), ("Aug", "ust"), ("Sep", "tember"), ("Oct", "ober"), ("Nov", "ember"), ("Dec", "ember"),
)


def _month(short: str, rest: str) -> str:
    return f"{_ci(short)}(?:{_ci(rest)})?" if rest else _ci(short)


_MONTHS = "|".join(_month(short, rest) for short, rest in _MONTH_WORDS)


def _month_after_initial() -> tuple[str, str]:
    """(class of month initials, the rest of a month name after its initial): the same months as _MONTHS,
    with the initial consumed first so the engine can skip to candidate letters (see `lead` in _build)."""
    initials: dict[str, list[str]] = {}
    for short, rest in _MONTH_WORDS:
        initials.setdefault(short[0], []).append(_month(short[1:], rest))
    first = "".join(_ci(i)[1:-1] for i in initials)
    rests = "|".join(f"(?<={_ci(i)})(?:{'|'.join(alts)})" for i, alts in initials.items())
    return f"[{first}]", rests


_ORDINAL = "|".join(_ci(x) for x in ("st", "nd", "rd", "th"))


class TokenKind(StrEnum):
    """Netclaw's 14 token classes, in its order (a class's index is its pattern's): a GuardToken's kind."""

    URL = "url"
    ISO_DATE = "iso_date"
    WRITTEN_DATE = "written_date"
    REVERSE_DATE = "reverse_date"
    SLASH_DATE = "slash_date"
    VERSION = "version"
    QUANTITY = "quantity"
    FILE_PATH = "file_path"
    DOTTED_IDENTIFIER = "dotted_identifier"
    CAMEL_CASE = "camel_case"
    SNAKE_CASE = "snake_case"
    KEBAB_CASE = "kebab_case"
    ALL_CAPS = "all_caps"
    INTEGER = "integer"


KINDS = tuple(TokenKind)


def _class_body(predicate: Callable[[int], bool]) -> str:
    """A regex character-class body (without brackets) of every BMP code point matching predicate."""
    ranges: list[tuple[int, int]] = []
    start = None
    for cp in range(0x10000):
        if predicate(cp):
            if start is None:
                start = cp
        elif start is not None:
            ranges.append((start, cp - 1))
            start = None
    if start is not None:
        ranges.append((start, 0xFFFF))

    def esc(cp: int) -> str:
        return f"\\u{cp:04x}"

    return "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges)


class _PatternSet(NamedTuple):
    patterns: tuple[re.Pattern[str], ...]  # the 14 classes, Netclaw's order
    # a (possibly empty) run of the characters a file-path match can contain, plus ZWNJ/ZWJ
    path_run: re.Pattern[str]
    word_run: re.Pattern[str]  # the same for identifier-like matches: word characters, dots and hyphens
    year: re.Pattern[str]  # where a month-name date can end: four digits after white space (see _date_matches)
    before_year: re.Pattern[str]  # on the reversed text: the most a month-name date can hold before its year


_FILE_PATH = 7  # index of the file-path class


def _build(word: str, boundary_word: str, digit: str, ws: str) -> _PatternSet:
    """The 14 token patterns (Netclaw's order) over the given class bodies.

    `\\b` next to a character that is always a word character reduces to one look-around: a leading
    `\\b` before a digit/letter is "previous char is not a word char", a trailing one after a
    digit/letter is "next char is not a word char". Only the file-path start needs the full test."""
    bword = boundary_word
    rb = f"(?![{bword}])"  # \\b after a word character
    full_b = f"(?:(?<=[{bword}])(?![{bword}])|(?<![{bword}])(?=[{bword}]))"
    d = f"[{digit}]"
    s = f"[{ws}]"
    initial, month_rest = _month_after_initial()

    def lead(first: str, *, not_after: str = bword) -> str:
        """`(?<![not_after])first`, written with the character class first: Python's engine then skips to
        candidate characters with a fast scan instead of testing a look-behind at every position. Same
        matches: the look-behind moved past `first` tests the same previous character."""
        return f"{first}(?<![{not_after}]{first})"

    sources = (
        (f"{_ci('http')}{_ci('s')}?://[^{ws}\"'<>)\\]]+", 0),
        (f"{lead(d)}{d}{{3}}-{d}{{2}}-{d}{{2}}(?:T{d}{{2}}:{d}{{2}}(?::{d}{{2}})?Z?)?{rb}", 0),
        (f"{lead(initial)}(?:{month_rest})\\.?{s}+{d}{{1,2}}(?:{_ORDINAL})?,?{s}+{d}{{4}}{rb}", 0),
        (f"{lead(d)}{d}?{s}+(?:{_MONTHS})\\.?,?{s}+{d}{{4}}{rb}", 0),
        (f"{lead(d)}{d}?/{d}{{1,2}}/{d}{{2,4}}{rb}", 0),
        (f"{lead(d)}{d}*(?:\\.{d}+){{1,3}}{rb}", 0),
        (f"{lead(d)}{d}*(?:\\.{d}+)?[a-zA-Z]{{1,6}}{rb}", 0),
        (f"{full_b}(?:[A-Za-z]:\\\\|~?/)?(?:[{word}.-]+[\\\\/])+[{word}.-]+\\.[A-Za-z0-9]{{1,6}}{rb}", 0),
        (f"{lead('[A-Za-z_]')}[A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)+{rb}", 0),
        (f"{lead('[a-z]')}[a-z]*[A-Z][a-zA-Z0-9]*{rb}", 0),
        (f"{lead('[a-zA-Z]')}[a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)+{rb}", 0),
        (f"{lead('[a-zA-Z]')}[a-zA-Z0-9]*(?:-[a-zA-Z0-9]+)+{rb}", 0),
        (f"{lead('[A-Z]')}[A-Z0-9_]{{2,}}{rb}", 0),
        (f"{lead(d, not_after='a-zA-Z_')}(?<!{d}\\.{d}){d}*(?![a-zA-Z_])(?!\\.{d})", 0),
    )
    patterns = tuple(re.compile(pattern, flags) for pattern, flags in sources)
    # runs include ZWNJ/ZWJ (never in a match, but word characters for \\b) so a run never ends before one
    run_chars = f"[{bword}.\\-/\\\\:~]"
    # a written date is `Month.? day(th)?,? year`, a reverse one `day Month.?,? year`: before the white space
    # ahead of its year, at most 11 characters (`September.,`), white space, and at most 10 more (`September.`)
    year = re.compile(f"{d}(?<=[{ws}]{d}){d}{{3}}{rb}")
    before_year = re.compile(f"[{ws}]+[^{ws}]{{1,11}}[{ws}]+[^{ws}]{{1,10}}")
    return _PatternSet(patterns, re.compile(f"{run_chars}*"), re.compile(f"[{bword}.\\-]*"), year, before_year)


_ASCII_PATTERNS = _build("A-Za-z0-9_", "A-Za-z0-9_", "0-9", _ASCII_WS_CLASS)
_unicode_patterns: _PatternSet | None = None
_unicode_lock = threading.Lock()


def _patterns_for(text: str) -> _PatternSet:
    global _unicode_patterns
    if text.isascii():
        return _ASCII_PATTERNS
    if _unicode_patterns is None:
        with _unicode_lock:
            if _unicode_patterns is None:
                categories = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Nd", "Pc"})
                word = _class_body(lambda cp: not 0xD800 <= cp <= 0xDFFF and unicodedata.category(chr(cp)) in categories)
                digit = _class_body(lambda cp: not 0xD800 <= cp <= 0xDFFF and unicodedata.category(chr(cp)) == "Nd")
                # .NET's \\b also counts ZWNJ/ZWJ as word characters
                _unicode_patterns = _build(word, word + "\\u200c\\u200d", digit, NET_WS_CLASS)
    return _unicode_patterns


def warm_up() -> None:
    """Compile the Unicode patterns now (≈0.5 s, once per process) instead of on the first non-ASCII
    text; call it from a worker thread at start-up so no interactive check pays for it."""
    _patterns_for("\u00e9")


TOKEN_KINDS: tuple[TokenKind, ...] = KINDS
_TRAILING = ".,:;)]"


# A class can only match a text holding what its pattern requires: skip its scan otherwise. A literal is
# tested with `in`; the others with a search for a short necessary piece or pair (much cheaper than the scan).
_NEEDS = {0: "://", 4: "/", 5: ".", 8: ".", 10: "_", 11: "-"}
_MONTH_INITIAL, _MONTH_REST = _month_after_initial()
_A_MONTH = re.compile(f"{_MONTH_INITIAL}(?:{_MONTH_REST})")
_NEEDS_PIECE = {
    2: _A_MONTH,  # written and reverse dates name a month
    3: _A_MONTH,
}
# Pairs of ASCII characters a class's match must hold, tested on the text's shape (`_has_pair`): bytes `in` is
# a fast search, where a regex for the same pair tries every character (≈3 ms on a 1 MB digit-dense log).
_NEEDS_PAIR = {
    8: (b".a", b".A", b"._"),  # a dot before an identifier's next part
    9: (b"aA",),  # camel case: a lower- then an upper-case letter
    12: (b"AA", b"A0", b"A_"),  # all caps: an upper-case letter, then two more of [A-Z0-9_]
}
# a quantity: a digit, then a unit letter (`1.5GB` holds `5G`: the decimals end in a digit too)
_ASCII_NEEDS_PAIR = {6: (b"0a", b"0A")}
# a text's shape: each ASCII letter as `a` or `A`, each ASCII digit as `0`, `.` and `_` kept, all else a space
# (so is every byte of a non-ASCII character: those patterns' letters and digits are ASCII)
_SHAPE = bytes(ord("a") if 97 <= b <= 122 else ord("A") if 65 <= b <= 90 else ord("0") if 48 <= b <= 57
               else b if b in b"._" else 32 for b in range(256))


def _has_pair(text: str, pair: bytes, seen: dict[Any, Any]) -> bool:
    """Whether the text's shape holds `pair`. A byte the shape lacks is found out by one `memchr` (a log
    without capitals skips the camel-case and all-caps searches at once); each pair's own search reads
    the whole shape when the pair is absent."""
    shape = seen.get("shape")
    if shape is None:
        shape = seen["shape"] = text.encode("utf-8", "surrogatepass").translate(_SHAPE)
        seen["shape bytes"] = {byte for byte in b"aA0._" if bytes((byte,)) in shape}
    present = seen["shape bytes"]
    return pair[0] in present and pair[1] in present and pair in shape


def _may_match(index: int, text: str, ascii_text: bool, seen: dict[Any, Any]) -> bool:
    """False when class `index` cannot match `text`. `seen` keeps a piece's answer for the next class."""
    if index in _NEEDS and _NEEDS[index] not in text:
        return False
    if index == _FILE_PATH:
        return "/" in text or "\\" in text
    pairs = _NEEDS_PAIR.get(index) or (_ASCII_NEEDS_PAIR.get(index) if ascii_text else None)
    if pairs is not None:
        return any(_has_pair(text, pair, seen) for pair in pairs)
    piece = _NEEDS_PIECE.get(index)
    if piece is None:
        return True
    if piece not in seen:
        seen[piece] = piece.search(text) is not None
    return bool(seen[piece])


# Identifier-like classes whose every match holds a marker: a dotted identifier a dot before a letter, camel
# case a lower- then an upper-case letter, snake case an underscore, kebab case a hyphen. A match never leaves
# the run of word characters, dots and hyphens it is in, so only the runs holding a marker are scanned
# (in prose most words hold none, and a scan tries every letter).
_FIRST_CHAR = {8: re.compile("[A-Za-z_]"), 9: re.compile("[a-z]"), 10: re.compile("[a-zA-Z]"),
               11: re.compile("[a-zA-Z]")}
_MARKERS = {8: re.compile(r"\.(?=[A-Za-z_])"), 9: re.compile(r"[a-z](?=[A-Z])"), 10: re.compile("_"),
            11: re.compile("-")}


def _runs_around(text: str, markers: Iterable[re.Match[str]], run: re.Pattern[str],
                 seen: dict[Any, Any]) -> Iterable[tuple[int, int]]:
    """The maximal runs of `run`'s characters that hold a marker, each once, in text order. A run's start is
    found by matching `run` on the reversed text (kept in `seen` for the other classes)."""
    reverse = seen.get("reverse")
    if reverse is None:
        reverse = seen["reverse"] = text[::-1]
    end = -1
    for marker in markers:
        at = marker.start()
        if at < end:
            continue  # in the run just yielded
        back = len(text) - at  # where text[at - 1] is in the reversed text
        before, after = run.match(reverse, back), run.match(text, at)  # `run` matches the empty string too
        start = at - ((before.end() if before else back) - back)
        end = max(after.end() if after else at, at + 1)
        yield start, end


def _marked_matches(text: str, index: int, pattern_set: _PatternSet, seen: dict[Any, Any]) -> list[str]:
    """Class `index`'s matches, the same as `findall` over the whole text: each run that holds a marker is
    searched alone (look-behinds still see the text before it; the character after a run is never a word
    character, so the end-of-text look-ahead answers what the full text would)."""
    pattern, first = pattern_set.patterns[index], _FIRST_CHAR[index]
    found: list[str] = []
    for start, end in _runs_around(text, _MARKERS[index].finditer(text), pattern_set.word_run, seen):
        if first.search(text, start, end):  # a match starts with one of these (a run of `2025-06-11` has none)
            found.extend(pattern.findall(text, start, end))
    return found


# Every class but the two month-name dates matches inside one white-space-delimited chunk: a match holds no
# white space, and white space is never a word character, so the look-arounds at a chunk's edge see what the
# text's start and end show. A long text is therefore scanned as its distinct chunks, once each, joined by
# newlines (1 MB of notes holds ~¼ MB of distinct chunks); the dates are scanned over the whole text.
_DATE_CLASSES = frozenset({2, 3})
_COMPACT_FROM = 4096  # below this, splitting costs more than it saves
_SENTENCE_END = ". "  # a long text is also cut into parts here and at line ends (Units)
_LONG_PART = 1024  # a part longer than this is cut at white space (a text without sentences stays cheap)
_PYTHON_ONLY_WHITESPACE = "\x1c\x1d\x1e\x1f"  # str.split() splits on these; .NET's white space class does not


def _chunks(text: str) -> list[str] | None:
    """The text split at white space, or None when it holds a character that Python splits at but a URL may
    contain (the text is then scanned whole)."""
    if any(ch in text for ch in _PYTHON_ONLY_WHITESPACE):
        return None
    return text.split()


def _compact_text(text: str, parts: list[str], distinct: frozenset[str] | None = None) -> str:
    """What to scan for the chunk classes instead of a long text: its distinct parts (`_parts`), one per
    line, when they are a quarter of the text or less (notes that repeat themselves); otherwise its distinct
    chunks (the text itself when unsplittable). Either way, what a scan finds, and in which order, is what
    scanning the text finds (see Units). `distinct`: the set of `parts`, when already made (Units)."""
    if sum(map(len, frozenset(parts) if distinct is None else distinct)) <= len(text) // 4:
        return "\n".join(dict.fromkeys(parts))  # in order: a text that repeats itself has few
    # cut at spaces only: twice as fast as split(), and a chunk holding a line end or tab is still exact
    return "\n".join(dict.fromkeys(text.split(" ")))


def iter_matches(text: str, only: frozenset[int] | None = None, *, shortcuts: bool = True,
                  compact_from: int | None = None) -> Iterable[tuple[str, int]]:
    """(token, class index) for every distinct match of every class (or of the classes in `only`), in class
    order (first occurrence first), trailing punctuation cut. `shortcuts=False` scans every class over the
    whole text, for tests to compare against. Matches are collected by the regex engine
    (`findall`) and repeats dropped before any per-token work, so a 1 MB body costs little more than the
    regex scans."""
    compact = text
    if shortcuts and len(text) >= (_COMPACT_FROM if compact_from is None else compact_from):
        compact = _compact_text(text, _parts(text))
    return _scan(text, compact, only, shortcuts)


def _scan(text: str, compact: str, only: frozenset[int] | None, shortcuts: bool) -> Iterable[tuple[str, int]]:
    """`iter_matches` over `compact`, the text's distinct chunks (`text` itself for the dates)."""
    for index, found in _scan_classes(text, compact, only, shortcuts):
        for token in found:
            yield token, index


def _scan_classes(text: str, compact: str, only: frozenset[int] | None,
                  shortcuts: bool) -> list[tuple[int, list[str]]]:
    """(class index, its distinct tokens in order, trailing punctuation cut) for each class that matched."""
    pattern_set = _patterns_for(text)  # the full text's patterns are exact for its chunks too
    ascii_text, seen = pattern_set is _ASCII_PATTERNS, dict[Any, Any]()
    out = []
    for index, pattern in enumerate(pattern_set.patterns):
        if only is not None and index not in only:
            continue
        if not shortcuts:  # every class scanned over the whole text (what the shortcuts must equal)
            found = pattern.findall(text)
        elif not _may_match(index, compact, ascii_text, seen):  # what a class needs lies inside one chunk
            continue
        elif index in _DATE_CLASSES:
            found = _date_matches(text, index, pattern_set, seen)
        elif index == _FILE_PATH:
            found = [m.group() for m in _file_path_matches(compact, pattern_set, seen)]
        elif index in _MARKERS:
            found = _marked_matches(compact, index, pattern_set, seen)
        else:
            found = pattern.findall(compact)
        tokens = list(filter(None, map(str.rstrip, dict.fromkeys(found), repeat(_TRAILING))))  # in C: 1 MB has 20k
        if tokens:
            out.append((index, tokens))
    return out


_CHARS_PER_YEAR = 64  # with years denser than one per this many characters, windows cost more than they save


def _date_windows(text: str, pattern_set: _PatternSet) -> list[tuple[int, int]]:
    """Where in the text a month-name date can lie: for each year (four digits after white space), from the
    furthest a date can start before it (`before_year`, matched backwards) to its end; windows that
    overlap are joined. In prose a month name begins one word in ten, a year one in a few hundred."""
    reverse = text[::-1]
    windows: list[tuple[int, int]] = []
    for count, year in enumerate(pattern_set.year.finditer(text)):
        if count > 64 + year.start() // _CHARS_PER_YEAR:
            return [(0, len(text))]  # years everywhere (a table of numbers): one scan of the whole text is cheaper
        before = pattern_set.before_year.match(reverse, len(text) - year.start())
        if before is None:
            continue  # no date ends at this year
        start = year.start() - (before.end() - before.start())
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], year.end())
        else:
            windows.append((start, year.end()))
    return windows


def _date_matches(text: str, index: int, pattern_set: _PatternSet, seen: dict[Any, Any]) -> list[str]:
    """Date class `index`'s matches, the same as `findall` over the whole text: a match ends at a year and
    starts within its window, and windows never cut a match (look-behinds still see the text before a
    window; the character after a year is never a word character, as the end of a window shows)."""
    windows = seen.get("date windows")
    if windows is None:
        windows = seen["date windows"] = _date_windows(text, pattern_set)
    pattern = pattern_set.patterns[index]
    return [match for start, end in windows for match in pattern.findall(text, start, end)]


def fold_all(tokens: Iterable[str]) -> list[str]:
    """fold_case of each token, in one call over them all unless one holds the NUL that joins them."""
    tokens = list(tokens)
    joined = "\x00".join(tokens)
    if joined.count("\x00") != len(tokens) - 1:
        return [fold_case(token) for token in tokens]
    return fold_case(joined).split("\x00") if tokens else []


def _first_by_key(per_class: list[tuple[int, list[str]]]) -> tuple[dict[str, str], dict[str, int]]:
    """Folded token -> its first spelling, and -> its first class, in order of collection: Netclaw's
    case-insensitive de-duplication, folded in one call over all tokens rather than one per token. Two dicts
    of strings and ints rather than one of pairs: a 1 MB text has 20k tokens, and 20k pairs would cost more
    in garbage collection than in building them."""
    tokens = list(chain.from_iterable(found for _, found in per_class))
    indices = list(chain.from_iterable(repeat(index, len(found)) for index, found in per_class))
    keys = fold_all(tokens)
    ordered = dict.fromkeys(keys)
    if len(ordered) == len(keys):  # no key twice
        return dict(zip(keys, tokens)), dict(zip(keys, indices))
    first_token = dict(zip(reversed(keys), reversed(tokens)))  # the last write is the first seen
    first_index = dict(zip(reversed(keys), reversed(indices)))
    spelling = dict(zip(ordered, map(first_token.__getitem__, ordered)))
    return spelling, dict(zip(ordered, map(first_index.__getitem__, ordered)))


_EXTENSION_DOT = re.compile(r"\.[A-Za-z0-9]")
_DOUBLE_SEPARATOR = re.compile(r"(?<=[/\\])(?=[/\\])")


_SEPARATOR = re.compile(r"[/\\\\]")


def _file_path_matches(text: str, pattern_set: _PatternSet, seen: dict[Any, Any] | None = None) -> Iterable[re.Match[str]]:
    """The file-path class's matches, without most of its quadratic backtracking on long runs of
    path-like characters (`a.a.a.…`, `a/a/a/…`). Same matches as `pattern.finditer(text)`, because a
    match never leaves a maximal run of the characters it may contain, never holds two separators in a
    row, needs a separator, and ends in the word run of an `.ext` that follows a separator. So each
    piece is searched alone, pieces that cannot match are skipped, and a search ends after the last
    possible `.ext` (the character there is never a word character, so the end-of-text look-ahead sees
    what the full text shows; look-behinds still see the text before a piece)."""
    pattern = pattern_set.patterns[_FILE_PATH]
    runs = _runs_around(text, _SEPARATOR.finditer(text), pattern_set.path_run, {} if seen is None else seen)
    for run_start, run_end in runs:
        cuts = [run_start, *(m.start() for m in _DOUBLE_SEPARATOR.finditer(text, run_start, run_end)), run_end]
        for start, end in pairwise(cuts):
            first_sep = min((i for i in (text.find("/", start, end), text.find("\\", start, end)) if i >= 0), default=-1)
            if first_sep < 0:
                continue
            last_dot = -1
            for dot in _EXTENSION_DOT.finditer(text, first_sep, end):
                last_dot = dot.start()
            if last_dot < 0:
                continue
            stop = last_dot + 1
            while stop < end and text[stop] not in "/\\:~":
                stop += 1
            yield from pattern.finditer(text, start, stop)


class Units(NamedTuple):
    """A text cut into units that hold every token of the 13 chunk classes whole (a device for speed, not a
    Netclaw rule): a unit the merged body also holds brings all its tokens along. The text is cut at line
    ends and at ". " (1 MB of notes is ~20k parts against ~150k white-space chunks, so a check splits and
    hashes far less); a part longer than `_LONG_PART` is cut further at white space. A part loses the "."
    of a ". " after it, which no token needs: every match is cut off at a trailing ".", and no class looks
    past one (the property tests in tests/core/merge/test_guard.py hold that)."""
    parts: frozenset[str]  # the parts of at most _LONG_PART characters
    chunks: frozenset[str]  # the white-space chunks of the longer ones
    long: frozenset[str]  # the longer parts themselves (a month-name date may span their chunks)

    def text(self) -> str:
        """The distinct text of these units, one per line: a key with neither a line end nor ". " in it
        occurs in the text they came from exactly when it occurs here."""
        return "\n".join([*self.parts, *self.long])

    def __or__(self, other: Units) -> Units:
        return Units(self.parts | other.parts, self.chunks | other.chunks, self.long | other.long)


def _parts(text: str) -> list[str]:
    """The text cut at line ends and at ". ", without the empty parts (they hold no token)."""
    return list(filter(None, text.replace(_SENTENCE_END, "\n").split("\n")))


def units(text: str, parts: list[str] | None = None) -> Units | None:
    """The text's units (`parts`: its `_parts`, when already made), or None when a long part holds a
    character Python splits at but .NET's white space class does not (`_chunks`): the text is then
    compared whole."""
    parts = _parts(text) if parts is None else parts
    if max(map(len, parts), default=0) <= _LONG_PART:  # the common case, without a Python loop
        return Units(frozenset(parts), frozenset(), frozenset())
    short, long, chunks = [], [], []
    for part in parts:
        if len(part) <= _LONG_PART:
            short.append(part)
            continue
        cut = _chunks(part)
        if cut is None:
            return None
        long.append(part)
        chunks += cut
    return Units(frozenset(short), frozenset(chunks), frozenset(long))


def extract_tokens(text: str | None) -> list[tuple[str, TokenKind]]:
    """The load-bearing tokens of one text as (token, kind), de-duplicated case-insensitively, in the
    order Netclaw collects them (class by class); a token found by several classes gets the first."""
    if not text:
        return []
    scan = source_scan(text)
    return list(zip(scan.spelling.values(), map(TOKEN_KINDS.__getitem__, scan.classes.values())))


class _SourceScan(NamedTuple):
    spelling: dict[str, str]  # folded token -> its first spelling, in order of collection
    classes: dict[str, int]  # folded token -> its first class, in the same order
    date_keys: frozenset[str]  # the keys of its month-name dates (they span units: always searched)
    units: Units | None  # None: unsplittable


@functools.lru_cache(maxsize=64)
def source_scan(source: str) -> _SourceScan:
    """A source's tokens and chunks, kept for the next check: while a reviewer edits the merged body the
    sources stay the same, so each re-check looks only at the body (do not modify the result)."""
    parts = _parts(source)
    source_units = units(source, parts)
    compact = source
    if len(source) >= _COMPACT_FROM:  # the set of parts is the units' when no part is long
        whole = source_units is not None and not source_units.long
        compact = _compact_text(source, parts, source_units.parts if whole and source_units is not None else None)
    per_class = _scan_classes(source, compact, None, True)
    dates = frozenset(fold_all(token for index, found in per_class if index in _DATE_CLASSES for token in found))
    return _SourceScan(*_first_by_key(per_class), dates, source_units)


CHUNK_CLASSES = frozenset(range(len(KINDS))) - _DATE_CLASSES


__all__ = ["TOKEN_KINDS", "TokenKind", "Units", "extract_tokens", "units", "warm_up"]
