"""The cluster queue: one row per nominee cluster (top cosine, size, titles, anchor, review status).

A row's review status is a mark that lasts (`QueueMarks` keeps it per store, keyed by `mark_key`, the members
and their content stamps); `statusChanged` tells it. Other per-row state goes the same way: a field on the
frozen `ClusterRow`, changed through `update_row`, which repaints the row."""
from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypedDict, Unpack

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap

from ..services.types import Badge, Cluster, Document, ReviewMark, StrEnum
from ..services.values import anchor_slug
from ..table_model import SORT_ROLE, VALUE_ROLE, SortKey, TableModel


class QueueStatus(StrEnum):
    """A queue row's review status, as the queue shows it and its lasting mark stores it (ReviewMark.status)."""

    NEW = "new"  # not reviewed (no mark)
    SKIPPED = "skipped"
    MERGED = "merged"
    APPENDED = "appended"
    KEPT_SEPARATE = "kept separate"

    @classmethod
    def of_mark(cls, status: str | None) -> QueueStatus:
        """The status a stored mark holds; NEW for none, or for a status this version does not know."""
        return cls(status) if status in cls._value2member_map_ else cls.NEW


NEW, SKIPPED, MERGED, APPENDED, KEPT_SEPARATE = (
    QueueStatus.NEW, QueueStatus.SKIPPED, QueueStatus.MERGED, QueueStatus.APPENDED, QueueStatus.KEPT_SEPARATE)
REVIEWED_HINT = {MERGED: "reviewed: merged", APPENDED: "reviewed: appended (guard fallback)",
                 KEPT_SEPARATE: "reviewed: not duplicates", SKIPPED: "skipped for now", NEW: "not reviewed yet"}
STATUS_COLORS = {
    NEW: "#1f6feb",
    SKIPPED: "#8a6d00",
    MERGED: "#1a7f37",
    APPENDED: "#1a7f37",
    KEPT_SEPARATE: "#6e7781",
}
CLUSTER_ROLE = VALUE_ROLE  # the row (ClusterRow) itself
BADGE_ROLE = Qt.ItemDataRole.UserRole + 2  # the model's verdict decided ahead: pending / same / different / mixed
# (glyph, colour, hint) of each badge, drawn before the status text
BADGES = {
    Badge.PENDING: ("…", "#8c959f", "model: queued, not decided yet"),
    Badge.SAME_FACT: ("=", "#1a7f37", "model: every member states the same fact"),
    Badge.DIFFERENT_FACTS: ("≠", "#cf222e", "model: no two members state the same fact"),
    Badge.MIXED: ("±", "#9a6700", "model: some members are the same fact, others differ"),
}
_ICONS: dict[Badge, QIcon] = {}


def badge_icon(verdict: Badge | None) -> QIcon | None:
    """A small round badge with the verdict's glyph (pending: a hollow ring)."""
    if verdict is None:
        return None
    if verdict not in _ICONS:
        glyph, colour, _ = BADGES[verdict]
        pixmap = QPixmap(28, 28)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if verdict is Badge.PENDING:
            painter.setPen(QPen(QColor(colour), 2.5))
            painter.drawEllipse(3, 3, 22, 22)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colour))
            painter.drawEllipse(1, 1, 26, 26)
        font = QFont()
        font.setPixelSize(20)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(colour if verdict is Badge.PENDING else "#ffffff"))
        painter.drawText(pixmap.rect(), Qt.AlignmentFlag.AlignCenter, glyph)
        painter.end()
        _ICONS[verdict] = QIcon(pixmap)
    return _ICONS[verdict]


