"""Decisions ahead of the reviewer, in the window: the background queue decides the next clusters while the
reviewer stays on the first, J/K never cancels it, reaching a decided cluster shows its groups, target and merged
body without a model call, a changed source makes it decide again, the self-test runs at start-up, and the
reviewer's own call (and its Cancel) leaves the queue running."""
from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import (
    CLUSTERS,
    DOCS,
    FakeDecider,
    FakeScanner,
    add_documents,
    edit_document_behind_the_back,
    services_for,
)
from memgui.core.decide.selftest import SelfTestReport
from memgui.gui.review.cluster_model import BADGE_ROLE
from waits import LONG_MS, flush

TZ = {
    "tz-1": ("Team time zone", "timezone", "The Atlas team works in Europe/Berlin (CET, UTC+1)."),
    "tz-2": ("Atlas time zone", "atlas-tz", "Atlas team time zone: Europe/Berlin, UTC+1 in winter."),
    "tz-3": ("Support hours", "support", "Support answers tickets 09:00-17:00 Europe/Berlin, Monday to Friday."),
}
FOUR = CLUSTERS + (("tz-1", "tz-2", "tz-3", 0.90),)  # queue order: pg, ed, fl, tz (by top cosine)


def _body(key: str) -> str:
    return {**DOCS, **TZ}[key][2]


def _decider(**kw) -> FakeDecider:
    """pg and ed are the same fact; the flights are not; tz-1/tz-2 are, tz-3 is a sibling (a mixed cluster)."""
    return FakeDecider(verdicts={frozenset((_body("fl-1"), _body("fl-2"))): "DIFFERENT",
                                 frozenset((_body("tz-1"), _body("tz-3"))): "DIFFERENT",
                                 frozenset((_body("tz-2"), _body("tz-3"))): "DIFFERENT"}, **kw)


class CountingSelfTest:
    def __init__(self):
        self.calls = 0

    def __call__(self, decider, *, cancel=None):
        self.calls += 1
        return SelfTestReport(capable=True, passed=6, total=6, model_id=decider.model_id)
        yield  # a generator, like the core's


def _open(make_window, qsettings, review_store, qtbot, decider, selftest=None):
    add_documents(review_store, TZ)
    services = services_for(review_store, decider=decider, scanner=FakeScanner(review_store.ids, clusters=FOUR))
    services.selftest = selftest
    qsettings.setValue("decider/ahead", "true")
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def _key(review_store, *keys):
    return frozenset(review_store.ids[k] for k in keys)


def _badges(w) -> dict[str, str | None]:
    m = w.cluster_model
    return {row.titles[0]: m.data(m.index(i, 0), BADGE_ROLE) for i, row in enumerate(m.rows())}


def _select(w, review_store, *keys) -> None:
    w.select_cluster("c-" + "-".join(keys))


