"""A light progress/ratio bar: paints with update() (QProgressBar.setValue repaints synchronously, which
costs milliseconds per call in a large window), shows an optional floor mark (MergeGuard's 95% / 60%),
and has a busy mode for work of unknown length."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

TRACK = QColor("#eaeef2")
BORDER = QColor("#afb8c1")
OK, BAD, NEUTRAL = QColor("#2da44e"), QColor("#cf222e"), QColor("#0969da")


class RatioBar(QWidget):
    def __init__(self, parent: QWidget | None = None, *, floor: float | None = None, height: int = 16):
        super().__init__(parent)
        self.floor = floor
        self.value: float | None = None  # 0..1 (may exceed 1: drawn full, text shows the real figure)
        self.text = ""
        self.color = NEUTRAL
        self._busy_phase = -1
        self._timer = QTimer(self)
        self._timer.setInterval(80)
        self._timer.timeout.connect(self._tick)
        self.setFixedHeight(height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(160, self.height())

    def set_ratio(self, value: float | None, text: str = "", color: QColor | None = None) -> None:
        self._timer.stop()
        self._busy_phase = -1
        self.value, self.text = value, text
        if color is not None:
            self.color = color
        elif value is not None and self.floor is not None:
            self.color = OK if value >= self.floor else BAD
        self.update()

    def set_busy(self, text: str = "") -> None:
        self.value, self.text = None, text
        if not self._timer.isActive():
            self._busy_phase = 0
            self._timer.start()
        self.update()

    def _tick(self) -> None:
        self._busy_phase = (self._busy_phase + 1) % 20
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        r = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        p.fillRect(r, TRACK)
        if self._busy_phase >= 0:
            w = r.width() / 4
            x = r.left() + (r.width() - w) * (self._busy_phase / 19.0)
            p.fillRect(QRectF(x, r.top(), w, r.height()), NEUTRAL)
        elif self.value is not None:
            p.fillRect(QRectF(r.left(), r.top(), r.width() * max(0.0, min(1.0, self.value)), r.height()), self.color)
        if self.floor is not None:
            x = r.left() + r.width() * self.floor
            p.setPen(QPen(QColor("#24292f"), 2))
            p.drawLine(int(x), int(r.top()), int(x), int(r.bottom()))
        p.setPen(BORDER)
        p.drawRect(r)
        if self.text:
            p.setPen(QColor("#24292f"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.text)
        p.end()
