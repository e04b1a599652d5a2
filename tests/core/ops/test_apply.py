"""core/ops/apply.py: Netclaw's ApplyDecisionAsync routing (netclaw-compat §9, ports of T/MemoryCurationMergeRoutingTests,
T/SqliteMemoryStoreDedupCollisionTests and the Consolidate-applied parity case) and the reviewer operations,
each one transaction with its audit row; optimistic concurrency."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest

from factories import seed_document, seed_embedding
from memgui.core.curation.types import Candidate, CurationDecision, DecisionKind, Proposal
from memgui.core.netfx import TOMBSTONE_SEMANTICS
from memgui.core.ops.apply import (
    APPEND_SEMANTICS,
    MERGE_SEMANTICS,
    MODE_APPEND,
    MODE_UNION,
    ApplyInputError,
    GuardRefusedError,
    MergePlan,
    Outcome,
    SourceStamp,
    StaleSourceError,
    apply_decision,
    draft_stamps,
    drop_document,
    edit_document,
    keep_separate,
    merge_cluster,
)
from memgui.core.store import Document, new_document_id, open_store
from memgui.core.store.audit_log import Provenance, get_entry, list_entries
from memgui.core.store.exemptions import exempt_pairs

WHEN = date(2026, 6, 1)
MERGED_RE = re.compile(r"_\[merged \d{4}-\d{2}-\d{2}\]_")

TARGET_BODY = "The build server is ci.example.org running version 1.5.62."
PROPOSAL_BODY = "The build server now also runs nightly at 02:00 UTC."
FAITHFUL = "The build server is ci.example.org running version 1.5.62 and also runs nightly at 02:00 UTC."
LOSSY = "The build server runs nightly builds every single night of the week."


# ---- helpers ------------------------------------------------------------------------------------------------

def seed(store, title, body, *, anchor="build-server", **fields) -> Document:
    """A document on `build-server` (unless told) with the alias `ci`."""
    return seed_document(store, title, body, anchor=anchor, **{"aliases_json": '["ci"]', **fields})


def cand(store, doc: Document, *, exact=False, cosine=None) -> Candidate:
    doc = store.document(doc.document_id)
    anchor = store.anchor(doc.anchor_id)
    return Candidate(doc.document_id, doc.anchor_id, anchor.canonical_name if anchor else "", doc.markdown_body,
                     doc.freshness_at, doc.confidence, exact, cosine)


def proposal(content=PROPOSAL_BODY, *, anchor="build-server", title="Build server", **kw) -> Proposal:
    return Proposal(title=title, content=content, anchor_name=anchor, **kw)


def dump(store) -> dict:
    """Every row of every table memgui may touch (audit table excluded), in a stable order."""
    tables = {
        "memory_documents": "document_id", "memory_documents_fts": "document_id", "memory_embeddings": "item_id, model_id",
        "memory_anchors": "anchor_id", "memory_records": "record_id", "memory_records_fts": "record_id",
        "memgui_exemptions": "first_id, second_id",
    }
    out = {}
    for table, order in tables.items():  # quote() shows each value's exact storage class (1 vs 1.0, blobs)
        cols = [r[1] for r in store.execute(f"PRAGMA table_info('{table}')").fetchall()]
        select = ", ".join(f"quote({c})" for c in cols)
        out[table] = store.execute(f"SELECT {select} FROM {table} ORDER BY {order}").fetchall()
    return out


def audit_count(store) -> int:
    return store.execute("SELECT COUNT(*) FROM memgui_audit").fetchone()[0]


@pytest.fixture
def store(empty_store):
    return empty_store


# ---- T/MemoryCurationMergeRoutingTests ---------------------------------------------------------------------------

def test_llm_update_with_lossy_body_appends_the_original_proposal(store):
    target = seed(store, "Build server", TARGET_BODY)
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, merged_body=LOSSY, from_llm_tier=True,
                                reason="LLM decision: UPDATE")
    result = apply_decision(store, proposal(), decision, [cand(store, target, cosine=0.93)], when=WHEN)
    stored = store.document(target.document_id)
    assert result.outcome == "appended" and result.document_id == target.document_id
    assert stored.markdown_body.startswith(TARGET_BODY)
    assert PROPOSAL_BODY in stored.markdown_body and LOSSY not in stored.markdown_body
    assert "---" in stored.markdown_body and "_[merged 2026-06-01]_" in stored.markdown_body
    assert stored.update_semantics == APPEND_SEMANTICS
    assert result.guard["passed"] is False and "1.5.62" in result.guard["missing"]
    assert {"curation_merge_guard_failed", "curation_append_fallback"} <= set(result.marker_names)


def test_keyword_only_llm_update_appends(store):
    target = seed(store, "Build server", TARGET_BODY)
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, from_llm_tier=True)
    result = apply_decision(store, proposal(), decision, [cand(store, target)], when=WHEN)
    stored = store.document(target.document_id)
    assert result.outcome == "appended" and result.guard is None
    assert stored.markdown_body == f"{TARGET_BODY}\n\n---\n_[merged 2026-06-01]_\n{PROPOSAL_BODY}"
    assert stored.update_semantics == APPEND_SEMANTICS


def test_faithful_merged_body_is_stored_exactly(store):
    target = seed(store, "Build server", TARGET_BODY)
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, merged_body=FAITHFUL, from_llm_tier=True)
    result = apply_decision(store, proposal(), decision, [cand(store, target)], when=WHEN)
    stored = store.document(target.document_id)
    assert result.outcome == "merged" and stored.markdown_body == FAITHFUL
    assert stored.update_semantics == MERGE_SEMANTICS
    assert "curation_merge_guard_passed" in result.marker_names
    entry = get_entry(store, result.audit_id)
    assert entry.guard_passed is True and entry.decided_by == "llm"
    assert entry.before["documents"][target.document_id]["row"]["markdown_body"] == TARGET_BODY


def test_deterministic_superset_update_is_a_raw_overwrite(store):
    target = seed(store, "Build server", TARGET_BODY)
    superset = TARGET_BODY + " It moved to rack 7."
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, reason="exact anchor match + newer content")
    result = apply_decision(store, proposal(superset), decision, [cand(store, target, exact=True)], when=WHEN)
    stored = store.document(target.document_id)
    assert result.outcome == "overwritten" and stored.markdown_body == superset
    assert stored.update_semantics == MERGE_SEMANTICS and "merged" not in stored.markdown_body
    assert get_entry(store, result.audit_id).decided_by == "rules"


def test_deterministic_consolidate_appends_into_the_target(store):
    target = seed(store, "Repo", "Repo is https://github.com/netclaw-dev/netclaw", anchor="netclaw-github-repo")
    content = "The netclaw repository lives at github.com/netclaw-dev/netclaw on main."
    decision = CurationDecision(DecisionKind.CONSOLIDATE, target.document_id, (target.document_id,),
                                canonical_anchor_name="netclaw-github-repo", reason="fuzzy anchor match + high overlap")
    result = apply_decision(store, proposal(content, anchor="netclaw-github-repository", title="Repo"), decision,
                            [cand(store, target)], when=WHEN)
    stored = store.document(target.document_id)
    # parity case "Consolidate applied through store": explicit target, append-document, both texts, _[merged
    assert result.document_id == target.document_id and result.outcome == "appended"
    assert stored.update_semantics == APPEND_SEMANTICS
    assert "https://github.com/netclaw-dev/netclaw" in stored.markdown_body and content in stored.markdown_body
    assert MERGED_RE.search(stored.markdown_body)
    assert len(store.documents()) == 1


def test_llm_consolidate_merges_into_the_primary_and_reanchors(store):
    a = seed(store, "Repo", "Repo URL https://github.com/netclaw-dev/netclaw.", anchor="netclaw-repo", confidence=0.9)
    b = seed(store, "Repo 2", "Default branch is main since 2026-01-05.", anchor="netclaw-repository", confidence=0.5)
    other = seed(store, "Unrelated", "Other fact about repos.", anchor="netclaw-repo-mirror")
    merged = "Repo URL https://github.com/netclaw-dev/netclaw; default branch is main since 2026-01-05; CI is green."
    decision = CurationDecision(DecisionKind.CONSOLIDATE, a.document_id, (a.document_id, b.document_id),
                                canonical_anchor_name="netclaw-repo", merged_body=merged, from_llm_tier=True)
    result = apply_decision(store, proposal("CI is green.", anchor="netclaw-repository", title="Repo CI"), decision,
                            [cand(store, a), cand(store, b)], when=WHEN)
    assert result.outcome == "merged" and result.document_id == a.document_id  # primary = max confidence
    assert store.document(a.document_id).markdown_body == merged
    assert store.document(b.document_id).anchor_id == "anchor:netclaw-repo"  # re-anchored, not tombstoned
    assert not store.document(b.document_id).is_tombstoned
    assert store.anchor("anchor:netclaw-repo-mirror").status == "tombstoned"  # proposal's other fuzzy anchor
    assert store.document(other.document_id).anchor_id == "anchor:netclaw-repo-mirror"
    assert {"curation_reanchor", "curation_tombstone_anchor", "curation_merge_guard_passed"} <= set(result.marker_names)
    entry = get_entry(store, result.audit_id)
    assert set(entry.before["documents"]) == {a.document_id, b.document_id}
    assert "anchor:netclaw-repo-mirror" in entry.before["anchors"]


def test_llm_update_with_unknown_target_creates(store):
    seed(store, "Build server", TARGET_BODY, anchor="other-anchor")
    decision = CurationDecision(DecisionKind.UPDATE, "doc-invented", merged_body=FAITHFUL, from_llm_tier=True)
    result = apply_decision(store, proposal(anchor="fresh-anchor"), decision, [], when=WHEN)
    assert result.outcome == "created" and result.document_id != "doc-invented"
    assert store.document(result.document_id).markdown_body == PROPOSAL_BODY  # never the LLM's body
    assert "curation_update_target_unknown" in result.marker_names


def test_no_llm_decision_reaches_a_raw_overwrite(store):
    """Whatever an LLM Update/Consolidate carries, the target's old body survives (merged or appended)."""
    for body in (None, "", LOSSY, "totally different text"):
        target = seed(store, "Build server", TARGET_BODY, anchor=f"a-{new_document_id()[-6:]}")
        decision = CurationDecision(DecisionKind.UPDATE, target.document_id, merged_body=body, from_llm_tier=True)
        apply_decision(store, proposal(), decision, [cand(store, target)], when=WHEN)
        assert TARGET_BODY in store.document(target.document_id).markdown_body


