"""One cluster reviewed end to end, without writing: every pair judged, the largest same-fact group drafted,
both guards run, the likely-different mark and each source's stamp recorded.

This is what `memgui decide` prints, what the window's background queue computes ahead of the reviewer and
what `memgui accept-safe` plans from, so all three see the same proposal. A `ClusterReview` holds only plain
values (JSON-able) so it can be cached per store and model file (`decide.cache`).

Without a capable decider (`decider=None`, or one that failed its self-test) the review is the deterministic
sentence-union draft, unjudged, over the largest group of members that do not disagree on a value (an amount,
a date: `groups.conflict_partition`) — the whole cluster when none do.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from ..curation.types import Candidate, CurationDecision, DeciderResult, DecisionKind, Proposal
from ..merge.align import judge, proof_dict
from ..merge.conflicts import likely_different
from ..merge.guard import check_merge
from ..netfx import StrEnum, is_blank
from ..tasks import CancelToken, Work
from .drafts import union_draft
from .groups import FactGroups, choose_target, conflict_partition, judge_pairs
from .inputs import cluster_inputs


class Badge(StrEnum):
    """A cluster's queue badge (`ClusterReview.verdict`): what the model's review found."""

    PENDING = "pending"  # not judged by a model
    SAME_FACT = "same"  # one group holds every member
    DIFFERENT_FACTS = "different"  # no two members the same fact
    MIXED = "mixed"


# Bumped whenever what a review contains or how its groups are made changes (2: value conflicts keep pairs
# apart), so a cached review made by older rules is made again.
REVIEW_RULES = 2


def stamps_of(documents: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """Each document's updated_at and byte-exact hash: a review (or draft) is valid only while they hold."""
    return {d.document_id: {"updated_at": d.updated_at, "content_hash": d.exact_hash} for d in documents}


@dataclass(frozen=True)
class ClusterReview:
    """The proposal for one cluster (the fields of `memgui decide --json`)."""

    decision: DecisionKind | None  # SKIP / CREATE / UPDATE / CONSOLIDATE, None when the model gave none
    targets: list[str]
    rationale: str | None
    merged_body: str | None
    guard: dict[str, Any] | None  # Netclaw's MergeGuard on the drafted group (MergeGuardReport.to_dict)
    strict: dict[str, Any] | None  # memgui's strict lens on the same body (StrictReport.to_dict)
    model_id: str
    seconds: float | None
    prompt_tokens: int | None
    completion_tokens: int | None
    proposal_id: str
    candidate_ids: list[str]
    error: str | None
    raw_reply: str | None
    groups: list[list[str]]  # the same-fact partition, largest first (one unjudged group without a model)
    groups_judged: bool
    target: str | None  # the most complete, then newest, member of the largest group
    pairs: list[dict[str, Any]]
    stamps: dict[str, dict[str, Any]]
    likely_different: dict[str, Any]  # {"likely_different": bool, "reason": str}, before any model call
    decider_available: bool
    selftest: dict[str, Any] | None = None
    union_draft: dict[str, Any] | None = None  # the deterministic draft for the model's targets, beside its own body
    note: str | None = None  # why no model decided, when none did
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def verdict(self) -> Badge:
        """The queue badge: pending (not judged by a model), same (one group holds every member), different
        (no two members the same fact) or mixed."""
        if not self.groups_judged:
            return Badge.PENDING
        if len(self.groups) == 1:
            return Badge.SAME_FACT
        return Badge.DIFFERENT_FACTS if max(len(g) for g in self.groups) == 1 else Badge.MIXED

    @property
    def member_ids(self) -> list[str]:
        return [m for g in self.groups for m in g]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClusterReview:
        """A review from plain values (a cached one): ValueError when its decision is not a DecisionKind (a
        cache written by another memgui), TypeError when a field is missing."""
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        if values.get("decision") is not None:
            values["decision"] = DecisionKind(values["decision"])
        return cls(**values)


def _targets(decision: CurationDecision | None) -> list[str]:
    if decision is None:
        return []
    if decision.consolidation_target_ids:
        return list(decision.consolidation_target_ids)
    return [decision.target_document_id] if decision.target_document_id else []


