"""The threshold-calibration job of the Audit tab (runs on a worker): labelled pairs from the audit trail, their
cosines (known ones first; an embedder only for the rest), and the core's suggested floor."""
from __future__ import annotations

from typing import Any, Callable

from ..services import AuditServices
from ..workers import one_line


class LazySource:
    """A vector source made only when some labelled pair has no cosine yet (loading an embedder takes time);
    if it cannot be made, those pairs are left out and `problem` says why."""

    def __init__(self, make: Callable[[], Any]):
        self.make, self.problem = make, ""

    def vectors_for(self, docs, cancel=None):
        try:
            source = self.make()
        except Exception as exc:  # noqa: BLE001 - no embedder here: calibrate from the cosines known
            self.problem = one_line(exc)
            return []
        return (yield from source.vectors_for(docs, cancel))


def calibration_work(services: AuditServices, store: Any, *, cosine_of: Callable[[str, str], float | None] | None,
                     source_factory: Callable[[Any], Any] | None, cancel=None):
    """Work[(pairs, calibration, notice)]. The vector source is `source_factory(store)`, else the one the scan
    would use (the daemon's stored vectors, else memgui's default embedder)."""
    make = source_factory or services.default_vector_source
    source = LazySource(lambda: make(store))
    pairs = yield from services.labelled_pairs_work(store, source=source, cosine_of=cosine_of, cancel=cancel)
    notice = f" (pairs without a known cosine were left out: {source.problem})" if source.problem else ""
    return pairs, services.suggest_threshold(pairs), notice
