"""core/ops/batch.py: "accept all safe" plans only clusters every check calls safe, writes each as its own
audited transaction tagged with the batch id, refuses a write whose source changed since its review (the others
land), and "undo this batch" restores every row byte-identically. Reviews come from `review_cluster` on a
scripted decider (tests/decider_fakes.py), exactly as the CLI and the window compute them."""
from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import pytest

from decider_fakes import ScriptedEngine
from factories import seed_document, update_document
from memgui.core.decide.cache import DecisionCache
from memgui.core.decide.inputs import anchor_names
from memgui.core.decide.llm import LlamaDecider
from memgui.core.decide.review import review_cluster
from memgui.core.ops.batch import (
    BatchError,
    BatchPlan,
    apply_batch,
    batch_entries,
    batch_id_of,
    plan_batch,
    undo_batch,
    why_not_safe,
)
from memgui.core.ops.batch_inputs import cluster_reviews
from memgui.core.store.audit_log import list_entries
from memgui.core.tasks import run_to_end

# a same-fact pair (safe), a sibling pair (two versions: a different fact), four copies of one fact (too big)
# the second of each safe pair restates the first in words the alignment proves (align.py): the model's body is written
DEPLOY = ("Atlas deploys run at 02:00 UTC with make deploy.", "The atlas deploys run at 02:00 UTC with make deploy")
DEPLOY_MERGED = "Atlas deploys run at 02:00 UTC with make deploy."
BACKUP = ("Backups of the atlas database are kept for 30 days on s3://atlas-backups.",
          "Backups of the atlas database: kept for 30 days on s3://atlas-backups.")
BACKUP_MERGED = "Backups of the atlas database are kept for 30 days on s3://atlas-backups."
GO = ("Routewise services are built with Go 1.22.", "Routewise services moved to Go 1.24 in March.")
PORT = tuple(f"The grafana dashboard listens on port 3000 (note {i})." for i in range(4))


def _seed(store, key, bodies, start):
    return [seed_document(store, f"{key} {i}", body, anchor=key, updated_at=start + i, created_at=start + i,
                          freshness_at=start + i)
            for i, body in enumerate(bodies)]


def _review(store, docs, verdicts, merged):
    decider = LlamaDecider(engine=ScriptedEngine(verdicts, merged=merged), timeout_s=60)
    return run_to_end(review_cluster(docs, anchor_names(store, docs), decider))


@pytest.fixture
def seeded(empty_store):
    store = empty_store
    clusters = {
        "deploy": _seed(store, "deploy", DEPLOY, 1000),
        "backup": _seed(store, "backup", BACKUP, 2000),
        "go": _seed(store, "go", GO, 3000),
        "port": _seed(store, "port", PORT, 4000),
    }
    return store, clusters


def _reviews(store, clusters, *, go_verdict="DIFFERENT"):
    scripts = {
        "deploy": ({"deploy": "SAME"}, DEPLOY_MERGED),
        "backup": ({"backups": "SAME"}, BACKUP_MERGED),
        "go": ({"Routewise": go_verdict}, "Routewise services are built with Go 1.24."),
        "port": ({"grafana": "SAME"}, "The grafana dashboard listens on port 3000 (note 0, 1, 2, 3)."),
    }
    return [(key, [d.document_id for d in docs], _review(store, docs, *scripts[key]))
            for key, docs in clusters.items()]


def _rows(store):
    """Every document and FTS row exactly as stored (quote() shows each value's storage class)."""
    out = {}
    for table in ("memory_documents", "memory_documents_fts"):
        cols = [r[1] for r in store.execute(f"PRAGMA table_info('{table}')").fetchall()]
        select = ", ".join(f"quote({c})" for c in cols)
        out[table] = store.execute(f"SELECT {select} FROM {table} ORDER BY document_id").fetchall()
    return out


