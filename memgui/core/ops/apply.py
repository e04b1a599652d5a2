"""The one mutation path: every write memgui makes to a store, each in ONE BEGIN IMMEDIATE transaction that
also writes its audit row with full before- and after-images of every touched row (see core/store/audit_log.py).

Two families:
- `apply_decision` — Netclaw's ApplyDecisionAsync + batch write (netclaw-compat §9) for a curation decision on a
  proposal: Skip writes nothing; Create/Ambiguous write the proposal (new id, or the anchor dedup-collision
  path); Update and Consolidate from the LLM go through the guarded merge-or-append (guard passes → merged
  body, `merge-document`; fails or no body → the ORIGINAL proposal appended, `append-document`); only a
  deterministic Update overwrites. No LLM decision ever reaches a raw overwrite.
- Reviewer operations on existing documents: `merge_cluster`, `drop_document`, `edit_document`,
  `keep_separate` / `allow_nomination`. Each carries the sources' stamps (content_hash, updated_at) as they
  were when the decision was drafted and refuses with StaleSourceError if any changed since.

Undo/redo live in core/ops/undo.py (they restore images and are audited the same way).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from ..curation import markers
from ..curation.anchors import is_fuzzy_match, tokenize
from ..curation.rules import best_by_confidence, is_record
from ..curation.types import Candidate, CurationDecision, DecisionKind, Proposal
from ..merge.guard import MergeGuardReport, check_merge
from ..merge.read_pairs import ConfirmedRestatement
from ..netfx import (
    APPEND_SEMANTICS,
    MERGE_SEMANTICS,
    StrEnum,
    anchor_id_for,
    build_appended_body,
    equals_ignore_case,
    fold_case,
    is_blank,
    net_trim,
)
from ..store import Document, Store, exemptions as exemptions_mod, new_document_id, now_ms, queries
from ..store.audit_log import (
    OP_ALLOW_NOMINATION,
    OP_DECIDE_CONSOLIDATE,
    OP_DECIDE_CREATE,
    OP_DECIDE_UPDATE,
    OP_DROP,
    OP_EDIT,
    OP_KEEP_SEPARATE,
    OP_MERGE,
    Provenance,
    TextPack,
    details_json_of,
    prepared_texts,
    written_entry,
)
from ..store.values import new_record_id
from .change_record import Change, utc_today
from .changes import NO_CHANGES, Changes, Written, changes_of, written
from .policy import (  # re-exported: the merge modes are named where the rules that read them live
    MODE_APPEND as MODE_APPEND,
    MODE_MERGED_BODY as MODE_MERGED_BODY,
    MODE_UNION as MODE_UNION,
    MODES as MODES,
    MergeMode as MergeMode,
    guard_refuses,
    merge_refusal,
)
from .stamps import (  # re-exported (`X as X`): the errors and stamps every write uses
    ApplyError as ApplyError,
    ApplyInputError as ApplyInputError,
    GuardRefusedError as GuardRefusedError,
    SourceStamp as SourceStamp,
    StaleSourceError as StaleSourceError,
    body_digest as body_digest,
    check_stamps as check_stamps,
    draft_stamps as draft_stamps,
    what_changed as what_changed,
)


class Outcome(StrEnum):
    """What `apply_decision` did with a proposal (ApplyResult.outcome, the audit's details.outcome)."""

    SKIPPED = "skipped"
    CREATED = "created"
    MERGED = "merged"
    APPENDED = "appended"
    OVERWRITTEN = "overwritten"  # an explicit id that already existed: the proposal replaced it
    DUPLICATE_SKIPPED = "duplicate-skipped"


@dataclass(frozen=True)
class ApplyResult:
    outcome: Outcome
    document_id: str | None = None
    record_id: str | None = None
    update_semantics: str | None = None
    guard: Mapping[str, Any] | None = None  # MergeGuardReport.to_dict() when a guard ran
    audit_id: int | None = None
    markers: tuple[Any, ...] = ()  # markers.MarkerEvent values, in order
    document: Document | None = None  # the written (or duplicate) document as stored, for embed-on-write
    changes: Changes = NO_CHANGES  # what the write changed (from its audit row); none when nothing was written

    @property
    def wrote(self) -> bool:
        return self.audit_id is not None

    @property
    def marker_names(self) -> tuple[str, ...]:
        return tuple(e.marker for e in self.markers)


@dataclass(frozen=True)
class MergePlan:
    """A reviewer's accepted merge of a cluster into `target_id` (what the GUI hands to `merge_cluster`)."""

    target_id: str
    source_ids: tuple[str, ...]  # the cluster; may include the target
    mode: MergeMode = MODE_MERGED_BODY  # merged_body | append | union
    merged_body: str | None = None
    drafted: Mapping[str, SourceStamp] = field(default_factory=dict)
    model_id: str | None = None
    prompt_hash: str | None = None
    prompt: str | None = None
    raw_reply: str | None = None
    rationale: str | None = None
    cosines: tuple[tuple[str, str, float], ...] = ()
    guard_override: bool = False
    note: str | None = None
    decided_by: str = "reviewer"
    when: date | None = None
    forced: bool = False  # merged without the reviewer's stamps (`merge --body-file --force`): recorded
    # source sentences the reviewer confirmed as restated by the body (the window's alignment view): recorded
    confirmed: tuple[ConfirmedRestatement, ...] = ()
    # a supersession (issue 38): its reading, order and history, recorded with the merge (audit details.supersede)
    supersede: Mapping[str, Any] | None = None

    @property
    def cluster_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.target_id, *self.source_ids)))

    @property
    def other_ids(self) -> tuple[str, ...]:
        return tuple(i for i in self.cluster_ids if i != self.target_id)