# ---- T/SqliteMemoryStoreDedupCollisionTests ---------------------------------------------------------------------------

def test_create_colliding_on_an_anchor_appends_and_preserves_identity(store):
    existing = seed(store, "Existing title", "Alice prefers tea.", anchor="alice", sensitivity="secret",
                    audience="personal", boundary="boundary:personal")
    before = store.document(existing.document_id)
    p = proposal("Alice also likes green tea.", anchor="alice", title="New title", sensitivity="normal",
                 audience="team", boundary="boundary:team")
    result = apply_decision(store, p, CurationDecision(DecisionKind.CREATE, reason="no existing candidates"), [],
                            when=WHEN)
    stored = store.document(existing.document_id)
    assert result.outcome == "appended" and result.document_id == existing.document_id
    assert stored.markdown_body == "Alice prefers tea.\n\n---\n_[merged 2026-06-01]_\nAlice also likes green tea."
    assert (stored.title, stored.sensitivity, stored.audience, stored.boundary) == (
        "Existing title", "secret", "personal", "boundary:personal")
    assert stored.update_semantics == APPEND_SEMANTICS
    assert stored.created_at == before.created_at and stored.updated_at > before.updated_at
    assert result.document == stored  # the written result equals the stored row
    assert "curation_dedup_append" in result.marker_names


