"""What the `Review` controller's helpers (`Drafting`, `Evidence`, `Writes`) share: the cluster under review and
the panels, services and runner they work with. A Protocol the controller satisfies, so each helper names the
state it reads and writes with its type, rather than holding an untyped back-reference to the controller."""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QTimer, SignalInstance

from ..dialogs import Prompter
from ..services import Services
from ..services.types import (
    DeciderResult,
    DifferentFactsMark,
    Document,
    FactGroups,
    MergeGuardReport,
    PairEvidence,
    Preselection,
    SourceStamp,
    StrictReport,
)
from ..workers import TaskRunner
from .cluster_model import ClusterRow
from .host import ReviewHost
from .page import ReviewPage

GuardKey = tuple[str, tuple[str, ...]]  # (the merged body, the included ids, target first)
Spans = list[tuple[int, int]]  # UTF-16 ranges in a source's text
# a guard run: the report, the strict lens, each source's missing and at-risk spans, the append preview
GuardResult = tuple[MergeGuardReport, StrictReport | None, dict[str, Spans], dict[str, Spans], str | None]
# a conflicts run: the likely-different mark, each pair's evidence, the value conflicts, the pairs that disagree,
# and what to pre-select before any decision
EvidenceResult = tuple[DifferentFactsMark, list[tuple[str, str, PairEvidence]], list[tuple[str, str, str]],
                       list[tuple[str, str]], Preselection]


class ReviewState(Protocol):
    services: Services
    runner: TaskRunner
    prompter: Prompter
    panels: ReviewPage
    host: ReviewHost
    row: ClusterRow | None  # the cluster on screen
    docs: list[Document]  # its documents as loaded
    stamps: dict[str, SourceStamp]  # each document's stamp as it was drafted against
    cosines: dict[frozenset[str], float]
    origin: str  # where the merged body came from: "", "union", "model", "edited", …
    decider_result: DeciderResult | None
    report: MergeGuardReport | None  # the guard's report on `report_key`
    report_key: GuardKey | None
    strict: StrictReport | None  # the strict lens on the same body as `report`
    groups: FactGroups | None  # the model's same-fact partition, once every pair is judged
    mark: DifferentFactsMark | None  # the cluster's likely-different mark (computed on load)
    decided_by: dict[str, str]  # cluster id -> who reviewed it in this session

    @property
    def changed(self) -> SignalInstance: ...

    @property
    def decisionFinished(self) -> SignalInstance: ...

    @property
    def guardUpdated(self) -> SignalInstance: ...

    @property
    def diffUpdated(self) -> SignalInstance: ...

    @property
    def writeFinished(self) -> SignalInstance: ...

    @property
    def writeFailed(self) -> SignalInstance: ...

    def body(self) -> str: ...

    def set_body(self, text: str, origin: str) -> None: ...

    def doc(self, doc_id: str) -> Document | None: ...

    def label(self, doc_id: str) -> str: ...

    def ids_to_labels(self, text: str) -> str: ...

    def ordered_included(self) -> list[Document]: ...

    def members(self) -> list[Document]: ...

    def pairs_kept_apart(self) -> list[tuple[str, str]]: ...

    def show_groups(self, groups: FactGroups) -> None: ...

    def reviewable(self) -> bool: ...

    def guard_key(self) -> GuardKey: ...

    def guard_is_current(self) -> bool: ...

    def outcome(self) -> str: ...

    def load(self, row: ClusterRow | None, *, keep_body: bool = False) -> None: ...

    def with_fresh_guard(self, then: Callable[[], None]) -> None: ...

    def timer(self, slot: Callable[[], None]) -> QTimer: ...


__all__ = ["EvidenceResult", "GuardKey", "GuardResult", "ReviewState", "Spans"]
