"""memgui's audit trail (`memgui_audit`): one row per write, with full before- and after-images of every
row the write touched, written in the same transaction as the write itself. Undo and redo replay these
images (`core/ops/undo.py`).

An image is a JSON object (format 1; format 2 stores its long texts once, compressed, in the row's `texts`
column and refers to them — core/store/audit_texts.py; both read back as this):
    {"documents":  {doc_id: {"row": {...}|null, "fts": {...}|null, "embeddings": [{...}, ...]}},
     "anchors":    {anchor_id: {...}|null},
     "records":    {record_id: {"row": {...}|null, "fts": {...}|null}},
     "exemptions": [{"pair": [first_id, second_id], "row": {...}|null}]}
Rows are every column exactly as stored (legacy extra columns too); null means "the row did not exist".
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from peewee import Value, fn

from ..netfx import StrEnum
from . import audit_texts, exemptions as exemptions_mod, seams
from .audit_texts import TextPack
from .errors import StoreError
from .models import TableModel
from .store import Store
from .values import RawText, now_ms


class Operation(StrEnum):
    """What an audit row records (the `operation` column, written as the value)."""

    DECIDE_CREATE = "decide-create"  # apply_decision wrote a proposal (new row, or appended on an anchor collision)
    DECIDE_UPDATE = "decide-update"  # apply_decision: Update (guarded merge-or-append, or deterministic overwrite)
    DECIDE_CONSOLIDATE = "decide-consolidate"
    MERGE = "merge"  # a reviewer merged a cluster into a target
    DROP = "drop"  # a reviewer tombstoned a redundant document
    EDIT = "edit"  # a reviewer edited a document's body
    KEEP_SEPARATE = "keep-separate"  # exemptions added
    ALLOW_NOMINATION = "allow-nomination"  # exemptions removed
    APPEND_BACK = "append-back"  # facts a past merge lost, appended back to its target (forensics/recheck.py)
    UNDO = "undo"
    REDO = "redo"

    @classmethod
    def read(cls, value: str) -> Operation:
        """A stored (or asked-for) operation. One this version does not know — a newer memgui wrote it — is not
        an error: it reads as an unnamed Operation (`known` False) carrying the raw value, so the row still
        lists, prints and exports exactly as written, and nothing of this version treats it as one of its own
        (it equals no member: no undo rule, no effect, no recheck applies). `Operation(value)` stays strict."""
        return _read(cls, value)

    @property
    def known(self) -> bool:
        return self._name_ != _UNKNOWN


class AuditState(StrEnum):
    """Whether an audited write stands (the `state` column, written as the value)."""

    APPLIED = "applied"
    UNDONE = "undone"

    @classmethod
    def read(cls, value: str) -> AuditState:
        """A stored state; one this version does not know reads as an unnamed AuditState carrying the raw value
        (as `Operation.read`): the row lists as written, and neither undo nor redo takes it."""
        return _read(cls, value)

    @property
    def known(self) -> bool:
        return self._name_ != _UNKNOWN


_UNKNOWN = "UNKNOWN"
_E = TypeVar("_E", Operation, AuditState)


def _read(cls: type[_E], value: str) -> _E:
    """The member of `value`, else an unnamed instance of `cls` carrying it (never added to the members)."""
    try:
        return cls(value)
    except ValueError:
        unknown = str.__new__(cls, value)
        unknown._name_, unknown._value_ = _UNKNOWN, value
        return unknown


# The members' former names (the `operation` column's values).
OP_DECIDE_CREATE, OP_DECIDE_UPDATE = Operation.DECIDE_CREATE, Operation.DECIDE_UPDATE
OP_DECIDE_CONSOLIDATE, OP_MERGE, OP_DROP = Operation.DECIDE_CONSOLIDATE, Operation.MERGE, Operation.DROP
OP_EDIT, OP_KEEP_SEPARATE, OP_ALLOW_NOMINATION = Operation.EDIT, Operation.KEEP_SEPARATE, Operation.ALLOW_NOMINATION
OP_APPEND_BACK, OP_UNDO, OP_REDO = Operation.APPEND_BACK, Operation.UNDO, Operation.REDO

STATE_APPLIED, STATE_UNDONE = AuditState.APPLIED, AuditState.UNDONE

_COLUMNS = (
    "audit_id", "created_at", "operation", "target_id", "source_ids_json", "decided_by", "model_id",
    "prompt_hash", "guard_passed", "state", "reverts_audit_id", "details_json", "before_json", "after_json",
)


@dataclass(frozen=True)
class Provenance:
    """Who or what decided a write, and why (stored in the audit row)."""

    decided_by: str = "reviewer"  # "reviewer" | "llm" | "rules" | "cli"
    model_id: str | None = None
    prompt_hash: str | None = None
    raw_reply: str | None = None
    rationale: str | None = None
    cosines: tuple[tuple[str, str, float], ...] = ()  # (doc a, doc b, cosine)
    note: str | None = None
    prompt: str | None = None  # the exact prompt text the model saw (its hash is prompt_hash)

    def details(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "raw_reply": self.raw_reply,
            "rationale": self.rationale,
            "cosines": [[a, b, float(c)] for a, b, c in self.cosines],
            "note": self.note,
        }


@dataclass(frozen=True)
class Touched:
    """The rows a write touches (captured before and after)."""

    documents: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    records: tuple[str, ...] = ()
    exemptions: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(documents: Iterable[str] = (), anchors: Iterable[str] = (), records: Iterable[str] = (),
           exemptions: Iterable[tuple[str, str]] = ()) -> Touched:
        return Touched(
            tuple(dict.fromkeys(documents)), tuple(dict.fromkeys(anchors)), tuple(dict.fromkeys(records)),
            tuple(dict.fromkeys(exemptions_mod.ordered_pair(a, b) for a, b in exemptions)),
        )

    @staticmethod
    def from_image(image: Mapping[str, Any]) -> Touched:
        return Touched.of(
            image.get("documents", {}), image.get("anchors", {}), image.get("records", {}),
            [tuple(e["pair"]) for e in image.get("exemptions", [])],
        )


@dataclass(frozen=True)
class AuditEntry:
    audit_id: int
    created_at: int
    operation: Operation  # Operation.read of the stored column
    target_id: str | None
    source_ids: tuple[str, ...]
    decided_by: str | None
    model_id: str | None
    prompt_hash: str | None
    guard_passed: bool | None
    state: AuditState  # AuditState.read of the stored column
    reverts_audit_id: int | None
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    before: Mapping[str, Any] = field(default_factory=dict, hash=False, repr=False)
    after: Mapping[str, Any] = field(default_factory=dict, hash=False, repr=False)

    # convenience views of `details`
    @property
    def note(self) -> str | None:
        return self.details.get("note")

    @property
    def rationale(self) -> str | None:
        return self.details.get("rationale")

    @property
    def raw_reply(self) -> str | None:
        return self.details.get("raw_reply")

    @property
    def prompt(self) -> str | None:
        return self.details.get("prompt")

    @property
    def guard_report(self) -> Mapping[str, Any] | None:
        return self.details.get("guard")

    @property
    def guard_override(self) -> bool:
        return bool(self.details.get("guard_override"))

    @property
    def cosines(self) -> list[Any]:
        return list(self.details.get("cosines") or [])

    @property
    def touched_documents(self) -> tuple[str, ...]:
        return tuple(self.after.get("documents", {}) or self.before.get("documents", {}))

    def to_dict(self, *, images: bool = False) -> dict[str, Any]:
        d = {
            "audit_id": self.audit_id, "created_at": self.created_at, "operation": self.operation,
            "target_id": self.target_id, "source_ids": list(self.source_ids), "decided_by": self.decided_by,
            "model_id": self.model_id, "prompt_hash": self.prompt_hash, "guard_passed": self.guard_passed,
            "state": self.state, "reverts_audit_id": self.reverts_audit_id, "details": dict(self.details),
            "touched_documents": list(self.touched_documents),
        }
        if images:
            d["before"], d["after"] = dict(self.before), dict(self.after)
        return d


# ---- images ----------------------------------------------------------------------------------------

def _encode(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": bytes(value).hex()}
    if isinstance(value, RawText):  # TEXT that is not valid UTF-8: its exact bytes
        return {"$text": value.data.hex()}
    raise TypeError(f"cannot store {type(value).__name__} in an audit image")


def _decode_row(row: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {k: _decode_value(v) for k, v in row.items()}


def _decode_value(value: Any) -> Any:
    if isinstance(value, dict) and "$bytes" in value:
        return bytes.fromhex(value["$bytes"])
    if isinstance(value, dict) and "$text" in value:
        return RawText(bytes.fromhex(value["$text"]))
    return value


def document_row(image: Mapping[str, Any], doc_id: str) -> dict[str, Any] | None:
    """A document's row as an image holds it (values decoded as stored), or None when it did not exist."""
    doc_image = (image.get("documents") or {}).get(doc_id) or {}
    row = doc_image.get("row") if isinstance(doc_image, Mapping) else None
    return _decode_row(row) if isinstance(row, Mapping) else None