def _guard_dict(report: MergeGuardReport | None) -> dict[str, Any] | None:
    return None if report is None else report.to_dict()


# ---- apply_decision (netclaw-compat §9) -------------------------------------------------------------------------------

class _DecisionRun:
    def __init__(self, store: Store, proposal: Proposal, decision: CurationDecision, when: date):
        self.store, self.p, self.decision, self.when = store, proposal, decision, when
        self.events: list[Any] = []
        self.change = Change(store)
        self.report: MergeGuardReport | None = None
        self.anchor_name = net_trim(proposal.anchor_name) or proposal.title
        self.proved: dict[tuple[Any, ...], MergeGuardReport] = {}  # (sources, merged) -> MergeGuardReport, computed before the lock

    def prove(self, candidates: Sequence[Candidate]) -> None:
        """MergeGuard on the body over every source list `guarded` can be given, BEFORE the transaction: the
        candidates are the list the decision was made against (never re-queried), so the sources are known."""
        d, merged = self.decision, self.decision.merged_body
        if is_blank(merged) or not d.from_llm_tier:
            return
        lists = []
        if d.kind == DecisionKind.UPDATE:
            target = next((c for c in candidates if c.document_id == d.target_document_id), None)
            if target is not None:
                lists.append([target.markdown_body, self.p.content])
        elif d.kind == DecisionKind.CONSOLIDATE:
            ids = list(d.consolidation_target_ids) or ([d.target_document_id] if d.target_document_id else [])
            wanted = {fold_case(i) for i in ids}
            targets = [c for c in candidates if fold_case(c.document_id) in wanted]
            if targets:
                lists.append([t.markdown_body for t in targets] + [self.p.content])
        for sources in lists:
            self.proved[(tuple(sources), merged)] = check_merge(sources, merged)

    def emit(self, marker: str, **fields: Any) -> None:
        markers.emit(self.events, marker, **fields)

    # -- the store's batch write of one document operation
    def _proposal_doc(self, doc_id: str, anchor_name: str, body: str, semantics: str, existing: Document | None) -> Document:
        p = self.p
        return Document(
            document_id=doc_id, anchor_id=existing.anchor_id if existing else anchor_id_for(anchor_name),
            memory_class=p.memory_class, title=p.title, markdown_body=body, aliases_json=p.aliases_json,
            facets_json=p.facets_json, slots_json=p.slots_json, update_semantics=semantics, boundary=p.boundary,
            audience=p.audience, sensitivity=p.sensitivity, recall_mode=p.recall_mode, confidence=p.confidence,
            freshness_at=p.freshness_at, expires_at=p.expires_at,
            created_at=existing.created_at if existing else 0, updated_at=existing.updated_at if existing else 0,
        )

    def _ensure_anchor(self, anchor_name: str) -> None:
        p = self.p
        self.change.touch(anchors=[anchor_id_for(anchor_name)])
        self.store.writes.ensure_anchor(
            anchor_name, anchor_type=p.anchor_type or "concept", sensitivity=p.sensitivity, recall_mode=p.recall_mode,
            confidence=p.confidence, freshness_at=p.freshness_at, status="active",
        )

    def write(self, *, memory_id: str | None, body: str, semantics: str,
              anchor_name: str) -> tuple[Outcome, Document | None]:
        """The batch write (STORE ApplyCurationOperationsAsync) of the proposal with `body`/`semantics`."""
        store, p = self.store, self.p
        anchor_id = anchor_id_for(anchor_name)
        if memory_id:
            existing = store.document(memory_id)
            self.change.touch(documents=[memory_id])
            self._ensure_anchor(anchor_name)
            doc = store.writes.upsert_document(self._proposal_doc(memory_id, anchor_name, body, semantics, existing))
            return (Outcome.CREATED if existing is None else Outcome.OVERWRITTEN), doc
        if semantics == MERGE_SEMANTICS:
            latest = store.documents_by_anchor(anchor_id, include_tombstoned=True)
            if latest:  # dedup collision: the anchor's most recently updated doc, in ANY state
                existing = latest[0]
                if p.content in existing.markdown_body:
                    self.emit("curation_dedup_duplicate_skipped", anchor=anchor_name, targetDoc=existing.document_id)
                    return Outcome.DUPLICATE_SKIPPED, existing
                self.change.touch(documents=[existing.document_id])
                self._ensure_anchor(anchor_name)
                appended = build_appended_body(existing.markdown_body, p.content, self.when)
                doc = replace(
                    self._proposal_doc(existing.document_id, anchor_name, appended, APPEND_SEMANTICS, existing),
                    title=existing.title, boundary=existing.boundary, audience=existing.audience,
                    sensitivity=existing.sensitivity,
                )
                self.emit("curation_dedup_append", anchor=anchor_name, targetDoc=existing.document_id)
                return Outcome.APPENDED, store.writes.upsert_document(doc)
        doc_id = new_document_id()
        self.change.touch(documents=[doc_id])
        self._ensure_anchor(anchor_name)
        return Outcome.CREATED, store.writes.upsert_document(self._proposal_doc(doc_id, anchor_name, body, semantics, None))

    def write_record(self) -> str:
        store, p = self.store, self.p
        record_id = p.memory_id or new_record_id()
        self.change.touch(records=[record_id])
        self._ensure_anchor(self.anchor_name)
        values = dict(
            record_id=record_id, anchor_id=anchor_id_for(self.anchor_name), memory_class=p.memory_class,
            record_type=p.title, payload_json=p.content, aliases_json=p.aliases_json, facets_json=p.facets_json,
            slots_json=p.slots_json, supersedes_record_id=None, update_semantics=p.update_semantics,
            boundary="boundary:trusted-instance" if p.boundary == "boundary:legacy-restricted" else p.boundary,
            audience=p.audience, sensitivity=p.sensitivity,
            recall_mode="never" if p.memory_class == "trace" else p.recall_mode, confidence=p.confidence,
            freshness_at=p.freshness_at, expires_at=p.expires_at, created_at=now_ms(),
        )
        store.writes.insert_record(values)
        return record_id

    # -- ApplyGuardedMergeOrAppend
    def guarded(self, target: Candidate, sources: list[str], anchor_name: str) -> tuple[Outcome, Document | None]:
        merged = self.decision.merged_body
        if not is_blank(merged):
            proved = self.proved.get((tuple(sources), merged))
            report = self.report = proved if proved is not None else check_merge(sources, merged)
            if report.passed:
                self.emit("curation_merge_guard_passed", anchor=anchor_name, targetDoc=target.document_id,
                          reason=report.reason)
                _, doc = self.write(memory_id=target.document_id, body=merged or "", semantics=MERGE_SEMANTICS,
                                    anchor_name=anchor_name)
                return Outcome.MERGED, doc
            self.emit("curation_merge_guard_failed", anchor=anchor_name, targetDoc=target.document_id,
                      missingTokens=list(report.missing), reason=report.reason)
        self.emit("curation_append_fallback", anchor=anchor_name, targetDoc=target.document_id,
                  hadMergedBody=not is_blank(merged))
        appended = build_appended_body(target.markdown_body, self.p.content, self.when)
        _, doc = self.write(memory_id=target.document_id, body=appended, semantics=APPEND_SEMANTICS,
                            anchor_name=anchor_name)
        return Outcome.APPENDED, doc

    def check_candidates(self, candidates: Iterable[Candidate]) -> None:
        """Candidates carry the bodies the decision was made against; refuse if a target changed since."""
        for cand in candidates:
            doc = self.store.document(cand.document_id)
            if doc is None:
                raise StaleSourceError(cand.document_id, None, None)
            if doc.is_tombstoned or doc.markdown_body != cand.markdown_body:
                raise StaleSourceError(cand.document_id, None, SourceStamp.of(doc),
                                       "was tombstoned" if doc.is_tombstoned else "body changed")

    def fuzzy_anchor_ids(self, anchor_name: str) -> list[str]:
        """FindFuzzyAnchorMatchesAsync: active anchors with a live document whose name matches exactly or fuzzily."""
        rows = queries.active_anchors_with_live_documents(self.store)
        wanted, proposed = anchor_id_for(anchor_name), tokenize(anchor_name)
        return [aid for aid, name in rows if equals_ignore_case(aid, wanted) or is_fuzzy_match(proposed, tokenize(name))]

    def consolidate(self, candidates: Sequence[Candidate]) -> tuple[Outcome, Document | None, list[str]]:
        store, d = self.store, self.decision
        canonical = net_trim(d.canonical_anchor_name or "") or self.anchor_name
        canonical_id = anchor_id_for(canonical)
        ids = list(d.consolidation_target_ids) or ([d.target_document_id] if d.target_document_id else [])
        wanted = {fold_case(i) for i in ids}
        targets = [c for c in candidates if fold_case(c.document_id) in wanted]
        self.check_candidates(targets)
        for doc_id in ids:  # side effects first: re-anchor every named document …
            doc = store.document(doc_id)
            if doc is not None and doc.anchor_id != canonical_id:
                self.change.touch(documents=[doc_id])
                store.writes.reanchor_document(doc_id, canonical_id)
                self.emit("curation_reanchor", docId=doc_id, newAnchor=canonical_id)
        for aid in self.fuzzy_anchor_ids(self.anchor_name):  # … then tombstone the proposal's other matching anchors
            if aid != canonical_id:
                self.change.touch(anchors=[aid])
                store.writes.tombstone_anchor(aid)
                self.emit("curation_tombstone_anchor", anchorId=aid, canonicalName=canonical)
        if not targets:
            outcome, doc = self.write(memory_id=None, body=self.p.content, semantics=self.p.update_semantics,
                                      anchor_name=canonical)
            return outcome, doc, ids
        primary = best_by_confidence(targets)
        sources = [t.markdown_body for t in targets] + [self.p.content]
        outcome, doc = self.guarded(primary, sources, canonical)
        return outcome, doc, ids


