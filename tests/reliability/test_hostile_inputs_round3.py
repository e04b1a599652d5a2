"""Hostile inputs, round three (issue 26): ids are exact strings on every command, a $NETCLAW_HOME that names no
folder is refused rather than replaced by the demo, and a read-only command leaves the store's folder holding
exactly the files it held (no `-wal` / `-shm` of its own), whether it answered or refused. Each refusal is one line
on stderr and exit 2, and the store's bytes are unchanged."""
from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels

A, B = demo_labels()["duplicate_clusters"][0][:2]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    path = build_demo_store(tmp_path_factory.mktemp("round3") / "netclaw.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert not Path(f"{path}-wal").exists()
    return path


@pytest.fixture
def store(demo, tmp_path) -> str:
    """A copy of the demo store alone in its folder, closed cleanly (a WAL store with no -wal / -shm)."""
    folder = tmp_path / "store"
    folder.mkdir()
    shutil.copyfile(demo, folder / "netclaw.db")
    return str(folder / "netclaw.db")


def _folder(store: str) -> dict[str, str]:
    """Every file beside the store, by name, with its bytes' digest."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(store).parent.iterdir())}


def _run(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _one_line_exit_2(capsys, argv, store: str) -> str:
    before = _folder(store)
    code = _run(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, f"exit {code}, stderr {err[-400:]!r}"
    assert len(lines) == 1 and lines[0].startswith("memgui: ") and "Traceback" not in err, err[-400:]
    assert _folder(store) == before, "the store's folder changed"
    return lines[0]


# ---- 1. a document id is matched exactly as given, on every command --------------------------------------------

@pytest.mark.parametrize("argv", [
    ["merge", "--target", f" {A} ", "--sources", B, "--append"],
    ["merge", "--target", A, "--sources", f"{B} ", "--append"],
    ["merge", "--target", A, "--sources", f"{B},", "--append"],
    ["merge", "--target", A, "--sources", f"\u00a0{B}", "--append"],
    ["diff", "--docs", f"{A}, {B}"],
    ["decide", "--docs", f"{A},{B}\t", "--draft", "union"],
    ["audit", "--document", f" {A}"],
], ids=["merge target", "merge source", "merge empty source", "merge no-break space", "diff", "decide", "audit"])
def test_an_id_with_whitespace_around_it_is_refused_naming_it(store, capsys, argv):
    line = _one_line_exit_2(capsys, [argv[0], "--store", store, *argv[1:]], store)
    assert "document id" in line and (A in line or B in line or "empty" in line), line


def test_the_same_ids_without_the_whitespace_work(store, capsys):
    assert _run(["merge", "--store", store, "--target", A, "--sources", B, "--append"]) == 0
    assert "merge" in capsys.readouterr().out


@pytest.mark.parametrize("audit_id", [" 1 ", "1_0", "\u0661", "+\uff11"], ids=["spaces", "underscore", "arabic", "fullwidth"])
def test_an_audit_id_is_ascii_digits_as_memgui_prints_them(store, capsys, audit_id):
    """`undo ١` was taken for `undo 1`: it would undo a write the user never named."""
    assert _run(["merge", "--store", store, "--target", A, "--sources", B, "--append"]) == 0
    capsys.readouterr()
    for command in ("undo", "redo"):
        line = _one_line_exit_2(capsys, [command, "--store", store, audit_id], store)
        assert "not an integer" in line, line


# ---- 2. a $NETCLAW_HOME that is not there is refused, not replaced by the demo ------------------------------------

@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_netclaw_home_that_names_no_folder_is_refused(store, tmp_path, monkeypatch, capsys, kind):
    named = tmp_path / "typo-home"
    if kind == "a file":
        named.write_text("not a folder")
    monkeypatch.setenv("NETCLAW_HOME", str(named))
    data = tmp_path / "data"
    monkeypatch.setenv("MEMGUI_DATA_DIR", str(data))
    for argv in (["info"], ["audit"], ["diff", "--docs", f"{A},{B}"]):
        line = _one_line_exit_2(capsys, argv, store)
        assert "NETCLAW_HOME" in line and str(named) in line, line
    assert not data.exists()  # no demo store was built in its place
    assert _run(["info", "--store", store]) == 0  # naming the store still works
    monkeypatch.delenv("NETCLAW_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _run(["info"]) == 0  # nothing named at all: the demo, as the README says
    assert (data / "demo" / "netclaw.db").is_file()


def test_a_netclaw_home_whose_store_is_a_folder_is_refused(store, tmp_path, monkeypatch, capsys):
    home = tmp_path / "home-with-a-folder"
    (home / "netclaw.db").mkdir(parents=True)
    monkeypatch.setenv("NETCLAW_HOME", str(home))
    monkeypatch.setenv("MEMGUI_DATA_DIR", str(tmp_path / "data"))
    assert "is a directory" in _one_line_exit_2(capsys, ["info"], store)
    assert not (tmp_path / "data").exists()


# ---- 3. a read-only command leaves the folder as it found it ------------------------------------------------------

READ_ONLY_REFUSALS = [
    ["diff", "--docs", f"{A},doc-nope"],
    ["decide", "--docs", f"{A},doc-nope", "--draft", "union"],
    ["audit", "--daemon-logs", "/nonexistent-logs"],
    ["undo", "999"],
    ["undo-batch", "never-written"],
]


@pytest.mark.parametrize("argv", READ_ONLY_REFUSALS, ids=lambda a: " ".join(a[:2]))
def test_a_refused_command_leaves_no_side_files(store, capsys, argv):
    _one_line_exit_2(capsys, [argv[0], "--store", store, *argv[1:]], store)
    assert sorted(p.name for p in Path(store).parent.iterdir()) == ["netclaw.db"]


@pytest.mark.parametrize("argv", [
    ["info"], ["info", "--json"], ["audit"], ["diff", "--docs", f"{A},{B}"],
    ["decide", "--docs", f"{A},{B}", "--draft", "union"],
], ids=lambda a: " ".join(a))
def test_a_read_only_command_that_answers_leaves_no_side_files(store, capsys, argv):
    before = _folder(store)
    assert _run([argv[0], "--store", store, *argv[1:]]) == 0
    capsys.readouterr()
    assert _folder(store) == before  # exactly netclaw.db, byte for byte: no -wal / -shm left behind


def test_a_reader_leaves_the_side_files_of_a_writer_that_is_still_open(store, capsys):
    """The daemon has the store open: its -wal and -shm are its own, and stay (the reader is not the last one)."""
    daemon = sqlite3.connect(store)
    daemon.execute("PRAGMA wal_autocheckpoint = 0")
    daemon.execute("UPDATE memory_documents SET confidence = 0.25 WHERE document_id = ?", (B,))
    daemon.commit()
    before = _folder(store)
    before.pop("netclaw.db-shm")
    try:
        assert _run(["diff", "--store", store, "--docs", f"{A},{B}"]) == 0
        after = _folder(store)
        assert after.pop("netclaw.db-shm") and after == before  # the -wal's commits are still there, unfolded
    finally:
        daemon.close()
    capsys.readouterr()
