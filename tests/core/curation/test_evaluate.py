"""The evaluator order (netclaw-compat §5) on real stores: ports of Netclaw's T/MemoryCurationEvaluatorParityTests.cs
(decision parts) and T/MemoryCurationNominatorTests.cs, with a fixed-vector nominator and a scripted decider."""
from __future__ import annotations

import logging
import math

import pytest

from factories import seed_existing
from memgui.config import CurationSettings
from memgui.core.curation.evaluator import (
    REASON_CONSERVATIVE_CREATE,
    anchor_candidates,
    candidates_by_content,
    evaluate,
    extractor_anchor,
    lexical_terms,
)
from memgui.core.curation.types import (
    Candidate,
    CurationDecision,
    DeciderResult,
    DecisionKind,
    Nomination,
    NominatorUnavailable,
    Proposal,
)
from memgui.core.tasks import Cancelled, CancelToken, Progress

# Unit vectors with cosine exactly ≈ 0.93 (0.93² + 0.367623² ≈ 1), as in Netclaw's nominator tests.
EXISTING_VECTOR = (1.0, 0.0)
QUERY_AT_093 = (0.93, 0.367623)
NEAR_DUPE_BODY = "The build pipeline stores intermediate render artifacts in a graphite-backed cache layer."
PARAPHRASE = "Deployment jobs wait in a queue before promotion to production."


# ---- fakes ------------------------------------------------------------------------------------------

class FixedVectorNominator:
    """Cosine between one fixed query vector and hand-made document vectors; top k at or above threshold."""

    def __init__(self, vectors: dict[str, tuple[float, float]], query=QUERY_AT_093):
        self.vectors, self.query, self.calls = vectors, query, 0

    def nominate(self, title, content, *, k, threshold):
        self.calls += 1
        qn = math.hypot(*self.query)
        scored = []
        for doc_id, v in self.vectors.items():
            cos = (v[0] * self.query[0] + v[1] * self.query[1]) / (math.hypot(*v) * qn)
            if cos >= threshold:
                scored.append(Nomination(doc_id, cos))
        scored.sort(key=lambda n: -n.cosine)
        return scored[:k]


class UnavailableNominator:
    def __init__(self, reason="embedder_unavailable"):
        self.reason = reason

    def nominate(self, title, content, *, k, threshold):
        raise NominatorUnavailable(self.reason)


def reply_decision(reply: str) -> CurationDecision | None:
    word = reply.strip().split()[0].upper() if reply.strip() else ""
    if word in ("SKIP", "CREATE"):
        return CurationDecision(DecisionKind[word], reason=f"LLM decision: {word}", from_llm_tier=True)
    return None


class ScriptedDecider:
    """Streams one scripted reply; counts calls and records what it was shown."""

    model_id = "scripted"

    def __init__(self, reply: str | None = "SKIP", *, error: str | None = None, raises: Exception | None = None):
        self.reply, self.error, self.raises = reply, error, raises
        self.calls: list[dict] = []

    def decide(self, proposal, candidates, *, full_candidate_content, cancel=None, timeout_s=None):
        self.calls.append({"candidates": tuple(candidates), "full": full_candidate_content, "timeout_s": timeout_s})
        if self.raises is not None:
            raise self.raises
        yield Progress("deciding", payload=self.reply or "")
        decision = reply_decision(self.reply or "") if self.error is None else None
        error = self.error if self.error is not None else (None if decision else "unparseable")
        return DeciderResult(decision=decision, raw_reply=self.reply or "", model_id=self.model_id, error=error,
                             rationale="scripted")

    @property
    def call_count(self) -> int:
        return len(self.calls)


# ---- fixtures ---------------------------------------------------------------------------------------

@pytest.fixture
def store(empty_store):
    return empty_store


def op(anchor, content, *, kind="document", freshness_at=2000):
    return Proposal(title=f"Title for {anchor}", content=content, anchor_name=anchor, kind=kind,
                    confidence=0.9, freshness_at=freshness_at)


def markers(evaluation):
    return [e.marker for e in evaluation.events]


def event(evaluation, marker):
    return next(e for e in evaluation.events if e.marker == marker)


# ---- parity matrix (decision parts) ----------------------------------------------------------------

