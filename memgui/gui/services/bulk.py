"""The core services "Accept all safe…" uses: the decision cache the background queue fills, the plan, the
batch write and its undo (core/ops/batch.py). Injected through `Services.bulk`, so tests swap in fakes."""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .types import (
    BatchPlan,
    BatchResult,
    BatchUndoResult,
    CancelToken,
    Cluster,
    ClusterReview,
    DecisionCache,
    Store,
    Work,
)

# (cluster id, member ids, its cached review or None)
ReviewRow = tuple[str, tuple[str, ...], ClusterReview | None]


class CachedReviews(Protocol):
    """The cached reviews of `clusters` (nothing is decided here)."""

    def __call__(self, store: Store, clusters: Sequence[Cluster], cache: DecisionCache | None, *,
                 cancel: CancelToken | None = None) -> Work[list[ReviewRow]]: ...


class PlanBatch(Protocol):
    def __call__(self, clusters: Iterable[ReviewRow], *, titles: Mapping[str, str] | None = None,
                 links: Mapping[str, Collection[frozenset[str]]] | None = None) -> BatchPlan: ...


class ApplyBatch(Protocol):
    def __call__(self, store: Store, plan: BatchPlan, *, decided_by: str = "reviewer",
                 cancel: CancelToken | None = None) -> Work[BatchResult]: ...


@dataclass
class BulkServices:
    # (store path, decider model path or None) -> DecisionCache | None (None: no model, so nothing is cached)
    cache_for: Callable[[Path, str | None], DecisionCache | None]
    cached_reviews: CachedReviews
    plan_batch: PlanBatch  # its to_dict / to_markdown / writes / excluded / batch_id
    apply_batch: ApplyBatch  # BatchResult(written, refused)
    # (store, batch id) -> BatchUndoResult(undone, refused, already_undone)
    undo_batch: Callable[[Store, str], BatchUndoResult]
    batch_error: type[BaseException]
    max_merged: int
    # (clusters) -> {cluster id: its cosine nominee edges}: a write only a shared anchor joins needs a person
    cosine_links: Callable[[Sequence[Cluster]], Mapping[str, Collection[frozenset[str]]]] = lambda cs: _links(cs)
    # (merged body) -> the sentences it states more than once (flagged in the preview)
    repeated_sentences: Callable[[str], list[str]] = lambda body: _repeated(body)


def _links(clusters: Sequence[Cluster]) -> Mapping[str, Collection[frozenset[str]]]:
    from ...core.ops.batch_inputs import cosine_links

    return cosine_links(clusters)


def _repeated(body: str) -> list[str]:
    from ...core.merge.repeats import repeated_sentences

    return repeated_sentences(body)


def _cache_for(store_path: Path, model_path: str | None) -> DecisionCache | None:
    """The decision cache for this store and model file, keyed exactly as the background queue keys it."""
    from ...core.decide.cache import DecisionCache
    from ...core.decide.model_files import default_model_path
    from ...core.decide.prompts import Pipeline
    from ...core.decide.selftest import cache_key

    path = model_path or default_model_path()
    key = cache_key(Path(path), pipeline=Pipeline.TWO_STAGE) if path else None
    return DecisionCache(store_path, key) if key else None


def bulk_services() -> BulkServices:
    from ...core.ops import batch, batch_inputs

    def cached_reviews(store: Store, clusters: Sequence[Cluster], cache: DecisionCache | None, *,
                       cancel: CancelToken | None = None) -> Work[list[ReviewRow]]:
        return batch_inputs.cluster_reviews(store, clusters, cache, decider=None, cancel=cancel)

    return BulkServices(cache_for=_cache_for, cached_reviews=cached_reviews, plan_batch=batch.plan_batch,
                        apply_batch=batch.apply_batch, undo_batch=batch.undo_batch, batch_error=batch.BatchError,
                        max_merged=batch.MAX_MERGED)


def export_plan(plan: BatchPlan, path: str | Path) -> Path:
    """Write the plan: JSON for a .json name, else Markdown; whole or not at all (a full disk or a file-size limit
    half way leaves no truncated file under the chosen name)."""
    from ...core.forensics.export import write_plan

    return write_plan(path, plan)


__all__ = ["BulkServices", "bulk_services", "export_plan"]
