"""Decisions ahead of the reviewer: which cluster the background queue reviews next, and how it takes turns
with the reviewer's own model call on the one loaded model.

The reviewer's call always goes first. The background review runs under a `YieldingToken`: it reads as
cancelled while the reviewer's call runs (`ModelTurns.reviewer`), so the model call in progress stops at its
next token or prompt chunk and releases the model's lock. The background then waits for its turn and starts
the cluster again; pairs it had already judged are remembered, so only the interrupted call is repeated.

Pure helpers turn a cached `ClusterReview` back into the values the review window shows (`fact_groups_of`,
`decider_result_of`).
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Container, Hashable, Iterator, Sequence
from typing import Any, TypeVar

from ..curation.types import Candidate, CurationDecision, DeciderResult, DecisionKind, Proposal
from ..tasks import NEVER_CANCELLED, Cancelled, CancelToken, Progress, Step, Work
from .groups import FactGroups, PairVerdict
from .review import ClusterReview, review_cluster
from .selftest import cache_key

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
PAUSED = Step.PAUSED  # the Progress stage while the background waits for the reviewer's call


class ModelTurns:
    """Who may use the one loaded model: the reviewer's calls (any number) before background work."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._reviewer = 0

    @contextlib.contextmanager
    def reviewer(self) -> Iterator[None]:
        """Hold while the reviewer's own call runs (model load, self-test, pairs, merged body)."""
        with self._cond:
            self._reviewer += 1
        try:
            yield
        finally:
            with self._cond:
                self._reviewer -= 1
                self._cond.notify_all()

    @property
    def reviewer_busy(self) -> bool:
        return self._reviewer > 0

    def wait_turn(self, cancel: CancelToken = NEVER_CANCELLED, poll_s: float = 0.05) -> None:
        """Block (on a worker) until no reviewer call runs; raises Cancelled when `cancel` is set meanwhile."""
        with self._cond:
            while self._reviewer and not cancel.cancelled:
                self._cond.wait(poll_s)
        cancel.raise_if_cancelled()


class YieldingToken(CancelToken):
    """Reads as cancelled when the background work is cancelled or the reviewer wants the model. Once it has
    read so, it stays `tripped`: the call that saw it gave up, even if the reviewer's call is over by now."""

    def __init__(self, cancel: CancelToken, turns: ModelTurns):
        super().__init__()
        self._outer, self._turns = cancel, turns
        self.tripped = False

    def cancel(self) -> None:
        self._outer.cancel()

    @property
    def cancelled(self) -> bool:
        if self._outer.cancelled or self._turns.reviewer_busy:
            self.tripped = True
        return self.tripped

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()


class _TakingTurns:
    """A decider seen through a YieldingToken: a call the reviewer interrupted raises Cancelled (a real decider
    returns "no answer" on cancel, which must not be mistaken for one); judged pairs are remembered."""

    def __init__(self, decider: Any, token: YieldingToken, judged: dict[tuple[str, str], Any], timeout_s: float | None):
        self.decider, self.token, self.judged, self.timeout_s = decider, token, judged, timeout_s
        self.model_id = getattr(decider, "model_id", "")

    def judge_pair(self, existing: str, new: str, *, cancel: CancelToken | None = None,
                   timeout_s: float | None = None) -> Work[Any]:
        key = (existing, new)
        if key not in self.judged:
            call = yield from self.decider.judge_pair(existing, new, cancel=self.token, timeout_s=self.timeout_s)
            self.token.raise_if_cancelled()
            self.judged[key] = call
        return self.judged[key]

    def decide(self, proposal: Proposal, candidates: Sequence[Candidate], *, full_candidate_content: bool,
               cancel: CancelToken | None = None, timeout_s: float | None = None) -> Work[Any]:
        result = yield from self.decider.decide(proposal, candidates, full_candidate_content=full_candidate_content,
                                                cancel=self.token, timeout_s=self.timeout_s)
        self.token.raise_if_cancelled()
        return result


