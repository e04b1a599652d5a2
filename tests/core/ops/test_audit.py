"""core/store/audit_log.py and core/ops/undo.py: the audit trail, undo with conflict check, redo. Undo must leave every touched row
byte-identical (documents, FTS rows, embedding rows, anchors, records, exemptions)."""
from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from factories import seed_document, seed_embedding
from memgui.core.curation.types import Candidate, CurationDecision, DecisionKind, Proposal
from memgui.core.ops.apply import (
    MODE_APPEND,
    MergePlan,
    SourceStamp,
    apply_decision,
    draft_stamps,
    edit_document,
    keep_separate,
    merge_cluster,
)
from memgui.core.ops.undo import AuditError, AuditNotFoundError, UndoConflictError, redo, undo
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import get_entry, list_entries
from memgui.core.store.exemptions import exempt_pairs

WHEN = date(2026, 6, 1)
A_BODY = "The build server is ci.example.org running version 1.5.62."
B_BODY = "The build server now also runs nightly at 02:00 UTC."
MERGED = "The build server is ci.example.org running version 1.5.62 and also runs nightly at 02:00 UTC."


# what every seeded row here carries beyond the factory defaults
ROW = dict(aliases_json='["ci"]', facets_json='["infra"]', freshness_at=1_700_000_000_000)


def ramp(dims: int) -> list[float]:
    """Distinct components, so a restored vector blob is checked value by value."""
    return [(i + 1) / 7 for i in range(dims)]


def dump(store) -> dict:
    tables = {
        "memory_documents": "document_id", "memory_documents_fts": "document_id",
        "memory_embeddings": "item_id, model_id", "memory_anchors": "anchor_id", "memory_records": "record_id",
        "memory_records_fts": "record_id", "memgui_exemptions": "first_id, second_id",
    }
    out = {}
    for table, order in tables.items():  # quote() shows each value's exact storage class (1 vs 1.0, blobs)
        cols = [r[1] for r in store.execute(f"PRAGMA table_info('{table}')").fetchall()]
        select = ", ".join(f"quote({c})" for c in cols)
        out[table] = store.execute(f"SELECT {select} FROM {table} ORDER BY {order}").fetchall()
    return out


def content(dump_: dict) -> dict:
    """Every table but memory_embeddings: undo restores content; the daemon re-embeds restored documents."""
    return {t: rows for t, rows in dump_.items() if t != "memory_embeddings"}


@pytest.fixture
def seeded(empty_store):
    store = empty_store
    a = seed_document(store, "Build server", A_BODY, anchor="build-server", **ROW)
    b = seed_document(store, "Nightly", B_BODY, anchor="nightly", **ROW)
    c = seed_document(store, "Legacy", "Kept for 30 days.", anchor="retention", boundary=None, audience=None,
                      **ROW)
    for doc in (a, b, c):
        seed_embedding(store, doc.document_id, "snowflake-arctic-embed-m-int8", 8, vector=ramp(8))
        seed_embedding(store, doc.document_id, "all-minilm-l6-v2", 4, vector=ramp(4))
    return store, store.document(a.document_id), store.document(b.document_id), store.document(c.document_id)


def _merge(store, a, b, c, **kw):
    ids = [a.document_id, b.document_id, c.document_id]
    return merge_cluster(store, MergePlan(a.document_id, tuple(ids), mode=MODE_APPEND, drafted=draft_stamps(store, ids),
                                          when=WHEN, **kw))


def test_apply_then_undo_is_byte_identical_and_redo_reapplies(seeded):
    store, a, b, c = seeded
    before = dump(store)
    assert before["memory_embeddings"] != []
    entry = _merge(store, a, b, c, note="merge three")
    applied = dump(store)
    assert applied != before
    assert applied["memory_embeddings"] == []  # rewritten and tombstoned docs lose their vectors

    undone = undo(store, entry.audit_id, note="oops")
    assert content(dump(store)) == content(before)  # every row and FTS row exactly as before
    # memgui never writes memory_embeddings: the restored documents are left for the daemon to re-embed
    assert dump(store)["memory_embeddings"] == []
    assert undone.operation == "undo" and undone.reverts_audit_id == entry.audit_id and undone.note == "oops"
    assert get_entry(store, entry.audit_id).state == "undone"

    redone = redo(store, entry.audit_id)
    assert dump(store) == applied
    assert redone.operation == "redo" and get_entry(store, entry.audit_id).state == "applied"

    undo(store, entry.audit_id)  # and round again
    assert content(dump(store)) == content(before)


