"""core/forensics/recheck.py: the current lens over every merge memgui wrote, from the audit's images; undo offered
only while undo's own check passes; "append the lost fact back" as one audited, undoable write."""
from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from factories import seed_document, update_document
from memgui.core.forensics.recheck import (
    ACTION_APPEND_BACK,
    ACTION_NONE,
    ACTION_UNDO,
    NotAMergeError,
    RecheckError,
    append_lost_facts,
    recheck_merges,
    recheck_merges_work,
)
from memgui.core.merge.align import Verdict
from memgui.core.merge.strict import check_strict
from memgui.core.netfx import APPEND_SEMANTICS, build_appended_body
from memgui.core.ops.apply import (
    MODE_APPEND,
    MergePlan,
    SourceStamp,
    StaleSourceError,
    draft_stamps,
    drop_document,
    merge_cluster,
)
from memgui.core.ops.undo import undo
from memgui.core.store.audit_log import OP_APPEND_BACK, get_entry
from memgui.core.tasks import Cancelled, CancelToken, Progress

WHEN = date(2026, 6, 1)
A_BODY = "The backup job runs nightly at 02:30 and keeps 14 snapshots."
B_BODY = "Backups go to s3://backups/pg. Restores are tested every Friday."
# keeps every other fact, drops the restore-test day (Friday) of the second source
LOSSY = "The backup job runs nightly at 02:30 and keeps 14 snapshots. Backups go to s3://backups/pg."
CLEAN = LOSSY + " Restores are tested every Friday."


@pytest.fixture
def pair(empty_store):
    a = seed_document(empty_store, "Backups", A_BODY, anchor="backups")
    b = seed_document(empty_store, "Backup target", B_BODY, anchor="backup-target")
    return empty_store, a, b


def _merge(store, a, b, body, **kw):
    ids = (a.document_id, b.document_id)
    return merge_cluster(store, MergePlan(a.document_id, ids, merged_body=body, drafted=draft_stamps(store, ids),
                                          guard_override=True, when=WHEN, **kw))


def test_the_fixture_body_loses_a_fact_under_the_lens_and_the_clean_one_does_not():
    assert not check_strict([A_BODY, B_BODY], LOSSY).passed
    assert check_strict([A_BODY, B_BODY], CLEAN).passed


def test_a_merge_that_dropped_a_fact_is_listed_with_direction_kind_and_source(pair):
    store, a, b = pair
    merge = _merge(store, a, b, LOSSY)
    report = recheck_merges(store)
    assert report.checked == 1 and not report.passed
    [found] = report.at_risk
    assert (found.audit_id, found.target_id, found.created_at) == (merge.audit_id, a.document_id, merge.created_at)
    assert found.source_ids == (a.document_id, b.document_id)
    friday = [f for f in found.facts if "friday" in f.token.lower()]
    assert friday and friday[0].direction == "dropped" and friday[0].kind
    assert friday[0].source_ids == (b.document_id,)
    assert found.action == ACTION_UNDO  # nothing changed since: undo still goes through
    assert found.append_text == "Restores are tested every Friday."
    d = report.to_dict()
    assert d["passed"] is False and d["checked"] == 1
    fact = next(f for f in d["at_risk"][0]["facts"] if "friday" in f["token"].lower())
    assert fact == {"token": friday[0].token, "kind": friday[0].kind, "direction": "dropped",
                    "sources": [b.document_id]}


def test_a_clean_merge_and_an_undone_merge_are_not_listed(pair, empty_store):
    store, a, b = pair
    _merge(store, a, b, CLEAN)
    report = recheck_merges(store)
    assert report.passed and report.checked == 1 and report.at_risk == ()
    c = seed_document(store, "Backups 2", A_BODY, anchor="backups-2")
    d = seed_document(store, "Backup target 2", B_BODY, anchor="backup-target-2")
    lossy = _merge(store, c, d, LOSSY)
    assert [m.audit_id for m in recheck_merges(store).at_risk] == [lossy.audit_id]
    undo(store, lossy.audit_id)
    assert recheck_merges(store).passed


def test_an_append_merge_is_clean_despite_its_dated_separator(pair):
    store, a, b = pair
    ids = (a.document_id, b.document_id)
    merge_cluster(store, MergePlan(a.document_id, ids, mode=MODE_APPEND, drafted=draft_stamps(store, ids), when=WHEN))
    assert recheck_merges(store).passed


def test_undo_is_offered_only_while_undo_would_go_through(pair):
    store, a, b = pair
    merge = _merge(store, a, b, LOSSY)
    # the daemon rewrites the target after the merge: undo would refuse, so the lost fact is offered back instead
    update_document(store, store.document(a.document_id), markdown_body=LOSSY + " Retention is reviewed in June.")
    [found] = recheck_merges(store).at_risk
    assert found.action == ACTION_APPEND_BACK
    assert a.document_id in found.why and "undo is no longer possible" in found.why
    with pytest.raises(Exception, match="changed since"):
        undo(store, merge.audit_id)  # the same check, the same answer