def taking_turns(work: Callable[[YieldingToken], Work[T]], turns: ModelTurns, cancel: CancelToken) -> Work[T]:
    """Run `work(token)` (a generator function) in the background's turns: wait while the reviewer's call runs,
    restart it when the reviewer interrupts it. Raises Cancelled only when `cancel` is set."""
    while True:
        if turns.reviewer_busy:
            yield Progress(PAUSED, 0, None, "waiting while your model call runs")
        turns.wait_turn(cancel)
        token = YieldingToken(cancel, turns)
        try:
            result: T = yield from work(token)
            return result
        except Cancelled:
            cancel.raise_if_cancelled()  # else the reviewer took the model: wait, then go again


def review_ahead(documents: Sequence[Any], names: dict[str, str] | None, decider: Any, turns: ModelTurns, *,
                 cancel: CancelToken = NEVER_CANCELLED, selftest: dict[str, Any] | None = None,
                 timeout_s: float | None = 0) -> Work[ClusterReview]:
    """`review_cluster` as background work: it gives the model up whenever the reviewer's call runs. No time
    limit by default (0): at the lowest priority on a busy machine a call may take long, and only Stop ends it."""
    judged: dict[tuple[str, str], Any] = {}
    return (yield from taking_turns(
        lambda token: review_cluster(documents, names, _TakingTurns(decider, token, judged, timeout_s),
                                     selftest=selftest, cancel=token),
        turns, cancel))


def ahead_order(keys: Sequence[K], current: K | None, skip: Container[K] = ()) -> list[K]:
    """The clusters to review ahead: the current one first (the reviewer is looking at it), then in queue order
    those after it, then (wrapping round) those before it; `skip` (done, not reviewable, or the current one
    while the reviewer works on it) left out."""
    start = keys.index(current) if current in keys else 0
    ordered = list(keys[start:]) + list(keys[:start])
    return [k for k in ordered if k not in skip]


def model_key(decider: Any) -> str:
    """The decision cache's model key: the model file (path + size + mtime) and prompt version; a decider
    without a file (a test's) by its id."""
    pipeline = getattr(decider, "pipeline", "")
    path = getattr(decider, "model_path", None)
    key = cache_key(path, pipeline=pipeline) if path else None
    return key or f"id:{getattr(decider, 'model_id', '')}|{pipeline}"


def fact_groups_of(review: ClusterReview) -> FactGroups | None:
    """The judged same-fact partition of a review (None when no model judged it)."""
    if not review.groups_judged:
        return None
    verdicts = tuple(PairVerdict(p["a"], p["b"], p.get("verdict"), p.get("margin"), p.get("seconds"),
                                 p.get("conflict")) for p in review.pairs)
    return FactGroups(tuple(tuple(g) for g in review.groups), review.target, verdicts)


def decider_result_of(review: ClusterReview) -> DeciderResult | None:
    """The model's decision of a review as a DeciderResult (None when every pair was judged a different fact:
    nothing was drafted)."""
    if review.decision == DecisionKind.CREATE and not review.merged_body and not review.raw_reply:
        return None
    decision = None
    if review.decision:
        kind = review.decision
        targets = list(review.targets)
        decision = CurationDecision(
            kind, target_document_id=targets[0] if targets and kind != DecisionKind.CONSOLIDATE else None,
            consolidation_target_ids=tuple(targets) if kind == DecisionKind.CONSOLIDATE else (),
            merged_body=review.merged_body, from_llm_tier=True, rationale=review.rationale, reason="llm")
    return DeciderResult(decision, raw_reply=review.raw_reply or "", rationale=review.rationale,
                         model_id=review.model_id, prompt_tokens=review.prompt_tokens or 0,
                         completion_tokens=review.completion_tokens or 0, seconds=review.seconds or 0.0,
                         error=review.error, extra={"decided_ahead": True})


__all__ = ["PAUSED", "ModelTurns", "YieldingToken", "ahead_order", "decider_result_of", "fact_groups_of",
           "model_key", "review_ahead", "taking_turns"]
