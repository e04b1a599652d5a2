"""Waiting without a clock (issue 37, item 7): a GUI test waits for the signal or the condition it needs
(`qtbot.waitSignal`, `qtbot.waitUntil` with a generous timeout), never a fixed number of milliseconds.

`flush()` is for the one case a condition cannot name: a check that something did *not* happen. It delivers every
event already queued — the queued signals of a worker that has ended, layout requests, zero-delay timers — until
the queue is empty, so what would have happened has happened, however busy the machine."""
from __future__ import annotations

LONG_MS = 20000  # generous: a loaded 2-core machine runs the suite at a tenth of its quiet speed


def flush(rounds: int = 20) -> None:
    """Deliver the events already posted, and those they post in turn (up to `rounds` generations)."""
    from PySide6.QtCore import QCoreApplication, QEventLoop

    app = QCoreApplication.instance()
    assert app is not None
    for _ in range(rounds):
        QCoreApplication.sendPostedEvents(None, 0)
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
