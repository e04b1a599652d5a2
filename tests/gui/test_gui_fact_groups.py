"""Review safe by fact, in the window: Ask model judges every pair of the cluster on the worker (progress, Cancel),
shows the same-fact partition on the panes and in the decision panel, pre-selects the largest group with its
target and drafts for that group only; Keep separate records only the pairs that are apart. The panels' tests
build the Review tab on fake services (`ReviewBench`); the queue's test builds the window."""
from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import DOCS, FakeDecider, FakeScanner, services_for
from memgui.core.store import exemptions, open_store
from waits import LONG_MS

EDITOR_CLUSTER = (("ed-1", "ed-2", "ed-3", 0.95),)


def _body(key: str) -> str:
    return DOCS[key][2]


def _mixed_decider(**kw) -> FakeDecider:
    """ed-1 and ed-2 are the same fact (her editor preference); ed-3 (where the config lives) is a sibling."""
    return FakeDecider(verdicts={frozenset((_body("ed-1"), _body("ed-2"))): "SAME"}, default_verdict="DIFFERENT", **kw)


def _bench(review_bench, decider=None):
    """The Review tab's panels on the editor cluster; M, Esc, U and C are their actions."""
    w = review_bench(decider=decider)
    w.show("ed-1", "ed-2", "ed-3")
    return w


def _open(make_window, review_store, qtbot, decider=None, clusters=EDITOR_CLUSTER):
    services = services_for(review_store, decider=decider, scanner=FakeScanner(review_store.ids, clusters=clusters))
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def _exempt(path, a, b) -> bool:
    store = open_store(path, read_only=True)
    try:
        return exemptions.is_exempt(store, a, b)
    finally:
        store.close()


def test_ask_model_judges_every_pair_shows_the_partition_and_drafts_for_the_largest_group(review_bench, review_store,
                                                                                        qtbot):
    """Would fail without pair judging in the window: the decider got the whole cluster, the sibling stayed
    included and the newest member (the sibling) stayed the target."""
    ids = review_store.ids
    ed1, ed2, ed3 = ids["ed-1"], ids["ed-2"], ids["ed-3"]
    decider = _mixed_decider()
    w = _bench(review_bench, decider)
    assert w.sources.target_id() == ed3  # before judging: Netclaw's primary rule picks the freshest, the sibling
    progress = []
    w.runner.progressed.connect(lambda task: progress.append(task.last_progress))
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS) as finished:
        w.actions["ask"].trigger()
    assert finished.args[0] is not None
    assert len(decider.judged) == 3  # every pair of three
    judging = [p for p in progress if p.stage == "judging pairs"]
    assert [p.done for p in judging] == [0, 1, 2, 3] and all(p.total == 3 for p in judging)
    assert "(3/3)" in w.decision_panel.stream.toPlainText()

    groups = w.review.cluster.groups
    assert set(groups.largest) == {ed1, ed2} and groups.target in (ed1, ed2)
    assert sorted(w.sources.included_ids()) == sorted([ed1, ed2])  # the sibling unchecked
    assert w.sources.target_id() == groups.target  # never the member judged different
    n = w.sources.number_of
    line = w.decision_panel.groups_label.text()
    assert w.decision_panel.groups_label.isVisibleTo(w.page)
    first, second = sorted((n(ed1), n(ed2)))
    assert f"Same fact: #{first} #{second}" in line and f"apart: #{n(ed3)}" in line
    labels = {i: w.sources.pane_for(i).group_label for i in (ed1, ed2, ed3)}
    assert "group A" in labels[ed1].text() and "group A" in labels[ed2].text() and "apart" in labels[ed3].text()
    assert all(label.isVisibleTo(w.page) for label in labels.values())
    # drafted for the group only: the decider saw ed-1 and ed-2, never ed-3
    proposal, candidates, _full = decider.calls[0]
    assert {proposal.memory_id, *(c.document_id for c in candidates)} == {ed1, ed2}
    assert _body("ed-3") not in w.editor.toPlainText()


def test_cancel_while_judging_pairs_stops_the_worker(review_bench, review_store, qtbot):
    gate = threading.Event()
    decider = _mixed_decider(judge_gate=gate)
    w = _bench(review_bench, decider)
    before = sorted(w.sources.included_ids())
    w.actions["ask"].trigger()
    qtbot.waitUntil(lambda: "same fact?" in w.decision_panel.stream.toPlainText(), timeout=LONG_MS)
    assert "judging pairs 1/3" in w.decision_panel.model_label.text()
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS) as finished:
        w.actions["cancel_model"].trigger()
    assert finished.args[0] is None
    qtbot.waitUntil(lambda: decider.cancelled, timeout=LONG_MS)
    gate.set()
    assert decider.calls == [] and w.review.cluster.groups is None
    assert sorted(w.sources.included_ids()) == before and w.decision_panel.kind_label.text() == "cancelled"


