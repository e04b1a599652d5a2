"""The reviewer window: the Review tab (cluster queue, sources + merged body + word diff, decision, MergeGuard
report and actions) and the Audit tab, menus and status bar. Services are injected (`Services`), so tests run
it on fakes. The window opens stores, runs scans and moves in the queue; the `Review` controller does the rest
on the panels it is given."""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QTabWidget, QVBoxLayout, QWidget

from ..config import user_data_dir
from .about import about_details, about_text, first_run_hint
from .actions import build_actions
from .audit import audit_tab
from .dialogs import Prompter
from .queue_nav import QueueNavigation
from .review import Review, ReviewPage
from .review.ahead import DecisionsAhead
from .review.bulk_accept import install_bulk_accept
from .review.cluster_model import ClusterRow
from .review.cluster_refresh import ClusterRefresh
from .review.keys import ReviewKeys
from .review.page import banner, fit_window
from .review.queue_marks import QueueMarks
from .review.split import Splits, split_checked
from .services import Services
from .services.types import CancelToken, Document, LocatedStore, ReviewMark, ScanResult, Store, Work
from .settings_dialog import GuiSettings, SettingsDialog, load_settings, save_settings
from .status import MessageLog, StatusNotes, TaskStatus
from .workers import TaskRunner, one_line

Scanned = tuple[ScanResult, dict[str, Document], dict[str, str], dict[str, ReviewMark]]  # and the clusters' marks

