"""Messages that are correct and current: a cancelled model call never speaks over the next one, a failed open
leaves the open store as it was, a status message about one cluster goes when another is shown, the guard
headline names what failed, an append is listed as an append, and closing during a model call is a cancel."""
from __future__ import annotations

import logging
import threading
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from decider_fakes import ScriptedEngine
from gui_fakes import FakeDecider, services_for
from memgui.core.decide.llm import LlamaDecider
from memgui.core.merge.guard import check_merge
from memgui.core.store.audit_log import AuditEntry
from memgui.core.tasks import Progress
from memgui.gui.audit.models import AuditFilterProxy, AuditTableModel
from memgui.gui.review.guard_panel import GuardPanel
from waits import LONG_MS


class DeafDecider(FakeDecider):
    """Each call streams one piece, then waits at its own gate without looking at the cancel token (a model
    deep in one long llama_decode), then goes on as FakeDecider does (which stops there if cancelled)."""

    def __init__(self, calls: int = 2):
        super().__init__()
        self.gates = [threading.Event() for _ in range(calls)]
        self.started = 0

    def decide(self, proposal, candidates, *, full_candidate_content, cancel=None, timeout_s=None):
        gate = self.gates[self.started]
        self.started += 1
        yield Progress("deciding", 0, None, payload="thinking ")
        assert gate.wait(120), "never released"  # released by the test, however busy the machine
        return (yield from super().decide(proposal, candidates, full_candidate_content=full_candidate_content,
                                          cancel=cancel, timeout_s=timeout_s))


def _open(make_window, review_store, qtbot, **services):
    w = make_window(services_for(review_store, **services))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def test_a_cancelled_call_that_stops_late_does_not_speak_over_the_next_call(make_window, review_store, qtbot):
    decider = DeafDecider()
    w = _open(make_window, review_store, qtbot, decider=decider)
    finished = []
    w.review.decisionFinished.connect(finished.append)
    QTest.keyClick(w.queue, Qt.Key.Key_M)
    qtbot.waitUntil(lambda: decider.started == 1, timeout=LONG_MS)
    QTest.keyClick(w.queue, Qt.Key.Key_Escape)
    assert finished == [None] and w.decision_panel.kind_label.text() == "cancelled"
    QTest.keyClick(w.queue, Qt.Key.Key_M)  # a new call, while the cancelled one is still winding down
    assert w.runner.busy("decide")  # its task is live (it waits for the model the cancelled call still holds)
    # the cancelled call stops now: its late "cancelled" arrives during the new call (and is dropped)
    with qtbot.waitSignal(w.runner._signals.cancelled, timeout=LONG_MS):
        decider.gates[0].set()
    assert decider.cancelled
    qtbot.waitUntil(lambda: decider.started == 2, timeout=LONG_MS)
    assert finished == [None]  # one "finished" for the cancelled call, none yet for the running one
    assert w.runner.busy("decide") and w.decision_panel.kind_label.text() != "cancelled"
    assert w.actions_by_key["cancel_model"].isEnabled()
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        decider.gates[1].set()
    assert len(finished) == 2 and finished[1] is not None  # two calls, two "finished"
    assert w.decision_panel.kind_label.text() == "UPDATE"


def test_a_failed_open_leaves_the_open_store_its_queue_and_state_as_they_were(opened, tmp_path, qtbot):
    w = opened
    with qtbot.waitSignal(w.review.guardUpdated, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    store, row, label, title = w.store, w.review.row, w.queue_label.text(), w.windowTitle()
    assert w.actions_by_key["accept"].isEnabled()
    w.answerer.answer("OK")
    with qtbot.waitSignal(w.storeFailed, timeout=LONG_MS):
        w.open_located(str(tmp_path / "missing.db"))
    assert w.answerer.seen[-1]["title"] == "Cannot open the store"
    assert w.store is store and w.review.row is row and w.cluster_model.rowCount() == 3
    assert w.queue_label.text() == label and "No store open" not in label and w.windowTitle() == title
    assert w.actions_by_key["accept"].isEnabled() and w.editor.toPlainText().strip()


def test_a_status_message_about_one_cluster_goes_when_another_is_shown(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, decider=FakeDecider(default_verdict="DIFFERENT"))
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_M)
    assert "different fact" in w.statusBar().currentMessage()
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_J)
    assert w.statusBar().currentMessage() == ""
    w.show_status("Nominee threshold set to 0.900; finding clusters again", 6000)  # about no cluster: it stays
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_K)
    assert w.statusBar().currentMessage().startswith("Nominee threshold set")


