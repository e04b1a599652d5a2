"""What was done to the cluster on screen, in one line for the merged-body header and the decision panel: a
reviewed cluster says what (merged, appended, kept separate, skipped) and by whom (you in this session, Accept
all safe, memgui in an earlier session), and a member tombstoned with no memgui write says the daemon did it —
never the "U union draft · M ask the model" hint of a cluster still to decide. Display only: the statuses are the
queue's, the tombstones the store's."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow

DONE = {MERGED: "merged", APPENDED: "appended (every source kept verbatim)", KEPT_SEPARATE: "kept separate",
        SKIPPED: "skipped for now"}
EARLIER = "a memgui reviewer (an earlier session)"
DAEMON = "the Netclaw daemon (outside memgui)"


class Member(Protocol):
    @property
    def document_id(self) -> str: ...

    @property
    def is_tombstoned(self) -> bool: ...


def outcome_text(row: ClusterRow | None, docs: Sequence[Member], who: Mapping[str, str],
                 label: Callable[[str], str]) -> str:
    """'' for a cluster still to decide with nothing done to it; else what was done and by whom."""
    if row is None:
        return ""
    status = row.status
    if status in (MERGED, APPENDED, KEPT_SEPARATE):
        by = who.get(row.cluster_id, EARLIER)
        audit = f" (audit #{row.audit_id})" if row.audit_id is not None else ""
        into = ""
        if status in (MERGED, APPENDED):
            live = [d for d in docs if not d.is_tombstoned]
            into = f" into {label(live[0].document_id)}" if len(live) == 1 else ""
        return f"Reviewed: {DONE[status]}{into} by {by}{audit}"
    gone = [d for d in docs if d.is_tombstoned]
    if gone and status in (NEW, SKIPPED):
        names = ", ".join(label(d.document_id) for d in gone)
        return (f"Already merged by {DAEMON}: {names} {'is' if len(gone) == 1 else 'are'} tombstoned, with no "
                "memgui write")
    if status == SKIPPED:
        return f"Skipped for now by {who.get(row.cluster_id, EARLIER)} — still to decide"
    return ""
