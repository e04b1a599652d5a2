"""A write from the Audit tab refreshes the queue rows of the clusters it touched
(memgui/gui/review/cluster_refresh.py): no scan runs, the other clusters' rows stay as they were, and the touched
row shows its status as it is now."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from memgui.core.ops.changes import Changes
from memgui.core.store import open_store
from memgui.gui.review.cluster_model import MERGED, NEW, SKIPPED
from waits import LONG_MS


def _row(window, cluster_id):
    model = window.cluster_model
    return model.row_at(model.row_of(cluster_id))


def _tombstoned(path, doc_id):
    store = open_store(path, read_only=True)
    try:
        return store.document(doc_id).is_tombstoned
    finally:
        store.close()


def _audit_write(window, qtbot, button, answer):
    """Click Undo or Redo in the Audit tab's list (the Ctrl+Z question answered); wait for its banner and for the
    list read again (the queue may show the write before the list does)."""
    window.answerer.answer(answer)
    finished: list[str] = []
    window.audit_view.actionFinished.connect(finished.append)
    with qtbot.waitSignals([window.audit_view.actionFinished, window.audit_view.loaded], timeout=LONG_MS):
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    window.audit_view.actionFinished.disconnect(finished.append)
    return finished[0]


def test_an_audit_tab_undo_and_redo_refresh_only_the_written_cluster(opened, review_store, qtbot):
    w = opened
    scanner, view = w.services.scan, w.audit_view
    pg1 = review_store.ids["pg-1"]
    merged = w.review.row  # the Postgres pair, shown first
    assert pg1 in merged.member_ids
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    entry = written.args[0]
    qtbot.waitUntil(lambda: w.review.row.cluster_id != merged.cluster_id, timeout=LONG_MS)
    shown = w.review.row  # the review moved on to the next cluster
    w.cluster_model.set_status(shown.cluster_id, SKIPPED)  # a status only this session's queue holds
    others = {r.cluster_id: r for r in w.cluster_model.rows() if r.cluster_id != merged.cluster_id}
    scans, loads = scanner.calls, []
    w.review.clusterLoaded.connect(loads.append)

    w.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.select_entry(entry.audit_id), timeout=LONG_MS)  # the audit list shows the merge
    text = _audit_write(w, qtbot, view.undo_button, "Undo")
    assert text.startswith(f"Undid #{entry.audit_id}") and not _tombstoned(review_store.path, pg1)
    qtbot.waitUntil(lambda: _row(w, merged.cluster_id).status == NEW, timeout=LONG_MS)  # the undone merge: to review
    assert _row(w, merged.cluster_id).audit_id is None
    assert scanner.calls == scans  # no scan: only the written cluster was read again
    assert {r.cluster_id: r for r in w.cluster_model.rows() if r.cluster_id != merged.cluster_id} == others
    assert all(_row(w, cid) is row for cid, row in others.items())  # the other rows untouched, not rebuilt
    assert _row(w, shown.cluster_id).status == SKIPPED
    assert loads == [] and w.review.row is shown  # the cluster on show was not written: not reloaded

    w.select_cluster(merged.cluster_id)  # the written cluster on show: a redo reloads it
    qtbot.waitUntil(lambda: w.review.row is not None and w.review.row.cluster_id == merged.cluster_id, timeout=LONG_MS)
    w.tabs.setCurrentWidget(view)
    assert view.select_entry(entry.audit_id)
    loads.clear()
    text = _audit_write(w, qtbot, view.redo_button, "Redo")
    assert text.startswith(f"Redid #{entry.audit_id}") and _tombstoned(review_store.path, pg1)
    # the merge stands again: its row says so (a scan would have dropped the cluster, its source tombstoned)
    qtbot.waitUntil(lambda: _row(w, merged.cluster_id).status == MERGED, timeout=LONG_MS)
    assert _row(w, merged.cluster_id).audit_id == entry.audit_id
    qtbot.waitUntil(lambda: bool(loads), timeout=LONG_MS)
    assert w.review.row.status == MERGED and not w.review.reviewable()
    assert scanner.calls == scans
    assert all(_row(w, cid) is row for cid, row in others.items())


def test_a_write_on_documents_no_queued_cluster_holds_finds_clusters_again(opened, qtbot):
    w = opened
    scans = w.services.scan.calls
    with qtbot.waitSignal(w.scanFinished, timeout=LONG_MS):
        w.review.show_changes(Changes(documents_written=frozenset({"a-document-in-no-cluster"})))
    assert w.services.scan.calls == scans + 1


def test_a_review_write_reads_again_the_other_queued_cluster_that_holds_a_written_document(make_window, review_store,
                                                                                            qtbot):
    """One refresh path for every write: the merge of (pg-1, pg-2) tombstones a note another queued cluster holds
    too, and that row is read again (no scan, the untouched row left as it was)."""
    from gui_fakes import FakeScanner, services_for

    clusters = (("pg-1", "pg-2", 0.962), ("pg-2", "ed-1", 0.93), ("fl-1", "fl-2", 0.915))
    scanner = FakeScanner(review_store.ids, clusters=clusters)
    w = make_window(services_for(review_store, scanner=scanner))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    merged = w.review.row
    assert set(merged.member_ids) == {review_store.ids["pg-1"], review_store.ids["pg-2"]}
    overlapping, untouched = _row(w, "c-pg-2-ed-1"), _row(w, "c-fl-1-fl-2")
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    changes = written.args[0].changes
    assert review_store.ids["pg-2"] in changes.documents
    qtbot.waitUntil(lambda: _row(w, "c-pg-2-ed-1") is not overlapping, timeout=LONG_MS)  # read again
    assert _row(w, merged.cluster_id).status == MERGED
    assert _row(w, "c-fl-1-fl-2") is untouched and scanner.calls == 1
