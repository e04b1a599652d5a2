"""One schema for every file and row that crosses a seam, parsed and validated here and nowhere else.

What crosses a seam: a `memgui decide --json` draft (read back by `memgui merge --draft`), a stamps file
(`--expect-stamps`), an accept-safe plan (`--dry-run --json` output, read back by `--plan`), the before/after
images and details of an audit row (`memgui_audit`, read back by undo, redo, audit, recheck), and a JSON Lines
export of the audit (`forensics/export.py`). Each is decoded straight into a typed `msgspec.Struct` and then
handed on as plain values (audit images and export lines in exactly their stored shape), so no code downstream
meets a number where it expected a body or a list where it expected stamps. Caches memgui writes for itself
(`read_cache`) and JSON in its own rows (`loads_or`) go through the same bounded decoder but fall back to empty
instead of refusing: a cache is never worth an error.

The bounds every one of them obeys (a value outside them is refused, never clipped):
- size: a file at most `MAX_FILE_BYTES`; one text at most `MAX_TEXT_CHARS`; an id at most `MAX_ID_CHARS`;
  a list or object at most `MAX_ITEMS` members;
- depth: nested at most `MAX_DEPTH` levels (typed fields bound it by their type; the free-form parts —
  audit details, a lens report's at-risk list — are walked without recursion); a file nested deeper than the
  interpreter can decode is refused as such, never a RecursionError;
- integers: SQLite's int64 (`INT64_MIN`…`INT64_MAX`) for ids, times and counts;
- text: UTF-8; a lone UTF-16 surrogate (`"\\ud800"` as a JSON escape, or its bytes) is refused.

A refusal is a `SeamError`: one line naming the file (or audit row) and what is wrong with it.

Why msgspec (0.22, pinned in pyproject.toml) and not pydantic: both validate typed schemas with bounds, but
msgspec decodes JSON straight into the typed values in C (no dict-then-validate pass), refuses lone
surrogate escapes and non-finite numbers while decoding, and costs ≈12 ms of start-up on top of
`import memgui.__main__` here (measured: median of 9 runs, 100.5 → 112.8 ms), while pydantic is
not in this machine's offline package index at all (so it could not be measured, nor shipped). msgspec is
imported only when such a file or row is read. docs/seams.md has the same in prose.
"""
from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import msgspec

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_TEXT_CHARS = 16 * 1024 * 1024
MAX_ID_CHARS = 512
MAX_ITEMS = 100_000
MAX_DEPTH = 64

Int64 = Annotated[int, msgspec.Meta(ge=INT64_MIN, le=INT64_MAX)]
Count = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX)]
# an id (document, anchor, record, cluster): no control characters, so every message naming one stays one line
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS, pattern=r"^[^\x00-\x1f\x7f]+$")]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT_CHARS)]
# a body memgui may write into the store: no NUL (C readers of the store, Netclaw's FTS among them, stop there)
_NO_NUL = r"^[^\x00]*$"
Body = Annotated[str, msgspec.Meta(max_length=MAX_TEXT_CHARS, pattern=_NO_NUL)]
Hash = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
# a batch id: what `memgui undo-batch BATCH` can be given back on a command line
BatchId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")]
BATCH_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")

T = TypeVar("T")


class SeamError(ValueError):
    """A file or row that crosses a seam is not what its schema says (one line, names the file or row)."""


class _Base(msgspec.Struct, omit_defaults=False):
    pass


# ---- stamps, drafts ------------------------------------------------------------------------------------------

class Stamp(_Base, forbid_unknown_fields=True):
    """A source as the reviewer (or the model) read it: updated_at and the byte-exact digest of title + body;
    `body_hash` (the body's alone, optional) lets a refusal say whether the content or the title changed."""

    updated_at: Int64
    content_hash: Hash
    body_hash: Hash | None = None


Stamps = Annotated[dict[Id, Stamp], msgspec.Meta(max_length=MAX_ITEMS)]


class GuardClaim(_Base):
    passed: bool | None = None
    reason: Text | None = None
    retention: float | None = None
    length_ratio: float | None = None
    missing: Annotated[list[Text], msgspec.Meta(max_length=MAX_ITEMS)] = []


