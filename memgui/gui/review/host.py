"""What the `Review` controller needs from the window around it, and nothing more: the open store and the
settings, whether writes are allowed now, moving in the queue, and telling the rest of the window that the
store was written. The window implements it; tests may hand in any object with these members."""
from __future__ import annotations

from typing import Any, Protocol


class ReviewHost(Protocol):
    store: Any  # the open Store, or None
    settings: Any  # GuiSettings: decider model, threads, context, timeout, guard debounce
    scan_result: Any  # the last ScanResult (its threshold), or None

    def can_write(self) -> bool: ...

    def next_cluster(self, prefer_new: bool = False) -> None: ...

    def select_cluster(self, cluster_id: Any) -> None: ...

    def store_written(self) -> None: ...

    def split_off(self, cluster_id: Any, member_ids: Any) -> tuple[Any, Any]:
        """Move `member_ids` of the cluster into a queue entry of their own: (its id, the rest's id or None)."""
        ...

    def show_status(self, text: str, msecs: int = 0, *, about: Any = None) -> None:
        """A passing status-bar message; `about` (a ClusterRow) makes it go when another cluster is shown."""
