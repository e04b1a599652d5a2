"""Threshold calibration chart: cosine of every labelled pair against the decision made on it.

Drawn with QPainter rather than QtCharts on purpose: QtCharts ships only in PySide6-Addons (≈400 MB more with
WebEngine and the rest), while memgui depends on PySide6-Essentials alone; the chart is two rows of dots, a
shaded "nominated" band and two vertical lines, which a few dozen lines of QPainter draw crisply at any DPI,
offscreen too, with no extra dependency.

`CalibrationPlot` paints: one row of accepted merges and one of pairs kept separate, x = cosine; filled dots
are the person's own decisions, rings are the demo store's ground-truth labels; the band right of the
suggested floor is what would be nominated; a dashed line marks the floor in use now.
`CalibrationPanel` adds the explanation and the "Use this threshold" button (signal `thresholdChosen`).
"""
from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from ..services.types import Calibration, LabelledPair
from ..services.values import MIN_DECISIONS, PairLabel, PairSource

ACCEPTED_COLOR = QColor("#1a7f37")
KEPT_COLOR = QColor("#cf222e")
THRESHOLD_COLOR = QColor("#1f6feb")
CURRENT_COLOR = QColor("#6e7781")
BAND_COLOR = QColor(31, 111, 235, 28)
GRID_COLOR = QColor("#d0d7de")
TEXT_COLOR = QColor("#24292f")
ROWS = ((PairLabel.ACCEPTED, "Merged (accepted)", ACCEPTED_COLOR), (PairLabel.KEPT_SEPARATE, "Kept separate", KEPT_COLOR))
DOT_RADIUS = 4.5


def _jitter(key: str) -> float:
    """A stable offset in [-1, 1] for a point, so dots with equal cosines do not hide each other."""
    return (zlib.crc32(key.encode("utf-8")) % 2001) / 1000.0 - 1.0