class StrictClaim(_Base):
    passed: bool | None = None
    checked: Count = 0
    at_risk: Annotated[list[dict[Text, Any]], msgspec.Meta(max_length=MAX_ITEMS)] = []
    equated: Annotated[list[dict[Text, Any]], msgspec.Meta(max_length=MAX_ITEMS)] = []
    verdict: Text | None = None  # memgui's verdict (proved / loss / read, core/merge/align.py)
    sentences: Annotated[list[dict[Text, Any]], msgspec.Meta(max_length=MAX_ITEMS)] = []
    reasons: Annotated[list[Text], msgspec.Meta(max_length=MAX_ITEMS)] = []


class DecideDraft(_Base):
    """`memgui decide --json` output as `memgui merge --draft` reads it (other fields are kept as they are)."""

    stamps: Stamps
    merged_body: Body | None = None
    decision: Text | None = None
    target: Id | None = None
    targets: Annotated[list[Id], msgspec.Meta(max_length=MAX_ITEMS)] = []
    model_id: Text | None = None
    rationale: Text | None = None
    guard: GuardClaim | None = None
    strict: StrictClaim | None = None


# ---- accept-safe plans --------------------------------------------------------------------------------------

class ReaderVerdictClaim(_Base):
    index: Count = 0
    keeps: bool = False
    p_yes: float | None = None
    reason: Text = ""
    document_id: Text = ""
    cached: bool = False


class ReaderClaim(_Base):
    passed: bool | None = None
    reason: Text | None = None
    model_id: Text = ""
    threshold: float = 0.5
    seconds: float = 0.0
    model_calls: Count = 0
    verdicts: Annotated[list[ReaderVerdictClaim], msgspec.Meta(max_length=MAX_ITEMS)] = []


class SupersedeClaim(_Base):
    """A SUPERSEDE write's reading (issue 38): a claim like the decision; the write-time proof re-checks the order,
    the dated-series rule and the body (core/ops/supersede.py `prove_supersession`)."""

    reading: Text
    order: Annotated[list[Id], msgspec.Meta(max_length=MAX_ITEMS)]
    reason: Text = ""
    pairs: Annotated[list[dict[Text, Any]], msgspec.Meta(max_length=MAX_ITEMS)] = []
    history: Annotated[list[dict[Text, Any]], msgspec.Meta(max_length=MAX_ITEMS)] = []


class PlannedWriteRecord(_Base, forbid_unknown_fields=True):
    cluster_id: Id
    target_id: Id
    tombstoned: Annotated[list[Id], msgspec.Meta(min_length=1, max_length=MAX_ITEMS)]
    decision: Text
    merged_body: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TEXT_CHARS, pattern=_NO_NUL)]
    guard: GuardClaim
    strict: StrictClaim
    stamps: Stamps
    model_id: Text
    length_ratio: float | None = None
    rationale: Text | None = None
    raw_reply: Text | None = None
    titles: Annotated[dict[Id, Text], msgspec.Meta(max_length=MAX_ITEMS)] = {}
    reader: ReaderClaim | None = None
    supersede: SupersedeClaim | None = None


class ExclusionRecord(_Base, forbid_unknown_fields=True):
    cluster_id: Id
    member_ids: Annotated[list[Id], msgspec.Meta(max_length=MAX_ITEMS)]
    reason: Text
    verdict: Text
    titles: Annotated[dict[Id, Text], msgspec.Meta(max_length=MAX_ITEMS)] = {}
    reader: ReaderClaim | None = None


class ReaderRunRecord(_Base):
    ran: bool = False
    note: Text = ""


class PlanRecord(_Base):
    """An accept-safe plan (`BatchPlan.to_dict`). `considered`, `accepted` and `rule` are for people; they
    are read but not trusted."""

    batch_id: BatchId
    writes: Annotated[list[PlannedWriteRecord], msgspec.Meta(max_length=MAX_ITEMS)] = []
    excluded: Annotated[list[ExclusionRecord], msgspec.Meta(max_length=MAX_ITEMS)] = []
    created_at: Text = ""
    reader: ReaderRunRecord = msgspec.field(default_factory=ReaderRunRecord)
    considered: Count | None = None
    accepted: Count | None = None
    rule: Text | None = None


# ---- audit images -------------------------------------------------------------------------------------------

