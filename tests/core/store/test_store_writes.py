"""Writes mirror Netclaw (netclaw-compat §2, §3, §9, §11.2), checked by reading the rows back — base row, FTS row
and embedding rows — plus the content hash, ids, legacy stores and concurrent writers."""
from __future__ import annotations

import hashlib
import re
import sqlite3
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace
from functools import partial

import pytest

from factories import document
from memgui.core.netfx import anchor_id_for, lower_invariant, normalize_for_containment as normalize_for_hash
from memgui.core.store import (
    StoreError,
    content_hash,
    create_store,
    netclaw_writes,
    new_document_id,
    open_store,
)

# the store tests' document: on anchor:demo, personal boundary, confidence 0.9 (factories.document)
make_doc = partial(document, "Demo body with a version 1.2.3", title="Demo title", anchor_id="anchor:demo",
                   boundary="boundary:personal", confidence=0.9, aliases_json='["demo"]', facets_json='["fact"]')


def raw(path, sql, params=()):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def fts_row(path, doc_id):
    rows = raw(path, "SELECT document_id, title, body, aliases, facets FROM memory_documents_fts WHERE document_id = ?", (doc_id,))
    assert len(rows) <= 1
    return rows[0] if rows else None


def add_embedding(path, doc_id, model, created_at=1):
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO memory_embeddings VALUES (?, 'document', ?, ?, 2, ?, ?)",
        (doc_id, model, "0" * 64, b"\x00\x00\x80\x3f\x00\x00\x00\x00", created_at),
    )
    conn.commit()
    conn.close()


def embedding_ids(path):
    return sorted(raw(path, "SELECT item_id, model_id FROM memory_embeddings"))


@pytest.fixture
def store(tmp_path):
    s = open_store(create_store(tmp_path / "netclaw.db"))
    yield s
    s.close()


# ---- upsert ----------------------------------------------------------------------------------------


def test_new_document_is_inserted_with_its_fts_row(store):
    doc = make_doc(aliases_json=None, facets_json=None, created_at=0)
    stored = store.writes.upsert_document(doc)
    assert stored.created_at == stored.updated_at > 0
    assert stored.title == doc.title and stored.markdown_body == doc.markdown_body
    assert fts_row(store.path, doc.document_id) == (doc.document_id, doc.title, doc.markdown_body, "", "")
    row = raw(store.path, "SELECT * FROM memory_documents WHERE document_id = ?", (doc.document_id,))
    assert len(row) == 1


def test_explicit_created_at_of_a_new_document_is_kept(store):
    stored = store.writes.upsert_document(make_doc(created_at=1234))
    assert stored.created_at == 1234 and stored.updated_at > 1234


def test_overwrite_keeps_created_at_and_anchor_and_replaces_everything_else(store, monkeypatch):
    first = store.writes.upsert_document(make_doc(anchor_id="anchor:first"))
    monkeypatch.setattr(netclaw_writes, "now_ms", lambda: first.updated_at)  # the clock did not move
    changed = replace(
        first, anchor_id="anchor:elsewhere", memory_class="evidence", title="New title", markdown_body="New body",
        aliases_json='["n"]', facets_json=None, slots_json='["s"]', update_semantics="append-document",
        boundary="boundary:team", audience="team", sensitivity="secret", recall_mode="searchable",
        confidence=0.4, freshness_at=77, expires_at=88, created_at=5, updated_at=0,
    )
    stored = store.writes.upsert_document(changed)
    assert stored.created_at == first.created_at
    assert stored.anchor_id == "anchor:first"  # only re-anchoring moves a document
    assert stored.updated_at == first.updated_at + 1  # strictly later even within the same millisecond
    expected = replace(changed, anchor_id="anchor:first", created_at=first.created_at, updated_at=stored.updated_at)
    assert stored == expected
    assert len(raw(store.path, "SELECT * FROM memory_documents")) == 1


def test_updated_at_is_epoch_milliseconds(store):
    import time

    before = int(time.time() * 1000)
    stored = store.writes.upsert_document(make_doc())
    after = int(time.time() * 1000)
    assert before <= stored.updated_at <= after


