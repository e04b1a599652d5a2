"""core/forensics/timeline.py: what the memory said when, for a document or an anchor — from memgui's audit rows
(merges with undo), the daemon's append histories, the inline "previously … as of" chains and the rows' own time
stamps; oldest first; tombstones marked; bad text shown, never a traceback."""
from __future__ import annotations

import sqlite3

import pytest

from factories import document, seed_document
from memgui.core.forensics.timeline import (
    SOURCE_ANCHOR,
    SOURCE_APPEND,
    SOURCE_AUDIT,
    SOURCE_DOCUMENT,
    SOURCE_INLINE,
    UnknownSubjectError,
    anchor_timeline,
    document_entries,
    document_timeline,
    history_timeline,
    ordered,
)
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store import create_store, open_store

DAY = 86_400_000
T0 = 1_735_689_600_000  # 2025-01-01 00:00 UTC

ORDERED = "Ordered a new router; delivery expected in 2-3 weeks."
ARRIVED = "The router arrived on 2025-01-19."
APPENDED = f"{ORDERED}\n\n---\n_[merged 2025-01-20]_\n{ARRIVED}"
FIRMWARE = "The router runs firmware 2.1 (previously: firmware 1.4, as of 2025-01-22)."
MERGED = "The router arrived on 2025-01-19 and runs firmware 2.1 (previously: firmware 1.4, as of 2025-01-22)."
FIRST_MERGE = "The router arrived on 2025-01-19 and runs firmware 2.1."


@pytest.fixture
def router(tmp_path):
    """Two notes of anchor "home router": an append history, a history phrase; a merge undone, then a merge kept."""
    store = open_store(create_store(tmp_path / "netclaw.db"))
    a = seed_document(store, "Router order", APPENDED, anchor="home router", created_at=T0, updated_at=T0 + 20 * DAY,
                      freshness_at=T0 + 19 * DAY, update_semantics="append-document")
    b = seed_document(store, "Router firmware", FIRMWARE, anchor="home router", created_at=T0 + 25 * DAY,
                      updated_at=T0 + 25 * DAY, freshness_at=T0 + 25 * DAY)
    ids = (a.document_id, b.document_id)
    first = merge_cluster(store, MergePlan(a.document_id, ids, merged_body=FIRST_MERGE,
                                           drafted=draft_stamps(store, ids), guard_override=True))
    undone = undo(store, first.audit_id)
    kept = merge_cluster(store, MergePlan(a.document_id, ids, merged_body=MERGED, drafted=draft_stamps(store, ids),
                                          guard_override=True))
    yield store, a.document_id, b.document_id, (first.audit_id, undone.audit_id, kept.audit_id)
    store.close()


def _rows(timeline):
    return [(e.source, e.kind, e.date, e.text) for e in timeline.entries]


def test_a_documents_timeline_lists_every_source_oldest_first(router):
    store, a, _, (first, undone, kept) = router
    t = document_timeline(store, a)
    assert t.subject_kind == "document" and t.name == "Router order" and not t.tombstoned
    rows = _rows(t)
    # what it said when, in this order: created with the plan, the daemon's append, its freshness, the history
    # phrase's day, then memgui's three writes
    assert rows[:4] == [
        (SOURCE_DOCUMENT, "created", "2025-01-01", ORDERED),
        (SOURCE_APPEND, "appended", "2025-01-20", ARRIVED),
        (SOURCE_DOCUMENT, "fresh", "2025-01-20", APPENDED),  # as of its freshness: before memgui rewrote it
        (SOURCE_INLINE, "previously", "2025-01-22", "firmware 1.4"),
    ]
    audit = [e for e in t.entries if e.source == SOURCE_AUDIT]
    assert [(e.kind, e.audit_id, e.state) for e in audit] == [("merge", first, "undone"), ("undo", undone, "applied"),
                                                              ("merge", kept, "applied")]
    assert [e.text for e in audit] == [FIRST_MERGE, APPENDED, MERGED]
    assert [e.before for e in audit] == [APPENDED, FIRST_MERGE, APPENDED]
    assert "undone since" in audit[0].note and f"undo of #{first}" in audit[1].note
    assert audit[0].undone and not audit[2].undone
    # the append is no longer in the body (the kept merge rewrote it): the audit's before-image still has it
    append = next(e for e in t.entries if e.source == SOURCE_APPEND)
    assert "no longer in the body" in append.note
    fresh = next(e for e in t.entries if e.kind == "fresh")
    assert f"its text before audit #{first}" in fresh.note
    times = [e.time_ms for e in audit]
    assert times == sorted(times) and len(t.entries) == 7


def test_an_anchor_by_name_or_id_gathers_its_documents_and_marks_the_tombstoned_one(router):
    store, a, b, (_, _, kept) = router
    by_name = anchor_timeline(store, "Home Router")
    assert by_name.as_dict() == anchor_timeline(store, "anchor:home-router").as_dict()
    assert by_name.subject_id == "anchor:home-router" and by_name.name == "home router"
    assert {(d.document_id, d.tombstoned) for d in by_name.documents} == {(a, False), (b, True)}
    assert any("tombstoned" in n and "Router firmware" in n for n in by_name.notes)
    # the firmware note's own creation and its tombstoning by the kept merge are there
    assert (SOURCE_DOCUMENT, "created", "2025-01-26", FIRMWARE) in _rows(by_name)
    tomb = [e for e in by_name.entries if e.document_id == b and e.audit_id == kept]
    assert len(tomb) == 1 and tomb[0].tombstoned and "tombstoned by this write" in tomb[0].note
    # one history phrase carried by both notes is one entry that names the other note
    phrases = [e for e in by_name.entries if e.source == SOURCE_INLINE]
    assert len(phrases) == 1 and phrases[0].text == "firmware 1.4" and "also in" in phrases[0].note
    assert by_name.entries[0].source == SOURCE_DOCUMENT  # 2025 stamps before the anchor row written today
    assert any(e.source == SOURCE_ANCHOR for e in by_name.entries)
    dates = [e.date or "" for e in by_name.entries]
    assert dates == sorted(dates)


