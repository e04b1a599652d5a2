"""The Audit tab's "History" page (issue 38 item 8): for an anchor or a document, what the memory said when, oldest
first — memgui's own writes (undone ones muted), the daemon's appends, the body's "previously … as of" phrases and
the rows' own time stamps (core/forensics/timeline.py, through `HistoryServices`). Both the list of subjects and
the timeline are read on the task runner; the GUI thread only shows them.

`install_history_page(view)` adds the page to an `AuditView`; `HistoryPage(services, runner)` stands alone (tests).
"""
from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..services.history import (
    SOURCE_ANCHOR,
    SOURCE_APPEND,
    SOURCE_AUDIT,
    SOURCE_DOCUMENT,
    SOURCE_INLINE,
    HistoryServices,
    HistorySubject,
    Subject,
    Timeline,
    TimelineEntry,
    UnknownSubjectError,
    history_services,
)
from ..services.types import Store
from ..workers import TaskRunner, one_line
from .models import FAILED_COLOR, MUTED_COLOR, WARN_COLOR, SortKey, TableModel, selected_rows, table_view, when_text

KINDS = (Subject.ANCHOR, Subject.DOCUMENT)
KIND_LABELS = {Subject.ANCHOR: "Anchor", Subject.DOCUMENT: "Document"}
SOURCE_LABELS = {SOURCE_DOCUMENT: "document", SOURCE_ANCHOR: "anchor", SOURCE_AUDIT: "memgui",
                 SOURCE_APPEND: "append history", SOURCE_INLINE: "history phrase"}
SOURCE_TIPS = {
    SOURCE_DOCUMENT: "the row's own created_at, updated_at or freshness_at",
    SOURCE_ANCHOR: "the anchor's row in memory_anchors",
    SOURCE_AUDIT: "a write memgui made (its audit row keeps the text before and after)",
    SOURCE_APPEND: "an addition the daemon appended under `_[merged YYYY-MM-DD]_` (the day it was written)",
    SOURCE_INLINE: "a 'previously … as of YYYY-MM-DD' phrase in the body (the day the older value held)",
}
HELP = ("What the memory said when, oldest first: memgui's own writes (an undone one is grey), the daemon's dated "
        "appends, the body's “previously … as of” phrases, and the notes' own created, updated and fresh-as-of times.")


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def entry_when(e: TimelineEntry) -> str:
    if e.time_ms is not None:
        return when_text(e.time_ms, seconds=False)
    return e.date or "no date"


def entry_what(e: TimelineEntry) -> str:
    what = e.kind + (f" #{e.audit_id}" if e.audit_id is not None else "")
    marks = [m for m, on in (("undone", e.undone), ("tombstoned", e.tombstoned)) if on]
    return what + (f" ({', '.join(marks)})" if marks else "")


class TimelineModel(TableModel[TimelineEntry]):
    """A timeline's entries, oldest first (core.forensics.timeline.TimelineEntry)."""

    COLUMNS = ("When", "Source", "What", "Memory", "Said")
    TIPS = ("the day (and time, when the source has one); oldest first", "where this entry comes from",
            "what happened", "the memory document it belongs to", "what the memory said then")
    WHEN, SOURCE, WHAT, NOTE, TEXT = range(5)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def display(self, e: TimelineEntry, col: int) -> str:
        if col == self.WHEN:
            return entry_when(e)
        if col == self.SOURCE:
            return SOURCE_LABELS.get(e.source, e.source)
        if col == self.WHAT:
            return entry_what(e)
        if col == self.NOTE:
            return e.title
        text = " ".join(e.text.split())
        return text if len(text) <= 240 else text[:239] + "…"

    def sort_value(self, e: TimelineEntry, col: int) -> SortKey:
        if col == self.WHEN:
            return f"{e.date or ''} {e.time_ms or 0:020d}"
        return self.display(e, col).lower()

    def tooltip(self, e: TimelineEntry, col: int) -> str | None:
        if col == self.SOURCE:
            return SOURCE_TIPS.get(e.source)
        if col == self.NOTE:
            return e.document_id
        if col == self.TEXT:
            text = e.text if len(e.text) <= 2000 else e.text[:2000] + "…"
            return f"{text}\n\n({e.note})" if e.note else text or None
        return e.note or None

    def color(self, e: TimelineEntry, col: int) -> str | None:
        if e.undone:
            return MUTED_COLOR
        if col == self.WHAT and e.tombstoned:
            return WARN_COLOR
        return None