@pytest.mark.parametrize("mode", ["auto", "searchable"])
def test_fts_row_is_refreshed_for_searchable_modes(store, mode):
    doc = store.writes.upsert_document(make_doc(recall_mode=mode))
    store.writes.upsert_document(replace(doc, title="Refreshed", markdown_body="fresh words", aliases_json='["a"]', facets_json='["f"]'))
    assert fts_row(store.path, doc.document_id) == (doc.document_id, "Refreshed", "fresh words", '["a"]', '["f"]')
    assert [d.document_id for d in store.search("fresh")] == [doc.document_id]


@pytest.mark.parametrize("mode", ["never", "manual"])
def test_fts_row_is_left_alone_for_other_modes(store, mode):
    doc = store.writes.upsert_document(make_doc(title="Old title", markdown_body="old words"))
    store.writes.upsert_document(replace(doc, title="New title", markdown_body="new words", recall_mode=mode))
    # Netclaw does not delete the stale row; every query re-filters recall_mode.
    assert fts_row(store.path, doc.document_id) == (doc.document_id, "Old title", "old words", '["demo"]', '["fact"]')
    assert store.search("old") == [] and store.search("new") == []
    fresh = store.writes.upsert_document(make_doc(recall_mode=mode))
    assert fts_row(store.path, fresh.document_id) is None


def test_rewrite_deletes_every_embedding_row_of_that_document_only(store):
    doc = store.writes.upsert_document(make_doc())
    other = store.writes.upsert_document(make_doc(title="Other"))
    for model in ("snowflake-arctic-embed-m-int8", "snowflake-arctic-embed-m"):
        add_embedding(store.path, doc.document_id, model)
        add_embedding(store.path, other.document_id, model)
    store.writes.upsert_document(replace(doc, markdown_body="changed"))
    assert embedding_ids(store.path) == [
        (other.document_id, "snowflake-arctic-embed-m"), (other.document_id, "snowflake-arctic-embed-m-int8"),
    ]


def test_trace_forces_recall_mode_never(store):
    stored = store.writes.upsert_document(make_doc(memory_class="trace", recall_mode="auto"))
    assert stored.recall_mode == "never"
    assert fts_row(store.path, stored.document_id) is None


@pytest.mark.parametrize("boundary", ["boundary:legacy-restricted", None])
def test_legacy_restricted_boundary_is_written_as_trusted_instance(store, boundary):
    stored = store.writes.upsert_document(make_doc(boundary=boundary, audience=None))
    assert stored.boundary == "boundary:trusted-instance"
    assert stored.audience == "personal"


def test_other_boundaries_and_audiences_are_written_as_given(store):
    stored = store.writes.upsert_document(make_doc(boundary="boundary:public", audience="team"))
    assert (stored.boundary, stored.audience) == ("boundary:public", "team")


def test_null_boundary_and_audience_read_as_legacy_restricted_and_personal(store):
    conn = sqlite3.connect(store.path)
    conn.execute(
        "INSERT INTO memory_documents (document_id, anchor_id, title, markdown_body, update_semantics, boundary, "
        "audience, sensitivity, recall_mode, confidence, created_at, updated_at) VALUES "
        "('doc-old', 'anchor:x', 't', 'b', 'merge-document', NULL, NULL, 'normal', 'auto', 0.5, 1, 1)"
    )
    conn.commit()
    conn.close()
    doc = store.document("doc-old")
    assert doc.boundary is None and doc.audience is None
    assert doc.effective_boundary == "boundary:legacy-restricted"
    assert doc.effective_audience == "personal"


def test_a_failed_transaction_leaves_no_trace(store):
    doc = make_doc()
    with pytest.raises(RuntimeError), store.transaction():
        store.writes.upsert_document(doc)
        assert store.document(doc.document_id) is not None
        raise RuntimeError("boom")
    assert store.document(doc.document_id) is None
    assert fts_row(store.path, doc.document_id) is None


# ---- tombstone -------------------------------------------------------------------------------------


def test_tombstone_mirrors_netclaw(store, monkeypatch):
    doc = store.writes.upsert_document(make_doc())
    other = store.writes.upsert_document(make_doc(title="Other"))
    add_embedding(store.path, doc.document_id, "m1")
    add_embedding(store.path, other.document_id, "m1")
    monkeypatch.setattr(netclaw_writes, "now_ms", lambda: doc.updated_at)
    dead = store.writes.tombstone_document(doc.document_id)
    assert dead.update_semantics == "tombstone" and dead.recall_mode == "never"
    assert dead.updated_at == doc.updated_at + 1
    assert (dead.title, dead.markdown_body, dead.created_at) == (doc.title, doc.markdown_body, doc.created_at)
    assert fts_row(store.path, doc.document_id) is None
    assert fts_row(store.path, other.document_id) is not None
    assert embedding_ids(store.path) == [(other.document_id, "m1")]
    assert [d.document_id for d in store.documents()] == [other.document_id]
    assert [d.document_id for d in store.tombstoned_documents()] == [doc.document_id]


