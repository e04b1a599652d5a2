"""Re-check past merges: the current strict lens run again over every merge memgui wrote.

A merge's audit row holds the full before-image of every cluster member (the sources, target first) and the
after-image of the target (the merged body), so a merge written under an older lens can be judged by today's.
`recheck_merges_work(store)` yields Progress and returns a `RecheckReport`: each applied merge that now shows a
fact at risk, with

- the facts (token, kind, direction dropped / added / changed, the source documents holding each);
- what can be done: `undo` while undo would still go through (undo's own check, `ops.undo.check_undo`),
  otherwise `append-back` (the sentences of the sources that hold the lost facts, appended to the target under
  Netclaw's structural separator by `append_lost_facts`, itself audited and undoable), or `none` when neither
  applies (the target is gone, or the body only *adds* a fact: that needs an edit by hand).

A merge whose lost facts were appended back (an applied `append-back` row naming it) counts as resolved.
Rows written by the curation protocol (`decide-update`, `decide-consolidate`) are skipped with a reason: their
audit keeps the target's old body but not the proposal text it was merged with.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from ..merge.align import Alignment, Fate, Verdict, judge
from ..merge.facts.report import Direction, FactKind
from ..merge.sentences import split
from ..netfx import APPEND_SEPARATOR_RE, fold_case, is_blank
from ..ops.append_back import append_back
from ..ops.apply import SourceStamp
from ..ops.changes import Written
from ..ops.undo import AuditError, AuditNotFoundError, UndoConflictError, check_undo
from ..store import Store
from ..store.audit_log import (
    OP_APPEND_BACK,
    OP_DECIDE_CONSOLIDATE,
    OP_DECIDE_UPDATE,
    OP_MERGE,
    STATE_APPLIED,
    AuditEntry,
    document_row,
    get_entry,
    list_entries,
)
from ..store.values import RawText
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work, run_to_end
from .overwrites import StaleOverwrite, stale_overwrites

ACTION_UNDO = "undo"
ACTION_APPEND_BACK = "append-back"
ACTION_NONE = "none"
LOST = (Direction.DROPPED, Direction.CHANGED)  # directions a source sentence appended back can repair
_NOT_RECHECKABLE = {
    OP_DECIDE_UPDATE: "the curation protocol's merge: its audit keeps the old body but not the proposal text",
    OP_DECIDE_CONSOLIDATE: "the curation protocol's consolidation: its audit does not keep the proposal text",
}


class RecheckError(ValueError):
    """The append-back was refused (nothing at risk, nothing to append, the target is gone). Nothing written."""


class NotAMergeError(RecheckError):
    """The audit id names no applied merge. Nothing written."""


@dataclass(frozen=True)
class FactAtRisk:
    token: str
    kind: FactKind
    direction: Direction
    source_ids: tuple[str, ...]  # the documents (as they were before the merge) stating it

    def __post_init__(self) -> None:
        if type(self.direction) is not Direction:  # a plain string: checked and made one
            object.__setattr__(self, "direction", Direction(self.direction))
        if type(self.kind) is not FactKind:
            object.__setattr__(self, "kind", FactKind(self.kind))

    def to_dict(self) -> dict[str, Any]:
        return {"token": self.token, "kind": self.kind, "direction": self.direction, "sources": list(self.source_ids)}


@dataclass(frozen=True)
class RecheckedMerge:
    """One past merge that now shows a fact at risk, and what can be done about it."""

    audit_id: int
    created_at: int  # ms since the epoch, when the merge was written
    target_id: str
    target_title: str | None
    source_ids: tuple[str, ...]
    facts: tuple[FactAtRisk, ...]
    action: str  # undo | append-back | none
    why: str  # why that action (undo's refusal, a gone target, …)
    append_text: str  # what "append the lost fact back" would add ("" when nothing can be)
    target_stamp: SourceStamp | None  # the target as it was when re-checked (the append-back checks it)
    verdict: Verdict | None = None  # memgui's verdict on the merge today (core/merge/align.py)
    unproved: tuple[dict[str, Any], ...] = ()  # the source sentences it did not prove (lost or read), with why

    def to_dict(self) -> dict[str, Any]:
        return {
            "audit_id": self.audit_id, "created_at": self.created_at, "target_id": self.target_id,
            "target_title": self.target_title, "source_ids": list(self.source_ids),
            "facts": [f.to_dict() for f in self.facts], "action": self.action, "why": self.why,
            "append_text": self.append_text, "verdict": self.verdict.value if self.verdict else "",
            "unproved": list(self.unproved),
        }


@dataclass(frozen=True)
class RecheckReport:
    at_risk: tuple[RecheckedMerge, ...]
    checked: int  # merges the lens ran over
    resolved: tuple[tuple[int, int], ...] = ()  # (merge audit id, append-back audit id)
    skipped: tuple[tuple[int, str], ...] = ()  # (audit id, why it cannot be re-checked)
    verdicts: tuple[tuple[int, Verdict], ...] = ()  # (audit id, memgui's verdict) of every merge re-checked
    # writes that replaced a value without keeping the older one as history (overwrites.py)
    overwrites: tuple[StaleOverwrite, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.at_risk and not self.overwrites

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed, "checked": self.checked, "at_risk": [m.to_dict() for m in self.at_risk],
            "resolved": [{"audit_id": a, "append_back_audit_id": b} for a, b in self.resolved],
            "skipped": [{"audit_id": a, "why": why} for a, why in self.skipped],
            "verdicts": [{"audit_id": a, "verdict": v.value} for a, v in self.verdicts],
            "overwrites": [o.to_dict() for o in self.overwrites],
        }


# ---- reading a merge back from its images ---------------------------------------------------------------------

def _text(value: Any) -> str:
    if isinstance(value, RawText):
        return value.data.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class _MergeImages:
    source_ids: tuple[str, ...]
    bodies: tuple[str, ...]
    titles: tuple[str, ...]
    merged: str
    kept_title: str


def _images(entry: AuditEntry) -> _MergeImages | str:
    """The merge's sources and merged body from its audit images, or why they cannot be read."""
    if not entry.target_id:
        return "the merge names no target"
    ids = tuple(dict.fromkeys((entry.target_id, *entry.source_ids)))
    rows = [document_row(entry.before, i) for i in ids]
    after = document_row(entry.after, entry.target_id)
    if any(r is None for r in rows) or after is None:
        return "its audit images do not hold every source's body"
    return _MergeImages(ids, tuple(_text(r.get("markdown_body")) for r in rows if r is not None),
                        tuple(_text(r.get("title")) for r in rows if r is not None),
                        _text(after.get("markdown_body")), _text(after.get("title")))