def test_record_bypass_creates_without_candidates(store):
    seed_existing(store, "any-anchor", "doc-any", "irrelevant content")
    ev = evaluate(store, op("any-anchor", "irrelevant content", kind="record"))
    assert ev.decision.kind is DecisionKind.CREATE
    assert ev.decision.reason == "immutable record bypass"
    assert ev.candidates == () and ev.events == () and ev.llm_calls == 0


def test_exact_anchor_high_overlap_skips_without_gathering_evidence(store):
    seed_existing(store, "favorite-color", "doc-color", "favorite color is blue")
    nominator = FixedVectorNominator({"doc-color": EXISTING_VECTOR})
    ev = evaluate(store, op("favorite-color", "favorite color is blue"), nominator=nominator)
    assert ev.decision.kind is DecisionKind.SKIP
    assert ev.decision.target_document_id == "doc-color"
    assert nominator.calls == 0  # the exact-anchor fast path never nominates
    assert ev.events == ()
    assert [(c.document_id, c.is_exact, c.cosine) for c in ev.candidates] == [("doc-color", True, None)]


def test_exact_anchor_newer_superset_updates(store):
    seed_existing(store, "latest-version", "doc-version", "Latest version is 1.5.62.")
    ev = evaluate(store, op("latest-version", "Latest version is 1.5.62. Released with the new serializer."))
    assert ev.decision.kind is DecisionKind.UPDATE
    assert ev.decision.target_document_id == "doc-version"
    assert not ev.decision.from_llm_tier


def test_exact_anchor_is_case_and_space_insensitive(store):
    seed_existing(store, "favorite-color", "doc-color", "favorite color is blue")
    ev = evaluate(store, op("  Favorite Color ", "favorite color is blue"))
    assert ev.candidates[0].is_exact
    assert ev.decision.kind is DecisionKind.SKIP


def test_fuzzy_anchor_high_overlap_consolidates(store):
    seed_existing(store, "akka-net-latest-release", "doc-akka", "Akka.NET latest release version is 1.5.62")
    ev = evaluate(store, op("akka-net-release", "Akka.NET latest release version is 1.5.62"))
    assert ev.decision.kind is DecisionKind.CONSOLIDATE
    assert "doc-akka" in ev.decision.consolidation_target_ids
    assert ev.decision.target_document_id == "doc-akka"
    assert ev.decision.canonical_anchor_name == "akka-net-latest-release"


def test_gray_zone_without_llm_auto_resolves_to_skip(store):
    seed_existing(store, "netclaw-github-repository", "doc-repo",
                  "Netclaw GitHub repository: https://github.com/netclaw-dev/netclaw. The repository is private.")
    ev = evaluate(store, op("netclaw-github-repo",
                            "Netclaw GitHub repository at https://github.com/netclaw-dev/netclaw, private repo"))
    assert ev.decision.kind is DecisionKind.SKIP
    assert "auto-resolved" in ev.decision.reason
    assert markers(ev) == ["curation_nominator_degraded", "curation_dual_search", "curation_ambiguous_auto_resolved"]
    resolved = event(ev, "curation_ambiguous_auto_resolved")
    assert resolved.fields["decision"] == "Skip" and resolved.fields["reason"] == ev.decision.reason


def test_fuzzy_anchor_low_overlap_creates(store):
    seed_existing(store, "akka-net-latest-release", "doc-postgres",
                  "PostgreSQL 15 is the primary datastore for user profiles and session history")
    ev = evaluate(store, op("akka-net-release", "The CI pipeline deploys to staging on every PR merge"))
    assert ev.decision.kind is DecisionKind.CREATE
    assert ev.decision.reason.startswith("fuzzy anchor match but low content overlap")


WIDGET = "Widget specs: 16 cores, 64GB RAM, 2 NICs. Pricing on file. Vendor contacts listed."


def test_guard_downgrade_with_nothing_else_falls_through_to_create(store):
    seed_existing(store, "widget-specs", "doc-widget", WIDGET)
    ev = evaluate(store, op("widget-specs", "Widget pricing is TBD as of Q2."))
    assert ev.decision.kind is DecisionKind.CREATE  # not the silent no-op Skip
    assert "fuzzy anchor match but low content overlap" in ev.decision.reason
    assert [(c.document_id, c.is_exact) for c in ev.candidates] == [("doc-widget", False)]  # demoted, not duplicated


