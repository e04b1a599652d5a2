"""core/ops/history.py: the reviewer's undo / redo history read from the audit log — newest standing write first,
redo while no new write came after the undo, a session's start and actors, its limit, and the refusals."""
from __future__ import annotations

import pytest

from factories import seed_document
from memgui.core.ops.apply import MergePlan, draft_stamps, keep_separate, merge_cluster
from memgui.core.ops.changes import Effect
from memgui.core.ops.history import (
    HistoryMovedError,
    HistoryScope,
    NothingToUndoError,
    history,
    redo_last,
    undo_last,
)
from memgui.core.ops.undo import UndoConflictError, undo
from memgui.core.store.audit_log import get_entry

MERGED = "The build server is ci.example.org running version 1.5.62 and also runs nightly at 02:00 UTC."
CLI = HistoryScope()


@pytest.fixture
def docs(empty_store):
    store = empty_store
    ids = [seed_document(store, title, body, anchor=anchor).document_id for title, body, anchor in (
        ("Build server", "The build server is ci.example.org running version 1.5.62.", "build-server"),
        ("Nightly", "The build server now also runs nightly at 02:00 UTC.", "nightly"),
        ("Legacy", "Kept for 30 days.", "retention"),
        ("Other", "The wiki lives at wiki.example.org.", "wiki"))]
    return store, ids


def _merge(store, a, b, decided_by="reviewer"):
    return merge_cluster(store, MergePlan(a, (a, b), merged_body=MERGED, drafted=draft_stamps(store, [a, b]),
                                          decided_by=decided_by))


def test_undo_takes_the_newest_standing_write_and_redo_walks_back_in_order(docs):
    store, (a, b, c, d) = docs
    assert history(store, CLI).undo is None and history(store, CLI).redo is None
    merged = _merge(store, a, b)
    kept = keep_separate(store, [c, d])
    h = history(store, CLI)
    assert h.undo is not None and h.undo.audit_id == kept.audit_id and h.redo is None
    assert h.undo.description == "keep-separate of 1 pair(s) of 2 documents"
    assert undo_last(store, CLI).changes.undone == (kept.audit_id,)
    step = history(store, CLI).undo
    assert step is not None and step.audit_id == merged.audit_id
    assert step.description == "merge of 2 documents into “Build server”"
    undo_last(store, CLI)
    assert history(store, CLI).undo is None
    redo = history(store, CLI).redo
    assert redo is not None and redo.audit_id == merged.audit_id  # the newest undo first
    assert redo_last(store, CLI).changes.standing == ((merged.audit_id, Effect.MERGED),)
    assert history(store, CLI).redo.audit_id == kept.audit_id
    redo_last(store, CLI)
    h = history(store, CLI)
    assert h.redo is None and h.undo.audit_id == kept.audit_id


def test_a_new_write_after_an_undo_ends_the_redo_chain(docs):
    store, (a, b, c, d) = docs
    merged = _merge(store, a, b)
    undo_last(store, CLI)
    assert history(store, CLI).redo.audit_id == merged.audit_id
    keep_separate(store, [c, d])
    assert history(store, CLI).redo is None
    with pytest.raises(NothingToUndoError):
        redo_last(store, CLI)
    assert get_entry(store, merged.audit_id).state == "undone"  # nothing was written


def test_the_history_follows_an_undo_made_elsewhere(docs):
    """The Audit tab (or another process) undid the newest write by id: the history does not offer it again."""
    store, (a, b, c, d) = docs
    merged = _merge(store, a, b)
    kept = keep_separate(store, [c, d])
    undo(store, kept.audit_id)
    h = history(store, CLI)
    assert h.undo.audit_id == merged.audit_id and h.redo.audit_id == kept.audit_id


def test_a_session_sees_only_its_own_actors_writes_since_it_began(docs):
    store, (a, b, c, d) = docs
    before = _merge(store, a, b)
    started = get_entry(store, before.audit_id).created_at + 1
    session = HistoryScope.session(started)
    assert history(store, session).undo is None  # written before the session began
    with pytest.raises(NothingToUndoError):
        undo_last(store, session)
    cli = merge_cluster(store, MergePlan(c, (c, d), merged_body="Kept for 30 days. The wiki lives at wiki.example.org.",
                                         drafted=draft_stamps(store, [c, d]), decided_by="cli"))
    store.execute("UPDATE memgui_audit SET created_at = ? WHERE audit_id = ?", (started + 5, cli.audit_id))
    assert history(store, session).undo is None  # the command line's write is not the window's
    assert history(store, CLI).undo.audit_id == cli.audit_id
    store.execute("UPDATE memgui_audit SET created_at = ? WHERE audit_id = ?", (started, before.audit_id))
    assert history(store, session).undo.audit_id == before.audit_id  # now inside the session


def test_the_history_reads_only_its_limit(docs):
    store, (a, b, c, d) = docs
    merged = _merge(store, a, b)
    for _ in range(3):
        undo(store, keep_separate(store, [c, d]).audit_id)  # six rows newer than the merge, none standing
    assert history(store, HistoryScope(limit=6)).undo is None
    assert history(store, HistoryScope(limit=7)).undo.audit_id == merged.audit_id


def test_undo_refuses_when_the_offered_step_moved_or_the_rows_changed(docs):
    store, (a, b, c, d) = docs
    merged = _merge(store, a, b)
    shown = history(store, CLI).undo.audit_id
    kept = keep_separate(store, [c, d])  # written after the window showed its question
    with pytest.raises(HistoryMovedError):
        undo_last(store, CLI, expected=shown)
    assert get_entry(store, kept.audit_id).state == "applied" and get_entry(store, merged.audit_id).state == "applied"
    undo(store, kept.audit_id)
    store.execute("UPDATE memory_documents SET markdown_body = 'changed by the daemon' WHERE document_id = ?", (a,))
    with pytest.raises(UndoConflictError):
        undo_last(store, CLI, expected=merged.audit_id)
    assert get_entry(store, merged.audit_id).state == "applied"