def _facts(images: _MergeImages) -> tuple[tuple[FactAtRisk, ...], Alignment]:
    """The facts at risk (the lens over what the alignment did not prove) and the alignment itself."""
    # an append merge's `_[merged YYYY-MM-DD]_` separators are structure, not facts the body adds
    merged = APPEND_SEPARATOR_RE.sub("\n\n", images.merged)
    report, proof = judge(list(images.bodies), merged, titles=list(images.titles), kept_title=images.kept_title)
    n = len(images.source_ids)
    return tuple(
        FactAtRisk(a.token, a.kind, a.direction,
                   tuple(images.source_ids[i] for i in a.sources if 0 <= i < n))
        for a in report.at_risk
    ), proof


def _unproved(proof: Alignment) -> tuple[dict[str, Any], ...]:
    return tuple({"source": s.source, "index": s.index, "text": s.text, "fate": s.fate.value, "why": s.why,
                  "rules": list(s.rules)} for s in proof.sentences if s.fate in (Fate.LOST, Fate.READ))


def lost_fact_text(images_or_entry: AuditEntry | _MergeImages, facts: tuple[FactAtRisk, ...]) -> str:
    """The sentences (markdown units) of the sources that state each dropped or changed fact, in source order,
    once each, verbatim; a fact found only in a source's title brings that title back as a line."""
    images = _images(images_or_entry) if isinstance(images_or_entry, AuditEntry) else images_or_entry
    if isinstance(images, str):
        return ""
    picked: list[str] = []
    for index, doc_id in enumerate(images.source_ids):
        wanted = [fold_case(f.token) for f in facts if f.direction in LOST and doc_id in f.source_ids]
        if not wanted:
            continue
        found: set[str] = set()
        for sentence in split(images.bodies[index] or ""):
            text, folded = sentence.text, fold_case(sentence.text)
            hits = {w for w in wanted if w in folded}
            if text and hits:
                found |= hits
                if text not in picked:
                    picked.append(text)
        title = images.titles[index].strip()
        if title and any(w in fold_case(title) for w in set(wanted) - found) and title not in picked:
            picked.append(title)
    return "\n".join(picked)


