"""The Review tab's widgets: cluster queue and filter (left), sources + merged body + word diff (middle),
decision, MergeGuard report and action buttons (right). Holds no behaviour: the window fills the queue, the
`Review` controller drives the panels."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .cluster_model import ClusterFilterProxy, ClusterTableModel
from .decision_panel import DecisionPanel, action_button
from .diff_view import DiffView
from .evidence_panel import EvidencePanel
from .guard_panel import GuardPanel
from .sources_view import SourcesView


def banner(name: str, fg: str, bg: str) -> QLabel:
    label = QLabel("")
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet(f"QLabel {{ color:{fg}; background:{bg}; padding:5px 8px; font-weight:600; }}")
    label.hide()
    return label


class ReviewPage(QWidget):
    """The panels the `Review` controller works on (its `ReviewPanels`), laid out as the Review tab."""

    def __init__(self, actions: dict[str, QAction], parent: QWidget | None = None):
        super().__init__(parent)
        self.notice_banner = banner("noticeBanner", "#0b4a8b", "#ddf4ff")
        self.cluster_model = ClusterTableModel(self)
        self.proxy = ClusterFilterProxy(self)
        self.proxy.setSourceModel(self.cluster_model)
        self.queue = self._queue_view()
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("filterEdit")
        self.filter_edit.setPlaceholderText("Filter clusters: full-text search of the store (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.queue_label = QLabel("No store open")
        self.queue_label.setObjectName("queueLabel")
        self.queue_label.setStyleSheet("color:#57606a")
        self.queue_label.setWordWrap(True)
        self.sources = SourcesView()
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("mergedEditor")
        self.editor.setPlaceholderText("The merged body goes here: U for the union draft, M to ask the model, or type.")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
        self.editor_title = QLabel("Merged body")
        self.editor_title.setObjectName("editorTitle")
        self.editor_title.setStyleSheet("font-weight:600")
        self.editor_title.setWordWrap(True)
        self.diff_view = DiffView()
        self.evidence_panel = EvidencePanel()
        self.compare_tabs = QTabWidget()
        self.compare_tabs.setObjectName("compareTabs")
        self.compare_tabs.setDocumentMode(True)
        self.compare_tabs.addTab(self.diff_view, "Word diff")
        self.compare_tabs.addTab(self.evidence_panel, "Conflicts")
        self.guard_panel = GuardPanel()
        self.decision_panel = DecisionPanel(actions["ask"], actions["cancel_model"], actions["union"])
        self._lay_out(actions)

    def evidence_changed(self) -> None:
        """The Conflicts tab's title counts the conflicting values found between the sources."""
        n = self.evidence_panel.conflict_count()
        self.compare_tabs.setTabText(1, f"Conflicts ({n})" if n else "Conflicts")
        self.compare_tabs.tabBar().setTabTextColor(1, QColor("#9a3412" if n else "#24292f"))

    def _queue_view(self) -> QTableView:
        queue = QTableView()
        queue.setObjectName("clusterQueue")
        queue.setModel(self.proxy)
        queue.setSortingEnabled(True)
        queue.sortByColumn(ClusterTableModel.COSINE, Qt.SortOrder.DescendingOrder)
        queue.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        queue.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        queue.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        queue.verticalHeader().hide()
        queue.verticalHeader().setDefaultSectionSize(22)
        queue.setWordWrap(False)
        header = queue.horizontalHeader()
        # Fixed widths: ResizeToContents would measure every row on each change (slow with thousands of clusters).
        for col, width in ((0, 84), (1, 66), (2, 38)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        header.setSectionResizeMode(ClusterTableModel.TITLES, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(ClusterTableModel.ANCHOR, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(ClusterTableModel.ANCHOR, 84)
        return queue

    def _lay_out(self, k: dict[str, QAction]) -> None:
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(4, 4, 2, 4)
        lay.addWidget(self.filter_edit)
        lay.addWidget(self.queue, 1)
        lay.addWidget(self.queue_label)

        merged = QWidget()
        lay = QVBoxLayout(merged)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.editor_title)
        lay.addWidget(self.editor, 1)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(merged)
        bottom.addWidget(self.compare_tabs)
        bottom.setSizes([500, 500])
        self.middle_splitter = QSplitter(Qt.Orientation.Vertical)
        self.middle_splitter.addWidget(self.sources)
        self.middle_splitter.addWidget(bottom)
        self.middle_splitter.setSizes([380, 480])

        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(2, 4, 4, 4)
        guard_box = QGroupBox("MergeGuard · strict lens")
        QVBoxLayout(guard_box).addWidget(self.guard_panel)
        self.right_splitter = QSplitter(Qt.Orientation.Vertical)
        self.right_splitter.addWidget(self.decision_panel)
        self.right_splitter.addWidget(guard_box)
        self.right_splitter.setChildrenCollapsible(False)
        self.right_splitter.setStretchFactor(1, 1)
        self.right_splitter.setSizes([268, 582])
        lay.addWidget(self.right_splitter, 1)
        actions = QGroupBox("Actions")
        grid = QGridLayout(actions)
        grid.addWidget(action_button(k["accept"], primary=True), 0, 0, 1, 2)
        grid.addWidget(action_button(k["append"]), 1, 0)
        grid.addWidget(action_button(k["keep"]), 1, 1)
        grid.addWidget(action_button(k["skip"]), 2, 0)
        grid.addWidget(action_button(k["edit"]), 2, 1)
        grid.addWidget(action_button(k["undo"]), 3, 0)
        grid.addWidget(action_button(k["redo"]), 3, 1)
        lay.addWidget(actions)

        self.main_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.main_splitter.addWidget(left)
        self.main_splitter.addWidget(self.middle_splitter)
        self.main_splitter.addWidget(right)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([430, 730, 400])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.notice_banner)
        lay.addWidget(self.main_splitter, 1)
