"""`memgui supersede`: one note is the newer state of what the others say (issue 38).

    memgui supersede --store PATH --docs ID,ID[,ID…] [--dry-run] [--json] [--model FILE | --no-model]
                     [--reviewer-reads-supersedes] [--note TEXT]

The notes are ordered by their freshness and the dates they state (doubt is never guessed), dated series are
refused, and the local model reads whether the newest note replaces the others (core/decide/supersession.py).
When the reading is "supersedes", the draft keeps the newest note whole as the present fact and each older
statement it replaces as `(previously: …, as of YYYY-MM-DD)`; it is checked, then written into the newest note
(the others tombstoned) in one audited, undoable transaction. `--dry-run` prints the reading and the draft and
writes nothing. `--reviewer-reads-supersedes` is a person's reading instead of the model's (the order and the
dated-series rule still hold).

JSON: "reading" (supersedes | dated-series | undecided), "reason", "order" (ids, oldest first), "newest",
"merged_body" (null unless supersedes), "history", "check", "written", and "changes" when written.

Exit codes: 0 written (or a dry run of a supersession); 1 not a supersession (nothing written) or refused by a
check; 2 bad input (unknown store or document, a tombstoned document, fewer than two documents, a bad model file).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.merge.supersede import Reading
from ..core.ops.apply import ApplyInputError, GuardRefusedError, StaleSourceError
from ..core.ops.supersede import SupersedeRefusedError, SupersessionPlan, plan_supersession, write_supersession
from ..core.tasks import run_to_end
from .common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    CliError,
    decider_model_path,
    document_ids_arg,
    open_store_or_fail,
    print_json,
    print_text,
    shown,
    store_errors_as_cli_errors,
)

STORE_HELP = "path to netclaw.db (default: located as Netclaw does, else the demo store)"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("supersede", help="write the newest note as the current state, the older as dated "
                                                "history (audited, undoable)")
    p.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
    p.add_argument("--docs", required=True, help="comma-separated document ids (two or more)")
    p.add_argument("--dry-run", action="store_true", help="print the reading and the draft; write nothing")
    models = p.add_mutually_exclusive_group()
    models.add_argument("--model", metavar="FILE", help="GGUF model that reads the notes (default: the installed one)")
    models.add_argument("--no-model", action="store_true", help="read without a model (the reading is then "
                                                                 "'undecided' unless a person reads it)")
    p.add_argument("--reviewer-reads-supersedes", action="store_true",
                   help="a person reads the newest note as the newer state (instead of the model)")
    p.add_argument("--note", help="reviewer note stored in the audit entry")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_supersede)


def _reader(args: argparse.Namespace) -> Any:
    if args.no_model or args.reviewer_reads_supersedes:
        return None
    path = decider_model_path(args.model)
    if path is None:
        return None
    from ..core.decide.llm import LlamaDecider
    from ..core.decide.supersede_reader import SupersedeReader
    from ..core.store.reader_cache import ReaderCache

    decider = LlamaDecider(path)
    run_to_end(decider.load())
    return SupersedeReader(decider.engine, cache=ReaderCache())


def _text(plan: SupersessionPlan) -> str:
    lines = [f"reading: {plan.reading.reading.value} — {plan.reading.reason}"]
    if plan.reading.order.ordered:
        lines.append("order (oldest first): " + " → ".join(plan.order_ids))
    if plan.draft is not None:
        lines += ["", shown(plan.draft.body), ""]
        for h in plan.draft.history:
            lines.append(f"history: {shown(h.phrase)}")
    return "\n".join(lines)


def run_supersede(args: argparse.Namespace) -> int:
    ids = document_ids_arg(args.docs, "--docs")
    reader = _reader(args)
    with open_store_or_fail(args.store, read_only=args.dry_run) as store, store_errors_as_cli_errors():
        try:
            plan = run_to_end(plan_supersession(store, ids, reader,
                                                reviewer_reads_supersedes=args.reviewer_reads_supersedes))
        except ApplyInputError as exc:
            raise CliError(f"{exc}; nothing was written") from None
        out: dict[str, Any] = {**plan.to_dict(), "dry_run": bool(args.dry_run), "written": False}
        if plan.reading.reading is not Reading.SUPERSEDES:
            return _finish(args, plan, out, EXIT_NEGATIVE, "not a supersession: nothing was written")
        if args.dry_run:
            return _finish(args, plan, out, EXIT_OK, "dry run: nothing was written")
        try:
            entry = write_supersession(store, plan, note=args.note, decided_by="cli")
        except (SupersedeRefusedError, GuardRefusedError, StaleSourceError) as exc:
            out["error"] = str(exc)
            return _finish(args, plan, out, EXIT_NEGATIVE, f"refused: {exc}")
        out.update(written=True, audit_id=entry.audit_id, changes=entry.changes.to_dict())
        return _finish(args, plan, out, EXIT_OK, f"written: audit {entry.audit_id}; undo with: memgui undo --store "
                                                 f"{store.path} {entry.audit_id}")


def _finish(args: argparse.Namespace, plan: SupersessionPlan, out: dict[str, Any], code: int, last: str) -> int:
    if args.json:
        print_json(out)
    else:
        print_text(_text(plan) + "\n" + last)
    if code != EXIT_OK and not args.json:
        print(f"memgui: {last}", file=sys.stderr)
    return code
