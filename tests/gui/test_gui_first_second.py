"""Issue 24, item 1 — decisions from the first second: a reopened store shows its cached decisions (badges, and
the cluster on screen decided) while the model is still loading; the model's self-test says which canary it is
on; the cluster on screen is the first one the queue decides."""
from __future__ import annotations

import threading

from gui_fakes import FakeScanner, add_documents, services_for
from memgui.core.decide.selftest import SelfTestReport
from memgui.core.tasks import Progress
from test_gui_ahead import FOUR, TZ, _badges, _decider, _key
from waits import LONG_MS


class SlowLoading:
    """The fake decider behind a model load that waits for `gate` (a cold 1 GB model on a busy laptop)."""

    def __init__(self, decider, gate: threading.Event):
        self._d, self.gate, self.loaded, self.loads = decider, gate, False, 0

    def __getattr__(self, name):
        return getattr(self._d, name)

    def load(self):
        self.loads += 1
        yield Progress("loading model", 0, None, "loading the decider model")
        while not self.gate.wait(0.01):
            pass
        self.loaded = True


class GatedSelfTest:
    """Six canaries; it stops before the third until `gate` is set."""

    def __init__(self, gate: threading.Event):
        self.gate = gate

    def __call__(self, decider, *, cancel=None):
        for i, kind in enumerate(("paraphrase", "paraphrase", "near-miss", "near-miss", "unrelated", "unrelated")):
            yield Progress("self-test", i, 6, f"{decider.model_id}: {kind}")
            while i == 2 and not self.gate.wait(0.01):
                if cancel is not None:
                    cancel.raise_if_cancelled()
        yield Progress("self-test", 6, 6, decider.model_id)
        return SelfTestReport(capable=True, passed=6, total=6, model_id=decider.model_id)


def _window(make_window, qsettings, review_store, qtbot, decider, selftest=None):
    services = services_for(review_store, decider=decider, scanner=FakeScanner(review_store.ids, clusters=FOUR))
    services.selftest = selftest
    qsettings.setValue("decider/ahead", "true")
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def test_a_reopened_store_shows_its_cached_decisions_before_the_model_loads(make_window, qsettings, review_store,
                                                                            qtbot):
    add_documents(review_store, TZ)
    first = _window(make_window, qsettings, review_store, qtbot, _decider())
    keys = [_key(review_store, "pg-1", "pg-2"), _key(review_store, "ed-1", "ed-2"),
            _key(review_store, "fl-1", "fl-2"), _key(review_store, "tz-1", "tz-2", "tz-3")]
    qtbot.waitUntil(lambda: all(k in first.ahead.reviews for k in keys), timeout=20000)
    first.close()

    gate = threading.Event()
    slow = SlowLoading(_decider(), gate)
    w = _window(make_window, qsettings, review_store, qtbot, slow)
    try:
        qtbot.waitUntil(lambda: _badges(w)["Editor preference"] == "same", timeout=LONG_MS)
        assert not slow.loaded  # the model is still loading
        badges = _badges(w)
        assert badges["Flight to Lisbon"] == "different" and badges["Team time zone"] == "mixed"
        # the cluster on screen shows its cached decision at once
        qtbot.waitUntil(lambda: "decided ahead" in w.decision_panel.model_label.text(), timeout=LONG_MS)
        assert w.editor.toPlainText().strip() and not slow.loaded
        assert "cached" in w.ahead.status.label.text()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: w.ahead.ready, timeout=LONG_MS)


def test_the_self_test_shows_which_canary_it_is_on(make_window, qsettings, review_store, qtbot):
    add_documents(review_store, TZ)
    gate = threading.Event()
    w = _window(make_window, qsettings, review_store, qtbot, _decider(), GatedSelfTest(gate))
    try:
        qtbot.waitUntil(lambda: "self-test 3/6 (near-miss)" in w.ahead.status.label.text(), timeout=LONG_MS)
        assert w.ahead.status.isVisible()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: w.ahead.ready and "ready" in w.ahead.status.label.text(), timeout=LONG_MS)


def test_the_cluster_on_screen_is_decided_first(make_window, qsettings, review_store, qtbot):
    add_documents(review_store, TZ)
    gate = threading.Event()
    w = _window(make_window, qsettings, review_store, qtbot, _decider(judge_gate=gate))
    on_screen = frozenset(w.review.row.member_ids)
    qtbot.waitUntil(lambda: w.ahead.running is not None, timeout=LONG_MS)
    assert w.ahead.running == on_screen
    gate.set()
    qtbot.waitUntil(lambda: on_screen in w.ahead.reviews, timeout=LONG_MS)
    qtbot.waitUntil(lambda: "decided ahead" in w.decision_panel.model_label.text(), timeout=LONG_MS)


def test_a_background_decision_says_which_cluster_and_pair(make_window, qsettings, review_store, qtbot):
    add_documents(review_store, TZ)
    services = services_for(review_store, decider=_decider(), scanner=FakeScanner(review_store.ids, clusters=FOUR))
    services.selftest = None
    qsettings.setValue("decider/ahead", "true")
    w = make_window(services)
    lines: list[str] = []
    w.ahead.stateChanged.connect(lines.append)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    tz = _key(review_store, "tz-1", "tz-2", "tz-3")
    qtbot.waitUntil(lambda: tz in w.ahead.reviews, timeout=LONG_MS)
    said = [line for line in lines if line.startswith("Deciding ahead (Team time zone")]
    assert any(", pair 1/3)" in line for line in said) and any(", pair 3/3)" in line for line in said), said


def test_the_start_up_notes_read_in_order():
    from memgui.gui.review.ahead_status import startup_note

    assert startup_note(Progress("loading model", 0, None, "m")) == "loading the model…"
    assert startup_note(Progress("self-test", 0, 6, "m: paraphrase")) == "model self-test 1/6 (paraphrase)…"
    assert startup_note(Progress("self-test", 5, 6, "m: unrelated")) == "model self-test 6/6 (unrelated)…"
    assert startup_note(Progress("self-test", 6, 6, "qwen2.5-coder")) == "model self-test 6/6 done"  # not the id
    assert startup_note(Progress("classifying", 0, 1, "")) == ""


def test_the_reviewers_own_call_on_the_cluster_on_screen_takes_it_from_the_queue(make_window, qsettings,
                                                                                 review_store, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    add_documents(review_store, TZ)
    gate = threading.Event()
    w = _window(make_window, qsettings, review_store, qtbot, _decider(gate=gate))  # merged bodies wait here
    on_screen = frozenset(w.review.row.member_ids)
    qtbot.waitUntil(lambda: w.ahead.running == on_screen, timeout=LONG_MS)
    QTest.keyClick(w.queue, Qt.Key.Key_M)  # the reviewer asks the model on the same cluster
    qtbot.waitUntil(lambda: w.ahead.running is not None and w.ahead.running != on_screen, timeout=LONG_MS)
    gate.set()
    qtbot.waitUntil(lambda: w.review.cluster.decider_result is not None and not w.runner.busy("decide"), timeout=LONG_MS)
    others = [_key(review_store, "ed-1", "ed-2"), _key(review_store, "fl-1", "fl-2")]
    qtbot.waitUntil(lambda: all(k in w.ahead.reviews for k in others), timeout=LONG_MS)
    assert on_screen not in w.ahead.reviews  # decided once, by the reviewer's call
