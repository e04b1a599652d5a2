"""core/store/review_marks.py: the review queue's marks, keyed by members + content stamps, lasting across
sessions; reading writes nothing, a mark write is one transaction (memgui's tables created inside it)."""
from __future__ import annotations

import hashlib
import os
import stat

import pytest

from factories import seed_document, update_document
from memgui.core.store import StoreReadOnlyError, create_store, memgui_schema, open_store
from memgui.core.store.audit_log import STATE_UNDONE, record_entry, set_state
from memgui.core.store.exemptions import add_exemption
from memgui.core.store.review_marks import ReviewMark, cluster_key, read_marks, write_marks


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def seeded(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Prod DB", "Postgres 14.2 on db-01, port 5432.", anchor="db")
        b = seed_document(store, "Database", "The database is Postgres 14.2 (db-01:5432).", anchor="db")
    return path, a.document_id, b.document_id


def _key(store, *ids) -> str:
    return cluster_key(ids, {d.document_id: d for d in store.documents_by_ids(ids)})


def test_the_key_follows_members_and_their_stamps_not_their_order(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        key = _key(store, a, b)
        assert key == _key(store, b, a)
        assert key != _key(store, a)
        update_document(store, store.document(b), markdown_body="The database is Postgres 14.2 (db-01:5432). ")
        assert _key(store, a, b) != key  # one trailing space is a changed member


def _as_if_memgui_never_wrote(path) -> None:
    """Seeding documents was memgui's first write: take its tables away again."""
    with open_store(path) as store:
        for table in [t for t in store.columns if t.startswith("memgui_")]:
            store.execute(f"DROP TABLE {table}")


def test_reading_marks_writes_nothing_and_the_first_mark_creates_the_tables(seeded):
    path, a, b = seeded
    _as_if_memgui_never_wrote(path)
    before = _digest(path)
    with open_store(path) as store:
        key = _key(store, a, b)
        assert read_marks(store, [key]) == {}
        assert not store.has_table("memgui_review_marks") and store.memgui_schema_version() == 0
    assert _digest(path) == before  # opening and reading wrote nothing
    with open_store(path) as store:
        write_marks(store, [ReviewMark(key, (a, b), "skipped", None, 1234)])
        assert store.memgui_schema_version() == memgui_schema.current_version() >= 2
    with open_store(path) as store:  # another session
        assert read_marks(store, [key, "mk-other"]) == {key: ReviewMark(key, (a, b), "skipped", None, 1234)}


def test_a_store_at_version_1_climbs_to_the_current_version_with_its_first_mark(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        add_exemption(store, "doc-x", "doc-y")  # memgui's v1 tables
    with open_store(path) as store:
        store.execute("UPDATE memgui_meta SET value = '1' WHERE key = 'schema_version'")
        store.execute("DROP TABLE memgui_review_marks")
    with open_store(path) as store:
        assert store.memgui_schema_version() == 1 and read_marks(store, [_key(store, a, b)]) == {}
        write_marks(store, [ReviewMark(_key(store, a, b), (a, b), "kept separate", None, 5)])
        assert store.memgui_schema_version() == memgui_schema.current_version() and len(read_marks(store, [_key(store, a, b)])) == 1


def test_put_replace_and_remove_in_order_in_one_transaction(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        key = _key(store, a, b)
        write_marks(store, [ReviewMark(key, (a, b), "skipped", None, 1), ReviewMark(key, (a, b), "merged", None, 2)])
        assert read_marks(store, [key])[key].status == "merged"
        write_marks(store, [ReviewMark(key, (a, b), None)])
        assert read_marks(store, [key]) == {}

        class Boom(Exception):
            pass

        with pytest.raises(Boom), store.transaction():
            write_marks(store, [ReviewMark(key, (a, b), "skipped", None, 3)])
            raise Boom
        assert read_marks(store, [key]) == {}  # rolled back with the caller's transaction


def test_a_mark_of_an_undone_write_no_longer_applies(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        key = _key(store, a, b)
        with store.transaction():
            audit_id = record_entry(store, operation="keep-separate", target_id=None, source_ids=[a, b],
                                    before={}, after={})
        write_marks(store, [ReviewMark(key, (a, b), "kept separate", audit_id, 7)])
        assert read_marks(store, [key])[key].audit_id == audit_id
        with store.transaction():
            set_state(store, audit_id, STATE_UNDONE)
        assert read_marks(store, [key]) == {}


def test_read_only_store_reads_marks_and_refuses_to_write_them(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        key = _key(store, a, b)
        write_marks(store, [ReviewMark(key, (a, b), "skipped", None, 9)])
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP)
    try:
        with open_store(path) as store:
            assert store.read_only and read_marks(store, [key])[key].status == "skipped"
            with pytest.raises(StoreReadOnlyError):
                write_marks(store, [ReviewMark(key, (a, b), None)])
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_many_keys_are_read_in_batches(seeded):
    path, a, b = seeded
    with open_store(path) as store:
        marks = [ReviewMark(f"mk-{i:04d}", (a, b), "skipped", None, i) for i in range(1200)]
        write_marks(store, marks)
        assert len(read_marks(store, [m.cluster_key for m in marks])) == 1200
