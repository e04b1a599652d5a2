"""The Audit tab's two list pages, built onto the `AuditView` (its widgets become the view's attributes; their
signals go to the view's slots)."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from .models import AuditFilterProxy, AuditTableModel, ExemptionModel, table_view


class AuditWidgets(QWidget):
    """The Audit tab's widgets, declared with their types; `build_entries_page` and `build_exemptions_page` make
    them on the view (AuditView is one) and connect them to the view's handlers, declared below and defined there."""

    op_filter: QComboBox
    guard_filter: QComboBox
    model_filter: QComboBox
    doc_filter: QLineEdit
    count_label: QLabel
    audit_model: AuditTableModel
    audit_proxy: AuditFilterProxy
    audit_table: QTableView
    entry_text: QTextBrowser
    doc_combo: QComboBox
    diff_stats: QLabel
    diff_text: QTextBrowser
    undo_button: QPushButton
    redo_button: QPushButton
    reload_button: QPushButton
    export_jsonl_button: QPushButton
    export_md_button: QPushButton
    exemption_model: ExemptionModel
    exemption_table: QTableView
    remove_button: QPushButton
    titles: dict[str, str]  # document id -> title

    def reload(self) -> None:
        raise NotImplementedError

    def undo_selected(self) -> None:
        raise NotImplementedError

    def redo_selected(self) -> None:
        raise NotImplementedError

    def remove_selected_exemptions(self) -> None:
        raise NotImplementedError

    def _apply_filters(self) -> None:
        raise NotImplementedError

    def _entry_selected(self, *_: object) -> None:
        raise NotImplementedError

    def _show_diff(self, *_: object) -> None:
        raise NotImplementedError

    def _update_buttons(self, *_: object) -> None:
        raise NotImplementedError

    def _export_dialog(self, kind: str) -> None:
        raise NotImplementedError


GUARD_CHOICES = (("All guard results", ""), ("Guard passed", "passed"), ("Guard failed", "failed"), ("No guard", "none"))


def build_entries_page(view: AuditWidgets) -> QWidget:
    """The "memgui actions" page: filters, the audit table, the entry detail and diff, the buttons."""
    page = QWidget()
    v = QVBoxLayout(page)
    v.setContentsMargins(2, 4, 2, 2)
    v.addLayout(_entry_filters(view))
    _audit_table(view)
    detail = _entry_detail(view)
    main = QSplitter(Qt.Orientation.Horizontal)
    main.addWidget(view.audit_table)
    main.addWidget(detail)
    main.setSizes([600, 480])
    v.addWidget(main, 1)
    v.addLayout(_entry_buttons(view))
    return page


def _entry_filters(view: AuditWidgets) -> QHBoxLayout:
    """The filters above the audit table (operation, guard, model, document) and the count shown."""
    bar = QHBoxLayout()
    view.op_filter = QComboBox()
    view.op_filter.setObjectName("auditOperationFilter")
    view.guard_filter = QComboBox()
    view.guard_filter.setObjectName("auditGuardFilter")
    for text, value in GUARD_CHOICES:
        view.guard_filter.addItem(text, value)
    view.op_filter.addItem("All operations", "")
    view.model_filter = QComboBox()
    view.model_filter.setObjectName("auditModelFilter")
    view.model_filter.addItem("All models", "")
    view.doc_filter = QLineEdit()
    view.doc_filter.setObjectName("auditDocumentFilter")
    view.doc_filter.setPlaceholderText("document id or title…")
    view.doc_filter.setClearButtonEnabled(True)
    for w in (view.op_filter, view.guard_filter, view.model_filter):
        w.currentIndexChanged.connect(view._apply_filters)
        bar.addWidget(w)
    view.doc_filter.textChanged.connect(view._apply_filters)
    bar.addWidget(view.doc_filter, 1)
    view.count_label = QLabel("")
    bar.addWidget(view.count_label)
    return bar


def _audit_table(view: AuditWidgets) -> None:
    """The audit table over its model and filter proxy, newest first."""
    view.audit_model = AuditTableModel(view, view.titles)
    view.audit_proxy = AuditFilterProxy(view)
    view.audit_proxy.setSourceModel(view.audit_model)
    view.audit_table = table_view(view.audit_proxy, stretch=AuditTableModel.TARGET, fit=range(AuditTableModel.DECIDED_BY),
                              widths={AuditTableModel.DECIDED_BY: 110})
    view.audit_table.setObjectName("auditTable")
    view.audit_table.setSortingEnabled(True)
    view.audit_table.sortByColumn(AuditTableModel.ID, Qt.SortOrder.DescendingOrder)
    view.audit_table.selectionModel().selectionChanged.connect(view._entry_selected)