def entry_html(e: TimelineEntry) -> str:
    head = f"<p><b>{_esc(entry_when(e))}</b> · {_esc(SOURCE_LABELS.get(e.source, e.source))} · {_esc(entry_what(e))}"
    if e.title:
        head += f" — {_esc(e.title)}"
    parts = [head + "</p>"]
    if e.note:
        parts.append(f"<p style='color:{MUTED_COLOR}'>{_esc(e.note)}</p>")
    if e.repaired:
        parts.append(f"<p style='color:{WARN_COLOR}'>The stored text is not valid UTF-8; what could not be read is "
                     "shown as �.</p>")
    label = "Text after this write" if e.source == SOURCE_AUDIT else "Text"
    parts.append(f"<p><b>{label}:</b></p><pre style='white-space:pre-wrap'>{_esc(e.text) or '(no text)'}</pre>")
    if e.source == SOURCE_AUDIT and e.before is not None and e.before != e.text:
        parts.append(f"<p><b>Text before it:</b></p><pre style='white-space:pre-wrap'>{_esc(e.before)}</pre>")
    return "".join(parts)


def timeline_summary(t: Timeline) -> str:
    n = len(t.entries)
    counted = f"{n} entr{'y' if n == 1 else 'ies'}, oldest first"
    if t.subject_kind == Subject.ANCHOR:
        docs = len(t.documents)
        text = f"Anchor “{t.name}” ({t.subject_id}): {docs} note{'' if docs == 1 else 's'}, {counted}."
    else:
        text = f"Document “{t.name or t.subject_id}”: {counted}."
    if t.tombstoned:
        text += " Tombstoned."
    return text


