"""The per-store Peewee models: built from the columns the file has (legacy extras, missing optional columns and
tables), values passed through exactly as stored, and the query functions later stages call."""
from __future__ import annotations

import sqlite3
from functools import partial

import pytest

from factories import document
from memgui.core.store import create_store, open_store, queries
from memgui.core.store.models import AsStored, build_models, stored_fields
from memgui.core.vectors.index import fingerprint, live_fingerprints

# the store tests' document: on anchor:demo, personal boundary, confidence 0.9 (factories.document)
make_doc = partial(document, "Demo body", title="Demo title", anchor_id="anchor:demo",
                   boundary="boundary:personal", confidence=0.9)


def _sql(path, *statements):
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_models_mirror_the_file_columns_and_skip_missing_tables(tmp_path):
    path = create_store(tmp_path / "netclaw.db", legacy=True)
    _sql(path, "DROP TABLE memory_embeddings", "DROP TABLE memory_records_fts")
    with open_store(path) as store:
        m = store.m
        assert m.embeddings is None and m.records_fts is None
        assert [f.column_name for f in stored_fields(m.documents)] == list(store.columns["memory_documents"])
        assert "domain" in m.anchors._meta.columns and m.documents._meta.database is store.db
        assert [f.column_name for f in stored_fields(m.documents_fts)] == ["document_id", "title", "body", "aliases", "facets"]
        assert m.audit is None and m.exemptions is None and m.meta is None  # created by memgui's first write
        with store.transaction():
            pass
        assert store.m.audit is not None and store.m.exemptions is not None and store.m.meta is not None


def test_two_stores_bind_their_own_models(tmp_path):
    a, b = create_store(tmp_path / "a.db"), create_store(tmp_path / "b.db", legacy=True)
    with open_store(a) as sa, open_store(b) as sb:
        sa.writes.upsert_document(make_doc(document_id="doc-a"))
        sb.writes.upsert_document(make_doc(document_id="doc-b"))
        assert [d.document_id for d in sa.documents()] == ["doc-a"]
        assert [d.document_id for d in sb.documents()] == ["doc-b"]
        assert sa.m.documents is not sb.m.documents and "domain" not in sa.m.documents._meta.columns


def test_values_round_trip_exactly_as_stored_whatever_their_sqlite_type(empty_store):
    """SQLite is dynamically typed: a REAL in an INTEGER column, a BLOB in a TEXT column and text in an INTEGER
    column must come back (and be restored) unchanged, type included."""
    doc = empty_store.writes.upsert_document(make_doc(document_id="doc-odd"))
    empty_store.execute(
        "UPDATE memory_documents SET expires_at = 1.5, slots_json = X'00FF', freshness_at = 'soon' WHERE document_id = ?",
        (doc.document_id,),
    )
    image = empty_store.images.row_image("memory_documents", "document_id", doc.document_id)
    assert image["expires_at"] == 1.5
    assert image["slots_json"] == b"\x00\xff" and image["freshness_at"] == "soon"
    with empty_store.transaction():
        empty_store.images.restore_row("memory_documents", "document_id", doc.document_id, None)
        empty_store.images.restore_row("memory_documents", "document_id", doc.document_id, image)
    types = empty_store.execute(
        "SELECT typeof(expires_at), typeof(slots_json), typeof(freshness_at) FROM memory_documents WHERE document_id = ?",
        (doc.document_id,),
    ).fetchone()
    assert types == ("real", "blob", "text")
    assert empty_store.images.row_image("memory_documents", "document_id", doc.document_id) == image