def _dumps(value: Any) -> str:
    return json.dumps(value, default=_encode, ensure_ascii=False, sort_keys=True, allow_nan=False)


def _normal(value: Any) -> Any:
    """The value as it reads back from the audit row (bytes tagged, tuples as lists)."""
    return audit_texts.normal(value)


def _record_image(store: Store, record_id: str) -> dict[str, Any]:
    return {"row": store.images.row_image("memory_records", "record_id", record_id),
            "fts": store.images.row_image("memory_records_fts", "record_id", record_id)}


def capture(store: Store, touched: Touched) -> dict[str, Any]:
    """The current image of every touched row (JSON-normal, comparable with a stored image)."""
    image = {
        "documents": {d: store.images.document_image(d) for d in touched.documents},
        "anchors": {a: store.images.row_image("memory_anchors", "anchor_id", a) for a in touched.anchors},
        "records": {r: _record_image(store, r) for r in touched.records},
        "exemptions": [{"pair": [f, s], "row": exemptions_mod.exemption_row(store, f, s)} for f, s in touched.exemptions],
    }
    try:
        normal: dict[str, Any] = _normal(image)
    except ValueError:  # an infinite number in a row (SQLite stores ±Inf; JSON has no such number)
        raise StoreError(f"{store.path}: a row this write touches holds an infinite number, which the audit trail "
                         "cannot record (so the write could not be undone); nothing was written") from None
    return normal