def test_only_the_safe_clusters_are_planned_and_each_exclusion_says_why(seeded):
    store, clusters = seeded
    plan = plan_batch(_reviews(store, clusters), titles={d.document_id: d.title for ds in clusters.values() for d in ds})
    planned = {w.cluster_id: w for w in plan.writes}
    assert set(planned) == {"deploy", "backup"}
    deploy = planned["deploy"]
    ids = {d.document_id for d in clusters["deploy"]}
    assert {deploy.target_id, *deploy.tombstoned} == ids and len(deploy.tombstoned) == 1
    assert deploy.guard["passed"] is True and deploy.strict["verdict"] == "proved"
    assert deploy.length_ratio == pytest.approx(deploy.guard["length_ratio"]) and deploy.length_ratio > 0
    assert deploy.merged_body == DEPLOY_MERGED and deploy.decision in ("UPDATE", "CONSOLIDATE")
    reasons = {x.cluster_id: x.reason for x in plan.excluded}
    assert reasons["go"] == "every pair was judged a different fact"
    assert reasons["port"].startswith("4 members merged")
    # the export: JSON that reads back, and Markdown naming every write and every exclusion
    again = BatchPlan.from_dict(json.loads(json.dumps(plan.to_dict())))
    assert again == plan
    text = plan.to_markdown()
    assert deploy.target_id in text and deploy.tombstoned[0] in text and "every pair was judged" in text
    assert "length ratio" in text and "memgui's check: proved" in text


def test_a_plan_reads_back_typed_and_an_unknown_decision_or_verdict_refuses_it_whole(seeded):
    from memgui.core.curation.types import DecisionKind
    from memgui.core.decide.review import Badge
    from memgui.core.ops.batch import Unreviewed

    store, clusters = seeded
    data = json.loads(json.dumps(plan_batch(_reviews(store, clusters)).to_dict()))
    data["excluded"].append({**data["excluded"][0], "cluster_id": "unseen", "member_ids": ["x1", "x2"],
                             "verdict": "not reviewed"})
    plan = BatchPlan.from_dict(data)
    assert all(type(w.decision) is DecisionKind for w in plan.writes)
    assert [type(x.verdict) for x in plan.excluded][-2:] == [Badge, Unreviewed]
    again = json.loads(json.dumps(plan.to_dict()))
    assert again["writes"] == data["writes"] and again["excluded"] == data["excluded"]  # the same keywords
    bad = json.loads(json.dumps(data))
    bad["writes"][0]["decision"] = "MERGE_EVERYTHING"
    with pytest.raises(BatchError, match="the decision is 'MERGE_EVERYTHING', not one memgui knows"):
        BatchPlan.from_dict(bad)
    bad = json.loads(json.dumps(data))
    bad["excluded"][0]["verdict"] = "maybe"
    with pytest.raises(BatchError, match="the verdict 'maybe' is not one memgui knows"):
        BatchPlan.from_dict(bad)


def test_a_sibling_pair_wrongly_judged_same_is_still_not_merged(seeded):
    store, clusters = seeded
    rows = _reviews(store, {"go": clusters["go"]}, go_verdict="SAME")
    (_key, _ids, review), = rows
    assert review.verdict == "same"  # the model got it wrong …
    plan = plan_batch(rows)
    assert plan.writes == []  # … and memgui's checks keep it out all the same: the model's body lost 1.22, and
    # the union draft that keeps both values is marked: two notes that bind different versions to one subject
    assert "likely different" in plan.excluded[0].reason and "1.22" in plan.excluded[0].reason


@pytest.mark.parametrize("change,reason", [
    (dict(guard={"passed": False, "reason": "token retention below 80%"}), "MergeGuard failed"),
    (dict(strict={"passed": False, "verdict": "read", "reasons": ["source 2 sentence 1: read"]}),
     "memgui's check says read, not proved (source 2 sentence 1: read)"),
    (dict(strict={"passed": True, "at_risk": []}), "memgui's check says not checked"),  # a lens pass is not a proof
    (dict(likely_different={"likely_different": True, "reason": "different ports"}), "marked likely different"),
    (dict(groups_judged=False, pairs=[]), "no model judged its pairs"),
    (dict(decision="SKIP"), "the decision is SKIP"),
    (dict(merged_body=""), "the decision has no merged body"),
    (dict(error="timeout"), "the model gave no decision (timeout)"),
])
def test_every_check_must_pass(seeded, change, reason):
    store, clusters = seeded
    (_k, ids, review), = _reviews(store, {"backup": clusters["backup"]})
    assert why_not_safe(review, ids) is None
    from dataclasses import replace

    assert why_not_safe(replace(review, **change), ids).startswith(reason)
    assert why_not_safe(None, ids) == "not reviewed yet"


