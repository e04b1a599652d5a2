"""Shared helpers for the benchmarks (`make bench`; not part of `make test`)."""
from __future__ import annotations

import os
import time
from types import SimpleNamespace

import numpy as np
import pytest

from memgui.core.tasks import Progress
from memgui.core.vectors.embed import EmbedderInfo


def clustered_vectors(n: int, dims: int = 384, *, clusters: int = 200, latent: int = 48, seed: int = 7) -> np.ndarray:
    """Embedding-like vectors: `clusters` centres in a `latent`-d space, points scattered around them, lifted to
    `dims` by a random linear map plus a little isotropic noise, L2-normalised. Uniform random vectors have no
    neighbour structure and are a pathological benchmark (dependencies.md §5)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, latent)).astype(np.float32)
    assignment = rng.integers(0, clusters, n)
    points = centres[assignment] + 0.45 * rng.standard_normal((n, latent)).astype(np.float32)
    lift = rng.standard_normal((latent, dims)).astype(np.float32) / np.sqrt(latent)
    vectors = points @ lift + 0.05 * rng.standard_normal((n, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)


class PrecomputedSource:
    """A VectorSource that returns vectors computed beforehand (keyed by document id): isolates index cost."""

    def __init__(self, vectors_by_id: dict[str, np.ndarray], model_id: str = "bench-vectors"):
        dims = len(next(iter(vectors_by_id.values())))
        self.info = EmbedderInfo(model_id, dims, "default")
        self._by_id = vectors_by_id

    def vectors_for(self, docs, cancel=None):
        out = np.stack([self._by_id[d.document_id] for d in docs])
        yield Progress("embedding", len(docs), len(docs))
        return out


def fake_docs(n: int):
    """Lightweight document stand-ins with the attributes the index reads (id, hash, fingerprint fields)."""
    return [
        SimpleNamespace(document_id=f"doc-{i:032x}", content_hash=f"{i:064x}", updated_at=i, title="", markdown_body="",
                        is_tombstoned=False)
        for i in range(n)
    ]


def bench_store(tmp_path):
    """The index only needs the store's path (for its cache key) when documents are passed in."""
    return SimpleNamespace(path=tmp_path / "bench.db")


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start


@pytest.fixture(autouse=True)
def _bench_threads(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", os.environ.get("OMP_WAIT_POLICY", "passive"))
