"""The review queue's marks — a cluster skipped for now, or reviewed (merged, appended, kept separate) — kept in
`memgui_review_marks` so they last from one session to the next.

A mark is keyed by the cluster's member ids and each member's content stamp (updated_at and the byte-exact
text digest, `Document.exact_hash`): a member edited since (by the daemon, by a merge) gives the cluster
another key, so the old mark no longer applies to it. A mark that names the audited write that reviewed
the cluster applies only while that write stands (an undone write leaves the cluster unreviewed).

Reading writes nothing (opening a store must not). `write_marks` is a write like any other: one
`store.transaction()`, which creates memgui's tables first on a store memgui has not written yet.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from peewee import JOIN

from .audit_log import STATE_APPLIED
from .errors import StoreError
from .seams import loads_or
from .store import ID_BATCH, Store
from .values import Document


@dataclass(frozen=True)
class ReviewMark:
    cluster_key: str
    member_ids: tuple[str, ...]
    status: str | None  # None: remove the mark (the cluster is unreviewed again)
    audit_id: int | None = None  # the audited write that reviewed the cluster
    marked_at: int = 0  # ms since the epoch


def cluster_key(member_ids: Iterable[str], documents: Mapping[str, Document]) -> str:
    """The key of a cluster as its members are now: their ids with each one's updated_at and exact hash (a
    member not in `documents` counts as missing), order-free."""
    lines = []
    for doc_id in sorted(dict.fromkeys(member_ids)):
        doc = documents.get(doc_id)
        stamp = f"{doc.updated_at}\x1f{doc.exact_hash}" if doc is not None else "-\x1f-"
        lines.append(f"{doc_id}\x1f{stamp}")
    return "mk-" + hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


def read_marks(store: Store, keys: Iterable[str]) -> dict[str, ReviewMark]:
    """The stored marks of these cluster keys that still apply (a mark whose audited write was undone does
    not), by key. A store memgui never marked has none."""
    M, Au = store.m.review_marks, store.m.audit
    keys = list(dict.fromkeys(keys))
    if M is None or not keys:
        return {}
    found: dict[str, ReviewMark] = {}
    for start in range(0, len(keys), ID_BATCH):  # below SQLite's bound-variable cap
        query = M.select(M.cluster_key, M.member_ids_json, M.status, M.audit_id, M.marked_at)
        where = M.cluster_key.in_(keys[start : start + ID_BATCH])
        if Au is not None:
            query = query.join(Au, JOIN.LEFT_OUTER, on=(Au.audit_id == M.audit_id))
            where &= M.audit_id.is_null() | (Au.state == STATE_APPLIED)
        else:
            where &= M.audit_id.is_null()
        for key, ids_json, status, audit_id, marked_at in store._tuples(query.where(where)):
            found[key] = ReviewMark(key, _ids(ids_json), status, None if audit_id is None else int(audit_id),
                                    int(marked_at or 0))
    return found


def write_marks(store: Store, marks: Sequence[ReviewMark]) -> None:
    """Put or remove (status None) each mark, in order, in one transaction. Refuses on a read-only store."""
    if not marks:
        return
    with store.transaction():
        M = store.m.review_marks
        if M is None:
            raise StoreError(f"{store.path}: memgui's tables are missing (store opened read-only?); nothing was written")
        for mark in marks:
            if mark.status is None:
                store._run(M.delete().where(M.cluster_key == mark.cluster_key))
                continue
            row = {M.cluster_key: mark.cluster_key, M.member_ids_json: json.dumps(list(mark.member_ids)),
                   M.status: mark.status, M.audit_id: mark.audit_id, M.marked_at: int(mark.marked_at)}
            preserve = [M.member_ids_json, M.status, M.audit_id, M.marked_at]
            store._run(M.insert(row).on_conflict(conflict_target=[M.cluster_key], preserve=preserve))


def _ids(text: str | None) -> tuple[str, ...]:
    value = loads_or(text, [], "a review mark's ids")
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


__all__ = ["ReviewMark", "cluster_key", "read_marks", "write_marks"]
