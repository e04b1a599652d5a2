"""core/ops/changes.py: every write returns one change descriptor, derived from its own audit row — merge (body and
append), keep separate, allow nomination, edit, drop, append back, undo, redo, a batch and its undo."""
from __future__ import annotations

from datetime import date

import pytest

from decider_fakes import ScriptedEngine
from factories import seed_document
from memgui.core.decide.inputs import anchor_names
from memgui.core.decide.llm import LlamaDecider
from memgui.core.decide.review import review_cluster
from memgui.core.ops.append_back import append_back
from memgui.core.ops.apply import (
    MODE_APPEND,
    MergePlan,
    SourceStamp,
    allow_nomination,
    draft_stamps,
    drop_document,
    edit_document,
    keep_separate,
    merge_cluster,
)
from memgui.core.ops.batch import apply_batch, plan_batch, undo_batch
from memgui.core.ops.changes import NO_CHANGES, Changes, Effect, Written, changes_of, combine
from memgui.core.ops.undo import redo, undo
from memgui.core.store.audit_log import get_entry
from memgui.core.tasks import run_to_end

WHEN = date(2026, 6, 1)
A_BODY = "The build server is ci.example.org running version 1.5.62."
B_BODY = "The build server now also runs nightly at 02:00 UTC."
MERGED = "The build server is ci.example.org running version 1.5.62 and also runs nightly at 02:00 UTC."


@pytest.fixture
def docs(empty_store):
    store = empty_store
    a = seed_document(store, "Build server", A_BODY, anchor="build-server")
    b = seed_document(store, "Nightly", B_BODY, anchor="nightly")
    c = seed_document(store, "Legacy", "Kept for 30 days.", anchor="retention")
    return store, a.document_id, b.document_id, c.document_id


def _merge(store, a, b, **kw):
    return merge_cluster(store, MergePlan(a, (a, b), drafted=draft_stamps(store, [a, b]), when=WHEN, **kw))


def test_a_merge_names_the_target_written_the_source_tombstoned_and_its_audit_row(docs):
    store, a, b, c = docs
    done = _merge(store, a, b, merged_body=MERGED)
    assert isinstance(done, Written)
    assert done.changes == Changes(frozenset({a}), frozenset({b}), frozenset(), (done.audit_id,),
                                   ((done.audit_id, Effect.MERGED),), (), None)
    assert c not in done.changes.documents


def test_an_append_merge_stands_as_appended(docs):
    store, a, b, _c = docs
    done = _merge(store, a, b, mode=MODE_APPEND)
    assert done.changes.standing == ((done.audit_id, Effect.APPENDED),)
    assert done.changes.documents_written == {a} and done.changes.documents_tombstoned == {b}


def test_keep_separate_and_allow_nomination_name_the_pairs_and_no_document_row(docs):
    store, a, b, c = docs
    kept = keep_separate(store, [a, b, c], pairs=[(b, a)])
    pair = tuple(sorted((a, b)))
    assert kept.changes.exemptions == {pair}
    assert kept.changes.documents_written == set() and kept.changes.documents_tombstoned == set()
    assert kept.changes.documents == {a, b}
    assert kept.changes.standing == ((kept.audit_id, Effect.KEPT_SEPARATE),)
    allowed = allow_nomination(store, [a, b])
    assert allowed.changes.exemptions == {pair}  # the one pair that existed; the others were absent before and after
    assert allowed.changes.standing == ((allowed.audit_id, Effect.NOMINATION_ALLOWED),)


def test_edit_drop_and_append_back_name_their_one_document(docs):
    store, a, b, c = docs
    edited = edit_document(store, c, "Kept for 30 days, then archived.", SourceStamp.of(store.document(c)))
    assert (edited.changes.documents_written, edited.changes.standing) == ({c}, ((edited.audit_id, Effect.EDITED),))
    dropped = drop_document(store, b, SourceStamp.of(store.document(b)))
    assert dropped.changes.documents_tombstoned == {b} and dropped.changes.documents_written == set()
    assert dropped.changes.standing == ((dropped.audit_id, Effect.DROPPED),)
    back = append_back(store, a, "Nightly at 02:00 UTC.", SourceStamp.of(store.document(a)), when=WHEN)
    assert back.changes.documents_written == {a}
    assert back.changes.standing == ((back.audit_id, Effect.APPENDED_BACK),)