class MainWindow(QueueNavigation, QMainWindow):
    recent_menu: QMenu  # made by actions.build_menus
    storeOpened = Signal(object)  # Store
    storeFailed = Signal(str)
    scanFailed = Signal(str)
    scanFinished = Signal(object)  # ScanResult
    ready = Signal()  # queue filled and the first cluster selected and checked

    def __init__(self, services: Services, *, qsettings: QSettings | None = None, prompter: Prompter | None = None):
        super().__init__()
        self.setObjectName("memguiMainWindow")
        self.setWindowTitle("memgui — memory review")
        self.services = services
        self.qsettings = qsettings or QSettings("memgui", "memgui")
        self.settings: GuiSettings = load_settings(self.qsettings)
        self.prompter = prompter or Prompter(self)
        self.runner = TaskRunner(self)
        self.store: Store | None = None
        self.marks: QueueMarks | None = None  # the open store's lasting queue marks
        self._resume = False  # the next scan is the first of a store just opened: resume where review stopped
        self.store_origin = ""
        self.scan_result: ScanResult | None = None
        self._ready_sent = False
        self._cosines: dict[frozenset[str], float] = {}
        self.actions_by_key: dict[str, QAction] = build_actions(self)
        self._build()
        self.review = Review(services, self.runner, self.prompter, self.page, self, parent=self)
        self.keys = ReviewKeys(self, queue=self.queue, editor=self.editor, sources=self.sources, buttons_in=self.page,
                               edit=self.actions_by_key["edit"], active=lambda: self.tabs.currentWidget() is self.page,
                               reviewable=self.review.reviewable, status=lambda t: self.show_status(t, 6000))
        self.splits = Splits(services.sub_cluster)
        self.review.changed.connect(self.update_actions)
        self.review.guardUpdated.connect(self._maybe_ready)
        self.bulk = install_bulk_accept(self, self)  # Review → Accept all safe… / Undo this batch
        self.review.clusterLoaded.connect(self.notes.cluster_shown)
        self.ahead = DecisionsAhead(self, self)  # the model decides the next clusters in the background
        self.refresher = ClusterRefresh(self.cluster_model, self.runner, self.review, failed=self.show_status)
        self.runner.started.connect(lambda *_: self.update_actions())
        # The window as the timer's context: a task that ends as the window closes (shutdown cancels it) must
        # not update the actions of a window that is gone by then.
        self.runner.ended.connect(lambda *_: QTimer.singleShot(0, self, self.update_actions))
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.timeout.connect(self._run_filter)
        self.filter_edit.textChanged.connect(lambda _t: self._filter_timer.start(300))
        self.filter_edit.returnPressed.connect(self._filter_entered)  # Enter: filter now, back to the queue
        self._load_timer = QTimer(self)
        self._load_timer.setSingleShot(True)
        self._load_timer.timeout.connect(self._load_current)
        self.queue.selectionModel().currentRowChanged.connect(self._on_current_row)
        fit_window(self, self.page, self.qsettings.value("window/geometry"), settings=self.qsettings)
        warm = services.warm_up
        self.runner.start("warm-up", lambda cancel: warm(), label="Preparing MergeGuard")
        self.update_actions()
        self.show_missing_models()

    # ---- construction ---------------------------------------------------------------------------------

    def _build(self) -> None:
        self.readonly_banner = banner("readOnlyBanner", "#6a4a00", "#fff4c2")
        self.models_banner = banner("modelsBanner", "#6a4a00", "#fff4c2")
        self.models_banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.first_run_hint = first_run_hint(self.qsettings)
        self.page = page = ReviewPage(self.actions_by_key)
        # the panels, reachable from the window as before
        self.cluster_model, self.proxy, self.queue = page.cluster_model, page.proxy, page.queue
        self.filter_edit, self.queue_label, self.notice_banner = page.filter_edit, page.queue_label, page.notice_banner
        self.sources, self.editor, self.editor_title = page.sources, page.editor, page.editor_title
        self.diff_view, self.guard_panel, self.decision_panel = page.diff_view, page.guard_panel, page.decision_panel
        self.task_status = TaskStatus(self.runner)
        self.statusBar().addPermanentWidget(self.task_status)
        self.notes = StatusNotes(self.statusBar())
        self.message_log = MessageLog(self.statusBar())  # a message cut by the bar's width, read whole
        self.statusBar().addPermanentWidget(self.message_log)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(page, "Review")
        self.audit_view = audit_tab(self.services.audit, self.runner, cosine_lookup=self.cosine_of,
                                    store_changed=lambda changes: self.review.show_changes(changes), threshold_chosen=self.threshold_chosen,
                                    confirm_revert=self.prompter.confirm_revert)
        self.tabs.addTab(self.audit_view, "Audit")
        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.first_run_hint)
        lay.addWidget(self.models_banner)
        lay.addWidget(self.readonly_banner)
        lay.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

    def show_missing_models(self) -> None:
        check = self.services.missing_models
        text = check(self.settings.decider_model) if check is not None else None
        self.models_banner.setText(text or "")
        self.models_banner.setVisible(bool(text))

    def show_tab(self, index: int) -> None:
        """Ctrl+1 / Ctrl+2: the Review tab (focus on the queue) or the Audit tab (focus on its list)."""
        self.tabs.setCurrentIndex(index)
        if self.tabs.currentWidget() is self.page:
            self.keys.focus_queue()
        else:
            self.audit_view.focus_list()

    def show_about(self) -> None:
        store = getattr(self.store, "path", None)
        self.prompter.info("About memgui", about_text(), about_details(store))

    def _filter_entered(self) -> None:
        self._filter_timer.stop()
        self._run_filter()
        self.keys.focus_queue()

    def show_status(self, text: str, msecs: int = 0, *, about: ClusterRow | None = None) -> None:
        self.notes.show(text, msecs, about=about)

    # ---- enabling ------------------------------------------------------------------------------------

    def can_write(self) -> bool:
        return self.store is not None and not self.store.read_only and not self.runner.busy("write")

    def update_actions(self) -> None:
        rv, k, reviewable = self.review, self.actions_by_key, self.review.reviewable()
        included = len(self.sources.included_ids()) if reviewable else 0
        writable = self.can_write()
        deciding = self.runner.busy("decide")
        k["ask"].setEnabled(reviewable and included >= 2 and not deciding)
        k["cancel_model"].setEnabled(deciding or self.runner.busy("supersede"))
        k["supersede"].setEnabled(reviewable and 2 <= len(rv.superseding.notes()) <= 3)
        k["union"].setEnabled(reviewable)
        k["edit"].setEnabled(reviewable)
        aligned = self.page.alignment_view
        k["confirm"].setEnabled(reviewable and (aligned.to_read() > 0 or any(r.confirmed for r in aligned.rows())))
        k["accept"].setEnabled(reviewable and writable and included >= 2 and bool(rv.cluster.body().strip()))
        k["accept"].setText("Accept supersession (A)" if rv.superseding.current() else "Accept merge (A)")
        k["append"].setEnabled(reviewable and writable and included >= 2)
        # one member checked, the others left out: keep separate records each of them against it
        k["keep"].setEnabled(reviewable and writable and included >= 1 and len(rv.cluster.members()) >= 2)
        k["skip"].setEnabled(reviewable)
        k["split"].setEnabled(reviewable and rv.row is not None and 2 <= included < len(rv.row.member_ids))
        k["undo"].setEnabled(rv.can_undo and writable)
        k["redo"].setEnabled(rv.can_redo and writable)
        k["rescan"].setEnabled(self.store is not None)
        self.keys.allow_editing(reviewable)

    # ---- opening a store --------------------------------------------------------------------------------

    def choose_store(self) -> None:
        start = str(Path(self.settings.store_path).parent) if self.settings.store_path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open a Netclaw store", start, "Netclaw store (*.db);;All files (*)")
        if path:
            self.open_located(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_stores:
            self.recent_menu.addAction(path, functools.partial(self.open_located, path))
        if not self.settings.recent_stores:
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def open_located(self, explicit: str | None, *, demo: bool = False) -> None:
        """Open `explicit`, else the located store (argument, $NETCLAW_HOME, ~/.netclaw, demo), on a worker."""
        s = self.services
        try:
            # the demo whatever $NETCLAW_HOME says (locate_store refuses a home that is not there)
            located = (LocatedStore(user_data_dir() / "demo" / "netclaw.db", "demo") if demo
                       else s.locate_store(explicit))
        except Exception as exc:  # noqa: BLE001
            self._open_failed(exc)
            return
        path, origin = Path(located.path), located.origin
        build = s.build_demo_store if located.is_demo and not path.exists() else None
        if located.is_demo and not path.exists() and build is None:
            self._open_failed(RuntimeError(f"no Netclaw store found and the demo store cannot be built here ({path})"))
            return
        opener = s.open_store

        def job(cancel: CancelToken) -> Store:
            if build is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                build(path)
            return opener(path)

        self.runner.start("open", job, label=f"Opening {path.name}", show_in_status=True,
                          on_done=lambda store: self._opened(store, str(path), origin), on_error=self._open_failed)

    def _open_failed(self, exc: BaseException) -> None:
        """Nothing changes: the store open before (if any) stays open, with its queue and its state."""
        message = one_line(exc)
        self.storeFailed.emit(message)
        if self.store is None:
            self.queue_label.setText("No store open — File → Open store…")
        self.prompter.error("Cannot open the store", message,
                            "Choose another file with File → Open store…, or open the demo store.")

    def _opened(self, store: Store, path: str, origin: str) -> None:
        old, self.store = self.store, store
        if old is not None and old is not store:
            self.runner.cancel_all()
            if self.marks is not None:
                self.marks.close()  # the old store's marks not written yet
            try:
                old.close()
            except Exception:  # noqa: BLE001 - closing a store that is gone is harmless
                pass
        self.store_origin = origin
        self.marks = QueueMarks(self.services, store, self.runner, lambda text: self.show_status(text, 8000),
                                queue=self.cluster_model)  # keeps each status the queue sets
        self._resume = True
        self.settings = self.settings.with_recent(path)
        save_settings(self.qsettings, self.settings)
        ro = bool(store.read_only)
        self.readonly_banner.setText(f"Read-only store: {path} — you can review, but nothing can be written "
                                     "(accept, append, keep separate and undo are off).")
        self.readonly_banner.setVisible(ro)
        demo = " (demo store)" if origin == "demo" else ""
        self.setWindowTitle(f"memgui — {Path(path).name}{demo}{' [read-only]' if ro else ''}")
        self.cluster_model.set_rows([])
        self.review.forget_history()
        self.review.load(None)
        self.audit_view.set_store(store)
        self.storeOpened.emit(store)
        self.start_scan()

    # ---- scanning ----------------------------------------------------------------------------------------

    def start_scan(self) -> None:
        scan, store, marks, splits = self.services.scan, self.store, self.marks, self.splits
        if store is None or marks is None:
            return
        kwargs = self.settings.scan_kwargs()

        def job(cancel: CancelToken) -> Work[Scanned]:
            result = yield from scan(store, cancel=cancel, **kwargs)
            result = replace(result, clusters=tuple(splits.apply(result.clusters)))  # X's splits stay apart
            ids = list(dict.fromkeys(i for c in result.clusters for i in c.member_ids))
            docs = {d.document_id: d for d in store.documents_by_ids(ids)}
            return (result, docs, *marks.for_clusters(result.clusters, docs))

        self.queue_label.setText("Scanning for near-duplicates…")
        self.runner.start("scan", job, label="Finding nominee clusters", show_in_status=True,
                          on_done=self._scanned, on_error=self._scan_failed,
                          on_cancelled=lambda: self.queue_label.setText("Scan cancelled — F5 to rescan"))

    def _scan_failed(self, exc: BaseException) -> None:
        self.queue_label.setText("Scan failed — F5 to retry")
        self.scanFailed.emit(one_line(exc))
        self.prompter.error("Cannot find nominee clusters", one_line(exc))

    def _scanned(self, value: Scanned) -> None:
        result, docs, keys, marks = value  # marks: of the clusters whose members are unchanged since marked
        self.scan_result = result
        self._cosines = {frozenset((p.a, p.b)): p.cosine for c in result.clusters for p in c.pairs
                         if p.cosine is not None}  # the degraded lexical path has none
        shown = None if self._resume or self.review.row is None else self.review.row.cluster_id
        rows = [ClusterRow.of(c, docs, keys[c.id], marks.get(keys[c.id])) for c in result.clusters]
        self.cluster_model.set_rows(rows)
        self.audit_view.set_current_threshold(result.threshold)
        self.queue.sortByColumn(self.queue.horizontalHeader().sortIndicatorSection(),
                                self.queue.horizontalHeader().sortIndicatorOrder())
        embedder = result.embedder
        how = f"{embedder.model_id} ({embedder.source})" if embedder is not None else "lexical overlap"
        self.queue_label.setText(f"{len(rows)} clusters · {how} · K {result.k} · threshold {result.threshold:.3f}")
        notices = list(result.notices)
        if result.degraded:
            notices.insert(0, f"Degraded nomination (no embedder: {result.degraded_reason}); clusters come from "
                              "word overlap and carry no cosine.")
        self.notice_banner.setText(" · ".join(notices))
        self.notice_banner.setVisible(bool(notices))
        self.scanFinished.emit(result)
        if rows:
            self._resume = False
            self.queue.selectRow(self.proxy.resume_row())  # a fresh store: where review stopped
            if shown is not None:  # a rescan: the cluster on show, if it is still in the queue
                self.select_cluster(shown)
            self.queue.setFocus()
        else:
            self.review.load(None)
            self.sources._empty.setText("No nominee clusters at this threshold — nothing to review. "
                                        "Settings (Ctrl+,) can lower the threshold.")
            self._maybe_ready()

    def _maybe_ready(self, *_args: object) -> None:
        if self._ready_sent or self.scan_result is None:
            return
        self._ready_sent = True
        self.ready.emit()

    # ---- the queue ----------------------------------------------------------------------------------------

    def split_off(self, cluster_id: str, member_ids: Sequence[str]) -> tuple[str | None, str | None]:
        index = self.cluster_model.row_of(cluster_id)
        if index < 0:
            return None, None
        rows = list(self.cluster_model.rows())
        parts = self.splits.split_row(rows[index], member_ids)  # the part (new), then the rest (its status)
        rows[index:index + 1] = parts
        self.cluster_model.set_rows(rows)
        return parts[0].cluster_id, (parts[1].cluster_id if len(parts) > 1 else None)

    def split_checked(self) -> None:
        split_checked(self.splits, self.cluster_model, self.review, self.select_cluster,
                      lambda text: self.show_status(text, 8000))

    # ---- the audit tab ------------------------------------------------------------------------------------

    def cosine_of(self, a: str, b: str) -> float | None:
        return self._cosines.get(frozenset((a, b)))

    def store_written(self, documents: frozenset[str], marked: frozenset[str]) -> None:
        """A write (either tab): the audit lists, and the rows holding `documents` but `marked`, read again."""
        self.audit_view.reload()
        if documents and not self.refresher.refresh(self.store, self.marks, documents, skip=marked):
            self.start_scan()

    def threshold_chosen(self, value: float) -> None:
        self.apply_settings(replace(self.settings, threshold=float(value)))
        self.statusBar().showMessage(f"Nominee threshold set to {value:.3f}; finding clusters again", 6000)

    # ---- settings and shutdown ------------------------------------------------------------------------

    def show_settings(self) -> None:
        models = []
        try:
            models = list(self.services.discover_models())
        except Exception as exc:  # noqa: BLE001 - a broken model folder must not stop the settings dialog
            self.statusBar().showMessage(f"Model discovery failed: {one_line(exc)}", 6000)
        dialog = SettingsDialog(self.settings, models, self)
        if dialog.exec():
            self.apply_settings(dialog.result_settings())
        dialog.deleteLater()

    def apply_settings(self, new: GuiSettings) -> None:
        old, self.settings = self.settings, new
        save_settings(self.qsettings, new)
        self.show_missing_models()
        self.ahead.settings_changed(old, new)
        if new.store_path and new.store_path != old.store_path:
            self.open_located(new.store_path)
        elif new.scan_kwargs() != old.scan_kwargs():
            self.start_scan()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.page.save_layout(self.qsettings)
        self.ahead.shutdown()
        self.runner.shutdown(15000)
        self.review.close()  # frees the loaded decider model
        if self.marks is not None:
            self.marks.close()
        if self.store is not None:
            try:
                self.store.close()
            except Exception:  # noqa: BLE001
                pass
            self.store = None
        super().closeEvent(event)
