"""What the `Review` controller needs from the window around it, and nothing more: the open store and the
settings, whether writes are allowed now, moving in the queue, and telling the rest of the window that the
store was written. The window implements it; tests may hand in any object with these members."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..services.types import ScanResult, Store
from ..settings_dialog import GuiSettings
from .cluster_model import ClusterRow


class ReviewHost(Protocol):
    store: Store | None  # the open store
    settings: GuiSettings  # decider model, threads, context, timeout, guard debounce
    scan_result: ScanResult | None  # the last scan (its threshold)

    def can_write(self) -> bool: ...

    def next_cluster(self, prefer_new: bool = False) -> None: ...

    def select_cluster(self, cluster_id: str) -> None: ...

    def store_written(self, documents: frozenset[str], marked: frozenset[str]) -> None:
        """A write: the audit lists and the queued rows holding `documents` (but the rows in `marked`) read again."""
        ...

    def split_off(self, cluster_id: str, member_ids: Sequence[str]) -> tuple[str | None, str | None]:
        """Move `member_ids` of the cluster into a queue entry of their own: (its id, the rest's id or None)."""
        ...

    def show_status(self, text: str, msecs: int = 0, *, about: ClusterRow | None = None) -> None:
        """A passing status-bar message; `about` makes it go when another cluster is shown."""
