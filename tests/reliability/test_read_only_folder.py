"""Side files and read-only stores (issue 26 item 6, issue 24 item 8).

- A store in a folder the user cannot write opens read-only — closed cleanly (no `-wal` / `-shm`), with both,
  or with commits still in a `-wal` and no `-shm` — with the folder reason the window's banner and `info`
  show, the commits in the `-wal` read, and every file byte-identical. The folder is really unwritable: as root
  the check runs in a child without the permission overrides (tests/no_write_access.py), which first proves it
  cannot write there.
- A refused open (a truncated or smashed store, an SQLite file that is not a store), read-only or not, leaves
  no `-wal` / `-shm` file behind and the file byte-identical.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from memgui.core.store.demo import build_demo_store
from memgui.core.store.errors import StoreError
from memgui.core.store.opening import open_store
from no_write_access import (
    ENFORCED_CHECK,
    make_unwritable,
    make_writable,
    run_held_to_permissions,
    run_python_held_to_permissions,
)

FOLDER_REASON = "its folder is not writable"
EDITED = " (edited after the last checkpoint)"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Path:
    return build_demo_store(tmp_path_factory.mktemp("demo") / "netclaw.db")


def _store_in(folder: Path, demo_store: Path, kind: str) -> Path:
    """A copy of the demo store in `folder`: "clean" (closed cleanly, no side files), "wal+shm" (a writer's
    files as a crash leaves them) or "wal" (commits in the -wal, no -shm: copied from another machine)."""
    folder.mkdir()
    path = folder / "netclaw.db"
    shutil.copyfile(demo_store, path)
    if kind == "clean":
        return path
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("UPDATE memory_documents SET title = title || ? WHERE rowid = "
                 "(SELECT min(rowid) FROM memory_documents)", (EDITED,))
    conn.commit()
    snapshot = {suffix: Path(f"{path}{suffix}").read_bytes() for suffix in ("", "-wal", "-shm")}
    conn.close()  # the last close checkpoints and deletes the side files: put back the state before it
    for suffix, data in snapshot.items():
        if suffix != "-shm" or kind == "wal+shm":
            Path(f"{path}{suffix}").write_bytes(data)
    return path


def _digests(folder: Path) -> dict[str, str]:
    """Every file's bytes, but a -shm's: it is SQLite's shared-memory index of the -wal, which every reader
    that can write it updates (its name still counts: none may appear or vanish)."""
    return {p.name: "index" if p.name.endswith("-shm") else hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir())}


_OPEN = ENFORCED_CHECK + '''
import json
from memgui.core.store.opening import open_store
store = open_store(sys.argv[2])
title = store.db.execute_sql("SELECT title FROM memory_documents ORDER BY rowid LIMIT 1").fetchone()[0]
print(json.dumps({"read_only": store.read_only, "reason": store.read_only_reason, "title": title}))
store.close()
'''


@pytest.mark.parametrize("files_writable", [True, False], ids=["files-writable", "files-read-only"])
@pytest.mark.parametrize("kind", ["clean", "wal+shm", "wal"])
def test_a_store_in_an_unwritable_folder_opens_read_only(tmp_path, demo_store, kind, files_writable):
    path = _store_in(tmp_path / "store", demo_store, kind)
    if not files_writable:
        for file in path.parent.iterdir():
            file.chmod(0o444)
    before = _digests(path.parent)
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(private_tmp)}
    make_unwritable(path.parent)
    try:
        opened = run_python_held_to_permissions(_OPEN, str(path.parent), str(path), env=env)
        info = run_held_to_permissions([sys.executable, "-m", "memgui", "info", "--store", str(path), "--json"],
                                       env=env)
    finally:
        make_writable(path.parent)
    assert opened.returncode == 0, opened.stderr
    seen = json.loads(opened.stdout)
    assert seen["read_only"] is True
    assert FOLDER_REASON in seen["reason"] or (not files_writable and "read-only" in seen["reason"])
    assert seen["title"].endswith(EDITED) == (kind != "clean")  # commits still in the -wal are read
    assert info.returncode == 0, info.stderr
    shown = json.loads(info.stdout)
    assert shown["read_only"] is True and shown["documents"]["live"] > 0
    assert _digests(path.parent) == before  # byte-identical, and no file added
    assert list(private_tmp.iterdir()) == []  # the private copy of a -wal store is gone


def test_the_child_really_cannot_write_the_folder(tmp_path):
    """The premise of the tests above: the child is held to the folder's permission bits."""
    folder = tmp_path / "locked"
    folder.mkdir()
    make_unwritable(folder)
    try:
        probe = run_python_held_to_permissions(ENFORCED_CHECK, str(folder))
    finally:
        make_writable(folder)
    assert probe.returncode == 0, probe.stderr
    assert list(folder.iterdir()) == []


def _refused_stores(folder: Path, demo_store: Path) -> dict[str, Path]:
    data = demo_store.read_bytes()
    folder.mkdir()
    stores = {"truncated": data[: len(data) // 2], "one page": data[:4096 * 2],
              "smashed": data[:4096] + b"\xde\xad" * 2048 + data[8192:]}
    paths = {}
    for name, blob in stores.items():
        paths[name] = folder / f"{name.replace(' ', '-')}.db"
        paths[name].write_bytes(blob)
    other = folder / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA journal_mode=wal")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    paths["not a store"] = other
    return paths


@pytest.mark.parametrize("how", ["read-only flag", "read-only file", "writable"])
def test_a_refused_open_leaves_no_side_files(tmp_path, demo_store, how):
    paths = _refused_stores(tmp_path / "bad", demo_store)
    if how == "read-only file":
        for path in paths.values():
            path.chmod(0o444)
    before = _digests(tmp_path / "bad")
    for name, path in paths.items():
        with pytest.raises(StoreError) as refused:
            open_store(path, read_only=how == "read-only flag")
        assert "\n" not in str(refused.value), name
    assert _digests(tmp_path / "bad") == before  # no -wal / -shm left, every file byte-identical


def test_side_files_that_were_there_are_left_alone(tmp_path, demo_store):
    """A refusal removes only what memgui's open made: a -wal / -shm already beside the file stay."""
    paths = _refused_stores(tmp_path / "bad", demo_store)
    path = paths["truncated"]
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").write_bytes(b"")
    before = _digests(path.parent)
    with pytest.raises(StoreError):
        open_store(path, read_only=True)
    assert _digests(path.parent) == before
