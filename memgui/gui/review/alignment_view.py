"""The alignment of the merged body with its sources, as the core reads it (core/merge/read_pairs.py): one row per
source sentence — its source and number, its text, its fate, the body sentence(s) it aligns to — `read` and `lost`
rows first, the words that differ marked (amber: only one side has them; red: what the proof could not find or
what the body adds). A union draft's kept-back sentences sit beside the sentence they were compared with and say
why they were kept. Under the table, the selected pair in full. R confirms it as a restatement (the controller's
action; this view only says which row is selected). Shows rows it is handed; computes nothing."""
from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, QRectF, Qt, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QBrush, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..services.types import Fate, MarkedText, PairRow
from ..services.values import OWED
from ..style import MUTED, set_colors

MARKED_ROLE = int(Qt.ItemDataRole.UserRole) + 1  # the text as HTML, its differing words marked
ROW_ROLE = int(Qt.ItemDataRole.UserRole) + 2  # the PairRow itself
DIFFERS_STYLE = "background:#fff1b8"
OWED_STYLE = "background:#ffc9c9; color:#7d0a0a; font-weight:600"
FATE_COLOURS = {  # fate -> (foreground, background)
    "read": ("#5c3b00", "#ffe08a"), "lost": ("#7d0a0a", "#ffc9c9"), "restated": ("#116329", "#dafbe1"),
    "kept": ("#24292f", "#eaeef2"), "confirmed": ("#0b4a8b", "#ddf4ff"),
}
CONFIRM_KEY = "R"


def marked_html(text: MarkedText) -> str:
    """`text` as HTML with its marks as coloured spans (one line: line breaks shown as spaces)."""
    out, at = [], 0
    for mark in text.marks:
        if mark.start < at:
            continue
        out.append(html.escape(text.text[at:mark.start]))
        style = OWED_STYLE if mark.kind == OWED else DIFFERS_STYLE
        out.append(f"<span style='{style}'>{html.escape(text.text[mark.start:mark.end])}</span>")
        at = mark.end
    out.append(html.escape(text.text[at:]))
    return "".join(out).replace("\n", " ")


def fate_text(row: PairRow, *, short: bool = False) -> str:
    """The row's fate as shown: `confirmed`, `kept back` (a read pair a union draft kept whole; `read · kept back`
    in full), else the alignment's fate."""
    if row.confirmed:
        return "confirmed"
    if row.kept_back:
        return "kept back" if short else f"{row.fate.value} · kept back"
    return row.fate.value


def _fate_key(row: PairRow) -> str:
    return "confirmed" if row.confirmed else row.fate.value


class AlignmentModel(QAbstractTableModel):
    COLUMNS = ("#", "Fate", "Source sentence", "Body sentence(s)")  # the fate before the texts: a narrow tab shows it
    SOURCE, BODY = 2, 3
    TIPS = ("the source (its pane number) and the sentence's number in it",
            "kept: word for word · restated: proved · read: compare the pair yourself · lost: a fact named gone · "
            "kept back: a read pair the union draft kept whole · confirmed: you confirmed the restatement",
            "the source's sentence", "the merged body's sentence(s) it aligns to")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[PairRow] = []
        self._labels: tuple[str, ...] = ()

    def set_rows(self, rows: Sequence[PairRow], labels: Sequence[str]) -> None:
        self.beginResetModel()
        self._rows, self._labels = list(rows), tuple(labels)
        self.endResetModel()

    def rows(self) -> list[PairRow]:
        return list(self._rows)

    def row_at(self, row: int) -> PairRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def label(self, source: int) -> str:
        return self._labels[source] if 0 <= source < len(self._labels) else f"#{source + 1}"

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.TIPS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows) or not 0 <= index.column() < 4:
            return None
        row, col = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (f"{self.label(row.source)}·{row.index + 1}", fate_text(row, short=True),
                    row.source_text.text.replace("\n", " "), row.body_text.text.replace("\n", " ") or "—")[col]
        if role == MARKED_ROLE and col in (self.SOURCE, self.BODY):
            text = row.source_text if col == self.SOURCE else row.body_text
            return marked_html(text) if text.text else "<span style='color:#57606a'>—</span>"
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.why(row)
        if role in (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.BackgroundRole) and col == 1:
            fg, bg = FATE_COLOURS[_fate_key(row)]
            return QBrush(QColor(fg if role == Qt.ItemDataRole.ForegroundRole else bg))
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def why(self, row: PairRow, *, heading: bool = True) -> str:
        lines = [f"{self.label(row.source)}, sentence {row.index + 1}: {fate_text(row)}"] if heading else []
        if row.confirmed:
            lines.append("You confirmed that the body restates it.")
        elif row.kept_back:
            lines.append(f"The union draft kept it back word for word: {row.kept_back}")
        elif row.why:
            lines.append(row.why)
        if row.confirmable:
            lines.append(f"{CONFIRM_KEY} confirms the pair as a restatement.")
        return "\n".join(lines)


