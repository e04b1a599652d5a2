"""The write lock is held for the writes, not for the work (issue 26 item 4).

1. Nothing slow runs inside BEGIN IMMEDIATE: MergeGuard, the sentence union, the lens and the append body are
   computed before the transaction opens, for every kind of write (merge in its three modes, edit, append-back,
   a bulk-accept plan, a model's UPDATE / CONSOLIDATE decision). Checked without a clock: each is wrapped to fail
   if it runs while the store is in a
   transaction.
2. Merges of 1 KB … 1 MB notes while a daemon writes (Netclaw's 30 s busy timeout): 0 daemon writes fail, and
   the longest hold is bounded (far below the busy timeout; the figure itself is a benchmark,
   tests/perf/test_lock_hold_bench.py, with the goal ≤ 100 ms).
3. The audit row's long texts are compressed and its details serialised before the transaction (audit image
   format 2, docs/seams.md), for a merge, an edit, an append-back, an undo and a redo.
"""
from __future__ import annotations

import zlib
from types import SimpleNamespace

import pytest

import memgui.core.merge.union as union_mod
import memgui.core.ops.append_back as append_mod
import memgui.core.ops.apply as apply_mod
import memgui.core.ops.batch as batch_mod
import memgui.core.store.audit_log as audit_log_mod
import memgui.core.store.audit_texts as texts_mod
from factories import seed_document
from lock_hold import NETCLAW_BUSY_TIMEOUT_S, measure, table
from memgui.core.curation.types import Candidate, CurationDecision, DecisionKind, Proposal
from memgui.core.ops.append_back import append_back
from memgui.core.ops.apply import (
    MODE_APPEND,
    MODE_MERGED_BODY,
    MODE_UNION,
    MergePlan,
    SourceStamp,
    apply_decision,
    draft_stamps,
    edit_document,
    merge_cluster,
)
from memgui.core.ops.batch import BatchPlan, PlannedWrite, apply_batch
from memgui.core.ops.undo import redo, undo
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import get_entry
from memgui.core.tasks import run_to_end

A = "The staging server listens on port 5432 and backs up nightly at 02:00."
B = "The staging server backs up nightly at 02:00. Its owner is Dana."


@pytest.fixture
def watched(tmp_path, monkeypatch):
    """A store whose slow computations record whether they ran inside a transaction."""
    path = create_store(tmp_path / "netclaw.db")
    store = open_store(path)
    calls: list[tuple[str, bool]] = []

    def watch(module, name):
        real = getattr(module, name)

        def wrapper(*args, **kwargs):
            calls.append((name, store.db.in_transaction()))
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    watch(apply_mod, "check_merge")  # merge_cluster, edit_document and apply_decision
    watch(append_mod, "check_merge")
    watch(append_mod, "build_appended_body")
    watch(apply_mod, "build_appended_body")
    watch(union_mod, "sentence_union")
    watch(batch_mod, "judge")
    yield store, calls
    store.close()


def _pair(store, tag):
    a = seed_document(store, f"Staging {tag}", A, anchor=f"staging-{tag}").document_id
    b = seed_document(store, f"Staging backup {tag}", B, anchor=f"staging-{tag}").document_id
    return a, b


def test_no_draft_guard_union_or_lens_runs_inside_the_write_transaction(watched):
    store, calls = watched
    for mode, body in ((MODE_MERGED_BODY, f"{A} Its owner is Dana."), (MODE_APPEND, None), (MODE_UNION, None)):
        a, b = _pair(store, mode)
        merge_cluster(store, MergePlan(a, (b,), mode, body, draft_stamps(store, [a, b])))
    a, _b = _pair(store, "edit")
    edit_document(store, a, A + " It was moved in June.", draft_stamps(store, [a]))
    a, _b = _pair(store, "append")
    append_back(store, a, "Its owner is Dana.", draft_stamps(store, [a])[a])
    a, b = _pair(store, "batch")
    stamps = {k: {"updated_at": v.updated_at, "content_hash": v.content_hash}
              for k, v in draft_stamps(store, [a, b]).items()}
    # both notes whole: proved (a clause spread over two of the body's clauses is not restated, align.py)
    write = PlannedWrite("c1", a, [b], "UPDATE", f"{A}\n{B}", 1.0, {"passed": True},
                         {"passed": True}, stamps, "model")
    result = run_to_end(apply_batch(store, BatchPlan("lock-test-1", "", [write], [])))
    assert len(result.written) == 1 and not result.refused
    for kind in (DecisionKind.UPDATE, DecisionKind.CONSOLIDATE):  # a model's decision applied (Netclaw's path)
        target = store.document(_pair(store, f"decision-{kind.value}")[0])
        candidate = Candidate(target.document_id, target.anchor_id, "staging", target.markdown_body,
                              target.freshness_at, target.confidence, False, None)
        decision = CurationDecision(kind, target.document_id, (target.document_id,),
                                    merged_body=f"{A} Its owner is Dana.", from_llm_tier=True)
        outcome = apply_decision(store, Proposal(title="Staging", content="Its owner is Dana.",
                                                 anchor_name="staging"), decision, [candidate])
        assert outcome.outcome == "merged"
    names = {name for name, _inside in calls}
    assert {"check_merge", "sentence_union", "build_appended_body", "judge"} <= names
    assert [name for name, inside in calls if inside] == []  # every one of them ran before BEGIN IMMEDIATE


