"""The core services the alignment view and memgui's verdict use (core/merge/align.py, keep_draft.py,
read_pairs.py): memgui's verdict on a merge (the one accept-safe uses), the union draft with the restatements a
reviewer confirmed left out, and the rows a person reads. Injected through `Services.alignment`, so tests can swap in fakes."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .types import Alignment, Fate, KeptBack, PairRow, ProvedDraft, StrictReport


class JudgeMerge(Protocol):
    """memgui's verdict, as accept-safe judges a merge: every source sentence aligned to the body, then the strict
    lens on only what the alignment did not prove; returns (the lens's report, the alignment with its findings)."""

    def __call__(self, sources: Sequence[str | None], body: str | None, titles: Sequence[str | None] = (),
                 kept_title: str | None = None) -> tuple[StrictReport, Alignment]: ...


class ProveOrKeep(Protocol):
    """The union draft: the note `primary` whole, then every other sentence it cannot prove restated, whole;
    `confirmed` (source, sentence) pairs are left out."""

    def __call__(self, sources: Sequence[str], confirmed: frozenset[tuple[int, int]] = frozenset(),
                 primary: int | None = None) -> ProvedDraft: ...


class PairRows(Protocol):
    def __call__(self, alignment: Alignment, kept_back: Sequence[KeptBack] = (),
                 confirmed: Iterable[tuple[int, int]] = (),
                 before_kept_back: Alignment | None = None) -> list[PairRow]: ...


@dataclass
class AlignmentServices:
    judge: JudgeMerge
    prove_or_keep: ProveOrKeep
    pair_rows: PairRows  # read, then lost, restated, kept; the differing words marked
    # (sources, the note a union draft keeps whole) -> the alignment its kept-back sentences were judged by
    kept_back_alignment: Callable[[Sequence[str | None], int], Alignment]
    # (alignment, confirmed (source, sentence) pairs) -> the alignment with those pairs restated, its verdict again
    confirmed_alignment: Callable[[Alignment, Iterable[tuple[int, int]]], Alignment]
    fate_counts: Callable[[Alignment], dict[Fate, int]]


def alignment_services() -> AlignmentServices:
    from ...core.merge import align, keep_draft, read_pairs

    return AlignmentServices(judge=align.judge, prove_or_keep=keep_draft.prove_or_keep, pair_rows=read_pairs.pair_rows,
                             kept_back_alignment=read_pairs.kept_back_alignment,
                             confirmed_alignment=read_pairs.confirmed_alignment, fate_counts=read_pairs.fate_counts)