def test_verbatim_duplicate_collision_writes_nothing(store):
    existing = seed(store, "Existing", "Alice prefers tea. She drinks it hot.", anchor="alice")
    seed_embedding(store, existing.document_id)
    snapshot, audits = dump(store), audit_count(store)
    result = apply_decision(store, proposal("She drinks it hot.", anchor="alice"),
                            CurationDecision(DecisionKind.CREATE), [], when=WHEN)
    assert result.outcome == "duplicate-skipped" and not result.wrote
    assert dump(store) == snapshot and audit_count(store) == audits  # row byte-identical, no audit row
    assert "curation_dedup_duplicate_skipped" in result.marker_names


def test_create_without_collision_is_a_plain_insert(store):
    result = apply_decision(store, proposal(anchor="brand-new"), CurationDecision(DecisionKind.CREATE), [], when=WHEN)
    stored = store.document(result.document_id)
    assert result.outcome == "created" and stored.markdown_body == PROPOSAL_BODY
    assert "merged" not in stored.markdown_body and stored.update_semantics == MERGE_SEMANTICS
    assert store.anchor("anchor:brand-new").status == "active"
    entry = get_entry(store, result.audit_id)
    assert entry.operation == "decide-create" and entry.before["documents"][result.document_id]["row"] is None


def test_create_onto_a_tombstoned_latest_doc_resurrects_it(store):
    """Spec §9 inference: the dedup lookup is unfiltered, so the append revives a tombstoned row."""
    dead = seed(store, "Old", "Old fact.", anchor="old-topic")
    store.writes.tombstone_document(dead.document_id)
    result = apply_decision(store, proposal("New fact.", anchor="old-topic"), CurationDecision(DecisionKind.CREATE),
                            [], when=WHEN)
    stored = store.document(dead.document_id)
    assert result.outcome == "appended" and stored.update_semantics == APPEND_SEMANTICS
    assert stored.recall_mode == "auto"


