"""The preview of an "Accept all safe" batch, and its one confirmation: every write (target, tombstones, length
ratio, MergeGuard and strict-lens results) and every cluster left for the reviewer with the reason, an Export
button (Markdown or JSON, the same plan `memgui accept-safe --json` prints), and Cancel as the default button:
Return or Esc writes nothing."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
)


def _pct(value: Any) -> str:
    return "—" if value is None else f"{float(value):.0%}"


def _short(text: str, n: int = 60) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def export_plan(plan: Any, path: str | Path) -> Path:
    """Write the plan: JSON for a .json name, else Markdown."""
    target = Path(path)
    if target.suffix.lower() == ".json":
        target.write_text(json.dumps(plan.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        target.write_text(plan.to_markdown(), encoding="utf-8")
    return target


class BulkPreviewDialog(QDialog):
    """Accepted (exec() == 1) only through the "Write N merges" button."""

    def __init__(self, plan: Any, scope: str, parent=None, *,
                 choose_export_path: Callable[[QDialog], str | None] | None = None):
        super().__init__(parent)
        self.setObjectName("bulkPreviewDialog")
        self.setWindowTitle("Accept all safe — preview")
        self.plan = plan
        self.exported: Path | None = None
        self._choose = choose_export_path or self._ask_path
        writes, excluded = list(plan.writes), list(plan.excluded)
        unreviewed = sum(1 for x in excluded if x.reason == "not reviewed yet")
        lay = QVBoxLayout(self)
        self.summary = QLabel(
            f"<b>{len(writes)} merge(s) will be written</b> — {scope}: {plan.considered} cluster(s) considered, "
            f"{len(excluded) - unreviewed} left for you, {unreviewed} not reviewed by the model yet (skipped).<br>"
            "Only a model same-fact group of 2–3 members that passed MergeGuard <i>and</i> the strict lens, with no "
            "“likely different facts” mark, is accepted. Each write is its own audited transaction; a source "
            "changed since its review refuses that write. <i>Review → Undo this batch</i> reverts them all.")
        self.summary.setObjectName("bulkSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.summary)
        lay.addWidget(QLabel(f"Writes ({len(writes)})"))
        self.writes_view = self._tree("bulkWrites", ("Target (keeps its id)", "Tombstoned", "Length", "MergeGuard",
                                                     "Strict lens"))
        for w in writes:
            tomb = "; ".join(_short(w.titles.get(t) or t, 40) for t in w.tombstoned)
            guard = "passed" if w.guard.get("passed") else "FAILED"
            strict = "passed" if w.strict.get("passed") else "FAILED"
            item = QTreeWidgetItem([_short(w.titles.get(w.target_id) or w.target_id), tomb, _pct(w.length_ratio),
                                    f"{guard} ({_pct(w.guard.get('retention'))} kept)",
                                    f"{strict} ({w.strict.get('checked', 0)} facts)"])
            item.setToolTip(0, f"{w.decision} into {w.target_id}\n\n{w.merged_body}")
            item.setToolTip(1, "\n".join(w.tombstoned))
            self.writes_view.addTopLevelItem(item)
        lay.addWidget(self.writes_view, 3)
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
        buttons = QHBoxLayout()
        self.export_button = QPushButton("Export…")
        self.export_button.setObjectName("bulkExport")
        self.export_button.setAutoDefault(False)
        self.export_button.clicked.connect(self.export)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("bulkCancel")
        self.cancel_button.clicked.connect(self.reject)
        self.write_button = QPushButton(f"Write {len(writes)} merge(s)")
        self.write_button.setObjectName("bulkWrite")
        self.write_button.setAutoDefault(False)
        self.write_button.setEnabled(bool(writes))
        self.write_button.clicked.connect(self.accept)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.write_button)
        lay.addLayout(buttons)
        self.cancel_button.setDefault(True)  # Return cancels: writing takes a deliberate click
        self.cancel_button.setFocus()
        self.resize(980, 560)

    @staticmethod
    def _tree(name: str, headers: tuple[str, ...]) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setObjectName(name)
        tree.setRootIsDecorated(False)
        tree.setHeaderLabels(list(headers))
        tree.setUniformRowHeights(True)
        tree.header().setStretchLastSection(True)
        tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col, width in enumerate((280, 280, 60, 150)[: len(headers) - 1]):
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