def test_a_tombstoned_documents_own_history_is_still_shown(router):
    store, _, b, _ = router
    t = document_timeline(store, b)
    assert t.tombstoned and t.documents[0].tombstoned
    assert any("tombstoned" in n for n in t.notes)
    assert (SOURCE_INLINE, "previously", "2025-01-22", "firmware 1.4") in _rows(t)
    assert t.as_dict()["subject"]["tombstoned"] is True


def test_unknown_document_and_anchor_are_one_line_errors(router):
    store = router[0]
    with pytest.raises(UnknownSubjectError, match="no such document"):
        document_timeline(store, "doc-00000000000000000000000000000000")
    with pytest.raises(UnknownSubjectError, match="no such anchor"):
        anchor_timeline(store, "nowhere")
    with pytest.raises(ValueError):
        history_timeline(store)


def test_a_document_whose_row_is_gone_is_shown_from_the_audit(tmp_path):
    """A row memgui's audit knows but the store no longer holds (deleted by hand): its texts come from the audit."""
    store = open_store(create_store(tmp_path / "netclaw.db"))
    try:
        a = seed_document(store, "A", "Alpha runs on port 8080.", anchor="alpha")
        b = seed_document(store, "B", "Alpha logs to /var/log/alpha.", anchor="alpha")
        ids = (a.document_id, b.document_id)
        merge_cluster(store, MergePlan(a.document_id, ids, merged_body="Alpha runs on port 8080 and logs to "
                                       "/var/log/alpha.", drafted=draft_stamps(store, ids), guard_override=True))
        path = store.path
    finally:
        store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM memory_documents WHERE document_id = ?", (b.document_id,))
    store = open_store(path)
    try:
        t = document_timeline(store, b.document_id)
        assert not t.documents[0].in_store and "no longer in the store" in t.notes[0]
        assert [e.text for e in t.entries] == ["Alpha logs to /var/log/alpha."]
        assert t.entries[0].tombstoned and t.name == "B"
    finally:
        store.close()


def test_bad_bytes_and_lone_surrogates_are_shown_repaired(tmp_path):
    store = open_store(create_store(tmp_path / "netclaw.db"))
    try:
        doc = seed_document(store, "Bytes", "placeholder", anchor="bytes", created_at=T0)
        path = store.path
    finally:
        store.close()
    with sqlite3.connect(path) as conn:  # bytes that are not UTF-8, stored as TEXT (another tool wrote them)
        conn.execute("UPDATE memory_documents SET markdown_body = CAST(X'4f6c64ff20746578742e' AS TEXT) "
                     "WHERE document_id = ?", (doc.document_id,))
    store = open_store(path)
    try:
        t = document_timeline(store, doc.document_id)
        created = next(e for e in t.entries if e.kind == "created")
        assert created.text == "Old\ufffd text."
    finally:
        store.close()
    lone = document("Now 2 (previously: 1 \ud800, as of 2025-02-01).", title="T\udc80", created_at=T0)
    entries = ordered(document_entries(lone))
    assert all(e.repaired for e in entries)
    assert [e.text for e in entries] == ["Now 2 (previously: 1 \ufffd, as of 2025-02-01).", "1 \ufffd"]
    assert entries[0].title == "T\ufffd"
    for e in entries:
        e.text.encode("utf-8")  # printable: no lone surrogate left


def test_order_undated_first_then_day_only_before_timed_entries_of_the_same_day():
    doc = document(f"{ORDERED}\n\n---\n_[merged 2025-01-01]_\n{ARRIVED} (previously: pending, as of 2024-12-31)",
                   created_at=0, updated_at=T0 + 3_600_000, freshness_at=None)
    entries = ordered(document_entries(doc))
    assert [(e.kind, e.date) for e in entries] == [("created", None), ("previously", "2024-12-31"),
                                                   ("appended", "2025-01-01"), ("updated", "2025-01-01")]
    assert "no creation time" in entries[0].note
    assert entries[0].text == ORDERED


def test_a_history_phrase_with_an_impossible_date_keeps_its_text():
    entries = document_entries(document("Limit is 5 (previously: 3, as of 2025-13-45).", created_at=T0))
    phrase = next(e for e in entries if e.source == SOURCE_INLINE)
    assert phrase.date is None and phrase.text == "3" and "not a calendar day" in phrase.note


def test_fresh_is_the_present_statement_without_its_history_phrases():
    doc = document("The limit is 5 (previously: 3, as of 2025-02-01). It resets monthly.", created_at=T0,
                   freshness_at=T0 + 40 * DAY)
    fresh = next(e for e in document_entries(doc) if e.kind == "fresh")
    assert fresh.text == "The limit is 5. It resets monthly." and fresh.date == "2025-02-10"