class MarkedDelegate(QStyledItemDelegate):
    """Paints a cell's MARKED_ROLE HTML on one line (clipped), over the usual selection background."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        marked = index.data(MARKED_ROLE)
        if not isinstance(marked, str):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        doc = QTextDocument()
        doc.setDocumentMargin(2)
        doc.setDefaultFont(opt.font)
        doc.setHtml(marked)
        rect = opt.rect
        painter.save()
        painter.translate(rect.left() + 2, rect.top() + max(0, (rect.height() - doc.size().height()) / 2))
        clip = QRectF(0, 0, rect.width() - 4, rect.height())
        painter.setClipRect(clip)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.clip = clip
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        doc.documentLayout().draw(painter, context)
        painter.restore()


class AlignmentView(QWidget):
    """The table of pairs and the selected pair in full. `rowChosen` says when the selected row changes."""

    rowChosen = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("alignmentView")
        self.model = AlignmentModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.legend = QLabel("")
        self.legend.setObjectName("alignmentLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        set_colors(self.legend, MUTED)
        layout.addWidget(self.legend)
        self.table = QTableView()
        self.table.setObjectName("alignmentTable")
        self.table.setModel(self.model)
        self.table.setItemDelegate(MarkedDelegate(self.table))
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for col, width in ((0, 40), (1, 76)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.detail = QTextBrowser()
        self.detail.setObjectName("alignmentDetail")
        self.detail.setOpenLinks(False)
        self.detail.setPlaceholderText("Select a pair to read it whole.")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)  # the pair read whole is what a person reads
        split.setSizes([160, 240])
        layout.addWidget(split, 1)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.show_message("No merged body yet.")

    # ---- what is shown --------------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[PairRow], labels: Sequence[str], keep: tuple[int, int] | None = None) -> None:
        """Show `rows` (the core's order); the row of `keep` (source, sentence) stays selected when it is still a
        read pair, else the first row is."""
        self.model.set_rows(rows, labels)
        n_read = sum(1 for r in rows if r.confirmable)
        self.legend.setText(
            (f"<b>{n_read} pair{'s' if n_read != 1 else ''} to read</b> · <b>{CONFIRM_KEY}</b> confirms the selected "
             "one as a restatement · " if n_read else "Nothing to read: every sentence is kept or proved · ")
            + f"<span style='{DIFFERS_STYLE}'>&nbsp;differs&nbsp;</span> "
              f"<span style='{OWED_STYLE}'>&nbsp;not found / added&nbsp;</span>")
        at = next((i for i, r in enumerate(rows) if keep is not None and r.key == keep and r.confirmable), 0)
        if rows:
            self.table.selectRow(at)
        else:
            self.detail.clear()
        self._current_changed()

    def show_message(self, text: str) -> None:
        self.model.set_rows([], ())
        self.legend.setText(html.escape(text))
        self.detail.clear()

    def rows(self) -> list[PairRow]:
        return self.model.rows()

    def to_read(self) -> int:
        """How many pairs are left for a person to read."""
        return sum(1 for r in self.model.rows() if r.confirmable)

    def current_row(self) -> PairRow | None:
        index = self.table.currentIndex()
        return self.model.row_at(index.row()) if index.isValid() else None

    def select(self, key: tuple[int, int]) -> bool:
        for i, row in enumerate(self.model.rows()):
            if row.key == key:
                self.table.selectRow(i)
                return True
        return False

    def confirmable_row(self) -> PairRow | None:
        """The selected pair when a person may confirm it, else the first such pair (R on a fresh list)."""
        row = self.current_row()
        if row is not None and row.confirmable:
            return row
        return next((r for r in self.model.rows() if r.confirmable), None)

    def _current_changed(self, *_args: object) -> None:
        row = self.current_row()
        if row is None:
            self.detail.clear()
        else:
            fg, bg = FATE_COLOURS[_fate_key(row)]
            why = html.escape(self.model.why(row, heading=False)).replace("\n", "<br>")
            self.detail.setHtml(
                f"<p><span style='color:{fg}; background:{bg}; font-weight:600'>&nbsp;{html.escape(fate_text(row))}"
                f"&nbsp;</span> <b>{html.escape(self.model.label(row.source))}, sentence {row.index + 1}:</b> "
                f"{marked_html(row.source_text)}</p>"
                f"<p><b>Body:</b> {marked_html(row.body_text) if row.body_text.text else '— no body sentence'}</p>"
                f"<p style='color:{MUTED}'>{why}</p>")
        self.rowChosen.emit()


def fate_summary(counts: dict[Fate, int]) -> str:
    """`2 kept · 1 restated · 1 read`: the fates that occur, in reading order."""
    return " · ".join(f"{n} {fate.value}" for fate, n in counts.items() if n)


__all__ = ["CONFIRM_KEY", "MARKED_ROLE", "AlignmentModel", "AlignmentView", "fate_summary", "marked_html"]
