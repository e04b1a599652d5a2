"""A frozen snapshot of the corpus outcomes (issue 36, item 5): every case's verdict, so a change that moves any case
is seen by `make test` (tests/core/merge/test_verdict_snapshot.py).

- a lossy or a faithful ("lossless") merge: the alignment's verdict as the product judges it,
  `align(sources, body, check_strict(sources, body).at_risk).verdict` (tests/fact_corpus/verdicts.py): `proved`,
  `loss` or `read`;
- a look-alike pair: `named` when `pair_evidence(a, b).conflicts` is non-empty, else `missed`;
- a case that raises: `error`.

    python -m tests.fact_corpus.snapshot            # what moved since the snapshot, and the headline rates
    python -m tests.fact_corpus.snapshot --write    # store the verdicts in tests/data/facts/verdict_snapshot.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .rates import DATA, SETS, load
from .verdicts import judge

SNAPSHOT = DATA / "verdict_snapshot.json"
PARTS = {"generated": 4}  # sets judged in this many parts (the rest in one), so parallel test workers spread them


def verdict(case: dict[str, Any]) -> str:
    result = judge(case)
    if "error" in result:
        return "error"
    if case["label"] == "lookalike":
        return "named" if result["named"] else "missed"
    return str(result["verdict"])


def groups() -> list[tuple[str, int, int]]:
    """(set, part, parts): the units the corpus is judged in."""
    return [(name, part, PARTS.get(name, 1)) for name in sorted(SETS) for part in range(PARTS.get(name, 1))]


def cases(name: str, part: int = 0, parts: int = 1) -> list[dict[str, Any]]:
    return load(name)[part::parts]


def compute(name: str, part: int = 0, parts: int = 1) -> dict[str, str]:
    return {c["id"]: verdict(c) for c in cases(name, part, parts)}


def _compute_group(group: tuple[str, int, int]) -> dict[str, str]:
    return compute(*group)


def compute_all(workers: int = 2) -> dict[str, str]:
    out: dict[str, str] = {}
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_compute_group, groups()):
            out.update(part)
    return dict(sorted(out.items()))


def read() -> dict[str, str]:
    snapshot: dict[str, str] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return snapshot


def write(snapshot: dict[str, str]) -> None:
    SNAPSHOT.write_text(json.dumps(dict(sorted(snapshot.items())), indent=0, ensure_ascii=False) + "\n",
                        encoding="utf-8")


def moved(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """One line per case whose verdict differs: `id: old → new` (`absent` where one side has no such case)."""
    return [f"{key}: {old.get(key, 'absent')} → {new.get(key, 'absent')}" for key in sorted(set(old) | set(new))
            if old.get(key) != new.get(key)]


def labels() -> dict[str, str]:
    return {c["id"]: c["label"] for name in SETS for c in load(name)}


def headline(snapshot: dict[str, str]) -> dict[str, float]:
    """The goals' rates (issue 36, "Done when") over the whole corpus: lossy judged proved, faithful judged loss and
    proved, look-alikes named."""
    label = labels()
    tally: dict[str, Counter[str]] = {k: Counter() for k in ("lossy", "lossless", "lookalike")}
    for key, value in snapshot.items():
        if key in label:
            tally[label[key]][value] += 1

    def share(kind: str, value: str) -> float:
        total = sum(tally[kind].values())
        return tally[kind][value] / total if total else float("nan")

    return {"lossy_proved": share("lossy", "proved"), "faithful_loss": share("lossless", "loss"),
            "faithful_proved": share("lossless", "proved"), "lookalike_named": share("lookalike", "named"),
            "cases": float(len(snapshot))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help=f"store the verdicts in {SNAPSHOT}")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.time()
    now = compute_all(args.workers)
    print(f"{len(now)} cases judged in {time.time() - started:.1f} s", file=sys.stderr)
    if SNAPSHOT.exists():
        changes = moved(read(), now)
        print(f"{len(changes)} moved since the snapshot")
        for line in changes:
            print(" ", line)
    for key, value in headline(now).items():
        print(f"{key}: {value:.4f}" if key != "cases" else f"{key}: {value:.0f}")
    if args.write:
        write(now)
        print(f"wrote {SNAPSHOT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
