"""The supersede reading of the clusters accept-safe would not merge (issue 38, item 5): for each of them with two
or three live members, the reading, its draft and its check, computed before the batch is planned (`plan_batch`
then writes the ones `why_not_unattended` allows). A cluster of more notes is left for a person: a chain that
long is rarely one living value."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..decide.review import ClusterReview
from ..decide.supersede_reader import SupersedeReader
from ..store import Store
from ..tasks import CancelToken, Progress, Step, Work
from .apply import ApplyInputError
from .policy import why_not_safe
from .supersede import SupersessionPlan, plan_supersession

MAX_SUPERSEDED = 3  # notes in one supersession accept-safe reads
STAGE = Step.SUPERSEDE_READING


def read_supersessions(store: Store, rows: Sequence[tuple[Any, Sequence[str], ClusterReview | None]],
                       make_reader: Callable[[], SupersedeReader | None], *,
                       cancel: CancelToken | None = None) -> Work[dict[Any, SupersessionPlan]]:
    """{cluster id: its supersession plan} over the rows no merge takes; the reader is made on first need."""
    todo = [(cid, list(members)) for cid, members, review in rows
            if 2 <= len(members) <= MAX_SUPERSEDED and why_not_safe(review, list(members)) is not None]
    out: dict[Any, SupersessionPlan] = {}
    reader: SupersedeReader | None = None
    made = False
    for n, (cluster_id, members) in enumerate(todo):
        yield Progress(STAGE, n, len(todo), str(cluster_id))
        if not made:
            reader, made = make_reader(), True
        try:
            out[cluster_id] = yield from plan_supersession(store, members, reader, cancel=cancel)
        except ApplyInputError:
            continue  # a member gone or tombstoned since the scan: nothing to read
    yield Progress(STAGE, len(todo), len(todo), "done")
    return out


__all__ = ["MAX_SUPERSEDED", "read_supersessions"]
