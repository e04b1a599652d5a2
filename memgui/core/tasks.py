"""Progress values and a cancel token for long work.

Long work (embedding, index builds, LLM streaming, big diffs) is written as a generator that yields
`Progress` and calls `token.raise_if_cancelled()` between batches; the GUI runs it on a worker thread,
the CLI prints it to stderr. The final value is the generator's return value (`StopIteration.value`).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")


class Cancelled(Exception):
    """Raised inside long work when its cancel token was set."""


class Step(StrEnum):
    """What long work is doing: a progress line's label, and what the window and the CLI branch on."""

    ACCEPTING = "accepting"
    ASSEMBLING_MODEL = "assembling model"
    AUDIT = "audit"
    BUILDING_THE_DEMO_STORE = "building the demo store"
    CALIBRATING = "calibrating"
    CLASSIFYING = "classifying"
    DECIDING = "deciding"
    DIFFING = "diffing"
    EMBEDDER_MODEL = "embedder model"
    EMBEDDING = "embedding"
    FACT_GROUPS = "fact groups"
    INDEXING = "indexing"
    JUDGING_CLUSTERS = "judging clusters"
    JUDGING_LABELLED_PAIRS = "judging labelled pairs"
    JUDGING_PAIRS = "judging pairs"
    LEXICAL_SEARCH = "lexical search"
    LOADING_EMBEDDER = "loading embedder"
    LOADING_MODEL = "loading model"
    MERGING = "merging"
    MODEL_KNOWN = "model known"
    NOMINATING = "nominating"
    PAUSED = "paused"
    RE_CHECKING_MERGES = "re-checking merges"
    RE_CHECKING_OVERWRITES = "re-checking overwrites"
    READING = "reading"
    READING_LOGS = "reading logs"
    REVIEWING = "reviewing"
    SECOND_READER = "second reader"
    SELF_TEST = "self-test"
    SUPERSEDE_READING = "supersede reading"
    VERIFYING_MODEL = "verifying model"


@dataclass(frozen=True)
class Progress:
    stage: Step
    done: int = 0
    total: int | None = None  # None = indeterminate
    message: str = ""
    payload: Any = None  # optional streamed piece (e.g. an LLM token)

    @property
    def fraction(self) -> float | None:
        if not self.total:
            return None
        return min(1.0, self.done / self.total)


class CancelToken:
    """Thread-safe flag checked between batches or tokens."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()


NEVER_CANCELLED = CancelToken()

Work = Generator[Progress, None, T]


def run_to_end(work: Work[T], on_progress: Callable[[Progress], None] | None = None) -> T:
    """Drive a progress generator to completion and return its result."""
    while True:
        try:
            progress = next(work)
        except StopIteration as stop:
            result: T = stop.value
            return result
        if on_progress is not None:
            on_progress(progress)
