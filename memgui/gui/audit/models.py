"""Item models of the audit tab: memgui's audited writes (with a filter proxy), the daemon-log timeline, the
store's append histories and the "kept separate" exemptions. They only present core values."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from PySide6.QtCore import QAbstractItemModel, QObject, QSortFilterProxyModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ..services.types import AuditEntry, AuditState, DaemonEvent, DocumentHistory, Exemption, Operation
from ..services.values import MODE_APPEND, Outcome, format_timestamp
from ..table_model import (
    SORT_ROLE as SORT_ROLE,
    VALUE_ROLE as VALUE_ROLE,
    Index as Index,
    SortKey as SortKey,
    TableModel as TableModel,
)

PASSED_COLOR, FAILED_COLOR, MUTED_COLOR, WARN_COLOR = "#1a7f37", "#cf222e", "#6e7781", "#9a6700"
R = TypeVar("R")  # a row value of `selected_rows`


def when_text(ms: int | None, *, seconds: bool = True) -> str:
    """A time stamp as the whole window shows it (netfx N10: local time with its UTC offset)."""
    return format_timestamp(ms, seconds=seconds)


def operation_label(entry: AuditEntry) -> str:
    """The operation as the audit tab names it: a merge written as an append (the guard's structural fallback,
    `append-document`) is an "append", and so is a curation update that fell back to appending."""
    details = entry.details or {}
    if entry.operation == Operation.MERGE and details.get("mode") == MODE_APPEND:
        return "append"
    if entry.operation == Operation.DECIDE_UPDATE and details.get("outcome") == Outcome.APPENDED:
        return "decide-append"
    return entry.operation


def guard_label(entry: AuditEntry) -> str:
    if entry.guard_passed is None:
        return "—"
    text = "passed" if entry.guard_passed else "FAILED"
    return text + (" (override)" if getattr(entry, "guard_override", False) else "")


def short_id(doc_id: str | None) -> str:
    if not doc_id:
        return ""
    return doc_id if len(doc_id) <= 16 else f"{doc_id[:12]}…{doc_id[-4:]}"


class AuditTableModel(TableModel[AuditEntry]):
    """memgui's audited writes (core.audit.AuditEntry), newest first."""

    COLUMNS = ("#", "When", "Operation", "State", "Guard", "Decided by", "Target")
    ID, WHEN, OPERATION, STATE, GUARD, DECIDED_BY, TARGET = range(7)

    def __init__(self, parent: QObject | None = None, titles: Mapping[str, str] | None = None):
        super().__init__(parent)
        self.titles: Mapping[str, str] = titles if titles is not None else {}

    def display(self, e: AuditEntry, col: int) -> str:
        if e.target_id:
            target = e.target_id
        else:
            names = [self.titles.get(s) or short_id(s) for s in e.source_ids[:3]]
            target = " & ".join(names) + (f" +{len(e.source_ids) - 3}" if len(e.source_ids) > 3 else "")
        if e.target_id and self.titles.get(e.target_id):
            target = f"{self.titles[e.target_id]} ({short_id(e.target_id)})"
        who = e.decided_by or ""
        if e.model_id:
            who = f"{who} · {e.model_id}" if who else e.model_id
        return (str(e.audit_id), when_text(e.created_at, seconds=False), operation_label(e), e.state, guard_label(e),
                who, target)[col]

    def sort_value(self, e: AuditEntry, col: int) -> SortKey:
        if col in (self.ID, self.WHEN):
            return e.audit_id
        return self.display(e, col).lower()

    def tooltip(self, e: AuditEntry, col: int) -> str | None:
        lines = [f"audit #{e.audit_id} · {operation_label(e)} · {e.state}"]
        if e.target_id:
            lines.append(f"target {e.target_id}")
        others = [s for s in e.source_ids if s != e.target_id]
        if others:
            lines.append("sources " + ", ".join(others))
        if e.note:
            lines.append(f"note: {e.note}")
        return "\n".join(lines)

    def color(self, e: AuditEntry, col: int) -> str | None:
        if col == self.GUARD and e.guard_passed is not None:
            return PASSED_COLOR if e.guard_passed else FAILED_COLOR
        if e.state == AuditState.UNDONE:
            return MUTED_COLOR
        return None

    def row_of(self, audit_id: int) -> int:
        return next((i for i, e in enumerate(self._rows) if e.audit_id == audit_id), -1)


