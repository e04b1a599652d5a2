"""Hostile inputs, round three (issue 26): ids are exact strings on every command, a $NETCLAW_HOME that names no
folder is refused rather than replaced by the demo, and a read-only command leaves the store's folder holding
exactly the files it held (no `-wal` / `-shm` of its own), whether it answered or refused. Each refusal is one line
on stderr and exit 2, and the store's bytes are unchanged."""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import demo_labels

A, B = demo_labels()["duplicate_clusters"][0][:2]


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


# ---- files a user hands it: a BOM, a key given twice, a NUL ------------------------------------------------------

def _draft(store: str, capsys) -> dict:
    assert _run(["decide", "--store", store, "--docs", f"{A},{B}", "--draft", "union", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _body_of(store: str, doc_id: str) -> str:
    conn = sqlite3.connect(store)
    try:
        return conn.execute("SELECT markdown_body FROM memory_documents WHERE document_id = ?", (doc_id,)).fetchone()[0]
    finally:
        conn.close()


def test_a_bom_an_editor_wrote_is_no_part_of_the_body(store, tmp_path, capsys):
    """Notepad saves UTF-8 with a BOM: the draft and stamps are read, and the body is stored without U+FEFF."""
    draft = _draft(store, capsys)
    body, stamps = tmp_path / "body.md", tmp_path / "stamps.json"
    body.write_bytes(b"\xef\xbb\xbf" + draft["merged_body"].encode())
    stamps.write_bytes(b"\xef\xbb\xbf" + json.dumps(draft["stamps"]).encode())
    assert _run(["merge", "--store", store, "--target", A, "--sources", B, "--body-file", str(body),
                 "--expect-stamps", str(stamps)]) == 0
    assert _body_of(store, A) == draft["merged_body"]


def test_a_draft_with_a_bom_is_read(store, tmp_path, capsys):
    draft = _draft(store, capsys)
    path = tmp_path / "draft.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(draft).encode())
    assert _run(["merge", "--store", store, "--target", A, "--sources", B, "--draft", str(path)]) == 0
    assert _body_of(store, A) == draft["merged_body"]


@pytest.mark.parametrize("key", ["merged_body", "stamps"])
def test_a_key_given_twice_is_refused(store, tmp_path, capsys, key):
    """Which of the two a reader sees cannot be told: a body nobody reviewed, or stamps nobody read, could be
    written. Here the second body keeps every token (the guard would pass it)."""
    draft = _draft(store, capsys)
    second = draft["merged_body"] + "\n\nAn unreviewed sentence." if key == "merged_body" else draft["stamps"]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(draft)[:-1] + f", {json.dumps(key)}: {json.dumps(second)}}}")
    line = _one_line_exit_2(capsys, ["merge", "--store", store, "--target", A, "--sources", B, "--draft", str(path)],
                            store)
    assert "given twice" in line and key in line, line


def test_a_stamp_given_twice_in_a_stamps_file_is_refused(store, tmp_path, capsys):
    draft = _draft(store, capsys)
    good = json.dumps(draft["stamps"][A])
    stale = json.dumps({"updated_at": 1, "content_hash": "0" * 64})
    path = tmp_path / "stamps.json"
    path.write_text(f'{{"{A}": {stale}, "{A}": {good}, "{B}": {json.dumps(draft["stamps"][B])}}}')
    body = tmp_path / "body.md"
    body.write_text(draft["merged_body"])
    line = _one_line_exit_2(capsys, ["merge", "--store", store, "--target", A, "--sources", B, "--body-file",
                                     str(body), "--expect-stamps", str(path)], store)
    assert "given twice" in line and A in line, line


@pytest.mark.parametrize("where", ["body file", "draft"])
def test_a_body_holding_a_nul_is_refused(store, tmp_path, capsys, where):
    draft = _draft(store, capsys)
    if where == "body file":
        body = tmp_path / "body.md"
        body.write_bytes(draft["merged_body"].encode() + b"\x00\x01binary")
        argv = ["--body-file", str(body), "--force"]
    else:
        path = tmp_path / "draft.json"
        path.write_text(json.dumps({**draft, "merged_body": draft["merged_body"] + "\x00tail"}))
        argv = ["--draft", str(path)]
    line = _one_line_exit_2(capsys, ["merge", "--store", store, "--target", A, "--sources", B, *argv], store)
    assert "NUL" in line, line


# ---- a store whose document id is held by two rows ------------------------------------------------------------

@pytest.fixture
def twice_held(store) -> str:
    """memory_documents rebuilt without its primary key (another tool), and A's row copied with another body."""
    conn = sqlite3.connect(store)
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute("ALTER TABLE memory_documents RENAME TO old_documents")
    columns = [row[1] for row in conn.execute("PRAGMA table_info(old_documents)")]
    conn.execute(f"CREATE TABLE memory_documents ({', '.join(columns)})")
    conn.execute("INSERT INTO memory_documents SELECT * FROM old_documents")
    conn.execute("INSERT INTO memory_documents SELECT * FROM old_documents WHERE document_id = ?", (A,))
    conn.execute("UPDATE memory_documents SET markdown_body = 'another body' WHERE rowid = "
                 "(SELECT max(rowid) FROM memory_documents)")
    conn.execute("DROP TABLE old_documents")
    conn.commit()
    conn.close()
    return store


@pytest.mark.parametrize("argv", [
    ["diff", "--docs", f"{A},{B}"],
    ["decide", "--docs", f"{A},{B}", "--draft", "union"],
    ["merge", "--target", B, "--sources", A, "--append"],
], ids=lambda a: a[0])
def test_an_id_two_rows_hold_is_refused_not_read_as_either(twice_held, capsys, argv):
    line = _one_line_exit_2(capsys, [argv[0], "--store", twice_held, *argv[1:]], twice_held)
    assert A in line and "more than one row" in line, line


# ---- standard streams: output that cannot be written, stderr closed ----------------------------------------------

def _memgui_shell(redirect: str, *argv: str) -> subprocess.CompletedProcess:
    """`python -m memgui ARGV` with the shell redirection `redirect` (e.g. `>&-`, `> /dev/full`, `2>&-`)."""
    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "memgui", *argv))
    return subprocess.run(["sh", "-c", f"exec {command} {redirect}"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("redirect", ["> /dev/full", ">&-"], ids=["full device", "closed"])
def test_an_answer_that_cannot_be_printed_is_not_exit_0(store, redirect):
    """`memgui info > /dev/full` (a full disk) or with stdout closed said nothing and crashed with a traceback."""
    proc = _memgui_shell(redirect, "info", "--store", store)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "standard output" in lines[0], proc.stderr[-500:]


def test_a_closed_stderr_is_no_crash(store, tmp_path):
    """accept-safe's progress went to a closed stderr: AttributeError, exit 1, the plan never printed."""
    proc = _memgui_shell("2>&-", "accept-safe", "--store", store, "--dry-run", "--limit", "1", "--no-supersede")
    assert proc.returncode == 0 and "dry run: nothing was written" in proc.stdout, proc.stdout[-500:]
    refused = _memgui_shell("2>&-", "diff", "--store", store, "--docs", f"{A},doc-nope")
    assert refused.returncode == 2 and refused.stdout == ""  # the refusal is not printed on stdout instead


# ---- a title holding terminal control sequences is shown, not obeyed ----------------------------------------------

EVIL_TITLE = "Evil \x1b]0;retitled\x07 title \x9b2J and \rover"


def test_control_characters_in_a_title_reach_no_terminal(store, capsys):
    conn = sqlite3.connect(store)
    conn.execute("UPDATE memory_documents SET title = ? WHERE document_id = ?", (EVIL_TITLE, A))
    conn.commit()
    conn.close()
    assert _run(["diff", "--store", store, "--docs", f"{A},{B}"]) == 0
    out = capsys.readouterr().out
    assert "\\x1b]0;retitled\\x07" in out and not any(c in out for c in "\x1b\x07\x9b\r")
    assert _run(["diff", "--store", store, "--docs", f"{A},{B}", "--json"]) == 0
    text = capsys.readouterr().out
    assert not any(c in text for c in "\x1b\x07\x9b\r")
    assert _run(["decide", "--store", store, "--docs", f"{A},{B}", "--draft", "union", "--json"]) == 0
    draft = capsys.readouterr().out
    assert "\x9b" not in draft and json.loads(draft)["stamps"][A]  # JSON escapes: the value reads back the same
    line = _one_line_exit_2(capsys, ["diff", "--store", store, "--docs", f"{A},doc-\x1b[2J"], store)
    assert "\x1b" not in line and "\\x1b[2J" in line


def test_an_empty_store_path_is_refused_not_the_demo(store, tmp_path, monkeypatch, capsys):
    """`memgui info --store "$STORE"` with $STORE unset opened the located store (here the demo) with exit 0."""
    monkeypatch.setenv("MEMGUI_DATA_DIR", str(tmp_path / "data"))
    for argv in (["info", "--store", ""], ["--store", "", "audit"], ["diff", "--store", "", "--docs", f"{A},{B}"],
                 ["--store", ""], ["--store", "", "--screenshot", str(tmp_path / "w.png")]):  # the window too
        assert "--store: an empty path" in _one_line_exit_2(capsys, argv, store)
    assert not (tmp_path / "data").exists() and not (tmp_path / "w.png").exists()
