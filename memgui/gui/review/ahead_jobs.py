"""The decisions-ahead queue's worker-side helpers: the cached reviews still valid, a worker at low priority, the
self-test without a time limit, only a change of stage passed on to the GUI thread, the self-test verdict in the
review's record."""
from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from ..services.types import (
    Agreement,
    CancelToken,
    ClusterReview,
    DecisionCache,
    ModelQuality,
    Progress,
    SelfTestReport,
    Step,
    Store,
    Work,
)

T = TypeVar("T")
ModelRecord = tuple[ModelQuality | None, Agreement | None]  # the model's record: its quality, the reviewer's agreement


def cached_reviews(cache: DecisionCache, store: Store, clusters: Sequence[tuple[str, ...]],
                   cancel: CancelToken) -> dict[frozenset[str], ClusterReview]:
    """The cached review of each cluster (its member ids) still valid for its live members now, by member set."""
    ids = list(dict.fromkeys(i for members in clusters for i in members))
    docs = {d.document_id: d for d in store.documents_by_ids(ids)}
    found: dict[frozenset[str], ClusterReview] = {}
    for members in clusters:
        cancel.raise_if_cancelled()
        live = [docs[i] for i in members if i in docs and not docs[i].is_tombstoned]
        hit = cache.get(live) if len(live) == len(members) >= 2 else None
        if hit is not None:
            found[frozenset(members)] = hit
    return found


def lower_priority() -> None:
    """The queue's worker (and the model threads it starts) yields the CPU to everything else."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass


def no_time_limit(selftest: Callable[..., object]) -> dict[str, float]:
    """The self-test at start-up runs at low priority: a slow answer on a busy machine is no failed canary."""
    try:
        return {"timeout_s": 0} if "timeout_s" in inspect.signature(selftest).parameters else {}
    except (TypeError, ValueError):
        return {}


PAIRS = Step.JUDGING_PAIRS  # the stage whose every step is shown: which pair, how far


def stages(work: Work[T]) -> Work[T]:
    """Only a change of stage, or the next pair judged, reaches the GUI thread: nobody reads the queue's streamed
    tokens."""
    step = None
    try:
        while True:
            try:
                progress = next(work)
            except StopIteration as stop:
                value: T = stop.value  # the Work's result (StopIteration holds it untyped)
                return value
            now = (progress.stage, progress.done if progress.stage == PAIRS else None)
            if now != step:
                step = now
                yield progress
    finally:
        work.close()  # a cancelled job lets go of the model's lock at once


def summary_of(verdict: SelfTestReport | None) -> dict[str, object] | None:
    if verdict is None:
        return None
    return {"capable": verdict.capable, "passed": getattr(verdict, "passed", None),
            "total": getattr(verdict, "total", None)}


def step_note(progress: Progress) -> str | None:
    """The background review's step as the status line says it ("pair 2/3", "merged body"); None: no step."""
    if progress.stage == PAIRS and progress.total:
        return f"pair {min(progress.done + 1, progress.total)}/{progress.total}"
    if progress.stage in (Step.DECIDING, Step.MERGING):
        return "merged body"
    return None


__all__ = ["lower_priority", "no_time_limit", "stages", "step_note", "summary_of"]
