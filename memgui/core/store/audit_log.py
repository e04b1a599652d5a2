"""memgui's audit trail (`memgui_audit`): one row per write, with full before- and after-images of every
row the write touched, written in the same transaction as the write itself. Undo and redo replay these
images (`core/ops/undo.py`).

An image is a JSON object:
    {"documents":  {doc_id: {"row": {...}|null, "fts": {...}|null, "embeddings": [{...}, ...]}},
     "anchors":    {anchor_id: {...}|null},
     "records":    {record_id: {"row": {...}|null, "fts": {...}|null}},
     "exemptions": [{"pair": [first_id, second_id], "row": {...}|null}]}
Rows are every column exactly as stored (legacy extra columns too); null means "the row did not exist".
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from . import exemptions as exemptions_mod
from .store import Store
from .values import now_ms

# Operations (the `operation` column).
OP_DECIDE_CREATE = "decide-create"  # apply_decision wrote a proposal (new row, or appended on an anchor collision)
OP_DECIDE_UPDATE = "decide-update"  # apply_decision: Update (guarded merge-or-append, or deterministic overwrite)
OP_DECIDE_CONSOLIDATE = "decide-consolidate"
OP_MERGE = "merge"  # a reviewer merged a cluster into a target
OP_DROP = "drop"  # a reviewer tombstoned a redundant document
OP_EDIT = "edit"  # a reviewer edited a document's body
OP_KEEP_SEPARATE = "keep-separate"  # exemptions added
OP_ALLOW_NOMINATION = "allow-nomination"  # exemptions removed
OP_UNDO = "undo"
OP_REDO = "redo"

STATE_APPLIED = "applied"
STATE_UNDONE = "undone"

TABLE = "memgui_audit"
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

    def details(self) -> dict:
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
           exemptions: Iterable[tuple[str, str]] = ()) -> "Touched":
        return Touched(
            tuple(dict.fromkeys(documents)), tuple(dict.fromkeys(anchors)), tuple(dict.fromkeys(records)),
            tuple(dict.fromkeys(exemptions_mod.ordered_pair(a, b) for a, b in exemptions)),
        )

    @staticmethod
    def from_image(image: Mapping) -> "Touched":
        return Touched.of(
            image.get("documents", {}), image.get("anchors", {}), image.get("records", {}),
            [tuple(e["pair"]) for e in image.get("exemptions", [])],
        )


@dataclass(frozen=True)
class AuditEntry:
    audit_id: int
    created_at: int
    operation: str
    target_id: str | None
    source_ids: tuple[str, ...]
    decided_by: str | None
    model_id: str | None
    prompt_hash: str | None
    guard_passed: bool | None
    state: str
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
    def guard_report(self) -> Mapping | None:
        return self.details.get("guard")

    @property
    def guard_override(self) -> bool:
        return bool(self.details.get("guard_override"))

    @property
    def cosines(self) -> list:
        return list(self.details.get("cosines") or [])

    @property
    def touched_documents(self) -> tuple[str, ...]:
        return tuple(self.after.get("documents", {}) or self.before.get("documents", {}))

    def to_dict(self, *, images: bool = False) -> dict:
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
    raise TypeError(f"cannot store {type(value).__name__} in an audit image")


def _decode_row(row: Mapping | None) -> dict | None:
    if row is None:
        return None
    return {k: bytes.fromhex(v["$bytes"]) if isinstance(v, dict) and "$bytes" in v else v for k, v in row.items()}


def _dumps(value: Any) -> str:
    return json.dumps(value, default=_encode, ensure_ascii=False, sort_keys=True, allow_nan=False)


def _normal(value: Any) -> Any:
    """The value as it reads back from the audit row (bytes tagged, tuples as lists)."""
    return json.loads(_dumps(value))


def _record_image(store: Store, record_id: str) -> dict:
    row = store.row_image("memory_records", "record_id", record_id) if store.has_table("memory_records") else None
    fts = None
    if store.has_table("memory_records_fts"):
        hit = store.execute(
            "SELECT record_id, title, body, aliases, facets FROM memory_records_fts WHERE record_id = ?", (record_id,)
        ).fetchone()
        fts = None if hit is None else dict(zip(("record_id", "title", "body", "aliases", "facets"), hit))
    return {"row": row, "fts": fts}


def capture(store: Store, touched: Touched) -> dict:
    """The current image of every touched row (JSON-normal, comparable with a stored image)."""
    image = {
        "documents": {d: store.document_image(d) for d in touched.documents},
        "anchors": {a: store.row_image("memory_anchors", "anchor_id", a) for a in touched.anchors},
        "records": {r: _record_image(store, r) for r in touched.records},
        "exemptions": [{"pair": [f, s], "row": exemptions_mod.exemption_row(store, f, s)} for f, s in touched.exemptions],
    }
    return _normal(image)


def _insert_row(store: Store, table: str, row: Mapping) -> None:
    cols = list(row)
    store.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", [row[c] for c in cols])


def restore(store: Store, image: Mapping) -> None:
    """Put every row of `image` back exactly. The caller holds the transaction."""
    for doc_id, doc_image in image.get("documents", {}).items():
        doc_image = dict(doc_image)
        doc_image["row"] = _decode_row(doc_image.get("row"))
        store.restore_document_image(doc_id, doc_image)
    for anchor_id, row in image.get("anchors", {}).items():
        store.execute("DELETE FROM memory_anchors WHERE anchor_id = ?", (anchor_id,))
        if row is not None:
            _insert_row(store, "memory_anchors", _decode_row(row))
    for record_id, rec in image.get("records", {}).items():
        store.execute("DELETE FROM memory_records WHERE record_id = ?", (record_id,))
        if rec.get("row") is not None:
            _insert_row(store, "memory_records", _decode_row(rec["row"]))
        if store.has_table("memory_records_fts"):
            store.execute("DELETE FROM memory_records_fts WHERE record_id = ?", (record_id,))
            if rec.get("fts") is not None:
                _insert_row(store, "memory_records_fts", rec["fts"])
    for ex in image.get("exemptions", []):
        first, second = ex["pair"]
        exemptions_mod.restore_exemption_row(store, first, second, ex["row"])


# ---- writing and reading entries ---------------------------------------------------------------------

def record_entry(
    store: Store,
    *,
    operation: str,
    target_id: str | None,
    source_ids: Iterable[str],
    before: Mapping,
    after: Mapping,
    details: Mapping | None = None,
    provenance: Provenance | None = None,
    guard_passed: bool | None = None,
    reverts_audit_id: int | None = None,
    state: str = STATE_APPLIED,
) -> int:
    """Insert one audit row; returns its id. Must run inside the transaction that made the change."""
    prov = provenance or Provenance()
    all_details = {**prov.details(), **(details or {})}
    cursor = store.execute(
        f"INSERT INTO {TABLE} (created_at, operation, target_id, source_ids_json, decided_by, model_id, prompt_hash, "
        "guard_passed, state, reverts_audit_id, details_json, before_json, after_json) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            now_ms(), operation, target_id, _dumps(list(source_ids)), prov.decided_by, prov.model_id,
            prov.prompt_hash, None if guard_passed is None else int(bool(guard_passed)), state, reverts_audit_id,
            _dumps(all_details), _dumps(before), _dumps(after),
        ),
    )
    return int(cursor.lastrowid)


def _entry(row: tuple) -> AuditEntry:
    r = dict(zip(_COLUMNS, row))
    return AuditEntry(
        audit_id=int(r["audit_id"]), created_at=int(r["created_at"]), operation=r["operation"],
        target_id=r["target_id"], source_ids=tuple(json.loads(r["source_ids_json"] or "[]")),
        decided_by=r["decided_by"], model_id=r["model_id"], prompt_hash=r["prompt_hash"],
        guard_passed=None if r["guard_passed"] is None else bool(r["guard_passed"]), state=r["state"],
        reverts_audit_id=r["reverts_audit_id"], details=json.loads(r["details_json"] or "{}"),
        before=json.loads(r["before_json"] or "{}"), after=json.loads(r["after_json"] or "{}"),
    )


def get_entry(store: Store, audit_id: int) -> AuditEntry | None:
    if not store.has_table(TABLE):
        return None
    row = store.execute(f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} WHERE audit_id = ?", (int(audit_id),)).fetchone()
    return _entry(row) if row else None


def list_entries(
    store: Store,
    *,
    operation: str | Iterable[str] | None = None,
    document_id: str | None = None,
    guard_passed: bool | None = None,
    model_id: str | None = None,
    state: str | None = None,
    limit: int | None = None,
) -> list[AuditEntry]:
    """Audit entries, newest first, filtered. `document_id` matches the target, a source or any touched
    document."""
    if not store.has_table(TABLE):
        return []
    where, params = [], []
    if operation is not None:
        ops = [operation] if isinstance(operation, str) else list(operation)
        where.append(f"operation IN ({', '.join('?' * len(ops))})")
        params += ops
    if document_id is not None:
        where.append("(target_id = ? OR instr(source_ids_json, ?) > 0 OR instr(after_json, ?) > 0)")
        params += [document_id, json.dumps(document_id), json.dumps(document_id) + ": {"]
    if guard_passed is not None:
        where.append("guard_passed = ?")
        params.append(int(bool(guard_passed)))
    if model_id is not None:
        where.append("model_id = ?")
        params.append(model_id)
    if state is not None:
        where.append("state = ?")
        params.append(state)
    sql = f"SELECT {', '.join(_COLUMNS)} FROM {TABLE}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY audit_id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(max(0, int(limit)))
    return [_entry(row) for row in store.execute(sql, params).fetchall()]


def set_state(store: Store, audit_id: int, state: str) -> None:
    """Flip an entry between applied and undone (the caller holds the transaction)."""
    store.execute(f"UPDATE {TABLE} SET state = ? WHERE audit_id = ?", (state, audit_id))


__all__ = [
    "AuditEntry", "Provenance", "Touched", "capture", "get_entry", "list_entries", "record_entry", "restore",
    "set_state",
]