def test_undo_and_redo_of_a_guarded_merge_override_and_edit(seeded):
    store, a, b, c = seeded
    before = dump(store)
    e1 = merge_cluster(store, MergePlan(a.document_id, (b.document_id,), merged_body=MERGED,
                                        drafted=draft_stamps(store, [a.document_id, b.document_id])))
    e2 = edit_document(store, c.document_id, "Kept for 30 days, then archived.",
                       SourceStamp.of(store.document(c.document_id)))
    undo(store, e2.audit_id)
    undo(store, e1.audit_id)
    assert content(dump(store)) == content(before)


def test_undo_of_create_removes_the_document_and_restores_the_anchor(seeded):
    store, _a, *_ = seeded
    before = dump(store)
    result = apply_decision(store, Proposal("Fresh", "A brand new fact.", anchor_name="fresh-topic"),
                            CurationDecision(DecisionKind.CREATE), [], when=WHEN)
    assert store.document(result.document_id) is not None and store.anchor("anchor:fresh-topic") is not None
    undo(store, result.audit_id)
    assert store.document(result.document_id) is None and store.anchor("anchor:fresh-topic") is None
    assert dump(store) == before


def test_undo_of_an_llm_consolidate_restores_reanchored_docs_and_anchors(seeded):
    store, a, b, _c = seeded
    before = dump(store)
    cands = [Candidate(d.document_id, d.anchor_id, d.anchor_id[7:], d.markdown_body, d.freshness_at, d.confidence)
             for d in (a, b)]
    decision = CurationDecision(DecisionKind.CONSOLIDATE, a.document_id, (a.document_id, b.document_id),
                                canonical_anchor_name="build-server", merged_body="too short", from_llm_tier=True)
    result = apply_decision(store, Proposal("Build", "Runs on Debian 12.", anchor_name="build-servers"), decision, cands,
                            when=WHEN)
    assert result.outcome == "appended" and store.document(b.document_id).anchor_id == "anchor:build-server"
    undo(store, result.audit_id)
    assert content(dump(store)) == content(before)


def test_undo_of_a_record_create(seeded):
    store, *_ = seeded
    before = dump(store)
    p = Proposal("event", '{"x":1}', anchor_name="trip", kind="record", memory_class="evidence", recall_mode="searchable")
    result = apply_decision(store, p, CurationDecision(DecisionKind.CREATE), [])
    assert len(store.records()) == 1
    undo(store, result.audit_id)
    assert dump(store) == before


def test_undo_refuses_when_a_touched_row_changed(seeded):
    store, a, b, c = seeded
    entry = _merge(store, a, b, c)
    store.writes.upsert_document(replace(store.document(a.document_id), markdown_body="edited by the daemon afterwards"))
    after_edit = dump(store)
    with pytest.raises(UndoConflictError) as err:
        undo(store, entry.audit_id)
    assert err.value.document_id == a.document_id and a.document_id in str(err.value)
    assert dump(store) == after_edit and get_entry(store, entry.audit_id).state == "applied"
    assert list_entries(store, operation="undo") == []


def test_undo_survives_the_daemon_re_embedding_a_rewritten_document(seeded):
    store, a, b, c = seeded
    entry = _merge(store, a, b, c)
    merged = store.document(a.document_id)
    # the daemon re-embeds the rewritten target (memgui deleted its vectors on purpose)
    seed_embedding(store, merged.document_id, "snowflake-arctic-embed-m-int8", 8, vector=ramp(8))
    undone = undo(store, entry.audit_id)  # not a conflict: the content is what memgui wrote
    assert undone.operation == "undo"
    assert store.document(a.document_id).markdown_body == a.markdown_body
    # the vector of the merged text is stale now: removed, so the daemon re-embeds the restored text
    assert dump(store)["memory_embeddings"] == []


