"""What the Audit tab's "History" page asks the core for: the subjects it can show (anchors and documents) and the
timeline of one of them (core/forensics/timeline.py). Injected into the page, so tests swap in fakes."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ...core.forensics.timeline import (
    SOURCE_ANCHOR,
    SOURCE_APPEND,
    SOURCE_AUDIT,
    SOURCE_DOCUMENT,
    SOURCE_INLINE,
    HistorySubject,
    Subject,
    Timeline,
    TimelineDocument,
    TimelineEntry,
    UnknownSubjectError,
)
from .types import Store


class HistoryTimeline(Protocol):
    """The timeline of a document (`document_id`) or an anchor (`anchor`: its id or name); UnknownSubjectError
    when the store has no such one."""

    def __call__(self, store: Store, *, document_id: str | None = None, anchor: str | None = None) -> Timeline: ...


@dataclass
class HistoryServices:
    subjects: Callable[[Store], list[HistorySubject]]
    timeline: HistoryTimeline


def history_services() -> HistoryServices:
    from ...core.forensics.timeline import history_subjects, history_timeline

    return HistoryServices(subjects=history_subjects, timeline=history_timeline)


__all__ = [
    "SOURCE_ANCHOR",
    "SOURCE_APPEND",
    "SOURCE_AUDIT",
    "SOURCE_DOCUMENT",
    "SOURCE_INLINE",
    "HistoryServices",
    "HistorySubject",
    "HistoryTimeline",
    "Subject",
    "Timeline",
    "TimelineDocument",
    "TimelineEntry",
    "UnknownSubjectError",
    "history_services",
]