def test_the_batch_writes_each_merge_audited_and_tagged_and_dry_planning_writes_nothing(seeded):
    store, clusters = seeded
    before = _rows(store)
    plan = plan_batch(_reviews(store, clusters))
    assert _rows(store) == before and list_entries(store) == []  # planning wrote nothing
    result = run_to_end(apply_batch(store, plan))
    assert [w.cluster_id for w in result.written] == ["deploy", "backup"] and result.refused == []
    entries = batch_entries(store, plan.batch_id)
    assert sorted(e.audit_id for e in entries) == sorted(w.audit_id for w in result.written)
    assert all(batch_id_of(e) == plan.batch_id and e.operation == "merge" for e in entries)
    for write in plan.writes:
        assert store.document(write.target_id).markdown_body == write.merged_body
        assert all(store.document(t).is_tombstoned for t in write.tombstoned)
    # the sibling pair and the four-member cluster are untouched
    assert all(not store.document(d.document_id).is_tombstoned for d in clusters["go"] + clusters["port"])


def test_a_source_changed_after_the_review_refuses_its_write_and_the_others_land(seeded):
    store, clusters = seeded
    plan = plan_batch(_reviews(store, clusters))
    changed = clusters["deploy"][0]
    update_document(store, store.document(changed.document_id), markdown_body=changed.markdown_body + " Owner: ops.",
                    updated_at=9999)
    result = run_to_end(apply_batch(store, plan))
    assert [r.cluster_id for r in result.refused] == ["deploy"] and changed.document_id in result.refused[0].error
    assert [w.cluster_id for w in result.written] == ["backup"]
    assert store.document(changed.document_id).markdown_body.endswith("Owner: ops.")
    assert not any(store.document(d.document_id).is_tombstoned for d in clusters["deploy"])


def test_a_write_the_store_cannot_take_stops_the_batch_and_the_rest_are_reported_not_tried(seeded):
    """A full disk or a store file moved away fails every later write alike: the batch stops at the first, and
    says which writes it did not try (before, it tried each and printed the same failure for every one)."""
    import os

    store, clusters = seeded
    plan = plan_batch(_reviews(store, clusters))
    before = _rows(store)
    os.rename(store.path, f"{store.path}.moved")  # the path no longer names the file memgui opened
    try:
        result = run_to_end(apply_batch(store, plan))
    finally:
        os.rename(f"{store.path}.moved", store.path)
    assert result.written == [] and [r.cluster_id for r in result.refused] == ["deploy", "backup"]
    assert "moved or replaced" in result.refused[0].error
    assert result.refused[1].error == "not tried: the store could not take the write before it (cluster deploy)"
    assert _rows(store) == before and list_entries(store) == []


def test_undo_batch_restores_every_row_byte_identically_and_reports_refusals(seeded):
    store, clusters = seeded
    before = _rows(store)
    plan = plan_batch(_reviews(store, clusters))
    run_to_end(apply_batch(store, plan))
    assert _rows(store) != before
    undone = undo_batch(store, plan.batch_id)
    assert len(undone.undone) == 2 and undone.refused == []
    assert [a for a, _u in undone.undone] == sorted((a for a, _u in undone.undone), reverse=True)  # newest first
    assert _rows(store) == before
    again = undo_batch(store, plan.batch_id)  # nothing left to undo: reported, nothing written
    assert again.undone == [] and len(again.already_undone) == 2
    with pytest.raises(BatchError):
        undo_batch(store, "no-such-batch")


def test_undo_batch_refuses_a_write_whose_target_changed_since_and_undoes_the_rest(seeded):
    store, clusters = seeded
    plan = plan_batch(_reviews(store, clusters))
    result = run_to_end(apply_batch(store, plan))
    deploy = next(w for w in plan.writes if w.cluster_id == "deploy")
    update_document(store, store.document(deploy.target_id), markdown_body="edited by the daemon", updated_at=12345)
    undone = undo_batch(store, plan.batch_id)
    deploy_audit = next(w.audit_id for w in result.written if w.cluster_id == "deploy")
    assert [a for a, _e in undone.refused] == [deploy_audit] and deploy.target_id in undone.refused[0][1]
    assert len(undone.undone) == 1
    backup = clusters["backup"]
    assert not any(store.document(d.document_id).is_tombstoned for d in backup)
    assert store.document(deploy.target_id).markdown_body == "edited by the daemon"


