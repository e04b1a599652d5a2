"""TaskRunner: results arrive by signal in the GUI thread, a newer job of the same kind makes the older one
stale (its result is dropped), Cancel stops a generator between steps, failures become one-line messages."""
import threading

from PySide6.QtCore import QThread

from memgui.core.tasks import Progress
from memgui.gui.workers import TaskRunner, one_line
from waits import LONG_MS, flush


def test_result_and_progress_arrive_in_the_gui_thread(qtbot):
    runner = TaskRunner()
    seen, threads = [], []
    gui = QThread.currentThread()

    def job(cancel):
        threads.append(QThread.currentThread() is not gui)
        for i in range(3):
            yield Progress("step", i + 1, 3, payload=f"piece{i}")
        return "done"

    done = []
    runner.start("k", job, on_progress=lambda p: seen.append((p.payload, QThread.currentThread() is gui)),
                 on_done=done.append)
    qtbot.waitUntil(lambda: done == ["done"], timeout=LONG_MS)
    assert threads == [True]  # ran on a worker
    assert seen == [("piece0", True), ("piece1", True), ("piece2", True)]  # every streamed piece, on the GUI thread
    assert not runner.busy("k")
    runner.shutdown()


def test_newer_job_of_the_same_kind_drops_the_older_result(qtbot):
    runner = TaskRunner()
    release = threading.Event()
    results = []

    def slow(cancel):
        release.wait(5)
        return "old"  # plain (non-generator) work cannot stop early; its result must still be dropped

    runner.start("diff", slow, on_done=results.append)
    runner.start("diff", lambda cancel: "new", on_done=results.append)
    qtbot.waitUntil(lambda: results == ["new"], timeout=LONG_MS)
    release.set()
    assert runner.wait(20000)
    flush()  # the old job's queued result delivered (and dropped)
    assert results == ["new"]
    runner.shutdown()


def test_cancel_stops_a_generator_and_reports_cancelled(qtbot):
    runner = TaskRunner()
    steps, cancelled, done = [], [], []
    started = threading.Event()

    def job(cancel):
        for i in range(1000):
            started.set()
            steps.append(i)
            cancel.raise_if_cancelled()
            threading.Event().wait(0.005)
            yield Progress("work", i)
        return "finished"

    runner.start("scan", job, on_done=done.append, on_cancelled=lambda: cancelled.append(True))
    assert started.wait(5)
    assert runner.cancel("scan")
    qtbot.waitUntil(lambda: cancelled == [True], timeout=LONG_MS)
    assert done == [] and len(steps) < 1000 and not runner.busy("scan")
    runner.shutdown()


def test_failure_becomes_a_one_line_message(qtbot):
    runner = TaskRunner()
    errors = []

    def job(cancel):
        raise ValueError("bad thing\nwith a second line")

    runner.start("open", job, on_error=errors.append)
    qtbot.waitUntil(lambda: len(errors) == 1, timeout=LONG_MS)
    assert one_line(errors[0]) == "bad thing with a second line"
    runner.shutdown()


def test_a_task_ends_once_and_a_late_cancelled_from_its_job_is_dropped(qtbot):
    runner = TaskRunner()
    release, ended = threading.Event(), []
    cancelled, done = [], []
    runner.ended.connect(lambda task: ended.append(task.rid))

    def deaf(cancel):  # does not look at its token: it sends "cancelled" only when it gets to the end
        release.wait(5)
        yield Progress("work", 1)
        return "late"

    first = runner.start("decide", deaf, on_done=done.append, on_cancelled=lambda: cancelled.append("first"))
    assert runner.cancel("decide") and cancelled == ["first"]  # ends now, its callback once
    second = runner.start("decide", lambda cancel: "second", on_done=done.append,
                          on_cancelled=lambda: cancelled.append("second"))
    qtbot.waitUntil(lambda: done == ["second"], timeout=LONG_MS)
    release.set()  # the first job's own "cancelled" arrives after the second task ended
    assert runner.wait(20000)
    flush()  # its queued "cancelled" delivered (and dropped)
    assert cancelled == ["first"] and done == ["second"] and ended == [first.rid, second.rid]
    third = runner.start("scan", deaf, on_cancelled=lambda: cancelled.append("third"))
    runner.start("scan", lambda cancel: "fourth", on_done=done.append)  # a replaced task ends silently
    qtbot.waitUntil(lambda: done == ["second", "fourth"], timeout=LONG_MS)
    assert cancelled == ["first"] and third.rid in ended
    runner.shutdown()
