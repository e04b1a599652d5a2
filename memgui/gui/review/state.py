"""What the `Review` controller's helpers (`Drafting`, `Evidence`, `Writes`) are handed besides the cluster under
review (`ClusterUnderReview`, under_review.py): the tools they work with (`ReviewTools`), how they ask for a
cluster to be shown again (`LoadCluster`), and the shapes of their workers' results."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..dialogs import Prompter
from ..services import Services
from ..services.types import (
    Alignment,
    DifferentFactsMark,
    MergeGuardReport,
    PairEvidence,
    Preselection,
    StrictReport,
)
from ..workers import TaskRunner
from .cluster_model import ClusterRow
from .host import ReviewHost
from .page import ReviewPage

GuardKey = tuple[str, tuple[str, ...]]  # (the merged body, the included ids, target first)
Spans = list[tuple[int, int]]  # UTF-16 ranges in a source's text
# a guard run: the report, the strict lens, each source's missing and at-risk spans, the append preview, and
# memgui's alignment of the sources' sentences to the body (its verdict)
GuardResult = tuple[MergeGuardReport, StrictReport | None, dict[str, Spans], dict[str, Spans], str | None,
                    Alignment | None]
# a conflicts run: the likely-different mark, each pair's evidence, the value conflicts, the pairs that disagree,
# and what to pre-select before any decision
EvidenceResult = tuple[DifferentFactsMark, list[tuple[str, str, PairEvidence]], list[tuple[str, str, str]],
                       list[tuple[str, str]], Preselection]


@dataclass(frozen=True)
class ReviewTools:
    """What the `Review` controller's helpers work with, none of it the cluster's state: the core's services, the
    task runner, the dialogs, the review panels and the window around them."""

    services: Services
    runner: TaskRunner
    prompter: Prompter
    panels: ReviewPage
    host: ReviewHost


class LoadCluster(Protocol):
    """Show a queue row (None: nothing) in the review, the merged body kept when asked (`Review.load`)."""

    def __call__(self, row: ClusterRow | None, *, keep_body: bool = False) -> None: ...


__all__ = ["EvidenceResult", "GuardKey", "GuardResult", "LoadCluster", "ReviewTools", "Spans"]
