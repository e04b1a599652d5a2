"""Port of Netclaw's T/CurationRulesEvaluatorTests.cs (netclaw-compat §7, §14) plus the reason formats."""

from memgui.core.curation.rules import (
    evaluate_rules,
    guard_destructive_update,
    try_auto_resolve_ambiguous,
)
from memgui.core.curation.types import Candidate, CurationDecision, DecisionKind, Proposal


def proposal(anchor="test-anchor", content="test content", kind="document", freshness_at=1000):
    return Proposal(title=f"Title for {anchor}", content=content, anchor_name=anchor, kind=kind,
                    confidence=0.9, freshness_at=freshness_at)


def candidate(doc_id="doc-123", anchor_id="anchor:test-anchor", anchor_name="test-anchor", content="test content",
              freshness_at=900, confidence=0.9, is_exact=True):
    return Candidate(document_id=doc_id, anchor_id=anchor_id, canonical_name=anchor_name, markdown_body=content,
                     freshness_at=freshness_at, confidence=confidence, is_exact=is_exact)


def test_no_candidates_creates():
    d = evaluate_rules(proposal(), [])
    assert d.kind is DecisionKind.CREATE
    assert d.reason == "no existing candidates"


def test_record_always_creates():
    d = evaluate_rules(proposal(kind="record"), [candidate()])
    assert d.kind is DecisionKind.CREATE
    assert d.reason == "immutable record bypass"
    assert evaluate_rules(proposal(kind="Record"), [candidate()]).kind is DecisionKind.CREATE  # case-insensitive


def test_exact_identical_skips_with_high_overlap_reason():
    d = evaluate_rules(proposal(content="favorite color is blue"), [candidate(content="favorite color is blue")])
    assert d.kind is DecisionKind.SKIP
    assert d.target_document_id == "doc-123"
    assert d.reason == "exact anchor match + high content overlap (100%)"


def test_exact_newer_different_content_updates():
    d = evaluate_rules(proposal(content="latest version is 1.5.62", freshness_at=2000),
                       [candidate(content="latest version is 1.5.60", freshness_at=1000)])
    assert d.kind is DecisionKind.UPDATE
    assert d.target_document_id == "doc-123"
    # tokens {latest, version, is, 1, 5, 62} vs {…, 60}: 5/7 = 71%
    assert d.reason == "exact anchor match + newer content (overlap=71%)"


def test_exact_older_proposal_is_stale_skip():
    d = evaluate_rules(proposal(content="latest version is 1.5.58", freshness_at=500),
                       [candidate(content="latest version is 1.5.62", freshness_at=2000)])
    assert d.kind is DecisionKind.SKIP
    assert "stale proposal" in d.reason
    assert d.reason.startswith("exact anchor match + stale proposal (overlap=")


def test_exact_null_freshness_counts_as_zero():
    d = evaluate_rules(proposal(content="alpha", freshness_at=None), [candidate(content="beta", freshness_at=None)])
    assert d.kind is DecisionKind.UPDATE


def test_fuzzy_identical_consolidates_into_best():
    d = evaluate_rules(
        proposal(anchor="akka-net-release", content="Akka.NET latest release version is 1.5.62"),
        [candidate(doc_id="doc-456", anchor_id="anchor:akka-net-latest-release", anchor_name="akka-net-latest-release",
                   content="Akka.NET latest release version is 1.5.62", is_exact=False)],
    )
    assert d.kind is DecisionKind.CONSOLIDATE
    assert d.consolidation_target_ids == ("doc-456",)
    assert d.target_document_id == "doc-456"
    assert d.canonical_anchor_name == "akka-net-latest-release"
    assert d.reason == "fuzzy anchor match + high content overlap (100%)"


def test_fuzzy_middling_overlap_is_ambiguous():
    d = evaluate_rules(
        proposal(anchor="akka-net-release", content="Akka.NET release version 1.5.62 added cluster sharding improvements "
                 "and new persistence features for production workloads"),
        [candidate(anchor_name="akka-net-latest-release", content="Akka.NET release version 1.5.60 added cluster sharding "
                   "support and initial persistence features for testing environments", is_exact=False)],
    )
    assert d.kind is DecisionKind.AMBIGUOUS
    assert d.target_document_id is None
    assert d.consolidation_target_ids == ("doc-123",)
    assert d.reason.startswith("fuzzy anchor match + ambiguous content overlap (")


def test_fuzzy_unrelated_creates():
    d = evaluate_rules(
        proposal(anchor="akka-net-release", content="The CI pipeline deploys to staging on every PR merge"),
        [candidate(anchor_name="akka-net-latest-release",
                   content="PostgreSQL 15 is the primary datastore for user profiles and session history", is_exact=False)],
    )
    assert d.kind is DecisionKind.CREATE
    assert d.reason == "fuzzy anchor match but low content overlap (5%)"  # only "the" shared: 1/21