@dataclass(frozen=True)
class ClusterRow:
    cluster: Cluster
    titles: tuple[str, ...]
    anchors: tuple[str, ...]
    status: QueueStatus = NEW
    audit_id: int | None = None  # the write that reviewed it (for undo)
    mark_key: str | None = None  # the cluster's members + content stamps (its mark's key); None: not kept
    marked_at: int | None = None  # ms when the status was set (the queue resumes after the newest mark)

    @classmethod
    def of(cls, cluster: Cluster, docs: Mapping[str, Document], mark_key: str | None = None,
           mark: ReviewMark | None = None) -> ClusterRow:
        """A queue row for a scanned cluster: titles and anchors from its documents (`docs` by id), the status
        its stored mark gives it (None: new)."""
        members = [docs.get(i) for i in cluster.member_ids]
        titles = tuple(d.title if d else i for d, i in zip(members, cluster.member_ids))
        anchors = tuple(d.anchor_id if d else "" for d in members)
        status = QueueStatus.of_mark(mark.status if mark else None)
        if mark is None or status is NEW:
            return cls(cluster, titles, anchors, mark_key=mark_key)
        return cls(cluster, titles, anchors, status, mark.audit_id, mark_key, mark.marked_at or None)

    @property
    def cluster_id(self) -> str:
        return self.cluster.id

    @property
    def member_ids(self) -> tuple[str, ...]:
        return tuple(self.cluster.member_ids)

    @property
    def size(self) -> int:
        return len(self.cluster.member_ids)

    @property
    def top_cosine(self) -> float | None:
        value = self.cluster.top_cosine
        return None if value is None else float(value)

    @property
    def cosine_text(self) -> str:
        return "lexical" if self.top_cosine is None else f"{self.top_cosine:.3f}"

    @property
    def anchor_text(self) -> str:
        unique = list(dict.fromkeys(anchor_slug(a) for a in self.anchors))
        return unique[0] if len(unique) == 1 else f"{unique[0]} +{len(unique) - 1}" if unique else ""

    @property
    def titles_text(self) -> str:
        unique = list(dict.fromkeys(self.titles))
        return " · ".join(unique)


class RowChanges(TypedDict, total=False):
    """The fields of a ClusterRow that change after the scan (`update_row`)."""

    status: QueueStatus
    audit_id: int | None
    mark_key: str | None
    marked_at: int | None


