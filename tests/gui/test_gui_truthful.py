"""Issue 24 item 2, one truthful screen: one target everywhere (decision panel and editor header), a reviewed
cluster says what was done and by whom instead of the drafting hint, and the headline counts a fact once. On the
Review tab's panels with fake services (`ReviewBench`), not the window, but for the reviewed cluster (the queue's)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import DOCS, FakeDecider
from memgui.core.store import open_store
from waits import LONG_MS


def _open(review_bench, *keys, decider=None):
    w = review_bench(decider=decider)
    w.show(*(keys or ("pg-1", "pg-2")))
    return w


def _target_label(w) -> str:
    return w.review.cluster.label(w.sources.target_id())


def test_the_decision_panel_and_the_editor_header_name_the_same_target(review_bench, qtbot):
    """Would fail without it: the decision panel kept the model's "Targets: #1" while the header merged into #2."""
    decider = FakeDecider(verdicts={frozenset((DOCS["ed-1"][2], DOCS["ed-2"][2])): "SAME"}, default_verdict="DIFFERENT")
    w = _open(review_bench, "ed-1", "ed-2", "ed-3", decider=decider)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions["ask"].trigger()
    header, target = w.page.editor_title.text(), w.decision_panel.targets_label.text()
    assert _target_label(w) in header and target.startswith(_target_label(w))
    # the reviewer picks the other member of the group: both follow
    other = next(i for i in w.sources.included_ids() if i != w.sources.target_id())
    w.sources.pane_for(other).target_radio.click()  # Shift+digit's pane control (the key is the window's)
    assert w.sources.target_id() == other
    assert _target_label(w) in w.page.editor_title.text()
    assert w.decision_panel.targets_label.text().startswith(_target_label(w))
    named = w.review.cluster.decider_result.decision.target_document_id
    # the model's own pick is said beside it only when it is another document, never shown as the target
    assert ("(model: #" in w.decision_panel.targets_label.text()) == (named != other)


def test_a_merged_cluster_says_merged_by_the_reviewer_not_the_drafting_hint(opened, review_store, qtbot):
    """Would fail without it: back on a merged cluster the header said "empty — U union draft · M ask the model".
    A window test: the queue keeps the row's status and audit id that the header reads."""
    w = opened
    row = w.review.row
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: w.review.row.cluster_id != row.cluster_id, timeout=LONG_MS)
    w.select_cluster(row.cluster_id)
    qtbot.waitUntil(lambda: w.review.row.cluster_id == row.cluster_id, timeout=LONG_MS)
    header = w.editor_title.text()
    assert "U union draft" not in header
    assert "Reviewed: merged into #" in header and "by you (memgui reviewer" in header and "audit #" in header
    outcome = w.decision_panel.outcome_label
    assert outcome.isVisibleTo(w) and "merged" in outcome.text()
    assert "U for the union draft" not in w.editor.placeholderText() and "merged" in w.editor.placeholderText()
    qtbot.waitUntil(lambda: "Reviewed: merged" in w.diff_view.text.toPlainText(), timeout=LONG_MS)


def test_a_member_tombstoned_outside_memgui_is_said_to_be_the_daemons_doing(review_bench, review_store, qtbot):
    w = _open(review_bench)
    pg1 = review_store.ids["pg-1"]
    assert pg1 in w.review.row.member_ids
    store = open_store(review_store.path)
    try:
        store.writes.tombstone_document(pg1)
    finally:
        store.close()
    w.review.load(w.review.row)
    assert "Already merged by the Netclaw daemon" in w.page.editor_title.text()
    assert "Netclaw daemon" in w.decision_panel.outcome_label.text()


def test_one_dropped_time_is_one_fact_at_risk_in_the_headline_and_in_each_pane(review_bench, qtbot):
    """Would fail without it: the headline said "2 facts at risk" for "02:00 UTC" while each pane said 1."""
    w = _open(review_bench)
    body = ("The production database is Postgres 14.2 on db-01.internal, port 5432. Backups run nightly to "
            "s3://backups/pg. The replica is db-02.internal.")
    w.editor.setFocus()  # E's doing (the key is the window's)
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None):
        w.editor.insertPlainText(body)
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)
    assert "strict: 1 fact at risk" in w.guard_panel.verdict.text()
    for pane in w.sources.panes():
        assert pane.at_risk == 1 and "1 at risk" in pane.missing_label.text()
