"""Review → "Accept all safe…" and "Undo this batch".

Over the selected queue rows (two or more) or else the whole visible queue, it plans from the reviews the
background queue already cached (a cluster with no valid cached review is listed "not reviewed yet" and
skipped: nothing here runs the model), shows the preview with its one confirmation (Cancel is the default),
writes on a worker (each merge its own audited transaction, tagged with the batch id) and then offers "Undo
this batch". Each write is in the session's undo history too (read from the audit log), so Ctrl+Z undoes the last
one alone. The queue shows what the batch (or its undo) changed from its change descriptor (`Writes.show_changes`).

`install_bulk_accept(window)` adds the two actions to the window and its Review menu; the window needs nothing
else from this module."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDialog, QHBoxLayout, QMenu, QSizePolicy, QToolButton, QWidget

from ..actions import Shortcut
from ..services.types import BatchPlan, BatchResult, BatchUndoResult, CancelToken, Changes, Work
from ..workers import one_line
from .bulk_preview import BulkPreviewDialog
from .cluster_model import NEW, SKIPPED, ClusterRow
from .window_parts import ReviewWindow

CONSIDERED = (NEW, SKIPPED)  # rows already merged / kept separate are not offered again


class BulkAccept(QObject):
    planned = Signal(object)  # BatchPlan (before the preview)
    applied = Signal(object)  # BatchResult
    undone = Signal(object)  # BatchUndoResult
    failed = Signal(str)

    def __init__(self, window: ReviewWindow, parent: QObject | None = None):
        super().__init__(parent)
        self.w = window
        # (dialog) -> True to write; tests replace it to inspect the preview and answer it
        self.exec_preview: Callable[[BulkPreviewDialog], bool] = lambda d: d.exec() == QDialog.DialogCode.Accepted
        self.last_batch: str | None = None
        self.undo_button: QToolButton | None = None  # on the action bar, shown while a batch can be undone
        self._batch_rows: dict[int, str] = {}  # audit id -> cluster id, for the last batch's writes
        self.actions = {
            "accept_safe": self._action("accept_safe", "Accept all &safe…", "Ctrl+Shift+A", self.start,
                                        "Merge every selected (or queued) cluster the model and both guards call "
                                        "safe, after a preview"),
            "undo_batch": self._action("undo_batch", "Undo this &batch", None, self.undo_last_batch,
                                       "Undo every write of the last Accept all safe batch (newest first)"),
        }
        for signal in (window.runner.started, window.runner.ended, window.scanFinished, window.review.changed):
            signal.connect(lambda *_: QTimer.singleShot(0, self, self.update_actions))
        self.update_actions()

    def _action(self, key: str, text: str, shortcut: Shortcut, slot: Callable[[], object], tip: str) -> QAction:
        action = QAction(text, self)  # added to the window by install_bulk_accept
        action.setObjectName(f"action_{key}")
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.w.addAction(action)
        return action

    # ---- state -----------------------------------------------------------------------------------------

    def _busy(self) -> bool:
        return self.w.runner.busy("write") or self.w.runner.busy("bulk-plan")

    def update_actions(self) -> None:
        writable = self.w.store is not None and not self.w.store.read_only and not self._busy()
        self.actions["accept_safe"].setEnabled(writable and self.w.proxy.rowCount() > 0)
        self.actions["undo_batch"].setEnabled(writable and bool(self._batch_rows))
        if self.undo_button is not None:  # in view from a batch until the next one (or its undo)
            n = len(self._batch_rows)
            self.actions["undo_batch"].setIconText(f"Undo this batch ({n} merge{'s' if n != 1 else ''})")
            self.undo_button.setVisible(bool(self._batch_rows))

    def scope(self) -> tuple[list[ClusterRow], str]:
        """(queue rows to consider, how they were chosen): two or more selected rows, else the visible queue."""
        proxy, model = self.w.proxy, self.w.cluster_model
        picked = [proxy.mapToSource(i).row() for i in self.w.queue.selectionModel().selectedRows()]
        if len(picked) >= 2:
            rows, how = [model.row_at(r) for r in sorted(picked)], f"the {len(picked)} selected clusters"
        else:
            rows = [model.row_at(proxy.mapToSource(proxy.index(r, 0)).row()) for r in range(proxy.rowCount())]
            how = "the filtered queue" if proxy.filtering else "the whole queue"
        return [r for r in rows if r is not None and r.status in CONSIDERED], how

    # ---- planning and the preview ----------------------------------------------------------------------

    def start(self) -> None:
        w = self.w
        if w.store is None or w.store.read_only or self._busy():
            return
        rows, how = self.scope()
        if not rows:
            w.show_status("Nothing to accept: every cluster here was already reviewed", 6000)
            return
        bulk, store = w.services.bulk, w.store
        cache = bulk.cache_for(store.path, w.settings.decider_model)
        clusters = [r.cluster for r in rows]

        def job(cancel: CancelToken) -> Work[BatchPlan]:
            reviews = yield from bulk.cached_reviews(store, clusters, cache, cancel=cancel)
            ids = [m for _c, members, _r in reviews for m in members]
            titles = {d.document_id: d.title or "" for d in store.documents_by_ids(ids)}
            return bulk.plan_batch(reviews, titles=titles, links=bulk.cosine_links(clusters))

        w.runner.start("bulk-plan", job, label="Planning Accept all safe", show_in_status=True,
                       on_done=lambda plan: self._preview(plan, how), on_error=self._failed)
        self.update_actions()

    def _preview(self, plan: BatchPlan, how: str) -> None:
        self.planned.emit(plan)
        dialog = BulkPreviewDialog(plan, how, self.w.page.window(), repeats=self.w.services.bulk.repeated_sentences)
        try:
            go = self.exec_preview(dialog) and bool(plan.writes)
        finally:
            dialog.deleteLater()
            self.w.queue.setFocus()
        if not go:
            self.w.show_status("Accept all safe: cancelled, nothing was written", 5000)
            return
        self._apply(plan)

    # ---- writing ---------------------------------------------------------------------------------------

    def _apply(self, plan: BatchPlan) -> None:
        w, bulk, store = self.w, self.w.services.bulk, self.w.store
        if not w.can_write() or store is None:
            return
        w.runner.start("write", lambda cancel: bulk.apply_batch(store, plan, decided_by="reviewer", cancel=cancel),
                       label=f"Writing {len(plan.writes)} merge(s)", show_in_status=True,
                       on_done=lambda result: self._applied(plan, result), on_error=self._failed)
        self.update_actions()

    def _applied(self, plan: BatchPlan, result: BatchResult) -> None:
        w = self.w
        writes = w.review.writes
        by_cluster = {str(r.cluster_id): r for r in w.cluster_model.rows()}
        self.last_batch, self._batch_rows = result.batch_id, {}
        for done in result.written:
            row = by_cluster.get(done.cluster_id)
            cluster_id = row.cluster_id if row is not None else done.cluster_id
            w.review.cluster.decided_by[cluster_id] = "you (memgui reviewer) with Accept all safe"
            if done.audit_id is None:  # a written outcome always has its audit id
                continue
            self._batch_rows[done.audit_id] = cluster_id
            writes.rows_of_audit[done.audit_id] = cluster_id  # the row each write reviewed
        writes.show_changes(result.changes)  # Ctrl+Z then undoes the last write alone, as after a single accept
        self.applied.emit(result)
        self.update_actions()
        ids = ", ".join(f"#{d.audit_id}" for d in result.written)
        w.show_status(f"Accept all safe: {len(result.written)} merge(s) written as batch {result.batch_id}"
                      + (f" (audit {ids})" if ids else "") + " — “Undo this batch” (bottom left) reverts them", 10000)
        if result.refused:
            lines = "\n".join(f"• {r.error}" for r in result.refused)
            w.prompter.info("Accept all safe", f"{len(result.written)} merge(s) written, {len(result.refused)} "
                            "refused (nothing was written for those)", lines)
        self.update_actions()

    def _failed(self, exc: BaseException) -> None:
        message = one_line(exc)
        self.failed.emit(message)
        self.w.prompter.error("Accept all safe", message)
        self.update_actions()

    # ---- undo this batch ---------------------------------------------------------------------------------

    def undo_last_batch(self) -> None:
        w = self.w
        if not self.last_batch or not self._batch_rows or not w.can_write():
            return
        n, batch = len(self._batch_rows), self.last_batch
        impact = (f"Every document the batch's {n} merge(s) touched gets back the text it had before, newest write "
                  "first. A write whose documents changed since refuses (it is reported) and the others go on. "
                  "Each undo is recorded in the audit.")
        if not w.prompter.confirm("Undo this batch", f"Undo batch {batch} ({n} merges)?", impact, "Undo batch"):
            return
        bulk, store = w.services.bulk, w.store
        if store is None:
            return
        w.runner.start("write", lambda cancel: bulk.undo_batch(store, batch), label="Undoing the batch",
                       show_in_status=True, on_done=self._batch_undone, on_error=self._failed)
        self.update_actions()

    def _batch_undone(self, result: BatchUndoResult) -> None:
        w = self.w
        writes = w.review.writes
        for audit_id in [*(a for a, _u in result.undone), *result.already_undone]:
            self._batch_rows.pop(audit_id, None)
        # an entry undone before (from the Audit tab, say) leaves its row unreviewed as well
        writes.show_changes(result.changes | Changes(undone=tuple(result.already_undone)))
        self.undone.emit(result)
        w.show_status(f"Undo this batch: {len(result.undone)} merge(s) undone", 8000)
        if result.refused:
            w.prompter.info("Undo this batch", f"{len(result.refused)} write(s) could not be undone",
                            "\n".join(f"• {error}" for _a, error in result.refused))
        self.update_actions()


def install_bulk_accept(window: ReviewWindow, parent: QObject | None = None) -> BulkAccept:
    """The controller, its actions in the Review menu and the queue's context menu, and a queue that takes a
    multi-row selection (Shift/Ctrl+click; J/K still move one row)."""
    bulk = BulkAccept(window, parent)
    window.queue.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    menu = next((a.menu() for a in window.menuBar().actions() if a.menu() is not None
                 and a.text().replace("&", "") == "Review"), None)
    if isinstance(menu, QMenu):
        menu.addSeparator()
        menu.addAction(bulk.actions["accept_safe"])
        menu.addAction(bulk.actions["undo_batch"])
    if window.queue.contextMenuPolicy() == Qt.ContextMenuPolicy.DefaultContextMenu:  # right-click on the rows
        window.queue.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        window.queue.addActions([bulk.actions["accept_safe"], bulk.actions["undo_batch"]])
    window.actions_by_key.update(bulk.actions)
    bar = window.page.findChild(QWidget, "actionBar")
    layout = bar.layout() if bar is not None else None
    if isinstance(layout, QHBoxLayout):
        button = QToolButton()
        button.setObjectName("undoBatchButton")
        button.setDefaultAction(bulk.actions["undo_batch"])
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        button.setMinimumHeight(28)
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        button.setStyleSheet("QToolButton:enabled { color:#9a3412; font-weight:600; }")
        button.hide()
        layout.insertWidget(2, button)  # after Undo / Redo
        bulk.undo_button = button
        bulk.update_actions()
    return bulk


__all__ = ["BulkAccept", "install_bulk_accept"]