class CalibrationPlot(QWidget):
    """The dot plot. `set_data(pairs, threshold, current)`; pairs are core.calibrate.LabelledPair values."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("calibrationPlot")
        self.setMinimumSize(420, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.pairs: list[LabelledPair] = []
        self.threshold: float | None = None
        self.current: float | None = None
        self._points: list[tuple[QPointF, LabelledPair]] = []

    def sizeHint(self) -> QSize:
        return QSize(680, 250)

    def set_data(self, pairs: Sequence[LabelledPair], threshold: float | None, current: float | None = None) -> None:
        self.pairs = [p for p in pairs if isinstance(p.cosine, (int, float)) and math.isfinite(p.cosine)]
        self.threshold, self.current = threshold, current
        self.update()

    # ---- geometry -----------------------------------------------------------------------------------------

    def x_range(self) -> tuple[float, float]:
        values = [p.cosine for p in self.pairs] + [v for v in (self.threshold, self.current) if v is not None]
        lo = min(values) if values else 0.5
        lo = max(-1.0, math.floor((lo - 0.02) * 20) / 20)
        return (min(lo, 0.95), 1.0)

    def _label_width(self) -> float:
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        return max(metrics.horizontalAdvance(title) for _l, title, _c in ROWS) + 14

    def _plot_rect(self) -> QRectF:
        left = self._label_width() + 8
        return QRectF(left, 34, max(40.0, self.width() - left - 22), max(40.0, self.height() - 34 - 40))

    def _x(self, value: float, rect: QRectF, lo: float, hi: float) -> float:
        return rect.left() + (value - lo) / (hi - lo) * rect.width()

    # ---- painting -------------------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        rect = self._plot_rect()
        lo, hi = self.x_range()
        font = QFont(self.font())
        p.setFont(font)
        self._points = []
        if self.threshold is not None:  # what the suggested floor would nominate
            x = self._x(self.threshold, rect, lo, hi)
            p.fillRect(QRectF(x, rect.top(), rect.right() - x, rect.height()), BAND_COLOR)
        self._paint_axis(p, rect, lo, hi)
        self._paint_rows(p, rect, lo, hi, font)
        self._paint_floors(p, rect, lo, hi)
        self._legend(p, rect)
        p.setPen(QPen(GRID_COLOR, 1))
        p.drawRect(rect)
        if not self.pairs:
            p.setPen(CURRENT_COLOR)
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                       "No labelled pairs yet — merge or keep separate a few clusters, or open the demo store.")
        p.end()

    def _paint_axis(self, p: QPainter, rect: QRectF, lo: float, hi: float) -> None:
        """The grid and the x axis (cosine ticks)."""
        step = 0.05 if hi - lo <= 0.5 else 0.1
        tick = math.ceil(lo / step - 1e-9) * step
        p.setPen(QPen(GRID_COLOR, 1))
        while tick <= hi + 1e-9:
            x = self._x(tick, rect, lo, hi)
            p.setPen(QPen(GRID_COLOR, 1))
            p.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
            p.setPen(TEXT_COLOR)
            p.drawText(QRectF(x - 24, rect.bottom() + 4, 48, 16), Qt.AlignmentFlag.AlignCenter, f"{tick:.2f}")
            tick += step
        p.setPen(TEXT_COLOR)
        p.drawText(QRectF(rect.left(), rect.bottom() + 20, rect.width(), 16), Qt.AlignmentFlag.AlignCenter,
                   "cosine similarity of the pair")

    def _paint_rows(self, p: QPainter, rect: QRectF, lo: float, hi: float, font: QFont) -> None:
        """One row per label: its title and count, and a dot per pair at its cosine (hollow for the demo's)."""
        row_h = rect.height() / len(ROWS)
        for i, (label, title, color) in enumerate(ROWS):
            top = rect.top() + i * row_h
            p.setPen(QPen(GRID_COLOR, 1))
            p.drawLine(QPointF(rect.left(), top + row_h), QPointF(rect.right(), top + row_h))
            members = [q for q in self.pairs if q.label == label]
            p.setPen(color)
            bold = QFont(font)
            bold.setBold(True)
            p.setFont(bold)
            label_w = rect.left() - 12
            p.drawText(QRectF(4, top, label_w, row_h / 2), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, title)
            p.setFont(font)
            p.setPen(TEXT_COLOR)
            p.drawText(QRectF(4, top + row_h / 2, label_w, row_h / 2), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                       f"{len(members)} pair{'s' if len(members) != 1 else ''}")
            mid, spread = top + row_h / 2, max(2.0, row_h / 2 - DOT_RADIUS - 4)
            for q in members:
                key = f"{q.a}|{q.b}|{q.source}"
                centre = QPointF(self._x(q.cosine, rect, lo, hi), mid + _jitter(key) * spread)
                self._points.append((centre, q))
                if q.source == PairSource.DEMO:
                    p.setPen(QPen(color, 1.6))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                else:
                    p.setPen(QPen(color.darker(130), 1))
                    fill = QColor(color)
                    fill.setAlpha(200)
                    p.setBrush(fill)
                p.drawEllipse(centre, DOT_RADIUS, DOT_RADIUS)
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_floors(self, p: QPainter, rect: QRectF, lo: float, hi: float) -> None:
        """The floor in use now, and the suggestion."""
        if self.current is not None and lo <= self.current <= hi:
            x = self._x(self.current, rect, lo, hi)
            p.setPen(QPen(CURRENT_COLOR, 1.5, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
            self._line_label(p, x, rect, f"now {self.current:.3f}", CURRENT_COLOR, below=True)
        if self.threshold is not None:
            x = self._x(self.threshold, rect, lo, hi)
            p.setPen(QPen(THRESHOLD_COLOR, 2.2))
            p.drawLine(QPointF(x, rect.top() - 4), QPointF(x, rect.bottom()))
            self._line_label(p, x, rect, f"suggested {self.threshold:.3f}", THRESHOLD_COLOR)

    def _line_label(self, p: QPainter, x: float, rect: QRectF, text: str, color: QColor, below: bool = False) -> None:
        metrics = p.fontMetrics()
        w = metrics.horizontalAdvance(text) + 10
        left = min(max(rect.left(), x - w / 2), rect.right() - w)
        y = rect.bottom() - 20 if below else rect.top() - 20
        box = QRectF(left, y, w, 17)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(self.palette().base())
        p.drawRoundedRect(box, 3, 3)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(color)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _legend(self, p: QPainter, rect: QRectF) -> None:
        y = 12
        x = 6
        p.setPen(TEXT_COLOR)
        items = [("filled", "your decision"), ("ring", "demo label"), ("band", "nominated at the suggested floor")]
        metrics = p.fontMetrics()
        for kind, text in items:
            if kind == "filled":
                p.setPen(QPen(CURRENT_COLOR.darker(130), 1))
                p.setBrush(CURRENT_COLOR)
                p.drawEllipse(QPointF(x + 5, y), DOT_RADIUS, DOT_RADIUS)
            elif kind == "ring":
                p.setPen(QPen(CURRENT_COLOR, 1.6))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(QPointF(x + 5, y), DOT_RADIUS, DOT_RADIUS)
            else:
                p.fillRect(QRectF(x, y - 6, 12, 12), BAND_COLOR)
                p.setPen(QPen(THRESHOLD_COLOR, 1))
                p.drawRect(QRectF(x, y - 6, 12, 12))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(TEXT_COLOR)
            p.drawText(QPointF(x + 16, y + metrics.ascent() / 2 - 1), text)
            x += 16 + metrics.horizontalAdvance(text) + 18

    # ---- tooltips -------------------------------------------------------------------------------------------

    def pair_at(self, pos: QPointF) -> LabelledPair | None:
        best, best_d = None, (DOT_RADIUS + 3) ** 2
        for centre, pair in self._points:
            d = (centre.x() - pos.x()) ** 2 + (centre.y() - pos.y()) ** 2
            if d <= best_d:
                best, best_d = pair, d
        return best

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            pair = self.pair_at(QPointF(e.pos()))
            if pair is None:
                QToolTip.hideText()
            else:
                who = "demo label" if pair.source == PairSource.DEMO else (
                    f"your decision (audit #{pair.audit_id})" if pair.audit_id else "your decision")
                what = "merged" if pair.label == PairLabel.ACCEPTED else "kept separate"
                QToolTip.showText(e.globalPos(), f"{what} · cosine {pair.cosine:.3f}\n{pair.a}\n{pair.b}\n{who}", self)
            return True
        return super().event(e)


class CalibrationPanel(QWidget):
    """The chart, what it means, and one click to use the suggested floor."""

    thresholdChosen = Signal(float)
    recomputeRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("calibrationPanel")
        self.calibration: Calibration | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        intro = QLabel(
            "Each dot is a pair of documents: its cosine similarity, and whether it was merged or kept separate. "
            "The suggested floor is the highest that still nominates at least 95 % of the merges you accepted. "
            f"It is offered for use after {MIN_DECISIONS} decisions (merges and kept-separate pairs): fewer say "
            "too little about your store."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.plot = CalibrationPlot()
        layout.addWidget(self.plot, 1)
        self.message = QLabel("")
        self.message.setObjectName("calibrationMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        row = QHBoxLayout()
        self.recompute_button = QPushButton("Recompute")
        self.recompute_button.setToolTip("Gather the labelled pairs again (your decisions and, on the demo store, its labels)")
        self.recompute_button.clicked.connect(self.recomputeRequested)
        row.addWidget(self.recompute_button)
        row.addStretch(1)
        self.use_button = QPushButton("Use this threshold")
        self.use_button.setObjectName("useThresholdButton")
        self.use_button.setEnabled(False)
        self.use_button.clicked.connect(self._use)
        row.addWidget(self.use_button)
        layout.addLayout(row)

    def set_calibration(self, pairs: Sequence[LabelledPair], calibration: Calibration | None,
                        current: float | None = None) -> None:
        """Show `pairs` and a core.calibrate.Calibration (None = nothing computed yet)."""
        self.calibration = calibration
        threshold = calibration.threshold if calibration is not None else None
        self.plot.set_data(pairs, threshold, current)
        demo = sum(1 for p in pairs if p.source == PairSource.DEMO)
        text = calibration.message if calibration is not None else ""
        text = text[:1].upper() + text[1:]
        if demo and calibration is not None:
            text += f" ({demo} of the {len(pairs)} pairs are demo labels.)"
        enough = calibration is not None and calibration.enough
        n = calibration.decisions if calibration is not None else 0  # decisions so far
        if threshold is not None and not enough:
            text = (text.rstrip(". ") + f". Only {n} decision{'s' if n != 1 else ''} so far: at least "
                    f"{MIN_DECISIONS} are needed before the floor is offered as the threshold to use.")
        self.message.setText(text)
        self.use_button.setEnabled(enough and threshold is not None and (current is None or abs(threshold - current) > 1e-9))
        if threshold is not None and enough:
            self.use_button.setText(f"Use this threshold ({threshold:.3f})")
        elif threshold is not None:
            self.use_button.setText(f"Use this threshold (needs {MIN_DECISIONS} decisions, {n} so far)")
        else:
            self.use_button.setText("Use this threshold")
        self.use_button.setToolTip(f"Offered after {MIN_DECISIONS} decisions (merges + kept-separate pairs)")

    def set_busy(self, text: str) -> None:
        self.message.setText(text)
        self.use_button.setEnabled(False)

    def _use(self) -> None:
        threshold = self.calibration.threshold if self.calibration is not None else None
        if threshold is not None:
            self.thresholdChosen.emit(float(threshold))


__all__ = ["CalibrationPanel", "CalibrationPlot"]
