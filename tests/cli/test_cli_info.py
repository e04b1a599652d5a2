"""`memgui info --store PATH [--json]`: counts a reviewer needs, exit 0; bad stores exit 2 with one line."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat

import pytest

from factories import document, put_embedding
from memgui.__main__ import main
from memgui.core.store import create_store, memgui_schema, open_store


@pytest.fixture
def populated(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        docs = [store.writes.upsert_document(document("b", title=f"d{i}", anchor="a", boundary=None, audience=None,
                                               confidence=0.5)) for i in range(4)]
        store.writes.tombstone_document(docs[0].document_id)
        store.writes.ensure_anchor("a")
        store.writes.ensure_anchor("b")
        ex = store.execute
        ex("INSERT INTO memory_records (record_id, anchor_id, record_type, payload_json, update_semantics, sensitivity, "
           "recall_mode, confidence, created_at) VALUES ('rec-1', 'anchor:a', 'obs', '{}', 'immutable-record', "
           "'normal', 'searchable', 0.5, 1)")
        for i, status in enumerate(["pending", "pending", "completed", "failed"]):
            ex("INSERT INTO memory_checkpoints (checkpoint_id, session_id, trigger_type, priority, status, payload_json, "
               "created_at, updated_at) VALUES (?, 's', 'explicit-memory-request', 1, ?, '{}', 1, 1)", (f"cp-{i}", status))
        for doc, model in ((docs[1], "m-big"), (docs[2], "m-big"), (docs[3], "m-small")):
            put_embedding(store, doc, model, [0.0], content_hash="0" * 64, created_at=1)
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_info_json_reports_every_count(populated, capsys):
    code, out, err = run(capsys, "info", "--store", str(populated), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["path"] == str(populated)
    assert data["documents"] == {"live": 3, "tombstoned": 1}
    assert (data["anchors"], data["records"]) == (2, 1)
    assert data["checkpoints"] == {"completed": 1, "failed": 1, "pending": 2}
    assert data["embeddings"] == {"m-big": 2, "m-small": 1}
    assert data["memgui_schema_version"] == memgui_schema.current_version()
    assert data["read_only"] is False and data["legacy_columns"] == []


def test_info_text_reports_the_same(populated, capsys):
    code, out, _ = run(capsys, "info", "--store", str(populated))
    assert code == 0
    assert "documents:   3 live, 1 tombstoned" in out
    assert "anchors:     2" in out and "records:     1" in out
    assert "checkpoints: completed 1, failed 1, pending 2" in out
    assert "embeddings:  m-big 2, m-small 1" in out
    assert f"memgui schema version: {memgui_schema.current_version()}" in out
    assert "access:      writable" in out


def test_top_level_store_flag_is_honoured(populated, capsys):
    code, out, _ = run(capsys, "--store", str(populated), "info", "--json")
    assert code == 0 and json.loads(out)["path"] == str(populated)


def test_info_changes_nothing_and_does_not_create_memgui_tables(tmp_path, capsys):
    path = create_store(tmp_path / "netclaw.db")
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    code, out, _ = run(capsys, "info", "--store", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["memgui_schema_version"] == 0 and data["documents"] == {"live": 0, "tombstoned": 0}
    assert data["checkpoints"] == {} and data["embeddings"] == {}
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_info_on_a_read_only_file(populated, capsys):
    populated.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    try:
        code, out, _ = run(capsys, "info", "--store", str(populated), "--json")
        assert code == 0
        data = json.loads(out)
        assert data["read_only"] is True and "read-only" in data["read_only_reason"]
        code, out, _ = run(capsys, "info", "--store", str(populated))
        assert "access:      read-only (the file is marked read-only)" in out
    finally:
        populated.chmod(0o644)


def test_info_on_a_legacy_store_lists_the_domain_columns(tmp_path, capsys):
    path = create_store(tmp_path / "legacy.db", legacy=True)
    code, out, _ = run(capsys, "info", "--store", str(path))
    assert code == 0 and "legacy columns: memory_anchors.domain" in out


def _bad_stores(tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    text = tmp_path / "text.db"
    text.write_text("hello")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE sessions (x)")
    conn.commit()
    conn.close()
    corrupt = create_store(tmp_path / "corrupt.db")
    with open_store(corrupt) as store, store.transaction():
        for _ in range(150):
            store.writes.upsert_document(document("filler text " * 50, title="t", anchor="a", boundary=None, audience=None,
                                           confidence=0.5))
    size = corrupt.stat().st_size
    with corrupt.open("r+b") as fh:
        fh.seek((size // 4096 // 2) * 4096)
        fh.write(os.urandom(8192))
    return {
        "missing": (tmp_path / "missing.db", "no such file"),
        "directory": (tmp_path, "is a directory"),
        "empty": (empty, "empty file"),
        "text": (text, "not an SQLite database"),
        "no memory tables": (other, "not a Netclaw memory store"),
        "corrupt": (corrupt, "corrupt"),
    }


@pytest.mark.parametrize("json_flag", [False, True])
def test_bad_stores_exit_2_with_one_line(tmp_path, capsys, json_flag):
    for name, (path, phrase) in _bad_stores(tmp_path).items():
        argv = ["info", "--store", str(path)] + (["--json"] if json_flag else [])
        code, out, err = run(capsys, *argv)
        assert code == 2, name
        assert out == "", name
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("memgui: ") and phrase in lines[0], (name, err)
        assert "Traceback" not in err


def test_locked_store_exits_2(tmp_path, capsys, monkeypatch):
    import functools

    import memgui.cli.common as common

    path = create_store(tmp_path / "netclaw.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE scratch (x)")
    holder.execute("COMMIT")
    monkeypatch.setattr(common, "open_store", functools.partial(open_store, busy_timeout_ms=150))  # keep it short
    try:
        code, out, err = run(capsys, "info", "--store", str(path))
    finally:
        holder.close()
    assert code == 2 and out == ""
    assert "locked by another process" in err and len(err.strip().splitlines()) == 1


def test_without_any_store_the_demo_is_used_or_a_clear_message_given(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    code, out, err = run(capsys, "info", "--json")
    try:
        import memgui.core.store.demo  # noqa: F401
    except ImportError:
        assert code == 2 and "no Netclaw store found" in err and len(err.strip().splitlines()) == 1
    else:
        assert code == 0 and json.loads(out)["documents"]["live"] > 0
