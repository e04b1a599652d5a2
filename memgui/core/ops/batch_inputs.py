"""The reviews a bulk accept plans from: one `ClusterReview` per scanned cluster, taken from the decision cache
when it is still valid (every member unchanged since), else computed by the model and cached.

The window passes no decider (it plans only from what its background queue already cached: the others are
"not reviewed yet"); `memgui accept-safe` passes one, created on first need, so a second run over an unchanged
store never loads the model.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..decide.cache import DecisionCache
from ..decide.inputs import anchor_names
from ..decide.review import ClusterReview, review_cluster
from ..store import Store
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work

ReviewRow = tuple[Any, tuple[str, ...], ClusterReview | None]


def cosine_links(clusters: Sequence[Any]) -> dict[Any, frozenset[frozenset[str]]]:
    """{cluster id: its nominee edges} (clusters from the scan, each with `pairs`): the pairs the cosine joined,
    not those only a shared anchor or a common cluster lists (`plan_batch`'s `links`)."""
    return {c.id: frozenset(frozenset((p.a, p.b)) for p in c.pairs if p.nominee) for c in clusters}


def cluster_reviews(store: Store, clusters: Sequence[Any], cache: DecisionCache | None, *,
                    decider: Callable[[], Any] | None = None, selftest: dict[str, Any] | None = None,
                    cancel: CancelToken | None = None, stats: dict[str, Any] | None = None) -> Work[list[ReviewRow]]:
    """`(cluster id, member ids, review or None)` for each cluster (objects with `id` and `member_ids`), in
    order. `decider()` returns the capable decider (called at most once, only when a review is missing from
    the cache). A cluster whose members are no longer all live gets None. `stats` (if given) counts
    "cached" and "computed" reviews. Yields Progress per cluster (and the model's stream)."""
    cancel = cancel or NEVER_CANCELLED
    counts = stats if stats is not None else {}
    counts.setdefault("cached", 0)
    counts.setdefault("computed", 0)
    rows: list[ReviewRow] = []
    model = None
    total = len(clusters)
    for i, cluster in enumerate(clusters):
        cancel.raise_if_cancelled()
        ids = tuple(cluster.member_ids)
        docs = store.documents_by_ids(ids)
        if len(docs) != len(ids) or any(d.is_tombstoned for d in docs):
            rows.append((cluster.id, ids, None))
            continue
        review = cache.get(docs) if cache is not None else None
        if review is not None:
            counts["cached"] += 1
            yield Progress(Step.REVIEWING, i + 1, total, f"{cluster.id} (cached)")
        elif decider is not None:
            if model is None:
                model = decider()
            yield Progress(Step.REVIEWING, i, total, f"{cluster.id} (model)")
            review = yield from review_cluster(docs, anchor_names(store, docs), model, selftest=selftest,
                                               cancel=cancel)
            counts["computed"] += 1
            if cache is not None and not review.error:  # a timed-out answer is retried next time
                cache.put(review)
            yield Progress(Step.REVIEWING, i + 1, total, f"{cluster.id} ({review.verdict})")
        rows.append((cluster.id, ids, review))
    return rows


__all__ = ["ReviewRow", "cluster_reviews", "cosine_links"]
