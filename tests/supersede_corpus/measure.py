"""What the deterministic half of supersede does on the labelled groups (no model): the order found, the
dated-series veto, and whether each superseding draft keeps every replaced value inside a history phrase dated
from its older note (issue 38, "Done when")."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from memgui.core.merge.guard import check_merge
from memgui.core.merge.supersede import (
    Reading,
    check_supersession,
    day_of,
    order_of,
    series_of,
    split_history,
    supersede_draft,
)

from .groups import NOW_MS, Group


def _words(text: str) -> str:
    return " ".join(text.split()).rstrip(".;,")


@dataclass(frozen=True)
class DraftOutcome:
    group: str
    misplaced: tuple[str, ...]  # replaced values not inside a history phrase with their note's day, or still present
    guard_passed: bool
    check_passed: bool
    ratio: float  # body length / longest note


def draft_outcome(group: Group) -> DraftOutcome:
    order = order_of(group.notes, NOW_MS)
    draft = supersede_draft(group.notes, order)
    present, phrases = split_history(draft.body)
    misplaced = []
    for r in group.replaced:
        day = day_of(order.times[r.older_note] or 0)
        old = _words(r.old)
        if not any(old in _words(text) and d == day for text, d in phrases) or old in _words(present):
            misplaced.append(r.old)
    bodies = [n.body for n in group.notes]
    return DraftOutcome(group.id, tuple(misplaced), check_merge(bodies, draft.body).passed,
                        check_supersession(group.notes, order, draft.body).passed,
                        len(draft.body) / max(len(b) for b in bodies))


def deterministic_reading(group: Group) -> Reading | None:
    """UNDECIDED (order in doubt), DATED_SERIES (the veto) or None (the model reads it)."""
    order = order_of(group.notes, NOW_MS)
    if not order.ordered:
        return Reading.UNDECIDED
    return Reading.DATED_SERIES if series_of(group.notes) else None


def median_ratio(outcomes: list[DraftOutcome]) -> float:
    return statistics.median(o.ratio for o in outcomes)