def apply_decision(
    store: Store,
    proposal: Proposal,
    decision: CurationDecision,
    candidates: Sequence[Candidate],
    *,
    when: date | None = None,
    audit_context: Provenance | None = None,
) -> ApplyResult:
    """Apply one curation decision exactly as Netclaw's ApplyDecisionAsync + batch write (netclaw-compat §9), in one
    transaction with its audit row. `candidates` is the list the decision was made against (never
    re-queried); a target whose body changed since refuses with StaleSourceError."""
    if is_blank(proposal.title) and is_blank(proposal.anchor_name):
        raise ApplyInputError("the proposal has neither an anchor nor a title; nothing was written")
    run = _DecisionRun(store, proposal, decision, when or utc_today())
    run.prove(candidates)  # the guard's work before BEGIN IMMEDIATE; inside, only stamps and writes
    # the long texts the audit images will hold, compressed before the lock (an appended body is made inside)
    run.change.texts = TextPack([*(c.markdown_body for c in candidates), proposal.content, decision.merged_body])
    kind = decision.kind
    prov = audit_context or Provenance(decided_by="llm" if decision.from_llm_tier else "rules",
                                       rationale=decision.rationale)
    markers.emit_decision_applied(run.events, run.anchor_name, decision)
    if kind == DecisionKind.SKIP:
        return ApplyResult(Outcome.SKIPPED, document_id=decision.target_document_id, markers=tuple(run.events))
    operation, sources = OP_DECIDE_CREATE, []
    record_id = None
    with store.transaction():
        if is_record(proposal):
            record_id = run.write_record()
            outcome, doc = Outcome.CREATED, None
        elif kind in (DecisionKind.CREATE, DecisionKind.AMBIGUOUS):
            outcome, doc = run.write(memory_id=proposal.memory_id, body=proposal.content,
                                     semantics=proposal.update_semantics, anchor_name=run.anchor_name)
        elif kind == DecisionKind.UPDATE and not decision.from_llm_tier:
            operation, target = OP_DECIDE_UPDATE, decision.target_document_id
            sources = [target] if target else []
            run.check_candidates([c for c in candidates if c.document_id == target])
            outcome, doc = run.write(memory_id=target or proposal.memory_id, body=proposal.content,
                                     semantics=proposal.update_semantics, anchor_name=run.anchor_name)
        elif kind == DecisionKind.UPDATE:
            chosen = next((c for c in candidates if c.document_id == decision.target_document_id), None)
            if chosen is None:
                run.emit("curation_update_target_unknown", anchor=run.anchor_name, targetId=decision.target_document_id)
                outcome, doc = run.write(memory_id=proposal.memory_id, body=proposal.content,
                                         semantics=proposal.update_semantics, anchor_name=run.anchor_name)
            else:
                operation, sources = OP_DECIDE_UPDATE, [chosen.document_id]
                run.check_candidates([chosen])
                outcome, doc = run.guarded(chosen, [chosen.markdown_body, proposal.content], run.anchor_name)
        elif kind == DecisionKind.CONSOLIDATE:
            operation = OP_DECIDE_CONSOLIDATE
            outcome, doc, sources = run.consolidate(candidates)
        else:  # pragma: no cover - DecisionKind is closed
            raise ApplyInputError(f"unknown decision kind {kind!r}")
        audit_id = None
        if not run.change.empty:
            audit_id = run.change.commit(
                operation=operation, target_id=doc.document_id if doc else record_id, source_ids=sources,
                provenance=prov, guard_passed=None if run.report is None else run.report.passed,
                details={
                    "outcome": outcome,
                    "decision": {
                        "kind": kind.value, "target_document_id": decision.target_document_id,
                        "consolidation_target_ids": list(decision.consolidation_target_ids),
                        "canonical_anchor_name": decision.canonical_anchor_name, "reason": decision.reason,
                        "from_llm_tier": decision.from_llm_tier, "had_merged_body": bool(decision.merged_body),
                    },
                    "proposal": {"title": proposal.title, "anchor": run.anchor_name, "kind": proposal.kind},
                    "guard": _guard_dict(run.report),
                    "when": run.when.isoformat(),
                    "markers": [e.line for e in run.events],
                },
            )
    return ApplyResult(
        outcome, document_id=doc.document_id if doc else None, record_id=record_id,
        update_semantics=doc.update_semantics if doc else None, guard=_guard_dict(run.report), audit_id=audit_id,
        markers=tuple(run.events), document=doc,
        changes=NO_CHANGES if audit_id is None else changes_of(written_entry(store, audit_id)),
    )


