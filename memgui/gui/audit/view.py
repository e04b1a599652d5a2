"""The Audit tab: every write memgui made (filterable, with a before/after diff and everything that decided it,
Undo / Redo with the core's conflict messages), past daemon merges (append histories and the daemon-log
timeline), the "kept separate" list with Remove, threshold calibration, exports, and "Re-check merges" (recheck.py).

Self-contained: the window creates `AuditView(services=…, runner=…)` (the core's audit services; the real ones
when left out), calls `set_store(store)` and connects `storeChanged` (a write happened here: refresh what shows
its documents) and `thresholdChosen(float)`. Reads, log parsing, diffs, calibration and writes run on the task
runner; the writes themselves are `AuditWrites` (writes.py), whose results this view shows.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QLabel, QTabWidget, QVBoxLayout, QWidget

from ..services import AuditServices, audit_services
from ..services.types import (
    AuditEntry,
    AuditState,
    Calibration,
    CancelToken,
    Changes,
    DaemonTimeline,
    DocumentHistory,
    Exemption,
    LabelledPair,
    Operation,
    Store,
    VectorSource,
    WordDiff,
    Work,
)
from ..workers import TaskRunner, one_line
from .calibration import calibration_work
from .calibration_chart import CalibrationPanel
from .daemon import DaemonMergesPage
from .detail import JsonObject, body_html, diff_html, entry_html
from .history import install_history_page
from .layout import AuditWidgets, build_entries_page, build_exemptions_page, fill_filter
from .models import VALUE_ROLE, operation_label, selected_rows
from .recheck import install_recheck_page
from .writes import AuditWrites

# what a load reads: the audit entries, the append histories, the kept-separate pairs, every document's title by id
Loaded = tuple[list[AuditEntry], list[DocumentHistory], list[Exemption], dict[str, str]]
BANNER_STYLES = {"info": "background:#ddf4ff;color:#0a3069", "ok": "background:#dafbe1;color:#116329",
                 "error": "background:#ffebe9;color:#82071e"}


class AuditView(AuditWidgets):
    storeChanged = Signal(object)  # undo / redo / remove / append wrote: what it changed (Changes)
    thresholdChosen = Signal(float)
    loaded = Signal()  # audit entries, histories and exemptions are shown
    logsLoaded = Signal()
    calibrated = Signal()
    actionFinished = Signal(str)  # the banner text after an undo / redo / remove / export

    def __init__(self, parent: QWidget | None = None, *, services: AuditServices | None = None,
                 runner: TaskRunner | None = None, cosine_lookup: Callable[[str, str], float | None] | None = None,
                 source_factory: Callable[[Store], VectorSource] | None = None, current_threshold: float | None = None):
        super().__init__(parent)
        self.setObjectName("auditView")
        self.services = services or audit_services()
        self.runner = runner or TaskRunner(self)
        self.store: Store | None = None
        self.cosine_lookup = cosine_lookup
        self.source_factory = source_factory
        self.current_threshold = current_threshold
        self.titles: dict[str, str] = {}
        self.pairs: list[LabelledPair] = []
        self.calibration: Calibration | None = None
        self._calibrated_for: Store | None = None
        self._reselect: int | None = None
        self.writes = AuditWrites(self.services, self.runner, self)
        self.writes.written.connect(self._written)
        self.writes.failed.connect(self._write_failed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.banner = QLabel("")
        self.banner.setObjectName("auditBanner")
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.banner)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("auditTabs")
        layout.addWidget(self.tabs, 1)
        self.tabs.addTab(build_entries_page(self), "memgui actions")
        self.daemon_page = DaemonMergesPage(self.services, self.runner, self.titles)
        self.daemon_page.logsLoaded.connect(self.logsLoaded)
        self.tabs.addTab(self.daemon_page, "Past daemon merges")
        self.tabs.addTab(build_exemptions_page(self), "Kept separate")
        self.calibration_panel = CalibrationPanel()
        self.calibration_panel.thresholdChosen.connect(self.thresholdChosen)
        self.calibration_panel.recomputeRequested.connect(self.recalibrate)
        self.tabs.addTab(self.calibration_panel, "Threshold calibration")
        self.recheck_page = install_recheck_page(self)
        self.history_page = install_history_page(self)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._update_buttons()

    # ---- store and loading -----------------------------------------------------------------------------------

    def set_store(self, store: Store | None) -> None:
        """Show `store` (None clears the tab). Default daemon logs (next to the store, $NETCLAW_HOME/logs) are read."""
        self.store = self.writes.store = store
        self._calibrated_for = None
        self.pairs, self.calibration = [], None
        self.calibration_panel.set_calibration([], None, self.current_threshold)
        self.show_banner("")
        if store is None:
            for m in (self.audit_model, self.exemption_model):
                m.set_rows([])
            self.daemon_page.set_store(None)
            self.history_page.set_store(None)
            self._update_buttons()
            return
        self._update_buttons()
        self.reload()
        self.daemon_page.set_store(store)

    def set_current_threshold(self, value: float | None) -> None:
        self.current_threshold = value
        self.calibration_panel.set_calibration(self.pairs, self.calibration, value)

    def set_cosine_lookup(self, lookup: Callable[[str, str], float | None] | None) -> None:
        self.cosine_lookup = lookup
        self._calibrated_for = None

    def reload(self) -> None:
        store, s = self.store, self.services
        if store is None:
            return

        def load(cancel: CancelToken) -> Loaded:
            titles = {d.document_id: d.title for d in store.documents(include_tombstoned=True)}
            return s.list_entries(store), s.appended_histories(store), s.list_exemptions(store), titles

        self.runner.start("audit-load", load, label="Reading the audit trail", on_done=self._loaded,
                          on_error=self._failed)

    def _loaded(self, value: Loaded) -> None:
        entries, histories, exemptions, titles = value
        self.titles.clear()
        self.titles.update(titles)
        current = self.selected_entry()
        selected = self._reselect if self._reselect is not None else (current.audit_id if current is not None else None)
        self._reselect = None
        self.audit_model.set_rows(entries)
        self.daemon_page.set_histories(histories)
        self.exemption_model.set_rows(exemptions)
        fill_filter(self.op_filter, "All operations", sorted({operation_label(e) for e in entries}))
        fill_filter(self.model_filter, "All models", sorted({e.model_id for e in entries if e.model_id}))
        self._apply_filters()
        if selected is not None:
            self.select_entry(selected)
        elif self.audit_proxy.rowCount():
            self.audit_table.selectRow(0)
        self._update_buttons()
        self.loaded.emit()
        if self.tabs.currentWidget() is self.calibration_panel:
            self.recalibrate()

    def _failed(self, exc: BaseException) -> None:
        self.show_banner(one_line(exc), "error")

    def _apply_filters(self) -> None:
        self.audit_proxy.set_filters(operation=self.op_filter.currentData(), guard=self.guard_filter.currentData(),
                                     model_id=self.model_filter.currentData(), document=self.doc_filter.text())
        self.count_label.setText(f"{self.audit_proxy.rowCount()} of {self.audit_model.rowCount()} writes")

    def show_banner(self, text: str, kind: str = "info") -> None:
        self.banner.setText(text)
        self.banner.setStyleSheet(f"QLabel{{{BANNER_STYLES.get(kind, '')};padding:5px;border-radius:3px}}")
        self.banner.setVisible(bool(text))

    # ---- the selected entry ------------------------------------------------------------------------------------

    def focus_list(self) -> None:
        self.tabs.currentWidget().setFocus() if self.tabs.currentIndex() else self.audit_table.setFocus()

    def selected_entry(self) -> AuditEntry | None:
        rows = selected_rows(self.audit_table, AuditEntry)
        return rows[0] if rows else None

    def select_entry(self, audit_id: int) -> bool:
        row = self.audit_model.row_of(audit_id)
        if row < 0:
            return False
        index = self.audit_proxy.mapFromSource(self.audit_model.index(row, 0))
        if not index.isValid():
            return False
        self.audit_table.selectionModel().select(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.audit_table.scrollTo(index)
        return True

    def _entry_selected(self, *_: object) -> None:
        e = self.selected_entry()
        self._update_buttons()
        self.doc_combo.blockSignals(True)
        self.doc_combo.clear()
        if e is None:
            self.entry_text.setHtml("<p style='color:#6e7781'>Select a write to see what it changed and why.</p>")
            self.diff_text.clear()
            self.doc_combo.blockSignals(False)
            return
        self.entry_text.setHtml(entry_html(e, self.titles))
        docs = list(dict.fromkeys([*([e.target_id] if e.target_id else []), *e.touched_documents]))
        for doc_id in docs:
            if doc_id in (e.before.get("documents") or {}) or doc_id in (e.after.get("documents") or {}):
                self.doc_combo.addItem(self.titles.get(doc_id) or doc_id, doc_id)
        self.doc_combo.blockSignals(False)
        if self.doc_combo.count():
            self.doc_combo.setCurrentIndex(0)
            self._show_diff()
        else:
            self.diff_stats.setText("")
            self.diff_text.setHtml("<p style='color:#6e7781'>This write changed no document body.</p>")

    def _show_diff(self, *_: object) -> None:
        e, doc_id = self.selected_entry(), self.doc_combo.currentData()
        if e is None or not doc_id:
            return
        before = ((e.before.get("documents") or {}).get(doc_id) or {}).get("row")
        after = ((e.after.get("documents") or {}).get(doc_id) or {}).get("row")
        if before is None or after is None:
            row = after or before or {}
            note = "Created by this write." if before is None else "Removed by this write."
            self.diff_stats.setText("")
            self.diff_text.setHtml(body_html(row.get("markdown_body") or "", note))
            self.runner.cancel("audit-diff")
            return
        a, b = before.get("markdown_body") or "", after.get("markdown_body") or ""
        sem_a, sem_b = before.get("update_semantics"), after.get("update_semantics")
        change = f" · {sem_a} → {sem_b}" if sem_a != sem_b else ""
        if before.get("title") != after.get("title"):
            change += f" · title “{before.get('title')}” → “{after.get('title')}”"

        diff_work = self.services.word_diff_work

        def work(cancel: CancelToken) -> Work[WordDiff]:
            return diff_work(a, b, cancel=cancel)

        def done(diff: WordDiff) -> None:
            stats = "body unchanged" if diff.identical else f"+{diff.inserted_words} / −{diff.deleted_words} words"
            self.diff_stats.setText(stats + change)
            self.diff_text.setHtml(diff_html(diff))

        self.diff_stats.setText("diffing…")
        self.runner.start("audit-diff", work, label="Diffing", on_done=done, on_error=self._failed)

    def _update_buttons(self, *_: object) -> None:
        store, e = self.store, self.selected_entry() if hasattr(self, "audit_table") else None
        writable = store is not None and not getattr(store, "read_only", True)
        why = "" if writable else "The store is open read-only; nothing can be written."
        reverted = self._state_of(e.reverts_audit_id) if e is not None else None
        undo_ok = e is not None and ((e.state == AuditState.APPLIED and e.operation not in (Operation.UNDO, Operation.REDO))
                                     or (e.operation == Operation.REDO and reverted == AuditState.APPLIED))
        redo_ok = e is not None and (e.state == AuditState.UNDONE
                                     or (e.operation == Operation.UNDO and reverted == AuditState.UNDONE))
        self.undo_button.setEnabled(writable and undo_ok)
        self.redo_button.setEnabled(writable and redo_ok)
        self.undo_button.setToolTip(why or "Put back the rows as they were before this write (refused if they changed since)")
        self.redo_button.setToolTip(why or "Apply this undone write again (refused if its rows changed since)")
        has_ex = bool(self.exemption_table.selectionModel().selectedRows()) if hasattr(self, "exemption_table") else False
        self.remove_button.setEnabled(writable and has_ex)
        self.remove_button.setToolTip(why)
        for b in (self.reload_button, self.export_jsonl_button, self.export_md_button):
            b.setEnabled(store is not None)

    def _state_of(self, audit_id: int | None) -> AuditState | None:
        entry = self.audit_model.row_at(self.audit_model.row_of(audit_id)) if audit_id is not None else None
        return entry.state if entry is not None else None

    # ---- writes (undo, redo, remove: writes.py) ------------------------------------------------------------------

    def undo_selected(self) -> None:
        e = self.selected_entry()
        if e is not None:
            target = e.reverts_audit_id if e.operation == Operation.REDO else e.audit_id
            if target is not None:
                self.revert(Operation.UNDO, target)

    def redo_selected(self) -> None:
        e = self.selected_entry()
        if e is not None:
            self.revert(Operation.REDO, e.audit_id)

    def revert(self, action: Operation, audit_id: int) -> None:
        """Undo or redo audit row `audit_id`, asked about as the selected entry ("write" when none is)."""
        e = self.selected_entry()
        desc = f"{e.operation} into {self.titles.get(e.target_id or '') or e.target_id}" if e is not None else "write"
        self.writes.revert(action, audit_id, desc)

    def remove_selected_exemptions(self) -> None:
        self.writes.remove_exemptions(selected_rows(self.exemption_table, Exemption))

    def _written(self, text: str, reselect: int | None, changes: Changes) -> None:
        self._reselect = reselect
        self._calibrated_for = None
        self.show_banner(text, "ok")
        self.reload()
        self.storeChanged.emit(changes)
        self.actionFinished.emit(text)

    def _write_failed(self, text: str) -> None:
        self.show_banner(text, "error")
        self.reload()  # show the rows as they are now
        self.actionFinished.emit(text)

    # ---- calibration ------------------------------------------------------------------------------------------------

    def _tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.calibration_panel and self._calibrated_for is not self.store:
            self.recalibrate()

    def recalibrate(self) -> None:
        store = self.store
        if store is None:
            return
        self._calibrated_for = store
        services, lookup, factory = self.services, self.cosine_lookup, self.source_factory
        self.calibration_panel.set_busy("Gathering labelled pairs…")

        def work(cancel: CancelToken) -> Work[tuple[list[LabelledPair], Calibration, str]]:
            return calibration_work(services, store, cosine_of=lookup, source_factory=factory, cancel=cancel)

        def done(value: tuple[list[LabelledPair], Calibration, str]) -> None:
            self.pairs, self.calibration, notice = value
            self.calibration_panel.set_calibration(self.pairs, self.calibration, self.current_threshold)
            if notice:
                self.calibration_panel.message.setText(self.calibration_panel.message.text() + notice)
            self.calibrated.emit()

        def failed(exc: BaseException) -> None:
            self.calibration_panel.set_busy(f"Calibration failed: {one_line(exc)}")

        self.runner.start("audit-calibrate", work, label="Calibrating the threshold", on_done=done, on_error=failed)

    # ---- export --------------------------------------------------------------------------------------------------------

    def shown_entries(self) -> list[AuditEntry]:
        values = (self.audit_proxy.index(r, 0).data(VALUE_ROLE) for r in range(self.audit_proxy.rowCount()))
        return [v for v in values if isinstance(v, AuditEntry)]

    def _export_dialog(self, kind: str) -> None:
        suffix, filt = (".jsonl", "JSON Lines (*.jsonl)") if kind == "jsonl" else (".md", "Markdown (*.md)")
        name = (Path(self.store.path).stem if self.store is not None else "memgui") + "-audit" + suffix
        path, _ = QFileDialog.getSaveFileName(self, "Export the audit", name, filt)
        if path:
            self.export_to(Path(path), kind)

    def export_to(self, path: Path, kind: str) -> bool:
        """Write the shown entries (and for Markdown the histories and the timeline) to `path`."""
        s, entries = self.services, self.shown_entries()
        try:
            if kind == "jsonl":
                n = s.write_jsonl(path, entries)
                text = f"Exported {n} audit entr{'y' if n == 1 else 'ies'} to {path}."
            else:
                s.write_markdown(
                    path, entries, histories=list(self.daemon_page.history_model.rows()),
                    daemon_events=list(self.timeline.events) if self.timeline else [],
                    unrecoverable=self.unrecoverable, store_path=str(self.store.path) if self.store else None)
                text = f"Exported the audit report to {path}."
        except (OSError, ValueError) as exc:
            self.show_banner(f"Export failed: {one_line(exc)}", "error")
            return False
        self.show_banner(text, "ok")
        self.actionFinished.emit(text)
        return True

    # ---- the daemon page (kept reachable from here) ------------------------------------------------------------------

    @property
    def timeline(self) -> DaemonTimeline | None:
        return self.daemon_page.timeline

    @property
    def unrecoverable(self) -> list[JsonObject]:
        return self.daemon_page.unrecoverable

    def load_daemon_logs(self, paths: Sequence[Path]) -> None:
        self.daemon_page.load_daemon_logs(paths)

    def shutdown(self, msecs: int = 10000) -> bool:
        """Cancel this view's jobs and wait for them (call before the store is closed)."""
        for kind in ("audit-load", "audit-diff", "audit-logs", "audit-calibrate", "audit-recheck", "audit-history",
                     "audit-history-subjects"):
            self.runner.cancel(kind)
        return self.runner.wait(msecs)


__all__ = ["AuditView"]