def test_guard_downgrade_reworded_restatement_falls_through_to_legitimate_skip(store):
    seed_existing(store, "widget-specs", "doc-widget",
                  "Widget specs: 16 cores, 64GB RAM, 2 NICs. Warranty is 3 years from Acme Corp in Denver.")
    ev = evaluate(store, op("widget-specs",
                            "Acme Corp widget in Denver: 2 NICs, 64GB RAM, 16 cores, and a 3 year warranty included."))
    assert ev.decision.kind is DecisionKind.SKIP
    assert "auto-resolved" in ev.decision.reason
    assert ev.decision.target_document_id == "doc-widget"


def test_guard_fallthrough_logs_structured_marker(store, caplog):
    seed_existing(store, "widget-specs", "doc-widget", WIDGET)
    seen = []
    with caplog.at_level(logging.DEBUG, logger="memgui.curation"):
        ev = evaluate(store, op("widget-specs", "Widget pricing is TBD as of Q2."), log=seen)
    assert ev.decision.kind is DecisionKind.CREATE
    fall = event(ev, "curation_guard_fallthrough")
    assert fall.fields == {"anchor": "widget-specs", "rejectedTarget": "doc-widget"}
    assert fall.level == "warning"
    assert "curation_guard_fallthrough anchor=widget-specs rejectedTarget=doc-widget" in caplog.text
    assert [e.marker for e in seen] == markers(ev)  # the caller's log gets the same events
    # after the fall-through the degraded lexical search runs for the first time
    assert markers(ev)[:3] == ["curation_guard_fallthrough", "curation_nominator_degraded", "curation_dual_search"]


def test_guard_downgrade_with_nominator_near_dupe_forces_llm(store):
    seed_existing(store, "the", "doc-unrelated-junk-anchor", "Unrelated content that happens to share the same junk anchor name.")
    seed_existing(store, "graphite-render-cache", "doc-near-dupe", NEAR_DUPE_BODY, title="Existing near-dupe")
    nominator = FixedVectorNominator({"doc-near-dupe": EXISTING_VECTOR})
    decider = ScriptedDecider("SKIP")
    ev = evaluate(store, op("the", PARAPHRASE), nominator=nominator, decider=decider)
    assert ev.decision.from_llm_tier and ev.decision.kind is DecisionKind.SKIP
    assert decider.call_count == 1 and ev.llm_calls == 1
    assert decider.calls[0]["full"] is True
    shown = {c.document_id: c for c in decider.calls[0]["candidates"]}
    assert shown["doc-near-dupe"].cosine == pytest.approx(0.93, abs=1e-4)
    assert shown["doc-unrelated-junk-anchor"].is_exact is False  # demoted before the rerun
    assert markers(ev) == ["curation_guard_fallthrough", "curation_nominated", "curation_llm_decision"]


def test_llm_skip_on_gray_zone_is_returned_with_truncated_previews(store):
    seed_existing(store, "netclaw-github-repository", "doc-repo",
                  "Netclaw GitHub repository: https://github.com/netclaw-dev/netclaw. The repository is private.")
    decider = ScriptedDecider("SKIP")
    ev = evaluate(store, op("netclaw-github-repo",
                            "Netclaw GitHub repository at https://github.com/netclaw-dev/netclaw, private repo"),
                  decider=decider)
    assert ev.decision.kind is DecisionKind.SKIP
    assert "LLM decision" in ev.decision.reason and ev.decision.from_llm_tier
    assert ev.decision.rationale == "scripted"
    assert decider.calls[0]["full"] is False
    assert decider.calls[0]["timeout_s"] == CurationSettings().llm_timeout_seconds
    assert ev.decider_result is not None and ev.decider_result.raw_reply == "SKIP"
    llm = event(ev, "curation_llm_decision")
    assert llm.fields == {"anchor": "netclaw-github-repo", "decision": "Skip", "reason": "LLM decision: SKIP"}


def test_unparseable_llm_reply_falls_back_to_auto_resolve(store):
    seed_existing(store, "netclaw-github-repository", "doc-repo",
                  "Netclaw GitHub repository: https://github.com/netclaw-dev/netclaw. The repository is private.")
    decider = ScriptedDecider("[fake] Response #1")
    ev = evaluate(store, op("netclaw-github-repo",
                            "Netclaw GitHub repository at https://github.com/netclaw-dev/netclaw, private repo"),
                  decider=decider)
    assert ev.decision.kind is DecisionKind.SKIP and "auto-resolved" in ev.decision.reason
    assert not ev.decision.from_llm_tier
    assert event(ev, "curation_llm_no_decision").fields["responseLength"] == len("[fake] Response #1")
    assert ev.decider_result.error == "unparseable"


