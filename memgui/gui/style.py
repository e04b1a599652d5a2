"""Colours set through palettes (cheap to change on every update; a style sheet re-polishes the widget)."""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QWidget

MUTED = "#57606a"


def set_colors(widget: QWidget, fg: str | None = None, bg: str | None = None) -> None:
    palette = widget.palette()
    if fg is not None:
        palette.setColor(QPalette.ColorRole.WindowText, QColor(fg))
        palette.setColor(QPalette.ColorRole.Text, QColor(fg))
    if bg is not None:
        palette.setColor(QPalette.ColorRole.Window, QColor(bg))
        palette.setColor(QPalette.ColorRole.Highlight, QColor(bg))
    widget.setAutoFillBackground(bg is not None and widget.inherits("QLabel"))
    widget.setPalette(palette)


def set_bold(widget: QWidget, bold: bool = True) -> None:
    font = QFont(widget.font())
    font.setBold(bold)
    widget.setFont(font)
