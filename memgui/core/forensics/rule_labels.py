"""This store's own labels for the lens's rules (issue 36, item 9): each restatement a person confirmed in a merge
(the Alignment tab's R, recorded in the merge's audit row as `confirmed_restatements`) is a faithful case. The lens
is run on that pair (the source sentence against the body sentence(s) it was confirmed against); every rule that
fires there fired on a case this user called faithful: a false alarm, counted beside the corpus's measured
firings (core/merge/rule_measured.py, graded by rule_grades.py)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..merge.rule_grades import table
from ..merge.strict import check_strict
from ..store import Store
from ..store.audit_log import OP_MERGE, STATE_APPLIED, list_entries


@dataclass(frozen=True)
class ConfirmedPair:
    audit_id: int
    document_id: str
    text: str
    body: str


def confirmed_pairs(store: Store) -> list[ConfirmedPair]:
    """Every restatement confirmed in an applied merge of this store, oldest merge first."""
    out: list[ConfirmedPair] = []
    for entry in reversed(list_entries(store, operation=OP_MERGE, state=STATE_APPLIED)):
        for item in entry.details.get("confirmed_restatements") or ():
            if isinstance(item, dict) and isinstance(item.get("text"), str):
                body = item.get("body") or ()
                out.append(ConfirmedPair(entry.audit_id, str(item.get("document_id", "")), item["text"],
                                         " ".join(b for b in body if isinstance(b, str))))
    return out


def faithful_firings(pairs: list[ConfirmedPair]) -> Counter[str]:
    """Rule id → how many confirmed pairs it fires on (each pair once per rule)."""
    counts: Counter[str] = Counter()
    for pair in pairs:
        counts.update({finding.rule for finding in check_strict([pair.text], pair.body).at_risk})
    return counts


def rules_report(store: Store | None) -> dict[str, Any]:
    """The corpus's measured table, each rule with this store's confirmed-faithful firings beside it."""
    pairs = confirmed_pairs(store) if store is not None else []
    here = faithful_firings(pairs)
    rows = [{**row, "faithful_here": here.get(str(row["rule"]), 0)} for row in table()]
    known = {str(row["rule"]) for row in rows}
    rows += [{"rule": rule, "faithful": 0, "lossy": 0, "precision_all": None, "precision_check": None,
              "grade": "read", "faithful_here": n} for rule, n in sorted(here.items()) if rule not in known]
    return {"confirmed_pairs": len(pairs), "rules": rows}


__all__ = ["ConfirmedPair", "confirmed_pairs", "faithful_firings", "rules_report"]