class AuditFilterProxy(QSortFilterProxyModel):
    """Filters by operation, guard result (passed / failed / none), model id and a document id or title."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.operation: str | None = None
        self.guard: str | None = None
        self.model_id: str | None = None
        self.document: str = ""

    def set_filters(self, *, operation: str | None = None, guard: str | None = None, model_id: str | None = None,
                    document: str = "") -> None:
        self.beginFilterChange()
        self.operation, self.guard, self.model_id = operation or None, guard or None, model_id or None
        self.document = (document or "").strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        e = model.row_at(source_row) if isinstance(model, AuditTableModel) else None
        if e is None:
            return False
        if self.operation and operation_label(e) != self.operation:
            return False
        if self.guard == "passed" and e.guard_passed is not True:
            return False
        if self.guard == "failed" and e.guard_passed is not False:
            return False
        if self.guard == "none" and e.guard_passed is not None:
            return False
        if self.model_id and e.model_id != self.model_id:
            return False
        if self.document:
            ids = {e.target_id or "", *e.source_ids, *e.touched_documents}
            known = getattr(model, "titles", {})  # the audit table's own model carries the documents' titles
            titles = [known.get(i, "") for i in ids]
            if not any(self.document in s.lower() for s in [*ids, *titles] if s):
                return False
        return True


class DaemonEventModel(TableModel[DaemonEvent]):
    """The daemon-log timeline (core.daemon_logs.DaemonEvent)."""

    COLUMNS = ("Time", "Level", "Marker", "Anchor", "Documents", "Details")
    TIME, LEVEL, MARKER, ANCHOR, DOCUMENTS, DETAILS = range(6)
    _SHOWN_ELSEWHERE = frozenset({"anchor", "targetDoc", "targetId", "docId", "rejectedTarget", "targetIds"})

    def __init__(self, parent: QObject | None = None, titles: Mapping[str, str] | None = None):
        super().__init__(parent)
        self.titles: Mapping[str, str] = titles if titles is not None else {}

    def display(self, e: DaemonEvent, col: int) -> str:
        if col == self.DOCUMENTS:
            return ", ".join(self.titles.get(d) or short_id(d) for d in e.document_ids)
        if col == self.DETAILS:
            parts = []
            for k, v in e.fields.items():
                if k in self._SHOWN_ELSEWHERE:
                    continue
                parts.append(f"{k}=[{', '.join(map(str, v))}]" if isinstance(v, list) else f"{k}={v}")
            return " ".join(parts) + (f" — {e.note}" if e.note else "")
        return ((e.time or "").replace("T", " "), e.level or "", e.marker, e.anchor or "")[col]

    def sort_value(self, e: DaemonEvent, col: int) -> SortKey:
        if col == self.TIME:
            return f"{e.time or ''}|{e.file}|{e.line_no:09d}"
        return self.display(e, col).lower()

    def tooltip(self, e: DaemonEvent, col: int) -> str | None:
        lines = [f"{e.marker}  ({e.where})"] + [f"{k} = {v}" for k, v in e.fields.items()]
        lines += [f"document {d}" + (f" — {self.titles[d]}" if d in self.titles else " (not in the store)") for d in e.document_ids]
        return "\n".join(lines)

    def color(self, e: DaemonEvent, col: int) -> str | None:
        if e.marker == "curation_merge_guard_failed" or e.level == "error":
            return FAILED_COLOR
        if e.level == "warning":
            return WARN_COLOR
        if e.marker == "curation_merge_guard_passed":
            return PASSED_COLOR
        return None


class HistoryModel(TableModel[DocumentHistory]):
    """Documents with an append history (core.history.DocumentHistory)."""

    COLUMNS = ("Document", "Additions", "Last append", "State")
    TITLE, ADDITIONS, LAST, STATE = range(4)

    def display(self, h: DocumentHistory, col: int) -> str:
        dates = [s.date for s in h.additions if s.date]
        state = "tombstoned" if h.tombstoned else h.update_semantics
        return (h.title or h.document_id, str(len(h.additions)), dates[-1] if dates else "", state)[col]

    def sort_value(self, h: DocumentHistory, col: int) -> SortKey:
        if col == self.ADDITIONS:
            return len(h.additions)
        return self.display(h, col).lower()

    def tooltip(self, h: DocumentHistory, col: int) -> str | None:
        return f"{h.document_id}\n{h.message}"

    def color(self, h: DocumentHistory, col: int) -> str | None:
        return MUTED_COLOR if h.tombstoned else None

    def row_of(self, document_id: str) -> int:
        return next((i for i, h in enumerate(self._rows) if h.document_id == document_id), -1)


class ExemptionModel(TableModel[Exemption]):
    """Pairs kept separate (core.exemptions.Exemption)."""

    COLUMNS = ("First document", "Second document", "Kept separate on", "Note")

    def __init__(self, parent: QObject | None = None, titles: Mapping[str, str] | None = None):
        super().__init__(parent)
        self.titles: Mapping[str, str] = titles if titles is not None else {}

    def _doc(self, doc_id: str) -> str:
        title = self.titles.get(doc_id)
        return f"{title} ({short_id(doc_id)})" if title else f"{doc_id} (not in the store)"

    def display(self, x: Exemption, col: int) -> str:
        return (self._doc(x.first_id), self._doc(x.second_id), when_text(x.created_at), x.note or "")[col]

    def sort_value(self, x: Exemption, col: int) -> SortKey:
        return x.created_at if col == 2 else self.display(x, col).lower()

    def tooltip(self, x: Exemption, col: int) -> str | None:
        return f"{x.first_id}\n{x.second_id}"


def selected_rows(view: QAbstractItemView, kind: type[R]) -> list[R]:
    """The row values (VALUE_ROLE) of `kind` selected in a view, in view order, once each."""
    out: list[R] = []
    seen: set[int] = set()
    model, selection = view.model(), view.selectionModel()
    for index in sorted(selection.selectedRows(), key=lambda i: i.row()):
        value = model.data(index, VALUE_ROLE)
        if isinstance(value, kind) and id(value) not in seen:
            seen.add(id(value))
            out.append(value)
    return out


def table_view(model: QAbstractItemModel, *, stretch: int | None = None, multi: bool = False,
               fit: Sequence[int] = (), widths: dict[int, int] | None = None) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection if multi
                          else QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    view.horizontalHeader().setHighlightSections(False)
    header = view.horizontalHeader()
    for col in fit:
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
    for col, width in (widths or {}).items():
        header.resizeSection(col, width)
    if stretch is not None:
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return view


__all__ = [
    "SORT_ROLE",
    "VALUE_ROLE",
    "AuditFilterProxy",
    "AuditTableModel",
    "DaemonEventModel",
    "ExemptionModel",
    "HistoryModel",
    "guard_label",
    "selected_rows",
    "short_id",
    "table_view",
    "when_text",
]
