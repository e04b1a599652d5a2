"""What the Audit tab asks the core for: the audit trail, exemptions and append histories, the daemon-log
timeline, undo / redo / allow-nomination, word diffs, threshold calibration, exports, and the re-check of past
merges with its append-back."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class AuditServices:
    list_entries: Callable[..., Any]  # (store) -> [AuditEntry]
    list_exemptions: Callable[..., Any]  # (store) -> [Exemption]
    appended_histories: Callable[..., Any]  # (store) -> [AppendHistory]
    history_of: Callable[..., Any]  # (document) -> AppendHistory
    default_log_dirs: Callable[..., Any]  # (store path) -> [Path]
    parse_daemon_logs_work: Callable[..., Any]  # (paths, *, cancel) -> Work[DaemonTimeline]
    unrecoverable_merges: Callable[..., Any]  # (store, timeline) -> [dict]
    undo: Callable[..., Any]  # (store, audit_id) -> AuditEntry
    redo: Callable[..., Any]
    allow_nomination: Callable[..., Any]  # (store, ids, note=) -> AuditEntry
    word_diff_work: Callable[..., Any]  # (a, b, *, cancel) -> Work[WordDiff]
    labelled_pairs_work: Callable[..., Any]  # (store, *, source, cosine_of, cancel) -> Work[[LabelledPair]]
    suggest_threshold: Callable[..., Any]  # (pairs) -> Calibration
    write_jsonl: Callable[..., Any]  # (path, entries) -> int
    write_markdown: Callable[..., Any]  # (path, entries, *, histories, daemon_events, unrecoverable, store_path)
    default_vector_source: Callable[..., Any]  # (store) -> the vector source the scan would use
    recheck_merges_work: Callable[..., Any]  # (store, *, cancel) -> Work[RecheckReport]
    append_lost_facts: Callable[..., Any]  # (store, audit_id, *, drafted) -> AuditEntry


def audit_services() -> AuditServices:
    from ...core.forensics import export
    from ...core.forensics.audit_report import unrecoverable_merges
    from ...core.forensics.calibrate import labelled_pairs_work, suggest_threshold
    from ...core.forensics.daemon_logs import default_log_dirs, parse_daemon_logs_work
    from ...core.forensics.history import appended_histories, history_of
    from ...core.forensics.recheck import append_lost_facts, recheck_merges_work
    from ...core.merge.diff import word_diff_work
    from ...core.ops.apply import allow_nomination
    from ...core.ops.undo import redo, undo
    from ...core.store.audit_log import list_entries
    from ...core.store.exemptions import list_exemptions
    from ...core.vectors.nominate import resolve_source

    return AuditServices(
        list_entries=list_entries, list_exemptions=list_exemptions, appended_histories=appended_histories,
        history_of=history_of, default_log_dirs=default_log_dirs, parse_daemon_logs_work=parse_daemon_logs_work,
        unrecoverable_merges=unrecoverable_merges, undo=undo, redo=redo, allow_nomination=allow_nomination,
        word_diff_work=word_diff_work, labelled_pairs_work=labelled_pairs_work, suggest_threshold=suggest_threshold,
        write_jsonl=export.write_jsonl, write_markdown=export.write_markdown,
        default_vector_source=lambda store: resolve_source(store, "auto")[0],
        recheck_merges_work=recheck_merges_work, append_lost_facts=append_lost_facts,
    )
