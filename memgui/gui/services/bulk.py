"""The core services "Accept all safe…" uses: the decision cache the background queue fills, the plan, the
batch write and its undo (core/ops/batch.py). Injected through `Services.bulk`, so tests swap in fakes."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class BulkServices:
    # (store path, decider model path or None) -> DecisionCache | None (None: no model, so nothing is cached)
    cache_for: Callable[[Any, Any], Any]
    # (store, clusters, cache, *, cancel) -> Work[[(cluster id, member ids, ClusterReview | None)]]: cached only
    cached_reviews: Callable[..., Any]
    # (rows, *, titles) -> BatchPlan (to_dict / to_markdown / writes / excluded / batch_id)
    plan_batch: Callable[..., Any]
    # (store, plan, *, decided_by, cancel) -> Work[BatchResult(written, refused)]
    apply_batch: Callable[..., Any]
    # (store, batch id) -> BatchUndoResult(undone, refused, already_undone)
    undo_batch: Callable[[Any, str], Any]
    batch_error: type[BaseException]
    max_merged: int
    # (merged body) -> the sentences it states more than once (flagged in the preview)
    repeated_sentences: Callable[[str], list[str]] = lambda body: _repeated(body)


def _repeated(body: str) -> list[str]:
    from ...core.merge.repeats import repeated_sentences

    return repeated_sentences(body)


def _cache_for(store_path: Any, model_path: Any) -> Any:
    """The decision cache for this store and model file, keyed exactly as the background queue keys it."""
    from ...core.decide.cache import DecisionCache
    from ...core.decide.model_files import default_model_path
    from ...core.decide.selftest import cache_key

    path = model_path or default_model_path()
    key = cache_key(Path(path), pipeline="two-stage") if path else None
    return DecisionCache(store_path, key) if key else None


def bulk_services() -> BulkServices:
    from ...core.ops import batch, batch_inputs

    def cached_reviews(store: Any, clusters: Any, cache: Any, *, cancel: Any = None) -> Any:
        return batch_inputs.cluster_reviews(store, clusters, cache, decider=None, cancel=cancel)

    return BulkServices(cache_for=_cache_for, cached_reviews=cached_reviews, plan_batch=batch.plan_batch,
                        apply_batch=batch.apply_batch, undo_batch=batch.undo_batch, batch_error=batch.BatchError,
                        max_merged=batch.MAX_MERGED)


__all__ = ["BulkServices", "bulk_services"]
