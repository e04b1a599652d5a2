"""The Netclaw/.NET primitives memgui must reproduce, written once (docs/netclaw-compat.md, N1–N9).

Netclaw is a .NET program; where .NET and Python disagree on a primitive, memgui follows .NET:
- white space is `char.IsWhiteSpace` (Python's `str.isspace` also counts U+001C..U+001F, .NET does not);
- `ToLowerInvariant` is a one-to-one simple case mapping (U+0130 İ stays, Σ is always σ);
- `OrdinalIgnoreCase` compares simple upper cases, character by character;
- `string.Length` counts UTF-16 code units;
- `{x:P0}` / `{x:F2}` round the exact binary value, ties to even (the Dragon4 port in .NET's formatter).
Every other module imports these; none re-implements them.
"""
from __future__ import annotations

import datetime as _dt
import enum
import functools
import re
from collections.abc import Iterable
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

# ---- N1 white space ------------------------------------------------------------------------------

# char.IsWhiteSpace: U+0009–U+000D, U+0085 and the categories Zs, Zl, Zp.
NET_WHITESPACE = (
    "\t\n\x0b\x0c\r\x85 \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
# The same set as a regex class body (inside [...]), for .NET regex `\s`.
NET_WS_CLASS = "\\t\\n\\x0b\\x0c\\r\\x85 \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
_WS_RUN = re.compile(f"[{NET_WS_CLASS}]+")


def net_trim(text: str) -> str:
    """`String.Trim()`: strip .NET white space from both ends."""
    return text.strip(NET_WHITESPACE)


def is_blank(text: str | None) -> bool:
    """`string.IsNullOrWhiteSpace`."""
    return not text or not text.strip(NET_WHITESPACE)


def split_whitespace(text: str) -> list[str]:
    """`text.Split((char[])null, RemoveEmptyEntries)`: the pieces between runs of .NET white space."""
    return [piece for piece in _WS_RUN.split(text) if piece]


def net_split(text: str, separators: re.Pattern[str]) -> list[str]:
    """`String.Split(chars, RemoveEmptyEntries | TrimEntries)`."""
    pieces = (net_trim(p) for p in separators.split(text))
    return [p for p in pieces if p]


# ---- N2 case -------------------------------------------------------------------------------------

def lower_invariant(text: str) -> str:
    """.NET `ToLowerInvariant`: a one-to-one simple case mapping. Differs from `str.lower()` in two places:
    U+0130 (İ) stays as it is (Python makes it two characters; .NET's invariant casing leaves it) and
    capital sigma always becomes σ (Python picks ς at the end of a word)."""
    text = text.replace("\u03a3", "\u03c3")
    if "\u0130" in text:
        return "\u0130".join(part.lower() for part in text.split("\u0130"))
    return text.lower()


class _FoldTable(dict[int, int]):
    def __missing__(self, cp: int) -> int:
        ch = chr(cp)
        up = ch.upper()
        if len(up) != 1:
            up = ch.title()  # the simple mapping of e.g. U+1F80 is its single-char titlecase
            if len(up) != 1:
                up = ch
        self[cp] = ord(up)
        return self[cp]


_FOLD = _FoldTable()


@functools.cache
def _multi_char_uppers() -> re.Pattern[str]:
    """The characters whose full upper case is several characters (ß → SS, ﬁ → FI): only for these does
    `str.upper` differ from the simple per-character mapping. (All are in the BMP; built on first use, 0.03 s.)"""
    special = "".join(f"\\u{cp:04x}" for cp in range(0x10000)
                      if not 0xD800 <= cp <= 0xDFFF and len(chr(cp).upper()) != 1)
    return re.compile(f"[{special}]")


def fold_case(text: str) -> str:
    """Case-fold like .NET `OrdinalIgnoreCase`: each character to its simple upper case. Keeps length, so
    indices into the folded text are indices into the original. `str.upper` is that mapping (and runs in C)
    unless the text holds a character whose full upper case is longer."""
    if text.isascii() or not _multi_char_uppers().search(text):
        return text.upper()
    return text.translate(_FOLD)


def equals_ignore_case(a: str | None, b: str | None) -> bool:
    """`string.Equals(a, b, OrdinalIgnoreCase)` (null equals only null)."""
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and fold_case(a) == fold_case(b)


# ---- N3 length and encoding ----------------------------------------------------------------------

def utf16_len(text: str) -> int:
    """`string.Length`: UTF-16 code units (a character outside the BMP counts twice)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is one code unit


# A lone UTF-16 surrogate: valid in .NET and Python strings, not encodable as UTF-8. The one pattern for it
# (the guard, the fact lens, the sentence splitter and the seams all look for it).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8_bytes(text: str) -> bytes:
    """UTF-8 as .NET's `Encoding.UTF8` produces it: a lone surrogate becomes U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def normalize_for_containment(text: str | None) -> str:
    """Netclaw's NormalizeForContainment: invariant lower case, split on white space, joined with single
    spaces. Used by the destructive-update guard and the content hash (netclaw-compat §11.2)."""
    return " ".join(split_whitespace(lower_invariant(text or "")))


# ---- N4 number formatting ------------------------------------------------------------------------

def format_p0(ratio: float) -> str:
    """.NET `{ratio:P0}` (en-US): the exact binary value × 100 rounded to an integer, ties to even (the
    formatter's Dragon4 rounds a tie towards the even digit), grouped with `,`, then `%` with no space.
    0.125 → "12%", 0.135 → "14%" (0.135 is a little above the tie in binary), 12.34 → "1,234%"."""
    with localcontext() as ctx:
        ctx.prec = 400  # exact: a double has at most ~1075 significant bits, × 100 stays well inside
        value = (Decimal(ratio) * 100).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    return f"{int(value):,}%"


def format_f2(value: float) -> str:
    """.NET `{value:F2}`: correctly rounded, ties to even on the exact value (Python's `.2f` does the same)."""
    return f"{value:.2f}"


# ---- N5 identifiers ------------------------------------------------------------------------------

ANCHOR_PREFIX = "anchor:"


def anchor_id_for(canonical_name: str) -> str:
    """MemoryTypedId.AnchorId: `anchor:` + `name.Trim().ToLowerInvariant().Replace(' ', '-')`."""
    return ANCHOR_PREFIX + lower_invariant(net_trim(canonical_name)).replace(" ", "-")


def anchor_slug(anchor_id: str) -> str:
    """An anchor id without its `anchor:` prefix (what to show when the anchor's name is not known)."""
    return anchor_id.removeprefix(ANCHOR_PREFIX)


# ---- N6 FTS5 query text --------------------------------------------------------------------------

def fts_safe(text: str) -> str:
    """Drop what SQLite cannot take as query text: NUL and lone surrogates (not encodable as UTF-8)."""
    text = text.replace("\x00", " ")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def fts_match_query(terms: Iterable[str]) -> str | None:
    """BuildFtsMatchQuery: each non-blank term double-quoted (embedded quotes doubled), OR-joined, so
    every term matches literally (no FTS5 operator, column filter or prefix syntax survives); None when no
    term is left."""
    quoted = ['"' + fts_safe(t).replace('"', '""') + '"' for t in terms if not is_blank(fts_safe(t))]
    return " OR ".join(quoted) if quoted else None


def fts_query_for_text(text: str) -> str | None:
    """A search box's text as an FTS5 query: its white-space-separated words, each matched literally."""
    return fts_match_query(split_whitespace(fts_safe(text or "")))


# ---- N7 the structural append --------------------------------------------------------------------

APPEND_SEPARATOR_TEMPLATE = "\n\n---\n_[merged {date}]_\n"
APPEND_SEPARATOR_PREFIX = "_[merged "  # a cheap prefilter: a body without it holds no separator
APPEND_MARKER_RE = re.compile(r"_\[merged \d{4}-\d{2}-\d{2}\]_")
# The separator as it is found in stored bodies: CRLF line ends, trailing blanks on the rule and marker
# lines, extra blank lines before the rule, a separator that ends the body (an empty addition), or one at
# the very start of a body (the original text was empty). Group 1 or 2 is the date.
APPEND_SEPARATOR_RE = re.compile(
    r"(?:(?:\r?\n)[ \t]*){1,}---[ \t]*\r?\n_\[merged (\d{4}-\d{2}-\d{2})\]_[ \t]*(?:\r?\n|$)"
    r"|^---[ \t]*\r?\n_\[merged (\d{4}-\d{2}-\d{2})\]_[ \t]*(?:\r?\n|$)"
)


def append_separator(when: _dt.date | str) -> str:
    """The separator one append writes: `\\n\\n---\\n_[merged YYYY-MM-DD]_\\n` (a date, or its YYYY-MM-DD text as
    read back from a body)."""
    date = when if isinstance(when, str) else f"{when.year:04d}-{when.month:02d}-{when.day:02d}"
    return APPEND_SEPARATOR_TEMPLATE.format(date=date)


def build_appended_body(existing: str, addition: str, when: _dt.date | str) -> str:
    """`<existing>\\n\\n---\\n_[merged YYYY-MM-DD]_\\n<addition>`; `when` is the store clock's UTC date."""
    return f"{existing or ''}{append_separator(when)}{addition or ''}"


# ---- N10 time stamps shown to a person ----------------------------------------------------------------------
# One rule for the whole window, the CLI's text and the exported report: Netclaw's time stamps are UTC
# milliseconds; a person sees them in the machine's local time WITH its UTC offset (`2026-06-01 14:05 +02:00`),
# so the Audit tab, the Review tab and a report pasted elsewhere agree and none is ambiguous.


def local_time(ms: int | None) -> _dt.datetime | None:
    """UTC milliseconds (Netclaw's updated_at, memgui's created_at) as an aware local datetime."""
    if ms is None:
        return None
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).astimezone()


