"""The window after a write reads the write's change descriptor (Writes.show_changes) and the core's undo history
(core/ops/history.py): Ctrl+Z offers what the audit log says, and refuses when another writer moved it."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from memgui.core.ops.changes import Changes, Effect
from memgui.core.ops.history import history
from memgui.core.ops.undo import undo
from memgui.core.store import open_store
from memgui.gui.review.cluster_model import KEPT_SEPARATE, MERGED, NEW


def _status(window, cluster_id):
    model = window.cluster_model
    return model.row_at(model.row_of(cluster_id)).status


def test_the_queue_shows_what_the_descriptor_names(opened):
    w = opened
    writes, row = w.review.writes, w.review.row
    writes.rows_of_audit[991] = row.cluster_id
    writes.show_changes(Changes(standing=((991, Effect.KEPT_SEPARATE),)))
    assert _status(w, row.cluster_id) == KEPT_SEPARATE
    writes.show_changes(Changes(undone=(991,)))
    assert _status(w, row.cluster_id) == NEW
    writes.show_changes(Changes(standing=((992, Effect.MERGED),)))  # a write no queue row reviewed: no row changes
    assert {r.status for r in w.cluster_model.rows()} == {NEW}


def test_ctrl_z_offers_the_cores_history_and_refuses_when_another_writer_moved_it(opened, review_store, qtbot):
    w = opened
    row = w.review.row
    assert not w.actions_by_key["undo"].isEnabled()  # a new session: nothing to undo
    with qtbot.waitSignal(w.review.guardUpdated, timeout=20000, check_params_cb=lambda r: r is not None and r.passed):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=20000) as written:
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    entry = written.args[0]
    assert entry.changes.standing == ((entry.audit_id, Effect.MERGED),)
    assert _status(w, row.cluster_id) == MERGED
    writes = w.review.writes
    store = open_store(review_store.path)
    try:
        assert writes.history == history(store, writes.session)  # the window's Undo is the core's answer
        assert writes.history.undo.audit_id == entry.audit_id
        qtbot.waitUntil(lambda: w.actions_by_key["undo"].isEnabled(), timeout=20000)
        undo(store, entry.audit_id)  # another process (or the Audit tab) undoes the merge behind the window's back
    finally:
        store.close()

    w.answerer.answer("Undo", "OK")  # the question, then the refusal
    QTest.keyClick(w.queue, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: writes.history.undo is None, timeout=20000)  # read again after the refusal
    refusal = w.answerer.seen[-1]
    assert refusal["title"] == "Cannot undo" and "nothing to undo" in refusal["text"] + refusal["info"]
    assert writes.history.redo is not None and writes.history.redo.audit_id == entry.audit_id
