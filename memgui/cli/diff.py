"""`memgui diff --store PATH --docs A,B [--json]`: conflict evidence between two documents.

What one states that the other lacks, facts of the same class with different values (versions, dates, times,
numbers, names, identifiers), and the source-vs-source word diff. Nothing is written. Exit 0, or 2 on bad input.

JSON: {"only_in": {A: [...], B: [...]}, "conflicts": [{"class", A: [...], B: [...]}], "spans": [...],
"likely_different": bool, "reason": str}.
"""
from __future__ import annotations

import argparse

from ..core.merge.conflicts import likely_different, pair_evidence
from .common import (
    EXIT_OK,
    CliError,
    document_ids_arg,
    open_store_or_fail,
    print_json,
    print_text,
    store_errors_as_cli_errors,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "diff",
        help="what differs between two documents: facts only one states, conflicting values, word diff",
        description="Conflict evidence between two documents of a cluster. Nothing is written.",
    )
    p.add_argument("--store", default=argparse.SUPPRESS, help="path to netclaw.db (default: located as Netclaw does)")
    p.add_argument("--docs", required=True, metavar="A,B", help="two document ids, separated by a comma")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _two_ids(text: str) -> tuple[str, str]:
    ids = document_ids_arg(text, "--docs")
    if len(ids) != 2:
        raise CliError("--docs needs exactly two distinct document ids, separated by a comma")
    return ids[0], ids[1]


def run(args: argparse.Namespace) -> int:
    a_id, b_id = _two_ids(args.docs)
    store = open_store_or_fail(getattr(args, "store", None), read_only=True)
    try:
        with store_errors_as_cli_errors():
            docs = {d.document_id: d for d in store.documents_by_ids([a_id, b_id])}
    finally:
        store.close()
    missing = [i for i in (a_id, b_id) if i not in docs]
    if missing:
        raise CliError(f"no such document in {store.path.name}: {', '.join(missing)}")
    a, b = docs[a_id], docs[b_id]
    evidence = pair_evidence(a.markdown_body, b.markdown_body, a_title=a.title, b_title=b.title)
    mark = likely_different([a.markdown_body, b.markdown_body], [a.title, b.title])
    if args.json:
        print_json({**evidence.to_dict(a_id, b_id), "likely_different": mark.likely_different, "reason": mark.reason})
        return EXIT_OK
    lines = [f"A {a_id}  {a.title}", f"B {b_id}  {b.title}"]
    if mark.likely_different:
        lines.append(f"likely different facts: {mark.reason}")
    for c in evidence.conflicts:
        lines.append(f"conflict  {c.fact_class:<10} A: {', '.join(c.a)}   B: {', '.join(c.b)}")
    for label, only in (("A", evidence.only_in_a), ("B", evidence.only_in_b)):
        if only:
            lines.append(f"only in {label}: {', '.join(f for f, _ in only)}")
    diff = "".join(
        s.a_text if s.op == "equal" else
        (f"[-{s.a_text}-]" if s.a_text.strip() else "") + (f"{{+{s.b_text}+}}" if s.b_text.strip() else "")
        for s in evidence.spans
    )
    lines += ["", diff]
    print_text("\n".join(lines))
    return EXIT_OK
