"""The queue's skipped / reviewed marks last: saved per store (on a worker, one transaction), shown again when
the store is reopened with the review resuming where it stopped, kept by F5 for unchanged clusters, dropped
for a cluster whose member changed or whose write was undone; on a read-only store kept for the session."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import stat

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import edit_document_behind_the_back
from memgui.gui.review.cluster_model import KEPT_SEPARATE, MERGED, NEW, SKIPPED
from memgui.gui.review.queue_marks import READ_ONLY_NOTE
from waits import LONG_MS, flush


def _open(make_window, path, qtbot):
    w = make_window()
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(path))
    return w


def _statuses(w) -> dict:
    return {r.cluster_id: r.status for r in w.cluster_model.rows()}


def _queue(w) -> list:
    """Cluster ids in the queue's order."""
    return [w.cluster_model.row_at(w.proxy.mapToSource(w.proxy.index(r, 0)).row()).cluster_id
            for r in range(w.proxy.rowCount())]


def _press(w, qtbot, key, signal=None):
    with qtbot.waitSignal(signal or w.review.clusterLoaded, timeout=LONG_MS):
        QTest.keyClick(w.queue, key)


def _saved(w, qtbot) -> None:
    qtbot.waitUntil(lambda: not w.runner.busy("marks"), timeout=LONG_MS)


def _stored_marks(path) -> dict:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return dict(conn.execute("SELECT member_ids_json, status FROM memgui_review_marks").fetchall())


def test_marks_last_across_sessions_and_review_resumes_after_the_last_one(make_window, review_store, qtbot):
    w = _open(make_window, review_store.path, qtbot)
    first, second, third = _queue(w)
    assert w.review.row.cluster_id == first
    _press(w, qtbot, Qt.Key.Key_S)  # skip the first
    w.answerer.answer("Keep separate")
    _press(w, qtbot, Qt.Key.Key_C, w.review.writeFinished)  # the second: not duplicates
    _saved(w, qtbot)
    assert sorted(_stored_marks(review_store.path).values()) == [KEPT_SEPARATE, SKIPPED]  # saved before closing
    w.close()

    again = _open(make_window, review_store.path, qtbot)
    assert _statuses(again) == {first: SKIPPED, second: KEPT_SEPARATE, third: NEW}
    assert again.review.row.cluster_id == third  # the first unreviewed cluster after the last mark


def test_opening_and_moving_write_nothing_a_skip_is_one_write(make_window, review_store, qtbot):
    digest = hashlib.sha256(review_store.path.read_bytes()).hexdigest()
    w = _open(make_window, review_store.path, qtbot)
    _press(w, qtbot, Qt.Key.Key_J)
    _press(w, qtbot, Qt.Key.Key_K)
    flush()
    _saved(w, qtbot)  # a save the moves had started (there should be none) has ended
    assert hashlib.sha256(review_store.path.read_bytes()).hexdigest() == digest
    _press(w, qtbot, Qt.Key.Key_S)
    _saved(w, qtbot)
    assert list(_stored_marks(review_store.path).values()) == [SKIPPED]


def test_a_changed_member_drops_the_mark_on_reopen_and_on_f5(make_window, review_store, qtbot):
    w = _open(make_window, review_store.path, qtbot)
    first, second, third = _queue(w)
    _press(w, qtbot, Qt.Key.Key_S)
    _press(w, qtbot, Qt.Key.Key_S)
    assert _statuses(w) == {first: SKIPPED, second: SKIPPED, third: NEW}
    changed = w.cluster_model.row_at(w.cluster_model.row_of(second)).member_ids[0]
    edit_document_behind_the_back(review_store.path, changed, "Edited by the daemon meanwhile.")
    with qtbot.waitSignal(w.scanFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_F5)
    assert _statuses(w) == {first: SKIPPED, second: NEW, third: NEW}  # F5 keeps the unchanged cluster's mark
    assert w.review.row.cluster_id == third  # the cluster on show stays on show
    w.close()
    again = _open(make_window, review_store.path, qtbot)
    assert _statuses(again) == {first: SKIPPED, second: NEW, third: NEW}
    assert again.review.row.cluster_id == second  # first unreviewed after the last (still valid) mark


def test_an_undone_review_is_unreviewed_again(make_window, review_store, qtbot):
    w = _open(make_window, review_store.path, qtbot)
    first = w.review.row.cluster_id
    with qtbot.waitSignal(w.review.guardUpdated, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    w.answerer.answer("Merge")
    _press(w, qtbot, Qt.Key.Key_A, w.review.writeFinished)
    assert _statuses(w)[first] == MERGED
    _saved(w, qtbot)
    assert MERGED in _stored_marks(review_store.path).values()
    w.answerer.answer("Undo")
    QTest.keyClick(w.queue, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _statuses(w)[first] == NEW, timeout=LONG_MS)  # the undo ran (on its worker)
    _saved(w, qtbot)
    assert MERGED not in _stored_marks(review_store.path).values()
    w.close()
    again = _open(make_window, review_store.path, qtbot)
    assert _statuses(again)[first] == NEW and again.review.row.cluster_id == first


def test_a_read_only_store_keeps_marks_for_the_session_only(make_window, review_store, qtbot):
    os.chmod(review_store.path, stat.S_IRUSR | stat.S_IRGRP)
    try:
        w = _open(make_window, review_store.path, qtbot)
        first = w.review.row.cluster_id
        _press(w, qtbot, Qt.Key.Key_S)
        assert w.statusBar().currentMessage() == READ_ONLY_NOTE
        with qtbot.waitSignal(w.scanFinished, timeout=LONG_MS):
            QTest.keyClick(w.queue, Qt.Key.Key_F5)
        assert _statuses(w)[first] == SKIPPED  # kept in memory through a rescan
        w.close()
        again = _open(make_window, review_store.path, qtbot)
        assert _statuses(again)[first] == NEW  # nothing was saved
    finally:
        os.chmod(review_store.path, stat.S_IRUSR | stat.S_IWUSR)
