"""A supersession as one write (issue 38): read the notes, draft the newest state with the older ones as dated
history, check it, and write it as a merge into the newest note, with its reading recorded in the audit.

`plan_supersession` reads and drafts (nothing written); `write_supersession` writes a plan whose reading is
"supersedes" and whose draft passes the supersede check, through `merge_cluster` (MergeGuard, the stale-source
stamps, one transaction with its audit row, undo). The CLI, the window and accept-safe all go through here.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..decide.supersede_reader import UPDATE, SupersedeReader
from ..decide.supersession import UNATTENDED_UPDATE_AT_LEAST, SupersedeReading, read_supersession
from ..merge.guard import check_merge
from ..merge.supersede import (
    Reading,
    SupersedeCheck,
    SupersedeDraft,
    TimedNote,
    check_supersession,
    order_of,
    series_of,
    stated_days,
    supersede_draft,
)
from ..store import Store
from ..store.values import Document
from ..tasks import CancelToken, Work
from .apply import MODE_MERGED_BODY, ApplyInputError, MergePlan, SourceStamp, draft_stamps, merge_cluster
from .changes import Written


class SupersedeRefusedError(ApplyInputError):
    """The notes are not a supersession memgui may write (their reading, or a draft that fails its check)."""


@dataclass(frozen=True)
class SupersessionPlan:
    documents: tuple[Document, ...]  # as given
    reading: SupersedeReading
    draft: SupersedeDraft | None  # only when the reading is "supersedes"
    check: SupersedeCheck | None
    stamps: dict[str, SourceStamp]  # what the draft was made from

    @property
    def order_ids(self) -> list[str]:
        return [self.documents[i].document_id for i in self.reading.order.oldest_first]

    @property
    def newest_id(self) -> str | None:
        order = self.reading.order
        return self.documents[order.newest].document_id if order.ordered else None

    def record(self) -> dict[str, Any]:
        """What a write of this supersession records (audit `details.supersede`, a plan file's `supersede`)."""
        ids = [d.document_id for d in self.documents]
        history = self.draft.history if self.draft is not None else ()
        return {"reading": self.reading.reading.value, "order": self.order_ids, "reason": self.reading.reason,
                "pairs": [p.to_dict() for p in self.reading.pairs],
                "history": [{"document_id": ids[h.note], "text": h.text, "phrase": h.phrase} for h in history]}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {**self.reading.to_dict(), "order": self.order_ids, "order_doubt": self.reading.order.doubt,
                               "newest": self.newest_id, "merged_body": self.draft.body if self.draft else None}
        if self.draft is not None:
            ids = [d.document_id for d in self.documents]
            out["history"] = [{"document_id": ids[h.note], "sentence": h.index, "text": h.text, "phrase": h.phrase}
                              for h in self.draft.history]
            out["kept_as_written"] = [{"document_id": ids[n], "sentence": i} for n, i in self.draft.kept]
            out["restated_by_newer"] = [{"document_id": ids[n], "sentence": i} for n, i in self.draft.dropped]
            out["not_spoken_of"] = [{"document_id": ids[n], "sentence": i} for n, i in self.draft.unaligned]
        if self.check is not None:
            out["check"] = self.check.to_dict()
        return out


def timed(doc: Document) -> TimedNote:
    return TimedNote(doc.markdown_body or "", doc.freshness_at, doc.title or "")


def plan_supersession(store: Store, doc_ids: Sequence[str], reader: SupersedeReader | None, *,
                      now_ms: int | None = None, reviewer_reads_supersedes: bool = False,
                      cancel: CancelToken | None = None) -> Work[SupersessionPlan]:
    """Read `doc_ids` (two or more live documents) and, when the reading is "supersedes", draft and check."""
    ids = list(dict.fromkeys(doc_ids))
    if len(ids) < 2:
        raise ApplyInputError("a supersession needs two or more documents")
    docs = {d.document_id: d for d in store.documents_by_ids(ids)}
    for i in ids:
        if i not in docs:
            raise ApplyInputError(f"{i}: no such document")
        if docs[i].is_tombstoned:
            raise ApplyInputError(f"{i}: the document is tombstoned")
    documents = tuple(docs[i] for i in ids)
    stamps = draft_stamps(store, ids)
    notes = [timed(d) for d in documents]
    now = int(time.time() * 1000) if now_ms is None else now_ms
    reading = yield from read_supersession(notes, now, None if reviewer_reads_supersedes else reader, cancel=cancel)
    if reviewer_reads_supersedes and reading.order.ordered and reading.reading is Reading.UNDECIDED:
        reading = SupersedeReading(Reading.SUPERSEDES, reading.order, "the reviewer reads the newer note as the "
                                                                      "newer state")
    if reading.reading is not Reading.SUPERSEDES:
        return SupersessionPlan(documents, reading, None, None, stamps)
    draft = supersede_draft(notes, reading.order)
    return SupersessionPlan(documents, reading, draft, check_supersession(notes, reading.order, draft.body), stamps)


def why_not_unattended(plan: SupersessionPlan) -> str | None:
    """Why accept-safe may not write this supersession (None: it may): the model read it as the newer state, the
    dates order the notes without doubt, no dated series is involved, and the draft passes its check and
    Netclaw's MergeGuard."""
    reading = plan.reading
    if reading.reading is not Reading.SUPERSEDES:
        return f"not a supersession: {reading.reason}"
    if not reading.model_id or not reading.pairs:
        return "read as a supersession by a person, not by the model: a person writes it"
    if not reading.replaced:
        return "the newest note states no value in place of an older one (the model alone reads it): a person decides"
    dated = next((d for d in (plan.documents[i] for i in reading.order.oldest_first[:-1])
                  if stated_days(d.markdown_body or "")), None)
    if dated is not None:  # no dated series is involved: proved only when no older note records a dated event
        return (f"{dated.document_id} records a dated event: whether it is out of date or one of a dated series, a "
                "person decides")
    weakest = min(p.p.get(UPDATE, 0.0) for p in reading.pairs)
    if weakest < UNATTENDED_UPDATE_AT_LEAST:
        return (f"the model reads the newer state at p = {weakest:.2f}, under the {UNATTENDED_UPDATE_AT_LEAST:.2f} an "
                "unattended write needs: a person decides")
    if plan.draft is None or plan.check is None or not plan.check.passed:
        return "the superseding draft fails its check"
    if plan.draft.unaligned:
        return (f"{len(plan.draft.unaligned)} older statement(s) the newest note does not speak of: whether each "
                "still holds or is out of date, a person decides")
    if not check_merge([d.markdown_body or "" for d in plan.documents], plan.draft.body).passed:
        return "Netclaw's MergeGuard fails the superseding draft"
    return None


def prove_supersession(target: Document, others: Sequence[Document], body: str) -> None:
    """The write-time proof of a supersession over the documents as they are now: ordered without doubt with the
    target newest, no dated series, and the body passes the supersede check. SupersedeRefusedError otherwise."""
    notes = [timed(d) for d in (target, *others)]
    order = order_of(notes, int(time.time() * 1000))
    if not order.ordered:
        raise SupersedeRefusedError(f"not a supersession now: {order.doubt}")
    if order.newest != 0:
        raise SupersedeRefusedError(f"{target.document_id} is no longer the newest of the notes")
    series = series_of(notes)
    if series:
        raise SupersedeRefusedError(f"a dated series is never superseded: {series}")
    check = check_supersession(notes, order, body)
    if not check.passed:
        raise SupersedeRefusedError("the body fails the supersede check: "
                                    + "; ".join(f"{f.problem}: {f.text}" for f in check.findings))


def write_supersession(store: Store, plan: SupersessionPlan, *, note: str | None = None,
                       decided_by: str = "reviewer") -> Written:
    """Write a "supersedes" plan into its newest note (the others tombstoned), audited and undoable."""
    if plan.reading.reading is not Reading.SUPERSEDES or plan.draft is None or plan.newest_id is None:
        raise SupersedeRefusedError(f"not written: the reading is {plan.reading.reading.value} "
                                    f"({plan.reading.reason})")
    if plan.check is None or not plan.check.passed:
        problems = "; ".join(f"{f.problem}: {f.text}" for f in (plan.check.findings if plan.check else ()))
        raise SupersedeRefusedError(f"not written: the draft fails the supersede check ({problems})")
    ids = tuple(d.document_id for d in plan.documents)
    merge = MergePlan(target_id=plan.newest_id, source_ids=ids, mode=MODE_MERGED_BODY, merged_body=plan.draft.body,
                      drafted=plan.stamps, note=note or "supersede: the newest state, the older kept as dated history",
                      decided_by=decided_by, model_id=plan.reading.model_id or None, supersede=plan.record())
    return merge_cluster(store, merge)


__all__ = ["SupersedeRefusedError", "SupersessionPlan", "plan_supersession", "prove_supersession", "timed",
           "why_not_unattended", "write_supersession"]