def test_skip_and_ambiguous(store):
    target = seed(store, "Build server", TARGET_BODY)
    snapshot = dump(store)
    skipped = apply_decision(store, proposal(), CurationDecision(DecisionKind.SKIP, target.document_id), [], when=WHEN)
    assert skipped.outcome == "skipped" and dump(store) == snapshot and audit_count(store) == 0
    assert skipped.marker_names == ("curation_skip",)
    amb = apply_decision(store, proposal(anchor="elsewhere"), CurationDecision(DecisionKind.AMBIGUOUS), [], when=WHEN)
    assert amb.outcome == "created" and "curation_unexpected_ambiguous" in amb.marker_names


def test_record_proposal_is_inserted_as_a_record(store):
    p = proposal('{"Predicate":"visited"}', anchor="trip", title="event", kind="record", memory_class="evidence",
                 update_semantics="immutable-record", recall_mode="searchable")
    result = apply_decision(store, p, CurationDecision(DecisionKind.CREATE, reason="immutable record bypass"), [])
    assert result.record_id.startswith("rec-") and result.document_id is None
    assert store.records()[0].payload_json == '{"Predicate":"visited"}'
    assert store.execute("SELECT COUNT(*) FROM memory_records_fts").fetchone()[0] == 1
    assert get_entry(store, result.audit_id).target_id == result.record_id


def test_apply_decision_refuses_when_a_candidate_changed(store):
    target = seed(store, "Build server", TARGET_BODY)
    candidates = [cand(store, target)]
    store.writes.upsert_document(replace(store.document(target.document_id), markdown_body="someone else's edit"))
    snapshot = dump(store)
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, merged_body=FAITHFUL, from_llm_tier=True)
    with pytest.raises(StaleSourceError) as err:
        apply_decision(store, proposal(), decision, candidates, when=WHEN)
    assert err.value.document_id == target.document_id and target.document_id in str(err.value)
    assert dump(store) == snapshot and audit_count(store) == 0


