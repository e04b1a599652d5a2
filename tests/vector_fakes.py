"""Test helpers for the vector side: documents in a real store, a fake embedder, daemon vector rows."""
from __future__ import annotations

import hashlib

import numpy as np

from memgui.core.vectors.embed import l2_normalise
from memgui.core.store import Document, Store, new_document_id, now_ms
from memgui.core.tasks import NEVER_CANCELLED, Progress


def add_doc(store: Store, title: str, body: str, *, anchor: str = "general", memory_class: str = "durable_fact",
            document_id: str | None = None) -> Document:
    a = store.ensure_anchor(anchor)
    ts = now_ms()
    return store.upsert_document(Document(
        document_id or new_document_id(), a.anchor_id, memory_class, title, body, None, None, None, "merge-document",
        "boundary:trusted-instance", "personal", "normal", "auto", 0.8, ts, None, ts, ts,
    ))


def edit_doc(store: Store, doc: Document, body: str) -> Document:
    from dataclasses import replace

    return store.upsert_document(replace(doc, markdown_body=body))


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


def put_embedding(store: Store, doc: Document, model_id: str, vector: np.ndarray, *, content_hash: str | None = None,
                  dims: int | None = None) -> None:
    """Write a daemon-style memory_embeddings row (tests only: memgui itself never writes this table)."""
    blob = np.asarray(vector, dtype="<f4").tobytes()
    with store.transaction():
        store.execute(
            "INSERT OR REPLACE INTO memory_embeddings (item_id, item_kind, model_id, content_hash, dims, vector, created_at) "
            "VALUES (?, 'document', ?, ?, ?, ?, ?)",
            (doc.document_id, model_id, content_hash or doc.content_hash, dims if dims is not None else len(vector), blob, now_ms()),
        )
