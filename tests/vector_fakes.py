"""Test helpers for the vector side: a fake embedder, deterministic vectors, documents stamped now
(`add_doc`, over `factories.seed_document`)."""
from __future__ import annotations

import hashlib

import numpy as np

from factories import seed_document
from memgui.core.store import Document, Store, now_ms
from memgui.core.tasks import NEVER_CANCELLED, Progress
from memgui.core.vectors.embed import l2_normalise


def add_doc(store: Store, title: str, body: str, **fields) -> Document:
    """A document stamped now (freshness_at too), on anchor `general` unless `anchor=` says otherwise."""
    return seed_document(store, title, body, freshness_at=now_ms(), **fields)


def text_vector(text: str, dims: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dims).astype(np.float32)


class FakeEmbedder:
    """Deterministic vectors. A text containing a key of `topics` gets that topic's vector plus a little
    text-specific noise (so same-topic texts have cosine ≈ 0.99); other texts get a random vector.
    Records every text it embedded."""

    source = "default"

    def __init__(self, dims: int = 16, model_id: str = "fake-model", topics: tuple[str, ...] = (), noise: float = 0.05):
        self.dims = dims
        self.model_id = model_id
        self.topics = {t: text_vector("topic:" + t, dims) for t in topics}
        self.noise = noise
        self.seen: list[str] = []

    def vector(self, text: str) -> np.ndarray:
        for key, base in self.topics.items():
            if key in text:
                return base + self.noise * text_vector(text, self.dims)
        return text_vector(text, self.dims)

    def embed(self, texts, cancel=None):
        cancel = cancel or NEVER_CANCELLED
        out = []
        for i, text in enumerate(texts):
            cancel.raise_if_cancelled()
            self.seen.append(text)
            out.append(self.vector(text))
            yield Progress("embedding", i + 1, len(texts))
        return l2_normalise(np.stack(out)) if out else np.empty((0, self.dims), dtype=np.float32)
