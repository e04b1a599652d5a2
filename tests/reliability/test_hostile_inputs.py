"""Inputs an outside tester handed memgui that the other reliability tests do not name: a store whose `-wal` still
holds commits, document rows of types Netclaw never writes (a BLOB body, a number as a title, text as a time, NULL
ids), an updated_at at SQLite's largest integer, an infinite confidence, tables of Netclaw's or memgui's names that
another tool made, a body longer than an audit row holds, and files that are named pipes or endless devices. Each
is one line on stderr and exit 2 (or a normal answer), and the store's bytes — its `-wal` too — are unchanged."""
from __future__ import annotations

import os
import shutil
import sqlite3
import threading

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import demo_labels

A, B = demo_labels()["duplicate_clusters"][0][:2]
GOOD = "The atlas-sync repository is hosted on GitHub."


def _store(demo, tmp_path, *statements, params=()) -> str:
    """A copy of the demo store with `statements` run on it (closed: no -wal, no -shm)."""
    path = tmp_path / "netclaw.db"
    shutil.copy(demo, path)
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement, params if "?" in statement else ())
    conn.commit()
    conn.close()
    return str(path)


def _files(store: str) -> dict[str, bytes]:
    """The store's bytes and its -wal's, when it holds any (a reader leaves an empty one; the -shm is SQLite's
    shared-memory index, rebuilt by any reader)."""
    return {s: open(store + s, "rb").read() for s in ("", "-wal") if os.path.exists(store + s)
            and (s == "" or os.path.getsize(store + s) > 0)}


def run(argv) -> tuple[int, str]:
    try:
        return main(argv), ""
    except SystemExit as exc:
        return int(exc.code or 0), ""


def _one_line_exit_2(capsys, argv, store: str, name: str) -> str:
    before = _files(store)
    code, _ = run(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.strip().splitlines() if not line.startswith(("loading", "lexical", "indexing", "\r"))]
    assert code == 2, f"{name}: exit {code}, stderr {err[-400:]!r}"
    assert len(lines) == 1 and lines[0].startswith("memgui: ") and "Traceback" not in err, f"{name}: {err[-400:]!r}"
    assert _files(store) == before, f"{name} changed the store"
    return lines[0]


# ---- a store whose -wal still holds commits (Netclaw stopped without a checkpoint) ------------------------------

@pytest.fixture
def wal_store(demo, tmp_path):
    """A copy of a store taken while its writer was open: commits only in the -wal."""
    work = tmp_path / "writer.db"
    shutil.copy(demo, work)
    conn = sqlite3.connect(work)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("UPDATE memory_documents SET confidence = 0.5 WHERE document_id = ?", (B,))
    conn.commit()
    store = tmp_path / "netclaw.db"
    for suffix in ("", "-wal"):
        shutil.copy(str(work) + suffix, str(store) + suffix)
    conn.close()
    assert os.path.getsize(str(store) + "-wal") > 0
    return str(store)


@pytest.mark.parametrize("argv", [
    ["undo-batch", "never-written"],
    ["undo", "999"],
    ["redo", "999"],
    ["merge", "--target", "doc-nope", "--sources", B, "--append"],
    ["merge", "--target", A, "--sources", B, "--append", "--note", "accept-safe batch x"],
], ids=lambda a: " ".join(a[:2]))
def test_a_refused_write_leaves_a_wal_with_commits_byte_for_byte(wal_store, capsys, argv):
    _one_line_exit_2(capsys, [argv[0], "--store", wal_store, *argv[1:]], wal_store, argv[0])
    assert os.path.getsize(wal_store + "-wal") > 0


def test_a_write_still_reads_the_commits_of_the_wal(wal_store, capsys):
    assert main(["merge", "--store", wal_store, "--target", A, "--sources", B, "--append"]) == 0
    conn = sqlite3.connect(wal_store)
    assert conn.execute("SELECT confidence FROM memory_documents WHERE document_id = ?", (B,)).fetchone() == (0.5,)
    conn.close()


# ---- rows of types Netclaw never writes ----------------------------------------------------------------------

