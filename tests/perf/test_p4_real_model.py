"""P4 on the real model: the longest GUI-thread stall through open → the first model load and its self-test (in
the background, at start-up) → decisions ahead on the next clusters → reaching a decided cluster → asking the
model yourself (the queue paused) → accept. Goal ≤ 50 ms, a row of `make bench`'s goal table (a miss fails it);
also asserted: the event loop kept turning through every stage (no stage ran on the GUI thread for its whole
duration).

The scanner is the window tests' fake (three known clusters), so the model's stages are what is measured."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from memgui.core.decide import model_files

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))
from gui_fakes import Answerer, FakeScanner, build_review_store, services_for


@pytest.mark.skipif(model_files.default_model_path() is None, reason="the default decider model is not installed")
def test_p4_longest_gui_stall_with_the_real_model(tmp_path, qtbot, capsys, goals):
    from memgui.gui.status import StallProbe

    w, review = _window_with_the_real_model(tmp_path, qtbot)
    # The window's very first paint happens before it serves the reviewer (start-up, ≈ 185 ms offscreen here);
    # it is reported on its own, not as a stall of the work below.
    probe = StallProbe(5)
    probe.start()
    qtbot.waitExposed(w)
    qtbot.wait(300)
    first_paint = round(probe.longest_stall_ms, 1)
    stages: dict[str, tuple[float, int]] = {}

    def stage(name, run):
        probe.reset()
        run()
        stages[name] = (round(probe.longest_stall_ms, 1), probe.ticks)

    def open_and_scan():
        with qtbot.waitSignal(w.ready, timeout=60000):
            w.open_located(str(review.path))

    def start_up():  # the first model load and the self-test, on the queue's worker
        qtbot.waitUntil(lambda: w.ahead.ready, timeout=300000)

    def ahead():
        qtbot.waitUntil(lambda: bool(len(w.ahead.reviews) == 2 or w.ahead.failed or w.ahead.problem), timeout=900000)
        assert not w.ahead.failed and not w.ahead.problem, (w.ahead.failed, w.ahead.problem)

    def reach_decided():
        QTest.keyClick(w.queue, Qt.Key.Key_J)
        qtbot.waitUntil(lambda: "decided ahead" in w.editor_title.text(), timeout=10000)
        qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=10000)

    def ask_model():
        with qtbot.waitSignal(w.review.decisionFinished, timeout=600000):
            QTest.keyClick(w.queue, Qt.Key.Key_M)
        qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=10000)

    stage("open+scan", open_and_scan)
    stage("first model load + self-test (background)", start_up)
    stage("decisions ahead: the next 2 clusters", ahead)
    stage("J to a decided cluster", reach_decided)
    stage("ask model (M; the queue paused)", ask_model)
    probe.stop()
    w.close()
    longest = max(v[0] for v in stages.values())
    with capsys.disabled():
        print(f"\nP4 on the real model (goal <= 50 ms): longest {longest:.1f} ms; per stage: "
              + ", ".join(f"{k} {v[0]:.1f} ms ({v[1]} ticks)" for k, v in stages.items())
              + f"; self-test: {w.ahead.verdict.summary if w.ahead.verdict else 'none'}"
              + f"; the window's first paint (start-up, not counted) {first_paint:.1f} ms")
    goals.hold("P4 longest GUI stall, real model", "≤ 50 ms", f"{longest:.1f} ms", longest <= 50.0)
    assert all(stages[name][1] >= 20 for name in ("first model load + self-test (background)",
                                                  "decisions ahead: the next 2 clusters",
                                                  "ask model (M; the queue paused)"))


def _window_with_the_real_model(tmp_path, qtbot):
    """The main window shown on a review store, with the real decider and self-test and decisions ahead on; and
    the store."""
    from memgui.gui.main_window import MainWindow
    from memgui.gui.services import real_services

    review = build_review_store(tmp_path / "store" / "netclaw.db")
    real = real_services()
    services = services_for(review, scanner=FakeScanner(review.ids))
    services.make_decider, services.selftest = real.make_decider, real.selftest
    qs = QSettings(str(tmp_path / "memgui.ini"), QSettings.Format.IniFormat)
    qs.setValue("decider/ahead", "true")
    w = MainWindow(services, qsettings=qs)
    qtbot.addWidget(w)
    w.answerer = Answerer()
    w.prompter.exec_box = w.answerer
    w.show()
    return w, review
