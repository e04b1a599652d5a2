"""The word diff under the merged body: the body against the source picked above it, or two sources against each
other ("source #1 vs source #2"), computed on the worker after a debounce; a newer request makes a running one
stale. Works on the cluster under review and the diff view, and says `diffed` when a diff is shown."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, SignalInstance

from ..services.audit import WordDiffWork
from ..services.types import WordDiff
from ..workers import TaskRunner, one_line
from .diff_view import DiffView
from .under_review import ClusterUnderReview

NO_BODY_YET = ("No merged body yet — press U for the union draft, M to ask the model, or E to write it yourself. "
               "The diff against each source appears here; pick \"source #1 vs source #2\" above to compare two "
               "sources now.")


def single_shot(parent: QObject, slot: Callable[[], None]) -> QTimer:
    """A debounce timer: `start(ms)` again before it fires moves the shot later."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.timeout.connect(slot)
    return timer


class BodyDiff:
    def __init__(self, cluster: ClusterUnderReview, diff_work: WordDiffWork, runner: TaskRunner, view: DiffView, *,
                 timers: QObject, diffed: SignalInstance):
        self.cluster, self.diff_work, self.runner, self.view, self.diffed = cluster, diff_work, runner, view, diffed
        self._timer = single_shot(timers, self.run)
        view.sourceChosen.connect(lambda _id: self._timer.start(0))

    def schedule(self, ms: int) -> None:
        self._timer.start(ms)

    def run(self) -> None:
        c, view = self.cluster, self.view
        pair = view.current_pair()
        if pair is not None:  # source vs source: no merged body needed
            a, b = c.doc(pair[0]), c.doc(pair[1])
            if a is None or b is None:
                view.show_message("")
                return
            self._start(a.markdown_body, b.markdown_body)
            return
        doc = c.doc(view.current_source() or "")
        body = c.body()
        if doc is None:
            view.show_message("")
            return
        if not body.strip() and not c.reviewable() and c.outcome():
            view.next_request()
            view.show_message(f"{c.outcome()}. Pick \"source #1 vs source #2\" above to compare the sources.")
            return
        if not body.strip():
            view.next_request()  # makes any running diff stale
            view.show_message(NO_BODY_YET)
            return
        self._start(doc.markdown_body, body)

    def _start(self, old: str, new: str) -> None:
        view, diff_work = self.view, self.diff_work
        request = view.next_request()
        self.runner.start("diff", lambda cancel: diff_work(old, new, cancel=cancel), label="Word diff",
                          on_done=lambda diff: self._done(request, diff),
                          on_error=lambda exc: view.show_message(f"Diff failed: {one_line(exc)}"))

    def _done(self, request: int, diff: WordDiff) -> None:
        if self.view.show_diff(request, diff):
            self.diffed.emit(diff)


__all__ = ["NO_BODY_YET", "BodyDiff", "single_shot"]
