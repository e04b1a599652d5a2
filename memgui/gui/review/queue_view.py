"""The cluster queue's table. Its columns have fixed widths (ResizeToContents would measure every row on each
change: slow with thousands of clusters); Titles takes the rest. Narrow — a laptop, a narrow saved geometry —
it drops the Anchor column first, so Status, Cosine, Size and Titles stay in view, and it never gets narrower
than those four need."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView

from .cluster_model import ClusterTableModel as Columns

FIXED = ((Columns.STATUS, 84), (Columns.COSINE, 66), (Columns.SIZE, 38))
TITLES_MIN = 120  # a title's first words
ANCHOR_WIDTH = 84


class QueueView(QTableView):
    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.setObjectName("clusterQueue")
        self.setModel(model)
        self.setSortingEnabled(True)
        self.sortByColumn(Columns.COSINE, Qt.SortOrder.DescendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(22)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        for col, width in (*FIXED, (Columns.ANCHOR, ANCHOR_WIDTH)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        header.setSectionResizeMode(Columns.TITLES, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(32)
        scrollbar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.setMinimumWidth(sum(w for _, w in FIXED) + TITLES_MIN + scrollbar + 2 * self.frameWidth())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        header = self.horizontalHeader()
        fixed = sum(header.sectionSize(c) for c, _ in FIXED)
        roomy = self.viewport().width() >= fixed + TITLES_MIN + TITLES_MIN // 3 + ANCHOR_WIDTH
        if header.isSectionHidden(Columns.ANCHOR) == roomy:
            header.setSectionHidden(Columns.ANCHOR, not roomy)
