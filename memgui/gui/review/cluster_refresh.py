"""After a write made outside the review (the Audit tab's undo, redo, append back or removed pair): the queue rows
of the clusters that hold the written documents are read again — titles, anchors and the review status their
lasting mark gives them now — and the cluster on show is reloaded if it is one of them; no other row changes and
nothing is scanned. The read runs on the task runner; writes that come while it runs join it.

A row's status after the write is what a scan would read from the marks (`QueueMarks`) with one addition: a
mark that names an audited write is keyed by the members as they were before that write, so when the write
stands again (a redo) the row's own earlier mark applies again, as it does when Ctrl+Z redoes in the review.

Only when the write concerns a document no queued cluster holds (a merge of an earlier session undone, a pair
kept apart before now free to be nominated) can the queue not show it without finding clusters again:
`refresh` then says so, and the caller scans."""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Protocol

from ..services.types import Store
from ..workers import TaskRunner, one_line
from .cluster_model import ClusterRow, ClusterTableModel
from .queue_marks import QueueMarks


def rows_holding(rows: Iterable[ClusterRow], documents: Iterable[str]) -> list[ClusterRow]:
    """The queue rows that hold at least one of `documents`."""
    wanted = set(documents)
    return [r for r in rows if wanted.intersection(r.member_ids)]


def rows_read_again(store: Store, marks: QueueMarks, rows: Sequence[ClusterRow]) -> list[ClusterRow]:
    """`rows` as their documents and marks are now (a worker: this reads the store)."""
    ids = list(dict.fromkeys(i for r in rows for i in r.member_ids))
    docs = {d.document_id: d for d in store.documents_by_ids(ids)}
    keys, found = marks.for_clusters([r.cluster for r in rows], docs)
    earlier = marks.read(r.mark_key for r in rows if r.mark_key and r.mark_key != keys[r.cluster_id])
    fresh = []
    for row in rows:
        key = keys[row.cluster_id]
        mark = found.get(key)
        own = earlier.get(row.mark_key) if row.mark_key else None
        if mark is None and own is not None and own.audit_id is not None:
            mark, key = own, own.cluster_key  # the write the row's mark names stands again
        fresh.append(ClusterRow.of(row.cluster, docs, key, mark))
    return fresh


class ShownCluster(Protocol):
    """The cluster on show (the `Review` controller): its row, and loading it again."""

    @property
    def row(self) -> ClusterRow | None: ...

    def load(self, row: ClusterRow | None, *, keep_body: bool = False) -> None: ...


class ClusterRefresh:
    """Refreshes the queue rows a write outside the review touched; the cluster on show is loaded again (the
    merged body kept) when it is one of them; `failed` gets the message (for the status bar, until the next one)
    when the store could not be read."""

    def __init__(self, model: ClusterTableModel, runner: TaskRunner, shown: ShownCluster, *,
                 failed: Callable[[str], None]):
        self.model, self.runner, self.shown, self._failed = model, runner, shown, failed
        self.pending: set[str] = set()  # documents written whose rows are being read again

    def refresh(self, store: Store | None, marks: QueueMarks | None, documents: Iterable[str],
                skip: Collection[str] = frozenset()) -> bool:
        """Read again the rows that hold `documents`, but the rows in `skip` (cluster ids the write itself showed).
        False when the queue cannot show the write by itself (a document in no queued cluster, or no store): then
        only a scan can."""
        documents = set(documents)
        held = {i for r in self.model.rows() for i in r.member_ids}
        if store is None or marks is None or not documents or not documents <= held:
            return False
        if not any(r.cluster_id not in skip for r in rows_holding(self.model.rows(), documents)):
            return True  # every row that holds them shows the write already
        self.pending |= documents
        rows = [r for r in rows_holding(self.model.rows(), self.pending) if r.cluster_id not in skip]
        self.runner.start("refresh-clusters", lambda cancel: rows_read_again(store, marks, rows),
                          label="Refreshing the written clusters", on_done=self._read, on_error=self._error)
        return True

    def _read(self, fresh: list[ClusterRow]) -> None:
        self.pending.clear()
        shown = self.shown.row
        for row in fresh:
            if self.model.replace_row(row) and shown is not None and shown.cluster_id == row.cluster_id:
                self.shown.load(row, keep_body=True)

    def _error(self, exc: BaseException) -> None:
        self.pending.clear()
        self._failed(f"The written clusters could not be read again ({one_line(exc)}); F5 finds clusters again")


__all__ = ["ClusterRefresh", "ShownCluster", "rows_holding", "rows_read_again"]
