"""Bulk accept with proof: "accept all safe" over cluster reviews, each write its own audited transaction.

A cluster is safe to accept without a person reading it only when every check agrees (`why_not_safe`, in policy.py): the
model judged its pairs and the proposal is the model's largest same-fact group (two or more members, exactly
the documents the merge covers, at most `MAX_MERGED` of them), the decision is UPDATE/CONSOLIDATE with a merged
body, Netclaw's MergeGuard passed AND memgui's check proved the body (core/merge/align.py: every source sentence
kept or restated, nothing added; a `read` or `loss` verdict is left for a person), and the cluster carries no
"likely different facts" mark. Everything else is listed with the reason it was left out.

The second reader (`decide.reader`, docs/reader.md): when it ran, each cluster that passes every check above was
read by the local model, one question per source ("does the merged body keep every fact of this source
unchanged?"); a "no" for any source, or a cluster it did not read, takes the cluster out of the safe set with the
reader's one-line reason. Its verdicts are computed beforehand (`batch_reader.read_safe_clusters`, a cancellable
generator) and passed in as a `ReaderRun`, so `plan_batch` stays pure. When it did not run (no model, or
`--no-reader`) the checks above alone decide, and the plan says "second reader: not run" with why.

`plan_batch` is pure (reviews in, a `BatchPlan` out: every write with its target, tombstones, length ratio,
guard and strict results; JSON via `to_dict`, readable via `to_markdown`). `apply_batch` writes the plan one
cluster at a time through `merge_cluster`, with the stamps the review saw: a source changed since the review
refuses that write (StaleSourceError) and the others go on. Every write of a batch carries the batch id in its
audit note (`accept-safe batch <id>`; no schema change), so `undo_batch` finds them and undoes them newest first,
reporting any that refuse.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from ..curation.types import DecisionKind
from ..decide.reader import ReaderReport
from ..decide.review import Badge, ClusterReview
from ..merge.align import Alignment, Verdict, judge
from ..merge.guard import check_merge
from ..merge.strict import StrictReport
from ..merge.supersede import Reading
from ..netfx import StrEnum, is_blank
from ..store import Store, StoreError, StoreWriteFailedError
from ..store.audit_log import OP_MERGE, STATE_UNDONE, AuditEntry, list_entries
from ..store.values import Document
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work
from .apply import MODE_MERGED_BODY, ApplyError, MergePlan, SourceStamp, merge_cluster
from .changes import NO_CHANGES, Changes
from .policy import (  # re-exported: the rule for unattended writes lives in policy.py
    MAX_MERGED as MAX_MERGED,
    MERGE_DECISIONS as MERGE_DECISIONS,
    merged_ids as merged_ids,
    proved as proved,
    rule_text as rule_text,
    why_not_linked as why_not_linked,
    why_not_safe as why_not_safe,
)
from .supersede import SupersessionPlan, prove_supersession, why_not_unattended
from .undo import AuditError, undo

NOTE_PREFIX = "accept-safe batch "
_BATCH_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class WriteKind(StrEnum):
    """A planned write that is not a model's merge decision (those are DecisionKind UPDATE / CONSOLIDATE)."""

    SUPERSEDE = "SUPERSEDE"  # a supersession (issue 38)


SUPERSEDE = WriteKind.SUPERSEDE


class Unreviewed(StrEnum):
    """An excluded cluster's verdict when no review of it was at hand (a reviewed one shows the review's Badge)."""

    NOT_REVIEWED = "not reviewed"


def decision_of(value: Any, where: str) -> DecisionKind | WriteKind:
    """A plan's decision as read from a file: a DecisionKind or SUPERSEDE, else BatchError (the plan is refused
    whole, as `validate_plan` refuses a decision it does not allow)."""
    if value in DecisionKind.__members__.values():
        return DecisionKind(value)
    if value in WriteKind.__members__.values():
        return WriteKind(value)
    raise BatchError(f"{where}: the decision is {value!r}, not one memgui knows (UPDATE/CONSOLIDATE, or SUPERSEDE "
                     "with its reading)")


class BatchError(Exception):
    """A batch operation was refused as asked (unknown batch id, malformed plan). Nothing was written."""