def test_ambiguous_with_failing_llm_and_weak_anchor_creates(store):
    # gray-zone content (40–60% overlap) is too low for auto-resolve once the LLM times out
    seed_existing(store, "akka-net-latest-release", "doc-akka", "Akka.NET release version 1.5.60 added cluster sharding "
                  "support and initial persistence features for testing environments")
    decider = ScriptedDecider(error="timeout", reply="")
    ev = evaluate(store, op("akka-net-release", "Akka.NET release version 1.5.62 added cluster sharding improvements "
                            "and new persistence features for production workloads"), decider=decider)
    assert ev.decision.kind is DecisionKind.CREATE
    assert ev.decision.reason == "ambiguous: auto-resolve insufficient, defaulting to create"
    assert event(ev, "curation_llm_timeout").fields["timeoutSeconds"] == CurationSettings().llm_timeout_seconds
    assert event(ev, "curation_ambiguous_create_fallback").fields["llm_available"] is True


def test_nominee_present_gives_same_forced_llm_decision_every_time(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    before = store.images.document_image("doc-existing")
    results = []
    for _ in range(2):
        ev = evaluate(store, op("sunfish-deploy-queue", PARAPHRASE),
                      nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}), decider=ScriptedDecider("SKIP"))
        results.append((ev.decision, ev.candidates))
    assert results[0] == results[1]
    assert results[0][0].from_llm_tier and results[0][0].kind is DecisionKind.SKIP
    assert store.images.document_image("doc-existing") == before  # evaluation writes nothing


# ---- nominator (T/MemoryCurationNominatorTests) -----------------------------------------------------

def test_paraphrase_at_cosine_093_forces_exactly_one_llm_call(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    decider = ScriptedDecider("CREATE")
    ev = evaluate(store, op("sunfish-deploy-queue", PARAPHRASE),
                  nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}), decider=decider)
    assert decider.call_count == 1 and ev.llm_calls == 1
    assert ev.decision.from_llm_tier and ev.decision.kind is DecisionKind.CREATE
    assert [(c.document_id, round(c.cosine, 4)) for c in ev.candidates] == [("doc-existing", 0.93)]
    nominated = event(ev, "curation_nominated")
    assert nominated.fields["count"] == 1
    assert nominated.line == "curation_nominated anchor=sunfish-deploy-queue count=1 topCosine=0.9300"


def test_nominee_without_llm_conservatively_creates(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    ev = evaluate(store, op("sunfish-deploy-queue", PARAPHRASE),
                  nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}))
    assert ev.decision.kind is DecisionKind.CREATE and not ev.decision.from_llm_tier
    assert "conservative create" in ev.decision.reason
    assert "no auto-merge on cosine alone" in ev.decision.reason
    warn = event(ev, "curation_nominee_no_llm_decision")
    assert warn.line == ("curation_nominee_no_llm_decision anchor=sunfish-deploy-queue llm_available=False"
                         " — conservative create")
    assert len(store.documents()) == 1


@pytest.mark.parametrize("decider, marker", [
    (ScriptedDecider("I think these are the same"), "curation_llm_no_decision"),
    (ScriptedDecider(error="timeout", reply=""), "curation_llm_timeout"),
    (ScriptedDecider(raises=RuntimeError("model crashed")), "curation_llm_error"),
])
def test_nominee_with_failed_llm_never_auto_resolves(store, decider, marker):
    # identical content: the rules tier would skip or consolidate — the nominee path must not
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    ev = evaluate(store, op("graphite-render-cache-2", NEAR_DUPE_BODY),
                  nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}), decider=decider)
    assert ev.decision.kind is DecisionKind.CREATE
    assert ev.decision.reason == REASON_CONSERVATIVE_CREATE
    assert decider.call_count == 1
    assert marker in markers(ev)
    assert event(ev, "curation_nominee_no_llm_decision").fields["llm_available"] is True


