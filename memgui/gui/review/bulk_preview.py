"""The preview of an "Accept all safe" batch, and its one confirmation: every write (target, tombstones, length
ratio, MergeGuard and strict-lens results, flags such as a repeated sentence) with its merged body in a detail
pane, every cluster left for the reviewer with the reason, an Export button (Markdown or JSON, the same plan
`memgui accept-safe --json` prints), and Cancel as the default button: Return or Esc writes nothing."""
from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..services.bulk import export_plan
from ..services.types import BatchPlan, Verdict
from ..services.values import PlannedWrite, Unreviewed

LONG_RATIO = 1.5  # a merged body this much longer than its longest source is flagged (it may repeat itself)
FLAG_FG = "#9a3412"


def write_flags(write: PlannedWrite, repeated: list[str]) -> list[str]:
    """What the reviewer should look at in one planned write (empty: nothing stands out)."""
    flags = []
    if repeated:
        flags.append(f"repeats {len(repeated)} sentence{'s' if len(repeated) != 1 else ''}")
    if write.length_ratio is not None and float(write.length_ratio) > LONG_RATIO:
        flags.append(f"length {float(write.length_ratio):.0%} of the longest source")
    if not write.guard.get("passed"):
        flags.append("MergeGuard failed")
    if write.strict.get("verdict") != Verdict.PROVED.value:
        flags.append(f"memgui's check: {write.strict.get('verdict') or 'not checked'}")
    reader = write.reader or {}
    if reader and reader.get("passed") is False:
        flags.append("second reader: a source's fact is missing")
    return flags


def write_detail_html(write: PlannedWrite, repeated: list[str], flags: list[str]) -> str:
    """The detail pane of one planned write: target, tombstones, length, flags, then the merged body with each
    repeated sentence marked."""
    title = write.titles.get(write.target_id) or write.target_id
    tomb = "<br>".join(f"&nbsp;&nbsp;{escape(write.titles.get(t) or t)} <span style='color:#57606a'>({escape(t)})"
                       "</span>" for t in write.tombstoned)
    body = escape(write.merged_body)
    for sentence in repeated:
        body = body.replace(escape(sentence), f"<span style='background:#ffe08a'>{escape(sentence)}</span>")
    ratio = "" if write.length_ratio is None else f", {float(write.length_ratio):.0%} of the longest source"
    flag_html = ("<br>".join(f"<span style='color:{FLAG_FG}; font-weight:600'>⚠ {escape(f)}</span>" for f in flags)
                 if flags else "<span style='color:#116329'>no flags</span>")
    repeats = "".join(f"<br>&nbsp;&nbsp;repeated: “{escape(r)}”" for r in repeated)
    return (f"<b>{escape(write.decision)} into {escape(title)}</b> <span style='color:#57606a'>"
            f"({escape(write.target_id)})</span><br>Tombstoned:<br>{tomb or '&nbsp;&nbsp;—'}<br>"
            f"Length: {len(write.merged_body)} characters{ratio}<br>{flag_html}{repeats}"
            f"<hr><div style='white-space:pre-wrap'>{body}</div>")


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{float(value):.0%}"


def _short(text: str, n: int = 60) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _write_item(w: PlannedWrite, flags: list[str]) -> QTreeWidgetItem:
    """A planned write's row: target, flags, length, what it tombstones, MergeGuard's and memgui's checks."""
    tomb = "; ".join(_short(w.titles.get(t) or t, 40) for t in w.tombstoned)
    guard = "passed" if w.guard.get("passed") else "FAILED"
    verdict = w.strict.get("verdict") or "not checked"
    item = QTreeWidgetItem([_short(w.titles.get(w.target_id) or w.target_id),
                            ("⚠ " + "; ".join(flags)) if flags else "—", _pct(w.length_ratio), tomb,
                            f"{guard} ({_pct(w.guard.get('retention'))} kept)",
                            f"{verdict} ({len(w.strict.get('sentences', []))} sentences)"])
    if flags:
        item.setForeground(1, QBrush(QColor(FLAG_FG)))
    item.setToolTip(0, f"{w.decision} into {w.target_id}")
    item.setToolTip(1, "\n".join(flags) or "nothing stands out")
    item.setToolTip(3, "\n".join(w.tombstoned))
    return item