def test_audit_context_is_recorded(store):
    target = seed(store, "Build server", TARGET_BODY)
    ctx = Provenance(decided_by="llm", model_id="qwen-1.5b", prompt_hash="abc123", raw_reply="UPDATE x\n---\nbody",
                     rationale="same server", cosines=((target.document_id, "proposal", 0.93),))
    decision = CurationDecision(DecisionKind.UPDATE, target.document_id, merged_body=FAITHFUL, from_llm_tier=True)
    result = apply_decision(store, proposal(), decision, [cand(store, target)], when=WHEN, audit_context=ctx)
    entry = get_entry(store, result.audit_id)
    assert (entry.model_id, entry.prompt_hash, entry.raw_reply, entry.rationale) == (
        "qwen-1.5b", "abc123", "UPDATE x\n---\nbody", "same server")
    assert entry.cosines == [[target.document_id, "proposal", 0.93]]
    assert entry.details["decision"]["kind"] == "UPDATE" and entry.guard_report["passed"] is True
    assert list_entries(store, model_id="qwen-1.5b")[0].audit_id == entry.audit_id


def test_the_change_descriptor_of_an_applied_decision_names_its_documents_and_audit_row(store):
    a = seed(store, "Repo", "Repo URL https://github.com/netclaw-dev/netclaw.", anchor="netclaw-repo", confidence=0.9)
    b = seed(store, "Repo 2", "Default branch is main since 2026-01-05.", anchor="netclaw-repository", confidence=0.5)
    merged = "Repo URL https://github.com/netclaw-dev/netclaw; default branch is main since 2026-01-05; CI is green."
    decision = CurationDecision(DecisionKind.CONSOLIDATE, a.document_id, (a.document_id, b.document_id),
                                canonical_anchor_name="netclaw-repo", merged_body=merged, from_llm_tier=True)
    result = apply_decision(store, proposal("CI is green.", anchor="netclaw-repository", title="Repo CI"), decision,
                            [cand(store, a), cand(store, b)], when=WHEN)
    assert result.outcome is Outcome.MERGED
    # the primary merged, the other re-anchored: both rows rewritten, none tombstoned
    assert result.changes.documents_written == {a.document_id, b.document_id}
    assert result.changes.documents_tombstoned == frozenset()
    assert result.changes.audit_ids == (result.audit_id,) and result.audit_id is not None
    # a deterministic Update whose proposal tombstones its target (Netclaw's `tombstone` semantics)
    target = seed(store, "Build server", TARGET_BODY)
    update = CurationDecision(DecisionKind.UPDATE, target.document_id, reason="exact anchor match")
    gone = apply_decision(store, proposal(update_semantics=TOMBSTONE_SEMANTICS), update,
                          [cand(store, target, exact=True)], when=WHEN)
    assert gone.outcome is Outcome.OVERWRITTEN
    assert gone.changes.documents_tombstoned == {target.document_id} and not gone.changes.documents_written
    assert gone.changes.to_dict()["audit_ids"] == [gone.audit_id]
    skipped = apply_decision(store, proposal(), CurationDecision(DecisionKind.SKIP, target.document_id), [], when=WHEN)
    assert skipped.changes.empty and not skipped.wrote


# ---- reviewer operations ------------------------------------------------------------------------------------------

def _pair(store):
    a = seed(store, "Build server", TARGET_BODY, aliases_json='["ci"]', boundary="boundary:team", audience="team")
    b = seed(store, "Nightly", PROPOSAL_BODY, anchor="nightly-builds")
    for doc in (a, b):
        seed_embedding(store, doc.document_id, "model-a")
        seed_embedding(store, doc.document_id, "model-b", dims=8)
    return store.document(a.document_id), store.document(b.document_id)


