"""An accept-safe plan as a person reads it (`BatchPlan.to_markdown`, the window's Export, `accept-safe`'s
output): every write with its checks and body, every cluster left out with its reason."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .policy import rule_text

if TYPE_CHECKING:
    from .batch import BatchPlan


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def reader_line(reader: Mapping[str, Any] | None) -> str:
    """The plan's one line about the second reader."""
    reader = reader or {}
    if reader.get("ran"):
        return f"Second reader: {reader.get('note') or 'ran'}."
    return (f"Second reader: not run ({reader.get('note') or 'no model'}); MergeGuard and the strict lens alone "
            "decided.")


def _reader_verdicts(reader: Mapping[str, Any] | None) -> str:
    if not reader:
        return "not run"
    ps = ", ".join(f"#{v.get('index')} {v['p_yes']:.2f}" if v.get("p_yes") is not None else f"#{v.get('index')} unread"
                   for v in reader.get("verdicts", ()))
    return f"{'kept' if reader.get('passed') else 'NOT KEPT'} (p(yes) by source: {ps})"


def plan_markdown(plan: BatchPlan) -> str:
    """The plan as a person reads it (and as the GUI's Export writes it)."""
    lines = [f"# accept-safe batch {plan.batch_id}", "",
             f"{plan.created_at} · {len(plan.writes)} of {plan.considered} clusters would be merged.", "",
             f"Rule: {rule_text()}.", "", reader_line(plan.reader), "", f"## Writes ({len(plan.writes)})", ""]
    if not plan.writes:
        lines += ["None: no cluster passes every check.", ""]
    for i, w in enumerate(plan.writes, 1):
        t = w.titles
        verdict = w.strict.get("verdict") or "not checked"
        lines += [f"### {i}. {w.decision} into {w.target_id} — {t.get(w.target_id, '')}".rstrip(" —"), "",
                  f"- cluster: {w.cluster_id}",
                  "- tombstoned: " + "; ".join(f"{d} — {t.get(d, '')}".rstrip(" —") for d in w.tombstoned),
                  f"- length ratio: {_pct(w.length_ratio)} · MergeGuard: {'passed' if w.guard.get('passed') else 'FAILED'}"
                  f" (retention {_pct(w.guard.get('retention'))}) · memgui's check: {verdict} "
                  f"({w.strict.get('checked', 0)} facts checked by the lens)",
                  f"- second reader: {_reader_verdicts(w.reader)}",
                  *([f"- supersedes (oldest first): {' → '.join(w.supersede.get('order', []))}; the older kept as "
                     "dated history"] if w.supersede else []),
                  f"- model: {w.model_id}" + (f" — {w.rationale}" if w.rationale else ""), "",
                  "```text", w.merged_body.replace("```", "ʼʼʼ"), "```", ""]
    lines += [f"## Left for a person ({len(plan.excluded)})", ""]
    for x in plan.excluded:
        names = " · ".join(dict.fromkeys(t for t in x.titles.values() if t))
        lines.append(f"- {x.cluster_id} ({len(x.member_ids)} documents, {x.verdict})"
                     + (f" {names}" if names else "") + f": {x.reason}")
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["plan_markdown", "reader_line"]
