"""Progress values and a cancel token for long work.

Long work (embedding, index builds, LLM streaming, big diffs) is written as a generator that yields
`Progress` and calls `token.raise_if_cancelled()` between batches; the GUI runs it on a worker thread,
the CLI prints it to stderr. The final value is the generator's return value (`StopIteration.value`).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class Cancelled(Exception):
    """Raised inside long work when its cancel token was set."""


@dataclass(frozen=True)
class Progress:
    stage: str  # short label, e.g. "embedding", "indexing", "deciding"
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
