"""Undo and redo of audited writes.

Undo puts the before-images back only if every touched row still equals its after-image, else it refuses
with UndoConflictError naming the row that changed (a document's embedding rows do not count: the daemon
re-embedding a rewritten text is not a conflict); only rows that differ are written, and a restored
document's embedding rows are deleted so the daemon re-embeds it (memgui never writes that table); redo puts the
after-images back under the same rule against the before-images. Both are audited themselves (operation `undo` /
`redo`, reverts_audit_id) and flip the original entry's state between `applied` and `undone`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..store import Store
from ..store.audit_log import (
    OP_REDO,
    OP_UNDO,
    STATE_APPLIED,
    STATE_UNDONE,
    AuditEntry,
    AuditState,
    Operation,
    Provenance,
    TextPack,
    Touched,
    capture,
    entry_state,
    get_entry,
    record_entry,
    restore,
    set_state,
    written_entry,
)
from ..store.errors import StoreError
from .changes import Written, written


class AuditError(Exception):
    """An audit entry cannot be undone/redone as asked (unknown id, wrong state). Nothing was written."""


class AuditNotFoundError(AuditError):
    """No audit entry has that id."""


class UndoConflictError(AuditError):
    """A touched row changed after the entry was applied (or undone); restoring would lose that change."""

    def __init__(self, audit_id: int, kind: str, key: str, action: Operation = OP_UNDO):
        self.audit_id, self.kind, self.key, self.action = audit_id, kind, key, action
        what = {"documents": "document", "anchors": "anchor", "records": "record", "exemptions": "exemption"}.get(kind, kind)
        super().__init__(
            f"cannot {action} audit {audit_id}: {what} {key} changed since; nothing was written"
        )

    @property
    def document_id(self) -> str | None:
        return self.key if self.kind == "documents" else None



def _content(kind: str, image: Any) -> Any:
    """What a conflict check compares: a document's row and FTS row, not its embedding rows — memgui's own
    write deleted those on purpose and the daemon re-embeds the text, which is no change of content."""
    if kind == "documents" and isinstance(image, Mapping):
        return {"row": image.get("row"), "fts": image.get("fts")}
    return image


def first_difference(store: Store, expected: Mapping[str, Any]) -> tuple[str, str] | None:
    """(kind, key) of the first touched row whose current image differs from `expected`, or None."""
    current = capture(store, Touched.from_image(expected))
    for kind in ("documents", "anchors", "records"):
        for key, value in expected.get(kind, {}).items():
            if _content(kind, current[kind].get(key)) != _content(kind, value):
                return kind, key
    now = {tuple(e["pair"]): e["row"] for e in current["exemptions"]}
    for ex in expected.get("exemptions", []):
        if now.get(tuple(ex["pair"])) != ex["row"]:
            return "exemptions", " & ".join(ex["pair"])
    return None


def _changed(target: Mapping[str, Any], expected: Mapping[str, Any]) -> dict[str, Any]:
    """The part of `target` that differs from `expected`: undo and redo put back only the rows the
    operation changed (a tombstoned source it merely read stays untouched)."""
    out: dict[str, Any] = {}
    for kind in ("documents", "anchors", "records"):
        was = expected.get(kind, {})
        out[kind] = {k: v for k, v in target.get(kind, {}).items() if _content(kind, v) != _content(kind, was.get(k))}
    was_pairs = {tuple(e["pair"]): e["row"] for e in expected.get("exemptions", [])}
    out["exemptions"] = [e for e in target.get("exemptions", []) if was_pairs.get(tuple(e["pair"])) != e["row"]]
    return out


def _require(store: Store, audit_id: int) -> AuditEntry:
    try:
        wanted = int(audit_id)
    except (TypeError, ValueError):
        raise AuditNotFoundError(f"{audit_id!r}: not an audit id") from None
    entry = get_entry(store, wanted)
    if entry is None:
        raise AuditNotFoundError(f"audit {wanted}: no such entry")
    return entry


def _read_ahead(store: Store, audit_id: int) -> AuditEntry | None:
    """The entry, read before the write lock (reading one parses its images and details: ≈ 0.2 s for a merge of
    two 1 MB notes, work that need not hold the lock); None when it cannot be read — the read inside the lock
    then says why."""
    try:
        return get_entry(store, int(audit_id))
    except (StoreError, TypeError, ValueError):
        return None


def _entry_now(store: Store, audit_id: int, ahead: AuditEntry | None) -> AuditEntry:
    """The entry inside the lock: the one read ahead with its state read again (the one column a write changes;
    its images never change), or — not read ahead — the whole row now."""
    if ahead is None or ahead.audit_id != audit_id:
        return _require(store, audit_id)
    state = entry_state(store, audit_id)
    if state is None:
        raise AuditNotFoundError(f"audit {audit_id}: no such entry")
    return replace(ahead, state=state)


def _texts_of(entry: AuditEntry | None) -> TextPack:
    """The long texts the undo's (or redo's) own audit row will hold — the entry's images, swapped —
    compressed before the write lock."""
    texts = TextPack()
    if entry is not None:
        texts.add_image(entry.before)
        texts.add_image(entry.after)
    return texts


def _revert(store: Store, entry: AuditEntry, *, expected: Mapping[str, Any], target: Mapping[str, Any], action: Operation,
            note: str | None, new_state: AuditState, texts: TextPack | None = None) -> int:
    diff = first_difference(store, expected)
    if diff is not None:
        raise UndoConflictError(entry.audit_id, diff[0], diff[1], action)
    touched = Touched.from_image(expected)
    current = capture(store, touched)
    restore(store, _changed(target, expected))
    restored = capture(store, touched)
    new_id = record_entry(
        store, operation=action, target_id=entry.target_id,
        source_ids=entry.source_ids, before=current, after=restored,
        details={"reverted_operation": entry.operation}, provenance=Provenance(decided_by="reviewer", note=note),
        reverts_audit_id=entry.audit_id, texts=texts,
    )
    set_state(store, entry.audit_id, new_state)
    return new_id


def _check_undo_state(entry: AuditEntry) -> None:
    if entry.operation in (OP_UNDO, OP_REDO):
        hint = f"use `redo {entry.reverts_audit_id}`" if entry.operation == OP_UNDO else f"use `undo {entry.reverts_audit_id}`"
        raise AuditError(f"audit {entry.audit_id} is itself an {entry.operation}; {hint}")
    if entry.state != STATE_APPLIED:
        raise AuditError(f"audit {entry.audit_id} is already undone")


def check_undo(store: Store, entry: AuditEntry) -> None:
    """Raise the AuditError `undo(entry)` would raise now (UndoConflictError when a touched row no longer holds
    its after-image); return quietly when the undo would go through. Reads only."""
    _check_undo_state(entry)
    diff = first_difference(store, entry.after)
    if diff is not None:
        raise UndoConflictError(entry.audit_id, diff[0], diff[1], OP_UNDO)


def undo(store: Store, audit_id: int, *, note: str | None = None) -> Written:
    """Restore the before-images of an applied entry if every touched row still holds its after-image;
    returns the new `undo` entry with its changes (Written). Refuses (nothing written) with UndoConflictError or AuditError.

    The entry is read and its texts compressed before the write lock; inside it, its state is read again, every
    touched row compared with its after-image, and the rows and the undo's audit row written."""
    ahead = _read_ahead(store, audit_id)
    texts = _texts_of(ahead)
    with store.transaction():
        entry = _entry_now(store, audit_id, ahead)
        _check_undo_state(entry)
        new_id = _revert(store, entry, expected=entry.after, target=entry.before, action=OP_UNDO, note=note,
                         new_state=STATE_UNDONE, texts=texts)
    return written(written_entry(store, new_id), reverted=entry)


