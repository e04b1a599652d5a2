"""`memgui merge`, `memgui undo`, `memgui redo`: reviewer writes from the command line.

    memgui merge --store PATH --target ID --sources ID[,ID…] (--body-file F | --append | --union | --draft F)
                 [--draft F | --expect-stamps F | --force] [--override-guard] [--note TEXT] [--json]

`--draft F` is the output of `memgui decide --json`: its sources' stamps (updated_at + content hash at draft
time) are checked, so a source the daemon changed after the draft makes the merge refuse instead of losing
that change; its merged body is used when no other body is given. `--expect-stamps F` gives the stamps alone
(`{"doc-…": {"updated_at": …, "content_hash": "…"}}`). `--body-file` needs one of them (the body was written
from what the reviewer read: a source changed since refuses) or `--force`, which merges over whatever the
sources hold now and is recorded in the audit (`details.forced`). `--append` and `--union` read the sources
at merge time (nothing drafted earlier can be stale). Every file is read through core/store/seams.py: a
malformed one is one line and exit 2.
    memgui undo --store PATH [AUDIT_ID] [--note TEXT] [--json]
    memgui redo --store PATH [AUDIT_ID] [--note TEXT] [--json]

Without AUDIT_ID, `undo` undoes the newest reviewer write still standing and `redo` redoes the write the newest
undo reverted (core/ops/history.py: the history the window's Ctrl+Z reads, over every reviewer and CLI write).
With --json every write prints what it changed under "changes" (core/ops/changes.py).

Exit codes: 0 written; 1 refused (guard failed without override, a source changed, undo conflict, entry in
the wrong state); 2 bad input (unknown store/document/audit id, unreadable body file).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from ..core.netfx import is_blank
from ..core.ops.apply import (
    MODE_APPEND,
    MODE_MERGED_BODY,
    MODE_UNION,
    ApplyInputError,
    GuardRefusedError,
    MergePlan,
    SourceStamp,
    StaleSourceError,
    draft_stamps,
    merge_cluster,
)
from ..core.ops.changes import Written
from ..core.ops.history import HistoryScope, redo_last, undo_last
from ..core.ops.undo import AuditError, AuditNotFoundError, UndoConflictError, redo, undo
from ..core.store import StoreError
from .common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    CliError,
    document_id_arg,
    document_ids_arg,
    int64_arg,
    open_store_or_fail,
    print_json,
    print_text,
    read_seam,
    read_text,
    store_errors_as_cli_errors,
)

STORE_HELP = "path to netclaw.db (default: located as Netclaw does, else the demo store)"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("merge", help="merge documents into a target (guarded), tombstoning the others")
    p.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
    p.add_argument("--target", required=True, help="document id that keeps its identity and receives the body")
    p.add_argument("--sources", required=True, help="comma-separated document ids merged into the target")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--body-file", metavar="FILE", help="the merged body (checked by MergeGuard)")
    mode.add_argument("--append", action="store_true", help="append every source to the target (lossless)")
    mode.add_argument("--union", action="store_true", help="deterministic sentence union of the sources")
    stamps = p.add_mutually_exclusive_group()
    stamps.add_argument("--draft", metavar="FILE",
                        help="`memgui decide --json` output: refuse if a source changed since; its body if none given")
    stamps.add_argument("--expect-stamps", metavar="FILE", help="JSON {id: {updated_at, content_hash}} to check")
    p.add_argument("--force", action="store_true",
                   help="with --body-file and no stamps: merge whatever the sources hold now (recorded in the audit)")
    p.add_argument("--override-guard", action="store_true", help="write even if MergeGuard fails (recorded)")
    p.add_argument("--note", help="reviewer note stored in the audit entry")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_merge)

    for name, helptext in (("undo", "undo an audited write if its rows are unchanged since"),
                           ("redo", "re-apply an undone write if its rows are unchanged since")):
        q = subparsers.add_parser(name, help=helptext)
        q.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
        q.add_argument("audit_id", metavar="AUDIT_ID", type=int64_arg, nargs="?", default=None,
                       help=f"the audit entry (see `memgui audit`); default: the newest reviewer write to {name}")
        q.add_argument("--note", help="reviewer note stored in the audit entry")
        q.add_argument("--json", action="store_true", help="machine-readable output")
        q.set_defaults(func=run_undo if name == "undo" else run_redo)


def _read_body(path: str) -> str:
    body = read_text(path, "a merged body (UTF-8 text)")
    if is_blank(body):
        raise CliError(f"{path}: the merged body is empty")
    return body


def _refused(message: str, as_json: bool, **extra: Any) -> int:
    if as_json:
        print_json({"ok": False, "error": message, **extra})
    print(f"memgui: {message}", file=sys.stderr)
    return EXIT_NEGATIVE


def _summary(entry: Written, store_path: str | os.PathLike[str]) -> str:
    guard = entry.guard_report or {}
    if entry.guard_passed is None:
        verdict = "no guard"
    elif entry.guard_passed:
        verdict = f"guard passed (retention {guard.get('retention', 1.0):.0%})"
    else:
        verdict = "guard FAILED — overridden by the reviewer"
    after = entry.after.get("documents", {}).get(entry.target_id or "", {}).get("row") or {}
    lines = [
        f"audit {entry.audit_id}: {entry.operation} into {entry.target_id} "
        f"({after.get('update_semantics', '?')}, {verdict})",
    ]
    if entry.details.get("forced"):
        lines.append("forced: no stamps were given; merged over whatever the sources held (recorded in the audit)")
    tombstoned = entry.details.get("tombstoned") or []
    if tombstoned:
        lines.append("tombstoned: " + ", ".join(tombstoned))
    lines.append(f"undo with: memgui undo --store {store_path} {entry.audit_id}")
    return "\n".join(lines)


def _stamps_from(stamps: dict[str, Any]) -> dict[str, SourceStamp]:
    """The validated stamps of a draft or stamps file (core/store/seams.py) as SourceStamps."""
    return {doc_id: SourceStamp(s.content_hash, s.updated_at, s.body_hash) for doc_id, s in stamps.items()}


def _drafted_from(args: argparse.Namespace) -> tuple[dict[str, SourceStamp] | None, str | None]:
    """The stamps the body was written from (--draft or --expect-stamps; None when neither is given) and the
    draft's merged body (None when there is no draft or its body is blank)."""
    if args.draft:
        from ..core.store.seams import read_draft

        draft = read_seam(read_draft, args.draft)
        return _stamps_from(draft.stamps), None if is_blank(draft.merged_body) else draft.merged_body
    if args.expect_stamps:
        from ..core.store.seams import read_stamps_file

        return _stamps_from(read_seam(read_stamps_file, args.expect_stamps)), None
    return None, None


