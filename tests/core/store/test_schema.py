"""The schema builder (netclaw-compat §2 DDL, WAL, legacy variant) and memgui's own versioned tables."""
from __future__ import annotations

import sqlite3
import stat

import pytest

from memgui.core.store import StoreError, create_store, memgui_schema, open_store
from memgui.core.store.schema import FTS_TOKENIZER, MEMORY_TABLES

DOCUMENT_COLUMNS = [
    ("document_id", "TEXT", 0, 1), ("anchor_id", "TEXT", 1, 0), ("memory_class", "TEXT", 1, 0),
    ("title", "TEXT", 1, 0), ("markdown_body", "TEXT", 1, 0), ("aliases_json", "TEXT", 0, 0),
    ("facets_json", "TEXT", 0, 0), ("slots_json", "TEXT", 0, 0), ("update_semantics", "TEXT", 1, 0),
    ("boundary", "TEXT", 0, 0), ("audience", "TEXT", 0, 0), ("sensitivity", "TEXT", 1, 0),
    ("recall_mode", "TEXT", 1, 0), ("confidence", "REAL", 1, 0), ("freshness_at", "INTEGER", 0, 0),
    ("expires_at", "INTEGER", 0, 0), ("created_at", "INTEGER", 1, 0), ("updated_at", "INTEGER", 1, 0),
]