def _entry_detail(view: AuditWidgets) -> QWidget:
    """The selected entry's detail above the before → after diff of one of its documents."""
    detail = QWidget()
    dv = QVBoxLayout(detail)
    dv.setContentsMargins(0, 0, 0, 0)
    view.entry_text = QTextBrowser()
    view.entry_text.setObjectName("auditEntryDetail")
    view.entry_text.setOpenLinks(False)
    row = QHBoxLayout()
    row.addWidget(QLabel("Before → after of"))
    view.doc_combo = QComboBox()
    view.doc_combo.setObjectName("auditDiffDocument")
    view.doc_combo.setMinimumContentsLength(20)
    view.doc_combo.currentIndexChanged.connect(view._show_diff)
    row.addWidget(view.doc_combo, 1)
    view.diff_stats = QLabel("")
    row.addWidget(view.diff_stats)
    view.diff_text = QTextBrowser()
    view.diff_text.setObjectName("auditDiff")
    split = QSplitter(Qt.Orientation.Vertical)
    split.addWidget(view.entry_text)
    holder = QWidget()
    hv = QVBoxLayout(holder)
    hv.setContentsMargins(0, 0, 0, 0)
    hv.addLayout(row)
    hv.addWidget(view.diff_text, 1)
    split.addWidget(holder)
    split.setSizes([260, 240])
    dv.addWidget(split)
    return detail


def _entry_buttons(view: AuditWidgets) -> QHBoxLayout:
    """Undo, Redo, Reload and the two exports."""
    buttons = QHBoxLayout()
    view.undo_button = QPushButton("Undo")
    view.undo_button.setObjectName("auditUndo")
    view.undo_button.clicked.connect(view.undo_selected)
    view.redo_button = QPushButton("Redo")
    view.redo_button.setObjectName("auditRedo")
    view.redo_button.clicked.connect(view.redo_selected)
    view.reload_button = QPushButton("Reload")
    view.reload_button.clicked.connect(view.reload)
    view.export_jsonl_button = QPushButton("Export JSON Lines…")
    view.export_jsonl_button.setToolTip("The shown entries with their full before/after images, one per line")
    view.export_jsonl_button.clicked.connect(lambda: view._export_dialog("jsonl"))
    view.export_md_button = QPushButton("Export Markdown report…")
    view.export_md_button.setToolTip("The shown entries, the append histories and the daemon-log timeline")
    view.export_md_button.clicked.connect(lambda: view._export_dialog("md"))
    for b in (view.undo_button, view.redo_button, view.reload_button):
        buttons.addWidget(b)
    buttons.addStretch(1)
    buttons.addWidget(view.export_jsonl_button)
    buttons.addWidget(view.export_md_button)
    return buttons

def build_exemptions_page(view: AuditWidgets) -> QWidget:
    """The "Kept separate" page: the exempt pairs and Remove."""
    page = QWidget()
    v = QVBoxLayout(page)
    v.setContentsMargins(2, 4, 2, 2)
    help_label = QLabel("Pairs you marked \"not duplicates\". The nominator never offers them again until you "
                        "remove them here (the removal is audited and can be undone).")
    help_label.setWordWrap(True)
    v.addWidget(help_label)
    view.exemption_model = ExemptionModel(view, view.titles)
    view.exemption_table = table_view(view.exemption_model, stretch=3, multi=True, fit=(2,), widths={0: 300, 1: 300})
    view.exemption_table.setObjectName("auditExemptions")
    view.exemption_table.selectionModel().selectionChanged.connect(view._update_buttons)
    v.addWidget(view.exemption_table, 1)
    row = QHBoxLayout()
    row.addStretch(1)
    view.remove_button = QPushButton("Remove (allow nomination again)")
    view.remove_button.setObjectName("auditRemoveExemption")
    view.remove_button.clicked.connect(view.remove_selected_exemptions)
    row.addWidget(view.remove_button)
    v.addLayout(row)
    return page


def fill_filter(combo: QComboBox, any_text: str, values: Sequence[str]) -> None:
    """A filter combo's choices: "any" first, then `values`; the current choice kept when still offered."""
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(any_text, "")
    for value in values:
        combo.addItem(value, value)
    index = combo.findData(current) if current else 0
    combo.setCurrentIndex(max(0, index))
    combo.blockSignals(False)