def _checks(proposal: Proposal, candidates: Sequence[Candidate], decision: CurationDecision | None,
            titles: dict[str, str]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(Netclaw's guard, the strict lens) on a decision's merged body over the sources it names."""
    if decision is None or not decision.merged_body:
        return None, None
    by_id = {c.document_id: c for c in candidates}
    chosen = [t for t in _targets(decision) if t in by_id]
    sources = [by_id[t].markdown_body for t in chosen] + [proposal.content]
    source_titles = [titles.get(t, "") for t in chosen] + [proposal.title or ""]
    kept = titles.get(chosen[0], "") if chosen else proposal.title or ""
    guard = check_merge(sources, decision.merged_body).to_dict()
    return guard, proof_dict(*judge(sources, decision.merged_body, titles=source_titles, kept_title=kept))


def _from_result(proposal: Proposal, candidates: Sequence[Candidate], result: DeciderResult,
                 titles: dict[str, str]) -> dict[str, Any]:
    d = result.decision
    guard, strict = _checks(proposal, candidates, d, titles)
    return {
        "decision": d.kind if d else None, "targets": _targets(d), "rationale": result.rationale,
        "merged_body": d.merged_body if d else None, "guard": guard, "strict": strict,
        "model_id": result.model_id, "seconds": result.seconds, "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens, "proposal_id": proposal.memory_id,
        "candidate_ids": [c.document_id for c in candidates], "error": result.error, "raw_reply": result.raw_reply,
    }


def _all_different(proposal: Proposal, candidates: Sequence[Candidate], model_id: str) -> dict[str, Any]:
    """Every pair judged different: nothing to merge (the reviewer keeps them separate)."""
    return {
        "decision": DecisionKind.CREATE, "targets": [], "rationale": "every pair was judged a different fact",
        "merged_body": None, "guard": None, "strict": None, "model_id": model_id, "seconds": None,
        "prompt_tokens": None, "completion_tokens": None, "proposal_id": proposal.memory_id,
        "candidate_ids": [c.document_id for c in candidates], "error": None, "raw_reply": None,
    }


def review_cluster(documents: Sequence[Any], names: dict[str, str] | None = None, decider: Any = None, *,
                   capable: bool = True, selftest: dict[str, Any] | None = None, note: str | None = None,
                   cancel: CancelToken | None = None) -> Work[ClusterReview]:
    """Review `documents` (live, two or more). With a decider (`capable`: it passed its self-test) every pair
    is judged and the largest same-fact group drafted by the model; otherwise the sentence-union draft of the
    largest group that does not disagree on a value. A generator: yields Progress (the model's stream), returns the ClusterReview."""
    docs = list(documents)
    by_id = {d.document_id: d for d in docs}
    titles = {d.document_id: d.title or "" for d in docs}
    mark = likely_different([d.markdown_body for d in docs], [d.title for d in docs])
    out = None
    use_model = decider is not None and capable
    if not use_model:
        # The groups in which no two members disagree on a value (one group when none do), the largest drafted.
        parts, _ = conflict_partition(docs)
        largest = [by_id[m] for m in parts[0]] if len(parts[0]) >= 2 else docs
        groups = FactGroups(parts, choose_target(largest), ())
        proposal, candidates = cluster_inputs(largest, names)
    else:
        groups = yield from judge_pairs(docs, decider.judge_pair, cancel=cancel)
        largest = [by_id[m] for m in groups.largest]
        proposal, candidates = cluster_inputs(docs, names)
        if len(largest) >= 2:  # the merge is drafted for the largest same-fact group only
            proposal, candidates = cluster_inputs(largest, names)
            result = yield from decider.decide(proposal, candidates, full_candidate_content=True, cancel=cancel)
            out = _from_result(proposal, candidates, result, titles)
        else:
            out = _all_different(proposal, candidates, decider.model_id)
    union = union_draft(proposal, candidates, primary=groups.target)
    extra: dict[str, Any] = {}
    if out is None:
        out = _from_result(proposal, candidates, union, titles)
    elif out["decision"] in (DecisionKind.UPDATE, DecisionKind.CONSOLIDATE, None):
        targets = out["targets"] or None
        draft = union_draft(proposal, candidates, targets, primary=groups.target) if targets != [] else union
        guard, strict = _checks(proposal, candidates, draft.decision, titles)
        body = draft.decision.merged_body if draft.decision else None
        extra["union_draft"] = {"targets": _targets(draft.decision), "merged_body": body,
                                "guard": guard, "strict": strict}
    return ClusterReview(
        **out, groups=[list(g) for g in groups.groups], groups_judged=bool(groups.verdicts), target=groups.target,
        pairs=[v.to_dict() for v in groups.verdicts], stamps=stamps_of(docs),
        likely_different={"likely_different": mark.likely_different, "reason": mark.reason},
        decider_available=use_model, selftest=selftest, note=None if use_model else note, **extra,
    )


def rechecked(review: ClusterReview, documents: Sequence[Any]) -> ClusterReview:
    """A kept review with memgui's own checks run again on today's rules: the cache keeps what the model said,
    not what the guard and the lens say of it (a newer lens may see what the older one let through). The
    members are the ones the review was made of (the cache compares their stamps first)."""
    by_id = {d.document_id: d for d in documents}
    chosen = [t for t in review.targets if t in by_id]
    proposal = by_id.get(review.proposal_id)
    mark = likely_different([d.markdown_body for d in documents], [d.title for d in documents])
    marked = {"likely_different": mark.likely_different, "reason": mark.reason}
    if proposal is None or not review.merged_body:
        return replace(review, likely_different=marked)
    sources = [by_id[t].markdown_body for t in chosen] + [proposal.markdown_body]
    titles = [by_id[t].title or "" for t in chosen] + [proposal.title or ""]
    guard = check_merge(sources, review.merged_body).to_dict()
    strict = proof_dict(*judge(sources, review.merged_body, titles=titles, kept_title=titles[0]))
    union = dict(review.union_draft or {})
    if not is_blank(union.get("merged_body")):
        union["guard"] = check_merge(sources, union["merged_body"]).to_dict()
        union["strict"] = proof_dict(*judge(sources, union["merged_body"], titles=titles, kept_title=titles[0]))
    return replace(review, guard=guard, strict=strict, likely_different=marked, union_draft=union or None)


__all__ = ["REVIEW_RULES", "Badge", "ClusterReview", "rechecked",
           "review_cluster", "stamps_of"]