class ClusterTableModel(TableModel[ClusterRow]):
    COLUMNS = ("Status", "Cosine", "Size", "Titles", "Anchor")
    STATUS, COSINE, SIZE, TITLES, ANCHOR = range(5)
    TIPS = ("new · skipped · merged · appended · kept separate; the badge is the model's verdict, decided ahead "
            "(= same fact · ≠ different facts · ± mixed · … queued)",
            "the highest cosine between two members (a narrow queue shows the review status under it)",
            "documents in the cluster", "the members' titles", "the members' anchors")
    statusChanged = Signal(object)  # ClusterRow, as it is after `set_status`

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._badges: dict[frozenset[str], Badge] = {}  # member ids -> the model's verdict (decisions ahead)

    # ---- how a row shows (TableModel) ---------------------------------------------------------------

    def display(self, row: ClusterRow, col: int) -> str:
        return (row.status, row.cosine_text, str(row.size), row.titles_text, row.anchor_text)[col]

    def sort_value(self, row: ClusterRow, col: int) -> SortKey:
        cosine = -1.0 if row.top_cosine is None else row.top_cosine
        return (row.status, cosine, row.size, row.titles_text.lower(), row.anchor_text.lower())[col]

    def tooltip(self, row: ClusterRow, col: int) -> str:
        lines = [f"{t}  ({i})" for t, i in zip(row.titles, row.member_ids)]
        hint = REVIEWED_HINT[row.status]
        head = f"Cluster {row.cluster_id}: {row.size} documents, top cosine {row.cosine_text} — {hint}"
        verdict = self.badge(row)
        badge = BADGES[verdict] if verdict else None
        return "\n".join([head] + ([badge[2]] if badge else []) + lines)

    def color(self, row: ClusterRow, col: int) -> str | None:
        return STATUS_COLORS[row.status] if col == self.STATUS else None

    def decoration(self, row: ClusterRow, col: int) -> QIcon | None:
        return badge_icon(self.badge(row)) if col == self.STATUS else None

    def alignment(self, row: ClusterRow, col: int) -> Qt.AlignmentFlag | None:
        return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter if col in (self.COSINE, self.SIZE) else None

    def role_data(self, row: ClusterRow, col: int, role: int) -> object:
        return self.badge(row) if role == BADGE_ROLE else None

    # ---- contents -----------------------------------------------------------------------------------

    def row_of(self, cluster_id: str) -> int:
        for i, r in enumerate(self._rows):
            if r.cluster_id == cluster_id:
                return i
        return -1

    def update_row(self, cluster_id: str, **changes: Unpack[RowChanges]) -> ClusterRow | None:
        """Replace fields of one row (and repaint it); the row as it is now, None when no row has that id."""
        i = self.row_of(cluster_id)
        if i < 0:
            return None
        self._rows[i] = row = replace(self._rows[i], **changes)
        self.dataChanged.emit(self.index(i, 0), self.index(i, self.columnCount() - 1))
        return row

    def replace_row(self, row: ClusterRow) -> bool:
        """Put `row` in place of the row with its cluster id (and repaint it); False when there is none. Its
        status is taken as it is (no `statusChanged`: nothing to record)."""
        i = self.row_of(row.cluster_id)
        if i < 0:
            return False
        self._rows[i] = row
        self.dataChanged.emit(self.index(i, 0), self.index(i, self.columnCount() - 1))
        return True

    def set_status(self, cluster_id: str, status: QueueStatus, audit_id: int | None = None) -> None:
        marked_at = None if status == NEW else int(time.time() * 1000)
        row = self.update_row(cluster_id, status=status, audit_id=audit_id, marked_at=marked_at)
        if row is not None:
            self.statusChanged.emit(row)

    def badge(self, row: ClusterRow) -> Badge | None:
        return self._badges.get(frozenset(row.member_ids))

    def set_badges(self, badges: dict[frozenset[str], Badge]) -> None:
        """The decisions-ahead verdicts by member ids (a cluster left out shows no badge)."""
        if badges == self._badges:
            return
        self._badges = dict(badges)
        if self._rows:
            self.dataChanged.emit(self.index(0, self.STATUS), self.index(len(self._rows) - 1, self.STATUS),
                                  [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole, BADGE_ROLE])

    def row_for_audit(self, audit_id: int) -> ClusterRow | None:
        return next((r for r in self._rows if r.audit_id == audit_id), None)


class ClusterFilterProxy(QSortFilterProxyModel):
    """Sorts by the raw values and shows only the clusters whose members match the filter (None = all)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._allowed_docs: frozenset[str] | None = None

    def set_allowed_documents(self, document_ids: Iterable[str] | None) -> None:
        self.beginFilterChange()
        self._allowed_docs = None if document_ids is None else frozenset(document_ids)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    @property
    def filtering(self) -> bool:
        return self._allowed_docs is not None

    def resume_row(self) -> int:
        """Where a returning reviewer carries on, in the queue's current order: the first unreviewed cluster
        after the one marked last (wrapping), else the first row; -1 when the queue is empty."""
        rows = [self.data(self.index(r, 0), CLUSTER_ROLE) for r in range(self.rowCount())]
        if not rows:
            return -1
        marked = [(row.marked_at, r) for r, row in enumerate(rows) if row.status != NEW and row.marked_at]
        start = max(marked)[1] + 1 if marked else 0
        return next((r % len(rows) for r in range(start, start + len(rows)) if rows[r % len(rows)].status == NEW), 0)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if self._allowed_docs is None:
            return True
        model = self.sourceModel()
        row = model.row_at(source_row) if isinstance(model, ClusterTableModel) else None
        return row is not None and any(m in self._allowed_docs for m in row.member_ids)
