"""The second reader's line in the guard panel: a button that asks the local model, for each included source,
whether the merged body keeps every fact of that source unchanged, and its verdict per source (the core's
`ReaderReport`; computed on a worker by `Drafting.read_body`, never here)."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..services.types import ReaderReport
from ..style import MUTED, set_colors

KEPT_FG, KEPT_BG = "#116329", "#dafbe1"
LOST_FG, LOST_BG = "#7d0a0a", "#ffe1e1"
IDLE_TEXT = "Second reader: not asked about this body"


def verdict_lines(report: ReaderReport, labels: Sequence[str]) -> list[str]:
    """One line per source: its pane number, kept or not, and p(yes)."""
    out = []
    for v in report.verdicts:
        label = labels[v.index - 1] if 0 < v.index <= len(labels) else f"source {v.index}"
        if v.p_yes is None:
            out.append(f"? {label}: not read — {v.reason.split('(', 1)[-1].rstrip(')')}")
        elif v.keeps:
            out.append(f"✔ {label}: every fact kept (p(yes) {v.p_yes:.2f})")
        else:
            out.append(f"✘ {label}: a fact changed or was dropped (p(yes) {v.p_yes:.2f})")
    return out


class ReaderBox(QWidget):
    requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("readerBox")
        self.report: ReaderReport | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        lay.setSpacing(2)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self.button = QPushButton("Ask the second reader")
        self.button.setObjectName("readerButton")
        self.button.setToolTip("The local model reads each included source against the merged body and answers "
                               "whether every fact of that source is kept unchanged (one yes/no per source, "
                               "cached). accept-safe asks the same question before it writes.")
        self.button.clicked.connect(self.requested)
        self.headline = QLabel(IDLE_TEXT)
        self.headline.setObjectName("readerHeadline")
        self.headline.setWordWrap(True)
        self.headline.setMargin(3)
        row.addWidget(self.headline, 1)
        row.addWidget(self.button)
        lay.addLayout(row)
        self.details = QLabel("")
        self.details.setObjectName("readerVerdicts")
        self.details.setWordWrap(True)
        self.details.hide()
        lay.addWidget(self.details)
        self.clear()

    def clear(self, can_ask: bool = True) -> None:
        self.report = None
        self.headline.setText(IDLE_TEXT)
        set_colors(self.headline, MUTED)
        self.details.setText("")
        self.details.hide()
        self.button.setEnabled(can_ask)

    def set_pending(self, text: str = "reading…") -> None:
        self.report = None
        self.headline.setText(f"Second reader: {text}")
        set_colors(self.headline, MUTED)
        self.button.setEnabled(False)

    def set_unavailable(self, why: str) -> None:
        self.report = None
        self.headline.setText(f"Second reader unavailable: {why}")
        set_colors(self.headline, MUTED)
        self.details.hide()
        self.button.setEnabled(True)

    def set_report(self, report: ReaderReport, labels: Sequence[str]) -> None:
        self.report = report
        lost = [v for v in report.verdicts if not v.keeps]
        if not lost:
            n = len(report.verdicts)
            self.headline.setText(f"✔ Second reader: every fact of the {n} source{'s' if n != 1 else ''} kept")
            set_colors(self.headline, KEPT_FG, KEPT_BG)
        else:
            names = ", ".join(labels[v.index - 1] if 0 < v.index <= len(labels) else str(v.index) for v in lost)
            self.headline.setText(f"✘ Second reader: {names} not kept whole — accept-safe would leave this for a person")
            set_colors(self.headline, LOST_FG, LOST_BG)
        self.details.setText("\n".join(verdict_lines(report, labels)))
        self.details.setToolTip("\n".join(v.reason for v in report.verdicts)
                                + f"\nmodel {report.model_id}, threshold p(yes) ≥ {report.threshold:.2f}")
        self.details.show()
        self.button.setEnabled(True)


__all__ = ["ReaderBox", "verdict_lines"]