# ---- reviewer operations ---------------------------------------------------------------------------------------

def merge_body(plan: MergePlan, target: Document, others: Sequence[Document], when: date) -> tuple[str, str]:
    """(body, update_semantics) the merge writes: the plan's body, the append of every other source, or the
    deterministic sentence union (core/merge/union.py)."""
    if plan.mode == MODE_APPEND:
        body = target.markdown_body
        for other in others:
            body = build_appended_body(body, other.markdown_body, when)
        return body, APPEND_SEMANTICS
    if plan.mode == MODE_UNION:
        from ..merge.union import sentence_union

        return sentence_union(target.markdown_body, [o.markdown_body for o in others]), MERGE_SEMANTICS
    return plan.merged_body or "", MERGE_SEMANTICS


def merge_cluster(store: Store, plan: MergePlan,
                  prove: Callable[[Document, Sequence[Document], str], None] | None = None) -> Written:
    """Merge a cluster into `plan.target_id`: the target keeps its identity (title, anchor, boundary,
    audience, …) and gets the guarded body (`merge-document`) or, in append mode, its body with every
    other source appended under a `_[merged YYYY-MM-DD]_` separator (`append-document`); the other
    sources are tombstoned. Refuses with StaleSourceError if a source changed since `plan.drafted`, with
    GuardRefusedError if the guard fails without override; `prove(target, others, body)` may refuse too (an
    ApplyError: bulk accept re-runs the lens there).

    The write lock is held for milliseconds, not for the work: the sources are read, the body drafted (union,
    append) and proved (MergeGuard, `prove`) BEFORE the transaction; inside BEGIN IMMEDIATE only the stamps
    are checked again and the rows and the audit row written."""
    refusal = merge_refusal(plan.mode, plan.target_id, plan.other_ids, plan.merged_body)
    if refusal is not None:
        raise ApplyInputError(refusal)
    when = plan.when or utc_today()
    # ---- outside the lock: read, draft, prove
    docs = check_stamps(store, plan.cluster_ids, plan.drafted)
    target, others = docs[plan.target_id], [docs[i] for i in plan.other_ids]
    body, semantics = merge_body(plan, target, others, when)
    report = check_merge([target.markdown_body] + [o.markdown_body for o in others], body)
    if guard_refuses(report.passed, plan.guard_override):
        raise GuardRefusedError(report)
    if prove is not None:
        prove(target, others, body)
    details = {
        "mode": plan.mode, "guard": report.to_dict(), "guard_override": bool(plan.guard_override and not report.passed),
        "tombstoned": list(plan.other_ids), "when": when.isoformat(),
        "drafted": {k: [v.content_hash, v.updated_at] for k, v in plan.drafted.items() if k in plan.cluster_ids},
    }
    if plan.forced:
        details["forced"] = True
    confirmed = [c.to_dict() for c in plan.confirmed if c.document_id in plan.cluster_ids]
    if confirmed and plan.mode == MODE_MERGED_BODY:
        details["confirmed_restatements"] = confirmed
    if plan.supersede is not None and plan.mode == MODE_MERGED_BODY:
        details["supersede"] = dict(plan.supersede)
    provenance = Provenance(plan.decided_by, plan.model_id, plan.prompt_hash, plan.raw_reply, plan.rationale,
                            tuple(plan.cosines), plan.note, plan.prompt)
    # the audit row's parts known now: its details serialised, the texts its images will hold compressed
    details_json = details_json_of(provenance, details)
    texts = prepared_texts([body, target.markdown_body, *(o.markdown_body for o in others)], details_json)
    # ---- inside the lock: the stamps again, then the rows and the audit row
    with store.transaction():
        docs = check_stamps(store, plan.cluster_ids, plan.drafted)
        change = Change(store, texts)
        change.touch(documents=plan.cluster_ids)
        store.writes.upsert_document(replace(docs[plan.target_id], markdown_body=body, update_semantics=semantics))
        for other_id in plan.other_ids:
            store.writes.tombstone_document(other_id)
        audit_id = change.commit(operation=OP_MERGE, target_id=plan.target_id, source_ids=plan.cluster_ids,
                                 provenance=provenance, guard_passed=report.passed, details_json=details_json)
    return written(written_entry(store, audit_id))