def test_two_exact_matches_compare_against_the_freshest():
    d = evaluate_rules(
        proposal(content="latest version is 1.5.62", freshness_at=3000),
        [candidate(doc_id="doc-old", content="latest version is 1.5.58", freshness_at=500),
         candidate(doc_id="doc-recent", content="latest version is 1.5.60", freshness_at=2000)],
    )
    assert d.kind is DecisionKind.UPDATE
    assert d.target_document_id == "doc-recent"


def test_fuzzy_best_is_highest_confidence_then_freshness_first_wins_ties():
    cands = [candidate(doc_id="a", content="x y", confidence=0.5, freshness_at=9000, is_exact=False),
             candidate(doc_id="b", content="x y", confidence=0.9, freshness_at=100, is_exact=False),
             candidate(doc_id="c", content="x y", confidence=0.9, freshness_at=100, is_exact=False)]
    d = evaluate_rules(proposal(content="x y"), cands)
    assert d.target_document_id == "b"
    assert d.consolidation_target_ids == ("a", "b", "c")


def test_auto_resolve_skips_similar_repo_anchors_and_urls():
    d = try_auto_resolve_ambiguous(
        proposal(anchor="netclaw-github-repo",
                 content="Netclaw GitHub repository at https://github.com/netclaw-dev/netclaw, private repo"),
        [candidate(anchor_name="netclaw-github-repository", is_exact=False,
                   content="Netclaw GitHub repository: https://github.com/netclaw-dev/netclaw. The repository is private.")],
    )
    assert d is not None and d.kind is DecisionKind.SKIP
    assert d.target_document_id == "doc-123"
    assert d.reason.startswith("auto-resolved ambiguous: content overlap (")
    assert d.reason.endswith("+ anchor similarity (1.00)")


def test_auto_resolve_none_on_low_content_overlap():
    assert try_auto_resolve_ambiguous(
        proposal(anchor="akka-net-release", content="The CI pipeline deploys to staging on every merge"),
        [candidate(anchor_name="akka-net-latest-release", content="PostgreSQL 15 is the primary datastore for user profiles",
                   is_exact=False)],
    ) is None


def test_auto_resolve_none_on_dissimilar_anchors():
    assert try_auto_resolve_ambiguous(
        proposal(anchor="snake-game-location", content="The project is at /home/user/projects/snakey-trail with HTML and CSS"),
        [candidate(anchor_name="deployment-url-config", is_exact=False,
                   content="The project is at /home/user/projects/snakey-trail with HTML and JavaScript")],
    ) is None


def test_auto_resolve_none_on_empty():
    assert try_auto_resolve_ambiguous(proposal(), []) is None


def test_guard_downgrades_narrower_proposal_to_skip():
    target = candidate(doc_id="doc-rich", content="Widget specs: 16 cores, 64GB RAM, 2 NICs. Pricing on file. Vendor contacts listed.")
    update = CurationDecision(DecisionKind.UPDATE, target_document_id="doc-rich", reason="rules: newer")
    guarded = guard_destructive_update(update, proposal(content="Widget pricing is TBD as of Q2."), [target])
    assert guarded.kind is DecisionKind.SKIP
    assert guarded.target_document_id == "doc-rich"
    assert guarded.reason == "update guarded: proposal would not preserve existing content — kept doc-rich"


def test_guard_allows_superset():
    target = candidate(doc_id="doc-1", content="Latest version is 1.5.62.")
    update = CurationDecision(DecisionKind.UPDATE, target_document_id="doc-1", reason="rules: newer")
    assert guard_destructive_update(
        update, proposal(content="Latest version is 1.5.62. Released with the new serializer."), [target]
    ) is update


def test_guard_ignores_case_and_whitespace():
    target = candidate(doc_id="doc-1", content="Config   path:\n/etc/app/config")
    update = CurationDecision(DecisionKind.UPDATE, target_document_id="doc-1", reason="rules: newer")
    assert guard_destructive_update(
        update, proposal(content="config path: /etc/app/config and it is read-only."), [target]
    ).kind is DecisionKind.UPDATE


def test_guard_passes_empty_existing_body():
    update = CurationDecision(DecisionKind.UPDATE, target_document_id="doc-1")
    assert guard_destructive_update(update, proposal(content="anything"), [candidate(doc_id="doc-1", content=" \n")]) is update


def test_guard_passes_non_updates_through():
    target = candidate()
    for kind in (DecisionKind.CREATE, DecisionKind.SKIP, DecisionKind.CONSOLIDATE):
        d = CurationDecision(kind, target_document_id=target.document_id, reason="test")
        assert guard_destructive_update(d, proposal(), [target]) is d


def test_guard_leaves_update_when_target_unknown():
    update = CurationDecision(DecisionKind.UPDATE, target_document_id="doc-missing", reason="test")
    assert guard_destructive_update(update, proposal(content="anything"), [candidate(doc_id="doc-other")]) is update
