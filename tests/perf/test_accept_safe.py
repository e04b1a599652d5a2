"""Bulk accept on the demo labels: `memgui accept-safe --dry-run --json` with the default decider on the demo
store — how many clusters it would accept, and how many of those are wrong (a merged pair that is not a labelled
duplicate pair; a labelled sibling pair above all).

Reviews are cached in the decision cache (user cache dir), so a re-run only pays for clusters not reviewed yet;
set MEMGUI_BENCH_CACHE to a folder to keep that cache and the demo store across runs (the test-wide cache dir
is a fresh tmp dir),
MEMGUI_BENCH_LIMIT to review only the first N clusters. The first full run costs 10–20 min of model time on 2
cores."""
from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest

from memgui.__main__ import main
from memgui.core.decide import model_files as decider_model
from memgui.core.store.demo import build_demo_store, demo_labels


def wrong_pairs(ids, truth):
    return [p for p in itertools.combinations(sorted(ids), 2) if frozenset(p) not in truth]


def score(plan: dict, labels: dict) -> dict:
    """Accepted writes, wrong ones (a pair not labelled duplicate), sibling pairs merged, and what was left out."""
    truth = {frozenset(p) for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)}
    siblings = {frozenset(p) for p in labels["sibling_pairs"]}
    wrong, sibling_merges = [], []
    for w in plan["writes"]:
        ids = [w["target_id"], *w["tombstoned"]]
        bad = wrong_pairs(ids, truth)
        if bad:
            wrong.append({"cluster_id": w["cluster_id"], "pairs": bad})
        sibling_merges += [p for p in bad if frozenset(p) in siblings]
    reasons: dict[str, int] = {}
    for x in plan["excluded"]:
        key = x["reason"].split(":")[0].split(" (")[0]
        key = "N members merged (> 3)" if key.endswith("members merged") else key
        reasons[key] = reasons.get(key, 0) + 1
    return {"considered": plan["considered"], "accepted": len(plan["writes"]), "wrong": len(wrong),
            "sibling_pairs_merged": len(sibling_merges), "wrong_detail": wrong, "excluded_by_reason": reasons}


def union_fallback(store_path, plan: dict, labels: dict) -> tuple[int, int]:
    """A what-if, not the rule: how many clusters left out only because the model's body failed MergeGuard or
    the strict lens would pass with the sentence-union draft of the same group instead, and how many of those
    are wrong. Reads the reviews back from the decision cache."""
    from dataclasses import replace

    from memgui.core.decide.cache import DecisionCache
    from memgui.core.decide.selftest import cache_key
    from memgui.core.ops.batch import why_not_safe
    from memgui.core.store import open_store

    truth = {frozenset(p) for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)}
    cache = DecisionCache(store_path, cache_key(decider_model.default_model_path(), pipeline="two-stage"))
    more = wrong = 0
    with open_store(store_path, read_only=True) as store:
        for x in plan["excluded"]:
            if not x["reason"].startswith(("MergeGuard failed", "the strict lens failed")):
                continue
            review = cache.get(store.documents_by_ids(x["member_ids"]))
            union = (review.union_draft or {}) if review is not None else {}
            if not union.get("merged_body"):
                continue
            alt = replace(review, merged_body=union["merged_body"], guard=union["guard"], strict=union["strict"])
            if why_not_safe(alt, x["member_ids"]) is None:
                more += 1
                wrong += bool(wrong_pairs([alt.proposal_id, *alt.targets], truth))
    return more, wrong


def test_accept_safe_on_the_demo_labels(tmp_path, monkeypatch, capsys):
    if decider_model.default_model_path() is None:
        pytest.skip("no default decider model installed")
    keep = os.environ.get("MEMGUI_BENCH_CACHE")
    if keep:  # the decision cache is keyed by the store's path: keep both for the re-run
        monkeypatch.setenv("MEMGUI_CACHE_DIR", keep)
    store = build_demo_store(Path(keep) / "demo" / "netclaw.db" if keep else tmp_path / "netclaw.db")
    argv = ["accept-safe", "--store", str(store), "--dry-run", "--json", "--threads", "2"]
    if os.environ.get("MEMGUI_BENCH_LIMIT"):
        argv += ["--limit", os.environ["MEMGUI_BENCH_LIMIT"]]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0
    plan = json.loads(out)
    result = score(plan, demo_labels())
    with capsys.disabled():
        print(f"\naccept-safe on the demo store ({plan['reviewed']} of {plan['clusters_total']} clusters reviewed; "
              f"{plan['cached']} from the cache, {plan['computed']} by the model):")
        print(f"  would accept {result['accepted']} of {result['considered']} clusters; wrong per the labels: "
              f"{result['wrong']} (sibling pairs merged: {result['sibling_pairs_merged']})")
        for reason, n in sorted(result["excluded_by_reason"].items(), key=lambda kv: -kv[1]):
            print(f"  left for a person: {n:3d}  {reason}")
        for w in result["wrong_detail"]:
            print(f"  WRONG: {w['cluster_id']}: {w['pairs']}")
        more, wrong = union_fallback(store, plan, demo_labels())
        print(f"  what-if (not the rule): the sentence-union draft instead of a failing model body would add {more} "
              f"clusters ({wrong} wrong)")
    assert result["sibling_pairs_merged"] == 0
