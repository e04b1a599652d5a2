"""The Audit tab's writes: undo and redo of an audited write, removing kept-separate pairs, and appending a merge's
lost facts back. Each is one core call on the task runner; the result comes back as `written` (the banner text,
the audit row to select, its change descriptor) or `failed` (the core's message, one line).

Holds only what a write needs: the audit services, the runner, the open store and the question Ctrl+Z asks
(`confirm_revert`); the `AuditView` shows what comes back."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal

from ..services import AuditServices
from ..services.types import Exemption, Operation, RecheckedMerge, Store, Written
from ..services.values import combine
from ..workers import TaskRunner, one_line

ConfirmRevert = Callable[[Operation, str, int], bool]  # (action, what, audit id) -> go ahead


class AuditWrites(QObject):
    written = Signal(str, object, object)  # banner text, audit id to select (int | None), the write's Changes
    failed = Signal(str)  # the core's message

    def __init__(self, services: AuditServices, runner: TaskRunner, parent: QObject | None = None):
        super().__init__(parent)
        self.services, self.runner = services, runner
        self.store: Store | None = None
        self.confirm_revert: ConfirmRevert | None = None  # None: a bare view asks nothing

    def revert(self, action: Operation, audit_id: int, desc: str) -> None:
        """Undo (`action` Operation.UNDO) or redo audit row `audit_id` after the Ctrl+Z question, when one is set."""
        if self.confirm_revert is not None and not self.confirm_revert(action, desc, audit_id):
            return
        store, revert = self.store, (self.services.undo if action == Operation.UNDO else self.services.redo)
        if store is None:
            return

        def done(new_entry: Written) -> None:
            verb = "Undid" if action == Operation.UNDO else "Redid"
            self.written.emit(f"{verb} #{audit_id} (recorded as #{new_entry.audit_id}).", audit_id,
                              new_entry.changes)

        self.runner.start(f"audit-{action}", lambda cancel: revert(store, audit_id),
                          label=f"{action.capitalize()} #{audit_id}", on_done=done, on_error=self._failed)

    def remove_exemptions(self, pairs: Sequence[Exemption]) -> None:
        """Let each kept-separate pair be nominated again (one audited write per pair)."""
        store, allow_nomination = self.store, self.services.allow_nomination
        if not pairs or store is None:
            return

        def work(cancel: object) -> list[Written]:
            return [allow_nomination(store, [x.first_id, x.second_id], note="removed in the audit view") for x in pairs]

        def done(entries: list[Written]) -> None:
            ids = ", ".join(f"#{e.audit_id}" for e in entries)
            self.written.emit(f"Removed {len(entries)} kept-separate pair(s); they may be nominated again ({ids}, "
                              "undoable).", entries[-1].audit_id if entries else None,
                              combine(e.changes for e in entries))

        self.runner.start("audit-remove-exemption", work, label="Removing kept-separate pairs", on_done=done,
                          on_error=self._failed)

    def append_back(self, merge: RecheckedMerge) -> None:
        """Append the sentences that held `merge`'s lost facts to its target (refused if the target changed since
        the re-check)."""
        store, append, stamp = self.store, self.services.append_lost_facts, merge.target_stamp
        if store is None:
            return

        def done(entry: Written) -> None:
            self.written.emit(f"Appended the facts merge #{merge.audit_id} lost back to its target "
                              f"(recorded as #{entry.audit_id}, undoable).", entry.audit_id, entry.changes)

        self.runner.start("audit-append-back", lambda cancel: append(store, merge.audit_id, drafted=stamp),
                          label=f"Appending back #{merge.audit_id}", on_done=done, on_error=self._failed)

    def _failed(self, exc: BaseException) -> None:
        self.failed.emit(one_line(exc))


__all__ = ["AuditWrites", "ConfirmRevert"]
