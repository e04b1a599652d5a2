"""What the Audit tab asks the core for: the audit trail, exemptions and append histories, the daemon-log
timeline, undo / redo / allow-nomination, word diffs, threshold calibration, exports, and the re-check of past
merges with its append-back."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Protocol

from .types import (
    AuditEntry,
    Calibration,
    CancelToken,
    CosineLookup,
    DaemonTimeline,
    Document,
    DocumentHistory,
    Exemption,
    LabelledPair,
    RecheckReport,
    SourceStamp,
    Store,
    VectorSource,
    WordDiff,
    Work,
    Written,
)

StorePath = str | PathLike[str]


class ListEntries(Protocol):
    def __call__(self, store: Store, *, limit: int | None = None) -> list[AuditEntry]: ...


class AppendedHistories(Protocol):
    def __call__(self, store: Store) -> list[DocumentHistory]: ...


class ParseDaemonLogs(Protocol):
    def __call__(self, paths: Sequence[StorePath], *, cancel: CancelToken | None = None) -> Work[DaemonTimeline]: ...


class UndoRedo(Protocol):
    def __call__(self, store: Store, audit_id: int, *, note: str | None = None) -> Written: ...


class WordDiffWork(Protocol):
    def __call__(self, a: str, b: str, *, cancel: CancelToken | None = None) -> Work[WordDiff]: ...


class LabelledPairsWork(Protocol):
    def __call__(self, store: Store, *, source: VectorSource | None = None, cosine_of: CosineLookup | None = None,
                 cancel: CancelToken | None = None) -> Work[list[LabelledPair]]: ...


class WriteJsonl(Protocol):
    def __call__(self, path: StorePath, entries: Iterable[AuditEntry]) -> int: ...


class WriteMarkdown(Protocol):
    """The audit report: the entries, the append histories, the daemon's events and its unrecoverable merges."""

    def __call__(self, path: StorePath, entries: Iterable[AuditEntry], **kw: object) -> Path: ...


class RecheckWork(Protocol):
    def __call__(self, store: Store, *, cancel: CancelToken = ...) -> Work[RecheckReport]: ...


class AllowNomination(Protocol):
    def __call__(self, store: Store, doc_ids: Iterable[str], note: str | None = None) -> Written: ...


class AppendLostFacts(Protocol):
    def __call__(self, store: Store, audit_id: int, *, drafted: SourceStamp | None = None) -> Written: ...


@dataclass
class AuditServices:
    list_entries: ListEntries
    list_exemptions: Callable[[Store], list[Exemption]]
    appended_histories: AppendedHistories
    history_of: Callable[[Document], DocumentHistory]
    default_log_dirs: Callable[[StorePath | None], list[Path]]  # (store path) -> the daemon's log folders
    parse_daemon_logs_work: ParseDaemonLogs
    # (store, timeline) -> the daemon's in-place overwrites, with what the store still has of each (JSON rows)
    unrecoverable_merges: Callable[[Store, DaemonTimeline], list[dict[str, object]]]
    undo: UndoRedo
    redo: UndoRedo
    allow_nomination: AllowNomination
    word_diff_work: WordDiffWork
    labelled_pairs_work: LabelledPairsWork
    suggest_threshold: Callable[[Iterable[LabelledPair]], Calibration]
    write_jsonl: WriteJsonl  # -> lines written
    write_markdown: WriteMarkdown
    default_vector_source: Callable[[Store], VectorSource]  # the vector source the scan would use
    recheck_merges_work: RecheckWork
    append_lost_facts: AppendLostFacts


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