def test_the_stamps_are_still_checked_inside_the_transaction(watched, monkeypatch):
    """The work moved out of the lock; the stamp check did not: a write landing between the proof and the
    transaction is caught there (the daemon's edit is kept, nothing written)."""
    store, _calls = watched
    a, b = _pair(store, "race")
    drafted = draft_stamps(store, [a, b])
    real = apply_mod.check_merge

    def daemon_writes_meanwhile(sources, body):
        report = real(sources, body)
        with store.transaction():
            doc = store.document(b)
            from dataclasses import replace
            store.writes.upsert_document(replace(doc, markdown_body=doc.markdown_body + " The daemon added this."))
        return report

    monkeypatch.setattr(apply_mod, "check_merge", daemon_writes_meanwhile)
    with pytest.raises(apply_mod.StaleSourceError) as info:
        merge_cluster(store, MergePlan(a, (b,), MODE_APPEND, None, drafted))
    assert "its content changed" in str(info.value)
    assert "The daemon added this." in store.document(b).markdown_body and not store.document(b).is_tombstoned
    assert isinstance(drafted[a], SourceStamp)


def test_merging_1kb_to_1mb_notes_never_fails_a_daemon_write(tmp_path):
    run = measure(tmp_path)
    print("\n" + table(run))
    assert run.daemon_written > 0  # the daemon really wrote while memgui merged
    assert run.daemon_failed == 0
    assert len(run.holds) == 8 and all(run.holds.values())
    # bounded: far below the daemon's busy timeout (the ≤ 100 ms goal is measured in tests/perf, not asserted)
    assert run.longest < NETCLAW_BUSY_TIMEOUT_S / 3


def test_the_audit_rows_texts_and_details_are_made_before_the_write_transaction(tmp_path, monkeypatch):
    """A merge, an edit, an append-back, an undo and a redo of long notes: every long text their audit rows hold
    is compressed, and every details JSON serialised, before BEGIN IMMEDIATE (inside, only the images' small
    JSON is written); the rows still read back whole."""
    path = create_store(tmp_path / "netclaw.db")
    store = open_store(path)
    calls: list[tuple[str, int, bool]] = []
    real_compress, real_details = zlib.compress, audit_log_mod.details_json_of

    def compress(data, level=-1):
        calls.append(("compress", len(data), store.db.in_transaction()))
        return real_compress(data, level)

    def details(provenance, extra):
        text = real_details(provenance, extra)
        calls.append(("details", len(text), store.db.in_transaction()))
        return text

    monkeypatch.setattr(texts_mod, "zlib", SimpleNamespace(compress=compress, decompressobj=zlib.decompressobj,
                                                           error=zlib.error))
    monkeypatch.setattr(audit_log_mod, "details_json_of", details)
    monkeypatch.setattr(apply_mod, "details_json_of", details)
    monkeypatch.setattr(append_mod, "details_json_of", details)
    long_a, long_b = (" ".join(f"The {t} host {i} uses port {4000 + i}." for i in range(800)) for t in ("alpha", "beta"))
    a = seed_document(store, "Hosts A", long_a, anchor="hosts").document_id
    b = seed_document(store, "Hosts B", long_b, anchor="hosts").document_id
    merged = merge_cluster(store, MergePlan(a, (b,), MODE_MERGED_BODY, long_a + "\n\n" + long_b, draft_stamps(store, [a, b])))
    edited = edit_document(store, a, store.document(a).markdown_body + " It moved in June.", draft_stamps(store, [a]))
    appended = append_back(store, a, "Its owner is Dana.", draft_stamps(store, [a])[a])
    undone = [undo(store, e.audit_id) for e in (appended, edited)]
    redone = redo(store, edited.audit_id)
    assert [name for name, size, inside in calls if inside and size >= 1024] == []
    assert {name for name, _size, _inside in calls} == {"compress", "details"}
    for entry in (merged, edited, appended, *undone, redone):
        again = get_entry(store, entry.audit_id)  # read back whole
        assert again is not None and (again.before, again.after, again.details) == (entry.before, entry.after, entry.details)
    assert merged.after["documents"][a]["row"]["markdown_body"] == long_a + "\n\n" + long_b
    store.close()
