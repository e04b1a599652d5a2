"""Run the core's long work off the GUI thread and hand results back by signal.

A job is a callable `make(cancel) -> value` or `make(cancel) -> Work generator`. `TaskRunner.start(kind, …)`
runs it on a QThreadPool thread; progress, result, failure and cancellation arrive as queued signals in the
GUI thread and are dispatched to the callbacks given to `start`. Each job gets a request id; starting a new
job of the same `kind` cancels the old one and its late results are dropped (stale-result rule).

Every task ends once: its `on_done`, `on_error` or `on_cancelled` runs at most once, and only while it is the
live task of its kind. `cancel(kind)` ends it there and then (its `on_cancelled` runs at once); a replaced
task ends silently. Whatever a cancelled or replaced job still sends afterwards — its late "cancelled" too —
is dropped, so it can never be taken for the newer task's.
"""
from __future__ import annotations

import inspect
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, SignalInstance

from .services.values import Cancelled, CancelToken, Progress

# Progress without a payload (bars, counters) is throttled to this many seconds per job; streamed
# pieces (payload set, e.g. LLM tokens) and the first Progress of a new stage/message always pass.
PROGRESS_INTERVAL_S = 0.05
_DETACHED_POOLS: list[QThreadPool] = []  # pools whose jobs outlived their window (see TaskRunner.shutdown)