def master(path):
    conn = sqlite3.connect(path)
    try:
        return {name: (kind, sql) for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master")}
    finally:
        conn.close()


def columns(path, table):
    conn = sqlite3.connect(path)
    try:
        return [(r[1], r[2], r[3], r[5]) for r in conn.execute(f"PRAGMA table_info('{table}')")]
    finally:
        conn.close()


def test_create_store_builds_every_memory_table_in_wal_mode(tmp_path):
    path = create_store(tmp_path / "sub" / "netclaw.db")
    objects = master(path)
    assert set(MEMORY_TABLES) <= set(objects)
    assert not any(name.startswith("memgui_") for name in objects)  # memgui's tables come with its first write
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    for index in ("idx_memory_documents_anchor", "idx_memory_documents_policy", "idx_memory_records_anchor",
                  "idx_memory_records_policy", "idx_memory_checkpoints_pending", "idx_memory_embeddings_model",
                  "idx_memory_edges_from", "idx_memory_edges_to"):
        assert objects[index][0] == "index"


def test_documents_table_matches_spec_columns(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    assert columns(path, "memory_documents") == DOCUMENT_COLUMNS
    assert [c[0] for c in columns(path, "memory_embeddings")] == [
        "item_id", "item_kind", "model_id", "content_hash", "dims", "vector", "created_at"]
    assert "updated_at" not in [c[0] for c in columns(path, "memory_records")]
    assert "DEFAULT 'durable_fact'" in master(path)["memory_documents"][1]
    assert "PRIMARY KEY (item_id, model_id)" in master(path)["memory_embeddings"][1]


def test_fts_tables_are_plain_fts5_with_netclaw_tokenizer(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    objects = master(path)
    for table, key in (("memory_documents_fts", "document_id"), ("memory_records_fts", "record_id")):
        ddl = objects[table][1]
        assert "fts5" in ddl and f"{key} UNINDEXED" in ddl and FTS_TOKENIZER in ddl
        assert "content=" not in ddl.replace(" ", "")
        assert [c[0] for c in columns(path, table)] == [key, "title", "body", "aliases", "facets"]
    assert not [n for n, (kind, _) in objects.items() if kind == "trigger"]


def test_legacy_variant_has_domain_not_null_on_four_tables(tmp_path):
    path = create_store(tmp_path / "legacy.db", legacy=True)
    for table in ("memory_anchors", "memory_documents", "memory_records", "memory_edges"):
        domain = [c for c in columns(path, table) if c[0] == "domain"]
        assert domain == [("domain", "TEXT", 1, 0)]
    assert not [c for c in columns(path, "memory_checkpoints") if c[0] == "domain"]


def test_create_store_is_idempotent_and_keeps_data(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        store.writes.ensure_anchor("kept")
    create_store(path)
    with open_store(path) as store:
        assert [a.canonical_name for a in store.anchors()] == ["kept"]


# ---- memgui's own tables --------------------------------------------------------------------------------


def first_write(path) -> None:
    """An empty write: memgui's tables are created by the first write, inside its transaction."""
    with open_store(path) as store, store.transaction():
        pass


def test_opening_writes_nothing_and_the_first_write_migrates(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    netclaw_before = {n: v for n, v in master(path).items() if not n.startswith("memgui_")}
    with open_store(path) as store:
        assert store.memgui_schema_version() == 0 and not store.has_table("memgui_meta")
        assert master(path).keys() == netclaw_before.keys()  # a writable open changed nothing
        store.writes.ensure_anchor("first write")
        assert store.memgui_schema_version() == memgui_schema.current_version() == memgui_schema.SCHEMA_VERSION
        for table in ("memgui_meta", "memgui_audit", "memgui_exemptions"):
            assert store.has_table(table)
    after = master(path)
    own = ("memgui_", "idx_memgui_", "sqlite_autoindex_memgui", "sqlite_sequence")
    assert {n: v for n, v in after.items() if not n.startswith(own)} == netclaw_before
    assert all(n.startswith(("memory_", "idx_memory_", "sqlite_", "memgui_", "idx_memgui_")) for n in after)


def test_reopening_is_idempotent_and_keeps_memgui_rows(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store, store.transaction():
        store.execute("INSERT INTO memgui_exemptions VALUES ('doc-a', 'doc-b', 1, 'kept')")
    for _ in range(2):
        with open_store(path) as store, store.transaction():
            assert store.memgui_schema_version() == memgui_schema.current_version()
            assert store.execute("SELECT note FROM memgui_exemptions").fetchall() == [("kept",)]
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM memgui_meta").fetchone()[0] == 1
    conn.close()


def test_read_only_store_is_not_migrated(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path, read_only=True) as store:
        assert store.memgui_schema_version() == 0 and not store.has_table("memgui_meta")
    path.chmod(stat.S_IRUSR)
    try:
        with open_store(path) as store:
            assert store.read_only and store.memgui_schema_version() == 0
    finally:
        path.chmod(0o644)
    assert not any(n.startswith("memgui_") for n in master(path))


def test_read_only_store_reports_its_existing_version(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    first_write(path)
    with open_store(path, read_only=True) as store:
        assert store.memgui_schema_version() == memgui_schema.current_version()


def test_ladder_climbs_from_0_and_from_an_older_version_one_step_at_a_time(tmp_path, monkeypatch):
    fresh = create_store(tmp_path / "fresh.db")
    older = create_store(tmp_path / "older.db")
    first_write(older)  # at version 1
    ladder = list(memgui_schema.MIGRATIONS) + [
        ["CREATE TABLE memgui_step2 (x INTEGER)", "INSERT INTO memgui_step2 VALUES (2)"],
        ["ALTER TABLE memgui_step2 ADD COLUMN y INTEGER", "UPDATE memgui_step2 SET y = 3"],
    ]
    monkeypatch.setattr(memgui_schema, "MIGRATIONS", ladder)
    for path in (fresh, older):
        with open_store(path) as store:
            with store.transaction():
                pass
            assert store.memgui_schema_version() == len(ladder)
            assert store.execute("SELECT x, y FROM memgui_step2").fetchall() == [(2, 3)]
        with open_store(path) as store, store.transaction():  # steps ran once: a rerun of ALTER TABLE would fail
            assert store.execute("SELECT COUNT(*) FROM memgui_step2").fetchone()[0] == 1


def test_a_failing_migration_step_changes_nothing(tmp_path, monkeypatch):
    path = create_store(tmp_path / "netclaw.db")
    first_write(path)
    broken = list(memgui_schema.MIGRATIONS) + [["CREATE TABLE memgui_half (x)", "THIS IS NOT SQL"]]
    monkeypatch.setattr(memgui_schema, "MIGRATIONS", broken)
    with open_store(path) as store:
        with pytest.raises(StoreError) as info:
            store.writes.ensure_anchor("never written")
        assert "\n" not in str(info.value) and "syntax error" in str(info.value)
        assert store.anchor("anchor:never-written") is None  # the write went with the failed migration
    assert "memgui_half" not in master(path)
    monkeypatch.undo()
    with open_store(path) as store:
        assert store.memgui_schema_version() == memgui_schema.current_version()


def test_a_refused_write_leaves_no_memgui_table_behind(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    before = path.read_bytes()
    with open_store(path) as store:
        with pytest.raises(RuntimeError), store.transaction():
            raise RuntimeError("input refused after the transaction began")
        assert not store.has_table("memgui_meta") and store.schema_pending
        store.writes.ensure_anchor("now for real")  # the next write migrates
        assert store.has_table("memgui_audit")
    assert before != path.read_bytes()


def test_create_store_refuses_a_directory_or_a_non_sqlite_file(tmp_path):
    with pytest.raises(StoreError) as info:
        create_store(tmp_path)
    assert "is a directory" in str(info.value)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100)
    with pytest.raises(StoreError) as info:
        create_store(notes)
    assert "cannot create a store" in str(info.value) and "\n" not in str(info.value)
    assert notes.read_text() == "not a database " * 100
