"""P1: nominate-all (TopK(5) of every document) with the hnswlib index vs exact numpy, on embedding-like 384-d
vectors. Goal: ≥ 10× faster with recall@5 ≥ 0.99. Both sides start from vectors already computed; the hnswlib
side runs memgui's own path (`open_index` on a persisted index, then `nominee_edges`), the numpy side is a
blocked exact matmul + argpartition (the fastest exact method; Netclaw's own index is brute force)."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import PrecomputedSource, Timer, bench_store, clustered_vectors, fake_docs
from memgui.core.tasks import run_to_end
from memgui.core.vectors.index import open_index
from memgui.core.vectors.nominate import nominee_edges

K = 5


def exact_topk(vectors: np.ndarray, rows: np.ndarray, k: int, block: int = 512) -> np.ndarray:
    """Exact top-k neighbours (self excluded) of `rows`, by blocked matmul over all vectors."""
    out = np.empty((len(rows), k), dtype=np.int64)
    for start in range(0, len(rows), block):
        idx = rows[start : start + block]
        sims = vectors[idx] @ vectors.T
        sims[np.arange(len(idx)), idx] = -np.inf
        part = np.argpartition(-sims, k, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1)
        out[start : start + len(idx)] = np.take_along_axis(part, order, axis=1)
    return out


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_p1_nominate_all(tmp_path, n, goals):
    vectors = clustered_vectors(n)
    docs = fake_docs(n)
    ids = [d.document_id for d in docs]
    source = PrecomputedSource(dict(zip(ids, vectors)))
    store = bench_store(tmp_path)
    with Timer() as build:
        run_to_end(open_index(store, source, docs=docs))
    index = run_to_end(open_index(store, source, docs=docs))  # reopened from disk, as a scan does

    with Timer() as hnsw_t:
        run_to_end(nominee_edges(index, ids, k=K, threshold=-1.0))  # memgui's nomination step, every document
    hnsw_seconds = hnsw_t.seconds
    edges_by_doc = {}
    for start in range(0, n, 4096):  # the same TopK lists, kept per document for recall (not timed)
        chunk = ids[start : start + 4096]
        for doc, row in zip(chunk, index.query(index.vectors(chunk), K + 1)):
            edges_by_doc[doc] = [d for d, _ in row if d != doc][:K]

    sample = np.arange(n) if n <= 10_000 else np.random.default_rng(1).choice(n, 5_000, replace=False)
    with Timer() as exact_t:
        truth = exact_topk(vectors, sample, K)
    exact_seconds = exact_t.seconds * (n / len(sample))

    hits = [len(set(ids[j] for j in truth[i]) & set(edges_by_doc[ids[q]])) for i, q in enumerate(sample)]
    recall = sum(hits) / (K * len(sample))
    ratio = exact_seconds / hnsw_seconds
    note = "" if len(sample) == n else f" (exact timed on {len(sample)} queries, scaled ×{n // len(sample)})"
    print(f"\nP1 N={n}: hnswlib nominate-all {hnsw_seconds:.2f} s (index build {build.seconds:.1f} s, once), "
          f"exact numpy {exact_seconds:.2f} s{note} → {ratio:.1f}× faster, recall@5 {recall:.4f}")
    goals.hold(f"P1 nominate-all N={n:,}: recall@5", "≥ 0.99", f"{recall:.4f}", recall >= 0.99)
    goals.hold(f"P1 nominate-all N={n:,}: hnswlib vs exact numpy", "≥ 10×", f"{ratio:.1f}×", ratio >= 10)
