"""Review → "Accept all safe…": plans from the reviews already cached (an uncached cluster is "not reviewed yet"
and skipped), previews every write with Export and Cancel as the default button, writes on a worker, and
"Undo this batch" restores every row. Reviews are computed by the real `review_cluster` on the fake decider."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from gui_fakes import FakeDecider, edit_document_behind_the_back, services_for
from memgui.core.decide.cache import DecisionCache
from memgui.core.decide.inputs import anchor_names
from memgui.core.decide.review import review_cluster
from memgui.core.store import open_store
from memgui.core.tasks import run_to_end
from waits import LONG_MS


def _rows(path) -> list:
    with open_store(path, read_only=True) as s:
        return [s.execute(f"SELECT * FROM {t} ORDER BY document_id").fetchall()
                for t in ("memory_documents", "memory_documents_fts")]


@pytest.fixture
def cached(review_store, tmp_path):
    """A decision cache holding model reviews of the Postgres pair (same fact) and the two flights (different
    facts); the editor pair is not reviewed yet."""
    cache = DecisionCache(review_store.path, "fake-decider|key", root=tmp_path / "decisions")
    ids = review_store.ids
    with open_store(review_store.path, read_only=True) as store:
        for keys, verdict in ((("pg-1", "pg-2"), "SAME"), (("fl-1", "fl-2"), "DIFFERENT")):
            docs = store.documents_by_ids([ids[k] for k in keys])
            review = run_to_end(review_cluster(docs, anchor_names(store, docs), FakeDecider(default_verdict=verdict)))
            cache.put(review)
    return cache


def _opened(make_window, review_store, cached, qtbot, **kw):
    """The window on the review store, its bulk accept reading `cached` (`kw`: services_for's fakes)."""
    services = services_for(review_store, **kw)
    services.bulk.cache_for = lambda store_path, model_path: cached
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


@pytest.fixture
def window(make_window, review_store, cached, qtbot):
    return _opened(make_window, review_store, cached, qtbot)


def _previewed_plan(w, qtbot):
    """Trigger "Accept all safe…", answer Cancel in the preview, and return the plan it showed."""
    plans = []
    w.bulk.exec_preview = lambda dialog: plans.append(dialog.plan) or False
    with qtbot.waitSignal(w.bulk.planned, timeout=LONG_MS):
        w.bulk.actions["accept_safe"].trigger()
    qtbot.waitUntil(lambda: bool(plans), timeout=LONG_MS)
    return plans[0]


def _plan(review_store, cached):
    """The plan the window would preview for the whole queue (the fake scanner's three clusters), made without
    the window: the preview dialog's tests build the dialog alone."""
    from gui_fakes import FakeScanner

    services = services_for(review_store)
    bulk = services.bulk
    with open_store(review_store.path, read_only=True) as store:
        clusters = run_to_end(FakeScanner(review_store.ids)(store)).clusters
        reviews = run_to_end(bulk.cached_reviews(store, clusters, cached))
        titles = {d.document_id: d.title or "" for d in store.documents_by_ids(
            [m for _c, members, _r in reviews for m in members])}
    return bulk.plan_batch(reviews, titles=titles), bulk


def _status(w, cluster_id):
    return w.cluster_model.row_at(w.cluster_model.row_of(cluster_id)).status


def test_accept_all_safe_writes_only_the_safe_cluster_and_undo_this_batch_restores_every_row(window, review_store,
                                                                                            qtbot, tmp_path):
    w, ids = window, review_store.ids
    before = _rows(review_store.path)
    seen = {}

    def answer(dialog):
        seen["writes"] = [dialog.writes_view.topLevelItem(i).text(0) for i in range(dialog.writes_view.topLevelItemCount())]
        items = [dialog.excluded_view.topLevelItem(i) for i in range(dialog.excluded_view.topLevelItemCount())]
        seen["excluded"] = {i.data(0, Qt.ItemDataRole.UserRole): i.text(2) for i in items}
        seen["excluded_titles"] = [i.text(0) for i in items]
        seen["default"] = dialog.cancel_button.isDefault() and not dialog.write_button.isDefault()
        dialog._choose = lambda _d: str(tmp_path / "plan.json")
        dialog.export_button.click()
        return True  # the reviewer clicks "Write 1 merge(s)"

    w.bulk.exec_preview = answer
    assert w.bulk.actions["accept_safe"].isEnabled() and not w.bulk.actions["undo_batch"].isEnabled()
    with qtbot.waitSignal(w.bulk.applied, timeout=LONG_MS) as applied:
        w.bulk.actions["accept_safe"].trigger()
    result = applied.args[0]
    assert seen["default"] is True
    assert "Flight to Lisbon · Return flight from Lisbon" in seen["excluded_titles"]
    assert seen["writes"] and seen["excluded"] == {"c-ed-1-ed-2": "not reviewed yet",
                                                   "c-fl-1-fl-2": "every pair was judged a different fact"}
    exported = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    assert [x["cluster_id"] for x in exported["writes"]] == ["c-pg-1-pg-2"]
    assert [d.cluster_id for d in result.written] == ["c-pg-1-pg-2"] and result.refused == []
    with open_store(review_store.path, read_only=True) as s:
        pg = s.documents_by_ids([ids["pg-1"], ids["pg-2"]])
        assert sum(d.is_tombstoned for d in pg) == 1
        assert not any(d.is_tombstoned for d in s.documents_by_ids([ids[k] for k in ("fl-1", "fl-2", "ed-1", "ed-2")]))
    assert _status(w, "c-pg-1-pg-2") == "merged" and _status(w, "c-fl-1-fl-2") == "new"
    qtbot.waitUntil(lambda: w.bulk.actions["undo_batch"].isEnabled(), timeout=LONG_MS)

    w.answerer.answer("Undo batch")
    with qtbot.waitSignal(w.bulk.undone, timeout=LONG_MS) as undone:
        w.bulk.actions["undo_batch"].trigger()
    assert len(undone.args[0].undone) == 1 and undone.args[0].refused == []
    assert _rows(review_store.path) == before
    assert _status(w, "c-pg-1-pg-2") == "new"
    qtbot.waitUntil(lambda: not w.bulk.actions["undo_batch"].isEnabled(), timeout=LONG_MS)


def test_a_cluster_only_a_shared_anchor_joined_is_not_accepted_in_bulk(make_window, review_store, cached, qtbot):
    """The model's "same fact" on notes the cosine did not nominate (the anchor alone joined them) waits for a
    person, in the window as in accept-safe."""
    from gui_fakes import FakeScanner

    w = _opened(make_window, review_store, cached, qtbot,
                scanner=FakeScanner(review_store.ids, anchor_only=("pg-1",)))
    plan = _previewed_plan(w, qtbot)
    assert plan.writes == []
    assert "only a shared anchor joins" in {x.cluster_id: x.reason for x in plan.excluded}["c-pg-1-pg-2"]


def test_cancel_in_the_preview_writes_nothing(window, review_store, qtbot):
    w = window
    before = _rows(review_store.path)
    shown = []

    def cancel(dialog):
        shown.append(dialog.writes_view.topLevelItemCount())
        return False

    w.bulk.exec_preview = cancel
    with qtbot.waitSignal(w.bulk.planned, timeout=LONG_MS):
        w.bulk.actions["accept_safe"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=LONG_MS)
    assert shown == [1] and _rows(review_store.path) == before
    assert not w.bulk.actions["undo_batch"].isEnabled()


def test_a_source_changed_since_its_review_is_not_written(window, review_store, qtbot):
    """The daemon edits a Postgres note after the background review: the cached review no longer matches, so
    the cluster counts as not reviewed and nothing is merged."""
    w, ids = window, review_store.ids
    edit_document_behind_the_back(review_store.path, ids["pg-2"], "Prod DB moved to Postgres 16.1 on db-03.")
    plan = _previewed_plan(w, qtbot)
    assert plan.writes == []
    assert {x.cluster_id: x.reason for x in plan.excluded}["c-pg-1-pg-2"] == "not reviewed yet"


def test_the_preview_returns_cancel_on_enter(qtbot, review_store, cached):
    from memgui.gui.review.bulk_preview import BulkPreviewDialog

    plan, _bulk = _plan(review_store, cached)
    assert plan.writes  # the Postgres pair
    dialog = BulkPreviewDialog(plan, "the whole queue")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert dialog.result() == 0 and dialog.write_button.isEnabled()  # Return rejected; writing needs a click


def test_a_multi_row_selection_limits_the_batch_to_those_rows(window, qtbot):
    from PySide6.QtCore import QItemSelectionModel

    w = window
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    w.queue.clearSelection()
    for cluster_id in ("c-ed-1-ed-2", "c-fl-1-fl-2"):
        index = w.proxy.mapFromSource(w.cluster_model.index(w.cluster_model.row_of(cluster_id), 0))
        w.queue.selectionModel().select(index, flags)
    plan = _previewed_plan(w, qtbot)
    assert plan.writes == []  # the safe Postgres pair was not selected
    assert {x.cluster_id for x in plan.excluded} == {"c-ed-1-ed-2", "c-fl-1-fl-2"}


def test_the_preview_shows_each_merged_body_its_length_and_flags_a_repeated_sentence(review_store, cached, qtbot):
    """Issue 24 item 5. Would fail without the detail pane: the merged bodies were only in a tooltip or the export,
    so a body that repeats its sentence went through unseen."""
    from dataclasses import replace

    from memgui.gui.review.bulk_preview import BulkPreviewDialog

    planned, bulk = _plan(review_store, cached)
    write = planned.writes[0]
    sentence = "Backups run nightly at 02:00 UTC."
    repeated = replace(write, merged_body=f"{write.merged_body}\n\n{sentence} {sentence}")
    plan = replace(planned, writes=[write, repeated])
    dialog = BulkPreviewDialog(plan, "the whole queue", repeats=bulk.repeated_sentences)
    qtbot.addWidget(dialog)
    dialog.resize(1200, 640)
    dialog.show()
    assert dialog.detail.isVisible()
    first = dialog.detail_text()  # the first write is chosen: its body is in view, not in a tooltip
    assert write.merged_body.split("\n")[0] in first and f"Length: {len(write.merged_body)} characters" in first
    assert "repeats" not in dialog.writes_view.topLevelItem(0).text(1)
    assert "length 201% of the longest source" in dialog.writes_view.topLevelItem(0).text(1)  # the fake's body
    dialog.writes_view.setCurrentItem(dialog.writes_view.topLevelItem(1))
    assert "repeats 1 sentence" in dialog.writes_view.topLevelItem(1).text(1)
    text = dialog.detail_text()
    assert "⚠ repeats 1 sentence" in text and f"repeated: “{sentence}”" in text
    assert f"Length: {len(repeated.merged_body)} characters" in text


def test_undo_this_batch_stays_in_view_as_a_button_after_a_batch(window, qtbot):
    """Would fail without the button: "Undo this batch" was a menu entry and a 10-second status message."""
    from PySide6.QtTest import QTest

    w = window
    button = w.page.findChild(type(w.bulk.undo_button), "undoBatchButton")
    assert button is not None and not button.isVisible()
    w.bulk.exec_preview = lambda dialog: True
    with qtbot.waitSignal(w.bulk.applied, timeout=LONG_MS):
        w.bulk.actions["accept_safe"].trigger()
    qtbot.waitUntil(button.isVisible, timeout=LONG_MS)
    assert button.isEnabled() and button.text() == "Undo this batch (1 merge)"
    w.select_cluster("c-pg-1-pg-2")  # the merged cluster says what was done and by whom (issue 24 item 2)
    qtbot.waitUntil(lambda: w.review.row.cluster_id == "c-pg-1-pg-2" and w.review.row.status == "merged", timeout=LONG_MS)
    assert "Reviewed: merged" in w.editor_title.text() and "with Accept all safe" in w.editor_title.text()
    w.answerer.answer("Undo batch")
    with qtbot.waitSignal(w.bulk.undone, timeout=LONG_MS):
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not button.isVisible(), timeout=LONG_MS)