class LensRefusedError(ApplyError):
    """memgui's check, run again at apply time, does not prove the planned body: the plan's claim did not hold."""

    def __init__(self, report: StrictReport, proof: Alignment | None = None):
        self.report = report
        self.proof = proof
        why = "; ".join(proof.reasons[:2]) if proof is not None else ", ".join(
            str(a.get("token", "?")) for a in report.to_dict().get("at_risk", [])[:4])
        verdict = proof.verdict.value if proof is not None else "not proved"
        super().__init__(f"memgui's check does not prove the merged body now ({verdict}"
                         + (f": {why}" if why else "") + "); nothing was written")


def check_batch_id(batch_id: object) -> str:
    """The batch id if it can be written and given back to `memgui undo-batch` (letters, digits, '.', '_',
    '-'; no spaces, not empty, at most 64); else BatchError."""
    if not isinstance(batch_id, str) or not _BATCH_ID.match(batch_id):
        raise BatchError(f"{str(batch_id)[:80]!r}: not a batch id (letters, digits, '.', '_' or '-', 1–64 of them, "
                         "starting with a letter or digit); nothing was written")
    return batch_id


def new_batch_id(now: datetime | None = None) -> str:
    """`YYYYMMDD-HHMMSS-xxxx` (UTC, plus randomness): sortable, short enough to type in `memgui undo-batch`."""
    when = (now or datetime.now(timezone.utc)).strftime("%Y%m%d-%H%M%S")
    return f"{when}-{secrets.token_hex(2)}"


def batch_note(batch_id: str) -> str:
    return f"{NOTE_PREFIX}{batch_id}"


def batch_id_of(entry: AuditEntry) -> str | None:
    """The batch an audit entry was written by, from its note; None for a write outside any batch."""
    note = entry.note or ""
    if not note.startswith(NOTE_PREFIX):
        return None
    rest = note[len(NOTE_PREFIX):].split(maxsplit=1)
    return rest[0] if rest else None


# ---- the rule ----------------------------------------------------------------------------------------------

def with_safe_body(review: ClusterReview | None) -> ClusterReview | None:
    """The review with the body bulk accept may write: the model's merged body when MergeGuard and the lens both
    pass it; else the sentence-union draft of the same notes when both pass that (it keeps every sentence that
    brings a fact, so a model that dropped one does not cost the merge); else the review as it is."""
    if review is None or review.decision not in MERGE_DECISIONS:
        return review
    if (review.guard or {}).get("passed") and proved(review.strict):
        return review
    union = review.union_draft or {}
    same_notes = set(union.get("targets") or ()) == set(review.targets)
    if same_notes and not is_blank(union.get("merged_body")) and (union.get("guard") or {}).get("passed") \
            and proved(union.get("strict")):
        failed = "MergeGuard failed" if not (review.guard or {}).get("passed") else \
            f"memgui's check says {(review.strict or {}).get('verdict') or 'not proved'} of"
        return replace(review, merged_body=union["merged_body"], guard=union["guard"], strict=union["strict"],
                       rationale=f"{review.rationale or ''} [memgui: {failed} the model's draft; the "
                                 "prove-or-keep union draft of the same notes is written instead]".strip())
    return review


# ---- the plan ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlannedWrite:
    """One merge the batch would write."""

    cluster_id: str
    target_id: str
    tombstoned: list[str]
    decision: DecisionKind | WriteKind
    merged_body: str
    length_ratio: float | None
    guard: dict[str, Any]  # {passed, reason, retention, length_ratio, missing}
    strict: dict[str, Any]  # {passed, checked, at_risk}
    stamps: dict[str, dict[str, Any]]  # each merged document as the review saw it: {updated_at, content_hash}
    model_id: str
    rationale: str | None = None
    raw_reply: str | None = None
    titles: dict[str, str] = field(default_factory=dict)
    reader: dict[str, Any] | None = None  # the second reader's ReaderReport.to_dict(), None when it did not run
    supersede: dict[str, Any] | None = None  # a SUPERSEDE write: its reading, order and history (issue 38)

    @property
    def source_ids(self) -> list[str]:
        return [self.target_id, *self.tombstoned]


@dataclass(frozen=True)
class Exclusion:
    """A cluster the batch leaves for a person, and why."""

    cluster_id: str
    member_ids: list[str]
    reason: str
    verdict: Badge | Unreviewed  # the queue badge: pending / same / different / mixed, or "not reviewed"
    titles: dict[str, str] = field(default_factory=dict)
    reader: dict[str, Any] | None = None  # the second reader's verdicts, when it read this cluster


