"""The store's FTS refresh and tombstone find a document's FTS rows by rowid through FTS5's content table (a
DELETE by the UNINDEXED document_id re-reads every FTS row: ≈ 3× as long on a 1 MB text). What Netclaw sees must
not change: the FTS table ends exactly as Netclaw's own `DELETE … WHERE document_id = ?` leaves it, searches
find the same documents, and every row for the id goes (stale duplicates included)."""
from __future__ import annotations

import shutil
import sqlite3

import pytest

from factories import document, seed_document
from memgui.core.ops.apply import MODE_MERGED_BODY, MergePlan, draft_stamps, merge_cluster
from memgui.core.store import create_store, open_store
from memgui.core.store.errors import StoreError
from memgui.core.store.netclaw_writes import NetclawWrites


def _fts(path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        conn.execute("INSERT INTO memory_documents_fts(memory_documents_fts) VALUES('integrity-check')")
        rows = conn.execute("SELECT document_id, title, body, aliases, facets FROM memory_documents_fts "
                            "ORDER BY document_id, body").fetchall()
        hits = conn.execute("SELECT document_id FROM memory_documents_fts WHERE memory_documents_fts MATCH "
                            "'\"harbour\" OR \"ferry\" OR \"tram\"' ORDER BY document_id").fetchall()
        return [*rows, ("hits", *[h[0] for h in hits])]
    finally:
        conn.close()


def _netclaw_rewrite(path, doc_id: str, body: str | None) -> None:
    """What Netclaw's store does to the FTS table: delete by document_id, then (a rewrite) insert."""
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM memory_documents_fts WHERE document_id = ?", (doc_id,))
    if body is not None:
        title = conn.execute("SELECT title FROM memory_documents WHERE document_id = ?", (doc_id,)).fetchone()[0]
        conn.execute("INSERT INTO memory_documents_fts (document_id, title, body, aliases, facets) "
                     "VALUES (?, ?, ?, '', '')", (doc_id, title, body))
    conn.commit()
    conn.close()


def test_refresh_and_tombstone_leave_the_fts_table_as_netclaws_delete_does(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        ids = [seed_document(store, f"Note {i}", f"The harbour ferry {i} leaves at {i}:00. " * 40,
                             anchor="travel").document_id for i in range(5)]
    twin = tmp_path / "twin.db"
    shutil.copy(path, twin)
    new_body = "The tram replaced the ferry. " * 50
    with open_store(path) as store:
        store.writes.upsert_document(document(new_body, title="Note 1", anchor="travel", document_id=ids[1]))
        store.writes.tombstone_document(ids[3])
    _netclaw_rewrite(twin, ids[1], new_body)
    _netclaw_rewrite(twin, ids[3], None)
    assert _fts(path) == _fts(twin)


def test_every_fts_row_of_the_document_goes_stale_duplicates_included(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        doc = seed_document(store, "Ferry", "The harbour ferry leaves at noon.", anchor="travel")
        other = seed_document(store, "Tram", "The tram leaves at one.", anchor="travel")
    conn = sqlite3.connect(path)  # a stale second row for the same id, as a crashed writer could leave
    conn.execute("INSERT INTO memory_documents_fts (document_id, title, body, aliases, facets) "
                 "VALUES (?, 'Ferry', 'An older ferry text.', '', '')", (doc.document_id,))
    conn.commit()
    conn.close()
    with open_store(path) as store:
        store.writes.tombstone_document(doc.document_id)
        assert store.images.row_image("memory_documents_fts", "document_id", doc.document_id) is None
        other_fts = store.images.row_image("memory_documents_fts", "document_id", other.document_id)
        assert other_fts["body"] == "The tram leaves at one."
    assert [r[0] for r in _fts(path)[:-1]] == [other.document_id]


def test_a_merge_that_fails_after_the_fts_refresh_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    """A store write inside the merge's transaction is a part of it (no savepoint of its own): a failure after the
    target's row and FTS row were rewritten still rolls back everything, FTS included."""
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Ferry", "The harbour ferry leaves at noon. " * 60, anchor="travel").document_id
        b = seed_document(store, "Ferry 2", "The harbour ferry leaves at noon daily. " * 60, anchor="travel").document_id
    before = _fts(path)

    def fail(self, document_id):
        raise StoreError("disk full (simulated)")

    monkeypatch.setattr(NetclawWrites, "tombstone_document", fail)
    with open_store(path) as store:
        stamps = draft_stamps(store, [a, b])
        body = store.document(a).markdown_body + " The tram replaced it on Sundays."
        with pytest.raises(StoreError):
            merge_cluster(store, MergePlan(a, (b,), MODE_MERGED_BODY, body, stamps))
        assert draft_stamps(store, [a, b]) == stamps
    assert _fts(path) == before