def test_merge_cluster_with_guarded_body(store):
    a, b = _pair(store)
    plan = MergePlan(a.document_id, (a.document_id, b.document_id), merged_body=FAITHFUL,
                     drafted=draft_stamps(store, [a.document_id, b.document_id]), model_id="qwen", prompt_hash="ph",
                     raw_reply="CONSOLIDATE …", rationale="same server", cosines=((a.document_id, b.document_id, 0.91),),
                     note="looks right", prompt="SYSTEM\n\nEXISTING: …\nNEW: …")
    entry = merge_cluster(store, plan)
    assert entry.prompt == "SYSTEM\n\nEXISTING: …\nNEW: …"  # the model's exact prompt stays in the record
    target, other = store.document(a.document_id), store.document(b.document_id)
    assert target.markdown_body == FAITHFUL and target.update_semantics == MERGE_SEMANTICS
    assert (target.title, target.anchor_id, target.boundary, target.audience, target.aliases_json) == (
        a.title, a.anchor_id, a.boundary, a.audience, a.aliases_json)  # identity kept
    assert target.updated_at > a.updated_at and target.created_at == a.created_at
    assert other.is_tombstoned and other.recall_mode == "never" and other.markdown_body == b.markdown_body
    b_image = store.images.document_image(b.document_id)
    assert b_image["fts"] is None and b_image["embeddings"] == []
    assert store.images.document_image(a.document_id)["embeddings"] == []  # rewritten → the daemon re-embeds
    assert entry.operation == "merge" and entry.guard_passed is True and not entry.guard_override
    assert entry.note == "looks right" and entry.rationale == "same server" and entry.model_id == "qwen"
    assert len(entry.before["documents"][a.document_id]["embeddings"]) == 2  # full before-images
    assert entry.after["documents"][b.document_id]["row"]["update_semantics"] == "tombstone"
    assert entry.details["tombstoned"] == [b.document_id]


def test_merge_cluster_refuses_a_failing_guard_without_override(store):
    a, b = _pair(store)
    snapshot = dump(store)
    plan = MergePlan(a.document_id, (b.document_id,), merged_body=LOSSY, drafted=draft_stamps(store, [a.document_id, b.document_id]))
    with pytest.raises(GuardRefusedError) as err:
        merge_cluster(store, plan)
    assert not err.value.report.passed and "1.5.62" in err.value.report.missing
    assert dump(store) == snapshot and audit_count(store) == 0
    entry = merge_cluster(store, replace(plan, guard_override=True, note="I know"))
    assert store.document(a.document_id).markdown_body == LOSSY
    assert entry.guard_passed is False and entry.guard_override and entry.details["guard"]["missing"]
    assert list_entries(store, guard_passed=False)[0].audit_id == entry.audit_id


def test_merge_cluster_append_and_union(store):
    a, b = _pair(store)
    c = seed(store, "Third", "Builds are stored for 30 days.", anchor="retention")
    drafted = draft_stamps(store, [a.document_id, b.document_id, c.document_id])
    entry = merge_cluster(store, MergePlan(a.document_id, (b.document_id, c.document_id), mode=MODE_APPEND,
                                           drafted=drafted, when=WHEN))
    body = store.document(a.document_id).markdown_body
    assert body == (f"{TARGET_BODY}\n\n---\n_[merged 2026-06-01]_\n{PROPOSAL_BODY}"
                    f"\n\n---\n_[merged 2026-06-01]_\nBuilds are stored for 30 days.")
    assert store.document(a.document_id).update_semantics == APPEND_SEMANTICS and entry.guard_passed
    assert store.document(c.document_id).is_tombstoned

    x = seed(store, "X", "Server alpha has 64GB RAM.", anchor="alpha")
    y = seed(store, "Y", "Server alpha has 64GB RAM. It runs Debian 12.", anchor="alpha2")
    entry = merge_cluster(store, MergePlan(x.document_id, (y.document_id,), mode=MODE_UNION,
                                           drafted=draft_stamps(store, [x.document_id, y.document_id])))
    merged = store.document(x.document_id).markdown_body
    assert "64GB" in merged and "Debian 12" in merged and entry.details["mode"] == "union"
    assert store.document(x.document_id).update_semantics == MERGE_SEMANTICS


