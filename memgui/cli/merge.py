"""`memgui merge`, `memgui undo`, `memgui redo`: reviewer writes from the command line.

    memgui merge --store PATH --target ID --sources ID[,ID…] (--body-file F | --append | --union | --draft F)
                 [--draft F | --expect-stamps F] [--override-guard] [--note TEXT] [--json]

`--draft F` is the output of `memgui decide --json`: its sources' stamps (updated_at + content hash at draft
time) are checked, so a source the daemon changed after the draft makes the merge refuse instead of losing
that change; its merged body is used when no other body is given. `--expect-stamps F` gives the stamps alone
(`{"doc-…": {"updated_at": …, "content_hash": "…"}}`). Without either, the stamps are taken at merge time.
    memgui undo --store PATH AUDIT_ID [--note TEXT] [--json]
    memgui redo --store PATH AUDIT_ID [--note TEXT] [--json]

Exit codes: 0 written; 1 refused (guard failed without override, a source changed, undo conflict, entry in
the wrong state); 2 bad input (unknown store/document/audit id, unreadable body file).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.ops.apply import (
    MODE_APPEND, MODE_MERGED_BODY, MODE_UNION, ApplyInputError, GuardRefusedError, MergePlan, SourceStamp,
    StaleSourceError, draft_stamps, merge_cluster,
)
from ..core.store.audit_log import AuditEntry
from ..core.ops.undo import AuditError, AuditNotFoundError, UndoConflictError, redo, undo
from ..core.store import StoreError
from .common import EXIT_NEGATIVE, EXIT_OK, CliError, open_store_or_fail, print_json, print_text

STORE_HELP = "path to netclaw.db (default: located as Netclaw does, else the demo store)"


def register(subparsers) -> None:
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
    p.add_argument("--override-guard", action="store_true", help="write even if MergeGuard fails (recorded)")
    p.add_argument("--note", help="reviewer note stored in the audit entry")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_merge)

    for name, helptext in (("undo", "undo an audited write if its rows are unchanged since"),
                           ("redo", "re-apply an undone write if its rows are unchanged since")):
        q = subparsers.add_parser(name, help=helptext)
        q.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
        q.add_argument("audit_id", metavar="AUDIT_ID", type=int, help="the audit entry (see `memgui audit`)")
        q.add_argument("--note", help="reviewer note stored in the audit entry")
        q.add_argument("--json", action="store_true", help="machine-readable output")
        q.set_defaults(func=run_undo if name == "undo" else run_redo)


def _split_ids(text: str) -> list[str]:
    ids = [p.strip() for p in (text or "").split(",") if p.strip()]
    if not ids:
        raise CliError("--sources: give at least one document id")
    return list(dict.fromkeys(ids))


def _read_body(path: str) -> str:
    try:
        body = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not body.strip():
        raise CliError(f"{path}: the merged body is empty")
    return body


def _refused(message: str, as_json: bool, **extra) -> int:
    if as_json:
        print_json({"ok": False, "error": message, **extra})
    print(f"memgui: {message}", file=sys.stderr)
    return EXIT_NEGATIVE


def _summary(entry: AuditEntry, store_path) -> str:
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
    tombstoned = entry.details.get("tombstoned") or []
    if tombstoned:
        lines.append("tombstoned: " + ", ".join(tombstoned))
    lines.append(f"undo with: memgui undo --store {store_path} {entry.audit_id}")
    return "\n".join(lines)


def _read_json(path: str, what: str) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CliError(f"{path}: not a {what} ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: not a {what}")
    return data


def _stamps_from(data: dict, path: str) -> dict[str, SourceStamp]:
    try:
        return {doc_id: SourceStamp(str(s["content_hash"]), int(s["updated_at"])) for doc_id, s in data.items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CliError(f"{path}: each stamp needs updated_at and content_hash") from None


def run_merge(args) -> int:
    sources = _split_ids(args.sources)
    target = (args.target or "").strip()
    if not target:
        raise CliError("--target: give a document id")
    expected = None
    draft_body = None
    if args.draft:
        draft = _read_json(args.draft, "`memgui decide --json` output")
        if not isinstance(draft.get("stamps"), dict):
            raise CliError(f"{args.draft}: has no stamps (made by an older memgui decide?)")
        expected = _stamps_from(draft["stamps"], args.draft)
        draft_body = draft.get("merged_body") or None
    elif args.expect_stamps:
        expected = _stamps_from(_read_json(args.expect_stamps, "stamps file"), args.expect_stamps)
    if not (args.body_file or args.append or args.union or draft_body):
        raise CliError("give the body: --body-file FILE, --append, --union, or --draft FILE with a merged body")
    body = _read_body(args.body_file) if args.body_file else draft_body
    mode = MODE_APPEND if args.append else MODE_UNION if args.union else MODE_MERGED_BODY
    with open_store_or_fail(args.store) as store:
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
                         guard_override=args.override_guard, note=args.note, decided_by="cli")
        try:
            entry = merge_cluster(store, plan)
        except GuardRefusedError as exc:
            report = exc.report
            if args.json:
                print_json({"ok": False, "error": str(exc), "guard": report.to_dict()})
            print(f"memgui: merge refused: {report.reason}", file=sys.stderr)
            print("missing tokens: " + (", ".join(report.missing) or "none"), file=sys.stderr)
            print("nothing was written (use --append, or --override-guard to write anyway)", file=sys.stderr)
            return EXIT_NEGATIVE
        except StaleSourceError as exc:
            return _refused(str(exc), args.json, document_id=exc.document_id)
        except ApplyInputError as exc:
            raise CliError(str(exc)) from None
        except StoreError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            print_json({"ok": True, **entry.to_dict()})
        else:
            print_text(_summary(entry, store.path))
    return EXIT_OK


def _run_revert(args, action) -> int:
    with open_store_or_fail(args.store) as store:
        try:
            entry = action(store, args.audit_id, note=args.note)
        except AuditNotFoundError as exc:
            raise CliError(str(exc)) from None
        except UndoConflictError as exc:
            return _refused(str(exc), args.json, conflict={"kind": exc.kind, "key": exc.key})
        except AuditError as exc:
            return _refused(str(exc), args.json)
        except StoreError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            print_json({"ok": True, **entry.to_dict()})
        else:
            docs = ", ".join(entry.touched_documents) or "no documents"
            print_text(f"audit {entry.audit_id}: {entry.operation} of audit {entry.reverts_audit_id} "
                       f"({entry.details.get('reverted_operation')}); restored {docs}")
    return EXIT_OK


def run_undo(args) -> int:
    return _run_revert(args, undo)


def run_redo(args) -> int:
    return _run_revert(args, redo)
