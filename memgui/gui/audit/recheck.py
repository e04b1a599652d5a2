"""The Audit tab's "Re-check merges" page: the core's re-check of every merge memgui wrote (run on the task runner),
the merges that now show a fact at risk, and for the selected one Undo (while the core says undo would go through)
or "Append lost fact back" (otherwise), each after a confirmation that says what changes.

`install_recheck_page(view)` adds the page to an `AuditView`; writes go through the view's `AuditWrites` (its undo
path; the view's banner, reload and `storeChanged`), and the list is re-checked whenever the view reloads after one.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..dialogs import Prompter
from ..services import AuditServices
from ..services.types import Operation, RecheckedMerge, RecheckReport, Store
from ..services.values import ACTION_APPEND_BACK, ACTION_UNDO, Progress
from ..workers import TaskRunner, one_line
from .models import WARN_COLOR, SortKey, TableModel, selected_rows, short_id, table_view, when_text
from .writes import AuditWrites

ACTION_LABELS = {ACTION_UNDO: "Undo", ACTION_APPEND_BACK: "Append lost fact back"}
HELP = ("Runs today's fact lens again over every merge memgui wrote (the audit keeps each source as it was) and "
        "lists those that now show a fact at risk. Undo puts the sources back while nothing changed since; "
        "otherwise the sentences that held the lost facts can be appended back to the merged document.")


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class RecheckHost(Protocol):
    """What the page uses of the Audit tab around it (the `AuditView`): its store, services, runner and titles,
    its tabs and reloads, and its own undo and write reporting."""

    store: Store | None
    services: AuditServices
    runner: TaskRunner
    titles: dict[str, str]
    tabs: QTabWidget

    @property
    def loaded(self) -> SignalInstance: ...

    @property
    def writes(self) -> AuditWrites: ...  # its writes: what they say comes back through the view

    def revert(self, action: Operation, audit_id: int) -> None: ...


class RecheckModel(TableModel[RecheckedMerge]):
    """Past merges that now show a fact at risk (core.forensics.recheck.RecheckedMerge)."""

    COLUMNS = ("#", "Merged", "Target", "Facts at risk", "What can be done")
    ID, WHEN, TARGET, FACTS, ACTION = range(5)

    def display(self, m: RecheckedMerge, col: int) -> str:
        if col == self.ID:
            return str(m.audit_id)
        if col == self.WHEN:
            return when_text(m.created_at, seconds=False)
        if col == self.TARGET:
            return m.target_title or short_id(m.target_id)
        if col == self.FACTS:
            return "; ".join(f"{f.direction} {f.token}" for f in m.facts)
        return ACTION_LABELS.get(m.action, "edit by hand")

    def sort_value(self, m: RecheckedMerge, col: int) -> SortKey:
        if col in (self.ID, self.WHEN):
            return m.audit_id
        return self.display(m, col).lower()

    def tooltip(self, m: RecheckedMerge, col: int) -> str | None:
        return m.why if col == self.ACTION else m.target_id if col == self.TARGET else None

    def color(self, m: RecheckedMerge, col: int) -> str | None:
        return WARN_COLOR if col == self.FACTS else None


def finding_html(m: RecheckedMerge, titles: Mapping[str, str] | None = None) -> str:
    titles = titles or {}
    rows = "".join(
        f"<tr><td>{_esc(f.direction)}</td><td><b>{_esc(f.token)}</b></td><td>{_esc(f.kind)}</td>"
        f"<td>{_esc(', '.join(titles.get(s) or short_id(s) for s in f.source_ids) or '—')}</td></tr>"
        for f in m.facts)
    parts = [f"<p><b>Merge #{m.audit_id}</b> into {_esc(m.target_title or m.target_id)} "
             f"({when_text(m.created_at)})</p>",
             "<table cellspacing=4><tr><th align=left>Direction</th><th align=left>Fact</th>"
             f"<th align=left>Kind</th><th align=left>Source</th></tr>{rows}</table>",
             f"<p><b>What can be done:</b> {_esc(ACTION_LABELS.get(m.action, 'nothing automatic'))}. "
             f"{_esc(m.why[:1].upper() + m.why[1:])}.</p>"]
    if m.append_text:
        parts.append("<p>Appending back would add:</p><pre style='white-space:pre-wrap'>"
                     f"{_esc(m.append_text)}</pre>")
    return "".join(parts)


class RecheckPage(QWidget):
    rechecked = Signal()  # a re-check finished and its list is shown

    def __init__(self, view: RecheckHost, prompter: Prompter | None = None):
        super().__init__()
        self.setObjectName("auditRecheckPage")
        self.view = view
        self.prompter = prompter or Prompter(self)
        self.report: RecheckReport | None = None
        self._checked_store: Store | None = None
        v = QVBoxLayout(self)
        v.setContentsMargins(2, 4, 2, 2)
        top = QHBoxLayout()
        help_label = QLabel(HELP)
        help_label.setWordWrap(True)
        top.addWidget(help_label, 1)
        self.recheck_button = QPushButton("Re-check merges")
        self.recheck_button.setObjectName("auditRecheck")
        self.recheck_button.clicked.connect(self.recheck)
        top.addWidget(self.recheck_button, 0, Qt.AlignmentFlag.AlignTop)
        v.addLayout(top)
        self.status = QLabel("Not re-checked yet.")
        self.status.setObjectName("auditRecheckStatus")
        v.addWidget(self.status)
        self.model = RecheckModel(self)
        self.table = table_view(self.model, stretch=RecheckModel.FACTS, fit=(0, 1, 4), widths={2: 220})
        self.table.setObjectName("auditRecheckTable")
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.detail = QTextBrowser()
        self.detail.setObjectName("auditRecheckDetail")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setSizes([300, 220])
        v.addWidget(split, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.undo_button = QPushButton("Undo merge")
        self.undo_button.setObjectName("auditRecheckUndo")
        self.undo_button.clicked.connect(self.undo_selected)
        self.append_button = QPushButton("Append lost fact back")
        self.append_button.setObjectName("auditAppendBack")
        self.append_button.clicked.connect(self.append_back_selected)
        row.addWidget(self.undo_button)
        row.addWidget(self.append_button)
        v.addLayout(row)
        self._update_buttons()

    # ---- the re-check ------------------------------------------------------------------------------------------

    def recheck(self) -> None:
        store, work = self.view.store, self.view.services.recheck_merges_work
        if store is None:
            return
        self._checked_store = store
        self.status.setText("Re-checking merges…")
        self.recheck_button.setEnabled(False)

        def progress(p: Progress) -> None:
            if p.total:
                self.status.setText(f"Re-checking merges… {p.done}/{p.total}")

        self.view.runner.start("audit-recheck", lambda cancel: work(store, cancel=cancel), label="Re-checking merges",
                               on_progress=progress, on_done=self._shown, on_error=self._failed)

    def _shown(self, report: RecheckReport) -> None:
        selected = self.selected()
        self.report = report
        self.model.set_rows(report.at_risk)
        n, checked = len(report.at_risk), report.checked
        text = (f"{n} of {checked} merge(s) now show a fact at risk." if n
                else f"All {checked} merge(s) memgui wrote keep their facts under today's lens.")
        if report.resolved:
            text += f" {len(report.resolved)} repaired by an append-back."
        if report.skipped:
            text += f" {len(report.skipped)} not re-checkable (protocol merges keep no proposal text)."
        self.status.setText(text)
        self.recheck_button.setEnabled(True)
        row = next((i for i, m in enumerate(report.at_risk) if selected and m.audit_id == selected.audit_id), 0)
        if n:
            self.table.selectRow(row)
        self._selected()
        self.rechecked.emit()

    def _failed(self, exc: BaseException) -> None:
        self.recheck_button.setEnabled(True)
        self.status.setText(f"Re-check failed: {one_line(exc)}")

    def view_reloaded(self) -> None:
        """The view reloaded (a write, another store): re-check a list already shown, or clear one of another store."""
        store = self.view.store
        if self.report is None:
            self._update_buttons()
        elif store is None or store is not self._checked_store:
            self.report, self._checked_store = None, None
            self.model.set_rows([])
            self.status.setText("Not re-checked yet.")
            self._selected()
        else:
            self.recheck()

    # ---- the selected merge ------------------------------------------------------------------------------------

    def selected(self) -> RecheckedMerge | None:
        rows = selected_rows(self.table, RecheckedMerge)
        return rows[0] if rows else None

    def _selected(self, *_: object) -> None:
        m = self.selected()
        self.detail.setHtml(finding_html(m, self.view.titles) if m is not None else "")
        self._update_buttons()

    def _update_buttons(self) -> None:
        store, m = self.view.store, self.selected()
        writable = store is not None and not getattr(store, "read_only", True)
        self.recheck_button.setEnabled(store is not None)
        self.undo_button.setEnabled(writable and m is not None and m.action == ACTION_UNDO)
        self.append_button.setEnabled(writable and m is not None and m.action == ACTION_APPEND_BACK)
        why = "" if writable else "The store is open read-only; nothing can be written."
        self.undo_button.setToolTip(why or "Put back every document the merge touched (refused if one changed since)")
        self.append_button.setToolTip(why or "Append the sentences that held the lost facts to the merged document")

    def undo_selected(self) -> None:
        m = self.selected()
        if m is None or self.view.store is None:
            return
        desc = f"merge into “{m.target_title or m.target_id}”"
        impact = (f"Undo the {desc} (audit #{m.audit_id}): every document it touched gets back the text it had before "
                  "it. The core refuses if any of them changed since. The undo itself is recorded in the audit.")
        if self.prompter.confirm("Undo", f"Undo the {desc}?", impact, "Undo"):
            self.view.revert(Operation.UNDO, m.audit_id)

    def append_back_selected(self) -> None:
        m = self.selected()
        if m is None or self.view.store is None:
            return
        impact = (f"These sentences of merge #{m.audit_id}'s sources are appended to "
                  f"“{m.target_title or m.target_id}” under a dated separator, as Netclaw appends:\n\n"
                  f"{m.append_text}\n\nThe core refuses if the document changed since this re-check. "
                  "The write is recorded in the audit and can be undone.")
        if self.prompter.confirm("Append lost fact back", "Append the lost facts back?", impact, "Append back"):
            self.view.writes.append_back(m)


def install_recheck_page(view: RecheckHost) -> RecheckPage:
    """Add the page to `view.tabs` as "Re-check merges" and keep it in step with the view's reloads."""
    page = RecheckPage(view)
    view.tabs.addTab(page, "Re-check merges")
    view.loaded.connect(page.view_reloaded)
    return page


__all__ = ["RecheckModel", "RecheckPage", "finding_html", "install_recheck_page"]