def one_line(exc: BaseException) -> str:
    """A one-line message for a dialog (never a traceback)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 400 else text[:397] + "…"


class _Signals(QObject):
    progress = Signal(int, object)
    finished = Signal(int, object)
    failed = Signal(int, object)
    cancelled = Signal(int)


class _Job(QRunnable):
    def __init__(self, rid: int, make: Callable[[CancelToken], object], cancel: CancelToken, signals: _Signals):
        super().__init__()
        self.setAutoDelete(True)
        self.rid, self.cancel, self.signals = rid, cancel, signals
        self.make: Callable[[CancelToken], object] | None = make  # dropped when done: the job holds no result

    def run(self) -> None:  # worker thread
        rid, signals, cancel = self.rid, self.signals, self.cancel
        try:
            cancel.raise_if_cancelled()
            value = self.make(cancel) if self.make is not None else None
            if inspect.isgenerator(value):
                last_emit, last_step = 0.0, None
                while True:
                    try:
                        progress = next(value)
                    except StopIteration as stop:
                        value = stop.value
                        break
                    if cancel.cancelled:
                        value.close()
                        raise Cancelled()
                    if isinstance(progress, Progress):
                        now = time.monotonic()
                        step = (progress.stage, progress.message)
                        # Streamed pieces and a new stage/message always pass; counters are throttled.
                        if progress.payload is not None or step != last_step or now - last_emit >= PROGRESS_INTERVAL_S:
                            last_emit, last_step = now, step
                            _emit(signals.progress, rid, progress)
            if cancel.cancelled:
                raise Cancelled()
            _emit(signals.finished, rid, value)
        except Cancelled:
            _emit(signals.cancelled, rid)
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a message, never a crash
            _emit(signals.failed, rid, exc)
        finally:
            self.make = None


def _emit(signal: SignalInstance, *args: object) -> None:
    """Emit from a worker; the window may be gone by now (its signals object deleted): then drop it."""
    try:
        signal.emit(*args)
    except RuntimeError:
        pass


@dataclass
class Task:
    rid: int
    kind: str
    label: str
    cancel: CancelToken
    on_progress: Callable[[Progress], None] | None = None
    # Any: each kind of job hands its own result type to its own callback, through the one Qt signal
    on_done: Callable[[Any], None] | None = None
    on_error: Callable[[BaseException], None] | None = None
    on_cancelled: Callable[[], None] | None = None
    show_in_status: bool = False
    started_at: float = field(default_factory=time.monotonic)
    last_progress: Progress | None = None


class TaskRunner(QObject):
    """Starts jobs and keeps the latest job per kind. Signals for the status bar:
    `started(task)`, `progressed(task)`, `ended(task)`."""

    started = Signal(object)
    progressed = Signal(object)
    ended = Signal(object)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None):
        super().__init__(parent)
        self._pool = pool or QThreadPool(self)
        if self._pool.maxThreadCount() < 2:
            self._pool.setMaxThreadCount(2)
        self._ids = itertools.count(1)
        self._tasks: dict[int, Task] = {}
        self._latest: dict[str, int] = {}
        self._signals = _Signals()
        self._signals.progress.connect(self._on_progress)
        self._signals.finished.connect(self._on_finished)
        self._signals.failed.connect(self._on_failed)
        self._signals.cancelled.connect(self._on_cancelled)

    # ---- starting and cancelling ------------------------------------------------------------------

    def start(
        self,
        kind: str,
        make: Callable[[CancelToken], object],
        *,
        label: str = "",
        on_progress: Callable[[Progress], None] | None = None,
        on_done: Callable[[Any], None] | None = None,  # Any: the result of `make` (its Work's value), as Task's
        on_error: Callable[[BaseException], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        show_in_status: bool = False,
    ) -> Task:
        self._drop(kind)  # the replaced task is stale: it ends without a callback
        rid = next(self._ids)
        task = Task(rid, kind, label or kind, CancelToken(), on_progress, on_done, on_error, on_cancelled,
                    show_in_status)
        self._tasks[rid] = task
        self._latest[kind] = rid
        self.started.emit(task)
        self._pool.start(_Job(rid, make, task.cancel, self._signals))
        return task

    def cancel(self, kind: str) -> bool:
        """Cancel the running job of this kind: it ends now (its `on_cancelled` runs once, here) and whatever
        its job still sends is dropped. True if one was running."""
        task = self._drop(kind)
        if task is None:
            return False
        if task.on_cancelled is not None:
            task.on_cancelled()
        return True

    def _drop(self, kind: str) -> Task | None:
        """End the live task of this kind without waiting for its job: signal its token, forget it."""
        rid = self._latest.pop(kind, None)
        task = self._tasks.pop(rid, None) if rid is not None else None
        if task is None:
            return None
        task.cancel.cancel()
        self.ended.emit(task)
        return task

    def cancel_all(self) -> None:
        for kind in list(self._latest):
            self.cancel(kind)

    def busy(self, kind: str) -> bool:
        return kind in self._latest

    def current(self, kind: str) -> Task | None:
        rid = self._latest.get(kind)
        return self._tasks.get(rid) if rid is not None else None

    def running(self) -> list[Task]:
        return [self._tasks[rid] for rid in self._latest.values() if rid in self._tasks]

    def wait(self, msecs: int = 30000) -> bool:
        """Wait for the pool to drain (used at shutdown and in tests)."""
        return self._pool.waitForDone(msecs)

    def shutdown(self, msecs: int = 10000) -> bool:
        """Cancel everything and wait. A job that does not stop in time keeps its pool alive (detached from
        this runner), so destroying the window never blocks on it while holding the GIL."""
        self.cancel_all()
        done = self.wait(msecs)
        if not done:
            self._pool.setParent(None)
            _DETACHED_POOLS.append(self._pool)
        return done

    # ---- dispatch (GUI thread) -------------------------------------------------------------------

    def _live(self, rid: int) -> Task | None:
        task = self._tasks.get(rid)
        if task is None or self._latest.get(task.kind) != rid:
            return None  # stale: a newer job of the same kind replaced it, or it was cancelled
        return task

    def _settle(self, rid: int) -> Task | None:
        """The job of `rid` sent its last signal: end its task if it is still the live one, else None (dropped)."""
        task = self._live(rid)
        if task is None:
            return None
        del self._tasks[rid], self._latest[task.kind]
        self.ended.emit(task)
        return task

    def _on_progress(self, rid: int, progress: Progress) -> None:
        task = self._live(rid)
        if task is None:
            return
        task.last_progress = progress
        self.progressed.emit(task)
        if task.on_progress is not None:
            task.on_progress(progress)

    def _on_finished(self, rid: int, value: object) -> None:
        task = self._settle(rid)
        if task is not None and task.on_done is not None:
            task.on_done(value)

    def _on_failed(self, rid: int, exc: BaseException) -> None:
        task = self._settle(rid)
        if task is not None and task.on_error is not None:
            task.on_error(exc)

    def _on_cancelled(self, rid: int) -> None:
        # only a job that stopped by itself (raised Cancelled) gets here live: `cancel` already ended the others
        task = self._settle(rid)
        if task is not None and task.on_cancelled is not None:
            task.on_cancelled()
