"""What the decisions-ahead queue is doing (a status-bar line with its own Stop / Resume, apart from the Cancel
of the reviewer's call), and the model's measured record as the decision panel shows it."""
from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from ..services.types import Agreement, ModelQuality, Progress, SelfTestReport, Step
from ..style import MUTED, set_colors


class AheadStatus(QWidget):
    def __init__(self, stop: Callable[[], None], resume: Callable[[], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("aheadStatus")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 6, 0)
        self.label = QLabel("")
        self.label.setObjectName("aheadLabel")
        set_colors(self.label, MUTED)
        self.button = QToolButton()
        self.button.setObjectName("aheadStop")
        self.button.setAutoRaise(True)
        self.button.clicked.connect(lambda: (stop if self.button.text() == "Stop" else resume)())
        layout.addWidget(self.label)
        layout.addWidget(self.button)
        self.hide()

    def show_state(self, text: str, button: str = "", tip: str = "") -> None:
        """`button`: "Stop", "Resume" or "" (none)."""
        self.label.setText(text)
        self.label.setToolTip(tip)
        self.button.setText(button)
        self.button.setToolTip("Stop deciding clusters ahead (the current model call of yours is not affected)"
                               if button == "Stop" else "Decide the next clusters in the background again")
        self.button.setVisible(bool(button))
        self.setVisible(bool(text))


def startup_note(progress: Progress) -> str:
    """What the queue's start-up is doing, from its Progress: the model's load, or the self-test's canary
    ("model self-test 3/6 (near-miss)…"); "" for a step not worth a line."""
    if progress.stage == Step.LOADING_MODEL:
        return "loading the model…"
    if progress.stage == Step.SELF_TEST and progress.total:
        if progress.done >= progress.total:
            return f"model self-test {progress.total}/{progress.total} done"
        done = progress.done + 1
        kind = progress.message.rsplit(": ", 1)[-1] if progress.message else ""
        return f"model self-test {done}/{progress.total}" + (f" ({kind})" if kind else "") + "…"
    return ""


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _canaries(verdict: SelfTestReport) -> str:
    passed, total = getattr(verdict, "passed", None), getattr(verdict, "total", None)
    return f" ({passed}/{total} canary pairs)" if total else ""


def record_html(model_id: str, verdict: SelfTestReport | None, quality: ModelQuality | None,
                agreement: Agreement | None, minimum: int) -> tuple[str, str]:
    """(rich text, tooltip) of the model's record: self-test, accuracy on the labelled demo, agreement."""
    name = html.escape(model_id or "decider")
    if verdict is None:
        test = "self-test not run yet"
    else:
        test = f"self-test {'passed' if verdict.capable else '<b>failed</b>'}" + _canaries(verdict)
    lines = [f"<b>Model</b> {name} · {test}"]
    tip = ""
    if quality is None:
        lines.append("Accuracy on the labelled demo: not measured yet — run <code>memgui evaluate-model</code>")
    else:
        lines.append(f"On the labelled demo: same-fact recall {_percent(quality.same_fact_recall)}, sibling "
                     f"rejection {_percent(quality.sibling_rejection)}, "
                     f"{quality.false_merges_per_100:.1f} false merges per 100 clusters")
        tip = f"Measured by memgui evaluate-model on {quality.subset} ({quality.measured_at})."
    if agreement is not None:
        if agreement.judged >= minimum:
            lines.append(f"Agrees with you on {agreement.agreed} of {agreement.judged} decisions "
                         f"({_percent(agreement.rate)}; merges {agreement.merges_agreed}/{agreement.merges_judged}, "
                         f"kept separate {agreement.kept_agreed}/{agreement.kept_judged})")
        else:
            lines.append(f"Agreement with you: shown after {minimum} of your decisions on clusters it judged "
                         f"({agreement.judged} so far)")
    return "<br>".join(lines), tip


__all__ = ["AheadStatus", "record_html", "startup_note"]
