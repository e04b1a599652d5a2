"""The "Past daemon merges" page of the Audit tab: the store's append histories (dated segments) and the
Netclaw daemon-log timeline, linked: choosing an event shows the history of the document it names, and says
plainly when the body before a daemon merge cannot be recovered from the store."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..services import AuditServices
from ..services.types import CancelToken, DaemonEvent, DaemonTimeline, DocumentHistory, Store, Work
from ..workers import TaskRunner, one_line
from .detail import JsonObject, history_html
from .models import DaemonEventModel, HistoryModel, selected_rows, table_view

NO_LOGS = ("No daemon logs next to the store or in $NETCLAW_HOME/logs — open log files to add the daemon's "
           "curation timeline.")


class DaemonMergesPage(QWidget):
    logsLoaded = Signal()

    def __init__(self, services: AuditServices, runner: TaskRunner, titles: Mapping[str, str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("auditDaemonPage")
        self.services = services
        self.runner = runner
        self.store: Store | None = None
        self.timeline: DaemonTimeline | None = None  # from services.parse_daemon_logs_work, once read
        self.unrecoverable: list[JsonObject] = []
        self.log_paths: list[Path] = []
        v = QVBoxLayout(self)
        v.setContentsMargins(2, 4, 2, 2)
        bar = QHBoxLayout()
        self.logs_label = QLabel("No daemon logs read yet.")
        self.logs_label.setObjectName("auditLogsLabel")
        self.logs_label.setWordWrap(True)
        bar.addWidget(self.logs_label, 1)
        self.open_logs_button = QPushButton("Open log files…")
        self.open_logs_button.clicked.connect(self._choose_log_files)
        self.open_folder_button = QPushButton("Log folder…")
        self.open_folder_button.clicked.connect(self._choose_log_folder)
        bar.addWidget(self.open_logs_button)
        bar.addWidget(self.open_folder_button)
        v.addLayout(bar)
        self.history_model = HistoryModel(self)
        self.history_table = table_view(self.history_model, stretch=HistoryModel.TITLE,
                                        fit=(HistoryModel.ADDITIONS, HistoryModel.LAST, HistoryModel.STATE))
        self.history_table.setObjectName("auditHistories")
        self.history_table.selectionModel().selectionChanged.connect(self._history_selected)
        self.history_text = QTextBrowser()
        self.history_text.setObjectName("auditHistoryDetail")
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.history_table)
        top.addWidget(self.history_text)
        top.setSizes([380, 620])
        self.event_model = DaemonEventModel(self, titles)
        self.event_table = table_view(self.event_model, stretch=DaemonEventModel.DETAILS,
                                      fit=(DaemonEventModel.TIME, DaemonEventModel.LEVEL, DaemonEventModel.MARKER),
                                      widths={DaemonEventModel.ANCHOR: 150, DaemonEventModel.DOCUMENTS: 200})
        self.event_table.setObjectName("auditTimeline")
        self.event_table.selectionModel().selectionChanged.connect(self._event_selected)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.event_table)
        split.setSizes([300, 220])
        v.addWidget(split, 1)

    # ---- contents ---------------------------------------------------------------------------------------------

    def set_store(self, store: Store | None) -> None:
        """Forget the old timeline; read the default logs of `store` (next to it, $NETCLAW_HOME/logs) if any."""
        self.runner.cancel("audit-logs")
        self.store, self.timeline, self.unrecoverable = store, None, []
        self.event_model.set_rows([])
        self.history_text.clear()
        if store is None:
            self.history_model.set_rows([])
            self.logs_label.setText("No daemon logs read yet.")
            return
        self.log_paths = self.services.default_log_dirs(store.path)
        if self.log_paths:
            self.load_daemon_logs(self.log_paths)
        else:
            self.logs_label.setText(NO_LOGS)

    def set_histories(self, histories: Sequence[DocumentHistory]) -> None:
        selected = selected_rows(self.history_table, DocumentHistory)
        keep = selected[0].document_id if selected else None
        self.history_model.set_rows(histories)
        row = self.history_model.row_of(keep) if keep else -1
        if row < 0 and self.history_model.rowCount():
            row = 0
        if row >= 0:
            self.history_table.selectRow(row)

    # ---- reading logs -------------------------------------------------------------------------------------------

    def _choose_log_files(self) -> None:
        start = str(self.log_paths[0]) if self.log_paths else ""
        files, _ = QFileDialog.getOpenFileNames(self, "Netclaw daemon logs", start,
                                                "Log files (*.log *.txt *.json);;All files (*)")
        if files:
            self.load_daemon_logs([Path(f) for f in files])

    def _choose_log_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder with Netclaw daemon logs")
        if folder:
            self.load_daemon_logs([Path(folder)])

    def load_daemon_logs(self, paths: Sequence[Path]) -> None:
        store, s = self.store, self.services
        if store is None:
            return
        self.log_paths = list(paths)
        self.logs_label.setText("Reading " + ", ".join(str(p) for p in paths) + "…")

        def work(cancel: CancelToken) -> Work[tuple[DaemonTimeline, list[JsonObject]]]:
            timeline = yield from s.parse_daemon_logs_work(paths, cancel=cancel)
            gone: list[JsonObject] = list(s.unrecoverable_merges(store, timeline))
            return timeline, gone

        def failed(exc: BaseException) -> None:
            self.logs_label.setText(f"Could not read the logs: {one_line(exc)}")

        self.runner.start("audit-logs", work, label="Reading daemon logs", on_done=self._logs_loaded, on_error=failed)

    def _logs_loaded(self, value: tuple[DaemonTimeline, list[JsonObject]]) -> None:
        self.timeline, self.unrecoverable = value
        s = self.timeline.stats
        text = (f"{s.files} log file(s), {s.lines:,} lines: {s.parsed:,} curation events, "
                f"{s.skipped_malformed:,} malformed line(s) skipped. ")
        if self.unrecoverable:
            text += f"{len(self.unrecoverable)} daemon merge(s) replaced a body in place (earlier body not recoverable)."
        if s.unreadable:
            text += " Unreadable: " + "; ".join(s.unreadable)
        self.logs_label.setText(text)
        self.logs_label.setToolTip("\n".join(self.timeline.paths))
        self.event_model.set_rows(self.timeline.events)
        self._history_selected()
        self.logsLoaded.emit()

    # ---- linking --------------------------------------------------------------------------------------------------

    def _history_selected(self, *_: object) -> None:
        rows = selected_rows(self.history_table, DocumentHistory)
        if rows:
            self.show_document_history(rows[0].document_id, rows[0])

    def _event_selected(self, *_: object) -> None:
        rows = selected_rows(self.event_table, DaemonEvent)
        if rows and rows[0].document_id:
            doc_id = rows[0].document_id
            row = self.history_model.row_of(doc_id)
            if row >= 0:
                self.history_table.selectRow(row)  # shown through _history_selected
                self.show_document_history(doc_id, self.history_model.row_at(row))
            else:
                self.history_table.clearSelection()
                self.show_document_history(doc_id)

    def show_document_history(self, doc_id: str, history: DocumentHistory | None = None) -> None:
        if history is None and self.store is not None:
            doc = self.store.document(doc_id)
            history = self.services.history_of(doc) if doc is not None else None
        events = self.timeline.for_document(doc_id) if self.timeline is not None else []
        gone = [u for u in self.unrecoverable if u["document_id"] == doc_id]
        self.history_text.setHtml(history_html(history, events, gone, doc_id))


__all__ = ["DaemonMergesPage"]
