"""Fixtures for window tests: an isolated QSettings file, a small review store, and a window whose dialogs
are answered by the test (each dialog is recorded; an unexpected one fails the test)."""
from __future__ import annotations

import pytest

from gui_fakes import build_review_store, services_for  # noqa: F401  (re-exported for tests)


class Answerer:
    """Stands in for QMessageBox.exec: clicks the button whose text matches the next queued answer."""

    def __init__(self):
        self.queue: list[str] = []
        self.seen: list[dict] = []

    def answer(self, *labels: str) -> "Answerer":
        self.queue.extend(labels)
        return self

    def __call__(self, box):
        buttons = {b.text().replace("&", ""): b for b in box.buttons()}
        record = {"title": box.windowTitle(), "text": box.text(), "info": box.informativeText(),
                  "buttons": list(buttons)}
        self.seen.append(record)
        if not self.queue:
            raise AssertionError(f"unexpected dialog: {record}")
        wanted = self.queue.pop(0)
        if wanted not in buttons:
            raise AssertionError(f"dialog has no button {wanted!r}: {record}")
        return buttons[wanted]

    def titles(self) -> list[str]:
        return [s["title"] for s in self.seen]


@pytest.fixture
def qsettings(tmp_path):
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "memgui-test.ini"), QSettings.Format.IniFormat)


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
    for window in made:
        window.close()


@pytest.fixture
def opened(make_window, review_store, qtbot):
    """A window on the review store with the queue filled and the first cluster selected."""
    window = make_window()
    with qtbot.waitSignal(window.ready, timeout=15000):
        window.open_located(str(review_store.path))
    return window
