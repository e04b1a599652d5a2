"""The same outcomes on the demo store, before and after (issue 37, "Behaviour is unchanged"): for every labelled
duplicate cluster and sibling pair of `resources/demo/labels.json`, what memgui shows without a model is computed
and compared with the frozen snapshot tests/data/demo_outcomes.json, so a change that moves any outcome is seen.

Per cluster (members are named by their place in the label's `ids`, `0`, `1`, …; tombstoned members take no part):

- `review`: the review `memgui decide`, `accept-safe` and the window's queue show without a model
  (core/decide/review.py `review_cluster`): the decision, the conflict-free groups, the target, the union draft
  (sha256 of its body and its length), Netclaw's MergeGuard on it (`check_merge`: passed, retention, missing count)
  and memgui's verdict (`align.judge`: proved / loss / read, with the lens's checked and at-risk counts);
- `window`: the union draft the window makes with every live member included (`keep_draft.prove_or_keep`, its
  default target first: `best_by_confidence` over the members in the window's order), its guard and verdict;
- `evidence`: the likely-different mark (`conflicts.likely_different`), the pairs that disagree on a value
  (`groups.conflict_partition`) and each pair's named conflicts (`conflicts.pair_evidence`: class and values).

No model or embedder runs, so it is deterministic. A move that is meant is written with

    python -m tests.core.test_demo_outcomes            # what moved since the snapshot
    python -m tests.core.test_demo_outcomes --write    # store the outcomes in tests/data/demo_outcomes.json

(from the repository root), and the diff of the snapshot says which clusters moved.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from memgui.core.curation.rules import best_by_confidence
from memgui.core.decide.groups import conflict_partition
from memgui.core.decide.inputs import anchor_names
from memgui.core.decide.review import review_cluster
from memgui.core.merge.align import judge
from memgui.core.merge.conflicts import likely_different, pair_evidence
from memgui.core.merge.guard import check_merge
from memgui.core.merge.keep_draft import prove_or_keep
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.tasks import run_to_end

SNAPSHOT = Path(__file__).resolve().parents[1] / "data" / "demo_outcomes.json"
REWRITE = "if the move is meant: python -m tests.core.test_demo_outcomes --write"
SHOWN = 10  # clusters named in a failure, the first in the snapshot's order
PARTS = 2  # the clusters are compared in this many parts, so parallel test workers (make test: -n auto) share them

Outcome = dict[str, Any]


def labelled() -> list[tuple[str, list[str]]]:
    """(name, member ids) of every labelled duplicate cluster, then every sibling pair."""
    labels = demo_labels()
    return [(c["name"], c["ids"]) for c in labels["clusters"]] + [(s["name"], s["ids"]) for s in labels["siblings"]]


def _digest(body: str | None) -> str | None:
    return hashlib.sha256(body.encode("utf-8")).hexdigest() if body is not None else None


def _checked(sources: Sequence[str | None], body: str | None, titles: Sequence[str]) -> Outcome:
    """A draft as the guard panel shows it: its digest, Netclaw's verdict and memgui's."""
    guard = check_merge(sources, body)
    strict, proof = judge(sources, body, titles=titles, kept_title=titles[0] if titles else None)
    return {"draft": _digest(body), "chars": len(body or ""), "guard": guard.passed, "retention": guard.retention,
            "missing": len(guard.missing), "verdict": proof.verdict.value, "checked": strict.checked,
            "at_risk": len(strict.at_risk)}


def _review(docs: list[Any], names: dict[str, str], place: dict[str, str]) -> Outcome:
    review = run_to_end(review_cluster(docs, names))
    guard, strict = review.guard or {}, review.strict or {}
    return {"decision": review.decision, "groups": [[place[m] for m in g] for g in review.groups],
            "target": place.get(review.target or ""), "targets": [place[t] for t in review.targets],
            "draft": _digest(review.merged_body), "chars": len(review.merged_body or ""),
            "guard": guard.get("passed"), "retention": guard.get("retention"), "missing": len(guard.get("missing", ())),
            "verdict": strict.get("verdict"), "checked": strict.get("checked"), "at_risk": len(strict.get("at_risk", ()))}


def _window(docs: list[Any]) -> Outcome:
    ordered = sorted(docs, key=lambda d: (d.updated_at, d.document_id))
    target = best_by_confidence(ordered).document_id
    chosen = sorted(ordered, key=lambda d: d.document_id != target)  # the target first, the rest in order
    sources, titles = [d.markdown_body or "" for d in chosen], [d.title or "" for d in chosen]
    body = prove_or_keep(sources, frozenset(), 0).body if any(s.strip() for s in sources[1:]) else sources[0]
    return _checked(sources, body, titles)


def _evidence(docs: list[Any], place: dict[str, str]) -> Outcome:
    mark = likely_different([d.markdown_body for d in docs], [d.title for d in docs])
    _groups, disagree = conflict_partition(docs)
    pairs = {}
    for a, b in combinations(docs, 2):
        ev = pair_evidence(a.markdown_body, b.markdown_body, a_title=a.title or "", b_title=b.title or "",
                           with_diff=False)
        if ev.conflicts:
            pairs[f"{place[a.document_id]}-{place[b.document_id]}"] = [
                f"{c.fact_class}: {' '.join(c.a)} | {' '.join(c.b)}" for c in ev.conflicts]
    return {"likely_different": mark.likely_different, "reason": mark.reason,
            "disagree": [f"{place[a]}-{place[b]}: {note}" for a, b, note in disagree], "conflicts": pairs}


def outcome(docs: list[Any], names: dict[str, str], ids: list[str]) -> Outcome:
    place = {doc_id: str(i) for i, doc_id in enumerate(ids)}
    live = [d for d in docs if not d.is_tombstoned]
    out: Outcome = {"members": len(ids), "live": len(live)}
    if len(live) >= 2:
        out.update(review=_review(live, names, place), window=_window(live), evidence=_evidence(live, place))
    return out


def compute(part: int = 0, parts: int = 1) -> dict[str, Outcome]:
    """The outcome of every `parts`-th labelled cluster from `part` on (all of them by default), on a freshly built
    demo store, in the label file's order."""
    with tempfile.TemporaryDirectory(prefix="memgui-demo-outcomes-") as folder:
        path = build_demo_store(Path(folder) / "netclaw.db")
        with open_store(path, read_only=True) as store:
            loaded = []
            for name, ids in labelled()[part::parts]:
                by_id = {d.document_id: d for d in store.documents_by_ids(ids)}
                docs = [by_id[i] for i in ids if i in by_id]
                loaded.append((name, ids, docs, anchor_names(store, docs)))
    return {name: outcome(docs, names, ids) for name, ids, docs, names in loaded}