def _stamp_map(doc_id: str, drafted: SourceStamp | Mapping[str, SourceStamp] | None) -> Mapping[str, SourceStamp]:
    return {doc_id: drafted} if isinstance(drafted, SourceStamp) else (drafted or {})


def drop_document(store: Store, doc_id: str, drafted: SourceStamp | Mapping[str, SourceStamp], note: str | None = None,
                  *, provenance: Provenance | None = None) -> Written:
    """Tombstone a redundant document (softly, as Netclaw does), audited and undoable."""
    with store.transaction():
        check_stamps(store, [doc_id], _stamp_map(doc_id, drafted))
        change = Change(store)
        change.touch(documents=[doc_id])
        store.writes.tombstone_document(doc_id)
        prov = provenance or Provenance(note=note)
        audit_id = change.commit(operation=OP_DROP, target_id=doc_id, source_ids=[doc_id],
                                 provenance=replace(prov, note=note if note is not None else prov.note), details={})
    return written(written_entry(store, audit_id))


def edit_document(store: Store, doc_id: str, body: str, drafted: SourceStamp | Mapping[str, SourceStamp], *,
                  title: str | None = None, note: str | None = None, guard_override: bool = False) -> Written:
    """A person's edit of one document's body (and optionally title). The guard is re-run against the old
    body; a failing guard needs `guard_override` (recorded). update_semantics is kept, as Netclaw's
    update_memory tool does; updated_at bumped, FTS refreshed, embedding rows deleted."""
    if is_blank(body):
        raise ApplyInputError("the edited body is empty; use drop to remove a document")
    stamps = _stamp_map(doc_id, drafted)
    doc = check_stamps(store, [doc_id], stamps)[doc_id]  # read and proved before the write lock
    new_title = doc.title if title is None else title
    if body == doc.markdown_body and new_title == doc.title:
        raise ApplyInputError(f"{doc_id}: the edit changes nothing; nothing was written")
    report = check_merge([doc.markdown_body], body)
    if guard_refuses(report.passed, guard_override):
        raise GuardRefusedError(report)
    provenance = Provenance(note=note)
    details_json = details_json_of(provenance, {"guard": report.to_dict(),
                                                "guard_override": bool(guard_override and not report.passed)})
    texts = prepared_texts([doc.markdown_body, body], details_json)  # compressed before the lock
    with store.transaction():
        doc = check_stamps(store, [doc_id], stamps)[doc_id]
        change = Change(store, texts)
        change.touch(documents=[doc_id])
        store.writes.upsert_document(replace(doc, markdown_body=body, title=new_title))
        audit_id = change.commit(operation=OP_EDIT, target_id=doc_id, source_ids=[doc_id], provenance=provenance,
                                 guard_passed=report.passed, details_json=details_json)
    return written(written_entry(store, audit_id))