def test_nothing_is_offered_when_the_target_is_gone(pair):
    store, a, b = pair
    _merge(store, a, b, LOSSY)
    drop_document(store, a.document_id, SourceStamp.of(store.document(a.document_id)))
    [found] = recheck_merges(store).at_risk
    assert found.action == ACTION_NONE and found.target_stamp is None


def test_append_back_writes_one_audited_undoable_transaction_with_the_fact(pair):
    store, a, b = pair
    merge = _merge(store, a, b, LOSSY)
    changed = LOSSY + " Retention is reviewed in June."
    update_document(store, store.document(a.document_id), markdown_body=changed)
    entry = append_lost_facts(store, merge.audit_id, when=WHEN)
    assert entry.operation == OP_APPEND_BACK and entry.target_id == a.document_id
    assert entry.details["rechecks_audit_id"] == merge.audit_id
    assert [f["direction"] for f in entry.details["facts"]] and entry.guard_passed is True
    doc = store.document(a.document_id)
    assert doc.markdown_body == build_appended_body(changed, "Restores are tested every Friday.", WHEN)
    assert doc.update_semantics == APPEND_SEMANTICS and "Friday" in doc.markdown_body
    assert entry.before["documents"][a.document_id]["row"]["markdown_body"] == changed  # full before-image
    # the merge now counts as repaired, not at risk
    report = recheck_merges(store)
    assert report.passed and report.resolved == ((merge.audit_id, entry.audit_id),)
    with pytest.raises(RecheckError):  # and cannot be repaired twice
        append_lost_facts(store, merge.audit_id)
    # undoable like any other write: the body is back, and the merge is listed again
    undo(store, entry.audit_id)
    assert store.document(a.document_id).markdown_body == changed
    assert get_entry(store, entry.audit_id).state == "undone"
    assert [m.audit_id for m in recheck_merges(store).at_risk] == [merge.audit_id]


def test_append_back_checks_the_stamp_it_was_shown(pair):
    store, a, b = pair
    merge = _merge(store, a, b, LOSSY)
    [found] = recheck_merges(store).at_risk
    seen = found.target_stamp
    update_document(store, store.document(a.document_id), markdown_body=LOSSY + " Also: weekly.")
    before = store.document(a.document_id)
    with pytest.raises(StaleSourceError):
        append_lost_facts(store, merge.audit_id, drafted=seen)
    assert store.document(a.document_id) == before


def test_append_back_refuses_a_clean_merge_and_a_non_merge(pair):
    store, a, b = pair
    clean = _merge(store, a, b, CLEAN)
    with pytest.raises(RecheckError, match="no fact at risk"):
        append_lost_facts(store, clean.audit_id)
    c = seed_document(store, "Other", "Port 8080.", anchor="other")
    drop = drop_document(store, c.document_id, SourceStamp.of(c))
    with pytest.raises(NotAMergeError):
        append_lost_facts(store, drop.audit_id)


def test_the_work_yields_progress_and_stops_when_cancelled(pair):
    store, a, b = pair
    _merge(store, a, b, LOSSY)
    steps = list(_drain(recheck_merges_work(store)))
    assert steps and all(isinstance(p, Progress) for p in steps) and steps[-1].done == steps[-1].total == 1
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        list(recheck_merges_work(store, cancel=token))


def test_a_lens_with_directions_is_read_through(pair, monkeypatch):
    """The lens is being taught `added` / `changed`: the finding carries the lens's direction, and an added fact
    alone gives nothing to append back."""
    store, a, b = pair
    merge = _merge(store, a, b, CLEAN)
    from memgui.core.forensics import recheck as mod

    real = mod.judge

    def with_added(*args, **kw):
        report, proof = real(*args, **kw)
        added = SimpleNamespace(token="never", kind="negation", sources=(), direction="added")
        return SimpleNamespace(passed=False, at_risk=(*report.at_risk, added)), proof

    monkeypatch.setattr(mod, "judge", with_added)
    [found] = recheck_merges(store).at_risk
    assert [(f.token, f.direction, f.source_ids) for f in found.facts] == [("never", "added", ())]
    assert found.append_text == "" and found.action == ACTION_UNDO
    with pytest.raises(RecheckError, match="only adds"):
        append_lost_facts(store, merge.audit_id)


def _drain(work):
    while True:
        try:
            yield next(work)
        except StopIteration:
            return


def test_every_merge_rechecked_carries_memguis_verdict(pair):
    store, a, b = pair
    lossy = _merge(store, a, b, LOSSY)
    report = recheck_merges(store)
    [found] = report.at_risk
    assert found.verdict in (Verdict.LOSS, Verdict.READ) and found.unproved  # the sentences it could not prove, with why
    assert all(u["fate"] in ("lost", "read") and u["why"] for u in found.unproved)
    assert report.verdicts == ((lossy.audit_id, found.verdict),)
