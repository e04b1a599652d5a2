"""The calibration chart: it draws the suggested floor where the core computed it, its dots can be found
under the mouse, and "Use this threshold" hands the suggested value on (or is off when there is none)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from memgui.core.forensics.calibrate import ACCEPTED, KEPT_SEPARATE, LabelledPair, suggest_threshold
from memgui.gui.audit.calibration_chart import THRESHOLD_COLOR, CalibrationPanel
from waits import LONG_MS

PAIRS = ([LabelledPair(0.99 - 0.01 * i, ACCEPTED, "audit", f"a{i}", f"b{i}", i) for i in range(20)]
         + [LabelledPair(c, KEPT_SEPARATE, "demo", f"c{c}", f"d{c}") for c in (0.95, 0.85, 0.82, 0.70, 0.60)])


@pytest.fixture
def panel(qtbot):
    p = CalibrationPanel()
    qtbot.addWidget(p)
    p.resize(760, 360)
    p.show()
    return p


def _near(c1: QColor, c2: QColor, tol: int = 40) -> bool:
    return abs(c1.red() - c2.red()) + abs(c1.green() - c2.green()) + abs(c1.blue() - c2.blue()) <= tol


def test_suggested_floor_is_drawn_where_the_core_put_it(panel):
    cal = suggest_threshold(PAIRS)
    panel.set_calibration(PAIRS, cal, current=0.80)
    plot = panel.plot
    image = plot.grab().toImage()
    rect = plot._plot_rect()
    lo, hi = plot.x_range()
    x = round(plot._x(cal.threshold, rect, lo, hi))
    y = round(rect.center().y())
    ratio = image.width() / plot.width()  # device pixel ratio of the grab
    hits = [_near(image.pixelColor(int((x + dx) * ratio), int(y * ratio)), THRESHOLD_COLOR) for dx in (-1, 0, 1)]
    assert any(hits)
    assert "19 of 20" in panel.message.text() and panel.message.text()[0].isupper()


def test_points_can_be_found_under_the_mouse(panel):
    panel.set_calibration(PAIRS, suggest_threshold(PAIRS))
    panel.plot.grab()  # paint once so the point positions are known
    centre, pair = panel.plot._points[0]
    assert panel.plot.pair_at(centre) is pair
    assert panel.plot.pair_at(QPointF(-50, -50)) is None
    assert {p.source for _c, p in panel.plot._points} == {"audit", "demo"}


def test_use_this_threshold_emits_the_suggestion(panel, qtbot):
    cal = suggest_threshold(PAIRS)
    panel.set_calibration(PAIRS, cal, current=0.80)
    assert panel.use_button.isEnabled() and panel.use_button.text() == f"Use this threshold ({cal.threshold:.3f})"
    with qtbot.waitSignal(panel.thresholdChosen, timeout=LONG_MS) as blocker:
        QTest.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [pytest.approx(cal.threshold)]
    panel.set_calibration(PAIRS, cal, current=cal.threshold)  # already in use: nothing to do
    assert not panel.use_button.isEnabled()


def test_no_pairs_no_button_and_a_clear_message(panel, qtbot):
    panel.set_calibration([], suggest_threshold([]), current=0.8)
    assert not panel.use_button.isEnabled()
    assert panel.message.text().startswith("No decisions yet")
    image = panel.plot.grab().toImage()
    assert not image.isNull()
    with qtbot.waitSignal(panel.recomputeRequested, timeout=LONG_MS):
        QTest.mouseClick(panel.recompute_button, Qt.MouseButton.LeftButton)


def test_a_single_decision_offers_no_threshold_and_says_how_many_are_needed(panel):
    """Issue 24 item 6. Would fail without the minimum: one merge offered "Use this threshold (0.926)"."""
    from memgui.gui.services.values import MIN_DECISIONS

    one = [LabelledPair(0.926, ACCEPTED, "audit", "a", "b", 1)]
    cal = suggest_threshold(one)
    assert cal.threshold is not None  # the core still computes it; the window does not offer it
    panel.set_calibration(one, cal, current=0.80)
    assert not panel.use_button.isEnabled()
    assert f"needs {MIN_DECISIONS} decisions, 1 so far" in panel.use_button.text()
    assert f"at least {MIN_DECISIONS} are needed" in panel.message.text()
    assert MIN_DECISIONS == 20
