"""A store in a folder the user cannot write, closed cleanly (no -wal / -shm): the window opens it read-only,
with the read-only banner and title, writes off and reviewing on, and the folder's files byte-identical
(issue 24 item 8). As root the window runs in a child pytest held to the permission bits
(tests/no_write_access.py); the child first proves it cannot write the folder."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import ReviewStore, build_review_store, services_for
from no_write_access import ROOT, make_unwritable, make_writable, run_held_to_permissions

_CHILD = "MEMGUI_TEST_READ_ONLY_FOLDER"  # JSON {path, ids} of the store, set in the child


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _window_opens_it_read_only(make_window, qtbot, store: ReviewStore) -> None:
    w = make_window(services_for(store))
    with qtbot.waitSignal(w.ready, timeout=30000):
        w.open_located(str(store.path))
    assert w.store.read_only and "folder is not writable" in w.store.read_only_reason
    assert w.readonly_banner.isVisibleTo(w) and "Read-only store" in w.readonly_banner.text()
    assert w.windowTitle().endswith("[read-only]")
    assert w.cluster_model.rowCount() > 0  # the queue is there to review
    # the child's first draft reads WordNet's files into a cold cache: on a loaded machine that alone can take seconds
    with qtbot.waitSignal(w.review.guardUpdated, timeout=60000):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    k = w.actions_by_key
    assert not k["accept"].isEnabled() and not k["append"].isEnabled() and not k["keep"].isEnabled()
    assert k["union"].isEnabled()


def test_window_opens_a_store_in_an_unwritable_folder_read_only(make_window, qtbot, tmp_path):
    if os.environ.get(_CHILD):  # the child: held to the folder's bits
        given = json.loads(os.environ[_CHILD])
        store = ReviewStore(Path(given["path"]), given["ids"])
        try:
            (store.path.parent / ".probe").write_text("x")
        except OSError:
            pass
        else:
            raise AssertionError("the folder can be written here: the test would prove nothing")
        _window_opens_it_read_only(make_window, qtbot, store)
        return
    store = build_review_store(tmp_path / "locked" / "netclaw.db")
    with sqlite3.connect(store.path) as conn:  # as Netclaw keeps it: a WAL store (a reader needs a -shm)
        assert conn.execute("PRAGMA journal_mode=wal").fetchone()[0] == "wal"
    conn.close()
    folder = store.path.parent
    assert sorted(p.name for p in folder.iterdir()) == ["netclaw.db"]  # closed cleanly: no -wal, no -shm
    before = _digests(folder)
    make_unwritable(folder)
    try:
        if ROOT:
            env = {**os.environ, _CHILD: json.dumps({"path": str(store.path), "ids": store.ids})}
            child = run_held_to_permissions(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                 "--override-ini", "addopts=", f"{__file__}::{test_window_opens_a_store_in_an_unwritable_folder_read_only.__name__}"],
                env=env, timeout=300)
            assert child.returncode == 0, child.stdout[-4000:] + child.stderr[-2000:]
            assert "1 passed" in child.stdout
        else:
            _window_opens_it_read_only(make_window, qtbot, store)
    finally:
        make_writable(folder)
    assert _digests(folder) == before
