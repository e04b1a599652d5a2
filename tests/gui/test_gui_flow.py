"""The review flow from the keyboard on a real store (real guard, apply and audit; fake scanner/decider)."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import DOCS, edit_document_behind_the_back, wait_for_guard
from memgui.core.store import exemptions, open_store
from memgui.core.store.audit_log import list_entries
from memgui.gui.review.cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED
from waits import LONG_MS, flush


def _docs(path, *ids):
    store = open_store(path, read_only=True)
    try:
        return {d.document_id: d for d in store.documents_by_ids(ids)}
    finally:
        store.close()


def _key(window, key, modifier=Qt.KeyboardModifier.NoModifier, widget=None):
    QTest.keyClick(widget or window.queue, key, modifier)


def _status(window, cluster_id):
    model = window.cluster_model
    return model.row_at(model.row_of(cluster_id)).status


def test_whole_keyboard_flow_union_accept_undo_redo(opened, review_store, qtbot):
    w = opened
    ids = review_store.ids
    pg1, pg2 = ids["pg-1"], ids["pg-2"]
    row = w.review.row
    assert set(row.member_ids) == {pg1, pg2}  # highest cosine first, selected at start
    assert [p.doc.document_id for p in w.sources.panes()] == [pg1, pg2]
    assert w.sources.target_id() == pg2  # Netclaw's primary rule: equal confidence → the freshest
    before = _docs(review_store.path, pg1, pg2)

    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        _key(w, Qt.Key.Key_U)
    union_text = w.editor.toPlainText()
    assert "db-02.internal" in union_text and "s3://backups/pg" in union_text
    assert "passed" in w.guard_panel.verdict.text()
    assert w.actions_by_key["accept"].isEnabled()

    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        _key(w, Qt.Key.Key_A)
    confirm = w.answerer.seen[-1]
    assert confirm["title"] == "Accept merge"
    assert "Tombstoned" in confirm["info"] and pg1 in confirm["info"] and pg2 in confirm["info"]
    entry = written.args[0]
    after = _docs(review_store.path, pg1, pg2)
    assert after[pg2].markdown_body == union_text and after[pg2].update_semantics == "merge-document"
    assert after[pg1].is_tombstoned
    assert _status(w, row.cluster_id) == MERGED
    store = open_store(review_store.path, read_only=True)
    assert list_entries(store)[0].audit_id == entry.audit_id and list_entries(store)[0].operation == "merge"
    store.close()
    qtbot.waitUntil(lambda: w.review.row.cluster_id != row.cluster_id, timeout=LONG_MS)  # on to the next new cluster

    w.answerer.answer("Undo")
    with qtbot.waitSignals([w.review.clusterLoaded], timeout=LONG_MS):
        _key(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    restored = _docs(review_store.path, pg1, pg2)
    for doc_id in (pg1, pg2):
        assert restored[doc_id].markdown_body == before[doc_id].markdown_body
        assert restored[doc_id].update_semantics == before[doc_id].update_semantics
    assert _status(w, row.cluster_id) == NEW
    assert w.review.row.cluster_id == row.cluster_id  # undo brings the cluster back into view
    assert w.sources.pane_for(pg1).body.toPlainText() == DOCS["pg-1"][2]

    w.answerer.answer("Redo")
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        _key(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert _docs(review_store.path, pg2)[pg2].markdown_body == union_text
    assert _status(w, row.cluster_id) == MERGED


def test_guard_failure_path_ends_in_an_append(opened, review_store, qtbot):
    w = opened
    pg1, pg2 = review_store.ids["pg-1"], review_store.ids["pg-2"]
    _key(w, Qt.Key.Key_E)
    assert w.editor.hasFocus()
    QTest.keyClicks(w.editor, "Prod database is Postgres on db-01.")
    wait_for_guard(qtbot, w, passed=False)
    assert "failed" in w.guard_panel.verdict.text()
    missing = set(w.guard_panel.report.missing)
    assert {"5432", "db-02"} <= missing
    # missing tokens are highlighted where they occur in the sources
    assert w.sources.pane_for(pg1).missing_count() > 0 and w.sources.pane_for(pg2).missing_count() > 0
    preview = w.guard_panel.fallback.toPlainText()
    assert w.guard_panel.fallback.isVisibleTo(w) and "_[merged " in preview
    assert preview.startswith(DOCS["pg-2"][2])  # the target's body first, then the other source

    w.answerer.answer("Append instead", "Append")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        w.queue.setFocus()
        _key(w, Qt.Key.Key_A)
    assert w.answerer.titles() == ["MergeGuard failed", "Append instead"]
    target = _docs(review_store.path, pg2)[pg2]
    assert target.update_semantics == "append-document"
    assert target.markdown_body == preview
    assert DOCS["pg-1"][2] in target.markdown_body and DOCS["pg-2"][2] in target.markdown_body
    assert _status(w, w.cluster_model.rows()[0].cluster_id) == APPENDED


def test_guard_override_is_recorded(opened, review_store, qtbot):
    w = opened
    _key(w, Qt.Key.Key_E)
    QTest.keyClicks(w.editor, "Prod database is Postgres on db-01.")
    wait_for_guard(qtbot, w, passed=False)
    w.answerer.answer("Override and merge", "Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        w.queue.setFocus()
        _key(w, Qt.Key.Key_A)
    assert "override is recorded" in w.answerer.seen[-1]["info"]
    assert written.args[0].guard_override is True and written.args[0].guard_passed is False


def test_stale_source_dialog_offers_reload_and_keeps_the_body(opened, review_store, qtbot):
    w = opened
    pg1, pg2 = review_store.ids["pg-1"], review_store.ids["pg-2"]
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        _key(w, Qt.Key.Key_U)
    body = w.editor.toPlainText()
    changed = DOCS["pg-1"][2] + " The daemon added: WAL archiving is on."
    edit_document_behind_the_back(review_store.path, pg1, changed)

    w.answerer.answer("Merge", "Reload cluster")
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        _key(w, Qt.Key.Key_A)
    stale = w.answerer.seen[-1]
    assert stale["title"] == "A source changed" and pg1 in stale["info"]
    assert _docs(review_store.path, pg1)[pg1].markdown_body == changed  # nothing else was written
    assert not _docs(review_store.path, pg2)[pg2].is_tombstoned
    assert w.sources.pane_for(pg1).body.toPlainText() == changed  # reloaded
    assert w.editor.toPlainText() == body  # the draft survives the reload
    assert _status(w, w.review.row.cluster_id) == NEW

    # With the current text drafted again, the merge goes through.
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        _key(w, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        _key(w, Qt.Key.Key_A)
    assert "WAL archiving" in _docs(review_store.path, pg2)[pg2].markdown_body


def test_keep_separate_skip_and_navigation(opened, review_store, qtbot):
    w = opened
    first = w.review.row.cluster_id
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        _key(w, Qt.Key.Key_J)
    second = w.review.row.cluster_id
    assert second != first
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        _key(w, Qt.Key.Key_K)
    assert w.review.row.cluster_id == first
    with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
        _key(w, Qt.Key.Key_S)
    assert _status(w, first) == SKIPPED and w.review.row.cluster_id == second

    ids = list(w.review.row.member_ids)
    w.answerer.answer("Keep separate")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        _key(w, Qt.Key.Key_C)
    assert "No document changes" in w.answerer.seen[-1]["info"]
    store = open_store(review_store.path, read_only=True)
    assert exemptions.is_exempt(store, ids[0], ids[1])
    store.close()
    assert _status(w, second) == KEPT_SEPARATE


def test_confirmation_cancel_writes_nothing(opened, review_store, qtbot):
    w = opened
    pg2 = review_store.ids["pg-2"]
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        _key(w, Qt.Key.Key_U)
    w.answerer.answer("Cancel")
    asked = len(w.answerer.seen)
    _key(w, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: len(w.answerer.seen) > asked, timeout=LONG_MS)  # the confirmation, cancelled
    flush()  # whatever the cancelled answer would have started has started
    assert not w.runner.busy("write")
    assert _docs(review_store.path, pg2)[pg2].markdown_body == DOCS["pg-2"][2]
    assert _status(w, w.review.row.cluster_id) == NEW
