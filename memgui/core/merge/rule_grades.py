"""Which rules of the fact lens may say `loss` (issue 36, item 5: rules earn their verdict).

A finding's rule is `FactAtRisk.rule` (`dropped.date`, `changed.term`). A rule earns `Grade.LOSS` only when its
measured precision (lossy firings / all firings, each case counted once) is at least 0.9 on the check half of the
labelled corpus (the latest hand-written blind sets, by other hands) with at least 3 firings there, and at least
0.9 over all sets. Every other rule, and any rule never measured, is `Grade.READ`: a person compares the sentences.
The firings are in rule_measured.py, written by `python -m tests.fact_corpus.rule_precision --write`.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Literal

from .rule_measured import CHECK_SETS, MEASURED

Measured = Mapping[str, tuple[int, int, int, int]]


class Grade(enum.Enum):
    LOSS = "loss"
    READ = "read"


MIN_PRECISION = 0.9
MIN_CHECK_FIRINGS = 3


def _firings(rule: str, split: Literal["check", "tune", "all"], measured: Measured) -> tuple[int, int] | None:
    counts = measured.get(rule)
    if counts is None:
        return None
    faithful_check, lossy_check, faithful_all, lossy_all = counts
    if split == "check":
        return faithful_check, lossy_check
    if split == "tune":
        return faithful_all - faithful_check, lossy_all - lossy_check
    return faithful_all, lossy_all


def precision(rule: str, split: Literal["check", "tune", "all"] = "all", measured: Measured = MEASURED) -> float | None:
    """lossy / (lossy + faithful) firings of `rule` on `split`; None when it was never measured or never fired."""
    firings = _firings(rule, split, measured)
    if firings is None or not sum(firings):
        return None
    faithful, lossy = firings
    return lossy / (lossy + faithful)


def grade(rule: str, measured: Measured = MEASURED) -> Grade:
    """`Grade.LOSS` when the rule earned it on the check sets and over all sets; else `Grade.READ`."""
    check = _firings(rule, "check", measured)
    on_check, on_all = precision(rule, "check", measured), precision(rule, "all", measured)
    if check is None or on_check is None or on_all is None or sum(check) < MIN_CHECK_FIRINGS:
        return Grade.READ
    return Grade.LOSS if on_check >= MIN_PRECISION and on_all >= MIN_PRECISION else Grade.READ


def table(measured: Measured = MEASURED) -> list[dict[str, object]]:
    """Every measured rule with its firings, precisions and grade, most firings first."""
    order = sorted(measured, key=lambda rule: (-measured[rule][2] - measured[rule][3], rule))
    return [{"rule": rule, "faithful": faithful_all, "lossy": lossy_all,
             "faithful_check": faithful_check, "lossy_check": lossy_check,
             "faithful_tune": faithful_all - faithful_check, "lossy_tune": lossy_all - lossy_check,
             "precision_tune": precision(rule, "tune", measured), "precision_check": precision(rule, "check", measured),
             "precision_all": precision(rule, "all", measured), "grade": grade(rule, measured).value}
            for rule in order for faithful_check, lossy_check, faithful_all, lossy_all in [measured[rule]]]


__all__ = ["CHECK_SETS", "MEASURED", "MIN_CHECK_FIRINGS", "MIN_PRECISION", "Grade", "grade", "precision", "table"]