def test_empty_store_creates_with_zero_llm_calls(store):
    decider = ScriptedDecider("CREATE")
    nominator = FixedVectorNominator({})
    ev = evaluate(store, op("brand-new-topic", "Completely novel content nobody has proposed before."),
                  nominator=nominator, decider=decider)
    assert ev.decision.kind is DecisionKind.CREATE and ev.decision.reason == "no existing candidates"
    assert not ev.decision.from_llm_tier and decider.call_count == 0 and nominator.calls == 1
    assert ev.events == ()


LEXICAL_EXISTING = "Deployment jobs wait in a queue before promotion to production servers."
LEXICAL_PROPOSAL = "Deployment jobs wait in a queue before reaching production."


@pytest.mark.parametrize("nominator, reason", [
    (UnavailableNominator("embedder_unavailable"), "embedder_unavailable"),
    (UnavailableNominator("vector_index_unavailable"), "vector_index_unavailable"),
    (None, "no_embedder_configured"),
])
def test_unavailable_nominator_degrades_to_lexical_search(store, nominator, reason):
    seed_existing(store, "totally-different-topic", "doc-existing", LEXICAL_EXISTING)
    ev = evaluate(store, op("another-unrelated-subject", LEXICAL_PROPOSAL), nominator=nominator)
    degraded = event(ev, "curation_nominator_degraded")
    assert degraded.fields == {"anchor": "another-unrelated-subject", "reason": reason}
    assert degraded.level == "debug"
    assert [c.document_id for c in ev.candidates] == ["doc-existing"]
    assert all(c.cosine is None for c in ev.candidates)
    dual = event(ev, "curation_dual_search")
    assert dual.fields == {"anchor": "another-unrelated-subject", "anchor_hits": 0, "content_hits": 1, "merged": 1}


def test_nominator_that_finds_nothing_does_not_run_the_lexical_search(store):
    seed_existing(store, "totally-different-topic", "doc-existing", LEXICAL_EXISTING)
    ev = evaluate(store, op("another-unrelated-subject", LEXICAL_PROPOSAL),
                  nominator=FixedVectorNominator({"doc-existing": (0.0, 1.0)}, query=(1.0, 0.0)))
    assert ev.candidates == ()
    assert ev.decision.reason == "no existing candidates"
    assert "curation_nominator_degraded" not in markers(ev)


def test_nominee_that_is_also_an_anchor_candidate_gets_the_cosine_tag(store):
    seed_existing(store, "akka-net-latest-release", "doc-akka", "Akka.NET latest release version is 1.5.62")
    seed_existing(store, "graphite-render-cache", "doc-other", NEAR_DUPE_BODY)
    decider = ScriptedDecider("CREATE")
    ev = evaluate(store, op("akka-net-release", "Akka.NET latest release version is 1.5.62"),
                  nominator=FixedVectorNominator({"doc-akka": EXISTING_VECTOR, "doc-other": (0.9, 0.45)}),
                  decider=decider)
    ids = [c.document_id for c in ev.candidates]
    assert ids == ["doc-akka", "doc-other"]  # anchor matches first, then nominees by cosine, no duplicates
    assert ev.candidates[0].cosine == pytest.approx(0.93, abs=1e-4)
    assert ev.decision.from_llm_tier  # would have been a deterministic Consolidate without the nominee


def test_nominees_under_inactive_anchors_or_tombstoned_are_not_hydrated(store):
    seed_existing(store, "graphite-render-cache", "doc-dead", NEAR_DUPE_BODY)
    store.writes.tombstone_document("doc-dead")
    seed_existing(store, "old-anchor", "doc-orphan", NEAR_DUPE_BODY, anchor_status="tombstoned")
    decider = ScriptedDecider("SKIP")
    ev = evaluate(store, op("sunfish-deploy-queue", PARAPHRASE), decider=decider,
                  nominator=FixedVectorNominator({"doc-dead": EXISTING_VECTOR, "doc-orphan": EXISTING_VECTOR}))
    assert ev.candidates == () and decider.call_count == 0
    assert "curation_nominated" not in markers(ev)


def test_settings_supply_k_and_threshold(store):
    for i in range(4):
        seed_existing(store, f"topic-{i}-zzz", f"doc-{i}", f"unrelated body number {i}")
    vectors = {f"doc-{i}": (1.0, 0.05 * i) for i in range(4)}
    ev = evaluate(store, op("sunfish", "something else entirely"), nominator=FixedVectorNominator(vectors, (1.0, 0.0)),
                  settings=CurationSettings(nominator_k=2, nominator_similarity_threshold=0.99))
    assert [c.document_id for c in ev.candidates] == ["doc-0", "doc-1"]