class HistoryPage(QWidget):
    subjectsLoaded = Signal()  # the picker lists the store's anchors and documents
    shown = Signal()  # a timeline is shown
    failed = Signal(str)  # a timeline could not be shown (the message is in the status line)

    def __init__(self, services: HistoryServices | None = None, runner: TaskRunner | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("auditHistoryPage")
        self.services = services or history_services()
        self.runner = runner or TaskRunner(self)
        self.store: Store | None = None
        self.timeline: Timeline | None = None
        self.subjects: list[HistorySubject] = []
        self._asked: tuple[str, str] | None = None  # (kind, key or text) of the timeline shown or being read
        v = QVBoxLayout(self)
        v.setContentsMargins(2, 4, 2, 2)
        help_label = QLabel(HELP)
        help_label.setWordWrap(True)
        v.addWidget(help_label)
        v.addLayout(self._picker())
        self.status = QLabel("Choose an anchor or a document.")
        self.status.setObjectName("auditHistoryStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        v.addWidget(self.status)
        self.model = TimelineModel(self)
        self.table = table_view(self.model, stretch=TimelineModel.TEXT, fit=(0, 1, 2), widths={3: 170})
        self.table.setObjectName("auditHistoryTable")
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.detail = QTextBrowser()
        self.detail.setObjectName("auditHistoryDetail")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setSizes([320, 200])
        v.addWidget(split, 1)
        self._update_buttons()

    def _picker(self) -> QHBoxLayout:
        """The kind (anchor or document), the subject (typed or chosen, completed as it is typed) and Show history."""
        row = QHBoxLayout()
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("auditHistoryKind")
        for kind in KINDS:
            self.kind_combo.addItem(KIND_LABELS[kind], kind)
        self.kind_combo.currentIndexChanged.connect(lambda _i: self._fill_subjects(keep_text=False))
        row.addWidget(self.kind_combo)
        self.subject_combo = QComboBox()
        self.subject_combo.setObjectName("auditHistorySubject")
        self.subject_combo.setEditable(True)
        self.subject_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.subject_combo.setMinimumContentsLength(30)
        edit = self.subject_combo.lineEdit()
        if edit is not None:
            edit.setPlaceholderText("an anchor's name or id, a document's title or id")
            edit.returnPressed.connect(self.show_selected)
        completer = self.subject_combo.completer()
        if completer is not None:
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.subject_combo.activated.connect(lambda _i: self.show_selected())
        row.addWidget(self.subject_combo, 1)
        self.show_button = QPushButton("Show history")
        self.show_button.setObjectName("auditHistoryShow")
        self.show_button.clicked.connect(self.show_selected)
        row.addWidget(self.show_button)
        return row

    # ---- the store and its subjects ------------------------------------------------------------------------------

    def set_store(self, store: Store | None) -> None:
        """Show `store`'s anchors and documents in the picker; a timeline of another store is cleared, one of this
        store is read again (a write may have changed it)."""
        if store is not self.store:
            self.timeline, self._asked = None, None
            self.model.set_rows([])
            self.detail.clear()
            self.status.setText("Choose an anchor or a document.")
        self.store = store
        self.subjects = []
        self._update_buttons()
        if store is None:
            self.runner.cancel("audit-history-subjects")
            self._fill_subjects()
            return
        subjects = self.services.subjects
        self.runner.start("audit-history-subjects", lambda cancel: subjects(store), label="Listing anchors",
                          on_done=self._subjects_loaded, on_error=self._subjects_failed)
        if self._asked is not None:
            self.show_subject(*self._asked)

    def _subjects_loaded(self, subjects: list[HistorySubject]) -> None:
        self.subjects = list(subjects)
        self._fill_subjects()
        self.subjectsLoaded.emit()

    def _subjects_failed(self, exc: BaseException) -> None:
        self.status.setText(f"Could not list the store's anchors: {one_line(exc)}")
        self.status.setStyleSheet(f"color: {FAILED_COLOR}")

    def _fill_subjects(self, *, keep_text: bool = True) -> None:
        kind = self.kind_combo.currentData()
        text = self.subject_combo.currentText() if keep_text else ""
        self.subject_combo.blockSignals(True)
        self.subject_combo.clear()
        for s in self.subjects:
            if s.kind == kind:
                self.subject_combo.addItem(s.label, s.key)
        self.subject_combo.setCurrentIndex(-1)
        self.subject_combo.setEditText(text)
        self.subject_combo.blockSignals(False)
        self._update_buttons()

    # ---- one timeline --------------------------------------------------------------------------------------------

    def show_selected(self) -> None:
        """The subject chosen in the picker, or the text typed there (an id, or an anchor's name)."""
        kind = Subject(str(self.kind_combo.currentData()))
        text = self.subject_combo.currentText().strip()
        index = self.subject_combo.findText(text, Qt.MatchFlag.MatchExactly)
        key = self.subject_combo.itemData(index) if index >= 0 else text
        if key:
            self.show_subject(kind, str(key))

    def show_subject(self, kind: Subject | str, key: str) -> None:
        """Read the timeline of a document (`kind` "document", its id) or an anchor (its id or name) on the runner."""
        store, timeline = self.store, self.services.timeline
        if store is None or kind not in KINDS or not key:
            return
        kind = Subject(kind)
        self._asked = (kind, key)
        k = self.kind_combo.findData(kind)
        if k >= 0 and k != self.kind_combo.currentIndex():
            self.kind_combo.setCurrentIndex(k)
        self.status.setStyleSheet("")
        self.status.setText("Reading the history…")

        def read(cancel: object) -> Timeline:
            if kind == Subject.DOCUMENT:
                return timeline(store, document_id=key)
            return timeline(store, anchor=key)

        self.runner.start("audit-history", read, label="Reading the history", on_done=self._shown,
                          on_error=self._failed)

    def _shown(self, t: Timeline) -> None:
        self.timeline = t
        index = self.subject_combo.findData(t.subject_id)
        if index >= 0:
            self.subject_combo.setCurrentIndex(index)
        else:
            self.subject_combo.setEditText(t.name or t.subject_id)
        self.model.set_rows(list(t.entries))
        text = timeline_summary(t)
        if t.notes:
            text += " " + " ".join(t.notes)
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {WARN_COLOR}" if t.tombstoned else "")
        if t.entries:
            self.table.selectRow(len(t.entries) - 1)  # the newest: what the memory says now
            self.table.scrollToBottom()
        self._selected()
        self.shown.emit()

    def _failed(self, exc: BaseException) -> None:
        text = str(exc) if isinstance(exc, UnknownSubjectError) else f"Could not read the history: {one_line(exc)}"
        self.timeline = None
        self.model.set_rows([])
        self.detail.clear()
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {FAILED_COLOR}")
        self.failed.emit(text)

    def selected(self) -> TimelineEntry | None:
        rows = selected_rows(self.table, TimelineEntry)
        return rows[0] if rows else None

    def _selected(self, *_: object) -> None:
        e = self.selected()
        self.detail.setHtml(entry_html(e) if e is not None else "")

    def _update_buttons(self) -> None:
        self.show_button.setEnabled(self.store is not None)

    def shutdown(self) -> None:
        for kind in ("audit-history", "audit-history-subjects"):
            self.runner.cancel(kind)


class HistoryHost(Protocol):
    """What the page uses of the Audit tab around it (the `AuditView`)."""

    store: Store | None
    runner: TaskRunner
    tabs: QTabWidget

    @property
    def loaded(self) -> SignalInstance: ...


def install_history_page(view: HistoryHost, services: HistoryServices | None = None) -> HistoryPage:
    """Add the page to `view.tabs` as "History"; it follows the view's store on each reload (after a write too)."""
    page = HistoryPage(services, view.runner)
    view.tabs.addTab(page, "History")
    view.loaded.connect(lambda: page.set_store(view.store))
    return page


__all__ = ["HistoryPage", "TimelineModel", "entry_html", "install_history_page", "timeline_summary"]