def test_undo_still_refuses_when_the_fts_row_changed(seeded):
    store, a, b, c = seeded
    entry = _merge(store, a, b, c)
    with store.transaction():  # someone else rewrote the merged document's search row
        store.execute("UPDATE memory_documents_fts SET title = 'changed' WHERE document_id = ?", (a.document_id,))
    with pytest.raises(UndoConflictError, match=a.document_id):
        undo(store, entry.audit_id)
    assert get_entry(store, entry.audit_id).state == "applied"


def test_redo_refuses_when_a_row_changed_after_undo(seeded):
    store, a, b, c = seeded
    entry = _merge(store, a, b, c)
    undo(store, entry.audit_id)
    store.writes.upsert_document(replace(store.document(b.document_id), markdown_body=B_BODY + " Also Sundays."))
    with pytest.raises(UndoConflictError, match=b.document_id):
        redo(store, entry.audit_id)
    assert get_entry(store, entry.audit_id).state == "undone"


def test_state_rules(seeded):
    store, a, b, c = seeded
    entry = _merge(store, a, b, c)
    with pytest.raises(AuditError, match="not undone"):
        redo(store, entry.audit_id)
    u = undo(store, entry.audit_id)
    with pytest.raises(AuditError, match="already undone"):
        undo(store, entry.audit_id)
    with pytest.raises(AuditError, match="redo"):
        undo(store, u.audit_id)  # an undo entry is not itself undone; redo the original instead
    r = redo(store, u.audit_id)  # the undo entry's id is accepted by redo
    assert r.reverts_audit_id == entry.audit_id
    with pytest.raises(AuditNotFoundError):
        undo(store, 9999)
    with pytest.raises(AuditNotFoundError):
        undo(store, "x")


def test_keep_separate_undo_removes_the_exemptions(seeded):
    store, a, b, _c = seeded
    entry = keep_separate(store, [a.document_id, b.document_id], note="different facts")
    assert exempt_pairs(store) == {frozenset((a.document_id, b.document_id))}
    undo(store, entry.audit_id)
    assert exempt_pairs(store) == set()
    redo(store, entry.audit_id)
    assert exempt_pairs(store) == {frozenset((a.document_id, b.document_id))}


def test_list_entries_filters(seeded):
    store, a, b, c = seeded
    m = _merge(store, a, b, c)
    d = apply_decision(store, Proposal("Fresh", "New fact.", anchor_name="fresh"), CurationDecision(DecisionKind.CREATE), [])
    u = undo(store, m.audit_id)
    assert [e.audit_id for e in list_entries(store)] == [u.audit_id, d.audit_id, m.audit_id]  # newest first
    assert [e.audit_id for e in list_entries(store, operation="merge")] == [m.audit_id]
    assert [e.audit_id for e in list_entries(store, operation=["merge", "undo"])] == [u.audit_id, m.audit_id]
    assert {e.audit_id for e in list_entries(store, document_id=c.document_id)} == {m.audit_id, u.audit_id}
    assert [e.audit_id for e in list_entries(store, document_id=d.document_id)] == [d.audit_id]
    assert [e.audit_id for e in list_entries(store, limit=1)] == [u.audit_id]
    assert [e.audit_id for e in list_entries(store, state="undone")] == [m.audit_id]
    assert list_entries(store, guard_passed=True)[0].audit_id == m.audit_id
    entry = get_entry(store, m.audit_id)
    assert set(entry.touched_documents) == {a.document_id, b.document_id, c.document_id}
    assert entry.to_dict()["source_ids"] == [a.document_id, b.document_id, c.document_id]
    assert "before" in entry.to_dict(images=True) and "before" not in entry.to_dict()
    assert get_entry(store, 4242) is None


