"""False merges on the demo labels: if a reviewer accepted every pre-selected, guard-passing proposal, how many
merges would join documents that are not labelled duplicates (wrong merges per 100 clusters)?

- before: connected components of the nominee graph (chained), every member pre-selected, union draft;
- after, no model: coherent clusters (average linkage, ≤ 8), every member pre-selected unless the cluster is
  marked "likely different facts" (then nothing is pre-selected);
- after, model: coherent clusters, every pair judged by the default decider, the largest same-fact group
  pre-selected (nothing when every pair was judged different).
A merge is wrong when two of its members are not a labelled duplicate pair. The union draft passes
MergeGuard by construction, so "guard-passing" holds for every proposal counted. Verdicts of the model are
cached in the user cache dir (keyed by model file and the two bodies) so a re-run only pays for new pairs.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from memgui.config import user_cache_dir
from memgui.core.decide import model_files as decider_model
from memgui.core.decide.groups import conflict_partition
from memgui.core.decide.llm import LlamaDecider
from memgui.core.forensics.model_quality import duplicate_pairs, merge_stats, sibling_pairs, wrong_merge
from memgui.core.merge.conflicts import likely_different
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.tasks import run_to_end
from memgui.core.vectors.embed import EmbedderSource, LlamaEmbedder
from memgui.core.vectors.embedder_model import MODEL_ID
from memgui.core.vectors.index import open_index
from memgui.core.vectors.nominate import MODEL_THRESHOLDS, _components, build_clusters, nominee_edges


class CachedJudge:
    """The decider's pair judge with verdicts cached on disk (a benchmark re-run pays only for new pairs)."""

    def __init__(self, decider: LlamaDecider):
        self.decider = decider
        # MEMGUI_BENCH_VERDICTS keeps the cache across runs (the test-wide cache dir is a fresh tmp dir)
        self.path = Path(os.environ.get("MEMGUI_BENCH_VERDICTS") or user_cache_dir() / "bench-pair-verdicts.json")
        self.cache = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.calls = 0

    def __call__(self, existing, new, cancel=None):
        key = hashlib.sha1(f"{self.decider.model_id}\n{existing}\n\x1e{new}".encode()).hexdigest()
        if key not in self.cache:
            call = yield from self.decider.judge_pair(existing, new, cancel=cancel)
            self.cache[key] = call.reply.split("\n", 1)[0] if call is not None else ""
            self.calls += 1
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.cache))

        class Reply:
            reply = self.cache[key]
            margin = None
            seconds = None

        return Reply()


# Goals held at the level the design reached (README "Measured"; a rise is a regression, not noise: the demo labels
# and the clustering are deterministic): without a model, members that disagree on a value kept apart (3.5 measured);
# with the default model judging every pair (0.0 measured).
GOAL_NO_MODEL, GOAL_MODEL = 5.0, 1.0


def test_false_merges_per_100_clusters(tmp_path, goals):
    with open_store(build_demo_store(tmp_path / "demo.db"), read_only=True) as store:
        docs = {d.document_id: d for d in store.documents()}
        index = run_to_end(open_index(store, EmbedderSource(LlamaEmbedder())))
        order = index.order
        threshold = MODEL_THRESHOLDS[MODEL_ID]
        edges = run_to_end(nominee_edges(index, order, k=5, threshold=threshold))

        def pair_cosine(members):
            v = index.vectors(members)
            return np.asarray(v) @ np.asarray(v).T

        coherent, _ = build_clusters(edges, order=order, pair_cosine=pair_cosine, threshold=threshold)
    truth = duplicate_pairs(demo_labels(), docs)

    chained = _components(order, edges)
    before = sum(wrong_merge(c, truth) for c in chained)

    def bodies(ids):
        return [docs[i].markdown_body for i in ids], [docs[i].title for i in ids]

    no_model = sum(wrong_merge(c.member_ids, truth) for c in coherent
                   if not likely_different(*bodies(c.member_ids)).likely_different)
    marked = sum(likely_different(*bodies(c.member_ids)).likely_different for c in coherent)
    print("\nfalse merges on the demo labels (accept every pre-selected, guard-passing proposal):")
    print(f"  before (chained components, all members): {before} wrong of {len(chained)} clusters "
          f"= {100 * before / len(chained):.1f} per 100 (largest cluster {max(len(c) for c in chained)})")
    print(f"  after, no model (coherent ≤ 8, 'likely different' not pre-selected: {marked}): {no_model} wrong of "
          f"{len(coherent)} = {100 * no_model / len(coherent):.1f} per 100")
    # no model, but members that disagree on a value (an amount, a date) kept apart: the largest group of the
    # partition in which every conflict-free pair counts as the same (what the window pre-selects without one)
    conflict_free = 0
    for c in coherent:
        if not likely_different(*bodies(c.member_ids)).likely_different:
            largest = conflict_partition([docs[m] for m in c.member_ids])[0][0]
            conflict_free += len(largest) >= 2 and wrong_merge(largest, truth)
    per_100 = 100 * conflict_free / len(coherent)
    print(f"  after, no model, members that disagree on a value kept apart: {conflict_free} wrong of "
          f"{len(coherent)} = {per_100:.1f} per 100")
    goals.hold("false merges per 100 clusters, no model (value conflicts apart)", f"≤ {GOAL_NO_MODEL:.1f}",
               f"{per_100:.1f} ({conflict_free}/{len(coherent)})", per_100 <= GOAL_NO_MODEL)
    path = decider_model.default_model_path()
    if path is None or os.environ.get("MEMGUI_BENCH_NO_MODEL"):
        print("  after, model: skipped (no default decider model installed)")
        return
    decider = LlamaDecider(path, n_threads=2, n_ctx=4096, timeout_s=0)
    judge = CachedJudge(decider)
    try:  # the same counting as `memgui evaluate-model` (core.forensics.model_quality)
        stats = run_to_end(merge_stats([c.member_ids for c in coherent], docs, judge, truth,
                                       sibling_pairs(demo_labels(), docs)))
    finally:
        decider.close()
    wrong, merges, missed = stats.wrong, stats.merges, stats.duplicates_apart
    goals.hold("false merges per 100 clusters, default model", f"≤ {GOAL_MODEL:.1f}",
               f"{100 * wrong / len(coherent):.1f} ({wrong}/{len(coherent)})", 100 * wrong / len(coherent) <= GOAL_MODEL)
    mixed, mixed_split = stats.mixed, stats.mixed_split
    print(f"  after, model (largest same-fact group): {wrong} wrong of {len(coherent)} clusters = "
          f"{100 * wrong / len(coherent):.1f} per 100 ({merges} merges proposed; {missed} labelled duplicate pairs "
          f"judged apart; {judge.calls} new model calls)")
    print(f"  labelled mixed clusters (duplicates plus a sibling): {mixed}; the sibling kept out of the pre-selected "
          f"group in {mixed_split}")
    for members, groups in stats.mixed_misses:  # each miss shown, so it can be looked at
        print("  mixed-cluster miss:", " | ".join(f"{m[:12]} {docs[m].title!r}" for m in members),
              "-> groups", [[m[:12] for m in g] for g in groups])
