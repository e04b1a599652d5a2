"""The queue's skipped / reviewed marks for one open store, so they last across sessions (the core's
`review_marks`: keyed by a cluster's members and their content stamps, so a changed member drops the mark).

A status change in the queue (its `statusChanged`, listened to from creation to `close`) is recorded here on the
GUI thread and written on a worker — one transaction for whatever is pending — so a locked store never stalls the
window; writes are serialised and kept in order, and what did not get written stays pending for the next write.
A scan reads the marks of its clusters (on its worker) after writing what is pending. A read-only store keeps the
marks in memory for the session only, and says so once."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping

from ..services import Services
from ..services.types import Cluster, Document, ReviewMark, Store
from ..workers import TaskRunner, one_line
from .cluster_model import NEW, ClusterRow, ClusterTableModel

READ_ONLY_NOTE = "Read-only store: review marks are kept for this session only, not saved"


class QueueMarks:
    def __init__(self, services: Services, store: Store, runner: TaskRunner, notify: Callable[[str], None], *,
                 queue: ClusterTableModel):
        self.services, self.store, self.runner, self._notify = services, store, runner, notify
        self._queue: ClusterTableModel | None = queue  # listened to until `close`
        queue.statusChanged.connect(self.record)
        self.persist = not store.read_only
        self._memory: dict[str, ReviewMark] = {}  # a read-only store's marks of this session, by cluster key
        self._pending: list[ReviewMark] = []  # marks not written yet, in the order they were made
        self._pending_lock = threading.Lock()  # held briefly, never during a write
        self._write_lock = threading.Lock()  # one write at a time, so marks land in order
        self._noted = False

    # ---- a scan (worker thread) ------------------------------------------------------------------------

    def for_clusters(self, clusters: Iterable[Cluster],
                     docs: Mapping[str, Document]) -> tuple[dict[str, str], dict[str, ReviewMark]]:
        """({cluster id: mark key}, {mark key: mark}) for the scanned clusters, the members as they are now."""
        keys = {c.id: self.services.cluster_key(c.member_ids, docs) for c in clusters}
        return keys, self.read(keys.values())

    def read(self, keys: Iterable[str]) -> dict[str, ReviewMark]:
        """The marks of these clusters: stored ones with the pending ones over them (memory on read-only)."""
        wanted = set(keys)
        if not self.persist:
            return {k: m for k, m in self._memory.items() if k in wanted and m.status}
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - still pending: laid over the stored marks below, retried later
            pass
        found = self.services.read_marks(self.store, wanted)
        with self._pending_lock:
            for mark in self._pending:
                if mark.cluster_key in wanted:
                    found[mark.cluster_key] = mark
        return {k: m for k, m in found.items() if m.status}

    # ---- recording (GUI thread) --------------------------------------------------------------------------

    def record(self, row: ClusterRow) -> None:
        """A queue row's status changed: keep its mark (NEW removes it)."""
        if row.mark_key is None:
            return
        mark = self.services.review_mark(row.mark_key, row.member_ids, None if row.status == NEW else row.status,
                                         row.audit_id, row.marked_at or 0)
        if not self.persist:
            self._memory[row.mark_key] = mark
            if not self._noted:
                self._noted = True
                self._notify(READ_ONLY_NOTE)
            return
        with self._pending_lock:
            self._pending.append(mark)
        self.runner.start("marks", lambda cancel: self.flush(), label="Saving the review mark",
                          on_error=lambda exc: self._notify(f"Review mark not saved yet ({one_line(exc)}); "
                                                            "it is kept and saved with the next one"))

    # ---- writing -----------------------------------------------------------------------------------------

    def flush(self) -> int:
        """Write every pending mark in one transaction (a worker; the GUI thread only as the store closes).
        On failure they stay pending, ahead of newer ones. Returns how many were written."""
        with self._write_lock:
            with self._pending_lock:
                taken, self._pending = self._pending, []
            if not taken:
                return 0
            try:
                self.services.write_marks(self.store, taken)
            except BaseException:
                with self._pending_lock:
                    self._pending = taken + self._pending
                raise
            return len(taken)

    def close(self) -> None:
        """The store closes: the queue's statuses are no longer this store's to keep; write what is still pending
        (a failure is dropped with the store)."""
        if self._queue is not None:
            self._queue.statusChanged.disconnect(self.record)
            self._queue = None
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - the store is going away; nothing more can be done with it
            pass
