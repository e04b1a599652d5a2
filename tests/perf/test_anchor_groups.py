"""Notes of one anchor found together (issue 38, item 7), with the real default embedder (MiniLM).

Holds: the complementary groups of our labelled anchor store (tests/data/anchor_notes.py) are nominated together
≥ 95 %; the 40-note anchor is not one cluster; on the demo store and both outside stores no more clusters mix a
look-alike sibling pair with a duplicate pair than the cosine alone makes, no duplicate pair the cosine put together is
lost, and same-cluster duplicate recall and precision are no worse (precision over the pairs that stand on their
cosine: the anchor-only pairs, complementary notes of one thing, are counted beside) (the outside stores put every note
under an anchor of its own, so anchors cannot help them there; they must not hurt)."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from factories import seed_anchor_store
from memgui.core.store import create_store, open_store
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.tasks import run_to_end
from memgui.core.vectors import embedder_model
from memgui.core.vectors.nominate import MAX_CLUSTER_SIZE, scan_store

STORES = Path(__file__).resolve().parents[1] / "data" / "stores"


def together(result, ids) -> bool:
    return any(set(ids) <= set(c.member_ids) for c in result.clusters)


def mixed(result, groups, siblings) -> int:
    group = {d: i for i, members in enumerate(groups) for d in members}
    sib = {frozenset(p) for p in siblings}
    count = 0
    for c in result.clusters:
        pairs = list(itertools.combinations(c.member_ids, 2))
        count += any(frozenset(p) in sib for p in pairs) and any(
            group.get(a) is not None and group.get(a) == group.get(b) for a, b in pairs)
    return count


@pytest.fixture(autouse=True)
def _model(tmp_path, monkeypatch):
    if embedder_model.default_model_path() is None:
        pytest.skip("no default embedding model installed")
    monkeypatch.setenv("MEMGUI_CACHE_DIR", str(tmp_path / "cache"))


def test_anchor_groups_nominated_together(tmp_path, goals):
    with open_store(create_store(tmp_path / "netclaw.db")) as store:
        labels = seed_anchor_store(store)
        result = run_to_end(scan_store(store, embedder_choice="default"))
        cosine = run_to_end(scan_store(store, embedder_choice="default", by_anchor=False))
    share = sum(together(result, ids) for ids in labels.groups.values()) / len(labels.groups)
    before = sum(together(cosine, ids) for ids in labels.groups.values()) / len(labels.groups)
    goals.hold("anchor groups nominated together (own store)", "≥ 95 %", f"{share:.0%} (cosine alone {before:.0%})",
               share >= 0.95)
    apart = sum(not together(result, pair) for pair in labels.lookalikes) / len(labels.lookalikes)
    goals.hold("look-alike pairs under other anchors kept apart", "100 %", f"{apart:.0%}", apart == 1.0)
    big = max(len(c.member_ids) for c in result.clusters if set(c.member_ids) & set(labels.big))
    goals.hold("largest cluster of the 40-note anchor", f"≤ {MAX_CLUSTER_SIZE}", str(big), big <= MAX_CLUSTER_SIZE)


def _outside(name: str, tmp_path: Path) -> tuple[Path, list, list]:
    notes, labels_file = {"outside": ("outside_store_notes", "outside_store_labels.json"),
                          "outside2": ("outside2_notes", "outside2_labels.json")}[name]
    path = tmp_path / name / "netclaw.db"
    path.parent.mkdir(parents=True)
    subprocess.run([sys.executable, str(STORES / "outside_store.py"), str(path), "--notes", notes], check=True)
    labels = json.loads((STORES / labels_file).read_text(encoding="utf-8"))
    return path, labels["duplicate_groups"], [p[:2] for p in labels["lookalike_pairs"]]


@pytest.mark.parametrize("name", ["demo", "outside", "outside2"])
def test_anchors_keep_clusters_coherent(name, tmp_path, goals):
    if name == "demo":
        path = build_demo_store(tmp_path / "demo" / "netclaw.db")
        labels = demo_labels()
        groups, siblings = labels["duplicate_clusters"], labels["sibling_pairs"]
    else:
        path, groups, siblings = _outside(name, tmp_path)
    with open_store(path, read_only=True) as store:
        result = run_to_end(scan_store(store, embedder_choice="default"))
        cosine = run_to_end(scan_store(store, embedder_choice="default", by_anchor=False))
    now, before = mixed(result, groups, siblings), mixed(cosine, groups, siblings)
    goals.hold(f"{name}: clusters mixing siblings with duplicates", f"≤ {before} (cosine alone)", str(now), now <= before)
    truth = {frozenset(p) for g in groups for p in itertools.combinations(g, 2)}
    found: dict[str, set[frozenset[str]]] = {}
    figures: dict[str, tuple[float, float]] = {}
    for label, r in (("anchors", result), ("cosine alone", cosine)):
        pairs = {frozenset(p) for c in r.clusters for p in itertools.combinations(c.member_ids, 2)}
        # complementary notes the anchor alone put together (marked, below the floor) are no duplicate candidates
        anchor_only = {frozenset((p.a, p.b)) for c in r.clusters for p in c.pairs
                       if p.same_anchor and not p.nominee and p.cosine is not None and p.cosine < r.threshold}
        found[label] = pairs & truth
        figures[label] = (len(pairs & truth) / len(truth),
                          len((pairs - anchor_only) & truth) / max(1, len(pairs - anchor_only)))
        print(f"\n{name} ({label}): {len(r.clusters)} clusters, same-cluster duplicate recall {figures[label][0]:.3f}, "
              f"precision {figures[label][1]:.3f} ({len(pairs & truth) / max(1, len(pairs)):.3f} counting its "
              f"{len(anchor_only)} anchor-only pairs)")
    lost = len(found["cosine alone"] - found["anchors"])
    goals.hold(f"{name}: duplicate pairs the cosine put together, lost with anchors", "0", str(lost), lost == 0)
    (recall, precision), (recall0, precision0) = figures["anchors"], figures["cosine alone"]
    goals.hold(f"{name}: same-cluster duplicate recall / precision", f"≥ {recall0:.3f} / {precision0:.3f} (cosine alone)",
               f"{recall:.3f} / {precision:.3f}", recall >= recall0 and precision >= precision0)
