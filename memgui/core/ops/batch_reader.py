"""The second reader over a bulk accept's candidates, before the plan is made (so `plan_batch` stays pure).

Only clusters that pass every other check (`batch.why_not_safe`) are read: the reader costs one model call per
source, and a cluster already left out needs no second opinion. The sources are the live documents the merge
covers (`batch.merged_ids`, target first), the body is the review's merged body. Answers come from the reader's
cache when the same source and body were read before by the same model file.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..decide.reader import FactReader, ReaderReport
from ..store import Store
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work
from .batch import ReaderRun, merged_ids, why_not_linked, why_not_safe, with_safe_body


def read_safe_clusters(store: Store, rows: Sequence[tuple[Any, Sequence[str], Any]], reader: FactReader, *,
                       cancel: CancelToken | None = None,
                       links: Mapping[Any, Collection[frozenset[str]]] | None = None) -> Work[ReaderRun]:
    """The reader's report on each otherwise safe cluster of `rows` (`(cluster id, member ids, review)`), as a
    ReaderRun for `plan_batch`. `links` as `plan_batch`'s: a cluster only its anchor joined is not read (it is left
    out whatever the reader says). Yields Progress per cluster and per question; cancellable between questions."""
    cancel = cancel or NEVER_CANCELLED
    safe = [(cid, members, with_safe_body(review)) for cid, members, review in rows]
    todo = [(cid, review) for cid, members, review in safe
            if review is not None and review.target is not None and why_not_safe(review, list(members)) is None
            and (links is None or why_not_linked(merged_ids(review), links.get(cid, ())) is None)]
    reports: dict[str, ReaderReport] = {}
    calls = cached = 0
    for i, (cid, review) in enumerate(todo):
        cancel.raise_if_cancelled()
        yield Progress(Step.READING, i, len(todo), f"cluster {cid}")
        target = review.target or ""  # (todo holds reviews with a target only)
        ids = [target, *[m for m in merged_ids(review) if m != target]]
        by_id = {d.document_id: d for d in store.documents_by_ids(ids)}
        if any(m not in by_id for m in ids):
            continue  # a source is gone: "did not read it" (the write would refuse anyway)
        report = yield from reader.read([by_id[m].markdown_body for m in ids], review.merged_body or "",
                                        document_ids=ids, cancel=cancel)
        reports[str(cid)] = report
        calls += report.model_calls
        cached += len(report.verdicts) - report.model_calls
    yield Progress(Step.READING, len(todo), len(todo), "done")
    kept = sum(1 for r in reports.values() if r.passed)
    note = (f"read {len(reports)} otherwise safe cluster{'s' if len(reports) != 1 else ''} with {reader.model_id or 'the model'}"
            f" ({calls} question{'s' if calls != 1 else ''} asked, {cached} from the cache; threshold "
            f"p(yes) ≥ {reader.threshold:.2f}); {kept} kept every source's facts")
    return ReaderRun(True, note, reports)


__all__ = ["read_safe_clusters"]