def _exemption_op(store: Store, doc_ids: Iterable[str], note: str | None, *, add: bool,
                  pairs: Iterable[tuple[str, str]] | None = None) -> Written:
    ids = list(dict.fromkeys(doc_ids))
    if len(ids) < 2:
        raise ApplyInputError("keeping documents separate needs at least two different documents")
    if pairs is None:
        pairs = exemptions_mod.all_pairs(ids)
    else:
        pairs = list(dict.fromkeys(exemptions_mod.ordered_pair(a, b) for a, b in pairs if a != b))
        outside = [x for pair in pairs for x in pair if x not in ids]
        if not pairs or outside:
            raise ApplyInputError("the pairs kept separate must be two different documents of the cluster")
    with store.transaction():
        known = {d.document_id for d in store.documents_by_ids(ids)}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise ApplyInputError(f"{unknown[0]}: no such document; nothing was written")
        change = Change(store)
        change.touch(exemptions=pairs)
        for a, b in pairs:
            if add:
                exemptions_mod.add_exemption(store, a, b, note)
            else:
                exemptions_mod.remove_exemption(store, a, b)
        audit_id = change.commit(operation=OP_KEEP_SEPARATE if add else OP_ALLOW_NOMINATION, target_id=None,
                                 source_ids=ids, provenance=Provenance(note=note),
                                 details={"pairs": [list(p) for p in pairs]})
    return written(written_entry(store, audit_id))


def keep_separate(store: Store, doc_ids: Iterable[str], note: str | None = None,
                  pairs: Iterable[tuple[str, str]] | None = None) -> Written:
    """"Not duplicates": an exemption for every pair of `doc_ids` — or only for `pairs`, the pairs that are
    actually apart (across same-fact groups, or unchecked by the reviewer), never for pairs of an accepted
    group — so the nominator never offers them again. The calibration data reads the same recorded pairs."""
    return _exemption_op(store, doc_ids, note, add=True, pairs=pairs)


def allow_nomination(store: Store, doc_ids: Iterable[str], note: str | None = None) -> Written:
    """Forget the exemptions between every pair of `doc_ids` (audited, undoable)."""
    return _exemption_op(store, doc_ids, note, add=False)
