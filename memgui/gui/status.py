"""Status-bar progress for long work (open, scan, model, writes) with a Cancel button, the status bar's passing
messages (a message about one cluster goes when another is shown), and an optional event-loop stall probe (a
timer that records the longest gap between its ticks)."""
from __future__ import annotations

import time
from collections import deque
from datetime import datetime

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .ratio_bar import RatioBar
from .review.cluster_model import ClusterRow
from .workers import Task, TaskRunner


class TaskStatus(QWidget):
    """Shows the newest running task that asked to be shown; Cancel cancels it."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("taskStatus")
        self.runner = runner
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("")
        self.bar = RatioBar(height=14)
        self.bar.setFixedWidth(160)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("statusCancel")
        self.cancel_button.clicked.connect(self._cancel)
        self.cancel_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self._task: Task | None = None
        runner.started.connect(self._refresh)
        runner.progressed.connect(self._progressed)
        runner.ended.connect(self._refresh)
        self._refresh()

    def current(self) -> Task | None:
        return self._task

    def _refresh(self, *_: object) -> None:
        shown = [t for t in self.runner.running() if t.show_in_status and not t.cancel.cancelled]
        self._task = shown[-1] if shown else None
        self.setVisible(self._task is not None)
        if self._task is not None:
            self._show(self._task)

    def _progressed(self, task: Task) -> None:
        if task is self._task:
            self._show(task)

    def _show(self, task: Task) -> None:
        p = task.last_progress
        message = (p.message if p and p.message else "") or ""
        self.label.setText(f"{task.label}{' — ' + message if message else ''}")
        if p is not None and p.total:
            self.bar.set_ratio(p.done / p.total, f"{p.done}/{p.total}")
        else:
            self.bar.set_busy()

    def _cancel(self) -> None:
        if self._task is not None:
            self.runner.cancel(self._task.kind)


class StatusNotes:
    """Passing messages in the status bar. One shown `about` a cluster (its queue row) is about that cluster
    only: it goes as soon as another cluster is shown, instead of lingering under it."""

    def __init__(self, bar: QStatusBar):
        self.bar = bar
        self._about: str | None = None  # the cluster id the message on show is about (None: about no cluster)
        self._text: str | None = None
        bar.messageChanged.connect(self._changed)

    def show(self, text: str, msecs: int = 0, *, about: ClusterRow | None = None) -> None:
        self._about, self._text = (about.cluster_id if about is not None else None), text
        self.bar.showMessage(text, msecs)

    def cluster_shown(self, row: ClusterRow | None) -> None:
        """The review pane shows `row` now (None: no cluster): a message about another cluster goes."""
        if self._about is not None and self._about != getattr(row, "cluster_id", None):
            self.bar.clearMessage()

    def _changed(self, text: str) -> None:
        if text != self._text:  # timed out, cleared or replaced by another message
            self._about, self._text = None, None


class MessageLog(QToolButton):
    """The status bar's passing messages, kept: a message cut by a narrow window (or gone after its seconds)
    is read whole here. The button in the status bar's corner opens the list (newest last); the bar's tooltip
    is the message on show, whole."""

    KEEP = 200

    def __init__(self, bar: QStatusBar, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("messageLogButton")
        self.bar = bar
        self._entries: deque[tuple[str, str]] = deque(maxlen=self.KEEP)  # (HH:MM:SS, text)
        self.setText("Messages")
        self.setToolTip("Every status message of this session, whole (the status bar cuts long ones)")
        self.setAutoRaise(True)
        self.view = QDialog(self)
        self.view.setObjectName("messageLogView")
        self.view.setWindowTitle("memgui — messages")
        self.view.setWindowFlag(Qt.WindowType.Tool)
        self.log_text = QPlainTextEdit(self.view)
        self.log_text.setObjectName("messageLogText")
        self.log_text.setReadOnly(True)
        self.log_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        QVBoxLayout(self.view).addWidget(self.log_text)
        self.view.resize(640, 320)
        self.clicked.connect(self.open_view)
        bar.messageChanged.connect(self._record)

    def entries(self) -> list[str]:
        return [text for _when, text in self._entries]

    def _record(self, text: str) -> None:
        self.bar.setToolTip(text)
        if not text:
            return
        if self._entries and self._entries[-1][1] == text:
            return  # the same message shown again
        self._entries.append((datetime.now().strftime("%H:%M:%S"), text))
        self.setText(f"Messages ({len(self._entries)})")
        if self.view.isVisible():
            self._fill()

    def _fill(self) -> None:
        self.log_text.setPlainText("\n".join(f"{when}  {text}" for when, text in self._entries))
        self.log_text.verticalScrollBar().setValue(self.log_text.verticalScrollBar().maximum())

    def open_view(self) -> None:
        self._fill()
        self.view.show()
        self.view.raise_()


class StallProbe(QObject):
    """Ticks every `interval_ms` on the GUI thread; `longest_stall_ms` is the longest extra delay
    between two ticks (how long the event loop was blocked)."""

    def __init__(self, interval_ms: int = 5, parent: QObject | None = None):
        super().__init__(parent)
        self.interval_ms = interval_ms
        self.longest_stall_ms = 0.0
        self.ticks = 0
        self._last: float | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest_stall_ms

    def reset(self) -> None:
        self.longest_stall_ms = 0.0
        self.ticks = 0
        self._last = time.perf_counter()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            stall = (now - self._last) * 1000 - self.interval_ms
            self.longest_stall_ms = max(self.longest_stall_ms, stall)
        self._last = now
        self.ticks += 1
