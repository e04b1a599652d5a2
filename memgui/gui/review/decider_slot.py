"""The one loaded decider model, shared by the reviewer's own calls and the decisions-ahead queue.

A model holds ≈1 GB, so there is one: reused while the model settings stay the same; when they change, the old
model is closed before the new one loads. Loading happens on workers only, one at a time (two workers asking at
once get the same model, loaded once). `turns` (the core's ModelTurns) lets the reviewer's call go first;
`selftests` keeps the capability self-test verdict per model settings, whoever ran it."""
from __future__ import annotations

import inspect
import threading
from collections.abc import Callable

from ..services.types import CancelToken, Decider, ModelTurns, SelfTestReport, Step, Work
from ..services.values import Cancelled, Progress

# the model settings a loaded decider belongs to: (GGUF path, threads, context)
DeciderKey = tuple[str, int, int]


class DeciderSlot:
    def __init__(self, turns: ModelTurns | None = None):
        self._lock = threading.Lock()
        self._loading = threading.Lock()
        self.key: DeciderKey | None = None
        self.decider: Decider | None = None
        self.closed = False
        self.turns = turns
        self.selftests: dict[DeciderKey, SelfTestReport] = {}  # the self-test verdict per model settings

    def get(self, key: DeciderKey) -> Decider | None:
        """The decider for `key`; a decider loaded for other settings is closed (returns None)."""
        with self._lock:
            if self.decider is not None and self.key == key:
                return self.decider
            old, self.decider, self.key = self.decider, None, None
        _close(old)
        return None

    def put(self, key: DeciderKey, decider: Decider) -> None:
        with self._lock:
            old, stale = self.decider, self.closed
            if not stale:
                self.decider, self.key = decider, key
        _close(decider if stale else (old if old is not decider else None))

    def acquire(self, key: DeciderKey, make: Callable[[], Decider], cancel: CancelToken, *,
                load: bool = True) -> Work[Decider]:
        """Work (on a worker): the decider for `key`, made if needed and loaded unless `load=False`. One
        acquirer at a time; the others wait here (checking `cancel`)."""
        while not self._loading.acquire(timeout=0.05):
            cancel.raise_if_cancelled()
        try:
            decider = self.get(key)
            if decider is None:
                if self.closed:
                    raise Cancelled()
                decider = make()
                self.put(key, decider)
            if load and not getattr(decider, "loaded", True):
                yield Progress(Step.LOADING_MODEL, 0, None, "loading the decider model")
            loader = getattr(decider, "load", None) if load else None  # a test's decider may come loaded
            if loader is not None:
                loading = loader()
                if inspect.isgenerator(loading):
                    yield from loading
            return decider
        finally:
            self._loading.release()

    def close(self) -> None:
        with self._lock:
            old, self.decider, self.key, self.closed = self.decider, None, None, True
        _close(old)


def _close(decider: Decider | None) -> None:
    close = getattr(decider, "close", None)  # a test's decider may hold no model to free
    if close is not None:
        close()


__all__ = ["DeciderSlot"]