@dataclass(frozen=True)
class ReaderRun:
    """The second reader's verdicts for a plan, by cluster id; `ran` False (and `note` saying why) when it did
    not run, so the plan can say so."""

    ran: bool
    note: str = ""
    reports: Mapping[str, ReaderReport] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"ran": self.ran, "note": self.note or ("ran" if self.ran else "no model")}


READER_NOT_RUN = ReaderRun(False, "no model")


@dataclass(frozen=True)
class BatchPlan:
    batch_id: str
    created_at: str  # ISO 8601 UTC
    writes: list[PlannedWrite]
    excluded: list[Exclusion]
    reader: dict[str, Any] = field(default_factory=READER_NOT_RUN.to_dict)  # {ran, note}: did the second reader run

    @property
    def considered(self) -> int:
        return len(self.writes) + len(self.excluded)

    def to_dict(self) -> dict[str, Any]:
        return {
            "batch_id": self.batch_id, "created_at": self.created_at, "considered": self.considered,
            "accepted": len(self.writes), "rule": rule_text(), "reader": dict(self.reader),
            "writes": [asdict(w) for w in self.writes], "excluded": [asdict(x) for x in self.excluded],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BatchPlan:
        """A plan from plain values (validated by core/store/seams.py when read from a file), checked by
        `validate_plan`: a plan is a claim, and one that breaks the rule's shape is refused whole."""
        try:
            plan = cls(str(data["batch_id"]), str(data.get("created_at", "")),
                       [_planned_write(w) for w in data.get("writes", [])],
                       [_exclusion(x) for x in data.get("excluded", [])],
                       dict(data.get("reader") or READER_NOT_RUN.to_dict()))
        except (KeyError, TypeError) as exc:
            raise BatchError(f"not an accept-safe plan ({type(exc).__name__}: {exc})") from None
        validate_plan(plan)
        return plan

    def to_markdown(self) -> str:
        from .batch_markdown import plan_markdown

        return plan_markdown(self)


def _planned_write(data: Mapping[str, Any]) -> PlannedWrite:
    """One planned write from plain values, its decision typed (KeyError / TypeError when a field is missing)."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a planned write is an object, not {type(data).__name__}")
    where = f"cluster {data.get('cluster_id')}"
    return PlannedWrite(**{**data, "decision": decision_of(data["decision"], where)})


def _exclusion(data: Mapping[str, Any]) -> Exclusion:
    """One exclusion from plain values, its verdict typed: BatchError for a verdict this memgui does not show."""
    if not isinstance(data, Mapping):
        raise TypeError(f"an exclusion is an object, not {type(data).__name__}")
    value = data["verdict"]
    if value in Badge.__members__.values():
        verdict: Badge | Unreviewed = Badge(value)
    elif value in Unreviewed.__members__.values():
        verdict = Unreviewed(value)
    else:
        raise BatchError(f"cluster {data.get('cluster_id')}: the verdict {value!r} is not one memgui knows "
                         f"({', '.join([*Badge, *Unreviewed])})")
    return Exclusion(**{**data, "verdict": verdict})


def _write_of(cluster_id: str, review: ClusterReview, titles: Mapping[str, str],
              reader: dict[str, Any] | None = None) -> PlannedWrite:
    merged = merged_ids(review)
    target, decision, body = review.target, review.decision, review.merged_body
    if target is None or decision is None or body is None:  # why_not_safe passed it: never, said plainly if so
        raise BatchError(f"cluster {cluster_id}: a write without a target, a decision or a merged body")
    guard = dict(review.guard or {})
    return PlannedWrite(
        cluster_id=str(cluster_id), target_id=target, tombstoned=[m for m in merged if m != target],
        decision=decision, merged_body=body, length_ratio=guard.get("length_ratio"),
        guard={k: guard.get(k) for k in ("passed", "reason", "retention", "length_ratio", "missing")},
        strict=dict(review.strict or {}), stamps={m: dict(review.stamps[m]) for m in merged},
        model_id=review.model_id, rationale=review.rationale, raw_reply=review.raw_reply,
        titles={m: titles.get(m, "") for m in merged}, reader=reader,
    )


def _supersede_write(cluster_id: Any, plan: SupersessionPlan, titles: Mapping[str, str]) -> PlannedWrite:
    if plan.draft is None or plan.newest_id is None:  # why_not_unattended passed it: never, said plainly if so
        raise BatchError(f"cluster {cluster_id}: a supersession without a draft")
    ids = [d.document_id for d in plan.documents]
    bodies = [d.markdown_body or "" for d in plan.documents]
    guard = check_merge(bodies, plan.draft.body).to_dict()
    return PlannedWrite(
        cluster_id=str(cluster_id), target_id=plan.newest_id, tombstoned=[i for i in ids if i != plan.newest_id],
        decision=SUPERSEDE, merged_body=plan.draft.body, length_ratio=guard.get("length_ratio"),
        guard={k: guard.get(k) for k in ("passed", "reason", "retention", "length_ratio", "missing")},
        strict={"verdict": "proved", "checked": 0, "supersede_check": plan.check.to_dict() if plan.check else None},
        stamps={i: {"updated_at": st.updated_at, "content_hash": st.content_hash} for i, st in plan.stamps.items()},
        model_id=plan.reading.model_id, rationale=plan.reading.reason, titles={i: titles.get(i, "") for i in ids},
        supersede=plan.record(),
    )


def reader_reason(run: ReaderRun, cluster_id: Any) -> tuple[str | None, dict[str, Any] | None]:
    """(why the second reader takes this otherwise safe cluster out, or None; its report as a dict)."""
    if not run.ran:
        return None, None
    report = run.reports.get(str(cluster_id))
    if report is None:
        return "the second reader did not read it", None
    data = report.to_dict()
    return (None if report.passed else f"the second reader: {report.reason}"), data


def plan_batch(clusters: Iterable[tuple[Any, Sequence[str], ClusterReview | None]], *,
               titles: Mapping[str, str] | None = None, batch_id: str | None = None,
               now: datetime | None = None, reader: ReaderRun = READER_NOT_RUN,
               supersessions: Mapping[Any, SupersessionPlan] | None = None,
               links: Mapping[Any, Collection[frozenset[str]]] | None = None) -> BatchPlan:
    """The batch over `(cluster id, member ids, review or None)`, in the given order. A cluster that shares a
    document with an earlier planned write is left out (its review saw that document before the merge).
    `links`: each cluster's cosine nominee edges (`batch_inputs.cosine_links` of the scan); when given, a write
    whose documents only a shared anchor joins is left for a person (`why_not_linked`). None: every cluster is
    taken as joined by its cosine (reviews planned without a scan).
    `reader`: the second reader's verdicts (computed beforehand); a "no" for any source leaves the cluster out.
    `supersessions`: the supersede reading of clusters (computed beforehand): a cluster no merge takes is written
    as a supersession when `why_not_unattended` allows it, else its reason joins the cluster's."""
    titles = titles or {}
    when = now or datetime.now(timezone.utc)
    writes: list[PlannedWrite] = []
    excluded: list[Exclusion] = []
    claimed: set[str] = set()
    for cluster_id, members, review in clusters:
        members = list(members)
        review = with_safe_body(review)
        reason = why_not_safe(review, members)
        if reason is None and review is not None and links is not None:
            reason = why_not_linked(merged_ids(review), links.get(cluster_id, ()))
        read: dict[str, Any] | None = None
        if reason is None:
            reason, read = reader_reason(reader, cluster_id)
        if reason is None and review is not None and claimed & set(merged_ids(review)):
            reason = "shares a document with an earlier write of this batch"
        superseding = (supersessions or {}).get(cluster_id)
        if reason is not None and superseding is not None:
            why = why_not_unattended(superseding)
            if why is None and links is not None:
                why = why_not_linked([d.document_id for d in superseding.documents], links.get(cluster_id, ()))
            if why is None and claimed & {d.document_id for d in superseding.documents}:
                why = "shares a document with an earlier write of this batch"
            if why is None:
                write = _supersede_write(cluster_id, superseding, titles)
                writes.append(write)
                claimed |= set(write.source_ids)
                continue
            if superseding.reading.reading is not Reading.UNDECIDED:  # read as a supersession or a dated series
                reason = f"{reason}; supersede: {why}"
        if reason is None and review is not None:  # (why_not_safe passes only a reviewed cluster)
            write = _write_of(cluster_id, review, titles, read)
            writes.append(write)
            claimed |= set(write.source_ids)
        else:
            excluded.append(Exclusion(str(cluster_id), members, reason or "not reviewed",
                                      review.verdict if review is not None else Unreviewed.NOT_REVIEWED,
                                      {m: titles.get(m, "") for m in members}, read))
    bid = check_batch_id(batch_id or new_batch_id(when))
    return BatchPlan(bid, when.isoformat(timespec="seconds"), writes, excluded, reader.to_dict())


# ---- applying ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WriteOutcome:
    cluster_id: str
    target_id: str
    audit_id: int | None = None  # set when written
    error: str | None = None  # set when refused (one line)


@dataclass(frozen=True)
class BatchResult:
    batch_id: str
    written: list[WriteOutcome]
    refused: list[WriteOutcome]
    cancelled: bool = False
    changes: Changes = NO_CHANGES  # every write's changes, as one, with the batch id

    def to_dict(self) -> dict[str, Any]:
        return {"batch_id": self.batch_id, "written": [asdict(w) for w in self.written],
                "refused": [asdict(r) for r in self.refused], "cancelled": self.cancelled,
                "changes": self.changes.to_dict()}


def validate_plan(plan: BatchPlan) -> None:
    """BatchError (nothing written) unless every planned write has the shape the rule allows: a valid batch id,
    2–MAX_MERGED distinct documents, the target not among its tombstones, a stamp for exactly those documents,
    an UPDATE/CONSOLIDATE decision with a body, no second reader's "no", and no document in two writes. The
    checks a plan claims to have passed (MergeGuard, the lens) are not read from it: `apply_batch` runs them."""
    check_batch_id(plan.batch_id)
    claimed: dict[str, str] = {}
    for write in plan.writes:
        where = f"cluster {write.cluster_id}"
        members = [write.target_id, *write.tombstoned]
        if len(set(members)) != len(members):
            raise BatchError(f"{where}: a document is named twice (target and tombstones must differ)")
        if not 2 <= len(members) <= MAX_MERGED:
            raise BatchError(f"{where}: {len(members)} documents in one write (bulk accept takes 2–{MAX_MERGED})")
        if set(write.stamps) != set(members):
            raise BatchError(f"{where}: the stamps name other documents than the write merges")
        if write.decision not in MERGE_DECISIONS and not (write.decision == SUPERSEDE and write.supersede):
            raise BatchError(f"{where}: the decision is '{write.decision}', not UPDATE/CONSOLIDATE (or SUPERSEDE "
                             "with its reading)")
        if is_blank(write.merged_body):
            raise BatchError(f"{where}: no merged body")
        if write.reader is not None and write.reader.get("passed") is False:
            raise BatchError(f"{where}: the second reader said its facts are not kept")
        for m in members:
            if m in claimed:
                raise BatchError(f"{where}: {m} is also merged by cluster {claimed[m]}")
            claimed[m] = write.cluster_id


def prove_lens(target: Document, others: Sequence[Document], body: str) -> None:
    """memgui's strict lens on the body over the sources as they are now (run before the write lock)."""
    docs = [target, *others]
    report, proof = judge([d.markdown_body for d in docs], body, titles=[d.title or "" for d in docs],
                          kept_title=target.title or "")
    if proof.verdict is not Verdict.PROVED:
        raise LensRefusedError(report, proof)


def _merge_plan(write: PlannedWrite, batch_id: str, decided_by: str) -> MergePlan:
    try:
        drafted = {d: SourceStamp(str(s["content_hash"]), int(s["updated_at"])) for d, s in write.stamps.items()}
    except (KeyError, TypeError, ValueError):
        raise BatchError(f"cluster {write.cluster_id}: the plan's stamps are malformed") from None
    return MergePlan(target_id=write.target_id, source_ids=tuple(write.source_ids), mode=MODE_MERGED_BODY,
                     merged_body=write.merged_body, drafted=drafted, model_id=write.model_id,
                     raw_reply=write.raw_reply, rationale=write.rationale, note=batch_note(batch_id),
                     decided_by=decided_by, supersede=write.supersede)


def apply_batch(store: Store, plan: BatchPlan, *, decided_by: str = "reviewer",
                cancel: CancelToken | None = None) -> Work[BatchResult]:
    """Write every planned merge, each its own transaction with its audit row (tagged with the batch id).
    A plan is a claim, not a proof: its shape is validated (`validate_plan`), its batch id must be new to the
    store, and at each write MergeGuard, the strict lens and the stamps are run again on the sources as they are
    now. A refused write (a source changed since the review, the guard or the lens now fails, a lock) is
    reported and the rest go on; a write the store could not take (a full disk, an I/O error) stops the batch,
    the writes after it reported as not tried; cancelling stops between writes. Yields Progress; returns the
    BatchResult."""
    cancel = cancel or NEVER_CANCELLED
    written: list[WriteOutcome] = []
    refused: list[WriteOutcome] = []
    changes = NO_CHANGES.with_batch(plan.batch_id)
    total = len(plan.writes)
    validate_plan(plan)  # a malformed plan writes nothing
    merges = [_merge_plan(w, plan.batch_id, decided_by) for w in plan.writes]
    if plan.writes and batch_entries(store, plan.batch_id):
        raise BatchError(f"batch {plan.batch_id} was already applied to this store (a plan is applied once; "
                         "scan again for a new plan); nothing was written")
    for i, (write, merge) in enumerate(zip(plan.writes, merges)):
        if cancel.cancelled:
            return BatchResult(plan.batch_id, written, refused, cancelled=True, changes=changes)
        yield Progress(Step.ACCEPTING, i, total, f"{write.target_id}")
        try:
            entry = merge_cluster(store, merge, prove=prove_supersession if write.supersede else prove_lens)
        except (ApplyError, StoreError) as exc:
            refused.append(WriteOutcome(write.cluster_id, write.target_id, error=" ".join(str(exc).split())))
            if isinstance(exc, StoreWriteFailedError):  # a full disk, an I/O error: every later write fails alike
                refused += [WriteOutcome(w.cluster_id, w.target_id, error="not tried: the store could not take the "
                                         f"write before it (cluster {write.cluster_id})") for w in plan.writes[i + 1:]]
                break
            continue
        written.append(WriteOutcome(write.cluster_id, write.target_id, audit_id=entry.audit_id))
        changes = changes | entry.changes
    yield Progress(Step.ACCEPTING, total, total, "done")
    return BatchResult(plan.batch_id, written, refused, changes=changes)


# ---- undoing a batch -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BatchUndoResult:
    batch_id: str
    undone: list[tuple[int, int]]  # (audit id of the merge, audit id of its undo)
    refused: list[tuple[int, str]]  # (audit id, why)
    already_undone: list[int]
    changes: Changes = NO_CHANGES  # every undo's changes, as one, with the batch id

    def to_dict(self) -> dict[str, Any]:
        return {"batch_id": self.batch_id, "undone": [{"audit_id": a, "undo_audit_id": u} for a, u in self.undone],
                "refused": [{"audit_id": a, "error": e} for a, e in self.refused],
                "already_undone": list(self.already_undone), "changes": self.changes.to_dict()}


def batch_entries(store: Store, batch_id: str) -> list[AuditEntry]:
    """The merges written by batch `batch_id`, newest first."""
    return [e for e in list_entries(store, operation=OP_MERGE) if batch_id_of(e) == batch_id]


def undo_batch(store: Store, batch_id: str) -> BatchUndoResult:
    """Undo the batch's writes newest first, each its own audited transaction (`core.ops.undo`). A write whose
    documents changed since refuses (reported) and the others go on. BatchError when no write has this id."""
    entries = batch_entries(store, batch_id)
    if not entries:
        raise BatchError(f"batch {batch_id}: no write of this batch in the audit")
    undone: list[tuple[int, int]] = []
    refused: list[tuple[int, str]] = []
    already: list[int] = []
    changes = NO_CHANGES.with_batch(batch_id)
    for entry in entries:
        if entry.state == STATE_UNDONE:
            already.append(entry.audit_id)
            continue
        try:
            done = undo(store, entry.audit_id, note=f"undo of {batch_note(batch_id)}")
        except (AuditError, StoreError) as exc:
            refused.append((entry.audit_id, " ".join(str(exc).split())))
            continue
        undone.append((entry.audit_id, done.audit_id))
        changes = changes | done.changes
    return BatchUndoResult(batch_id, undone, refused, already, changes)


__all__ = [
    "MAX_MERGED",
    "READER_NOT_RUN",
    "BatchError",
    "BatchPlan",
    "BatchResult",
    "BatchUndoResult",
    "Exclusion",
    "LensRefusedError",
    "PlannedWrite",
    "ReaderRun",
    "WriteOutcome",
    "apply_batch",
    "batch_entries",
    "batch_id_of",
    "batch_note",
    "check_batch_id",
    "merged_ids",
    "new_batch_id",
    "plan_batch",
    "prove_lens",
    "reader_reason",
    "rule_text",
    "undo_batch",
    "validate_plan",
    "why_not_safe",
]