def test_another_connection_changing_a_source_makes_apply_refuse(store, tmp_path):
    a, b = _pair(store)
    drafted = draft_stamps(store, [a.document_id, b.document_id])  # the reviewer drafts …
    other = open_store(store.path)  # … meanwhile another writer (the daemon) edits a source
    try:
        other.writes.upsert_document(replace(other.document(b.document_id), markdown_body=PROPOSAL_BODY + " Also on Sundays."))
    finally:
        other.close()
    snapshot = dump(store)
    with pytest.raises(StaleSourceError) as err:
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), merged_body=FAITHFUL, drafted=drafted))
    assert err.value.document_id == b.document_id and b.document_id in str(err.value)
    assert dump(store) == snapshot and audit_count(store) == 0


def test_a_source_tombstoned_since_the_draft_is_named_as_tombstoned_not_as_a_new_time(store):
    """Another merge (a second memgui, the daemon's curation) tombstoned a source: the refusal says so."""
    a, b = _pair(store)
    drafted = draft_stamps(store, [a.document_id, b.document_id])
    store.writes.tombstone_document(b.document_id)
    snapshot = dump(store)
    with pytest.raises(StaleSourceError) as err:
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode=MODE_APPEND, drafted=drafted))
    assert f"{b.document_id} was tombstoned (merged away, or deleted by the agent) since the decision" in str(err.value)
    assert dump(store) == snapshot and audit_count(store) == 0


def test_a_touch_without_content_change_is_also_stale(store):
    a, b = _pair(store)
    drafted = draft_stamps(store, [a.document_id, b.document_id])
    store.writes.upsert_document(store.document(a.document_id))  # same text, new updated_at
    with pytest.raises(StaleSourceError):
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode=MODE_APPEND, drafted=drafted))


def test_merge_cluster_bad_input(store):
    a, b = _pair(store)
    drafted = draft_stamps(store, [a.document_id, b.document_id])
    with pytest.raises(ApplyInputError):
        merge_cluster(store, MergePlan(a.document_id, (a.document_id,), mode=MODE_APPEND, drafted=drafted))
    with pytest.raises(ApplyInputError):
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), merged_body="  ", drafted=drafted))
    with pytest.raises(ApplyInputError):
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode="smash", drafted=drafted))
    with pytest.raises(ApplyInputError, match="doc-missing"):
        merge_cluster(store, MergePlan(a.document_id, ("doc-missing",), mode=MODE_APPEND, drafted=drafted))
    with pytest.raises(ApplyInputError, match="drafted"):
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode=MODE_APPEND,
                                       drafted={a.document_id: drafted[a.document_id]}))
    store.writes.tombstone_document(b.document_id)
    with pytest.raises(ApplyInputError, match="tombstoned"):
        merge_cluster(store, MergePlan(a.document_id, (b.document_id,), mode=MODE_APPEND,
                                       drafted=draft_stamps(store, [a.document_id, b.document_id])))
    assert audit_count(store) == 0


def test_drop_document(store):
    a, _ = _pair(store)
    entry = drop_document(store, a.document_id, SourceStamp.of(a), note="redundant")
    assert store.document(a.document_id).is_tombstoned and entry.operation == "drop" and entry.note == "redundant"
    with pytest.raises(ApplyInputError):
        drop_document(store, a.document_id, SourceStamp.of(store.document(a.document_id)))
    with pytest.raises(StaleSourceError):
        drop_document(store, a.document_id, SourceStamp.of(a))


def test_edit_document_reruns_the_guard(store):
    a, _ = _pair(store)
    with pytest.raises(GuardRefusedError):
        edit_document(store, a.document_id, "The build server.", SourceStamp.of(a))
    entry = edit_document(store, a.document_id, TARGET_BODY + " Owned by the infra team.", SourceStamp.of(a), note="add owner")
    edited = store.document(a.document_id)
    assert edited.markdown_body.endswith("infra team.") and edited.update_semantics == a.update_semantics
    assert entry.operation == "edit" and entry.guard_passed
    entry = edit_document(store, a.document_id, "Short.", SourceStamp.of(edited), guard_override=True)
    assert entry.guard_override and store.document(a.document_id).markdown_body == "Short."
    with pytest.raises(ApplyInputError):
        edit_document(store, a.document_id, "Short.", SourceStamp.of(store.document(a.document_id)))