# A stored cell: a value as SQLite holds it, or a tagged value ({"$bytes": hex} for a BLOB, {"$text": hex} for
# TEXT that is not UTF-8).
Hex = Annotated[str, msgspec.Meta(max_length=2 * MAX_TEXT_CHARS, pattern="^(?:[0-9a-fA-F]{2})*$")]
Tagged = Annotated[dict[Literal["$bytes", "$text"], Hex], msgspec.Meta(min_length=1, max_length=1)]
Cell = None | Int64 | float | Text | Tagged
Row = Annotated[dict[Text, Cell], msgspec.Meta(max_length=1024)] | None


class DocumentImage(_Base, forbid_unknown_fields=True):
    row: Row = None
    fts: Row = None
    embeddings: Annotated[list[Annotated[dict[Text, Cell], msgspec.Meta(max_length=1024)]],
                          msgspec.Meta(max_length=MAX_ITEMS)] = []


class RecordImage(_Base, forbid_unknown_fields=True):
    row: Row = None
    fts: Row = None


class ExemptionImage(_Base, forbid_unknown_fields=True):
    pair: tuple[Id, Id]
    row: Row = None


class AuditImage(_Base, forbid_unknown_fields=True):
    documents: Annotated[dict[Id, DocumentImage], msgspec.Meta(max_length=MAX_ITEMS)] = {}
    anchors: Annotated[dict[Id, Row], msgspec.Meta(max_length=MAX_ITEMS)] = {}
    records: Annotated[dict[Id, RecordImage], msgspec.Meta(max_length=MAX_ITEMS)] = {}
    exemptions: Annotated[list[ExemptionImage], msgspec.Meta(max_length=MAX_ITEMS)] = []


SourceIds = Annotated[list[Id], msgspec.Meta(max_length=MAX_ITEMS)]
Details = Annotated[dict[Text, Any], msgspec.Meta(max_length=MAX_ITEMS)]


class ExportLine(_Base):
    """One line of a JSON Lines export (`AuditEntry.to_dict(images=True)`)."""

    audit_id: Int64
    created_at: Int64
    operation: Text
    state: Text
    target_id: Id | None = None
    source_ids: SourceIds = []
    decided_by: Text | None = None
    model_id: Text | None = None
    prompt_hash: Text | None = None
    guard_passed: bool | None = None
    reverts_audit_id: Int64 | None = None
    details: Details = {}
    touched_documents: SourceIds = []
    before: AuditImage | None = None
    after: AuditImage | None = None


# ---- decoding ------------------------------------------------------------------------------------------------

_LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                             rb"|(?<![89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_NUL_PATTERN_SAID = re.compile(r"Expected str matching regex '\^\[\^\\+x00\]\*\$'")
_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _decoder(kind: Any) -> msgspec.json.Decoder[Any]:
    dec = _DECODERS.get(kind)
    if dec is None:
        dec = _DECODERS[kind] = msgspec.json.Decoder(kind)
    return dec


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when `value` (Structs, dicts, lists) nests deeper than `limit`; iterative, so any depth is safe."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, msgspec.Struct):
            children: Any = (getattr(item, f) for f in item.__struct_fields__)
        elif isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (msgspec.Struct, dict, list, tuple)))
    return False


