"""The core services of the decisions-ahead queue and the model's record: the background review of one cluster
(taking turns with the reviewer's call), the per-store decision cache, and the measured record of the model
(self-test, accuracy on the labelled demo store, agreement with this reviewer)."""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from .types import (
    Agreement,
    CancelToken,
    ClusterReview,
    Decider,
    DeciderResult,
    DecisionCache,
    Document,
    FactGroups,
    ModelQuality,
    ModelTurns,
    SelfTestReport,
    Step,
    Store,
    Work,
    YieldingToken,
)

T = TypeVar("T")
MemberKey = frozenset[str]  # a cluster by its member ids


class ReviewAhead(Protocol):
    """One cluster's background review (the pairs judged, the merged body drafted), giving the model up
    whenever the reviewer's call runs."""

    def __call__(self, documents: Sequence[Document], names: dict[str, str] | None, decider: Decider,
                 turns: ModelTurns, *, cancel: CancelToken = ...,
                 selftest: dict[str, object] | None = None) -> Work[ClusterReview]: ...


class TakingTurns(Protocol):
    """Other model work (the self-test) run in the background's turns."""

    def __call__(self, work: Callable[[YieldingToken], Work[T]], turns: ModelTurns,
                 cancel: CancelToken) -> Work[T]: ...


@dataclass
class AheadServices:
    # ModelTurns(): the reviewer's calls before background work on the one loaded model
    turns: Callable[[], ModelTurns]
    review_ahead: ReviewAhead
    taking_turns: TakingTurns
    # (keys, current, skip) -> [key]: queue order after the current cluster, wrapping round
    ahead_order: Callable[[Sequence[MemberKey], MemberKey | None, Container[MemberKey]], list[MemberKey]]
    model_key: Callable[[Decider], str]  # the cache's model key
    cache: Callable[[Path, str], DecisionCache]  # (store path, model key)
    # (documents) -> {id: {updated_at, content_hash}}: a review is valid while they hold
    stamps_of: Callable[[Sequence[Document]], dict[str, dict[str, object]]]
    fact_groups_of: Callable[[ClusterReview], FactGroups | None]
    decider_result_of: Callable[[ClusterReview], DeciderResult | None]
    anchor_names: Callable[[Store, Sequence[Document]], dict[str, str]]  # {anchor id: canonical name}
    paused_stage: Step = Step.PAUSED
    # (decider) -> its cached self-test verdict, without loading the model
    cached_selftest: Callable[[Decider], SelfTestReport | None] = lambda decider: None
    # (model key) -> the cached `memgui evaluate-model` result of this model file
    cached_quality: Callable[[str], ModelQuality | None] = lambda key: None
    # (store, reviews) -> the model's verdicts against the reviewer's applied decisions
    reviewer_agreement: Callable[[Store, Iterable[ClusterReview]], Agreement] | None = None
    min_agreement: int = 20


def cached_selftest(decider: Decider) -> SelfTestReport | None:
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
