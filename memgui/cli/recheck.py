"""`memgui audit --recheck` and `memgui audit --append-back AUDIT_ID`: past merges under the current lens.

    memgui audit --recheck [--json] [--store PATH]
        every applied merge memgui wrote, re-checked; lists those that now show a fact at risk with what can be
        done: `memgui undo AUDIT_ID` while undo is possible, else `memgui audit --append-back AUDIT_ID`.
        Exit 0 nothing at risk, 1 some merge shows a fact at risk, 2 bad input.
    memgui audit --append-back AUDIT_ID [--note TEXT] [--json] [--store PATH]
        append the sentences holding the merge's lost facts to its target (one audited, undoable write).
        Exit 0 written, 1 refused (the target changed meanwhile, nothing at risk), 2 bad input.
"""
from __future__ import annotations

import argparse
import sys

from ..core.forensics.recheck import (
    ACTION_APPEND_BACK,
    ACTION_UNDO,
    NotAMergeError,
    RecheckError,
    RecheckReport,
    append_lost_facts,
    recheck_merges_work,
)
from ..core.merge.align import Verdict
from ..core.netfx import format_timestamp
from ..core.ops.apply import ApplyInputError, StaleSourceError
from ..core.ops.undo import AuditNotFoundError
from ..core.tasks import run_to_end
from .common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    CliError,
    open_store_or_fail,
    print_json,
    print_text,
    shown,
    store_errors_as_cli_errors,
)


def _time(ms: int) -> str:
    return format_timestamp(ms, seconds=True)


def format_recheck(report: RecheckReport, store_path: object) -> str:
    lines = []
    for m in report.at_risk:
        lines.append(f"#{m.audit_id}  {_time(m.created_at)}  target={m.target_id}"
                     + (f" ({m.target_title})" if m.target_title else "") + (f"  verdict: {m.verdict.value}" if m.verdict else ""))
        for f in m.facts:
            lines.append(f"       {f.direction:<8} {f.kind:<18} {f.token}  source={','.join(f.source_ids) or '-'}")
        if m.action == ACTION_UNDO:
            lines.append(f"       can be undone: memgui undo --store {store_path} {m.audit_id}")
        elif m.action == ACTION_APPEND_BACK:
            lines.append(f"       {m.why}")
            lines.append(f"       append them back with: memgui audit --store {store_path} --append-back {m.audit_id}")
        else:
            lines.append(f"       nothing to do automatically: {m.why}")
    head = (f"{len(report.at_risk)} of {report.checked} re-checked merge(s) show a fact at risk"
            if report.at_risk else f"all {report.checked} re-checked merge(s) keep their facts")
    lines.insert(0, head)
    if report.verdicts:
        tally = {v.value: sum(1 for _, x in report.verdicts if x is v) for v in (Verdict.PROVED, Verdict.READ, Verdict.LOSS)}
        lines.insert(1, "memgui's verdicts today: " + ", ".join(f"{n} {v}" for v, n in tally.items() if n)
                     + " (proved: every source sentence kept or restated; loss: a fact named lost; read: a person "
                       "compares)")
    if report.resolved:
        lines.append("facts appended back already: " + ", ".join(f"#{a} (by #{b})" for a, b in report.resolved))
    for audit_id, why in report.skipped:
        lines.append(f"not re-checked: #{audit_id}: {why}")
    if report.overwrites:
        lines.append(f"{len(report.overwrites)} write(s) replaced a value without keeping the older one as history "
                     "(“previously … as of …”):")
    for o in report.overwrites:
        lines.append(f"  {o.document_id}  {_time(o.when)}  by {o.by}  (memgui audit #{o.audit_id})")
        for older, now in o.replaced:
            lines.append(f"       was: {shown(older)}")
            lines.append(f"       now: {shown(now)}")
    return "\n".join(lines)


def run_recheck(args: argparse.Namespace) -> int:
    with open_store_or_fail(args.store, read_only=True) as store, store_errors_as_cli_errors():
        report = run_to_end(recheck_merges_work(store))
        path = store.path
    if args.json:
        print_json(report.to_dict())
    else:
        print_text(format_recheck(report, path))
    return EXIT_OK if report.passed else EXIT_NEGATIVE


def _refused(message: str, as_json: bool) -> int:
    if as_json:
        print_json({"ok": False, "error": message})
    print(f"memgui: {message}", file=sys.stderr)
    return EXIT_NEGATIVE


def run_append_back(args: argparse.Namespace) -> int:
    with open_store_or_fail(args.store) as store, store_errors_as_cli_errors():
        try:
            entry = append_lost_facts(store, args.append_back, note=args.note)
        except (AuditNotFoundError, NotAMergeError, ApplyInputError) as exc:
            raise CliError(str(exc)) from None
        except (RecheckError, StaleSourceError) as exc:
            return _refused(str(exc), args.json)
        path = store.path
    if args.json:
        print_json({"ok": True, **entry.to_dict(), "changes": entry.changes.to_dict()})
    else:
        print_text(f"audit {entry.audit_id}: appended the facts merge #{args.append_back} lost back to "
                   f"{entry.target_id}\nundo with: memgui undo --store {path} {entry.audit_id}")
    return EXIT_OK


__all__ = ["format_recheck", "run_append_back", "run_recheck"]
