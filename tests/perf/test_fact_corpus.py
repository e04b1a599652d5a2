"""The fact lens judged on the labelled corpus (issue 23, item 11; `make bench`, not `make test`).

Prints the rates by kind for the tune and check halves of the hand-written and the generated sets, and asserts the
issue's goals on the CHECK halves only (the tune halves are for tuning): lossy merges caught ≥ 95 %, lossless
rewordings flagged ≤ 10 %, look-alike pairs named ≥ 90 %."""
from __future__ import annotations

import pytest

from fact_corpus import rates

GOALS = {"catch": (">=", 0.95), "false_alarm": ("<=", 0.10), "named": (">=", 0.90)}


def _meets(measure: str, value: float) -> bool:
    op, goal = GOALS[measure]
    return value >= goal if op == ">=" else value <= goal


@pytest.mark.parametrize("name", ["handwritten", "generated"])
def test_fact_corpus_rates(name: str) -> None:
    cases = rates.load(name)
    measured = {}
    for split in ("tune", "check"):
        text, summary, _ = rates.report([c for c in cases if c["split"] == split], f"{name} · {split}", examples=3)
        print("\n" + text)
        measured[split] = summary
    check = measured["check"]
    print(f"{name} tune : " + ", ".join(f"{m} {v:.3f}" for m, v in measured["tune"].items()))
    print(f"{name} check: " + ", ".join(f"{m} {v:.3f}" for m, v in check.items()))
    failed = [f"{m} {check[m]:.3f} (goal {op} {goal})" for m, (op, goal) in GOALS.items() if not _meets(m, check[m])]
    assert not failed, f"{name} check half misses the goals: " + "; ".join(failed)
