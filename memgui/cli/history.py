"""`memgui history --store PATH (--doc ID | --anchor NAME_OR_ID) [--json]`: what the memory said when (issue 38).

For one document, or every document of one anchor (tombstoned ones too, marked), the timeline oldest first: memgui's
own audited writes (the text after each, and whether it was undone), the daemon's append histories
(`_[merged YYYY-MM-DD]_`), the inline "previously … as of YYYY-MM-DD" phrases and the rows' created_at, updated_at
and freshness_at (core/forensics/timeline.py). The store is opened read-only: nothing is written.

JSON: {"subject": {"kind", "id", "name", "anchor_id", "tombstoned", "documents": [...]}, "entries": [{"date",
"time_ms", "source", "kind", "document_id", "title", "text", "before", "audit_id", "state", "tombstoned", "note",
"repaired"}, ...], "notes": [...]}.

Exit codes: 0 the timeline was printed; 2 bad input (no such document or anchor, an unreadable store).
"""
from __future__ import annotations

import argparse

from ..core.forensics.timeline import (
    SOURCE_ANCHOR,
    SOURCE_APPEND,
    SOURCE_AUDIT,
    SOURCE_DOCUMENT,
    SOURCE_INLINE,
    Subject,
    Timeline,
    TimelineEntry,
    UnknownSubjectError,
    history_timeline,
)
from ..core.netfx import format_timestamp, is_blank
from .common import (
    EXIT_OK,
    CliError,
    document_id_arg,
    open_store_or_fail,
    print_json,
    print_text,
    store_errors_as_cli_errors,
)

SOURCE_LABELS = {SOURCE_DOCUMENT: "document", SOURCE_ANCHOR: "anchor", SOURCE_AUDIT: "memgui",
                 SOURCE_APPEND: "append history", SOURCE_INLINE: "history phrase"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("history", help="what a document or an anchor said when, oldest first (read-only)")
    p.add_argument("--store", default=argparse.SUPPRESS,
                   help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--doc", metavar="ID", help="one document id")
    which.add_argument("--anchor", metavar="NAME_OR_ID", help="an anchor's name (home router) or id (anchor:home-router)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def when_text(e: TimelineEntry) -> str:
    if e.time_ms is not None:
        return format_timestamp(e.time_ms)
    return e.date or "(no date)"


def format_entry(e: TimelineEntry, *, with_title: bool) -> str:
    kind = e.kind + (f" #{e.audit_id}" if e.audit_id is not None else "")
    marks = [m for m, on in (("undone", e.undone), ("tombstoned", e.tombstoned), ("text repaired", e.repaired)) if on]
    head = f"{when_text(e):<23} {SOURCE_LABELS.get(e.source, e.source):<15} {kind}"
    if marks:
        head += f" [{', '.join(marks)}]"
    if with_title and e.title:
        head += f" — {e.title}"
    lines = [head]
    text = e.text.strip()
    lines.extend(f"    {line}" for line in (text.splitlines() if text else ["(no text)"]))
    if e.note:
        lines.append(f"    ({e.note})")
    return "\n".join(lines)


def format_timeline(t: Timeline) -> str:
    if t.subject_kind == Subject.ANCHOR:
        n = len(t.documents)
        head = f"History of anchor “{t.name}” ({t.subject_id}): {n} document{'' if n == 1 else 's'}"
    else:
        head = f"History of document “{t.name or t.subject_id}” ({t.subject_id})"
        if t.anchor_id:
            head += f", anchor {t.anchor_id}"
    if t.tombstoned:
        head += " [tombstoned]"
    head += f"; {len(t.entries)} entr{'y' if len(t.entries) == 1 else 'ies'}, oldest first"
    parts = [head, *(f"note: {n}" for n in t.notes), ""]
    parts.extend(format_entry(e, with_title=t.subject_kind == Subject.ANCHOR) for e in t.entries)
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    doc = None if args.doc is None else document_id_arg(args.doc, "--doc")
    anchor = args.anchor
    if anchor is not None and is_blank(anchor):
        raise CliError("--anchor: an empty anchor name; nothing was done")
    for option, value in (("--doc", doc), ("--anchor", anchor)):
        if value is not None and not _utf8(value):
            raise CliError(f"{option}: not valid UTF-8 text; nothing was done")
    with open_store_or_fail(args.store, read_only=True) as store, store_errors_as_cli_errors():
        try:
            timeline = history_timeline(store, document_id=doc, anchor=anchor)
        except UnknownSubjectError as exc:
            raise CliError(f"history: {exc}; nothing was written") from None
    if args.json:
        print_json(timeline.as_dict())
    else:
        print_text(format_timeline(timeline))
    return EXIT_OK


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