def _refusal(exc: AuditError) -> str:
    """Why undo would refuse, as one clause."""
    if isinstance(exc, UndoConflictError):
        what = {"documents": "document", "anchors": "anchor", "records": "record"}.get(exc.kind, "exemption")
        return f"undo is no longer possible ({what} {exc.key} changed since the merge)"
    return f"undo is not possible ({str(exc).removesuffix('; nothing was written')})"


def recheck_entry(store: Store, entry: AuditEntry) -> RecheckedMerge | str | None:
    """One merge judged by the current lens: None when nothing is at risk, a reason string when it cannot be
    re-checked, else the finding with its action."""
    return _recheck(store, entry)[0]


def _recheck(store: Store, entry: AuditEntry) -> tuple[RecheckedMerge | str | None, Verdict | None]:
    """(recheck_entry's answer, memgui's verdict on the merge today, None when it could not be read)."""
    if entry.operation in _NOT_RECHECKABLE:
        return _NOT_RECHECKABLE[entry.operation], None
    images = _images(entry)
    if isinstance(images, str):
        return images, None
    facts, proof = _facts(images)
    if not facts:
        return None, proof.verdict
    append_text = lost_fact_text(images, facts)
    target = store.document(entry.target_id or "")
    stamp = SourceStamp.of(target) if target is not None and not target.is_tombstoned else None
    try:
        check_undo(store, entry)
        action, why = ACTION_UNDO, "every row still holds what the merge wrote: undo puts the sources back"
    except AuditError as exc:
        refusal = _refusal(exc)
        if stamp is None:
            action, why = ACTION_NONE, f"{refusal}, and the target is no longer live: nothing can be appended to it"
        elif not append_text:
            action, why = ACTION_NONE, f"{refusal}, and the body adds a fact no source stated: edit it by hand"
        else:
            action, why = ACTION_APPEND_BACK, f"{refusal}: the sentences holding the lost facts can be appended back"
    return RecheckedMerge(
        audit_id=entry.audit_id, created_at=entry.created_at, target_id=entry.target_id or "",
        target_title=target.title if target is not None else images.kept_title, source_ids=images.source_ids,
        facts=facts, action=action, why=why, append_text=append_text, target_stamp=stamp,
        verdict=proof.verdict, unproved=_unproved(proof),
    ), proof.verdict


def _resolved_by(store: Store) -> dict[int, int]:
    """merge audit id → the newest applied append-back that repaired it."""
    out: dict[int, int] = {}
    for fix in list_entries(store, operation=OP_APPEND_BACK, state=STATE_APPLIED):
        merged = fix.details.get("rechecks_audit_id")
        if isinstance(merged, int) and merged not in out:
            out[merged] = fix.audit_id
    return out