def test_clusters_sharing_a_document_are_not_both_written(seeded):
    store, clusters = seeded
    rows = _reviews(store, {"deploy": clusters["deploy"]})
    _key, ids, review = rows[0]
    plan = plan_batch([rows[0], ("deploy-again", ids, review)])
    assert [w.cluster_id for w in plan.writes] == ["deploy"]
    assert plan.excluded[0].reason == "shares a document with an earlier write of this batch"


def test_reviews_come_from_the_cache_and_are_none_when_not_cached(seeded, tmp_path):
    store, clusters = seeded
    cache = DecisionCache(store.path, "scripted|key", root=tmp_path)
    scan = [SimpleNamespace(id=k, member_ids=[d.document_id for d in docs]) for k, docs in clusters.items()]
    rows = run_to_end(cluster_reviews(store, scan, cache))  # no decider: only what is cached
    assert [r for _c, _m, r in rows] == [None] * 4
    engine = ScriptedEngine({"deploy": "SAME", "backups": "SAME"}, merged=DEPLOY_MERGED)
    made = []

    def decider():
        made.append(1)
        return LlamaDecider(engine=engine, timeout_s=60)

    stats: dict = {}
    run_to_end(cluster_reviews(store, scan[:2], cache, decider=decider, stats=stats))
    assert stats == {"cached": 0, "computed": 2} and made == [1]
    calls = len(engine.calls)
    stats = {}
    rows = run_to_end(cluster_reviews(store, scan[:2], cache, decider=decider, stats=stats))
    assert stats == {"cached": 2, "computed": 0} and len(engine.calls) == calls  # the model is not asked again
    assert plan_batch(rows).writes[0].cluster_id == "deploy"


def test_a_model_draft_the_lens_fails_is_replaced_by_the_union_draft_when_that_one_passes(seeded):
    """Would fail without the fallback: a true duplicate whose model merge dropped a fact was left for a person,
    although the sentence-union draft of the same two notes keeps every fact and passes both checks."""
    store, clusters = seeded
    (key, ids, review), = _reviews(store, {"backup": clusters["backup"]})
    lossy = replace(review, merged_body="Backups of the atlas database are kept.",
                    strict={"passed": False, "checked": 1, "at_risk": [{"token": "30 days"}], "verdict": "loss"},
                    guard={**review.guard, "passed": True})
    assert (lossy.union_draft or {}).get("strict", {}).get("verdict") == "proved"
    plan = plan_batch([(key, ids, lossy)])
    assert [w.cluster_id for w in plan.writes] == [key]
    assert plan.writes[0].merged_body == lossy.union_draft["merged_body"] and "30 days" in plan.writes[0].merged_body
    assert "says loss of the model's draft; the prove-or-keep union draft" in plan.writes[0].rationale


def test_a_merge_only_a_shared_anchor_joined_is_left_for_a_person(seeded):
    """The scan nominates notes of one anchor together whatever their cosine (issue 38, item 7); the model's "same
    fact" on such a pair is never written unattended, as Netclaw never merges on cosine alone."""
    from memgui.core.ops.batch_inputs import cosine_links
    from memgui.core.vectors.embed import EmbedderSource
    from memgui.core.vectors.nominate import scan_store
    from vector_fakes import FakeEmbedder

    store, clusters = seeded
    reviews = [r for r in _reviews(store, clusters) if r[0] in ("deploy", "backup")]
    # deploy's two notes read alike to the embedder; backup's share only their anchor
    scan = run_to_end(scan_store(store, source=EmbedderSource(FakeEmbedder(dims=32, topics=("deploy",))),
                                 threshold=0.86))
    by_members = {frozenset(c.member_ids): c for c in scan.clusters}
    scanned = {key: by_members[frozenset(d.document_id for d in docs)] for key, docs in clusters.items()
               if key in ("deploy", "backup")}
    assert [p.nominee for p in scanned["backup"].pairs] == [False] and scanned["backup"].pairs[0].same_anchor
    links = cosine_links([replace(c, id=key) for key, c in scanned.items()])
    plan = plan_batch(reviews, links=links)
    assert [w.cluster_id for w in plan.writes] == ["deploy"]
    [left] = plan.excluded
    assert left.cluster_id == "backup" and "only a shared anchor joins" in left.reason
    assert [w.cluster_id for w in plan_batch(reviews).writes] == ["deploy", "backup"]  # no scan: the reviews alone
