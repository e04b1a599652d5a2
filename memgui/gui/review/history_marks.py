"""The statements a merged body keeps as dated history (`(previously: …, as of DATE)`, issue 38), marked in the
word diff: italic on a muted background, with a tooltip that says which note and which day they come from. The
diff's spans are walked as `DiffView.show_diff` rendered them, so a mark lands on the merged body's words only
(never on the source's struck-through ones between them)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor

from ..services.values import DELETE, EQUAL, INSERT, REPLACE
from .diff_view import MAX_RENDER_CHARS, DiffView

HISTORY_BG, HISTORY_FG = QColor("#ece8f6"), QColor("#4b3f72")
LEGEND = ("&nbsp;&nbsp;<span style='background:#ece8f6;color:#4b3f72;font-style:italic'>"
          "&nbsp;kept as dated history&nbsp;</span>")


class HistoryMark(NamedTuple):
    start: int  # in the merged body's characters
    end: int
    tooltip: str


def _u16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def merged_text(view: DiffView) -> str:
    """The merged body the diff on show was computed against ("" when two sources are compared)."""
    diff = view.current_diff
    if diff is None or view.current_source() is None:
        return ""
    return "".join(span.b_text for span in diff.spans if span.op in (EQUAL, INSERT, REPLACE))


def history_format(tooltip: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(HISTORY_BG)
    fmt.setForeground(HISTORY_FG)
    fmt.setFontItalic(True)
    fmt.setToolTip(tooltip)
    return fmt


def mark_history(view: DiffView, marks: Sequence[HistoryMark]) -> int:
    """Mark `marks` (ranges of the merged body) in the diff on show; returns how many pieces were marked."""
    diff = view.current_diff
    if diff is None or view.current_source() is None or not marks:
        return 0
    doc = view.text.document()
    cursor = QTextCursor(doc)
    last = doc.characterCount() - 1
    at, b_at, budget, marked = 0, 0, MAX_RENDER_CHARS, 0
    cursor.beginEditBlock()
    for span in diff.spans:
        if budget <= 0:
            break
        if span.op == EQUAL:
            marked += _mark_piece(cursor, marks, at, b_at, span.b_text, last)
            at, b_at = at + _u16(span.b_text), b_at + len(span.b_text)
        if span.op in (DELETE, REPLACE):
            at += _u16(span.a_text)
        if span.op in (INSERT, REPLACE):
            marked += _mark_piece(cursor, marks, at, b_at, span.b_text, last)
            at, b_at = at + _u16(span.b_text), b_at + len(span.b_text)
        budget -= len(span.a_text) + len(span.b_text)
    cursor.endEditBlock()
    if marked and "dated history" not in view.legend.text():
        view.legend.setText(view.legend.text() + LEGEND)
    return marked


def _mark_piece(cursor: QTextCursor, marks: Sequence[HistoryMark], at: int, b_at: int, text: str, last: int) -> int:
    end, n = b_at + len(text), 0
    for mark in marks:
        lo, hi = max(mark.start, b_at), min(mark.end, end)
        if lo >= hi:
            continue
        start, stop = at + _u16(text[: lo - b_at]), at + _u16(text[: hi - b_at])
        if stop > last:
            continue
        cursor.setPosition(start)
        cursor.setPosition(stop, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(history_format(mark.tooltip))
        n += 1
    return n


__all__ = ["HISTORY_BG", "HistoryMark", "history_format", "mark_history", "merged_text"]