def recheck_merges_work(store: Store, *, cancel: CancelToken = NEVER_CANCELLED) -> Work[RecheckReport]:
    """Every applied merge memgui wrote, newest first, through the current lens."""
    entries = list_entries(store, operation=[OP_MERGE, *_NOT_RECHECKABLE], state=STATE_APPLIED)
    resolved_by = _resolved_by(store)
    at_risk: list[RecheckedMerge] = []
    resolved: list[tuple[int, int]] = []
    skipped: list[tuple[int, str]] = []
    verdicts: list[tuple[int, Verdict]] = []
    checked = 0
    yield Progress(Step.RE_CHECKING_MERGES, 0, len(entries))
    for done, entry in enumerate(entries, 1):
        cancel.raise_if_cancelled()
        result, verdict = _recheck(store, entry)
        if isinstance(result, str):
            skipped.append((entry.audit_id, result))
        else:
            checked += 1
            if verdict is not None:  # always, for a merge that could be read
                verdicts.append((entry.audit_id, verdict))
            if result is not None:
                if entry.audit_id in resolved_by:
                    resolved.append((entry.audit_id, resolved_by[entry.audit_id]))
                else:
                    at_risk.append(result)
        yield Progress(Step.RE_CHECKING_MERGES, done, len(entries), f"#{entry.audit_id}")
    yield Progress(Step.RE_CHECKING_OVERWRITES, 0, 1)
    overwrites = tuple(stale_overwrites(store))
    yield Progress(Step.RE_CHECKING_OVERWRITES, 1, 1)
    return RecheckReport(tuple(at_risk), checked, tuple(resolved), tuple(skipped), tuple(verdicts), overwrites)


def recheck_merges(store: Store) -> RecheckReport:
    return run_to_end(recheck_merges_work(store))


def append_lost_facts(store: Store, audit_id: int, *, drafted: SourceStamp | None = None, when: date | None = None,
                      note: str | None = None) -> Written:
    """Append back the sentences holding the facts merge `audit_id` lost, to its target (one audited,
    undoable write). `drafted` is the target's stamp when the finding was shown (default: as it is now); a
    target changed since refuses with StaleSourceError."""
    entry = get_entry(store, int(audit_id))
    if entry is None:
        raise AuditNotFoundError(f"audit {audit_id}: no such entry")
    if entry.operation != OP_MERGE or entry.state != STATE_APPLIED:
        raise NotAMergeError(f"audit {audit_id} is not an applied merge ({entry.operation}, {entry.state}); "
                             "nothing was written")
    fixed = _resolved_by(store).get(entry.audit_id)
    if fixed is not None:
        raise RecheckError(f"audit {audit_id}: its lost facts were appended back already (audit {fixed}); "
                           "nothing was written")
    finding = recheck_entry(store, entry)
    if finding is None:
        raise RecheckError(f"audit {audit_id} shows no fact at risk; nothing was written")
    if isinstance(finding, str):
        raise RecheckError(f"audit {audit_id} cannot be re-checked: {finding}; nothing was written")
    if is_blank(finding.append_text):
        raise RecheckError(f"audit {audit_id}: no source sentence holds a lost fact (the body only adds facts); "
                           "nothing was written")
    stamp = drafted or finding.target_stamp
    if stamp is None:
        raise RecheckError(f"{finding.target_id}: the merge's target is no longer live; nothing was written")
    lost = [f.to_dict() for f in finding.facts if f.direction in LOST]
    return append_back(store, finding.target_id, finding.append_text, stamp, when=when,
                       note=note or f"facts lost by merge #{audit_id} appended back",
                       details={"rechecks_audit_id": entry.audit_id, "facts": lost})


__all__ = [
    "ACTION_APPEND_BACK", "ACTION_NONE", "ACTION_UNDO", "FactAtRisk", "NotAMergeError", "RecheckError", "RecheckReport",
    "RecheckedMerge", "append_lost_facts", "lost_fact_text", "recheck_entry", "recheck_merges",
    "recheck_merges_work",
]