def test_tombstoning_an_unknown_document_is_refused(store):
    with pytest.raises(StoreError) as info:
        store.writes.tombstone_document("doc-missing")
    assert "no such document" in str(info.value)


# ---- anchors ---------------------------------------------------------------------------------------


def test_ensure_anchor_creates_then_overwrites_all_but_created_at(store, monkeypatch):
    first = store.writes.ensure_anchor("Netclaw GitHub Repo")
    assert first.anchor_id == "anchor:netclaw-github-repo"
    assert (first.anchor_type, first.status, first.confidence, first.recall_mode) == ("concept", "active", 0.8, "auto")
    monkeypatch.setattr(netclaw_writes, "now_ms", lambda: first.created_at + 500)
    second = store.writes.ensure_anchor("Netclaw GitHub Repo", anchor_type="event", sensitivity="secret", confidence=0.3,
                                 recall_mode="never", freshness_at=9)
    assert second.created_at == first.created_at and second.updated_at == first.created_at + 500
    assert (second.anchor_type, second.sensitivity, second.confidence, second.recall_mode, second.freshness_at) == (
        "event", "secret", 0.3, "never", 9)
    assert len(store.anchors()) == 1


def test_ensure_anchor_revives_a_tombstoned_anchor(store):
    anchor = store.writes.ensure_anchor("old topic")
    conn = sqlite3.connect(store.path)
    conn.execute("UPDATE memory_anchors SET status = 'tombstoned' WHERE anchor_id = ?", (anchor.anchor_id,))
    conn.commit()
    conn.close()
    assert store.anchors(active_only=True) == []
    revived = store.writes.ensure_anchor("old topic")
    assert revived.status == "active" and revived.is_active
    assert [a.anchor_id for a in store.anchors(active_only=True)] == [anchor.anchor_id]


def test_anchor_ids_normalise_like_netclaw():
    assert anchor_id_for("  My Project Alpha ") == "anchor:my-project-alpha"
    assert anchor_id_for("ΟΔΟΣ") == "anchor:οδοσ"  # .NET invariant lower-case: no final sigma


# ---- ids and the content hash (T/MemoryTypedIdTests.cs, T/MemoryContentHasherTests.cs) ----------------