def test_the_queue_decides_the_next_three_clusters_and_navigating_never_cancels_it(make_window, qsettings,
                                                                                   review_store, qtbot):
    gate = threading.Event()
    decider = _decider(judge_gate=gate)  # every judgement waits here: the queue is busy while the reviewer moves
    selftest = CountingSelfTest()
    w = _open(make_window, qsettings, review_store, qtbot, decider, selftest)
    first = w.review.row
    assert first.member_ids == tuple(review_store.ids[k] for k in ("pg-1", "pg-2"))
    qtbot.waitUntil(lambda: w.ahead.running is not None, timeout=LONG_MS)
    assert w.ahead.running == _key(review_store, "pg-1", "pg-2")  # the cluster on screen first (issue 24)
    assert _badges(w)["Editor preference"] == "pending"
    for key in (Qt.Key.Key_J, Qt.Key.Key_J, Qt.Key.Key_K, Qt.Key.Key_J, Qt.Key.Key_K, Qt.Key.Key_K):
        with qtbot.waitSignal(w.review.clusterLoaded, timeout=20000):  # each cluster on show while the queue works
            QTest.keyClick(w.queue, key)
    qtbot.waitUntil(lambda: w.review.row is first, timeout=LONG_MS)
    gate.set()
    ready = [_key(review_store, "pg-1", "pg-2"), _key(review_store, "ed-1", "ed-2"),
             _key(review_store, "fl-1", "fl-2"), _key(review_store, "tz-1", "tz-2", "tz-3")]
    qtbot.waitUntil(lambda: all(k in w.ahead.reviews for k in ready), timeout=LONG_MS)
    assert decider.cancellations == 0  # J/K cancelled nothing
    assert w.review.row is first
    assert "decided ahead" in w.decision_panel.model_label.text()  # the cluster on screen shows its decision
    assert selftest.calls == 1  # at start-up, in the background: nobody pressed M
    badges = _badges(w)
    assert badges["Editor preference"] == "same" and badges["Flight to Lisbon"] == "different"
    assert badges["Team time zone"] == "mixed"
    assert "4 ready" in w.ahead.status.label.text()

    # Reaching a decided cluster: groups, target and body at once, without a model call.
    tz_bodies = {_body(k) for k in TZ}

    def tz_calls():  # (merged bodies asked for, pairs judged) of the tz cluster
        return (sum(p.content in tz_bodies for p, _c, _f in decider.calls),
                sum(e in tz_bodies for e, _n in decider.judged))

    before = tz_calls()
    assert before == (1, 3)
    _select(w, review_store, "tz-1", "tz-2", "tz-3")
    qtbot.waitUntil(lambda: w.review.row is not None and "tz-1" in w.review.row.cluster_id, timeout=LONG_MS)
    ids = review_store.ids
    assert set(w.review.cluster.groups.largest) == {ids["tz-1"], ids["tz-2"]}
    assert sorted(w.sources.included_ids()) == sorted([ids["tz-1"], ids["tz-2"]])  # the sibling unchecked
    assert w.sources.target_id() in (ids["tz-1"], ids["tz-2"])
    body = w.editor.toPlainText()
    assert _body("tz-1") in body and _body("tz-3") not in body
    assert "decided ahead" in w.editor_title.text() and "decided ahead" in w.decision_panel.model_label.text()
    assert w.decision_panel.groups_label.isVisibleTo(w)
    assert tz_calls() == before
    assert w.review.cluster.decider_result is not None and w.review.cluster.decider_result.model_id == decider.model_id

    # M still asks the model now (and the self-test is not run again)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_M)
    assert tz_calls() == (2, 6) and selftest.calls == 1


def test_a_changed_source_is_decided_again(make_window, qsettings, review_store, qtbot):
    decider = _decider()
    w = _open(make_window, qsettings, review_store, qtbot, decider)
    ed = _key(review_store, "ed-1", "ed-2")
    qtbot.waitUntil(lambda: ed in w.ahead.reviews, timeout=LONG_MS)
    edit_document_behind_the_back(review_store.path, review_store.ids["ed-2"],
                                  "Her editor is Neovim 0.10 (lazy.nvim for plugins), 4-space indent.")
    judged = len(decider.judged)
    _select(w, review_store, "ed-1", "ed-2")
    qtbot.waitUntil(lambda: w.review.row is not None and "ed-1" in w.review.row.cluster_id, timeout=LONG_MS)
    assert w.editor.toPlainText() == "" and ed not in w.ahead.reviews  # the old body is never shown
    assert _badges(w)["Editor preference"] == "pending"
    QTest.keyClick(w.queue, Qt.Key.Key_J)  # leave it: it is queued again and decided on the new text
    qtbot.waitUntil(lambda: ed in w.ahead.reviews, timeout=LONG_MS)
    assert len(decider.judged) > judged and "4-space indent" in w.ahead.reviews[ed].merged_body
    QTest.keyClick(w.queue, Qt.Key.Key_K)
    qtbot.waitUntil(lambda: "4-space indent" in w.editor.toPlainText(), timeout=LONG_MS)