def _guard_refused(exc: GuardRefusedError, as_json: bool) -> int:
    """MergeGuard refused the body: say why (and the guard's report as JSON when asked); nothing was written."""
    report = exc.report
    if as_json:
        print_json({"ok": False, "error": str(exc), "guard": report.to_dict()})
    print(f"memgui: merge refused: {report.reason}", file=sys.stderr)
    print("missing tokens: " + (", ".join(report.missing) or "none"), file=sys.stderr)
    print("nothing was written (use --append, or --override-guard to write anyway)", file=sys.stderr)
    return EXIT_NEGATIVE


def run_merge(args: argparse.Namespace) -> int:
    target = document_id_arg(args.target, "--target")
    sources = document_ids_arg(args.sources, "--sources")
    if (args.note or "").startswith("accept-safe batch "):
        raise CliError("--note: a note starting 'accept-safe batch ' would put this write in a batch; nothing was written")
    expected, draft_body = _drafted_from(args)
    if not (args.body_file or args.append or args.union or draft_body):
        raise CliError("give the body: --body-file FILE, --append, --union, or --draft FILE with a merged body")
    body = _read_body(args.body_file) if args.body_file else draft_body
    if args.body_file and expected is None and not args.force:
        raise CliError("--body-file needs the stamps of what the body was written from: --expect-stamps FILE (or "
                       "--draft FILE), or --force to merge whatever the sources hold now (recorded); nothing was written")
    mode = MODE_APPEND if args.append else MODE_UNION if args.union else MODE_MERGED_BODY
    with open_store_or_fail(args.store) as store, store_errors_as_cli_errors():
        cluster = list(dict.fromkeys([target, *sources]))
        current = draft_stamps(store, cluster)
        unknown = [i for i in cluster if i not in current]
        if unknown:
            raise CliError(f"{unknown[0]}: no such document in {store.path}")
        if expected is not None:
            undrafted = [i for i in cluster if i not in expected]
            if undrafted:
                raise CliError(f"{undrafted[0]}: not among the draft's sources; nothing was written")
        drafted = expected if expected is not None else current
        plan = MergePlan(target_id=target, source_ids=tuple(sources), mode=mode, merged_body=body, drafted=drafted,
                         guard_override=args.override_guard, note=args.note, decided_by="cli",
                         forced=bool(args.force and expected is None and mode == MODE_MERGED_BODY))
        try:
            entry = merge_cluster(store, plan)
        except GuardRefusedError as exc:
            return _guard_refused(exc, args.json)
        except StaleSourceError as exc:
            return _refused(str(exc), args.json, document_id=exc.document_id)
        except ApplyInputError as exc:
            raise CliError(str(exc)) from None
        except StoreError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            print_json({"ok": True, **entry.to_dict(), "changes": entry.changes.to_dict()})
        else:
            print_text(_summary(entry, store.path))
    return EXIT_OK


def _run_revert(args: argparse.Namespace, action: Callable[..., Written], last: Callable[..., Written]) -> int:
    with open_store_or_fail(args.store) as store, store_errors_as_cli_errors():
        try:
            entry = (last(store, HistoryScope(), note=args.note) if args.audit_id is None
                     else action(store, args.audit_id, note=args.note))
        except AuditNotFoundError as exc:
            raise CliError(str(exc)) from None
        except UndoConflictError as exc:
            return _refused(str(exc), args.json, conflict={"kind": exc.kind, "key": exc.key})
        except AuditError as exc:
            return _refused(str(exc), args.json)
        except StoreError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            print_json({"ok": True, **entry.to_dict(), "changes": entry.changes.to_dict()})
        else:
            docs = ", ".join(entry.touched_documents) or "no documents"
            print_text(f"audit {entry.audit_id}: {entry.operation} of audit {entry.reverts_audit_id} "
                       f"({entry.details.get('reverted_operation')}); restored {docs}")
    return EXIT_OK


def run_undo(args: argparse.Namespace) -> int:
    return _run_revert(args, undo, undo_last)


def run_redo(args: argparse.Namespace) -> int:
    return _run_revert(args, redo, redo_last)