def redo(store: Store, audit_id: int, *, note: str | None = None) -> Written:
    """Re-apply an undone entry's after-images if every touched row still holds its before-image;
    returns the new `redo` entry. The id of the `undo` entry is accepted too. Read ahead as `undo` is."""
    ahead = _read_ahead(store, audit_id)
    if ahead is not None and ahead.operation == OP_UNDO and ahead.reverts_audit_id is not None:
        ahead = _read_ahead(store, ahead.reverts_audit_id)
    texts = _texts_of(ahead)
    with store.transaction():
        entry = _entry_now(store, audit_id, ahead)
        if entry.operation == OP_UNDO and entry.reverts_audit_id is not None:
            entry = _entry_now(store, entry.reverts_audit_id, ahead)
        elif entry.operation == OP_REDO:
            raise AuditError(f"audit {entry.audit_id} is itself a redo; use `undo {entry.reverts_audit_id}`")
        if entry.state != STATE_UNDONE:
            raise AuditError(f"audit {entry.audit_id} is not undone; nothing to redo")
        new_id = _revert(store, entry, expected=entry.before, target=entry.after, action=OP_REDO, note=note,
                         new_state=STATE_APPLIED, texts=texts)
    return written(written_entry(store, new_id), reverted=entry)


__all__ = ["AuditError", "AuditNotFoundError", "UndoConflictError", "check_undo", "first_difference", "redo", "undo"]