def test_undo_and_redo_say_which_write_stops_or_starts_standing(docs):
    store, a, b, _c = docs
    merged = _merge(store, a, b, merged_body=MERGED)
    undone = undo(store, merged.audit_id)
    assert undone.changes.undone == (merged.audit_id,) and undone.changes.standing == ()
    assert undone.changes.documents_written == {a, b}  # the target's body and the source, both live again
    assert undone.changes.audit_ids == (undone.audit_id,)
    redone = redo(store, merged.audit_id)
    assert redone.changes.standing == ((merged.audit_id, Effect.MERGED),) and redone.changes.undone == ()
    assert redone.changes.documents_written == {a} and redone.changes.documents_tombstoned == {b}


def test_changes_of_an_entry_read_back_equals_what_the_operation_returned(docs):
    store, a, b, _c = docs
    merged = _merge(store, a, b, merged_body=MERGED)
    assert changes_of(get_entry(store, merged.audit_id)) == merged.changes
    undone = undo(store, merged.audit_id)
    assert changes_of(get_entry(store, undone.audit_id)) == undone.changes
    with pytest.raises(ValueError):  # a redo's effect is its original's: it cannot be told without it
        changes_of(get_entry(store, redo(store, merged.audit_id).audit_id))


def test_changes_compose_in_order(docs):
    store, a, b, c = docs
    merged = _merge(store, a, b, merged_body=MERGED)
    kept = keep_separate(store, [a, c])
    undone = undo(store, merged.audit_id)
    both = merged.changes | kept.changes | undone.changes
    assert both == combine([merged.changes, kept.changes, undone.changes])
    assert both.audit_ids == (merged.audit_id, kept.audit_id, undone.audit_id)
    assert both.standing == ((kept.audit_id, Effect.KEPT_SEPARATE),)  # the merge no longer stands
    assert both.undone == (merged.audit_id,)
    assert both.documents_tombstoned == set() and both.documents_written == {a, b}  # b is live again
    assert NO_CHANGES | merged.changes == merged.changes and NO_CHANGES.empty
    assert both.to_dict()["standing"] == [{"audit_id": kept.audit_id, "effect": "kept separate"}]


# ---- a batch and its undo ----------------------------------------------------------------------------------

DEPLOY = ("Atlas deploys run at 02:00 UTC with make deploy.", "The atlas deploys run at 02:00 UTC with make deploy")
BACKUP = ("Backups of the atlas database are kept for 30 days on s3://atlas-backups.",
          "Backups of the atlas database: kept for 30 days on s3://atlas-backups.")


def _reviewed(store, key, bodies, verdicts, start):
    docs = [seed_document(store, f"{key} {i}", body, anchor=key, updated_at=start + i, created_at=start + i,
                          freshness_at=start + i) for i, body in enumerate(bodies)]
    decider = LlamaDecider(engine=ScriptedEngine(verdicts, merged=bodies[0]), timeout_s=60)
    return key, [d.document_id for d in docs], run_to_end(review_cluster(docs, anchor_names(store, docs), decider))


def test_a_batch_and_its_undo_carry_every_write_and_the_batch_id(empty_store):
    store = empty_store
    rows = [_reviewed(store, "deploy", DEPLOY, {"deploy": "SAME"}, 1000),
            _reviewed(store, "backup", BACKUP, {"backups": "SAME"}, 2000)]
    plan = plan_batch(rows)
    result = run_to_end(apply_batch(store, plan))
    assert len(result.written) == 2
    ids = tuple(w.audit_id for w in result.written)
    changes = result.changes
    assert changes.batch_id == plan.batch_id and changes.audit_ids == ids
    assert changes.standing == tuple((i, Effect.MERGED) for i in ids)
    assert changes.documents_written == {w.target_id for w in plan.writes}
    assert changes.documents_tombstoned == {t for w in plan.writes for t in w.tombstoned}
    assert result.to_dict()["changes"] == changes.to_dict()

    back = undo_batch(store, plan.batch_id)
    assert back.changes.batch_id == plan.batch_id
    assert set(back.changes.undone) == set(ids) and back.changes.standing == ()
    assert back.changes.audit_ids == tuple(u for _a, u in back.undone)
    assert back.changes.documents_written == {m for _k, members, _r in rows for m in members}
    assert back.changes.documents_tombstoned == set()