def test_every_pair_different_drafts_nothing_and_keep_separate_records_every_pair(review_bench, review_store, qtbot):
    ids = review_store.ids
    decider = FakeDecider(default_verdict="DIFFERENT")
    w = _bench(review_bench, decider)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions["ask"].trigger()
    assert decider.calls == [] and w.editor.toPlainText() == ""
    assert w.decision_panel.kind_label.text() == "different facts"
    assert "Every pair judged a different fact" in w.decision_panel.groups_label.text()
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        w.actions["keep"].trigger()
    for a, b in (("ed-1", "ed-2"), ("ed-1", "ed-3"), ("ed-2", "ed-3")):
        assert _exempt(review_store.path, ids[a], ids[b])


def test_keep_separate_after_judging_records_only_the_pairs_across_groups(review_bench, review_store, qtbot):
    """Would fail when keep separate exempts every pair: the true duplicates ed-1/ed-2 would never be offered
    again."""
    ids = review_store.ids
    w = _bench(review_bench, _mixed_decider())
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions["ask"].trigger()
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        w.actions["keep"].trigger()
    assert "2 pair(s)" in w.answerer.seen[-1]["info"] and "judged different facts" in w.answerer.seen[-1]["info"]
    assert _exempt(review_store.path, ids["ed-1"], ids["ed-3"]) and _exempt(review_store.path, ids["ed-2"], ids["ed-3"])
    assert not _exempt(review_store.path, ids["ed-1"], ids["ed-2"])  # inside the accepted group
    assert len(written.args[0].details["pairs"]) == 2


def test_keep_separate_without_a_model_records_unchecked_against_included(review_bench, review_store, qtbot):
    ids = review_store.ids
    w = _bench(review_bench)
    w.sources.pane_for(ids["ed-3"]).include_box.setChecked(False)
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        w.actions["keep"].trigger()
    assert "unchecked" in w.answerer.seen[-1]["info"]
    assert _exempt(review_store.path, ids["ed-1"], ids["ed-3"]) and _exempt(review_store.path, ids["ed-2"], ids["ed-3"])
    assert not _exempt(review_store.path, ids["ed-1"], ids["ed-2"])


def test_union_draft_without_a_model_covers_the_included_members_with_the_target_first(review_bench, review_store,
                                                                                      qtbot):
    ids = review_store.ids
    w = _bench(review_bench)
    w.sources.pane_for(ids["ed-3"]).include_box.setChecked(False)
    w.sources.set_target(ids["ed-2"])
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None):
        w.actions["union"].trigger()
    body = w.editor.toPlainText()
    assert body.startswith(_body("ed-2")) and "init.lua" not in body


def test_keep_separate_on_a_mixed_cluster_keeps_its_same_fact_group_in_the_queue(make_window, review_store, qtbot):
    """Would fail when C marks the whole cluster kept separate: the duplicate pair ed-1/ed-2 was never merged
    and left the review."""
    ids = review_store.ids
    w = _open(make_window, review_store, qtbot, _mixed_decider())
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_M)
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_C)
    pair = {ids["ed-1"], ids["ed-2"]}
    rows = {frozenset(r.member_ids): r for r in w.cluster_model.rows()}
    assert frozenset(pair) in rows and rows[frozenset(pair)].status == "new"
    qtbot.waitUntil(lambda: w.review.row is not None and set(w.review.row.member_ids) == pair, timeout=LONG_MS)
    assert ids["ed-3"] not in {m for r in w.cluster_model.rows() for m in r.member_ids}  # alone: nothing to merge


def test_the_partition_shows_as_soon_as_every_pair_is_judged_before_the_draft(review_bench, review_store, qtbot):
    """Would fail when the groups wait for the merged body: the reviewer watched a stream with no partition."""
    gate = threading.Event()
    w = _bench(review_bench, _mixed_decider(gate=gate))  # the draft waits at the gate
    w.actions["ask"].trigger()
    qtbot.waitUntil(lambda: w.review.cluster.groups is not None, timeout=LONG_MS)
    assert w.decision_panel.groups_label.isVisibleTo(w.page) and "Same fact" in w.decision_panel.groups_label.text()
    assert w.editor.toPlainText() == ""  # the body is still being drafted
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        gate.set()
