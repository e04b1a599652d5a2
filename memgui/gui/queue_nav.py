"""Moving in the review queue: the current row (loaded one event-loop turn later, so holding J/K coalesces to
the last cluster), next / previous (optionally the next unreviewed one), selecting a cluster by id, and the
full-text filter. A mixin of the window: it works on the window's queue view, proxy, model and runner."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer
from PySide6.QtWidgets import QLineEdit, QStatusBar

from .review.cluster_model import NEW, ClusterFilterProxy, ClusterTableModel
from .services.types import Store
from .workers import TaskRunner, one_line

if TYPE_CHECKING:
    from .review.controller import Review
    from .review.queue_view import QueueView


class QueueNavigation:
    # the window's parts this mixin works on (MainWindow makes them)
    _load_timer: QTimer
    queue: QueueView
    proxy: ClusterFilterProxy
    cluster_model: ClusterTableModel
    review: Review
    runner: TaskRunner
    filter_edit: QLineEdit
    store: Store | None  # the open store

    if TYPE_CHECKING:
        def statusBar(self) -> QStatusBar: ...  # QMainWindow's

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # Loading runs in the next event-loop turn: holding J/K coalesces to the last cluster, and the
        # queue repaints before the panes are filled.
        self._load_timer.start(0)

    def _load_current(self) -> None:
        current = self.queue.currentIndex()
        source = self.proxy.mapToSource(current) if current.isValid() else None
        row = self.cluster_model.row_at(source.row()) if source is not None else None
        if row is not self.review.row:
            self.review.load(row)

    def current_proxy_row(self) -> int:
        index = self.queue.currentIndex()
        return index.row() if index.isValid() else -1

    def _select_proxy_row(self, row: int) -> None:
        if 0 <= row < self.proxy.rowCount():
            index = self.proxy.index(row, 0)
            self.queue.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.queue.scrollTo(index)

    def next_cluster(self, prefer_new: bool = False) -> None:
        start, count = self.current_proxy_row(), self.proxy.rowCount()
        if prefer_new:
            for offset in range(1, count + 1):
                r = (start + offset) % count
                row = self.proxy.data(self.proxy.index(r, 0), Qt.ItemDataRole.DisplayRole)
                if row == NEW:
                    self._select_proxy_row(r)
                    return
            self.statusBar().showMessage("Every cluster in the queue has been reviewed or skipped", 6000)
        if start + 1 < count:
            self._select_proxy_row(start + 1)

    def previous_cluster(self) -> None:
        if self.current_proxy_row() > 0:
            self._select_proxy_row(self.current_proxy_row() - 1)

    def select_cluster(self, cluster_id: str) -> None:
        source_row = self.cluster_model.row_of(cluster_id)
        if source_row >= 0:
            index = self.proxy.mapFromSource(self.cluster_model.index(source_row, 0))
            if index.isValid():
                self._select_proxy_row(index.row())

    def _run_filter(self) -> None:
        text, store = self.filter_edit.text().strip(), self.store
        if not text or store is None:
            self.runner.cancel("search")
            self.proxy.set_allowed_documents(None)
            return
        self.runner.start("search", lambda cancel: [d.document_id for d in store.search(text, limit=1000)],
                          label="Searching", on_done=self._filtered,
                          on_error=lambda exc: self.statusBar().showMessage(f"Search failed: {one_line(exc)}", 6000))

    def _filtered(self, doc_ids: list[str]) -> None:
        self.proxy.set_allowed_documents(doc_ids)
        self.statusBar().showMessage(f"{self.proxy.rowCount()} clusters match the filter", 4000)
