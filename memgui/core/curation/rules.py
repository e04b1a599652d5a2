"""The deterministic rules tier exactly as Netclaw's CurationRulesEvaluator (netclaw-compat §7). Pure functions.

- `evaluate_rules(proposal, candidates)`: record bypass, no candidates, the exact tier (Skip/Update/stale Skip)
  and the fuzzy tier (Consolidate/Ambiguous/Create). The fuzzy tier never emits Update.
- `try_auto_resolve_ambiguous(proposal, candidates)`: Skip when anchor soft-Jaccard >= 0.50 and content overlap
  >= 0.60 against the best candidate, else None.
- `guard_destructive_update(decision, proposal, candidates)`: an Update whose proposal does not contain the
  target's normalized body becomes Skip.

Reasons are Netclaw's strings; percentages are .NET's `P0` (exact value × 100, ties to even, `85%`) and the
anchor similarity is `F2`.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..netfx import equals_ignore_case, format_f2, format_p0, normalize_for_containment
from .anchors import anchor_jaccard, content_overlap, tokenize
from .types import Candidate, CurationDecision, DecisionKind, MemoryKind, Proposal

HIGH_OVERLAP_THRESHOLD = 0.80
AMBIGUOUS_LOWER_THRESHOLD = 0.40
AUTO_RESOLVE_CONTENT_THRESHOLD = 0.60
AUTO_RESOLVE_ANCHOR_JACCARD = 0.50

REASON_RECORD_BYPASS = "immutable record bypass"
REASON_NO_CANDIDATES = "no existing candidates"


def is_record(proposal: Proposal) -> bool:
    """MemoryKind parsed case-insensitively from the wire value (a proposal built from one keeps its spelling)."""
    return equals_ignore_case(proposal.kind or "", MemoryKind.RECORD)


def _best_by_freshness(candidates: Sequence[Candidate]) -> Candidate:
    """OrderByDescending(freshness ?? 0).ThenByDescending(confidence).First() — first wins a tie."""
    return max(candidates, key=lambda c: (c.freshness_at or 0, c.confidence))


def best_by_confidence(candidates: Sequence[Candidate]) -> Candidate:
    """OrderByDescending(confidence).ThenByDescending(freshness ?? 0).First() — first wins a tie."""
    return max(candidates, key=lambda c: (c.confidence, c.freshness_at or 0))


def evaluate_rules(proposal: Proposal, candidates: Sequence[Candidate]) -> CurationDecision:
    if is_record(proposal):
        return CurationDecision(DecisionKind.CREATE, reason=REASON_RECORD_BYPASS)
    if not candidates:
        return CurationDecision(DecisionKind.CREATE, reason=REASON_NO_CANDIDATES)
    exact = [c for c in candidates if c.is_exact]
    if exact:
        return _evaluate_exact(proposal, exact)
    return _evaluate_fuzzy(proposal, candidates)


def _evaluate_exact(proposal: Proposal, exact: Sequence[Candidate]) -> CurationDecision:
    best = _best_by_freshness(exact)
    overlap = content_overlap(proposal.content, best.markdown_body)
    pct = format_p0(overlap)
    if overlap > HIGH_OVERLAP_THRESHOLD:
        return CurationDecision(
            DecisionKind.SKIP, target_document_id=best.document_id,
            reason=f"exact anchor match + high content overlap ({pct})",
        )
    if (proposal.freshness_at or 0) >= (best.freshness_at or 0):
        return CurationDecision(
            DecisionKind.UPDATE, target_document_id=best.document_id,
            reason=f"exact anchor match + newer content (overlap={pct})",
        )
    return CurationDecision(
        DecisionKind.SKIP, target_document_id=best.document_id,
        reason=f"exact anchor match + stale proposal (overlap={pct})",
    )


def _evaluate_fuzzy(proposal: Proposal, candidates: Sequence[Candidate]) -> CurationDecision:
    best = best_by_confidence(candidates)
    overlap = content_overlap(proposal.content, best.markdown_body)
    pct = format_p0(overlap)
    all_ids = tuple(c.document_id for c in candidates)
    if overlap > HIGH_OVERLAP_THRESHOLD:
        return CurationDecision(
            DecisionKind.CONSOLIDATE, target_document_id=best.document_id, consolidation_target_ids=all_ids,
            canonical_anchor_name=best.canonical_name, reason=f"fuzzy anchor match + high content overlap ({pct})",
        )
    if overlap >= AMBIGUOUS_LOWER_THRESHOLD:
        return CurationDecision(
            DecisionKind.AMBIGUOUS, consolidation_target_ids=all_ids, canonical_anchor_name=best.canonical_name,
            reason=f"fuzzy anchor match + ambiguous content overlap ({pct})",
        )
    return CurationDecision(DecisionKind.CREATE, reason=f"fuzzy anchor match but low content overlap ({pct})")


def try_auto_resolve_ambiguous(proposal: Proposal, candidates: Sequence[Candidate]) -> CurationDecision | None:
    """Skip the best candidate when both the anchor names and the contents are close enough; else None
    (the caller then creates)."""
    if not candidates:
        return None
    best = best_by_confidence(candidates)
    anchor_sim = anchor_jaccard(tokenize(proposal.anchor_name), tokenize(best.canonical_name))
    if anchor_sim < AUTO_RESOLVE_ANCHOR_JACCARD:
        return None
    overlap = content_overlap(proposal.content, best.markdown_body)
    if overlap < AUTO_RESOLVE_CONTENT_THRESHOLD:
        return None
    return CurationDecision(
        DecisionKind.SKIP, target_document_id=best.document_id,
        reason=(
            f"auto-resolved ambiguous: content overlap ({format_p0(overlap)}) "
            f"+ anchor similarity ({format_f2(anchor_sim)})"
        ),
    )


def preserves_content(proposed: str, existing: str) -> bool:
    """True when the normalized existing body is empty or an ordinal substring of the normalized proposal."""
    existing_norm = normalize_for_containment(existing)
    return not existing_norm or existing_norm in normalize_for_containment(proposed)


def guard_destructive_update(
    decision: CurationDecision, proposal: Proposal, candidates: Sequence[Candidate]
) -> CurationDecision:
    """Only touches Update: when the proposal would not preserve the target's body, keep the target (Skip).
    An Update whose target is not among the candidates passes unchanged."""
    if decision.kind != DecisionKind.UPDATE:
        return decision
    target = next((c for c in candidates if c.document_id == decision.target_document_id), None)
    if target is None or preserves_content(proposal.content, target.markdown_body):
        return decision
    return CurationDecision(
        DecisionKind.SKIP, target_document_id=target.document_id,
        reason=f"update guarded: proposal would not preserve existing content — kept {target.document_id}",
    )
