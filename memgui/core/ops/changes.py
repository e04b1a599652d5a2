"""What a write changed, said once: the change descriptor every core operation returns (Anki's `OpChanges`).

`Changes` names the documents whose rows the write rewrote (live after it) and tombstoned, the kept-separate
pairs it added or removed, the audit rows it wrote, the audited writes that stand because of it (a new write, or a
redo, each with its `Effect`) and those that no longer stand (an undo), and the batch it belongs to. It is derived
from the write's own audit row (`changes_of`): the before- and after-images are the record of what changed, so
the descriptor cannot disagree with the audit. Descriptors compose with `|` (a batch is the union of its writes).

Clusters are not named: a cluster is the scan's grouping, not a stored thing; a caller that shows clusters finds
those holding `documents` (the GUI's queue does, core/vectors/nominate.py clusters are keyed by their members).

`Written` is an operation's answer: its committed audit entry (an `AuditEntry`, so every reader of the entry
keeps working) with `changes` beside it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..netfx import TOMBSTONE_SEMANTICS
from ..store.audit_log import (
    OP_ALLOW_NOMINATION,
    OP_APPEND_BACK,
    OP_DECIDE_CONSOLIDATE,
    OP_DECIDE_CREATE,
    OP_DECIDE_UPDATE,
    OP_DROP,
    OP_EDIT,
    OP_KEEP_SEPARATE,
    OP_MERGE,
    OP_REDO,
    OP_UNDO,
    AuditEntry,
    document_row,
)
from .policy import MergeMode

MODE_APPEND = MergeMode.APPEND


class Effect(Enum):
    """What an audited write did, as a reviewer names it (what a queue shows for the cluster it reviewed)."""

    MERGED = "merged"
    APPENDED = "appended"  # a merge written as an append (every source kept whole under a dated separator)
    KEPT_SEPARATE = "kept separate"
    NOMINATION_ALLOWED = "nomination allowed"
    APPENDED_BACK = "appended back"
    EDITED = "edited"
    DROPPED = "dropped"
    DECIDED = "decided"  # a curation decision on a proposal (apply_decision)


_EFFECT_OF_OPERATION = {
    OP_MERGE: Effect.MERGED, OP_KEEP_SEPARATE: Effect.KEPT_SEPARATE, OP_ALLOW_NOMINATION: Effect.NOMINATION_ALLOWED,
    OP_APPEND_BACK: Effect.APPENDED_BACK, OP_EDIT: Effect.EDITED, OP_DROP: Effect.DROPPED,
    OP_DECIDE_CREATE: Effect.DECIDED, OP_DECIDE_UPDATE: Effect.DECIDED, OP_DECIDE_CONSOLIDATE: Effect.DECIDED,
}


def effect_of(entry: AuditEntry) -> Effect:
    """The effect of an audited write (not an undo or redo: those change which writes stand)."""
    if entry.operation in (OP_UNDO, OP_REDO):
        raise ValueError(f"audit {entry.audit_id} is an {entry.operation}: it has no effect of its own")
    if entry.operation == OP_MERGE and entry.details.get("mode") == MODE_APPEND:
        return Effect.APPENDED
    return _EFFECT_OF_OPERATION.get(entry.operation, Effect.DECIDED)


@dataclass(frozen=True)
class Changes:
    documents_written: frozenset[str] = frozenset()  # rows rewritten and live after the write (or restored)
    documents_tombstoned: frozenset[str] = frozenset()
    exemptions: frozenset[tuple[str, str]] = frozenset()  # kept-separate pairs added or removed (ordered pairs)
    audit_ids: tuple[int, ...] = ()  # the audit rows written, oldest first
    standing: tuple[tuple[int, Effect], ...] = ()  # audited writes that stand because of this change
    undone: tuple[int, ...] = ()  # audited writes that no longer stand because of it
    batch_id: str | None = None

    @property
    def documents(self) -> frozenset[str]:
        """Every document the change concerns: written, tombstoned, or one of a pair kept separate or let go."""
        return self.documents_written | self.documents_tombstoned | {i for pair in self.exemptions for i in pair}

    @property
    def empty(self) -> bool:
        return not (self.documents or self.audit_ids)

    def __or__(self, later: Changes) -> Changes:
        """This change, then `later`: the union of what both changed; a write the later one undid (or redid)
        no longer stands (or stands again)."""
        if not isinstance(later, Changes):
            return NotImplemented
        redone = {a for a, _e in later.standing}
        return Changes(
            self.documents_written | later.documents_written,
            (self.documents_tombstoned - later.documents_written) | later.documents_tombstoned,
            self.exemptions | later.exemptions,
            self.audit_ids + tuple(a for a in later.audit_ids if a not in self.audit_ids),
            tuple(s for s in self.standing if s[0] not in later.undone) + later.standing,
            tuple(a for a in self.undone if a not in redone) + later.undone,
            self.batch_id or later.batch_id,
        )

    def with_batch(self, batch_id: str | None) -> Changes:
        return Changes(self.documents_written, self.documents_tombstoned, self.exemptions, self.audit_ids,
                       self.standing, self.undone, batch_id)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (sorted, so equal changes print alike): what `--json` prints under "changes"."""
        return {
            "documents_written": sorted(self.documents_written),
            "documents_tombstoned": sorted(self.documents_tombstoned),
            "exemptions": [list(p) for p in sorted(self.exemptions)],
            "audit_ids": list(self.audit_ids),
            "standing": [{"audit_id": a, "effect": e.value} for a, e in self.standing],
            "undone": list(self.undone),
            "batch_id": self.batch_id,
        }


