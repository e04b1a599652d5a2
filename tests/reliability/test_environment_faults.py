"""The environment failing while memgui writes (issue 26, round four), tried from outside through
`python -m memgui …`: a file-size limit hit in the middle of a write (RLIMIT_FSIZE, SIGXFSZ ignored, so SQLite gets
EFBIG writing the `-wal`) and a full file system (a small tmpfs, when this machine lets the test mount one).

After each: every table reads as before (not the raw bytes: SQLite may legitimately reset a `-wal`), the message is
one line naming the cause (never the rollback that hid it), no file is left half-written, and the next command
works."""
from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memgui.core.store.demo import demo_labels

A, B = demo_labels()["duplicate_clusters"][0][:2]
DISK_WORDS = ("disk I/O error", "database or disk is full")


def _copy(demo: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(demo, folder / "netclaw.db")
    return folder / "netclaw.db"


def _tables(path: Path) -> dict[str, list[str]]:
    """Every row of every table but FTS5's own shadow tables, as text: the store's content, whatever the pages."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%'")]
        return {n: sorted(map(repr, conn.execute(f'SELECT * FROM "{n}"'))) for n in sorted(names)}
    finally:
        conn.close()


def _memgui(argv: list[str], *, file_size_limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # pragma: no cover - runs in the child between fork and exec
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed by the signal
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run([sys.executable, "-m", "memgui", *argv], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit)


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (result.returncode, result.stderr[-600:])
    assert len(lines) == 1 and lines[0].startswith("memgui: ") and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# ---- 1. a file-size limit hit while the -wal grows: nothing written, the cause named ---------------------------

WRITES = {
    "merge --append": (["merge", "--target", A, "--sources", B, "--append"], False),
    "merge --union": (["merge", "--target", A, "--sources", B, "--union"], False),
    "undo": (["undo", "1"], True),
}


@pytest.mark.parametrize("name", list(WRITES))
def test_a_file_size_limit_mid_write_changes_nothing_and_says_why(demo, tmp_path, name):
    argv, needs_merge = WRITES[name]
    store = _copy(demo, tmp_path / "store")
    if needs_merge:
        assert _memgui(["merge", "--store", str(store), "--target", A, "--sources", B, "--append"]).returncode == 0
        conn = sqlite3.connect(store)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the -wal starts empty: the write below must grow it
        conn.close()
    before = _tables(store)
    # the -shm (32 KB) can be made, the write's -wal frames cannot
    failed = _memgui([argv[0], "--store", str(store), *argv[1:]], file_size_limit=60_000)
    line = _one_line(failed)
    assert "write failed" in line and any(w in line for w in DISK_WORDS) and "nothing was written" in line, line
    assert "cannot rollback" not in line, line  # the rollback SQLite had already done hid the reason
    assert _tables(store) == before
    again = _memgui([argv[0], "--store", str(store), *argv[1:]])
    assert again.returncode == 0, again.stderr
    assert _tables(store) != before


def test_demo_on_a_file_size_limit_is_one_line_and_leaves_no_file(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    for limit in (50_000, 300_000):  # the schema cannot be created / the rows cannot be written
        line = _one_line(_memgui(["demo", "--out", str(folder / "netclaw.db")], file_size_limit=limit))
        assert str(folder / "netclaw.db") in line and "building" not in line, line
        assert any(w in line for w in DISK_WORDS), line
        assert list(folder.iterdir()) == []
    assert _memgui(["demo", "--out", str(folder / "netclaw.db")]).returncode == 0


# ---- 2. a full file system (tmpfs) ------------------------------------------------------------------------------

@pytest.fixture
def small_fs(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def _fill(mount: Path, leave: int) -> Path:
    st = os.statvfs(mount)
    filler = mount / "filler"
    filler.write_bytes(b"\0" * max(0, st.f_bavail * st.f_frsize - leave))
    return filler


def test_a_full_disk_mid_merge_changes_nothing_and_says_so(demo, small_fs):
    store = _copy(demo, small_fs / "store")
    before = _tables(store)
    filler = _fill(small_fs, 16_384)
    line = _one_line(_memgui(["merge", "--store", str(store), "--target", A, "--sources", B, "--union"]))
    assert "database or disk is full" in line and "nothing was written" in line, line
    assert _tables(store) == before
    filler.unlink()
    assert _memgui(["merge", "--store", str(store), "--target", A, "--sources", B, "--union"]).returncode == 0


# ---- 3. an output file whose disk fills half way: no truncated file under the asked-for name ----------------------

@contextmanager
def _file_size_limit(limit: int) -> Iterator[None]:
    """This process's writes past `limit` bytes fail with EFBIG (SIGXFSZ ignored) until the block ends."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def _big_plan():
    from memgui.core.ops.batch import BatchPlan, PlannedWrite

    body = "Backups run nightly at 02:00 UTC on the NAS. " * 400  # ≈ 18 KB: past the limit below
    write = PlannedWrite("c1", A, [B], "UPDATE", body, 1.0, {"passed": True}, {"passed": True},
                         {A: {"updated_at": 1, "content_hash": "x"}, B: {"updated_at": 1, "content_hash": "y"}}, "model")
    return BatchPlan("batch-1", "2026-01-01T00:00:00Z", [write], [])


@pytest.mark.parametrize("name", ["plan.md", "plan.json"])
def test_the_windows_plan_export_on_a_full_disk_leaves_no_half_file(qtbot, tmp_path, name):
    from memgui.gui.review.bulk_preview import BulkPreviewDialog

    target = tmp_path / name
    dialog = BulkPreviewDialog(_big_plan(), "the whole queue", None, choose_export_path=lambda _d: str(target))
    qtbot.addWidget(dialog)
    with _file_size_limit(4096):
        dialog.export()
    assert dialog.export_button.text() == "Export failed" and dialog.exported is None
    assert list(tmp_path.iterdir()) == []  # neither a truncated plan nor the temporary file
    target.write_text("the earlier export\n")
    with _file_size_limit(4096):
        dialog.export()
    assert target.read_text() == "the earlier export\n" and list(tmp_path.iterdir()) == [target]
    dialog.export()
    assert dialog.exported == target and len(target.read_text()) > 4096


# ---- 4. the store file deleted, moved or replaced while memgui (the window) holds it open -----------------------

@pytest.mark.parametrize("how", ["deleted", "moved", "replaced", "replaced by a copy"])
def test_a_write_to_a_store_whose_file_went_away_is_refused(demo, tmp_path, how):
    """SQLite keeps writing the file it opened: before, the merge was committed into a deleted inode or a `-wal` the
    replacement then replayed, with exit 0 / no message. Now it is refused before the commit, and no file changes."""
    from memgui.core.ops.apply import MODE_UNION, MergePlan, draft_stamps, merge_cluster
    from memgui.core.store import StoreError, open_store

    path = _copy(demo, tmp_path / "store")
    other = _copy(demo, tmp_path / "other")
    if how == "replaced":
        conn = sqlite3.connect(other)
        conn.execute("UPDATE memory_documents SET title = title || ' (restored)'")
        conn.commit()
        conn.close()
    store = open_store(path)
    try:
        drafted = draft_stamps(store, [A, B])  # read the cluster, as the window's review did
        if how == "deleted":
            path.unlink()
        elif how == "moved":
            path.rename(tmp_path / "store" / "moved.db")
        else:
            os.replace(other, path)
        left = _tables(path) if path.exists() else None
        with pytest.raises(StoreError, match="deleted, moved or replaced") as refused:
            merge_cluster(store, MergePlan(A, (B,), mode=MODE_UNION, drafted=drafted))
        assert "\n" not in str(refused.value)
    finally:
        store.close()
    if left is not None:
        assert _tables(path) == left  # its -wal holds nothing of the other file's
    moved = tmp_path / "store" / "moved.db"
    if moved.exists():
        assert "memgui_audit" not in _tables(moved)
    if path.exists():
        with open_store(path) as again:  # opened again, the write goes to the file at the path
            merge_cluster(again, MergePlan(A, (B,), mode=MODE_UNION, drafted=draft_stamps(again, [A, B])))
        assert len(_tables(path)["memgui_audit"]) == 1


# ---- 5. Ctrl+C: at any moment a clean exit 130, never a traceback --------------------------------------------

_INTERRUPTED_WHILE_LOADING = '''
import runpy, sys

class CtrlC:  # Ctrl+C arrives while memgui's modules load (most of a short command's time)
    def find_spec(self, name, path=None, target=None):
        if name == "memgui.core.ops.apply":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["memgui", *sys.argv[1:]]
runpy.run_module("memgui", run_name="__main__", alter_sys=True)
'''


def test_ctrl_c_while_the_modules_load_is_exit_130_without_a_traceback(demo, tmp_path):
    store = _copy(demo, tmp_path / "store")
    before = _tables(store)
    cut = subprocess.run([sys.executable, "-c", _INTERRUPTED_WHILE_LOADING, "merge", "--store", str(store),
                          "--target", A, "--sources", B, "--union"], capture_output=True, text=True, timeout=60)
    assert cut.returncode == 130 and "Traceback" not in cut.stderr, (cut.returncode, cut.stderr[-600:])
    assert _tables(store) == before


# ---- 6. the system clock set back: every write still moves updated_at forward ------------------------------------

def test_a_clock_set_back_still_moves_every_written_documents_time_forward(demo, tmp_path, monkeypatch):
    """Netclaw's readers (the daemon's re-embed, a reviewer's stamps) see a rewrite by updated_at: a clock set back
    a year must not give a merged or tombstoned document an older time than it had (the audit is ordered by its id,
    not its time, so undo and batches are unaffected)."""
    from memgui.core.ops.apply import MODE_UNION, MergePlan, draft_stamps, merge_cluster
    from memgui.core.ops.undo import undo
    from memgui.core.store import netclaw_writes, open_store

    path = _copy(demo, tmp_path / "store")
    with open_store(path) as store:
        before = {d: store.document(d).updated_at for d in (A, B)}
        monkeypatch.setattr(netclaw_writes, "now_ms", lambda: min(before.values()) - 365 * 86_400_000)
        entry = merge_cluster(store, MergePlan(A, (B,), mode=MODE_UNION, drafted=draft_stamps(store, [A, B])))
        after = {d: store.document(d).updated_at for d in (A, B)}
        assert all(after[d] > before[d] for d in (A, B)), (before, after)
        undo(store, entry.audit_id)
        assert {d: store.document(d).updated_at for d in (A, B)} == before  # undo restores exactly


# ---- 7. Ctrl+C / SIGTERM in the middle of an accept-safe batch ---------------------------------------------------

def _plan_file(store_path: Path, folder: Path, n: int = 4) -> tuple[Path, str]:
    """An accept-safe plan of `n` two-document merges whose body keeps both sources whole (MergeGuard and the
    lens pass), as `accept-safe --dry-run --json` would save it."""
    import json

    from memgui.core.ops.apply import draft_stamps
    from memgui.core.ops.batch import BatchPlan, PlannedWrite
    from memgui.core.store import open_store

    pairs = [c[:2] for c in demo_labels()["duplicate_clusters"][:n]]
    with open_store(store_path, read_only=True) as store:
        writes = []
        for i, (a, b) in enumerate(pairs):
            da, db = store.document(a), store.document(b)
            stamps = {d: {"content_hash": s.content_hash, "updated_at": s.updated_at}
                      for d, s in draft_stamps(store, [a, b]).items()}
            writes.append(PlannedWrite(f"c{i}", a, [b], "UPDATE", f"{da.markdown_body}\n\n{db.markdown_body}", 1.0,
                                       {"passed": True}, {"passed": True}, stamps, "model"))
    plan = BatchPlan("20260101-000000-beef", "2026-01-01T00:00:00Z", writes, [])
    path = folder / "plan.json"
    path.write_text(json.dumps(plan.to_dict()))
    return path, plan.batch_id


_SIGNAL_IN_SECOND_WRITE = '''
import os, signal, sys
from memgui.core.ops import batch

real, calls = batch.merge_cluster, []

def merge_cluster(*args, **kwargs):  # the signal arrives while the second write is being made
    calls.append(1)
    if len(calls) == 2:
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    return real(*args, **kwargs)

batch.merge_cluster = merge_cluster
from memgui.__main__ import main
sys.exit(main(sys.argv[2:]))
'''


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_mid_batch_stops_between_writes_and_says_what_was_written(demo, tmp_path, sig):
    store = _copy(demo, tmp_path / "store")
    plan, batch_id = _plan_file(store, tmp_path)
    before = _tables(store)
    cut = subprocess.run([sys.executable, "-c", _SIGNAL_IN_SECOND_WRITE, sig, "accept-safe", "--store", str(store),
                          "--plan", str(plan)], capture_output=True, text=True, timeout=120)
    assert cut.returncode == 128 + getattr(signal, sig), (cut.returncode, cut.stderr[-600:])
    assert "Traceback" not in cut.stderr
    assert f"stopped by {sig} after 2 of 4 write(s) of batch {batch_id}" in cut.stderr, cut.stderr
    assert f"undo-batch --store {store} {batch_id}" in cut.stdout  # the two it wrote, and how to undo them
    assert len(_tables(store)["memgui_audit"]) == 2
    undone = _memgui(["undo-batch", "--store", str(store), batch_id])
    assert undone.returncode == 0, undone.stderr
    after = _tables(store)
    assert {t: rows for t, rows in after.items() if not t.startswith("memgui_")} == before