def test_the_reviewers_call_pauses_the_queue_and_its_cancel_leaves_the_queue_running(make_window, qsettings,
                                                                                     review_store, qtbot):
    gate = threading.Event()
    decider = _decider(gate=gate)  # every merged body waits here (the reviewer's and the queue's)
    w = _open(make_window, qsettings, review_store, qtbot, decider)
    qtbot.waitUntil(lambda: w.ahead.running is not None, timeout=LONG_MS)
    QTest.keyClick(w.queue, Qt.Key.Key_M)
    qtbot.waitUntil(lambda: "paused while your model call runs" in w.ahead.status.label.text(), timeout=20000)
    assert w.ahead.runner.busy("ahead")
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_Escape)  # cancels the reviewer's call only
    assert w.decision_panel.kind_label.text() == "cancelled"
    gate.set()
    keys = [_key(review_store, "ed-1", "ed-2"), _key(review_store, "fl-1", "fl-2"),
            _key(review_store, "tz-1", "tz-2", "tz-3")]
    qtbot.waitUntil(lambda: all(k in w.ahead.reviews for k in keys), timeout=30000)

    # Its own Stop does stop it; Resume carries on.
    w.ahead.stop()
    assert not w.ahead.runner.busy("ahead") and "stopped" in w.ahead.status.label.text()
    w.ahead.resume()
    qtbot.waitUntil(lambda: "ready" in w.ahead.status.label.text(), timeout=LONG_MS)


def test_the_setting_turns_the_queue_off(make_window, qsettings, review_store, qtbot):
    add_documents(review_store, TZ)
    decider = _decider()
    services = services_for(review_store, decider=decider, scanner=FakeScanner(review_store.ids, clusters=FOUR))
    qsettings.setValue("decider/ahead", "false")
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    qtbot.waitUntil(lambda: w.ahead.ready and w.ahead.primed, timeout=20000)
    flush()  # ready and primed refreshed the queue: a queue that were on would have started by now
    assert decider.judged == [] and w.ahead.reviews == {} and not w.ahead.runner.busy("ahead")
    assert all(b is None for b in _badges(w).values())


def test_decisions_ahead_are_on_by_default_and_the_dialog_turns_them_off(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from memgui.gui.settings_dialog import SettingsDialog, load_settings, save_settings

    fresh = QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat)
    settings = load_settings(fresh)
    assert settings.decide_ahead is True
    dialog = SettingsDialog(settings, [])
    qtbot.addWidget(dialog)
    assert dialog.ahead_check.isChecked()
    dialog.ahead_check.setChecked(False)
    save_settings(fresh, dialog.result_settings())
    assert load_settings(fresh).decide_ahead is False


def test_the_decision_panel_shows_the_models_record(make_window, qsettings, review_store, qtbot):
    from memgui.core.decide.ahead import model_key
    from memgui.core.forensics.model_quality import ModelQuality, labels_version, save_quality
    from memgui.core.store.demo import demo_labels

    decider = _decider()
    selftest = CountingSelfTest()
    services = services_for(review_store, decider=decider, scanner=FakeScanner(review_store.ids))
    services.selftest = selftest
    qsettings.setValue("decider/ahead", "true")
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    record = w.decision_panel.record_label
    qtbot.waitUntil(lambda: "self-test passed (6/6" in record.text(), timeout=LONG_MS)
    assert "not measured yet" in record.text() and "memgui evaluate-model" in record.text()
    assert "shown after 20 of your decisions" in record.text() and "(0 so far)" in record.text()

    # the reviewer keeps the flights separate (the model judged them different): one judged decision
    fl = _key(review_store, "fl-1", "fl-2")
    qtbot.waitUntil(lambda: fl in w.ahead.reviews, timeout=LONG_MS)
    _select(w, review_store, "fl-1", "fl-2")
    qtbot.waitUntil(lambda: w.review.row is not None and "fl-1" in w.review.row.cluster_id, timeout=LONG_MS)
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: "(1 so far)" in record.text(), timeout=LONG_MS)

    # measured by `memgui evaluate-model` (cached per model file), and enough decisions to say how often it agrees
    save_quality(model_key(decider), ModelQuality(decider.model_id, 10, 60, 10, "all-MiniLM-L6-v2", 30, 16, 14, 4,
                                                  3, 7, 1, 2, 1, 40.0, labels_version=labels_version(demo_labels())))
    w.ahead.s.min_agreement = 1
    w.ahead.update_record()
    qtbot.waitUntil(lambda: "same-fact recall 88%" in record.text(), timeout=LONG_MS)
    assert "sibling rejection 75%" in record.text() and "10.0 false merges per 100 clusters" in record.text()
    assert "Agrees with you on 1 of 1 decisions (100%" in record.text()
    assert "first 10 of 60" in record.toolTip()