NO_CHANGES = Changes()


def combine(changes: Iterable[Changes]) -> Changes:
    """Changes one after the other, as one."""
    out = NO_CHANGES
    for change in changes:
        out = out | change
    return out


def _tombstoned(row: Mapping[str, Any] | None) -> bool:
    return row is not None and row.get("update_semantics") == TOMBSTONE_SEMANTICS


def _documents(entry: AuditEntry) -> tuple[frozenset[str], frozenset[str]]:
    """(written, tombstoned): the documents whose row differs between the entry's before- and after-images."""
    written: set[str] = set()
    tombstoned: set[str] = set()
    ids = dict.fromkeys([*(entry.before.get("documents") or {}), *(entry.after.get("documents") or {})])
    for doc_id in ids:
        before, after = document_row(entry.before, doc_id), document_row(entry.after, doc_id)
        if before == after:
            continue  # read, not changed (a merge's source that was tombstoned already; an undo's untouched row)
        (tombstoned if _tombstoned(after) or after is None else written).add(doc_id)
    return frozenset(written), frozenset(tombstoned)


def _exemptions(entry: AuditEntry) -> frozenset[tuple[str, str]]:
    before = {tuple(e["pair"]): e.get("row") for e in entry.before.get("exemptions") or []}
    after = {tuple(e["pair"]): e.get("row") for e in entry.after.get("exemptions") or []}
    return frozenset((str(a), str(b)) for (a, b) in {*before, *after} if before.get((a, b)) != after.get((a, b)))


def changes_of(entry: AuditEntry, *, reverted: AuditEntry | None = None, batch_id: str | None = None) -> Changes:
    """The descriptor of one committed write, from its audit row. An undo or redo names the write it reverted
    (`reverted`, the original entry: a redo's effect is that write's effect)."""
    written, tombstoned = _documents(entry)
    standing: tuple[tuple[int, Effect], ...] = ()
    undone: tuple[int, ...] = ()
    if entry.operation == OP_UNDO and entry.reverts_audit_id is not None:
        undone = (entry.reverts_audit_id,)
    elif entry.operation == OP_REDO and entry.reverts_audit_id is not None:
        if reverted is None or reverted.audit_id != entry.reverts_audit_id:
            raise ValueError(f"audit {entry.audit_id} redoes #{entry.reverts_audit_id}: that entry is needed")
        standing = ((entry.reverts_audit_id, effect_of(reverted)),)
    else:
        standing = ((entry.audit_id, effect_of(entry)),)
    return Changes(written, tombstoned, _exemptions(entry), (entry.audit_id,), standing, undone, batch_id)


@dataclass(frozen=True)
class Written(AuditEntry):
    """A committed write's audit entry with what it changed."""

    changes: Changes = field(default=NO_CHANGES, hash=False)

    @classmethod
    def of(cls, entry: AuditEntry, changes: Changes) -> Written:
        return cls(entry.audit_id, entry.created_at, entry.operation, entry.target_id, entry.source_ids,
                   entry.decided_by, entry.model_id, entry.prompt_hash, entry.guard_passed, entry.state,
                   entry.reverts_audit_id, entry.details, entry.before, entry.after, changes)


def written(entry: AuditEntry, *, reverted: AuditEntry | None = None, batch_id: str | None = None) -> Written:
    """`entry` (just committed) with its change descriptor."""
    return Written.of(entry, changes_of(entry, reverted=reverted, batch_id=batch_id))


__all__ = ["NO_CHANGES", "Changes", "Effect", "Written", "changes_of", "combine", "effect_of", "written"]