UNTYPED = [  # memory_documents rebuilt without type affinity, so a value keeps the type it is given
    "PRAGMA legacy_alter_table = ON",
    "ALTER TABLE memory_documents RENAME TO old_documents",
    "CREATE TABLE memory_documents (document_id, anchor_id, memory_class, title, markdown_body, aliases_json, "
    "facets_json, slots_json, update_semantics, boundary, audience, sensitivity, recall_mode, confidence, "
    "freshness_at, expires_at, created_at, updated_at)",
    "INSERT INTO memory_documents SELECT * FROM old_documents",
    "DROP TABLE old_documents",
]
ROWS = {
    "a BLOB body": "markdown_body = x'00ff10'",
    "a number as the body": "markdown_body = 42",
    "a BLOB title": "title = x'c328'",
    "a number as the title": "title = 7",
    "a BLOB anchor id": "anchor_id = x'61'",
    "a NULL anchor id": "anchor_id = NULL",
    "a number as the anchor id": "anchor_id = 12",
    "updated_at as a word": "updated_at = 'yesterday'",
    "updated_at as digits in text": "updated_at = '1736848925000'",
    "a BLOB updated_at": "updated_at = x'00'",
    "a NULL updated_at": "updated_at = NULL",
    "a NULL created_at": "created_at = NULL",
}
COMMANDS = {
    "merge": lambda s: ["merge", "--store", s, "--target", A, "--sources", B, "--append"],
    "merge --union": lambda s: ["merge", "--store", s, "--target", B, "--sources", A, "--union"],
    "decide": lambda s: ["decide", "--store", s, "--docs", f"{A},{B}", "--draft", "union", "--json"],
    "diff": lambda s: ["diff", "--store", s, "--docs", f"{A},{B}"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("kind", list(ROWS))
def test_a_document_row_of_another_type_is_one_line_exit_2(demo, tmp_path, capsys, kind, command):
    store = _store(demo, tmp_path, *UNTYPED, f"UPDATE memory_documents SET {ROWS[kind]} WHERE document_id = '{A}'")
    line = _one_line_exit_2(capsys, COMMANDS[command](store), store, f"{command} on {kind}")
    assert A in line and "memgui cannot use this row" in line


@pytest.mark.parametrize("kind", ["a NULL document id", "a number as the document id", "updated_at as a word"])
def test_scan_names_a_row_of_another_type(demo, tmp_path, capsys, kind):
    change = {"a NULL document id": "document_id = NULL", "a number as the document id": "document_id = 5",
              "updated_at as a word": "updated_at = 'soon'"}[kind]
    store = _store(demo, tmp_path, *UNTYPED, f"UPDATE memory_documents SET {change} WHERE document_id = '{A}'")
    line = _one_line_exit_2(capsys, ["scan", "--store", store, "--embedder", "default", "--json"], store, kind)
    assert "memgui cannot use this row" in line


def test_updated_at_at_sqlites_largest_integer_is_refused_not_overflowed(demo, tmp_path, capsys):
    store = _store(demo, tmp_path, f"UPDATE memory_documents SET updated_at = 9223372036854775807 WHERE document_id = '{A}'")
    for argv in (["merge", "--store", store, "--target", A, "--sources", B, "--append"],
                 ["merge", "--store", store, "--target", B, "--sources", A, "--union"]):
        assert "no later time can be written" in _one_line_exit_2(capsys, argv, store, argv[-1])


def test_an_infinite_confidence_is_refused_before_the_audit_row(demo, tmp_path, capsys):
    store = _store(demo, tmp_path, f"UPDATE memory_documents SET confidence = 1e308 * 10 WHERE document_id = '{A}'")
    line = _one_line_exit_2(capsys, ["merge", "--store", store, "--target", A, "--sources", B, "--append"], store, "inf")
    assert "infinite number" in line


# ---- tables of Netclaw's or memgui's names that another tool made -------------------------------------------

def test_checkpoints_without_a_status_column_still_summarise(demo, tmp_path, capsys):
    store = _store(demo, tmp_path, "DROP INDEX idx_memory_checkpoints_pending",
                   "ALTER TABLE memory_checkpoints DROP COLUMN status")
    assert main(["info", "--store", store, "--json"]) == 0
    assert '"checkpoints": {}' in capsys.readouterr().out


def test_an_fts_table_without_its_id_column_refuses_the_write(demo, tmp_path, capsys):
    store = _store(demo, tmp_path, "DROP TABLE memory_documents_fts", "CREATE TABLE memory_documents_fts (x)")
    for argv in (["merge", "--store", store, "--target", A, "--sources", B, "--append"],
                 ["merge", "--store", store, "--target", B, "--sources", A, "--union"]):
        assert "memory_documents_fts table has no document_id" in _one_line_exit_2(capsys, argv, store, argv[-1])


@pytest.mark.parametrize("argv", [["audit"], ["undo-batch", "b1"], ["undo", "1"], ["audit", "--json", "--images"],
                                  ["merge", "--target", A, "--sources", B, "--append"]], ids=lambda a: " ".join(a))
def test_a_memgui_audit_table_memgui_did_not_make_is_one_line(demo, tmp_path, capsys, argv):
    store = _store(demo, tmp_path, "CREATE TABLE memgui_audit (x)")
    line = _one_line_exit_2(capsys, [argv[0], "--store", store, *argv[1:]], store, argv[0])
    assert "memgui_audit" in line


# ---- a body longer than an audit row holds --------------------------------------------------------------------

def test_a_write_whose_audit_row_could_not_be_read_back_is_not_made(demo, tmp_path, capsys, monkeypatch):
    """The limit is lowered so the case is fast; before, the merge was committed and then reported as an error
    ("nothing was written"), and its audit row could never be read, so never undone."""
    from memgui.core.store import audit_texts

    monkeypatch.setattr(audit_texts, "MAX_TEXT_CHARS", 50_000)
    store = _store(demo, tmp_path, f"UPDATE memory_documents SET markdown_body = ? WHERE document_id = '{A}'",
                   params=("word " * 12_000,))
    line = _one_line_exit_2(capsys, ["merge", "--store", store, "--target", A, "--sources", B, "--append"], store,
                            "long body")
    assert "longer than the 50,000 an audit row holds" in line
    conn = sqlite3.connect(store)
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'memgui_audit'").fetchone() == (0,)
    conn.close()


# ---- files that are named pipes or endless devices -------------------------------------------------------------

def _fifo(tmp_path) -> str:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


FILE_ARGS = {
    "merge --body-file": lambda s, f: ["merge", "--store", s, "--target", A, "--sources", B, "--force",
                                       "--body-file", f],
    "merge --draft": lambda s, f: ["merge", "--store", s, "--target", A, "--sources", B, "--draft", f],
    "merge --expect-stamps": lambda s, f: ["merge", "--store", s, "--target", A, "--sources", B, "--append",
                                           "--expect-stamps", f],
    "accept-safe --plan": lambda s, f: ["accept-safe", "--store", s, "--no-reader", "--plan", f],
    "guard --source": lambda s, f: ["guard", "--source", f, "--merged", s + ".good"],
    "guard --merged": lambda s, f: ["guard", "--source", s + ".good", "--merged", f],
    "evaluate --content-file": lambda s, f: ["evaluate", "--store", s, "--embedder", "none", "--title", "t",
                                             "--content-file", f],
}


@pytest.mark.parametrize("device", ["a named pipe nobody writes to", "/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("option", list(FILE_ARGS))
def test_a_pipe_or_an_endless_device_is_one_line_not_a_hang(demo, tmp_path, capsys, option, device):
    store = _store(demo, tmp_path)
    with open(store + ".good", "w", encoding="utf-8") as fh:
        fh.write(GOOD)
    name = _fifo(tmp_path) if device.startswith("a named") else device
    result: list[tuple[int, str]] = []
    worker = threading.Thread(target=lambda: result.append(run(FILE_ARGS[option](store, name))), daemon=True)
    before = _files(store)
    worker.start()
    worker.join(60)
    if worker.is_alive():  # let the blocked open return, so the test run can end
        fd = os.open(name, os.O_WRONLY | os.O_NONBLOCK) if device.startswith("a named") else None
        worker.join(5)
        if fd is not None:
            os.close(fd)
        pytest.fail(f"{option} on {device}: still reading after 60 s")
    err = capsys.readouterr().err
    lines = [line for line in err.strip().splitlines() if not line.startswith(("loading", "lexical", "\r"))]
    if option.startswith("guard") and device.startswith("a named"):  # an empty body: the guard's own answer
        assert result[0][0] in (0, 1) and "Traceback" not in err, err[-300:]
    else:
        assert result[0][0] == 2, f"{option} on {device}: exit {result[0][0]}, {err[-300:]!r}"
        assert len(lines) == 1 and lines[0].startswith("memgui: "), err[-300:]
    assert _files(store) == before


def test_standard_input_beyond_the_limit_is_one_line(monkeypatch, capsys, tmp_path):
    import io

    from memgui.core.store import seams

    monkeypatch.setattr(seams, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"word " * 1000)))
    good = tmp_path / "good.md"
    good.write_text(GOOD, encoding="utf-8")
    assert main(["guard", "--source", str(good), "--merged", "-"]) == 2
    assert "standard input: larger than" in capsys.readouterr().err


# ---- a path that starts with the home folder of a user this system does not have ---------------------------------

@pytest.mark.parametrize("argv", [
    ["info", "--store", "~no-such-user-x/netclaw.db"],
    ["merge", "--store", "~no-such-user-x/netclaw.db", "--target", A, "--sources", B, "--append"],
    ["audit", "--store", "~no-such-user-x"],
], ids=lambda a: a[0])
def test_a_tilde_path_of_an_unknown_user_is_no_such_file(capsys, argv):
    assert run(argv)[0] == 2
    err = capsys.readouterr().err
    assert "no such file" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_model_path_of_an_unknown_users_home_is_no_such_model(demo, capsys):
    argv = ["decide", "--store", str(demo), "--docs", f"{A},{B}", "--model", "~no-such-user-x/m.gguf"]
    assert run(argv)[0] == 2
    assert "no such model file" in capsys.readouterr().err


@pytest.mark.parametrize("kind, statement", [
    ("a memgui_meta without its value column", "CREATE TABLE memgui_meta (key TEXT)"),
    ("a view named memgui_meta", "CREATE VIEW memgui_meta AS SELECT 'schema_version' AS key, '1' AS value"),
])
@pytest.mark.parametrize("argv", [["merge", "--target", A, "--sources", B, "--append"], ["undo", "1"]],
                         ids=lambda a: a[0])
def test_a_memgui_meta_memgui_did_not_make_is_one_line(demo, tmp_path, capsys, kind, statement, argv):
    store = _store(demo, tmp_path, statement)
    assert "memgui_meta" in _one_line_exit_2(capsys, [argv[0], "--store", store, *argv[1:]], store, kind)
