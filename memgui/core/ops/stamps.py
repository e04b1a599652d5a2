"""The stamps a write is checked against, and the errors a refused write raises (re-exported by apply.py).

A stamp is a source as it was when a decision was drafted; every write re-checks its sources' stamps inside its
transaction and refuses, naming what changed (content, title, time), when one no longer holds.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..merge.guard import MergeGuardReport
from ..store import Document, Store

# ---- errors --------------------------------------------------------------------------------------------

class ApplyError(Exception):
    """An operation was refused; nothing was written."""


class ApplyInputError(ApplyError, ValueError):
    """The operation itself is malformed (unknown or tombstoned document, missing body, …)."""


class StaleSourceError(ApplyError):
    """A source changed between drafting the decision and applying it (another writer got there first)."""

    def __init__(self, document_id: str, drafted: SourceStamp | None, current: SourceStamp | None, detail: str = ""):
        self.document_id, self.drafted, self.current = document_id, drafted, current
        if current is None:
            what = "was deleted"
        elif detail:
            what = detail
        else:
            what = f"changed ({what_changed(drafted, current)})"
        super().__init__(f"{document_id} {what} since the decision was drafted; nothing was written")


def what_changed(drafted: SourceStamp | None, current: SourceStamp) -> str:
    """What differs between a drafted stamp and the document now, in words: its content (the body), its title,
    its time (updated_at) — a case-only edit of the body is a content change, not "updated_at X → X"."""
    if drafted is None:
        return f"updated_at ? → {current.updated_at}"
    parts = []
    if drafted.content_hash != current.content_hash:
        if drafted.body_hash and current.body_hash:
            parts.append("its content changed" if drafted.body_hash != current.body_hash else "its title changed")
        else:
            parts.append("its title or content changed")
    if drafted.updated_at != current.updated_at:
        parts.append(f"its time changed: updated_at {drafted.updated_at} → {current.updated_at}")
    elif parts:
        parts.append(f"updated_at unchanged at {current.updated_at}")
    return "; ".join(parts) or "unchanged"


class GuardRefusedError(ApplyError):
    """MergeGuard failed on the body and no override was given."""

    def __init__(self, report: MergeGuardReport):
        self.report = report
        missing = ", ".join(report.missing) or "none"
        super().__init__(f"merge guard failed: {report.reason} (missing: {missing}); nothing was written")


@dataclass(frozen=True)
class SourceStamp:
    """A source document as it was when a decision was drafted: its byte-exact text digest (not Netclaw's
    case- and white-space-blind content hash) and its updated_at. Both are compared, always. `body_hash`
    (the body's digest alone, when the stamp's maker knew it) is not compared: it only lets a refusal say
    whether the content or the title changed."""

    content_hash: str
    updated_at: int
    body_hash: str | None = field(default=None, compare=False)

    @staticmethod
    def of(doc: Document) -> SourceStamp:
        return SourceStamp(doc.exact_hash, doc.updated_at, body_digest(doc.markdown_body))


def body_digest(body: str | None) -> str:
    """sha256 of a body's exact text (a stamp's `body_hash`)."""
    return hashlib.sha256((body or "").encode("utf-8", "surrogatepass")).hexdigest()


def draft_stamps(store: Store, document_ids: Iterable[str]) -> dict[str, SourceStamp]:
    """The stamps of the given documents now (unknown ids are left out)."""
    return {d.document_id: SourceStamp.of(d) for d in store.documents_by_ids(document_ids)}



def check_stamps(store: Store, ids: Sequence[str], drafted: Mapping[str, SourceStamp]) -> dict[str, Document]:
    """Current documents for `ids`, refusing if any is unknown, undrafted, changed or tombstoned."""
    current = {d.document_id: d for d in store.documents_by_ids(ids)}
    for doc_id in ids:
        stamp = drafted.get(doc_id)
        doc = current.get(doc_id)
        if stamp is None:
            if doc is None:
                raise ApplyInputError(f"{doc_id}: no such document; nothing was written")
            raise ApplyInputError(f"{doc_id}: no drafted content_hash/updated_at given; nothing was written")
        if doc is None:
            raise StaleSourceError(doc_id, stamp, None)
        now = SourceStamp.of(doc)
        if now != stamp:  # a tombstone bumps the time too: say what happened, not only "its time changed"
            raise StaleSourceError(doc_id, stamp, now, "was tombstoned (merged away, or deleted by the agent)"
                                   if doc.is_tombstoned else "")
        if doc.is_tombstoned:
            raise ApplyInputError(f"{doc_id} is tombstoned; nothing was written")
    return current



__all__ = [
    "ApplyError", "ApplyInputError", "GuardRefusedError", "SourceStamp", "StaleSourceError", "body_digest",
    "check_stamps", "draft_stamps", "what_changed",
]
