"""The threshold-calibration job of the Audit tab (runs on a worker): labelled pairs from the audit trail, their
cosines (known ones first; an embedder only for the rest), and the core's suggested floor."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..services import AuditServices
from ..workers import one_line


class LazySource:
    """A vector source made only when some labelled pair has no cosine yet (loading an embedder takes time);
    if it cannot be made, those pairs are left out and `problem` says why."""

    def __init__(self, make: Callable[[], Any]):
        self.make, self.problem = make, ""
        self._source: Any = None

    def vectors_for(self, docs, cancel=None):
        if self._source is None and not self.problem:
            try:
                self._source = self.make()  # once: every batch of pairs reuses the loaded model
            except Exception as exc:  # noqa: BLE001 - no embedder here: calibrate from the cosines known
                self.problem = one_line(exc)
        if self._source is None:
            return []
        return (yield from self._source.vectors_for(docs, cancel))

    def close(self) -> None:
        """Free the model the source loaded (the calibration is done)."""
        close = getattr(self._source, "close", None)
        if close is not None:
            close()
        self._source = None


def calibration_work(services: AuditServices, store: Any, *, cosine_of: Callable[[str, str], float | None] | None,
                     source_factory: Callable[[Any], Any] | None, cancel=None):
    """Work[(pairs, calibration, notice)]. The vector source is `source_factory(store)`, else the one the scan
    would use (the daemon's stored vectors, else memgui's default embedder)."""
    make = source_factory or services.default_vector_source
    source = LazySource(lambda: make(store))
    try:
        pairs = yield from services.labelled_pairs_work(store, source=source, cosine_of=cosine_of, cancel=cancel)
    finally:
        source.close()  # the embedder is freed when the calibration ends, done or not
    notice = f" (pairs without a known cosine were left out: {source.problem})" if source.problem else ""
    return pairs, services.suggest_threshold(pairs), notice