def test_cancel_stops_the_evaluation(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        evaluate(store, op("sunfish-deploy-queue", PARAPHRASE), cancel=token)


def test_user_cancel_during_the_llm_call_propagates(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    token = CancelToken()

    class CancellingDecider(ScriptedDecider):
        def decide(self, proposal, candidates, **kw):
            token.cancel()
            token.raise_if_cancelled()
            yield  # pragma: no cover

    with pytest.raises(Cancelled):
        evaluate(store, op("sunfish-deploy-queue", PARAPHRASE), cancel=token, decider=CancellingDecider(),
                 nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}))


def test_decider_progress_reaches_on_progress(store):
    seed_existing(store, "graphite-render-cache", "doc-existing", NEAR_DUPE_BODY)
    pieces = []
    evaluate(store, op("sunfish-deploy-queue", PARAPHRASE), decider=ScriptedDecider("SKIP"),
             nominator=FixedVectorNominator({"doc-existing": EXISTING_VECTOR}), on_progress=pieces.append)
    assert [p.payload for p in pieces] == ["SKIP"]


# ---- store reads ---------------------------------------------------------------------------------------

def test_anchor_candidates_take_the_latest_live_document_of_active_anchors(store):
    seed_existing(store, "widget-specs", "doc-old", "old body")
    seed_existing(store, "widget-specs", "doc-new", "new body")
    seed_existing(store, "widget-specs", "doc-newest-dead", "dead body")
    store.writes.tombstone_document("doc-newest-dead")
    with store.transaction():
        store.execute("UPDATE memory_documents SET updated_at = 5 WHERE document_id = 'doc-old'")
        store.execute("UPDATE memory_documents SET updated_at = 7 WHERE document_id = 'doc-new'")
        store.execute("UPDATE memory_documents SET updated_at = 9 WHERE document_id = 'doc-newest-dead'")
    store.writes.ensure_anchor("widget-spec-sheet")  # an anchor without documents is skipped
    seed_existing(store, "widget-specs-archive", "doc-archived", "x", anchor_status="tombstoned")
    found = anchor_candidates(store, "widget-specs")
    assert [(c.document_id, c.is_exact) for c in found] == [("doc-new", True)]
    assert anchor_candidates(store, "  ") == []


def test_lexical_search_keeps_durable_live_facts_under_active_anchors(store):
    body = "Deployment jobs wait in a queue"
    seed_existing(store, "a-one", "doc-fact", body)
    seed_existing(store, "a-two", "doc-evidence", body, memory_class="evidence", recall_mode="searchable")
    seed_existing(store, "a-three", "doc-dead", body)
    store.writes.tombstone_document("doc-dead")
    seed_existing(store, "a-four", "doc-inactive", body, anchor_status="tombstoned")
    seed_existing(store, "a-five", "doc-searchable", body, recall_mode="searchable")
    ids = [c.document_id for c in candidates_by_content(store, lexical_terms(body))]
    assert sorted(ids) == ["doc-fact", "doc-searchable"]
    assert candidates_by_content(store, []) == []


def test_lexical_terms_follow_netclaw_split():
    text = 'The "quick" brown-fox, ok? Jumps: over THE lazy dog! and 1.5.62 again again x ab abc extra more'
    assert lexical_terms(text) == ["the", "quick", "brown-fox", "jumps", "over", "lazy", "dog", "and"]
    assert lexical_terms("a b cd") == []


def test_extractor_anchor_is_first_space_separated_word_lower_cased():
    assert extractor_anchor("  The build pipeline") == "the"
    assert extractor_anchor("Akka.NET release") == "akka.net"
    assert extractor_anchor("line1\nline2 rest") == "line1\nline2"  # split on spaces only
    assert extractor_anchor("   ") == "session"


def test_candidates_are_values_not_rows(store):
    seed_existing(store, "favorite-color", "doc-color", "favorite color is blue")
    ev = evaluate(store, op("favorite-color", "favorite color is blue"))
    assert all(isinstance(c, Candidate) for c in ev.candidates)
    assert isinstance(ev.candidates, tuple)