class BulkPreviewDialog(QDialog):
    """Accepted (exec() == 1) only through the "Write N merges" button."""

    def __init__(self, plan: BatchPlan, scope: str, parent: QWidget | None = None, *,
                 choose_export_path: Callable[[QDialog], str | None] | None = None,
                 repeats: Callable[[str], list[str]] = lambda _body: []):
        super().__init__(parent)
        self.setObjectName("bulkPreviewDialog")
        self.setWindowTitle("Accept all safe — preview")
        self.plan = plan
        self.exported: Path | None = None
        self._choose = choose_export_path or self._ask_path
        writes, excluded = list(plan.writes), list(plan.excluded)
        unreviewed = sum(1 for x in excluded if x.verdict == Unreviewed.NOT_REVIEWED)
        lay = QVBoxLayout(self)
        self.summary = QLabel(
            f"<b>{len(writes)} merge(s) will be written</b> — {scope}: {plan.considered} cluster(s) considered, "
            f"{len(excluded) - unreviewed} left for you, {unreviewed} not reviewed by the model yet (skipped).<br>"
            "Only a model same-fact group of 2–3 members that passed MergeGuard <i>and</i> the strict lens, with no "
            "“likely different facts” mark and joined by the scan's cosine (not by a shared anchor alone), is "
            "accepted. Each write is its own audited transaction; a source "
            "changed since its review refuses that write. <i>Undo this batch</i> (bottom left of the window, until the "
            "next batch) reverts them all.")
        self.summary.setObjectName("bulkSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.summary)
        self._add_writes(lay, writes, repeats)
        self._add_excluded(lay, plan)
        self._add_buttons(lay, len(writes))
        self.cancel_button.setDefault(True)  # Return cancels: writing takes a deliberate click
        self.cancel_button.setFocus()
        self.resize(980, 560)

    def _add_writes(self, lay: QVBoxLayout, writes: list[PlannedWrite], repeats: Callable[[str], list[str]]) -> None:
        """The planned writes, one row each, beside the chosen one's detail."""
        lay.addWidget(QLabel(f"Writes ({len(writes)}) — choose one to read its merged body"))
        self.writes_view = self._tree("bulkWrites", ("Target (keeps its id)", "Flags", "Length", "Tombstoned",
                                                     "MergeGuard", "memgui's check"), (170, 150, 56, 150, 120))
        self._details: list[str] = []
        for w in writes:
            repeated = repeats(w.merged_body)
            flags = write_flags(w, repeated)
            self.writes_view.addTopLevelItem(_write_item(w, flags))
            self._details.append(write_detail_html(w, repeated, flags))
        self.detail = QTextBrowser()
        self.detail.setObjectName("bulkWriteDetail")
        self.detail.setOpenLinks(False)
        self.detail.setPlaceholderText("No write planned.")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(self.writes_view)
        split.addWidget(self.detail)
        split.setSizes([560, 420])
        self.writes_view.currentItemChanged.connect(self._show_detail)
        first = self.writes_view.topLevelItem(0)
        if first is not None:
            self.writes_view.setCurrentItem(first)
        lay.addWidget(split, 3)

    def _add_excluded(self, lay: QVBoxLayout, plan: BatchPlan) -> None:
        """The clusters left for the reviewer, each with why it is not accepted."""
        excluded = plan.excluded
        lay.addWidget(QLabel(f"Left for you ({len(excluded)})"))
        self.excluded_view = self._tree("bulkExcluded", ("Cluster", "Size", "Why it is not accepted"))
        for x in excluded:
            names = " · ".join(dict.fromkeys(t for t in x.titles.values() if t)) or x.cluster_id
            item = QTreeWidgetItem([_short(names, 70), str(len(x.member_ids)), x.reason])
            item.setData(0, Qt.ItemDataRole.UserRole, x.cluster_id)
            item.setToolTip(0, f"{x.cluster_id}\n" + "\n".join(f"{t}  ({i})" for i, t in x.titles.items()))
            item.setToolTip(2, x.reason)
            self.excluded_view.addTopLevelItem(item)
        lay.addWidget(self.excluded_view, 2)

    def _add_buttons(self, lay: QVBoxLayout, writes: int) -> None:
        """Export…, Cancel and Write N merges."""
        buttons = QHBoxLayout()
        self.export_button = QPushButton("Export…")
        self.export_button.setObjectName("bulkExport")
        self.export_button.setAutoDefault(False)
        self.export_button.clicked.connect(self.export)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("bulkCancel")
        self.cancel_button.clicked.connect(self.reject)
        self.write_button = QPushButton(f"Write {writes} merge(s)")
        self.write_button.setObjectName("bulkWrite")
        self.write_button.setAutoDefault(False)
        self.write_button.setEnabled(bool(writes))
        self.write_button.clicked.connect(self.accept)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.write_button)
        lay.addLayout(buttons)

    def _show_detail(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        row = self.writes_view.indexOfTopLevelItem(item) if item is not None else -1
        self.detail.setHtml(self._details[row] if 0 <= row < len(self._details) else "")

    def detail_text(self) -> str:
        return self.detail.toPlainText()

    @staticmethod
    def _tree(name: str, headers: tuple[str, ...], widths: tuple[int, ...] = (280, 60)) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setObjectName(name)
        tree.setRootIsDecorated(False)
        tree.setHeaderLabels(list(headers))
        tree.setUniformRowHeights(True)
        tree.header().setStretchLastSection(True)
        tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col, width in enumerate(widths[: len(headers) - 1]):
            tree.setColumnWidth(col, width)
        return tree

    def _ask_path(self, _dialog: QDialog) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the batch plan", f"accept-safe-{self.plan.batch_id}.md",
                                              "Markdown (*.md);;JSON (*.json)")
        return path or None

    def export(self) -> None:
        path = self._choose(self)
        if not path:
            return
        try:
            self.exported = export_plan(self.plan, path)
        except OSError as exc:
            self.export_button.setText("Export failed")
            self.export_button.setToolTip(f"{path}: {exc.strerror or exc}")
            return
        self.export_button.setText(f"Exported {self.exported.name}")
        self.export_button.setToolTip(str(self.exported))


__all__ = ["BulkPreviewDialog", "export_plan"]
