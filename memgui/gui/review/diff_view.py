"""Word diff of the merged body against one source, or of one source against another (switchable): words
only in the first side are struck through in red, words only in the second are green. The spans come from `core.diff` on a worker;
this view only renders them, and ignores results for a request that is no longer current."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTextEdit, QVBoxLayout, QWidget

from ..services.types import WordDiff
from ..services.values import DELETE, EQUAL, INSERT, REPLACE

DELETED_BG, DELETED_FG = QColor("#ffd7d5"), QColor("#82071e")
INSERTED_BG, INSERTED_FG = QColor("#ccffd8"), QColor("#055d20")
PAIR = "\t"  # combo data of a source-vs-source choice: "<a id>\t<b id>"
# Rendering more than this many characters of diff would make the GUI thread wait; the rest is elided.
MAX_RENDER_CHARS = 200_000


def _fmt(bg: QColor | None = None, fg: QColor | None = None, strike: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if bg is not None:
        fmt.setBackground(bg)
    if fg is not None:
        fmt.setForeground(fg)
    fmt.setFontStrikeOut(strike)
    return fmt


class DiffView(QWidget):
    sourceChosen = Signal(str)  # document id

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("diffView")
        self.request = 0
        self.shown_request = 0
        self.current_diff: WordDiff | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        # The picker has the row to itself (the tab already says "Word diff"), so a choice such as "merged vs #1
        # Offsite backups with restic" reads whole in the laptop's narrow diff column; its list opens as wide
        # as its longest choice, and its tooltip repeats the current one.
        self.combo = QComboBox()
        self.combo.setObjectName("diffSourceCombo")
        self.combo.setAccessibleName("Word diff: compare")
        self.combo.setMinimumContentsLength(12)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.currentIndexChanged.connect(self._chosen)
        layout.addWidget(self.combo)
        second = QHBoxLayout()
        self.stats = QLabel("")
        self.stats.setObjectName("diffStats")
        self.legend = QLabel("")
        self.legend.setObjectName("diffLegend")
        self._set_legend("source", "merged body")
        self.legend.setWordWrap(True)  # narrow, it wraps rather than widening the window
        second.addWidget(self.legend, 1)
        second.addWidget(self.stats, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        layout.addLayout(second)
        self.text = QTextEdit()
        self.text.setObjectName("diffText")
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        layout.addWidget(self.text, 1)

    def _set_legend(self, old: str, new: str) -> None:
        self.legend.setText(
            f"<span style='background:#ffd7d5;color:#82071e;text-decoration:line-through'>&nbsp;only in {old}&nbsp;</span>"
            f"&nbsp;&nbsp;<span style='background:#ccffd8;color:#055d20'>&nbsp;only in {new}&nbsp;</span>")

    # ---- source choice ------------------------------------------------------------------------------

    def set_sources(self, choices: Sequence[tuple[str, str]]) -> None:
        """choices: (document id, label), in pane order. Offers "merged vs" each source (the merged body), then each pair
        of sources ("#1 vs #2"). Keeps the current choice when it is still there."""
        current = self.combo.currentData()
        self.combo.blockSignals(True)
        self.combo.clear()
        for doc_id, label in choices:
            self.combo.addItem(f"merged vs {label}", doc_id)
        for i, (a, a_label) in enumerate(choices):
            for b, b_label in choices[i + 1:]:
                self.combo.addItem(f"source {a_label.split(' ', 1)[0]} vs source {b_label.split(' ', 1)[0]}",
                                   f"{a}{PAIR}{b}")
        index = self.combo.findData(current) if current else -1
        self.combo.setCurrentIndex(index if index >= 0 else (0 if choices else -1))
        self.combo.blockSignals(False)
        metrics, frame = self.combo.fontMetrics(), 48  # the list's frame, margins and scroll bar
        widest = max((metrics.horizontalAdvance(self.combo.itemText(i)) for i in range(self.combo.count())), default=0)
        self.combo.view().setMinimumWidth(widest + frame)
        self._update_legend()

    def current_source(self) -> str | None:
        """The source the merged body is compared with (None when two sources are compared)."""
        data = self.combo.currentData()
        return str(data) if data and PAIR not in str(data) else None

    def current_pair(self) -> tuple[str, str] | None:
        """The two sources compared with each other (None when the merged body is compared)."""
        data = self.combo.currentData()
        if not data or PAIR not in str(data):
            return None
        a, b = str(data).split(PAIR, 1)
        return a, b

    def choose_pair(self, a: str, b: str) -> None:
        index = self.combo.findData(f"{a}{PAIR}{b}")
        if index < 0:
            index = self.combo.findData(f"{b}{PAIR}{a}")
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def _update_legend(self) -> None:
        text = self.combo.currentText()
        self.combo.setToolTip(f"{text}\n\nThe merged body against one source, or one source against another"
                              if text else "The merged body against one source, or one source against another")
        if self.current_pair() is not None and " vs " in text:
            old, new = text.split(" vs ", 1)
            self._set_legend(old, new)
        else:
            self._set_legend("source", "merged body")

    def choose(self, doc_id: str) -> None:
        index = self.combo.findData(doc_id)
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def _chosen(self, index: int) -> None:
        self._update_legend()
        data = self.combo.itemData(index)
        if data:
            self.sourceChosen.emit(str(data))

    # ---- requests and results -----------------------------------------------------------------------

    def next_request(self) -> int:
        self.request += 1
        self.stats.setText("diffing…")
        return self.request

    def show_message(self, text: str) -> None:
        self.current_diff = None
        self.text.clear()
        self.text.setCurrentCharFormat(QTextCharFormat())
        self.text.setPlainText(text)
        self.stats.setText("")

    def show_diff(self, request: int, diff: WordDiff) -> bool:
        """Render `diff` if it answers the current request; returns False (and drops it) if stale."""
        if request != self.request:
            return False
        self.shown_request = request
        self.current_diff = diff
        self.text.clear()
        cursor = QTextCursor(self.text.document())
        plain, deleted = _fmt(), _fmt(DELETED_BG, DELETED_FG, strike=True)
        inserted = _fmt(INSERTED_BG, INSERTED_FG)
        budget = MAX_RENDER_CHARS
        cursor.beginEditBlock()
        for span in diff.spans:
            if budget <= 0:
                cursor.insertText("\n… (diff truncated for display)", plain)
                break
            if span.op == EQUAL:
                cursor.insertText(span.b_text, plain)
            if span.op in (DELETE, REPLACE):
                cursor.insertText(span.a_text, deleted)
            if span.op in (INSERT, REPLACE):
                cursor.insertText(span.b_text, inserted)
            budget -= len(span.a_text) + len(span.b_text)
        cursor.endEditBlock()
        self.text.moveCursor(QTextCursor.MoveOperation.Start)
        if diff.identical:
            self.stats.setText("identical (ignoring whitespace)")
        else:
            self.stats.setText(f"+{diff.inserted_words} / −{diff.deleted_words} words")
        return True
