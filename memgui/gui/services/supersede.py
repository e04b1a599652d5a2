"""The core services the review's supersession uses (issue 38, core/ops/supersede.py): read a cluster as a
supersession and draft it, write it (audited, undoable), the reader on a loaded decider's engine, and where a
body's `(previously: …, as of DATE)` history phrases are. Injected through `Services.supersede`, so tests can swap
in fakes."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from .types import CancelToken, Store, SupersedeReader, SupersessionPlan, Work, Written


class HistorySpan(NamedTuple):
    """One history phrase of a body: [start, end) in the body's characters, the older statement and its date."""

    start: int
    end: int
    statement: str
    day: str  # YYYY-MM-DD


class PlanSupersession(Protocol):
    """Read `doc_ids` as a supersession and, when it is one, draft and check it (nothing written)."""

    def __call__(self, store: Store, doc_ids: Sequence[str], reader: SupersedeReader | None, *,
                 reviewer_reads_supersedes: bool = False,
                 cancel: CancelToken | None = None) -> Work[SupersessionPlan]: ...


class WriteSupersession(Protocol):
    def __call__(self, store: Store, plan: SupersessionPlan, *, note: str | None = None,
                 decided_by: str = "reviewer") -> Written: ...


@dataclass
class SupersedeServices:
    plan: PlanSupersession
    write: WriteSupersession  # into the newest note, the others tombstoned; MergeGuard and the supersede check
    # (a loaded decider's engine) -> the reader on it, None when it cannot score answers
    reader_of: Callable[[Any], SupersedeReader | None]
    history_spans: Callable[[str], list[HistorySpan]]
    day_of: Callable[[int], str]  # UTC ms -> Netclaw's YYYY-MM-DD
    refused_error: type[BaseException]  # the supersession is not one memgui may write (its reason in the message)


def history_spans(body: str) -> list[HistorySpan]:
    from ...core.merge.supersede import HISTORY

    return [HistorySpan(m.start(), m.end(), m.group("old").strip(), m.group("date")) for m in HISTORY.finditer(body)]


# Any: the decider slot's engine is duck-typed (a fake, llama.cpp, or one that cannot score answers)
def reader_of(engine: Any) -> SupersedeReader | None:
    from ...core.decide.supersede_reader import SupersedeReader
    from ...core.store.reader_cache import ReaderCache

    if engine is None or not hasattr(engine, "score_words"):
        return None
    return SupersedeReader(engine, cache=ReaderCache())


def supersede_services() -> SupersedeServices:
    from ...core.merge.supersede import day_of
    from ...core.ops import supersede

    return SupersedeServices(plan=supersede.plan_supersession, write=supersede.write_supersession, reader_of=reader_of,
                             history_spans=history_spans, day_of=day_of,
                             refused_error=supersede.SupersedeRefusedError)


__all__ = ["HistorySpan", "PlanSupersession", "SupersedeServices", "WriteSupersession", "history_spans",
           "reader_of", "supersede_services"]
