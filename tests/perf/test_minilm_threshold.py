"""How memgui's MiniLM nominator threshold was chosen: a sweep over the demo store's labelled duplicates.
For each threshold, TopK(5) nominee edges are compared with the labelled duplicate pairs (any two live members of
one labelled cluster): recall, precision, F1, and the size of the largest chained cluster. The default must sit
within 0.03 F1 of the best threshold on the grid (docs/benchmarks.md explains the pick)."""
from __future__ import annotations

import itertools

import numpy as np

from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.tasks import run_to_end
from memgui.core.vectors.embed import EmbedderSource, LlamaEmbedder
from memgui.core.vectors.embedder_model import MODEL_ID
from memgui.core.vectors.index import open_index
from memgui.core.vectors.nominate import MODEL_THRESHOLDS, build_clusters, nominee_edges


def test_minilm_threshold_sweep(tmp_path):
    with open_store(build_demo_store(tmp_path / "demo.db"), read_only=True) as store:
        docs = store.documents()
        index = run_to_end(open_index(store, EmbedderSource(LlamaEmbedder())))
    order = [d.document_id for d in docs]
    live = set(order)
    truth = set()
    for cluster in demo_labels()["duplicate_clusters"]:
        truth |= {frozenset(p) for p in itertools.combinations([d for d in cluster if d in live], 2)}
    siblings = {frozenset(p) for p in demo_labels()["sibling_pairs"]}
    rows = []
    print(f"\nMiniLM threshold sweep on the demo store: {len(order)} live documents, {len(truth)} duplicate pairs")
    print("threshold  edges  recall  precision  F1     largest-cluster  sibling-edges")
    for threshold in np.round(np.arange(0.60, 0.86, 0.02), 2):
        edges = run_to_end(nominee_edges(index, order, k=5, threshold=float(threshold)))
        found = {frozenset(k) for k in edges}
        tp = len(found & truth)
        recall, precision = tp / len(truth), tp / max(1, len(found))
        f1 = 2 * recall * precision / max(1e-9, recall + precision)
        clusters, _ = build_clusters(edges, order=order)
        largest = max((len(c.member_ids) for c in clusters), default=0)
        rows.append((float(threshold), f1))
        print(f"{threshold:9.2f}  {len(found):5d}  {recall:6.3f}  {precision:9.3f}  {f1:5.3f}  {largest:15d}  "
              f"{len(found & siblings):13d}")
    best_threshold, best_f1 = max(rows, key=lambda r: r[1])
    chosen = MODEL_THRESHOLDS[MODEL_ID]
    chosen_f1 = dict(rows).get(round(chosen, 2))
    print(f"best F1 {best_f1:.3f} at {best_threshold:.2f}; default {chosen:.2f} has F1 {chosen_f1:.3f}")
    assert chosen_f1 is not None and chosen_f1 >= best_f1 - 0.03
