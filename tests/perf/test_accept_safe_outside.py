"""Bulk accept on a store nobody here wrote (issue 23: "accept-safe --dry-run on a store nobody here wrote plans 0
wrong and 0 lossy merges, and still accepts most true duplicates").

`tests/data/stores/outside_store.py` was written by another session from the Netclaw spec only, blind to memgui's
code, with its labels (duplicate groups, look-alike pairs); a second store (`--notes outside2_notes`, another persona,
groups of complementary and superseding notes) was written the same way on 2026-12-05 and first run that day.
The bench builds each store, runs `memgui accept-safe --dry-run --json` with the default decider, and holds: no
write merges notes of two groups, a look-alike pair or an unrelated note. It prints the share of nominated duplicate
clusters merged and every planned body beside its sources, for a person to judge "lossy" (no check can grade that on
its own). A cold run costs ≈ 15 min of model time on 2 cores; MEMGUI_BENCH_CACHE keeps the decision cache and the store between runs."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memgui.__main__ import main
from memgui.core.decide import model_files as decider_model
from test_accept_safe import score

STORES = Path(__file__).resolve().parents[1] / "data" / "stores"


OUTSIDE = {  # name: (the builder's --notes module, labels)
    "outside": ("outside_store_notes", "outside_store_labels.json"),
    "outside2": ("outside2_notes", "outside2_labels.json"),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_accept_safe_on_a_store_nobody_here_wrote(name, tmp_path, monkeypatch, capsys, goals):
    if decider_model.default_model_path() is None:
        pytest.skip("no default decider model installed")
    keep = os.environ.get("MEMGUI_BENCH_CACHE")
    if keep:
        monkeypatch.setenv("MEMGUI_CACHE_DIR", keep)
    notes, labels_file = OUTSIDE[name]
    store = (Path(keep) / name if keep else tmp_path) / "netclaw.db"
    if not store.exists():
        store.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(STORES / "outside_store.py"), str(store), "--notes", notes], check=True)
    labels = json.loads((STORES / labels_file).read_text(encoding="utf-8"))
    code = main(["accept-safe", "--store", str(store), "--dry-run", "--json", "--threads", "2"])
    out = capsys.readouterr().out
    assert code == 0
    plan = json.loads(out)
    result = score(plan, {"duplicate_clusters": labels["duplicate_groups"],
                          "sibling_pairs": [pair[:2] for pair in labels["lookalike_pairs"]]})
    group = {doc: i for i, members in enumerate(labels["duplicate_groups"]) for doc in members}
    nominated = [c for c in [[w["target_id"], *w["tombstoned"]] for w in plan["writes"]] +
                 [x["member_ids"] for x in plan["excluded"]]
                 if len({group.get(d) for d in c} - {None}) >= 1 and
                 sum(1 for d in c if group.get(d) is not None) >= 2]
    with capsys.disabled(), sqlite3.connect(store) as db:
        print(f"\naccept-safe on the {name} store: {result['accepted']} writes of {plan['considered']} clusters, "
              f"{result['wrong']} wrong; {len(nominated)} nominated clusters hold true duplicates")
        for w in plan["writes"]:
            print(f"  {w['cluster_id']}:")
            for doc in [w["target_id"], *w["tombstoned"]]:
                row = db.execute("SELECT markdown_body FROM memory_documents WHERE document_id = ?", (doc,)).fetchone()
                print(f"    source: {(row[0] if row else '?')!r}")
            print(f"    merged: {w['merged_body']!r}")
    share = result["accepted"] / len(nominated) if nominated else 0.0
    goals.hold(f"accept-safe, {name} store: wrong merges", "= 0", str(result["wrong"]), result["wrong"] == 0)
    goals.hold(f"accept-safe, {name} store: duplicate clusters merged", "most (> 50 %)", f"{share:.0%}", share > 0.5)
