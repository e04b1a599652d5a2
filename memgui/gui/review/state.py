"""What the `Review` controller's helpers (`Drafting`, `Evidence`, `Writes`) are handed besides the cluster under
review (`ClusterUnderReview`, under_review.py): the tools they work with (`ReviewTools`), how they ask for a
cluster to be shown again (`LoadCluster`), and the shapes of their workers' results."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

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


class GuardResult(NamedTuple):
    """A guard run (`Drafting`'s worker): Netclaw's MergeGuard, memgui's verdict beside it, and what the source
    panes highlight."""

    report: MergeGuardReport
    strict: StrictReport | None  # the strict lens over what the alignment did not prove (None: an empty body)
    missing: dict[str, Spans]  # each source's tokens MergeGuard finds missing, by document id
    at_risk: dict[str, Spans]  # each included source's facts at risk, by document id
    preview: str | None  # the append fallback's body (None: one source)
    alignment: Alignment | None  # the sources' sentences aligned to the body, with their fates and the verdict


class EvidenceResult(NamedTuple):
    """A conflicts run (`Evidence`'s worker), before any decision."""

    mark: DifferentFactsMark  # whether the sources look like different facts, and why
    pairs: list[tuple[str, str, PairEvidence]]  # (first id, second id, their evidence) of each pair
    conflicts: list[tuple[str, str, str]]  # (first id, second id, what they disagree on)
    disagreeing: list[tuple[str, str]]  # the pairs that disagree on a value
    preselect: Preselection  # what to include before the model or the reviewer chooses


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
