"""X: the checked members of the cluster under review become a queue entry of their own, and leave the
cluster's row (a row left with one document leaves the queue: there is nothing to merge in it). Splits are
remembered for the session and applied to every rescan, which would otherwise put the members back together."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from ..services.types import Cluster
from .cluster_model import NEW, ClusterRow, ClusterTableModel, QueueStatus
from .controller import Review


class Splits:
    def __init__(self, sub_cluster: Callable[[Cluster, Iterable[str]], Cluster]):
        self._sub = sub_cluster
        self._parts: list[frozenset[str]] = []  # member sets split off, in the order they were made

    def split_row(self, row: ClusterRow, member_ids: Iterable[str]) -> list[ClusterRow]:
        """Remember the split and return the rows replacing `row`: the split-off part (new), then the rest
        (its status kept) when it still holds two documents."""
        part = frozenset(member_ids)
        self._parts.append(part)
        rest = [m for m in row.member_ids if m not in part]
        rows = [self._part_row(row, part, status=NEW, audit_id=None)]
        if len(rest) >= 2:
            rows.append(self._part_row(row, rest, status=row.status, audit_id=row.audit_id))
        return rows

    def apply(self, clusters: Iterable[Cluster]) -> list[Cluster]:
        """A scan's clusters with the remembered splits made again (a cluster holding more than a split-off
        part is cut in two; a rest of one document is dropped)."""
        out = list(clusters)
        for part in self._parts:
            cut = []
            for cluster in out:
                members = set(cluster.member_ids)
                if part < members:
                    cut.append(self._sub(cluster, part))
                    if len(members - part) >= 2:
                        cut.append(self._sub(cluster, members - part))
                else:
                    cut.append(cluster)
            out = cut
        return out

    def _part_row(self, row: ClusterRow, ids: Iterable[str], *, status: QueueStatus, audit_id: int | None) -> ClusterRow:
        keep = set(ids)
        at = [i for i, m in enumerate(row.member_ids) if m in keep]
        return replace(row, cluster=self._sub(row.cluster, [row.member_ids[i] for i in at]),
                       titles=tuple(row.titles[i] for i in at), anchors=tuple(row.anchors[i] for i in at),
                       status=status, audit_id=audit_id)


def split_checked(splits: Splits, model: ClusterTableModel, review: Review, select: Callable[[str], None],
                  status: Callable[[str], None]) -> None:
    """The X key on the cluster under review: its checked members into their own queue entry."""
    row, sources = review.row, review.panels.sources
    if row is None or not review.reviewable():
        status("Nothing to split: select a cluster that is still to review")
        return
    checked = sources.included_ids()
    rest = [m for m in row.member_ids if m not in checked]
    if len(checked) < 2:
        status("Check at least two members to split them into a cluster of their own (1–9 include / exclude)")
        return
    if not rest:
        status("Every member is checked: uncheck the ones that stay in this cluster (1–9), then X")
        return
    index = model.row_of(row.cluster_id)
    if index < 0:
        return
    numbers = " ".join(f"#{sources.number_of(m)}" for m in checked)
    left = " ".join(f"#{sources.number_of(m)}" for m in rest)
    rows = list(model.rows())
    parts = splits.split_row(rows[index], checked)
    rows[index:index + 1] = parts
    model.set_rows(rows)
    select(parts[0].cluster_id)
    tail = f"{left} stay{'s' if len(rest) == 1 else ''} in the first cluster" if len(parts) > 1 else \
        f"{left} left the queue (one document: nothing to merge)"
    status(f"Split {numbers} into a cluster of their own; {tail}")