def read() -> dict[str, Outcome]:
    snapshot: dict[str, Outcome] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return snapshot


def write(outcomes: dict[str, Outcome]) -> None:
    """One cluster a line, in the label file's order, so the snapshot's diff names the clusters that moved."""
    lines = [f"{json.dumps(name)}: {json.dumps(value, sort_keys=True, ensure_ascii=False)}"
             for name, value in outcomes.items()]
    SNAPSHOT.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def _changes(old: Any, new: Any, where: str) -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        return [line for key in sorted(set(old) | set(new), key=str)
                for line in _changes(old.get(key, "absent"), new.get(key, "absent"), f"{where}.{key}")]
    return [] if old == new else [f"{where}: {old!r} → {new!r}"]


def moved(old: dict[str, Outcome], new: dict[str, Outcome]) -> list[str]:
    """One line per outcome that differs, `cluster.field: snapshot → now`, clusters in the label file's order."""
    names = list(dict.fromkeys([*new, *old]))
    return [line for name in names for line in _changes(old.get(name, "absent"), new.get(name, "absent"), name)]


# ---- the tests --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def snapshot() -> dict[str, Outcome]:
    assert SNAPSHOT.exists(), f"no {SNAPSHOT}: python -m tests.core.test_demo_outcomes --write"
    return read()


@pytest.mark.parametrize("part", range(PARTS), ids=[f"part{p + 1}of{PARTS}" for p in range(PARTS)])
def test_no_outcome_on_the_demo_store_moved(snapshot, part):
    now = compute(part, PARTS)
    changes = moved({name: snapshot.get(name, "absent") for name in now}, now)
    clusters = list(dict.fromkeys(line.split(".", 1)[0].split(":", 1)[0] for line in changes))
    shown = [line for line in changes if line.split(".", 1)[0].split(":", 1)[0] in clusters[:SHOWN]]
    assert not changes, (f"{len(clusters)} cluster(s) moved (the first {min(SHOWN, len(clusters))}; "
                         "cluster.field: snapshot → now):\n  " + "\n  ".join(shown) + f"\n{REWRITE}")


def test_the_snapshot_holds_every_labelled_cluster_and_nothing_else(snapshot):
    names = [name for name, _ids in labelled()]
    assert list(snapshot) == names, REWRITE
    assert len(names) == len(demo_labels()["duplicate_clusters"]) + len(demo_labels()["sibling_pairs"])


def test_every_union_draft_in_the_snapshot_passes_the_guard(snapshot):
    """The union drafts pass MergeGuard by construction (union.py): a snapshot that says otherwise is not written
    quietly."""
    failed = [f"{name}.{kind}" for name, value in snapshot.items() for kind in ("review", "window")
              if kind in value and value[kind]["guard"] is not True]
    assert failed == []


def test_a_moved_outcome_is_named():
    old = {"a": {"review": {"verdict": "proved", "guard": True}}, "b": {"live": 2}}
    new = {"a": {"review": {"verdict": "read", "guard": True}}, "c": {"live": 2}}
    assert moved(old, new) == ["a.review.verdict: 'proved' → 'read'", "c: 'absent' → {'live': 2}",
                               "b: {'live': 2} → 'absent'"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"store the outcomes in {SNAPSHOT}")
    args = parser.parse_args(argv)
    started = time.time()
    now = compute()
    print(f"{len(now)} clusters computed in {time.time() - started:.1f} s", file=sys.stderr)
    if SNAPSHOT.exists():
        changes = moved(read(), now)
        print(f"{len(changes)} outcomes moved since the snapshot")
        for line in changes:
            print(" ", line)
    if args.write:
        write(now)
        print(f"wrote {SNAPSHOT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