def test_new_document_ids_are_doc_plus_32_lowercase_hex_and_unique():
    ids = {new_document_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(re.fullmatch(r"doc-[0-9a-f]{32}", i) and len(i) == 36 for i in ids)


def test_hash_is_case_insensitive():
    assert content_hash("Title", "Some BODY") == content_hash("title", "some body")


def test_hash_is_whitespace_insensitive():
    assert content_hash("  Title ", "some\t\tbody\n\n text ") == content_hash("Title", "some body text")


def test_hash_is_deterministic():
    assert content_hash("a", "b") == content_hash("a", "b")


def test_hash_is_content_sensitive():
    assert content_hash("Title", "version 1.2.3") != content_hash("Title", "version 1.2.4")


def test_hash_title_body_order_matters():
    assert content_hash("alpha", "beta") != content_hash("beta", "alpha")


def test_hash_is_64_lowercase_hex_chars():
    assert re.fullmatch(r"[0-9a-f]{64}", content_hash("Title", "Body"))


def test_hash_is_sha256_of_normalised_title_newline_body():
    expected = hashlib.sha256(b"my title\nline one line two").hexdigest()
    assert content_hash("My  Title", "Line one\r\n  Line TWO\n") == expected
    assert content_hash("", "") == hashlib.sha256(b"\n").hexdigest()


def test_hash_follows_dotnet_rules_where_python_differs():
    # .NET ToLowerInvariant leaves U+0130 alone and never produces a final sigma.
    assert lower_invariant("İSTANBUL") == "İstanbul"
    assert lower_invariant("ΟΔΟΣ ΟΔΟΣ") == "οδοσ οδοσ"
    # .NET char.IsWhiteSpace does not include the ASCII separators U+001C..U+001F; it does include NBSP.
    assert normalize_for_hash("a\x1cb") == "a\x1cb"
    assert normalize_for_hash("a\u00a0\u2003b\u3000") == "a b"
    # A lone surrogate is encoded as U+FFFD, like .NET's Encoding.UTF8.
    assert content_hash("t", "x\ud800") == content_hash("t", "x\ufffd")


def test_document_content_hash_property_matches_the_function(store):
    doc = store.writes.upsert_document(make_doc(title="T", markdown_body="B  b"))
    assert doc.content_hash == content_hash("t", "b b")
    assert doc.embedding_text == "T\nB  b"


# ---- legacy stores ---------------------------------------------------------------------------------


def test_legacy_store_with_domain_columns_opens_and_accepts_writes(tmp_path):
    path = create_store(tmp_path / "legacy.db", legacy=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO memory_anchors (anchor_id, domain, anchor_type, canonical_name, sensitivity, recall_mode, "
        "confidence, status, created_at, updated_at) VALUES ('anchor:work', 'work', 'concept', 'work', 'normal', "
        "'auto', 0.8, 'active', 1, 1)"
    )
    conn.commit()
    conn.close()
    with open_store(path) as store:
        assert store.legacy_domain
        assert store.summary().legacy_columns == (
            "memory_anchors.domain", "memory_documents.domain", "memory_edges.domain", "memory_records.domain")
        doc = store.writes.upsert_document(make_doc(anchor_id="anchor:work"))
        fresh = store.writes.upsert_document(make_doc(anchor_id="anchor:new"))
        store.writes.ensure_anchor("new")
        store.writes.upsert_document(replace(doc, markdown_body="edited"))
        store.writes.tombstone_document(fresh.document_id)
        assert store.document(doc.document_id).markdown_body == "edited"
    assert raw(path, "SELECT document_id, domain FROM memory_documents ORDER BY domain") == [
        (fresh.document_id, "general"), (doc.document_id, "work")]
    assert raw(path, "SELECT anchor_id, domain FROM memory_anchors ORDER BY anchor_id") == [
        ("anchor:new", "general"), ("anchor:work", "work")]


# ---- concurrency -------------------------------------------------------------------------------------


def test_two_threads_writing_through_one_store_lose_nothing(store):
    n = 40
    errors = []

    def writer(tag):
        try:
            for i in range(n):
                store.writes.upsert_document(make_doc(document_id=f"doc-{tag}-{i}", title=f"{tag} {i}"))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(tag,)) for tag in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.documents()) == 2 * n
    assert raw(store.path, "SELECT COUNT(*) FROM memory_documents_fts") == [(2 * n,)]


def test_another_process_writing_the_same_store_loses_nothing(store):
    n = 60
    script = textwrap.dedent(f"""
        import sys
        from memgui.core.store import Document, open_store
        with open_store(sys.argv[1]) as s:
            for i in range({n}):
                s.writes.upsert_document(Document(
                    document_id=f"doc-proc-{{i}}", anchor_id="anchor:p", memory_class="durable_fact",
                    title=f"proc {{i}}", markdown_body="from the other process", aliases_json=None,
                    facets_json=None, slots_json=None, update_semantics="merge-document", boundary=None,
                    audience=None, sensitivity="normal", recall_mode="auto", confidence=0.5,
                    freshness_at=None, expires_at=None, created_at=0, updated_at=0))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script, str(store.path)], stderr=subprocess.PIPE, text=True)
    for i in range(n):
        store.writes.upsert_document(make_doc(document_id=f"doc-main-{i}", title=f"main {i}"))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    ids = {d.document_id for d in store.documents()}
    assert {f"doc-main-{i}" for i in range(n)} <= ids and {f"doc-proc-{i}" for i in range(n)} <= ids
    assert len(ids) == 2 * n
    assert raw(store.path, "PRAGMA journal_mode") == [("wal",)]


def test_writes_use_begin_immediate(store):
    seen = []
    conn = store.db.connection()
    conn.set_trace_callback(seen.append)
    try:
        store.writes.upsert_document(make_doc())
    finally:
        conn.set_trace_callback(None)
    statements = [s for s in seen if not s.startswith("--")]  # drop FTS5's internal statements
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"
    assert statements.count("BEGIN IMMEDIATE") == 1  # one transaction for row, embeddings and FTS
    assert raw(store.path, "PRAGMA journal_mode") == [("wal",)]
    assert store.execute("PRAGMA busy_timeout").fetchone()[0] >= 30_000