def test_keep_separate_adds_every_pair(store):
    a, b = _pair(store)
    c = seed(store, "Third", "Builds are kept 30 days.", anchor="retention")
    entry = keep_separate(store, [a.document_id, b.document_id, c.document_id], note="different facts")
    assert exempt_pairs(store) == {frozenset((a.document_id, b.document_id)), frozenset((a.document_id, c.document_id)),
                                   frozenset((b.document_id, c.document_id))}
    assert entry.operation == "keep-separate" and len(entry.after["exemptions"]) == 3
    with pytest.raises(ApplyInputError):
        keep_separate(store, [a.document_id])
    with pytest.raises(ApplyInputError):
        keep_separate(store, [a.document_id, "doc-nope"])


def test_keep_separate_records_only_the_pairs_that_are_apart(store):
    # a and b are one same-fact group, c is a different fact: only a–c and b–c are "not duplicates"
    a, b = _pair(store)
    c = seed(store, "Third", "Builds are kept 30 days.", anchor="retention")
    ids = [a.document_id, b.document_id, c.document_id]
    apart = [(a.document_id, c.document_id), (c.document_id, b.document_id)]
    entry = keep_separate(store, ids, note="c is another fact", pairs=apart)
    assert exempt_pairs(store) == {frozenset(p) for p in apart}
    assert frozenset((a.document_id, b.document_id)) not in exempt_pairs(store)
    assert sorted(map(sorted, entry.details["pairs"])) == sorted(map(sorted, apart))  # what calibration reads
    with pytest.raises(ApplyInputError):
        keep_separate(store, ids, pairs=[(a.document_id, "doc-elsewhere")])
    with pytest.raises(ApplyInputError):
        keep_separate(store, ids, pairs=[])


def test_create_with_an_explicit_existing_id_overwrites_it(store):
    """Netclaw writes a Create's proposal unchanged: an explicit memory_id is upserted in place."""
    target = seed(store, "Build server", TARGET_BODY)
    result = apply_decision(store, proposal("Replacement text.", memory_id=target.document_id),
                            CurationDecision(DecisionKind.CREATE), [], when=WHEN)
    assert result.outcome == "overwritten" and result.document_id == target.document_id
    assert store.document(target.document_id).markdown_body == "Replacement text."
    assert get_entry(store, result.audit_id).before["documents"][target.document_id]["row"]["markdown_body"] == TARGET_BODY


def test_audit_detail_shows_the_prompt_and_reply_of_a_model_merge(store):
    """The audit tab shows what the model saw and said next to the decision (MAC-2: model and prompt)."""
    from memgui.gui.audit.detail import entry_html

    a, b = _pair(store)
    plan = MergePlan(a.document_id, (a.document_id, b.document_id), merged_body=FAITHFUL,
                     drafted=draft_stamps(store, [a.document_id, b.document_id]), model_id="qwen",
                     prompt="EXISTING: build server\nNEW: nightly", raw_reply="CONSOLIDATE x y\n---\nbody")
    html = entry_html(merge_cluster(store, plan), {})
    assert "EXISTING: build server" in html and "CONSOLIDATE x y" in html


def test_merge_cluster_records_the_confirmed_restatements_in_its_audit_row(store):
    from memgui.core.merge.read_pairs import ConfirmedRestatement

    a, b = _pair(store)
    ids = [a.document_id, b.document_id]
    confirmed = (ConfirmedRestatement(b.document_id, 0, PROPOSAL_BODY, (FAITHFUL,)),
                 ConfirmedRestatement("doc-not-in-the-merge", 0, "x", ()))
    plan = MergePlan(a.document_id, tuple(ids), merged_body=FAITHFUL, drafted=draft_stamps(store, ids),
                     confirmed=confirmed)
    entry = merge_cluster(store, plan)
    assert entry.details["confirmed_restatements"] == [confirmed[0].to_dict()]  # in the same row, same transaction
    assert get_entry(store, entry.audit_id).details["confirmed_restatements"][0]["document_id"] == b.document_id