def restore(store: Store, image: Mapping[str, Any]) -> None:
    """Put every row of `image` back exactly. The caller holds the transaction."""
    for doc_id, doc_image in image.get("documents", {}).items():
        doc_image = dict(doc_image)
        doc_image["row"] = _decode_row(doc_image.get("row"))
        doc_image["fts"] = _decode_row(doc_image.get("fts"))
        store.images.restore_document_image(doc_id, doc_image)
    for anchor_id, row in image.get("anchors", {}).items():
        store.images.restore_row("memory_anchors", "anchor_id", anchor_id, _decode_row(row))
    for record_id, rec in image.get("records", {}).items():
        store.images.restore_row("memory_records", "record_id", record_id, _decode_row(rec.get("row")))
        store.images.restore_row("memory_records_fts", "record_id", record_id, _decode_row(rec.get("fts")))
    for ex in image.get("exemptions", []):
        first, second = ex["pair"]
        exemptions_mod.restore_exemption_row(store, first, second, ex["row"])


# ---- writing and reading entries ---------------------------------------------------------------------

def record_entry(
    store: Store,
    *,
    operation: Operation,
    target_id: str | None,
    source_ids: Iterable[str],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    details: Mapping[str, Any] | None = None,
    provenance: Provenance | None = None,
    guard_passed: bool | None = None,
    reverts_audit_id: int | None = None,
    state: AuditState = STATE_APPLIED,
    texts: TextPack | None = None,
    details_json: str | None = None,
) -> int:
    """Insert one audit row; returns its id. Must run inside the transaction that made the change.

    The images' long texts are stored once, compressed (format 2, core/store/audit_texts.py): the ones in
    `texts` were compressed before the lock; any other is compressed here. `details_json` is the details as
    `details_json_of(provenance, details)` serialised them before the lock (they are known then)."""
    prov = provenance or Provenance()
    if details_json is None:
        details_json = details_json_of(prov, details)
    Au = _model(store)
    values = {
        Au.created_at: now_ms(), Au.operation: operation, Au.target_id: target_id,
        Au.source_ids_json: _dumps(list(source_ids)), Au.decided_by: prov.decided_by, Au.model_id: prov.model_id,
        Au.prompt_hash: prov.prompt_hash, Au.guard_passed: None if guard_passed is None else int(bool(guard_passed)),
        Au.state: state, Au.reverts_audit_id: reverts_audit_id, Au.details_json: details_json,
    }
    texts_column = Au._meta.columns.get("texts")
    if texts_column is None:  # a store whose audit table predates format 2: format 1, every text inline
        values.update({Au.before_json: _dumps(before), Au.after_json: _dumps(after)})
    else:
        pack = texts if texts is not None else TextPack()
        values.update({Au.before_json: _dumps(pack.refer(before)), Au.after_json: _dumps(pack.refer(after))})
        if len(details_json) >= LONG_DETAILS:  # the details' JSON text itself, stored as one of the texts
            values[Au.details_json] = _dumps(pack.refer({"d": details_json})["d"])
        try:
            values[texts_column] = pack.blob()
        except seams.SeamError as exc:  # memgui could not read this row back, so the write could not be undone
            raise StoreError(f"{store.path}: {exc}, so this write could not be undone; nothing was written") from None
    return int(store._run(Au.insert(values)))


