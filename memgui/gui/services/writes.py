"""The core services around the review's writes: the undo / redo history (core/ops/history.py) and the merge
policy's warnings (core/ops/policy.py). Injected through `Services.writes`, so tests swap in fakes."""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from .types import DifferentFactsMark, History, HistoryScope, Store, StrictReport, Written
from .values import MergeMode


class RevertLast(Protocol):
    """Undo (or redo) the step the history offers, refused unless it is still `expected` (the one shown)."""

    def __call__(self, store: Store, scope: HistoryScope, *, expected: int | None = None,
                 note: str | None = None) -> Written: ...


class MergeRisks(Protocol):
    """Why a merge needs a warned confirmation (empty: it does not), in the words the confirmation shows."""

    def __call__(self, *, mode: MergeMode, documents: int, length_ratio: float | None, strict: StrictReport | None,
                 mark: DifferentFactsMark | None, cosines: Mapping[frozenset[str], float], included: Collection[str],
                 threshold: float | None, number_of: Callable[[str], int]) -> list[str]: ...


@dataclass
class WriteServices:
    session: Callable[[int], HistoryScope]  # (started, ms since the epoch) -> the window's history scope
    history: Callable[[Store, HistoryScope], History]  # what Undo and Redo would revert now (reads the store)
    undo_last: RevertLast
    redo_last: RevertLast
    merge_risks: MergeRisks


def write_services() -> WriteServices:
    from ...core.ops import history, policy

    return WriteServices(session=history.HistoryScope.session, history=history.history,
                         undo_last=history.undo_last, redo_last=history.redo_last, merge_risks=policy.merge_risks)


__all__ = ["MergeRisks", "RevertLast", "WriteServices", "write_services"]
