"""The decider's side: Ask model (streamed reply, Cancel), the parsed decision, targets and rationale;
and the action buttons (each bound to a window QAction, so keys and buttons share one enabled state)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QFontDatabase, QResizeEvent, QTextCursor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..services.types import DeciderResult, DecisionKind
from ..style import MUTED, set_colors

KIND_COLORS = {DecisionKind.UPDATE: "#1a7f37", DecisionKind.CONSOLIDATE: "#1a7f37", DecisionKind.CREATE: "#9a6700",
               DecisionKind.SKIP: "#57606a"}


def action_button(action: QAction, *, primary: bool = False) -> QToolButton:
    button = QToolButton()
    button.setDefaultAction(action)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    button.setMinimumHeight(28)
    if primary:
        button.setStyleSheet("QToolButton:enabled { font-weight:600; }")
    return button


class DecisionPanel(QGroupBox):
    def __init__(self, ask: QAction, cancel: QAction, union: QAction, parent: QWidget | None = None):
        super().__init__("Decision", parent)
        self.setObjectName("decisionPanel")
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        self._model_targets: list[str] = []  # the targets the model named (pane labels)
        self._target = ""  # the target the merge uses (the sources' choice), as a pane label
        self._ruler = QLabel(self)  # measures the wrapped labels' heights (`_wrapped_height`), never shown
        self._ruler.setWordWrap(True)
        self._ruler.hide()
        self._add_cluster_marks(layout, ask, cancel, union)
        self._add_model_stream(layout)
        self._add_decision_grid(layout)
        self._add_model_notes(layout)

    def _add_cluster_marks(self, layout: QVBoxLayout, ask: QAction, cancel: QAction, union: QAction) -> None:
        """The cluster's outcome, the model's buttons, the "likely different facts" mark and the same-fact groups."""
        # What was done to this cluster and by whom (a reviewed cluster), above everything else.
        self.outcome_label = QLabel("")
        self.outcome_label.setObjectName("clusterOutcome")
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setMargin(3)
        set_colors(self.outcome_label, "#0b4a8b", "#ddf4ff")
        self.outcome_label.hide()
        layout.addWidget(self.outcome_label)
        row = QHBoxLayout()
        for act in (ask, cancel, union):
            row.addWidget(action_button(act))
        layout.addLayout(row)
        # Before any model call: the core's "likely different facts" mark on the whole cluster.
        self.mark_label = QLabel("")
        self.mark_label.setObjectName("likelyDifferent")
        self.mark_label.setWordWrap(True)
        set_colors(self.mark_label, "#7d4e00", "#fff8c5")
        self.mark_label.setMargin(3)
        self.mark_label.hide()
        layout.addWidget(self.mark_label)
        # After Ask model: the same-fact partition the model judged, pair by pair.
        self.groups_label = QLabel("")
        self.groups_label.setObjectName("factGroups")
        self.groups_label.setWordWrap(True)
        self.groups_label.setTextFormat(Qt.TextFormat.RichText)
        self.groups_label.hide()
        layout.addWidget(self.groups_label)

    def _add_model_stream(self, layout: QVBoxLayout) -> None:
        """The model's name and its streamed reply."""
        self.model_label = QLabel("")
        self.model_label.setObjectName("deciderModel")
        set_colors(self.model_label, MUTED)
        self.model_label.setWordWrap(True)
        layout.addWidget(self.model_label)
        self.stream = QPlainTextEdit()
        self.stream.setObjectName("modelStream")
        self.stream.setReadOnly(True)
        self.stream.setPlaceholderText("The model's reply streams here (M). U inserts the deterministic union draft.")
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(max(8.0, mono.pointSizeF() - 1))
        self.stream.setFont(mono)
        self.stream.setMaximumHeight(96)
        self.stream.setMinimumHeight(36)
        layout.addWidget(self.stream)

    def _add_decision_grid(self, layout: QVBoxLayout) -> None:
        """Decision, target and rationale, each under its name."""
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        self.kind_label = QLabel("—")
        self.kind_label.setObjectName("decisionKind")
        bold = QFont(self.kind_label.font())
        bold.setBold(True)
        self.kind_label.setFont(bold)
        self.targets_label = QLabel("—")
        self.targets_label.setObjectName("decisionTargets")
        self.targets_label.setMinimumWidth(1)  # elided to its column, never widening the panel
        self.rationale_label = QLabel("—")
        self.rationale_label.setObjectName("decisionRationale")
        self.rationale_label.setWordWrap(True)
        self.rationale_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for r, (name, widget) in enumerate((("Decision:", self.kind_label), ("Target:", self.targets_label),
                                             ("Rationale:", self.rationale_label))):
            label = QLabel(name)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            grid.addWidget(label, r, 0)
            grid.addWidget(widget, r, 1)
        layout.addLayout(grid)

    def _add_model_notes(self, layout: QVBoxLayout) -> None:
        """The model's measured record and the self-test's warning."""
        # The model's measured record (self-test, accuracy on the labelled demo, agreement with this reviewer):
        # about the model, not the cluster, so `clear()` keeps it.
        self.record_label = QLabel("")
        self.record_label.setObjectName("modelRecord")
        self.record_label.setWordWrap(True)
        self.record_label.setTextFormat(Qt.TextFormat.RichText)
        set_colors(self.record_label, MUTED)
        self.record_label.hide()
        layout.addWidget(self.record_label)
        self.warning_label = QLabel("")
        self.warning_label.setObjectName("selftestWarning")
        self.warning_label.setWordWrap(True)
        set_colors(self.warning_label, "#9a6700")
        self.warning_label.hide()
        layout.addWidget(self.warning_label)

    def warn(self, text: str) -> None:
        self.warning_label.setText(text)
        self.warning_label.setVisible(bool(text))

    def set_record(self, html: str, tip: str = "") -> None:
        """The current model's measured record ("" hides it)."""
        self.record_label.setText(html)
        self.record_label.setToolTip(tip)
        self.record_label.setVisible(bool(html))

    def set_outcome(self, text: str) -> None:
        """What was done to the cluster and by whom ("" hides it)."""
        self.outcome_label.setText(text)
        self.outcome_label.setVisible(bool(text))
        self._keep_whole(self.outcome_label)

    def show_target(self, label: str) -> None:
        """The target the merge uses (the editor header names the same one); the model's, when it named another."""
        self._target = label
        self._render_targets()

    def _render_targets(self) -> None:
        text = self._target or "—"
        others = [t for t in self._model_targets if t != self._target]
        if self._target and self._model_targets and others:  # short: the panel is narrow on a laptop
            named = ", ".join(t.split(" ", 1)[0] for t in self._model_targets)
            text = f"{text} (model: {named})"
        self.targets_label.setToolTip(
            f"{text}\n\nThe document the merge keeps (its id stays; the other included members are tombstoned): the "
            "same one the merged-body header names. Shift+1–9 changes it."
            + (f"\nThe model named: {', '.join(self._model_targets)}" if self._model_targets else ""))
        self.targets_label.setProperty("fullText", text)
        self._elide_target()

    def _elide_target(self) -> None:
        """One line, shortened at the end when the column is narrow (the tooltip has it whole)."""
        label = self.targets_label
        text = str(label.property("fullText") or "—")
        width = label.width() if label.isVisible() else self.width() - 90
        label.setText(label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(60, width - 2)))

    def set_mark(self, text: str) -> None:
        """The cluster's "likely different facts" line ("" hides it)."""
        self.mark_label.setText(text)
        self.mark_label.setVisible(bool(text))
        self._keep_whole(self.mark_label)

    def _keep_whole(self, label: QLabel) -> None:
        """A warning is never squeezed to a clipped line: its wrapped height is its minimum (the model's reply
        box gives the room up instead)."""
        width = max(120, label.width() if label.isVisible() else self.width() - 24)
        height = self._wrapped_height(label, width) if label.text() else 0
        if height != label.minimumHeight():
            label.setMinimumHeight(height)

    def _wrapped_height(self, label: QLabel, width: int) -> int:
        """`label`'s wrapped height at `width`, measured on a hidden twin: a label's own heightForWidth never
        goes below its minimum height, so a note that got shorter kept the old note's height (a blank band)."""
        ruler = self._ruler
        ruler.setFont(label.font())
        ruler.setTextFormat(label.textFormat())
        ruler.setMargin(label.margin())
        ruler.setContentsMargins(label.contentsMargins())
        ruler.setText(label.text())
        return ruler.heightForWidth(width)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self, self._keep_all_whole)  # once the labels have their new widths

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # a label's text changed: its wrapped height may have
            QTimer.singleShot(0, self, self._keep_all_whole)
        return super().event(event)

    def _keep_all_whole(self) -> None:
        # Every wrapped line of the panel, not only the warnings: short of height (1280×720, a long conflict
        # note) the layout squeezed the model's groups under the note, drawn over it and cut; with their wrapped
        # height as their minimum the panel grows and its scroll area scrolls instead.
        for label in (self.mark_label, self.outcome_label, self.groups_label, self.model_label, self.record_label,
                      self.warning_label, self.rationale_label):
            self._keep_whole(label)
        self._elide_target()

    def set_groups(self, html: str) -> None:
        """The judged same-fact partition ("" hides it)."""
        self.groups_label.setText(html)
        self.groups_label.setVisible(bool(html))

    def show_all_different(self) -> None:
        self.kind_label.setText("different facts")
        set_colors(self.kind_label, KIND_COLORS[DecisionKind.CREATE])
        self._model_targets = []
        self._render_targets()
        self.rationale_label.setText("Every pair was judged a different fact: nothing to merge. "
                                     "Keep separate (C) if you agree.")

    def clear(self) -> None:
        self.warn("")
        self.set_groups("")
        self.model_label.setText("")
        self.stream.clear()
        self.kind_label.setText("—")
        set_colors(self.kind_label, "#24292f")
        self._model_targets = []
        self._render_targets()
        self.rationale_label.setText("—")
        self.rationale_label.setToolTip("")

    def set_model_text(self, text: str) -> None:
        self.model_label.setText(text)

    def begin_stream(self, note: str = "") -> None:
        self.clear()
        self.kind_label.setText("asking the model…")
        if note:
            self.stream.setPlainText(note)

    def begin_call(self, title: str) -> None:
        """A new model call inside one decision: a header line in the stream."""
        cursor = self.stream.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        lead = "\n" if self.stream.toPlainText() else ""
        cursor.insertText(f"{lead}▸ {title}: ")
        self.stream.setTextCursor(cursor)
        self.stream.ensureCursorVisible()

    def append_stream(self, piece: str) -> None:
        cursor = self.stream.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(piece)
        self.stream.setTextCursor(cursor)
        self.stream.ensureCursorVisible()

    def show_cancelled(self) -> None:
        self.kind_label.setText("cancelled")
        set_colors(self.kind_label, "#9a6700")

    def show_error(self, text: str) -> None:
        self.kind_label.setText("no decision")
        set_colors(self.kind_label, "#cf222e")
        self.rationale_label.setText(text)

    def show_result(self, result: DeciderResult, label_for: Callable[[str], str],
                    relabel: Callable[[str], str] = lambda text: text) -> None:
        """Display a DeciderResult: decision kind, targets (as pane labels), rationale, timing."""
        decision = result.decision
        if result.raw_reply and not self.stream.toPlainText().strip():
            self.stream.setPlainText(result.raw_reply)
        seconds = result.seconds or 0.0
        tokens = result.completion_tokens or 0
        tail = f" · {seconds:.1f} s" + (f" · {tokens} tokens" if tokens else "")
        self.model_label.setText(f"{result.model_id or 'decider'}{tail}")
        if decision is None:
            self.show_error(f"The model gave no usable decision ({result.error or 'unparseable'}). "
                            "Use U for the union draft, or edit the merged body yourself.")
            return
        self.kind_label.setText(decision.kind.value)
        set_colors(self.kind_label, KIND_COLORS.get(decision.kind, "#24292f"))
        targets: Sequence[str] = list(decision.consolidation_target_ids or ())
        if decision.target_document_id:
            targets = [decision.target_document_id, *[t for t in targets if t != decision.target_document_id]]
        self._model_targets = [label_for(t) for t in targets]
        self._render_targets()
        rationale = result.rationale or decision.rationale or decision.reason or "—"
        self.rationale_label.setText(relabel(rationale))
        self.rationale_label.setToolTip(relabel(rationale))