# details this long are stored as one of the row's texts (format 2): a merge's guard report lists every
# load-bearing token, ≈ 3 MB of JSON for two 1 MB notes, more than the WAL frames of its images
LONG_DETAILS = 64 * 1024


def prepared_texts(texts: Iterable[str | None], details_json: str | None = None) -> TextPack:
    """The long texts an audit row will hold, compressed now, before the write lock: `texts` (the bodies its
    images will hold) and its details' JSON when that is long enough to be stored as a text."""
    long_details = details_json if details_json is not None and len(details_json) >= LONG_DETAILS else None
    return TextPack([*texts, long_details])


def details_json_of(provenance: Provenance | None, details: Mapping[str, Any] | None) -> str:
    """An audit row's `details_json` (the provenance's fields, then `details`): a write serialises it before its
    transaction (a merge's guard report lists every load-bearing token: ≈ 45 ms of JSON for two 1 MB notes)."""
    return _dumps({**(provenance or Provenance()).details(), **(details or {})})


def _model(store: Store) -> TableModel:
    Au = store.m.audit
    if Au is None:
        raise StoreError(f"{store.path}: memgui's audit table is missing (store opened read-only?); nothing was written")
    return _checked(store, Au)


def _checked(store: Store, Au: TableModel) -> TableModel:
    """`Au`, when the store's memgui_audit has the columns memgui gives it (another tool may have made a table
    of that name); else StoreError."""
    lacking = [c for c in _COLUMNS if c not in Au._meta.columns]
    if lacking:
        raise StoreError(f"{store.path}: its memgui_audit table is not memgui's (it lacks {', '.join(lacking[:4])}"
                         f"{', …' if len(lacking) > 4 else ''}); nothing was read or written")
    return Au


def _select(Au: TableModel) -> Any:
    texts = Au._meta.columns.get("texts")
    return Au.select(*(Au._meta.columns[c] for c in _COLUMNS), texts if texts is not None else Value(None))


class AuditRowError(StoreError):
    """An audit row that is not what memgui writes (an image that is not JSON, or not an image): one line."""


def _text(value: Any, where: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, RawText):
        raise AuditRowError(f"{where}: not UTF-8 text; nothing was written")
    raise AuditRowError(f"{where}: a {type(value).__name__} where text belongs; nothing was written")


def _entry(row: tuple[Any, ...]) -> AuditEntry:
    """One audit row, every JSON column parsed and validated by its schema (core/store/seams.py)."""
    r = dict(zip((*_COLUMNS, "texts"), row))
    audit_id = r["audit_id"]
    where = f"audit {audit_id}"
    try:
        def column(name: str, parse: Callable[[str | None, str], Any]) -> Any:
            return parse(_text(r[name], f"{where}: {name}"), f"{where}: {name} is not valid")

        unpacked: list[list[str]] = []

        def texts() -> list[str]:  # the row's texts column, decompressed once
            if not unpacked:
                unpacked.append(audit_texts.unpack(r["texts"], where))
            return unpacked[0]

        def image(name: str) -> Any:  # format 1, or format 2's references resolved, then checked by the schema
            return seams.audit_image(_text(r[name], f"{where}: {name}"), f"{where}: {name} is not valid",
                                     resolve=lambda plain: audit_texts.resolve(plain, texts(), f"{where}: {name}"))

        def details() -> Any:  # inline, or (format 2, long details) a reference to their JSON text
            parsed = column("details_json", seams.audit_details)
            if set(parsed) != {audit_texts.REF}:
                return parsed
            text = audit_texts.resolve(parsed, texts(), f"{where}: details_json")
            if not isinstance(text, str):
                raise seams.SeamError(f"{where}: details_json refers to a text that is not details")
            return seams.audit_details(text, f"{where}: details_json is not valid")

        return AuditEntry(
            audit_id=int(audit_id), created_at=int(r["created_at"] or 0), operation=Operation.read(str(r["operation"])),
            target_id=_text(r["target_id"], f"{where}: target_id"),
            source_ids=tuple(column("source_ids_json", seams.audit_source_ids)),
            decided_by=_text(r["decided_by"], f"{where}: decided_by"), model_id=_text(r["model_id"], f"{where}: model_id"),
            prompt_hash=_text(r["prompt_hash"], f"{where}: prompt_hash"),
            guard_passed=None if r["guard_passed"] is None else bool(r["guard_passed"]), state=AuditState.read(str(r["state"])),
            reverts_audit_id=None if r["reverts_audit_id"] is None else int(r["reverts_audit_id"]),
            details=details(),
            before=image("before_json"), after=image("after_json"),
        )
    except seams.SeamError as exc:
        raise AuditRowError(f"{exc}; nothing was written") from None
    except (TypeError, ValueError) as exc:
        raise AuditRowError(f"{where}: a malformed audit row ({exc}); nothing was written") from None


