"""The one table model of the window: rows of frozen values under a fixed column list, each subclass saying how a
row shows in a column (text, sort key, tooltip, colour, icon, alignment). The audit tab's tables and the review
queue (`ClusterTableModel`) are all this model; it only presents core values."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

SORT_ROLE = Qt.ItemDataRole.UserRole  # the raw value a column sorts by (`sort_value`)
VALUE_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's value itself
Index = QModelIndex | QPersistentModelIndex
SortKey = str | int | float
R = TypeVar("R")  # a table's row value


class TableModel(QAbstractTableModel, Generic[R]):
    """Rows of values, a fixed column list (`COLUMNS`, their header tips in `TIPS`), and per subclass the callbacks
    `display`, `sort_value`, `tooltip`, `color`, `decoration`, `alignment` and `role_data` (any other role)."""

    COLUMNS: tuple[str, ...] = ()
    TIPS: tuple[str, ...] = ()  # the columns' header tooltips (none when empty)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[R] = []

    # ---- Qt model API -------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.ToolTipRole and horizontal and 0 <= section < len(self.TIPS):
            return self.TIPS[section]
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if horizontal and 0 <= section < len(self.COLUMNS):
            return self.COLUMNS[section]
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._rows):
            return str(section + 1)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)) or not (0 <= index.column() < len(self.COLUMNS)):
            return None
        row, col = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, col)
        if role == SORT_ROLE:
            return self.sort_value(row, col)
        if role == VALUE_ROLE:
            return row
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            color = self.color(row, col)
            return QBrush(QColor(color)) if color else None
        if role == Qt.ItemDataRole.DecorationRole:
            return self.decoration(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            alignment = self.alignment(row, col)
            return None if alignment is None else int(alignment)
        return self.role_data(row, col, role)

    # ---- what a subclass says about its rows ------------------------------------------------------------

    def display(self, row: R, col: int) -> str:  # pragma: no cover - overridden
        return ""

    def sort_value(self, row: R, col: int) -> SortKey:
        return self.display(row, col).lower()

    def tooltip(self, row: R, col: int) -> str | None:
        return None

    def color(self, row: R, col: int) -> str | None:
        return None

    def decoration(self, row: R, col: int) -> object:
        return None

    def alignment(self, row: R, col: int) -> Qt.AlignmentFlag | None:
        return None

    def role_data(self, row: R, col: int, role: int) -> object:
        """A role the model does not know (a subclass's own, `UserRole + 2` on)."""
        return None

    # ---- contents -----------------------------------------------------------------------------------

    def set_rows(self, rows: Iterable[R]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> Sequence[R]:
        return tuple(self._rows)

    def row_at(self, row: int) -> R | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None


__all__ = ["SORT_ROLE", "VALUE_ROLE", "Index", "SortKey", "TableModel"]
