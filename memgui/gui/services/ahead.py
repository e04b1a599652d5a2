"""The core services of the decisions-ahead queue and the model's record: the background review of one cluster
(taking turns with the reviewer's call), the per-store decision cache, and the measured record of the model
(self-test, accuracy on the labelled demo store, agreement with this reviewer)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class AheadServices:
    # ModelTurns(): the reviewer's calls before background work on the one loaded model
    turns: Callable[[], Any]
    # (documents, names, decider, turns, *, cancel, selftest) -> Work[ClusterReview]
    review_ahead: Callable[..., Any]
    # (work(token), turns, cancel) -> Work: any model work (the self-test) run in the background's turns
    taking_turns: Callable[..., Any]
    # (keys, current, skip) -> [key]: queue order after the current cluster, wrapping round
    ahead_order: Callable[..., list]
    model_key: Callable[[Any], str]  # (decider) -> the cache's model key
    cache: Callable[[Any, str], Any]  # (store path, model key) -> DecisionCache
    stamps_of: Callable[[Any], dict]  # (documents) -> {id: stamp}: a review is valid while they hold
    fact_groups_of: Callable[[Any], Any]  # (ClusterReview) -> FactGroups | None
    decider_result_of: Callable[[Any], Any]  # (ClusterReview) -> DeciderResult | None
    anchor_names: Callable[[Any, Any], dict]  # (store, documents) -> {anchor id: canonical name}
    paused_stage: str = "paused"
    # (decider) -> SelfTestReport | None: its cached self-test verdict, without loading the model
    cached_selftest: Callable[[Any], Any] = lambda decider: None
    # (model key) -> ModelQuality | None: the cached `memgui evaluate-model` result of this model file
    cached_quality: Callable[[str], Any] = lambda key: None
    # (store, reviews) -> Agreement: the model's verdicts against the reviewer's applied decisions
    reviewer_agreement: Callable[[Any, Any], Any] | None = None
    min_agreement: int = 20
    extra: dict = field(default_factory=dict)


def cached_selftest(decider: Any) -> Any:
    from ...core.decide.selftest import cached_selftest as cached

    path = getattr(decider, "model_path", None)
    return cached(path, pipeline=getattr(decider, "pipeline", "")) if path else None


def ahead_services() -> AheadServices:
    from ...core.decide import ahead, cache, review
    from ...core.decide.inputs import anchor_names
    from ...core.forensics import model_quality

    return AheadServices(
        turns=ahead.ModelTurns, review_ahead=ahead.review_ahead, taking_turns=ahead.taking_turns,
        ahead_order=ahead.ahead_order,
        model_key=ahead.model_key, cache=cache.DecisionCache, stamps_of=review.stamps_of,
        fact_groups_of=ahead.fact_groups_of, decider_result_of=ahead.decider_result_of, anchor_names=anchor_names,
        paused_stage=ahead.PAUSED, cached_selftest=cached_selftest, cached_quality=model_quality.cached_quality,
        reviewer_agreement=model_quality.reviewer_agreement, min_agreement=model_quality.MIN_AGREEMENT_DECISIONS,
    )


__all__ = ["AheadServices", "ahead_services"]