def test_a_column_named_like_a_model_method_still_round_trips(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    _sql(path, "ALTER TABLE memory_anchors ADD COLUMN \"select\" TEXT NULL",
         "ALTER TABLE memory_anchors ADD COLUMN \"delete\" TEXT NULL")
    with open_store(path) as store:
        anchor = store.writes.ensure_anchor("Odd columns")
        store.execute("UPDATE memory_anchors SET \"select\" = 's', \"delete\" = 'd'")
        image = store.images.row_image("memory_anchors", "anchor_id", anchor.anchor_id)
        assert image["select"] == "s" and image["delete"] == "d"
        with store.transaction():
            store.images.restore_row("memory_anchors", "anchor_id", anchor.anchor_id, image)
        assert store.images.row_image("memory_anchors", "anchor_id", anchor.anchor_id) == image
        assert store.anchor(anchor.anchor_id) == anchor


def test_as_stored_fields_do_not_convert(tmp_path):
    field = AsStored()
    for value in (1, 1.5, "x", b"\x00", None):
        assert field.db_value(value) is value and field.python_value(value) is value


def test_build_models_knows_only_memory_and_memgui_tables():
    m = build_models(None, {"memory_documents": ("document_id", "title"), "notes": ("x",),
                            "memory_documents_fts_data": ("id", "block")})
    assert m.documents is not None and m.anchors is None and m.of_table("notes") is None


# ---- query functions for later stages ------------------------------------------------------------------

def test_live_document_stamps_feed_the_same_fingerprint_as_the_python_formula(empty_store):
    a = empty_store.writes.upsert_document(make_doc(title="Ünïcode title", markdown_body="body ✓"))
    b = empty_store.writes.upsert_document(make_doc(title="dead"))
    empty_store.writes.tombstone_document(b.document_id)
    assert live_fingerprints(empty_store) == {a.document_id: fingerprint(a.updated_at, a.title, a.markdown_body)}


def test_append_history_ids_find_markers_and_semantics(empty_store):
    empty_store.writes.upsert_document(make_doc(document_id="doc-1", markdown_body="a\n\n---\n_[merged 2024-01-01]_\nb"))
    empty_store.writes.upsert_document(make_doc(document_id="doc-2", update_semantics="append-document"))
    empty_store.writes.upsert_document(make_doc(document_id="doc-3"))
    assert queries.append_history_document_ids(empty_store) == ["doc-1", "doc-2"]


def test_candidate_queries(empty_store):
    empty_store.writes.ensure_anchor("Alpha")
    empty_store.writes.ensure_anchor("Beta")
    old = empty_store.writes.upsert_document(make_doc(anchor_id="anchor:alpha", document_id="doc-old", markdown_body="kiwi"))
    new = empty_store.writes.upsert_document(make_doc(anchor_id="anchor:alpha", document_id="doc-new", markdown_body="kiwi kiwi"))
    empty_store.execute("UPDATE memory_documents SET updated_at = updated_at + 10 WHERE document_id = 'doc-new'")
    rows = {r[0]: r for r in queries.latest_live_document_per_active_anchor(empty_store)}
    assert rows["anchor:alpha"][2] == new.document_id and rows["anchor:beta"][2:] == (None, None, None, None)
    assert queries.live_candidate(empty_store, old.document_id)[:3] == ("anchor:alpha", "Alpha", "doc-old")
    empty_store.writes.tombstone_document(old.document_id)
    assert queries.live_candidate(empty_store, old.document_id) is None
    hits = queries.content_candidates(empty_store, '"kiwi"', 25, 5)
    assert [h[2] for h in hits] == ["doc-new"]
    assert queries.active_anchors_with_live_documents(empty_store) == [("anchor:alpha", "Alpha")]


def test_content_candidates_without_fts_table_find_nothing(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    _sql(path, "DROP TABLE memory_documents_fts")
    with open_store(path) as store:
        assert queries.content_candidates(store, '"kiwi"', 25, 5) == []
        assert store.search("kiwi") == []


def test_a_store_lacking_optional_columns_reads_their_defaults(tmp_path):
    path = tmp_path / "old.db"
    _sql(path, "CREATE TABLE memory_anchors (anchor_id TEXT PRIMARY KEY, canonical_name TEXT)",
         "CREATE TABLE memory_documents (document_id TEXT PRIMARY KEY, anchor_id TEXT, title TEXT, markdown_body TEXT)",
         "INSERT INTO memory_anchors VALUES ('anchor:a', 'A')",
         "INSERT INTO memory_documents VALUES ('doc-1', 'anchor:a', 't', 'b')")
    with open_store(path) as store:
        [doc] = store.documents()
        assert (doc.memory_class, doc.update_semantics, doc.recall_mode, doc.updated_at) == (
            "durable_fact", "merge-document", "auto", 0)
        assert queries.live_candidate(store, "doc-1") == ("anchor:a", "A", "doc-1", "b", None, 0.0)
        assert list(live_fingerprints(store)) == ["doc-1"]
        assert store.summary().live_documents == 1


@pytest.mark.parametrize("legacy", [False, True])
def test_insert_record_writes_row_and_fts_row(tmp_path, legacy):
    with open_store(create_store(tmp_path / "netclaw.db", legacy=legacy)) as store:
        store.writes.ensure_anchor("Alpha")
        values = dict(
            record_id="rec-1", anchor_id="anchor:alpha", memory_class="evidence", record_type="note",
            payload_json="kiwi", aliases_json=None, facets_json=None, slots_json=None, supersedes_record_id=None,
            update_semantics="immutable-record", boundary=None, audience=None, sensitivity="normal",
            recall_mode="auto", confidence=0.5, freshness_at=None, expires_at=None, created_at=1,
        )
        with store.transaction():
            store.writes.insert_record(values)
        assert store.images.row_image("memory_records_fts", "record_id", "rec-1") == dict(
            record_id="rec-1", title="note", body="kiwi", aliases="", facets="")
        row = store.images.row_image("memory_records", "record_id", "rec-1")
        assert (row.get("domain") == "general") if legacy else ("domain" not in row)
