"""The merge verdicts (proved / loss / read, core/merge/align.py) on the labelled corpus (issue 36).

For each set and each split (tune: every set a rule was taught from; check: the hand-written blind sets 15–21): the
share of lossy merges judged proved, of faithful merges judged loss and proved, each faithful merge by how much it
rewrites (near-extractive: every body sentence is a source sentence word for word, or nearly; light; heavy), and
the look-alike pairs whose conflicts are named.

    python -m tests.fact_corpus.verdicts [--sets all|check|tune] [--show lossy-proved|faithful-loss|...] [--json F]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .rates import SETS, load

CHECK_SETS = tuple(f"blind{n}" for n in range(15, 22))
_WORD = re.compile(r"[^\W_]+")


def rewording(case: dict[str, Any]) -> str:
    """How much a faithful merge rewrites its sources, read from its words alone."""
    from memgui.core.merge.sentences import split
    source_plain = {s.plain for src in case["sources"] for s in split(src or "")}
    body = split(case["body"] or "")
    verbatim = sum(1 for s in body if s.plain in source_plain)
    if body and verbatim >= len(body) - (1 if len(body) >= 4 else 0):
        return "near-extractive"
    source_words = {w.casefold() for src in case["sources"] for w in _WORD.findall(src or "")}
    body_words = [w.casefold() for w in _WORD.findall(case["body"] or "")]
    share = sum(1 for w in body_words if w in source_words) / max(1, len(body_words))
    return "light" if share >= 0.8 else "heavy"


def judge(case: dict[str, Any]) -> dict[str, Any]:
    from memgui.core.merge.align import judge as judged
    out: dict[str, Any] = {"id": case["id"], "set": case["set"], "label": case["label"], "kind": case["kind"]}
    try:
        if case["label"] == "lookalike":
            from memgui.core.merge.conflicts import pair_evidence
            a, b = case["sources"][:2]
            out["named"] = bool(pair_evidence(a, b).conflicts)
            return out
        _, result = judged(case["sources"], case["body"])
        out["verdict"] = result.verdict.value
        out["rules"] = sorted({r for s in result.sentences for r in s.rules})
        if case["label"] == "lossless":
            out["rewording"] = rewording(case)
    except Exception as error:  # a crash is counted, not hidden
        out["error"] = f"{type(error).__name__}: {error}"
    return out


def run(names: list[str], workers: int = 2) -> list[dict[str, Any]]:
    cases = [c for name in names for c in load(name)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(judge, cases, chunksize=16))


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        if r["label"] == "lookalike":
            tally["lookalike"]["named" if r.get("named") else "missed"] += 1
            continue
        verdict = r.get("verdict", "error")
        tally[r["label"]][verdict] += 1
        if r["label"] == "lossless":
            tally[f"lossless/{r.get('rewording', '?')}"][verdict] += 1
    return {k: dict(v) for k, v in tally.items()}


def _print(title: str, s: dict[str, Any]) -> None:
    print(f"== {title}")
    for key in sorted(s):
        counts = s[key]
        n = sum(counts.values())
        shares = ", ".join(f"{v} {k} ({100 * v / n:.1f} %)" for k, v in sorted(counts.items()))
        print(f"  {key:28} n={n:4}  {shares}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="all", choices=("all", "check", "tune"))
    parser.add_argument("--show", default="")
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    names = [n for n in SETS if args.sets == "all" or (n in CHECK_SETS) == (args.sets == "check")]
    started = time.time()
    results = run(names)
    check = [r for r in results if r["set"] in CHECK_SETS]
    tune = [r for r in results if r["set"] not in CHECK_SETS]
    if tune:
        _print("tune", summary(tune))
    if check:
        _print("check (blind15-21)", summary(check))
    if args.show:
        label, _, verdict = args.show.partition("-")
        label = {"faithful": "lossless"}.get(label, label)
        cases = {c["id"]: c for n in names for c in load(n)}
        for r in results:
            if r["label"] == label and r.get("verdict", "error") == verdict:
                c = cases[r["id"]]
                print(f"\n--- {r['id']} [{r['kind']}] {r.get('rules')} {r.get('error', '')}")
                for s in c["sources"]:
                    print("  S:", s)
                print("  B:", c["body"])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=0)
    print(f"{len(results)} cases in {time.time() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
