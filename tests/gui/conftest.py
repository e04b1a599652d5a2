"""Fixtures for window tests: an isolated QSettings file, a small review store, and a window whose dialogs
are answered by the test (each dialog is recorded; an unexpected one fails the test)."""
from __future__ import annotations

import pytest

from gui_fakes import Answerer, build_review_store, services_for
from waits import LONG_MS


def _top_levels() -> set:
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    QCoreApplication.processEvents()
    return set(QApplication.topLevelWidgets())


@pytest.fixture(autouse=True)
def _no_leaked_widgets(qapp):
    """Every GUI test: the top-level widgets it made are gone when it ends (closed and deleted by the test, by
    qtbot.addWidget or by their parent). Runs after the test's own fixtures closed their windows."""
    import time

    before = _top_levels()
    yield
    deadline = time.monotonic() + 15  # deleteLater needs the event loop: generous on a busy machine
    while (leaked := _top_levels() - before) and time.monotonic() < deadline:
        pass
    if leaked:
        names = sorted(f"{type(w).__name__}:{w.objectName()}" for w in leaked)
        for widget in leaked:  # do not let them spill into the next test's count
            widget.close()
            widget.deleteLater()
        _top_levels()
        pytest.fail(f"widgets outlived the test: {names}", pytrace=False)


@pytest.fixture
def run_gui_windows(qapp):
    """A test that runs the app's entry point in-process (run_gui): the MainWindow it made lives, as in real use,
    until the process ends. Closed and deleted here, before the leak check; any other widget still counts."""
    from PySide6.QtWidgets import QApplication

    from memgui.gui.main_window import MainWindow

    before = set(QApplication.topLevelWidgets())
    yield
    for widget in set(QApplication.topLevelWidgets()) - before:
        if isinstance(widget, MainWindow):
            widget.close()
            widget.deleteLater()


@pytest.fixture
def qsettings(tmp_path):
    from PySide6.QtCore import QSettings

    qs = QSettings(str(tmp_path / "memgui-test.ini"), QSettings.Format.IniFormat)
    # Decisions ahead are on by default, but would share each test's scripted decider with the reviewer's calls
    # it counts; tests of the queue turn it on (tests/gui/test_gui_ahead.py).
    qs.setValue("decider/ahead", "false")
    qs.setValue("hints/firstRunSeen", "true")  # the first-run hint is tested on its own (test_gui_traps.py)
    return qs


@pytest.fixture
def review_store(tmp_path):
    return build_review_store(tmp_path / "store" / "netclaw.db")


@pytest.fixture
def make_window(qtbot, qsettings, review_store):
    from memgui.gui.main_window import MainWindow

    made = []

    def make(services=None):
        window = MainWindow(services or services_for(review_store), qsettings=qsettings)
        qtbot.addWidget(window)
        window.answerer = Answerer()
        window.prompter.exec_box = window.answerer
        window.show()
        window.activateWindow()
        made.append(window)
        return window

    yield make
    from shiboken6 import isValid

    for window in made:
        if isValid(window):
            window.close()


@pytest.fixture
def opened(make_window, review_store, qtbot):
    """A window on the review store with the queue filled and the first cluster selected."""
    window = make_window()
    with qtbot.waitSignal(window.ready, timeout=LONG_MS):
        window.open_located(str(review_store.path))
    return window


@pytest.fixture
def review_bench(qtbot, review_store):
    """A factory of `ReviewBench`es (gui_fakes.py): the Review tab's panels and controller on fake services,
    no MainWindow. Each is shut down (its tasks, its store) when the test ends."""
    from gui_fakes import ReviewBench

    made = []

    def make(services=None, *, decider=None, review=None):  # review: another ReviewStore than review_store
        bench = ReviewBench(qtbot, review or review_store, services, decider=decider)
        made.append(bench)
        return bench

    yield make
    from shiboken6 import isValid

    for bench in made:
        if isValid(bench.page):
            bench.close()
