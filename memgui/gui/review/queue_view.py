"""The cluster queue's table. Its columns have fixed widths (ResizeToContents would measure every row on each
change: slow with thousands of clusters); Titles takes the rest.

Titles read at laptop sizes. While the queue is too narrow for one-line titles beside Status, Cosine and Size
(1280×720, 1366×768), it turns compact: every row is two lines high, the titles wrap at word boundaries (the
second line elided), and the Status column folds into the Cosine cell — its badge and top cosine on the first
line, the review status on the second — so a cluster's first title reads whole ("Jun Park — atlas-sync
co-maintainer · …") and Cosine and Size still sort. Wider, rows go back to one line and every column shows; the
Anchor column only when the titles keep their one-line room beside it. All rows share one height (no per-row
measuring); the row's tooltip names every member in full."""
from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from .cluster_model import CLUSTER_ROLE, KEPT_SEPARATE, STATUS_COLORS, ClusterRow, ClusterTableModel as Columns

FIXED = ((Columns.STATUS, 84), (Columns.COSINE, 66), (Columns.SIZE, 38))
TITLES_MIN = 120  # a title's first words
ANCHOR_WIDTH = 84
# Titles narrower than this many average characters beside the four columns: the queue turns compact.
ONE_LINE_TITLE_CHARS = 48
ROW_PADDING = 8  # above and below the text of a row
COMPACT_STATUS = {KEPT_SEPARATE: "separate"}  # the compact cell's short word (the tooltip says it whole)


class CosineStatusDelegate(QStyledItemDelegate):
    """The Cosine cell of a compact queue: badge and top cosine on the first line, the review status (in its
    colour) on the second. One-line rows paint as usual."""

    def __init__(self, view: QueueView):
        super().__init__(view)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        row = index.data(CLUSTER_ROLE)
        if not self.view.compact or not isinstance(row, ClusterRow):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        line = self.view.fontMetrics().lineSpacing()
        badge = index.model().index(index.row(), Columns.STATUS, index.parent()).data(
            Qt.ItemDataRole.DecorationRole)  # the model's verdict, decided ahead (the hidden Status cell's badge)
        if isinstance(badge, QIcon):
            opt.icon = badge
            opt.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
            opt.decorationSize = QSize(line - 2, line - 2)
        full = QRect(opt.rect)
        opt.displayAlignment = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop
        opt.rect = QRect(full.left(), full.top() + ROW_PADDING // 2, full.width(), line)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        # the cell's background and selection over both lines, then the first line's icon and text
        background = QStyleOptionViewItem(opt)
        background.rect, background.text = full, ""
        background.icon = type(opt.icon)()
        background.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDecoration
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, background, painter, opt.widget)
        opt.backgroundBrush = type(opt.backgroundBrush)()
        opt.state &= ~QStyle.StateFlag.State_HasFocus
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setPen(option.palette.color(QPalette.ColorRole.HighlightedText) if selected
                       else STATUS_COLORS.get(row.status, "#000000"))
        second = QRect(full.left() + 4, full.top() + ROW_PADDING // 2 + line, full.width() - 8, line)
        text = COMPACT_STATUS.get(row.status, row.status)
        painter.drawText(second, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         self.view.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, second.width()))
        painter.restore()


class QueueView(QTableView):
    def __init__(self, model: QAbstractItemModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("clusterQueue")
        self.setModel(model)
        self.setSortingEnabled(True)
        self.sortByColumn(Columns.COSINE, Qt.SortOrder.DescendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setItemDelegateForColumn(Columns.COSINE, CosineStatusDelegate(self))
        self.compact = False
        self._set_compact(False)
        header = self.horizontalHeader()
        for col, width in (*FIXED, (Columns.ANCHOR, ANCHOR_WIDTH)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        header.setSectionResizeMode(Columns.TITLES, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(32)
        scrollbar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.setMinimumWidth(sum(w for _, w in FIXED[1:]) + TITLES_MIN + scrollbar + 2 * self.frameWidth())

    def row_height(self, lines: int) -> int:
        return lines * self.fontMetrics().lineSpacing() + ROW_PADDING

    def _set_compact(self, compact: bool) -> None:
        self.compact = compact
        self.setWordWrap(compact)
        self.verticalHeader().setDefaultSectionSize(self.row_height(2 if compact else 1))
        self.horizontalHeader().setSectionHidden(Columns.STATUS, compact)

    def scrollTo(self, index: QModelIndex | QPersistentModelIndex,
                 hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        # the queue's rows are selected by their first column, Status, which a compact queue hides: a hidden
        # cell is never scrolled to, so its row is (by the Cosine cell)
        if index.isValid() and self.isColumnHidden(index.column()):
            index = self.model().index(index.row(), Columns.COSINE, index.parent())
        super().scrollTo(index, hint)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        header = self.horizontalHeader()
        # a hidden section measures 0: the folded Status column counts at its own width, so the choice is the
        # same either way round (it would flip back and forth otherwise)
        fixed = sum(width if header.isSectionHidden(c) else header.sectionSize(c) for c, width in FIXED)
        room = self.viewport().width()
        compact = room < fixed + ONE_LINE_TITLE_CHARS * self.fontMetrics().averageCharWidth()
        if compact != self.compact:
            self._set_compact(compact)
            self.scrollTo(self.currentIndex())  # the selected cluster stays in view
        # the Anchor column only where the titles keep their one-line room beside it (titles read first)
        roomy = not compact and room >= fixed + ONE_LINE_TITLE_CHARS * self.fontMetrics().averageCharWidth() + ANCHOR_WIDTH
        if header.isSectionHidden(Columns.ANCHOR) == roomy:
            header.setSectionHidden(Columns.ANCHOR, not roomy)