def format_timestamp(ms: int | None, *, seconds: bool = False, empty: str = "") -> str:
    """`YYYY-MM-DD HH:MM[:SS] ±HH:MM`: local time with its UTC offset (the display rule above); `empty` for none."""
    when = local_time(ms) if ms else None
    if when is None:
        return empty
    offset = when.utcoffset() or _dt.timedelta(0)
    sign = "-" if offset < _dt.timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    text = when.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return f"{text} {sign}{minutes // 60:02d}:{minutes % 60:02d}"


# ---- N8 MergeGuard limits ------------------------------------------------------------------------

RETENTION_THRESHOLD = 0.95  # share of the sources' load-bearing tokens the merged body must keep
LENGTH_COLLAPSE_THRESHOLD = 0.60  # merged length / longest source length must be at least this

# ---- N9 update semantics -------------------------------------------------------------------------

MERGE_SEMANTICS = "merge-document"
APPEND_SEMANTICS = "append-document"
TOMBSTONE_SEMANTICS = "tombstone"


# ---- the strings the store and the protocol hold, as enums -----------------------------------------------------


class StrEnum(str, enum.Enum):
    """An enum whose members are their string values, for every string that crosses a seam (a fact's direction, a
    decision's keyword). A member is a `str`: it equals its value, is written as its value to JSON and SQLite, and
    prints as its value (`f"{Direction.DROPPED}"` is `dropped`), as Python 3.11's `enum.StrEnum` does; memgui
    supports 3.10, which has none."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(str.__str__(self), spec)
