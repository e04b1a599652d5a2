"""The threshold-calibration job of the Audit tab (runs on a worker): labelled pairs from the audit trail, their
cosines (known ones first; an embedder only for the rest), and the core's suggested floor."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from ..services import AuditServices
from ..services.types import (
    Calibration,
    CancelToken,
    CosineLookup,
    Document,
    LabelledPair,
    Store,
    VectorSource,
    Work,
)
from ..workers import one_line


class LazySource:
    """A vector source made only when some labelled pair has no cosine yet (loading an embedder takes time);
    if it cannot be made, those pairs are left out and `problem` says why."""

    def __init__(self, make: Callable[[], VectorSource]):
        self.make, self.problem = make, ""
        self._source: VectorSource | None = None

    def _made(self) -> None:
        if self._source is None and not self.problem:
            try:
                self._source = self.make()  # once: every batch of pairs reuses the loaded model
            except Exception as exc:  # noqa: BLE001 - no embedder here: calibrate from the cosines known
                self.problem = one_line(exc)

    def vectors_for(self, docs: Sequence[Document], cancel: CancelToken | None = None) -> Work[np.ndarray]:
        self._made()
        if self._source is None:
            return np.zeros((0, 0), dtype=np.float32)
        return (yield from self._source.vectors_for(docs, cancel))

    def close(self) -> None:
        """Free the model the source loaded (the calibration is done)."""
        close = getattr(self._source, "close", None)
        if close is not None:
            close()
        self._source = None


def calibration_work(services: AuditServices, store: Store, *, cosine_of: CosineLookup | None,
                     source_factory: Callable[[Store], VectorSource] | None,
                     cancel: CancelToken | None = None) -> Work[tuple[list[LabelledPair], Calibration, str]]:
    """Work[(pairs, calibration, notice)]. The vector source is `source_factory(store)`, else the one the scan
    would use (the daemon's stored vectors, else memgui's default embedder)."""
    make = source_factory or services.default_vector_source
    source = LazySource(lambda: make(store))
    try:
        # the calibration reads only `vectors_for` (the model's `info` is known once it is made, if ever)
        pairs = yield from services.labelled_pairs_work(store, source=cast(VectorSource, source), cosine_of=cosine_of,
                                                        cancel=cancel)
    finally:
        source.close()  # the embedder is freed when the calibration ends, done or not
    notice = f" (pairs without a known cosine were left out: {source.problem})" if source.problem else ""
    return pairs, services.suggest_threshold(pairs), notice
