"""Conflict evidence beside the sources: for every pair of the cluster, the facts of one class both state
with different values (a version, a date, a host…, shown as "value in A vs value in B") and what only one
of them states. Renders the core's `PairEvidence` values; computes nothing itself."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from ..services.types import PairEvidence

CONFLICT_FG = "#9a3412"
MUTED = "#57606a"
# A long note states many facts; the panel lists this many per side and counts the rest.
MAX_ONLY = 12


def _values(values: Sequence[str]) -> str:
    return ", ".join(f"<code>{escape(v)}</code>" for v in values)


def _only(facts: Sequence[tuple[str, str]]) -> str:
    shown = _values([f for f, _ in facts[:MAX_ONLY]])
    more = len(facts) - MAX_ONLY
    return shown + (f" <span style='color:{MUTED}'>(+{more} more)</span>" if more > 0 else "")


def evidence_html(pairs: Sequence[tuple[str, str, PairEvidence]], number_of: Callable[[str], int]) -> str:
    """pairs: (a id, b id, PairEvidence)."""
    out = []
    for a, b, ev in sorted(pairs, key=lambda p: (number_of(p[0]), number_of(p[1]))):
        na, nb = f"#{number_of(a)}", f"#{number_of(b)}"
        lines = [f"<b>{na} vs {nb}</b>"]
        if ev.conflicts:
            for c in ev.conflicts:
                lines.append(f"<span style='color:{CONFLICT_FG}'>&nbsp;&nbsp;≠ {escape(c.fact_class)}: "
                             f"{_values(c.a)} in {na} vs {_values(c.b)} in {nb}</span>")
        else:
            lines.append(f"<span style='color:{MUTED}'>&nbsp;&nbsp;no conflicting values</span>")
        if ev.only_in_a:
            lines.append(f"&nbsp;&nbsp;only in {na}: {_only(ev.only_in_a)}")
        if ev.only_in_b:
            lines.append(f"&nbsp;&nbsp;only in {nb}: {_only(ev.only_in_b)}")
        if not ev.only_in_a and not ev.only_in_b:
            lines.append(f"<span style='color:{MUTED}'>&nbsp;&nbsp;both state the same facts</span>")
        out.append("<br>".join(lines))
    return "<br><br>".join(out)


class EvidencePanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("evidencePanel")
        self.pairs: list[tuple[str, str, PairEvidence]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QTextBrowser()
        self.text.setObjectName("evidenceText")
        self.text.setOpenLinks(False)
        layout.addWidget(self.text)
        self.clear()

    def clear(self) -> None:
        self.pairs = []
        self.text.setHtml(f"<span style='color:{MUTED}'>Select a cluster: the conflicts between its sources "
                          "and what only one of them states appear here.</span>")

    def set_pending(self) -> None:
        self.pairs = []
        self.text.setHtml(f"<span style='color:{MUTED}'>comparing the sources…</span>")

    def show_pairs(self, pairs: Sequence[tuple[str, str, PairEvidence]], number_of: Callable[[str], int]) -> None:
        self.pairs = list(pairs)
        self.text.setHtml(evidence_html(pairs, number_of) or f"<span style='color:{MUTED}'>nothing to compare</span>")

    def conflict_count(self) -> int:
        return sum(len(ev.conflicts) for _, _, ev in self.pairs)

    def plain_text(self) -> str:
        return self.text.toPlainText()
