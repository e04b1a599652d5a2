"""The supersession of the cluster under review (issue 38), shown above the merged body: the reading
("supersedes", "dated series" or "undecided", with its reason) and the notes on a small timeline, older → newer,
each with its date, its title and its first words. Holds no behaviour: `Superseding` (superseding.py) fills it;
its buttons only say what the reviewer asked for."""
from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ..services.types import Reading

FIRST_WORDS = 9
# reading -> (what the badge says, text colour, background)
BADGES = {Reading.SUPERSEDES: ("Supersedes", "#1a7f37", "#dafbe1"),
          Reading.DATED_SERIES: ("Dated series: kept separate", "#0b4a8b", "#ddf4ff"),
          Reading.UNDECIDED: ("Undecided: you decide", "#9a6700", "#fff8c5")}
HINTS = {Reading.SUPERSEDES: "A accepts the supersession (the newest state wins, the older kept as dated history) · "
                       "U then A: a plain merge · C: keep separate",
         Reading.DATED_SERIES: "Dated observations are never superseded: C keeps them separate",
         Reading.UNDECIDED: "U then A: a plain merge · C: keep separate"}


@dataclass(frozen=True)
class TimelineState:
    """One note on the timeline."""

    doc_id: str
    label: str  # "#2", as on its source pane
    day: str  # YYYY-MM-DD, or "" when the note has no time
    title: str
    body: str

    @property
    def first_words(self) -> str:
        words = self.body.split()
        return " ".join(words[:FIRST_WORDS]) + (" …" if len(words) > FIRST_WORDS else "")


def card_html(state: TimelineState, role: str) -> str:
    day = html.escape(state.day or "no date")
    return (f"<b>{day}</b> <span style='color:#57606a'>{html.escape(state.label)} · {html.escape(role)}</span><br>"
            f"<span style='font-weight:600'>{html.escape(state.title or '(untitled)')}</span><br>"
            f"<span style='color:#57606a'>{html.escape(state.first_words)}</span>")


class SupersedePanel(QFrame):
    cancelRequested = Signal()
    readAsNewerRequested = Signal()  # the reviewer reads the newer note as the newer state (the model was unsure)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("supersedePanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.reading: Reading | None = None  # the reading shown (None while none)
        self._states: list[TimelineState] = []
        self._cards: list[QLabel] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.setSpacing(3)
        top = QHBoxLayout()
        self.badge = QLabel("")
        self.badge.setObjectName("supersedeBadge")
        self.reason = QLabel("")
        self.reason.setObjectName("supersedeReason")
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color:#57606a")
        self.read_as_newer = QPushButton("It is the newer state")
        self.read_as_newer.setObjectName("supersedeReadAsNewer")
        self.read_as_newer.setToolTip("You read the newer note as the newer state of the older: draft the "
                                      "supersession (the order and the dated-series rule still hold)")
        self.read_as_newer.clicked.connect(self.readAsNewerRequested)
        self.cancel = QPushButton("Cancel")
        self.cancel.setObjectName("supersedeCancel")
        self.cancel.clicked.connect(self.cancelRequested)
        top.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.reason, 1)
        top.addWidget(self.read_as_newer, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.cancel, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(top)
        self.timeline = QHBoxLayout()
        self.timeline.setSpacing(4)
        lay.addLayout(self.timeline)
        self.hint = QLabel("")
        self.hint.setObjectName("supersedeHint")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color:#57606a; font-size:11px")
        lay.addWidget(self.hint)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.clear()

    # ---- what it shows ------------------------------------------------------------------------------

    def clear(self) -> None:
        self.reading = None
        self._set_states([])
        self.hint.setText("")
        self.hide()

    def show_pending(self, text: str) -> None:
        """Reading: what it is doing, with Cancel."""
        self.reading = None
        self._badge("Reading…", "#57606a", "#f6f8fa")
        self.reason.setText(text)
        self.cancel.show()
        self.read_as_newer.hide()
        self._set_states([])
        self.hint.setText("")
        self.show()

    def show_reading(self, reading: Reading, reason: str, states: Sequence[TimelineState], *,
                     can_read_as_newer: bool = False) -> None:
        """`reading` ("supersedes", "dated-series" or "undecided") and its reason; `states` oldest first (in the
        cluster's order when the notes could not be ordered)."""
        self.reading = reading
        text, fg, bg = BADGES[reading]
        self._badge(text, fg, bg)
        self.reason.setText(reason)
        self.cancel.hide()
        self.read_as_newer.setVisible(can_read_as_newer)
        self._set_states(list(states), ordered=reading is not Reading.UNDECIDED or all(s.day for s in states))
        self.hint.setText(HINTS[reading])
        self.show()

    def set_hint(self, text: str) -> None:
        self.hint.setText(text)

    def states(self) -> list[TimelineState]:
        """The notes on the timeline, oldest first."""
        return list(self._states)

    def cards(self) -> list[QLabel]:
        return list(self._cards)

    # ---- parts --------------------------------------------------------------------------------------

    def _badge(self, text: str, fg: str, bg: str) -> None:
        self.badge.setText(text)
        self.badge.setStyleSheet(f"QLabel {{ color:{fg}; background:{bg}; padding:2px 6px; font-weight:700; "
                                 "border-radius:3px; }")

    def _set_states(self, states: list[TimelineState], ordered: bool = True) -> None:
        while self.timeline.count():
            item = self.timeline.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._states, self._cards = states, []
        for n, state in enumerate(states):
            if n:
                arrow = QLabel("→" if ordered else "·")
                arrow.setObjectName("supersedeArrow")
                arrow.setStyleSheet("color:#57606a; font-size:16px; font-weight:700")
                self.timeline.addWidget(arrow)
            newest = ordered and n == len(states) - 1
            role = "current" if newest else ("history" if ordered else "order unknown")
            card = QLabel(card_html(state, role))
            card.setObjectName("supersedeState")
            card.setTextFormat(Qt.TextFormat.RichText)
            card.setWordWrap(True)
            card.setToolTip(state.body)
            card.setMinimumWidth(120)
            card.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            border, fill = ("#1a7f37", "#f0fff4") if newest else ("#d0d7de", "#f6f8fa")
            card.setStyleSheet(f"QLabel {{ border:1px solid {border}; background:{fill}; border-radius:4px; "
                               "padding:3px 6px; }")
            self.timeline.addWidget(card, 1)
            self._cards.append(card)


__all__ = ["BADGES", "HINTS", "SupersedePanel", "TimelineState", "card_html"]
