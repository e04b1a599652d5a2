"""Opening a store: every bad input is refused with one line, read-only files stay untouched, locks time out."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import threading
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from factories import document
from memgui.core.store import (
    StoreError,
    StoreLockedError,
    StoreReadOnlyError,
    create_store,
    memgui_schema,
    open_store,
)

# the store tests' document: on anchor:demo, personal boundary, confidence 0.9 (factories.document)
make_doc = partial(document, "Demo body with a version 1.2.3", title="Demo title", anchor_id="anchor:demo",
                   boundary="boundary:personal", confidence=0.9, aliases_json='["demo"]', facets_json='["fact"]')


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text
    return text


def populated_store(tmp_path: Path, n: int = 200) -> Path:
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store, store.transaction():
        for i in range(n):
            store.writes.upsert_document(make_doc(title=f"Document {i}", markdown_body=f"Body {i} " + "lorem ipsum " * 40))
    return path


# ---- refused inputs ------------------------------------------------------------------------------


def test_missing_path_is_refused(tmp_path):
    with pytest.raises(StoreError) as info:
        open_store(tmp_path / "nope.db")
    assert "no such file" in one_line(info.value)
    assert not (tmp_path / "nope.db").exists()  # SQLite would have created it


def test_directory_is_refused_with_a_hint(tmp_path):
    with pytest.raises(StoreError) as info:
        open_store(tmp_path)
    assert "is a directory" in one_line(info.value)
    create_store(tmp_path / "netclaw.db")
    with pytest.raises(StoreError) as info:
        open_store(tmp_path)
    assert "did you mean" in one_line(info.value) and "netclaw.db" in str(info.value)


def test_non_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 20)
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert "not an SQLite database" in one_line(info.value)


def test_empty_file_is_refused_and_stays_empty(tmp_path):
    path = tmp_path / "netclaw.db"
    path.touch()
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert "empty file" in one_line(info.value)
    assert path.stat().st_size == 0


def test_truncated_sqlite_header_is_refused(tmp_path):
    path = tmp_path / "netclaw.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00")
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert "truncated" in one_line(info.value)


def test_corrupt_pages_in_the_middle_are_refused(tmp_path):
    path = populated_store(tmp_path)
    page_size = 4096
    size = path.stat().st_size
    assert size > 20 * page_size
    with path.open("r+b") as fh:
        fh.seek((size // page_size // 2) * page_size)
        fh.write(os.urandom(3 * page_size))
    before = file_digest(path)
    for read_only in (False, True):
        with pytest.raises(StoreError) as info:
            open_store(path, read_only=read_only)
        assert "corrupt" in one_line(info.value)
    assert file_digest(path) == before


def test_garbage_over_the_schema_page_is_refused(tmp_path):
    path = populated_store(tmp_path, n=20)
    with path.open("r+b") as fh:
        fh.seek(100)
        fh.write(b"\xff" * 3000)
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert "corrupt" in one_line(info.value)


def test_sqlite_database_without_memory_tables_is_refused(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as info:
        open_store(path)
    message = one_line(info.value)
    assert "not a Netclaw memory store" in message and "memory_documents" in message
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["sessions"]  # nothing added
    conn.close()


def test_memory_table_without_its_key_columns_is_refused(tmp_path):
    path = tmp_path / "odd.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memory_anchors (anchor_id TEXT PRIMARY KEY, canonical_name TEXT)")
    conn.execute("CREATE TABLE memory_documents (document_id TEXT PRIMARY KEY, title TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert "lacks columns" in one_line(info.value) and "markdown_body" in str(info.value)


# ---- locks ---------------------------------------------------------------------------------------


def test_store_write_locked_past_the_busy_timeout_is_refused(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreLockedError) as info:
            open_store(path, busy_timeout_ms=150)
        assert "locked by another process" in one_line(info.value)
        # WAL: reading while the daemon writes still works.
        with open_store(path, read_only=True, busy_timeout_ms=150) as store:
            assert store.documents() == []
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with open_store(path, busy_timeout_ms=150) as store:
        assert not store.read_only


def test_exclusive_locking_mode_blocks_even_read_only_open(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE scratch (x)")
    holder.execute("COMMIT")  # exclusive locking mode keeps the lock after commit
    try:
        with pytest.raises(StoreLockedError) as info:
            open_store(path, read_only=True, busy_timeout_ms=150)
        one_line(info.value)
    finally:
        holder.close()


def test_write_on_a_store_locked_after_opening_is_refused_and_changes_nothing(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path, busy_timeout_ms=150) as store:
        doc = store.writes.upsert_document(make_doc(title="original"))
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreLockedError) as info:
                store.writes.upsert_document(replace(doc, title="changed"))
            assert "nothing was written" in one_line(info.value)
            with pytest.raises(StoreLockedError):
                store.writes.tombstone_document(doc.document_id)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.document(doc.document_id).title == "original"
        assert not store.document(doc.document_id).is_tombstoned


# ---- read-only files -----------------------------------------------------------------------------


@pytest.fixture
def read_only_store(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO memory_documents (document_id, anchor_id, title, markdown_body, update_semantics, sensitivity, "
        "recall_mode, confidence, created_at, updated_at) VALUES ('doc-ro', 'anchor:ro', 'Kept', 'kept body', "
        "'merge-document', 'normal', 'auto', 0.9, 1, 1)"
    )
    conn.execute("INSERT INTO memory_documents_fts VALUES ('doc-ro', 'Kept', 'kept body', '', '')")
    conn.commit()
    conn.close()
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 0444; tests run as root, bits still count
    yield path
    path.chmod(0o644)


def test_read_only_file_opens_read_only_and_refuses_every_write(read_only_store):
    path = read_only_store
    before = file_digest(path)
    store = open_store(path)
    try:
        assert store.read_only and "read-only" in store.read_only_reason
        assert [d.document_id for d in store.documents()] == ["doc-ro"]
        assert store.memgui_schema_version() == 0 and not store.has_table("memgui_meta")  # not migrated
        doc = store.document("doc-ro")
        writes = [
            lambda: store.writes.upsert_document(replace(doc, title="changed")),
            lambda: store.writes.upsert_document(make_doc()),
            lambda: store.writes.tombstone_document("doc-ro"),
            lambda: store.writes.ensure_anchor("new anchor"),
            lambda: store.images.restore_document_image("doc-ro", {"row": None, "fts": None, "embeddings": []}),
            lambda: store.transaction().__enter__(),
            lambda: store.execute("DELETE FROM memory_documents"),
        ]
        for write in writes:
            with pytest.raises(StoreReadOnlyError) as info:
                write()
            assert "read-only" in one_line(info.value) and "nothing was written" in str(info.value)
        assert store.document("doc-ro") == doc
        summary = store.summary()
        assert summary.read_only and summary.opened_read_only
    finally:
        store.close()
    assert file_digest(path) == before


def test_read_only_on_request_refuses_writes_but_reports_the_file_writable(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path, read_only=True) as store:
        with pytest.raises(StoreReadOnlyError):
            store.writes.upsert_document(make_doc())
        summary = store.summary()
        assert summary.opened_read_only and not summary.read_only
        assert store.memgui_schema_version() == 0


# ---- odd contents --------------------------------------------------------------------------------


def test_invalid_utf8_in_text_columns_reads_as_replacement_characters(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO memory_documents (document_id, anchor_id, title, markdown_body, aliases_json, update_semantics, "
        "sensitivity, recall_mode, confidence, created_at, updated_at) VALUES ('doc-bad', 'anchor:x', "
        "CAST(X'4361666580FF' AS TEXT), CAST(X'626F6479C328' AS TEXT), CAST(X'5B22FE225D' AS TEXT), "
        "'merge-document', 'normal', 'auto', 0.5, 1, 1)"
    )
    conn.execute(
        "INSERT INTO memory_documents_fts VALUES ('doc-bad', CAST(X'4361666580FF' AS TEXT), 'body', '', '')"
    )
    conn.execute(
        "INSERT INTO memory_anchors VALUES ('anchor:x', 'concept', CAST(X'78C0' AS TEXT), NULL, 'normal', 'auto', "
        "0.8, NULL, 'active', 1, 1)"
    )
    conn.commit()
    conn.close()
    with open_store(path) as store:
        doc = store.document("doc-bad")
        assert doc.title == "Cafe\ufffd\ufffd"
        assert doc.markdown_body == "body\ufffd("
        assert doc.aliases_json == '["\ufffd"]'
        assert store.anchors()[0].canonical_name == "x\ufffd"
        assert [d.document_id for d in store.search("body")] == ["doc-bad"]
        assert store.summary().live_documents == 1
        # the audit image keeps the stored bytes, so undo puts back exactly what was there
        from memgui.core.store.values import RawText

        assert store.images.document_image("doc-bad")["row"]["title"] == RawText(bytes.fromhex("4361666580FF"))
        store.writes.upsert_document(replace(doc, markdown_body="fixed"))  # rewriting such a row works
        assert store.document("doc-bad").markdown_body == "fixed"


def test_store_made_by_a_newer_memgui_opens_read_only(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store, store.transaction():  # memgui's first write creates its tables
        pass
    conn = sqlite3.connect(path)
    conn.execute("UPDATE memgui_meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with open_store(path) as store:
        assert store.read_only and "newer than this memgui" in store.read_only_reason
        assert store.memgui_schema_version() == 99
        with pytest.raises(StoreReadOnlyError) as info:
            store.writes.upsert_document(make_doc())
        assert "newer" in one_line(info.value)
        assert store.summary().read_only


def test_open_accepts_a_string_path_with_tilde_and_spaces(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    create_store(tmp_path / "my stores" / "net claw.db")
    with open_store("~/my stores/net claw.db") as store:
        assert store.path == tmp_path / "my stores" / "net claw.db"
        assert store.documents() == []


def test_close_closes_every_threads_connection(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    store = open_store(path)
    seen, ready, release = [], threading.Barrier(4), threading.Event()

    def worker():  # a long-lived worker thread (the GUI's) that has read through the store
        seen.append(len(store.documents()))
        ready.wait()
        release.wait()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    ready.wait()
    try:
        store.close()
        # With every connection closed, another connection can take the file in exclusive locking mode
        # (peewee alone closes only the calling thread's connection, and this would time out).
        other = sqlite3.connect(path, isolation_level=None, timeout=0.2)
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("COMMIT")
        other.close()
    finally:
        release.set()
        for t in threads:
            t.join()
    assert seen == [0, 0, 0]


def test_migration_version_read_is_robust_to_garbage(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store, store.transaction():
        pass
    conn = sqlite3.connect(path)
    conn.execute("UPDATE memgui_meta SET value = 'garbage' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with open_store(path) as store:  # treated as 0 and migrated again by the next write (steps are idempotent)
        with store.transaction():
            pass
        assert store.memgui_schema_version() == memgui_schema.current_version()


@pytest.fixture
def read_only_folder(tmp_path):
    """A real read-only folder holding a WAL store with a -wal and -shm left behind by a writer that was
    killed: a read-only bind mount when this user may mount (root, as in CI), else a folder without write
    permission (which a non-root user cannot write)."""
    import subprocess

    src = tmp_path / "src"
    src.mkdir()
    path = create_store(src / "netclaw.db")
    with open_store(path) as store:
        store.writes.upsert_document(make_doc(document_id="doc-before-crash", title="kept"))
    writer = ("import sqlite3, os, sys\n"
              "c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_autocheckpoint=0')\n"
              "c.execute(\"UPDATE memory_documents SET title = 'from the wal'\"); c.commit(); os._exit(0)\n")
    subprocess.run(["python3", "-c", writer, str(path)], check=True)
    assert (src / "netclaw.db-wal").exists() and (src / "netclaw.db-shm").exists()
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    mounted = subprocess.run(f"mount --bind '{src}' '{mnt}' && mount -o remount,bind,ro '{mnt}'", shell=True,
                             capture_output=True).returncode == 0
    if mounted:
        yield mnt / "netclaw.db"
        subprocess.run(["umount", str(mnt)], check=False)
    else:
        src.chmod(0o555)
        yield path
        src.chmod(0o755)


def test_a_wal_store_in_a_read_only_folder_is_read_and_refuses_writes(read_only_folder):
    before = sorted(p.name for p in read_only_folder.parent.iterdir())
    with open_store(read_only_folder) as store:
        assert store.read_only
        assert store.document("doc-before-crash").title == "from the wal"  # the -wal content is seen
        with pytest.raises(StoreReadOnlyError) as info:
            store.writes.upsert_document(make_doc())
        assert "nothing was written" in one_line(info.value)
    assert sorted(p.name for p in read_only_folder.parent.iterdir()) == before


def test_sqlite_refusing_to_write_falls_back_to_read_only(tmp_path, monkeypatch):
    """A file that looks writable but SQLite cannot write (read-only mount, someone else's -wal file)."""
    import memgui.core.store.opening as opening

    path = create_store(tmp_path / "netclaw.db")

    def refuse(store):
        raise StoreReadOnlyError(f"{store.path}: store is read-only; nothing was written")

    monkeypatch.setattr(opening, "_check_schema", refuse)
    with open_store(path) as store:
        assert store.read_only and store.read_only_reason == "SQLite refused to write"
        with pytest.raises(StoreReadOnlyError):
            store.writes.upsert_document(make_doc())
        assert store.summary().read_only


def test_opening_and_writing_keep_the_journal_mode(tmp_path):
    wal = create_store(tmp_path / "wal.db")
    rollback = create_store(tmp_path / "rollback.db")
    conn = sqlite3.connect(rollback)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    for path, mode in ((wal, "wal"), (rollback, "delete")):
        with open_store(path) as store:
            store.writes.upsert_document(make_doc())
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == mode
        conn.close()