def _why(exc: Exception, data: bytes) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, RecursionError):
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text (or a lone surrogate's bytes)"
    if isinstance(exc, msgspec.DecodeError) and _LONE_SURROGATE.search(data):
        return "a lone UTF-16 surrogate escape (e.g. \\ud800) in a string"
    if isinstance(exc, msgspec.ValidationError):
        return _NUL_PATTERN_SAID.sub("A NUL character in a body (a binary file?)", text.replace("`", ""))
    return f"not valid JSON ({text})"


def decode(data: bytes, kind: type[T] | Any, what: str) -> T:
    """`data` (JSON bytes) as `kind`, or SeamError("{what}: …") — one line saying what is wrong."""
    if len(data) > MAX_FILE_BYTES:
        raise SeamError(f"{what}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        value = _decoder(kind).decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError, ValueError) as exc:
        raise SeamError(f"{what}: {_why(exc, data)}") from None
    if _too_deep(value):
        raise SeamError(f"{what}: nested deeper than {MAX_DEPTH} levels")
    return value  # type: ignore[no-any-return]  # msgspec's Decoder(kind) is typed by its argument only at run time


def decode_plain(data: bytes, kind: Any, what: str, resolve: Callable[[Any], Any] | None = None) -> Any:
    """`data` validated as `kind` but returned as decoded (plain dicts and lists, exactly the stored shape: no
    defaults filled in), so a stored image compares equal to a fresh capture of the same rows. `resolve`, when
    given, rewrites the decoded value before it is checked (it may raise SeamError)."""
    plain: Any = decode(data, Any, what)
    if resolve is not None:
        plain = resolve(plain)
    try:
        msgspec.convert(plain, kind)
    except msgspec.ValidationError as exc:
        raise SeamError(f"{what}: {_why(exc, data)}") from None
    return plain


def builtins(value: Any) -> Any:
    """A decoded value as plain dicts, lists and scalars (what the domain types are built from)."""
    return msgspec.to_builtins(value)


def read_bytes(path: str | os.PathLike[str], what: str) -> bytes:
    """A file's bytes, bounded; every reason it cannot be read is a one-line SeamError."""
    name = str(path)
    try:
        # O_NONBLOCK: opening a named pipe nobody writes to would wait forever; once open, reads block again
        # (a pipe with no writer reads as empty, a pipe from `<(…)` is read to its end)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            os.set_blocking(fd, True)
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SeamError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise SeamError(f"{name}: is a directory, not {what}") from None
    except OSError as exc:
        raise SeamError(f"{short_path(name)}: cannot be read ({os_reason(exc)})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SeamError(f"{name}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; not {what}")
    return data


UTF8_BOM = b"\xef\xbb\xbf"


def read_file(path: str | os.PathLike[str], kind: type[T] | Any, what: str) -> T:
    """The file at `path` decoded as `kind` (a SeamError naming the file when it is not one). A leading UTF-8 BOM
    (an editor's) is dropped; a key given twice in one object is refused: which of the two a reader (or memgui)
    takes cannot be told, so a body or a stamp could be written that the person who read the file never saw."""
    data = read_bytes(path, what)
    where = f"{short_path(str(path))}: not {what}"
    data = data[len(UTF8_BOM):] if data.startswith(UTF8_BOM) else data
    value: T = decode(data, kind, where)
    _refuse_duplicate_keys(data, where)
    return value


def _refuse_duplicate_keys(data: bytes, where: str) -> None:
    """SeamError when an object of `data` (already decoded, so valid JSON no deeper than MAX_DEPTH) repeats a key."""
    import json

    def pairs(items: list[tuple[str, Any]]) -> None:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise SeamError(f"{where}: the key {short_path(key, 60)!r} is given twice in one object")
            seen.add(key)

    json.loads(data, object_pairs_hook=pairs)


def text_file(data: bytes, name: str, what: str) -> str:
    """A text file a user hands memgui (a merged body, a body to guard, a proposed memory): UTF-8, a leading BOM
    dropped (Notepad writes one; it is no part of the text), line endings kept. Refused, one line: bytes that are
    not UTF-8, a NUL (a binary file), more than MAX_TEXT_CHARS characters."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SeamError(f"{short_path(name)}: not valid UTF-8 (byte {exc.start})") from None
    if "\x00" in text:
        raise SeamError(f"{short_path(name)}: holds a NUL character (a binary file?); not {what}")
    if len(text) > MAX_TEXT_CHARS:
        raise SeamError(f"{short_path(name)}: longer than {MAX_TEXT_CHARS} characters; not {what}")
    return text


def os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "a path component is longer than the file system allows"
    return exc.strerror or type(exc).__name__


def short_path(name: str, limit: int = 120) -> str:
    """A path fit for a one-line message (a 5,000-character name is cut in the middle)."""
    name = " ".join(name.split()) if "\n" in name else name
    return name if len(name) <= limit else f"{name[:limit // 2]}…{name[-limit // 2:]}"


def check_path(name: str) -> None:
    """SeamError when a path cannot name a file on this system (a component longer than NAME_MAX, the whole
    longer than PATH_MAX, or a NUL), before anything tries to open it."""
    if "\x00" in name:
        raise SeamError(f"{short_path(name)!r}: a path cannot contain a NUL character")
    try:
        encoded = os.fsencode(name)
    except UnicodeError:
        raise SeamError(f"{short_path(name)!r}: not a path this system can encode") from None
    if len(encoded) >= 4096:
        raise SeamError(f"{short_path(name)}: the path is longer than the file system allows")
    if any(len(part) > 255 for part in encoded.split(b"/")):
        raise SeamError(f"{short_path(name)}: a path component is longer than the file system allows")


# ---- the seams ----------------------------------------------------------------------------------------------

def read_stamps_file(path: str) -> dict[str, Stamp]:
    return read_file(path, Stamps, "a stamps file ({doc id: {updated_at, content_hash}})")


def read_draft(path: str) -> DecideDraft:
    return read_file(path, DecideDraft, "a `memgui decide --json` draft")


def read_plan(path: str) -> dict[str, Any]:
    """An accept-safe plan as plain values (BatchPlan.from_dict builds it)."""
    plan: dict[str, Any] = builtins(read_file(path, PlanRecord, "an accept-safe plan (`--dry-run --json` output)"))
    return plan


def audit_image(text: str | bytes | None, where: str, resolve: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """A stored before/after image (`before_json` / `after_json`) as plain values. `resolve` puts a format 2
    image's long texts back in place (core/store/audit_texts.py) before the image is checked against its schema."""
    if text is None or text == "":
        return {}
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return dict(decode_plain(data, AuditImage, where, resolve))


def audit_details(text: str | bytes | None, where: str) -> dict[str, Any]:
    if text is None or text == "":
        return {}
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return dict(decode(data, Details, where))


def audit_source_ids(text: str | bytes | None, where: str) -> list[str]:
    if text is None or text == "":
        return []
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return list(decode(data, SourceIds, where))


def export_line(line: bytes, where: str) -> dict[str, Any]:
    """One line of a JSON Lines export as the dict `AuditEntry.to_dict(images=True)` wrote."""
    return dict(decode_plain(line, ExportLine, where))


def read_cache(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A cache file memgui wrote for itself (reviews, self-test verdicts, model quality): its JSON object, or {}
    when it is missing, unreadable, malformed, too large or too deep — a cache is never worth a refusal."""
    try:
        value: Any = decode(read_bytes(path, "a cache file"), Any, str(path))
    except SeamError:
        return {}
    return value if isinstance(value, dict) else {}


def loads_or(text: str | bytes | None, default: Any, what: str = "a stored value") -> Any:
    """JSON text memgui stored in a row of its own, or `default` when it is not valid, bounded JSON."""
    if text is None or text == "":
        return default
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    try:
        return decode(data, Any, what)
    except SeamError:
        return default


_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")


def int64(text: str) -> int:
    """An integer in SQLite's range (argparse `type=` for ids, limits and counts)."""
    shown = short_path(str(text), 40)
    if len(str(text)) > 40:  # no int64 has more than 20 characters: refuse before parsing a huge one
        raise SeamError(f"{shown!r} is not an integer in SQLite's range (±9223372036854775807)")
    # ASCII digits only, as memgui prints them: Python's int() would also take ` 5 `, `1_0` and `٥` (Arabic-Indic
    # five), so `undo ٥` would undo audit 5; an id is matched exactly, as document ids are.
    if not isinstance(text, str) or not _ASCII_INTEGER.fullmatch(text):
        raise SeamError(f"{shown!r} is not an integer (ASCII digits 0-9, an optional sign, no spaces)")
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise SeamError(f"{short_path(text, 40)} is beyond SQLite's integer range (±9223372036854775807)")
    return value


def valid_batch_id(batch_id: Any) -> bool:
    return isinstance(batch_id, str) and BATCH_ID_PATTERN.match(batch_id) is not None


__all__ = [
    "BATCH_ID_PATTERN", "INT64_MAX", "INT64_MIN", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_ID_CHARS", "MAX_ITEMS",
    "MAX_TEXT_CHARS", "AuditImage", "DecideDraft", "ExportLine", "PlanRecord", "SeamError", "Stamp", "Stamps",
    "audit_details", "audit_image", "audit_source_ids", "builtins", "check_path", "decode", "decode_plain",
    "export_line",
    "int64", "loads_or", "os_reason", "read_bytes", "read_cache", "read_draft", "read_file", "read_plan", "read_stamps_file",
    "short_path", "text_file", "valid_batch_id",
]