def test_the_guard_headline_says_it_failed_on_length(qtbot):
    panel = GuardPanel()
    qtbot.addWidget(panel)
    source = ("The production database is Postgres 14.2 on db-01.internal, port 5432, and it is backed up every "
              "night to the archive bucket by the scheduled job that the operations team maintains.")
    report = check_merge([source], "Postgres 14.2 on db-01.internal, port 5432.")  # every token kept, too short
    panel.set_report(report, ["#1"])
    text = panel.verdict.text()
    assert "failed on length" in text and "tokens missing" not in text and f"{report.length_ratio:.0%}" in text
    assert not report.passed and report.failed_on == ("length",)
    both = check_merge([source], "Postgres.")
    panel.set_report(both, ["#1"])
    assert "tokens missing" in panel.verdict.text() and "length" in panel.verdict.text()
    assert both.failed_on == ("retention", "length")
    tokens = check_merge(["Postgres 14.2 on db-01.internal, port 5432"], "Postgres on db-01.internal, port five")
    panel.set_report(tokens, ["#1"])
    assert "tokens missing" in panel.verdict.text() and "length" not in panel.verdict.text()
    assert tokens.failed_on == ("retention",)


def _entry(audit_id: int, operation: str, **details) -> AuditEntry:
    return AuditEntry(audit_id, 0, operation, "doc-a", ("doc-a", "doc-b"), "reviewer", None, None, True, "applied",
                      None, details)


def test_an_append_is_listed_and_filtered_as_an_append(qtmodeltester):
    model = AuditTableModel()
    model.set_rows([_entry(3, "merge", mode="append"), _entry(2, "merge", mode="merged_body"),
                    _entry(1, "decide-update", outcome="appended")])
    qtmodeltester.check(model)
    shown = [model.data(model.index(r, AuditTableModel.OPERATION)) for r in range(3)]
    assert shown == ["append", "merge", "decide-append"]
    assert "append" in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    proxy = AuditFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filters(operation="append")
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["3"]
    proxy.set_filters(operation="merge")
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["2"]


class PromptReadingEngine(ScriptedEngine):
    """Reads the merge prompt slowly in chunks, an empty piece after each, as llama.cpp's engine does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading_merge_prompt = threading.Event()
        self.released = threading.Event()
        self.stopped_reading = False  # its caller stopped it while it read the prompt

    def generate(self, prompt_tokens, *, stable_prefix, grammar, max_tokens):
        if "NOTE 1:" in "".join(chr(t) for t in prompt_tokens):
            self.reading_merge_prompt.set()
            deadline = time.monotonic() + 120
            try:
                while not self.released.wait(0.01) and time.monotonic() < deadline:  # reads until its caller stops
                    yield ""  # asking (the close's cancel): a long prompt on a slow machine, never released here
            except GeneratorExit:
                self.stopped_reading = True
                raise
        yield from super().generate(prompt_tokens, stable_prefix=stable_prefix, grammar=grammar,
                                    max_tokens=max_tokens)


def test_closing_the_window_during_a_model_call_is_a_cancel_not_a_timeout(make_window, review_store, qtbot, caplog):
    engine = PromptReadingEngine({"Postgres 14.2": "SAME"})
    w = _open(make_window, review_store, qtbot, decider=LlamaDecider(engine=engine, timeout_s=120))
    with caplog.at_level(logging.INFO, logger="memgui.decide"):
        QTest.keyClick(w.queue, Qt.Key.Key_M)
        qtbot.waitUntil(engine.reading_merge_prompt.is_set, timeout=LONG_MS)
        started = time.monotonic()
        w.close()
    qtbot.waitUntil(lambda: engine.stopped_reading, timeout=60000)  # it stopped reading the prompt: a cancel
    assert time.monotonic() - started < 110  # long before the prompt's end (120 s), however busy the machine
    assert "curation_llm_timeout" not in caplog.text
    assert "cancelled" in caplog.text
