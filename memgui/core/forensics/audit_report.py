"""Everything the store and the daemon logs can say about past merges, as one value for `memgui audit`.

`build_audit_report(store, daemon_logs=…)` returns exactly

    {"memgui": [AuditEntry.to_dict(), …],                       # memgui's own writes, newest first
     "appended_histories": [{document_id, title, segments: [{date, text}]}],
     "daemon_events": [{time, marker, anchor, document_id, fields}],
     "daemon_log_stats": {files, lines, parsed, skipped_malformed},
     "unrecoverable_merges": [{document_id, title, in_store, time, marker, anchor, how, message}]}

`unrecoverable_merges` lists the daemon's in-place overwrites found in the logs (guard-passed merges and
deterministic updates): for those the body before the merge cannot be recovered from the store.
`format_audit_report` renders the same value as text for the terminal.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..store import Store
from ..store.audit_log import Operation, list_entries
from ..tasks import CancelToken, Progress, Step, Work, run_to_end
from .daemon_logs import (
    EMPTY_TIMELINE,
    DaemonTimeline,
    default_log_dirs,
    parse_daemon_logs_work,
)
from .daemon_overwrites import daemon_overwrites
from .history import UNRECOVERABLE_MESSAGE, appended_histories


def unrecoverable_merges(store: Store, timeline: DaemonTimeline, document_id: str | None = None) -> list[dict[str, Any]]:
    """The daemon's in-place overwrites named in the logs, with what the store still has of each document."""
    found = daemon_overwrites(timeline.events)
    if document_id is not None:
        found = [o for o in found if o.document_id == document_id]
    docs = {d.document_id: d for d in store.documents_by_ids({o.document_id for o in found})}
    out = []
    for o in found:
        doc = docs.get(o.document_id)
        if doc is None:
            message = "The document is no longer in the store; " + UNRECOVERABLE_MESSAGE[0].lower() + UNRECOVERABLE_MESSAGE[1:]
        else:
            message = f"{o.how}. " + UNRECOVERABLE_MESSAGE
            if doc.update_semantics == "append-document":
                message += " Later appends are kept (see its append history); the text before this merge is not."
        out.append({
            "document_id": o.document_id, "title": doc.title if doc else None, "in_store": doc is not None,
            "time": o.event.time, "marker": o.event.marker, "anchor": o.event.anchor, "how": o.how,
            "message": message,
        })
    return out


def build_audit_report_work(
    store: Store,
    *,
    daemon_logs: Sequence[str | os.PathLike[str]] = (),
    default_logs: bool = True,
    operation: Operation | Iterable[Operation] | None = None,
    document_id: str | None = None,
    guard_passed: bool | None = None,
    model_id: str | None = None,
    limit: int | None = None,
    images: bool = False,
    cancel: CancelToken | None = None,
) -> Work[dict[str, Any]]:
    """Generator form of `build_audit_report` (yields Progress while the logs are read)."""
    yield Progress(Step.AUDIT, 0, None, "reading memgui's audit trail")
    entries = list_entries(store, operation=operation, document_id=document_id, guard_passed=guard_passed,
                           model_id=model_id, limit=limit)
    histories = appended_histories(store, document_ids=None if document_id is None else [document_id])
    paths: list[str | os.PathLike[str]] = list(daemon_logs)
    if not paths and default_logs:
        paths = list(default_log_dirs(store.path))
    timeline = EMPTY_TIMELINE
    if paths:
        timeline = yield from parse_daemon_logs_work(paths, cancel=cancel)
    events = timeline.events if document_id is None else tuple(timeline.for_document(document_id))
    return {
        "memgui": [e.to_dict(images=images) for e in entries],
        "appended_histories": [h.as_dict() for h in histories],
        "daemon_events": [e.as_dict() for e in events],
        "daemon_log_stats": timeline.stats.as_dict(),
        "unrecoverable_merges": unrecoverable_merges(store, timeline, document_id),
    }


def build_audit_report(store: Store, *, daemon_logs: Sequence[str | os.PathLike[str]] = (), **filters: Any) -> dict[str, Any]:
    """memgui's writes, the append histories the store keeps, and the daemon-log timeline.

    `daemon_logs`: files or folders to read; when empty, `{store folder}/logs` and `$NETCLAW_HOME/logs` are read
    if they exist (pass `default_logs=False` to read none). Filters: operation, document_id (also narrows the
    histories and daemon events to that document), guard_passed, model_id, limit; `images=True` adds the
    before/after images. Raises daemon_logs.DaemonLogError (a ValueError, one line) for a named path that
    does not exist."""
    return run_to_end(build_audit_report_work(store, daemon_logs=daemon_logs, **filters))


# ---- terminal text -------------------------------------------------------------------------------------------


def format_audit_report(report: dict[str, Any], *, entry_formatter: Callable[[dict[str, Any]], str] | None = None,
                        memgui: bool = True) -> str:
    """The report as text. `entry_formatter(dict) -> str` renders one memgui entry; `memgui=False` leaves
    memgui's writes out (for a caller that lists them its own way) and starts with the append histories."""
    from .export import OPERATION_TITLES

    lines: list[str] = []
    entries = report.get("memgui") or []
    if memgui:
        lines.append(f"memgui writes: {len(entries)}" if entries else "no audited writes")
    for d in entries if memgui else ():
        if entry_formatter is not None:
            lines.append(entry_formatter(d))
        else:
            guard = "-" if d.get("guard_passed") is None else ("passed" if d["guard_passed"] else "FAILED")
            lines.append(f"  #{d['audit_id']:<5} {OPERATION_TITLES.get(d['operation'], d['operation']):<26} "
                         f"{d['state']:<8} guard={guard:<7} target={d.get('target_id') or '-'}")
    histories = report.get("appended_histories") or []
    if lines:
        lines.append("")
    lines.append(f"append histories in the store: {len(histories)}")
    for h in histories:
        dates = [s["date"] for s in h["segments"] if s["date"]]
        lines.append(f"  {h['document_id']}  {h.get('title') or ''}  — original + {len(dates)} addition(s)"
                     + (f" ({', '.join(dates)})" if dates else ""))
    stats = report.get("daemon_log_stats") or {}
    events = report.get("daemon_events") or []
    lines.append("")
    if stats.get("files"):
        lines.append(f"daemon logs: {stats['files']} file(s), {stats['lines']} line(s), {stats['parsed']} curation "
                     f"event(s), {stats['skipped_malformed']} malformed line(s) skipped")
        for e in events:
            extra = " ".join(f"{k}={v}" for k, v in (e.get("fields") or {}).items() if k != "anchor")
            lines.append(f"  {e.get('time') or '(no time)':<32} {e['marker']:<34} {extra}")
    else:
        lines.append("daemon logs: none read (pass --daemon-logs DIR_OR_FILE)")
    gone = report.get("unrecoverable_merges") or []
    if gone:
        lines.append("")
        lines.append(f"daemon merges whose earlier body cannot be recovered from the store: {len(gone)}")
        for u in gone:
            lines.append(f"  {u['document_id']}  {u.get('time') or ''}  {u['how']}")
    return "\n".join(lines)


__all__ = ["build_audit_report", "build_audit_report_work", "format_audit_report", "unrecoverable_merges"]