def get_entry(store: Store, audit_id: int) -> AuditEntry | None:
    Au = store.m.audit
    if Au is None:
        return None
    row = store._first(_select(_checked(store, Au)).where(Au.audit_id == int(audit_id)))
    return _entry(row) if row else None


def entry_state(store: Store, audit_id: int) -> AuditState | None:
    """An entry's state alone (applied | undone), or None when there is no such entry: what undo and redo read
    again inside their lock about an entry they read whole before it (its images never change)."""
    Au = store.m.audit
    if Au is None:
        return None
    row = store._first(_checked(store, Au).select(Au.state).where(Au.audit_id == int(audit_id)))
    return None if row is None else AuditState.read(str(row[0]))


def written_entry(store: Store, audit_id: int) -> AuditEntry:
    """The entry a write just committed (it is there: the write and its audit row are one transaction)."""
    entry = get_entry(store, audit_id)
    if entry is None:
        raise StoreError(f"{store.path}: audit entry #{audit_id} was written but cannot be read back")
    return entry


def list_entries(
    store: Store,
    *,
    operation: Operation | Iterable[Operation] | None = None,
    document_id: str | None = None,
    guard_passed: bool | None = None,
    model_id: str | None = None,
    state: AuditState | None = None,
    limit: int | None = None,
) -> list[AuditEntry]:
    """Audit entries, newest first, filtered. `document_id` matches the target, a source or any touched
    document."""
    Au = store.m.audit
    if Au is None:
        return []
    query = _select(_checked(store, Au))
    if operation is not None:
        query = query.where(Au.operation.in_([operation] if isinstance(operation, str) else list(operation)))
    if document_id is not None:
        query = query.where(
            (Au.target_id == document_id)
            | (fn.instr(Au.source_ids_json, json.dumps(document_id)) > 0)
            | (fn.instr(Au.after_json, json.dumps(document_id) + ": {") > 0)
        )
    if guard_passed is not None:
        query = query.where(Au.guard_passed == int(bool(guard_passed)))
    if model_id is not None:
        query = query.where(Au.model_id == model_id)
    if state is not None:
        query = query.where(Au.state == state)
    query = query.order_by(Au.audit_id.desc())
    if limit is not None:
        query = query.limit(max(0, int(limit)))
    return [_entry(row) for row in store._tuples(query)]


@dataclass(frozen=True)
class AuditHead:
    """An audit row's columns that say what it is and whether it stands, without its images (cheap to read)."""

    audit_id: int
    created_at: int
    operation: Operation  # Operation.read of the stored column
    decided_by: str | None
    state: AuditState  # AuditState.read of the stored column
    reverts_audit_id: int | None


def audit_heads(store: Store, *, since_ms: int = 0, limit: int = 200) -> list[AuditHead]:
    """The newest `limit` rows written at or after `since_ms`, newest first, without their images."""
    Au = store.m.audit
    if Au is None:
        return []
    query = (_checked(store, Au).select(Au.audit_id, Au.created_at, Au.operation, Au.decided_by, Au.state,
                                        Au.reverts_audit_id)
             .where(Au.created_at >= int(since_ms)).order_by(Au.audit_id.desc()).limit(max(0, int(limit))))
    return [AuditHead(int(a), int(c or 0), Operation.read(str(o)), None if d is None else str(d),
                      AuditState.read(str(s)), None if r is None else int(r))
            for a, c, o, d, s, r in store._tuples(query)]


def set_state(store: Store, audit_id: int, state: AuditState) -> None:
    """Flip an entry between applied and undone (the caller holds the transaction)."""
    Au = _model(store)
    store._run(Au.update({Au.state: state}).where(Au.audit_id == audit_id))


__all__ = [
    "AuditEntry",
    "AuditHead",
    "AuditRowError",
    "AuditState",
    "Operation",
    "Provenance",
    "TextPack",
    "Touched",
    "audit_heads",
    "capture",
    "details_json_of",
    "document_row",
    "entry_state",
    "get_entry",
    "list_entries",
    "prepared_texts",
    "record_entry",
    "restore",
    "set_state",
]
