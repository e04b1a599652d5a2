"""The reviewer's undo / redo history, read from the audit log: one service for the window's Ctrl+Z, the CLI's
`undo`/`redo` without an id, and (through `core.ops.undo`) `undo-batch`.

Nothing is kept beside the log, so a history cannot go stale or disagree between processes: every question is
answered from `memgui_audit` as it is now (`audit_heads`, no images read).

- **Scope.** A `HistoryScope` says whose writes count (`actors`: the audit row's decided_by, "reviewer" for the
  window, "cli" for the command line) and from when (`since_ms`: the window's session starts when it opens a
  store; the CLI's history has no start). Only reviewer operations are undone from the history (merge,
  keep-separate, allow-nomination, append-back, edit, drop) — never a curation decision of the model's.
- **Undo** offers the newest write in scope that still stands (state `applied`).
- **Redo** offers the write the newest undo in scope reverted, while it is still undone and no new write in
  scope came after that undo (a new write ends the redo chain, as in every editor); redos between are passed.
- **Limits.** Only the newest `limit` audit rows in scope are read (200 by default): older writes are undone by
  id (`memgui undo ID`, the Audit tab).
- **Refusals.** `undo_last` / `redo_last` refuse with NothingToUndoError when the history offers nothing, and
  with HistoryMovedError when the caller names the step it showed (`expected`) and the history now offers
  another (another process or tab wrote or undid since); `core.ops.undo` refuses a write whose rows changed
  since (UndoConflictError). Each refusal writes nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..store import Store
from ..store.audit_log import (
    OP_ALLOW_NOMINATION,
    OP_APPEND_BACK,
    OP_DROP,
    OP_EDIT,
    OP_KEEP_SEPARATE,
    OP_MERGE,
    OP_REDO,
    OP_UNDO,
    STATE_APPLIED,
    STATE_UNDONE,
    AuditEntry,
    AuditHead,
    Operation,
    audit_heads,
    document_row,
    entry_state,
    get_entry,
)
from .changes import MODE_APPEND, Written
from .undo import AuditError, redo, undo

REVIEWER_OPERATIONS = frozenset({OP_MERGE, OP_KEEP_SEPARATE, OP_ALLOW_NOMINATION, OP_APPEND_BACK, OP_EDIT, OP_DROP})
HISTORY_LIMIT = 200
WINDOW_ACTORS = frozenset({"reviewer"})
CLI_ACTORS = frozenset({"reviewer", "cli"})


class NothingToUndoError(AuditError):
    """The history offers nothing to undo (or redo). Nothing was written."""


class HistoryMovedError(AuditError):
    """The step the caller showed is no longer the one the history offers. Nothing was written."""


@dataclass(frozen=True)
class HistoryScope:
    actors: frozenset[str] = CLI_ACTORS
    since_ms: int = 0  # audit rows written at or after this time (ms since the epoch) only
    limit: int = HISTORY_LIMIT

    @classmethod
    def session(cls, started_ms: int, actors: Iterable[str] = WINDOW_ACTORS) -> HistoryScope:
        return cls(frozenset(actors), int(started_ms))


@dataclass(frozen=True)
class HistoryStep:
    """What Undo (or Redo) would revert now: the audited write and how a person names it."""

    audit_id: int
    operation: Operation
    description: str


@dataclass(frozen=True)
class History:
    undo: HistoryStep | None = None
    redo: HistoryStep | None = None
    scope: HistoryScope = field(default_factory=HistoryScope)


def _in_scope(head: AuditHead, scope: HistoryScope) -> bool:
    return head.decided_by in scope.actors


def _undo_id(heads: list[AuditHead], scope: HistoryScope) -> int | None:
    return next((h.audit_id for h in heads if _in_scope(h, scope) and h.operation in REVIEWER_OPERATIONS
                 and h.state == STATE_APPLIED), None)


def _redo_id(store: Store, heads: list[AuditHead], scope: HistoryScope) -> int | None:
    state = {h.audit_id: h.state for h in heads}
    for head in heads:
        if not _in_scope(head, scope) or head.operation == OP_REDO:
            continue
        if head.operation != OP_UNDO:
            if head.operation in REVIEWER_OPERATIONS:
                return None  # a new write after the undos: they are no longer redone from the history
            continue
        reverted = head.reverts_audit_id
        if reverted is not None:
            now = state.get(reverted) or entry_state(store, reverted)
            if now == STATE_UNDONE:
                return reverted
    return None


def _title(entry: AuditEntry, doc_id: str | None) -> str:
    if not doc_id:
        return "?"
    row = document_row(entry.after, doc_id) or document_row(entry.before, doc_id) or {}
    return f"“{row.get('title')}”" if row.get("title") else doc_id


def describe(entry: AuditEntry) -> str:
    """How the window and the CLI name a reviewer write (the Ctrl+Z question, the status bar)."""
    n, into = len(entry.source_ids), _title(entry, entry.target_id)
    if entry.operation == OP_MERGE:
        verb = "append" if entry.details.get("mode") == MODE_APPEND else "merge"
        return f"{verb} of {n} documents into {into}"
    if entry.operation in (OP_KEEP_SEPARATE, OP_ALLOW_NOMINATION):
        pairs = len(entry.details.get("pairs") or ())
        verb = "keep-separate" if entry.operation == OP_KEEP_SEPARATE else "allow-nomination"
        return f"{verb} of {pairs} pair(s) of {n} documents"
    if entry.operation == OP_APPEND_BACK:
        return f"append back into {into}"
    return f"{entry.operation} of {into}"


def _step(store: Store, audit_id: int | None) -> HistoryStep | None:
    entry = get_entry(store, audit_id) if audit_id is not None else None
    return None if entry is None else HistoryStep(entry.audit_id, entry.operation, describe(entry))


def history(store: Store, scope: HistoryScope) -> History:
    """What Undo and Redo would revert now (reads the newest `scope.limit` rows' heads, then one entry each)."""
    heads = audit_heads(store, since_ms=scope.since_ms, limit=scope.limit)
    return History(_step(store, _undo_id(heads, scope)), _step(store, _redo_id(store, heads, scope)), scope)


def _next(store: Store, scope: HistoryScope, action: str, expected: int | None) -> int:
    heads = audit_heads(store, since_ms=scope.since_ms, limit=scope.limit)
    audit_id = _undo_id(heads, scope) if action == "undo" else _redo_id(store, heads, scope)
    if audit_id is None:
        raise NothingToUndoError(f"nothing to {action}: no {'standing' if action == 'undo' else 'undone'} reviewer "
                                 f"write in the history; nothing was written")
    if expected is not None and audit_id != expected:
        raise HistoryMovedError(f"cannot {action} audit {expected}: the newest write to {action} is now audit "
                                f"{audit_id} (the store changed since); nothing was written")
    return audit_id


def undo_last(store: Store, scope: HistoryScope, *, expected: int | None = None, note: str | None = None) -> Written:
    """Undo the newest standing write in scope (`expected`: the one the caller showed, else refused)."""
    return undo(store, _next(store, scope, "undo", expected), note=note)


def redo_last(store: Store, scope: HistoryScope, *, expected: int | None = None, note: str | None = None) -> Written:
    """Redo the write the newest undo in scope reverted (`expected`: the one the caller showed, else refused)."""
    return redo(store, _next(store, scope, "redo", expected), note=note)


__all__ = [
    "CLI_ACTORS", "HISTORY_LIMIT", "REVIEWER_OPERATIONS", "WINDOW_ACTORS", "History", "HistoryMovedError",
    "HistoryScope", "HistoryStep", "NothingToUndoError", "describe", "history", "redo_last", "undo_last",
]