def test_an_operation_a_newer_memgui_wrote_still_lists_as_written(seeded):
    """The `operation` column is read into an Operation; one this version does not know is kept with its raw
    value (not refused, not renamed), so the audit still lists, filters and exports it."""
    from memgui.core.store.audit_log import Operation, audit_heads

    store, a, b, c = seeded
    m = _merge(store, a, b, c)
    (known,) = list_entries(store)
    assert known.operation is Operation.MERGE and known.operation.known
    store.execute("UPDATE memgui_audit SET operation = 'split' WHERE audit_id = ?", (m.audit_id,))
    (entry,) = list_entries(store)
    assert isinstance(entry.operation, Operation) and not entry.operation.known
    assert entry.operation == "split" and f"{entry.operation:<6}|" == "split |" and entry.operation not in Operation
    assert entry.to_dict()["operation"] == "split" and audit_heads(store)[0].operation == "split"
    assert [e.audit_id for e in list_entries(store, operation=Operation.read("split"))] == [m.audit_id]
    assert list_entries(store, operation=Operation.MERGE) == []
    with pytest.raises(ValueError):
        Operation("split")  # only the read is lenient


def test_a_state_a_newer_memgui_wrote_still_lists_and_is_neither_undone_nor_redone(seeded):
    from memgui.core.store.audit_log import AuditState, audit_heads, entry_state

    store, a, b, c = seeded
    m = _merge(store, a, b, c)
    assert list_entries(store)[0].state is AuditState.APPLIED
    store.execute("UPDATE memgui_audit SET state = 'archived' WHERE audit_id = ?", (m.audit_id,))
    (entry,) = list_entries(store)
    assert isinstance(entry.state, AuditState) and not entry.state.known and entry.state == "archived"
    assert entry.to_dict()["state"] == "archived" and audit_heads(store)[0].state == entry_state(store, m.audit_id)
    with pytest.raises(AuditError):
        undo(store, m.audit_id)
    with pytest.raises(AuditError):
        redo(store, m.audit_id)


def test_read_only_store_without_memgui_tables_lists_nothing(tmp_path):
    path = create_store(tmp_path / "fresh.db")
    with open_store(path, read_only=True) as ro:
        assert list_entries(ro) == [] and get_entry(ro, 1) is None and exempt_pairs(ro) == set()


def test_legacy_store_round_trip(tmp_path):
    """A prototype-era store with the extra `domain` column: images carry it and undo restores it."""
    store = open_store(create_store(tmp_path / "legacy.db", legacy=True))
    try:
        a = seed_document(store, "A", A_BODY, anchor="build-server", **ROW)
        b = seed_document(store, "B", B_BODY, anchor="nightly", **ROW)
        before = dump(store)
        entry = merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode=MODE_APPEND,
                                               drafted=draft_stamps(store, [a.document_id, b.document_id])))
        assert "domain" in entry.before["documents"][a.document_id]["row"]
        undo(store, entry.audit_id)
        assert dump(store) == before
    finally:
        store.close()


def test_invalid_utf8_comes_back_from_undo_and_redo_byte_for_byte(seeded):
    store, a, b, c = seeded
    raw_title, raw_body = b"Caf\xe9 notes", b"Build box \xff\xfe runs 1.5.62."  # Latin-1 bytes, not UTF-8
    with store.transaction():
        store.execute("UPDATE memory_documents SET title = CAST(? AS TEXT), markdown_body = CAST(? AS TEXT) "
                      "WHERE document_id = ?", (raw_title, raw_body, b.document_id))

    def stored():
        return store.execute("SELECT typeof(title), CAST(title AS BLOB), typeof(markdown_body), "
                             "CAST(markdown_body AS BLOB) FROM memory_documents WHERE document_id = ?",
                             (b.document_id,)).fetchone()

    original = stored()
    assert original == ("text", raw_title, "text", raw_body)
    entry = _merge(store, a, store.document(b.document_id), c)
    assert store.document(b.document_id).is_tombstoned
    undo(store, entry.audit_id)
    assert stored() == original  # not U+FFFD: the exact bytes, still TEXT
    redo(store, entry.audit_id)
    undo(store, entry.audit_id)
    assert stored() == original
