"""`memgui audit --store PATH [--json]`: memgui's own audited writes, newest first.

Filters: --operation OP (repeatable), --document ID, --guard passed|failed, --model ID, --limit N.
--images adds the full before/after images to the JSON output.
--recheck runs the current strict lens over every merge memgui wrote and lists those that now show a fact at
risk (exit 1 when any does); --append-back AUDIT_ID appends the facts that merge lost back to its target
(cli/recheck.py).
"""
from __future__ import annotations

import argparse

from ..core.forensics.audit_report import build_audit_report, format_audit_report
from ..core.forensics.daemon_logs import DaemonLogError
from ..core.netfx import format_timestamp
from ..core.store.audit_log import AuditEntry, Operation, list_entries
from . import recheck
from .common import (
    EXIT_OK,
    CliError,
    document_id_arg,
    int64_arg,
    open_store_or_fail,
    print_json,
    print_text,
    store_errors_as_cli_errors,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("audit", help="list memgui's audited writes (newest first)")
    p.add_argument("--store", default=argparse.SUPPRESS, help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    p.add_argument("--operation", action="append", help="only this operation (merge, drop, undo, …); repeatable")
    p.add_argument("--document", help="only entries touching this document id")
    p.add_argument("--guard", choices=("passed", "failed"), help="only entries whose guard passed / failed")
    p.add_argument("--model", help="only entries decided with this model id")
    p.add_argument("--limit", type=int64_arg, help="at most N entries")
    p.add_argument("--images", action="store_true", help="include before/after images in --json output")
    p.add_argument("--daemon-logs", action="append", metavar="DIR_OR_FILE",
                   help="Netclaw daemon log file or folder to read (repeatable; default: logs/ next to the store, "
                        "then $NETCLAW_HOME/logs)")
    p.add_argument("--recheck", action="store_true",
                   help="re-check every merge memgui wrote with the current lens; exit 1 when one shows a fact at risk")
    p.add_argument("--append-back", type=int64_arg, metavar="AUDIT_ID",
                   help="append the facts merge AUDIT_ID lost back to its target (audited, undoable)")
    p.add_argument("--note", help="with --append-back: a note for the audit row")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _time(ms: int) -> str:
    return format_timestamp(ms, seconds=True)


def format_entry(e: AuditEntry) -> str:
    guard = "-" if e.guard_passed is None else ("passed" if e.guard_passed else "FAILED")
    if e.guard_override:
        guard += " (override)"
    who = e.decided_by or "-"
    if e.model_id:
        who += f"/{e.model_id}"
    head = f"{e.audit_id:>5}  {_time(e.created_at)}  {e.operation:<18} {e.state:<8} guard={guard:<17} by={who}"
    target = e.target_id or "-"
    others = [s for s in e.source_ids if s != e.target_id]
    body = f"       target={target}" + (f"  sources={','.join(others)}" if others else "")
    if e.reverts_audit_id is not None:
        body += f"  reverts={e.reverts_audit_id}"
    outcome = e.details.get("outcome")
    if outcome:
        body += f"  outcome={outcome}"
    lines = [head, body]
    if e.note:
        lines.append(f"       note: {e.note}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    with store_errors_as_cli_errors():  # an audit row that is not what memgui writes: one line, exit 2
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.document is not None:
        document_id_arg(args.document, "--document")
    if args.recheck and args.append_back is not None:
        raise CliError("--recheck and --append-back: give one of them")
    if args.recheck:
        return recheck.run_recheck(args)
    if args.append_back is not None:
        return recheck.run_append_back(args)
    if args.limit is not None and args.limit < 0:
        raise CliError("--limit: must be ≥ 0")
    guard = None if args.guard is None else args.guard == "passed"
    # an operation this memgui does not name still filters (a newer memgui's rows), as it is read from the table
    operation = None if args.operation is None else [Operation.read(o) for o in args.operation]
    with open_store_or_fail(args.store, read_only=True) as store:
        entries = list_entries(store, operation=operation, document_id=args.document, guard_passed=guard,
                               model_id=args.model, limit=args.limit)
        try:
            report = build_audit_report(store, daemon_logs=args.daemon_logs or (), operation=operation,
                                        document_id=args.document, guard_passed=guard, model_id=args.model,
                                        limit=args.limit, images=args.images)
        except DaemonLogError as exc:
            raise CliError(str(exc)) from None
    if args.json:
        print_json(report)
    else:
        print_text("\n".join(format_entry(e) for e in entries) if entries else "no audited writes")
        print_text("")
        print_text(format_audit_report(report, memgui=False))
    return EXIT_OK
