"""The evaluator order of Netclaw's MemoryCurationEvaluator.EvaluateAsync for one typed proposal (netclaw-compat §5).

1. Record bypass → Create `immutable record bypass`, no candidates.
2. Anchor candidates: for every ACTIVE anchor its most recently updated non-tombstoned document; a candidate when
   the anchor id equals the proposal's normalized id (exact) or the names fuzzy-match (netclaw-compat §6).
3. No exact candidate → evidence: the nominator (cosine ≥ threshold, top K, hydrated to active, live documents);
   when it cannot run (`None`, or `NominatorUnavailable(reason)`) the logged degraded path runs the lexical FTS
   search instead. A nominator that runs and finds nothing does NOT trigger the lexical search.
4. A nominee present → the LLM tier with full candidate content; no usable LLM decision → conservative Create.
   Cosine alone never merges and never skips.
5. Otherwise the rules tier; Ambiguous → LLM with truncated previews → else auto-resolve → else Create.
   GuardDestructiveUpdate on rules decisions only (never on LLM decisions).
6. A guard-downgraded exact-anchor Update falls through once: exact candidates are demoted and steps 3–6 rerun.

The returned `Evaluation.candidates` is the exact list the decision was made against; apply uses it and never
re-queries the store. Markers (netclaw-compat §13) are emitted through `markers.emit` as the flow runs.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...config import CurationSettings
from ..netfx import (
    anchor_id_for,
    equals_ignore_case,
    fold_case,
    fts_match_query,
    is_blank,
    lower_invariant,
    net_split,
    net_trim,
    utf16_len,
)
from ..store import Store, StoreError, StoreLockedError, queries
from ..tasks import Cancelled, CancelToken, Progress, run_to_end
from .anchors import is_fuzzy_match, tokenize
from .markers import MarkerEvent, MarkerLog, decision_label, emit
from .rules import (
    REASON_RECORD_BYPASS,
    evaluate_rules,
    guard_destructive_update,
    is_record,
    try_auto_resolve_ambiguous,
)
from .types import (
    Candidate,
    CurationDecision,
    Decider,
    DeciderResult,
    DecisionKind,
    Nomination,
    Nominator,
    NominatorUnavailable,
    Proposal,
)

REASON_CONSERVATIVE_CREATE = (
    "nominee present but no LLM decision available: conservative create (no auto-merge on cosine alone)"
)
REASON_AMBIGUOUS_CREATE = "ambiguous: auto-resolve insufficient, defaulting to create"

DEGRADED_NO_EMBEDDER = "no_embedder_configured"
DEGRADED_EMBEDDER_UNAVAILABLE = "embedder_unavailable"
DEGRADED_INDEX_UNAVAILABLE = "vector_index_unavailable"

LEXICAL_MAX_TERMS = 8
LEXICAL_MIN_TERM_LENGTH = 3
LEXICAL_LIMIT = 5
_LEXICAL_SEPARATORS = re.compile("[" + re.escape(" \t\n\r.,:;!?\"'") + "]")


@dataclass(frozen=True)
class Evaluation:
    decision: CurationDecision
    candidates: tuple[Candidate, ...]
    llm_calls: int = 0
    decider_result: DeciderResult | None = None  # the last decider call's result (also when it failed)
    events: tuple[MarkerEvent, ...] = ()


def extractor_anchor(content: str) -> str:
    """Netclaw's rules-first extractor anchor: the first space-separated word of the trimmed content,
    lower-cased; `session` when there is none (netclaw-compat §4)."""
    words = [w for w in net_trim(content or "").split(" ") if w]
    first = words[0] if words else ""
    return "session" if is_blank(first) else lower_invariant(first)


# ---- store reads (Netclaw's own queries, in core/store/queries.py) ---------------------------------

def _candidate(row: tuple[Any, ...], *, is_exact: bool = False) -> Candidate:
    anchor_id, canonical_name, document_id, body, freshness_at, confidence = row
    return Candidate(
        document_id=document_id, anchor_id=anchor_id, canonical_name=canonical_name, markdown_body=body,
        freshness_at=freshness_at, confidence=0.0 if confidence is None else float(confidence), is_exact=is_exact,
    )


def anchor_candidates(store: Store, proposed_anchor_name: str) -> list[Candidate]:
    """FindFuzzyAnchorMatchesAsync: the latest live document of every active anchor whose id equals the
    proposal's normalized anchor id (exact, case-insensitive) or whose name fuzzy-matches. Store order."""
    if is_blank(proposed_anchor_name):
        return []
    rows = queries.latest_live_document_per_active_anchor(store)
    proposed_id = anchor_id_for(proposed_anchor_name)
    proposed_tokens = tokenize(proposed_anchor_name)
    found: list[Candidate] = []
    for row in rows:
        anchor_id, canonical_name, document_id, body = row[0], row[1], row[2], row[3]
        if document_id is None or body is None:
            continue
        exact = equals_ignore_case(anchor_id, proposed_id)
        if exact or is_fuzzy_match(proposed_tokens, tokenize(canonical_name)):
            found.append(_candidate(row, is_exact=exact))
    return found


def candidates_by_ids(store: Store, document_ids: Sequence[str]) -> list[Candidate]:
    """GetCandidatesByIdsAsync: live documents under active anchors, in the order asked; others skipped."""
    found: list[Candidate] = []
    for document_id in document_ids:
        row = queries.live_candidate(store, document_id)
        if row is not None:
            found.append(_candidate(row))
    return found


def lexical_terms(content: str) -> list[str]:
    """The degraded path's terms: split on whitespace and . , : ; ! ? " ' ; length ≥ 3; lower-cased;
    distinct; the first 8."""
    terms: list[str] = []
    seen: set[str] = set()
    for piece in net_split(content, _LEXICAL_SEPARATORS):
        if utf16_len(piece) < LEXICAL_MIN_TERM_LENGTH:
            continue
        term = lower_invariant(piece)
        if term in seen:
            continue
        seen.add(term)
        terms.append(term)
        if len(terms) == LEXICAL_MAX_TERMS:
            break
    return terms


def candidates_by_content(store: Store, terms: Sequence[str], limit: int = LEXICAL_LIMIT) -> list[Candidate]:
    """FindCandidatesByContentAsync: the top 5×limit FTS hits, then durable facts under active anchors that are
    not tombstoned, by rank then confidence then recency; at most `limit`. No FTS table → none."""
    query = fts_match_query(terms)
    if query is None or limit <= 0:
        return []
    try:
        rows = queries.content_candidates(store, query, limit * 5, limit)
    except StoreLockedError:
        raise
    except StoreError:
        return []  # a damaged FTS index finds nothing rather than failing the evaluation
    return [_candidate(r) for r in rows]


# ---- the flow -------------------------------------------------------------------------------------

class _Flow:
    def __init__(self, store: Store, proposal: Proposal, nominator: Nominator | None, decider: Decider | None,
                 settings: CurationSettings, cancel: CancelToken | None, sink: MarkerLog,
                 on_progress: Callable[[Progress], None] | None):
        self.store, self.proposal, self.nominator, self.decider = store, proposal, nominator, decider
        self.settings, self.cancel, self.sink, self.on_progress = settings, cancel, sink, on_progress
        self.anchor = proposal.anchor_name
        self.llm_calls = 0
        self.decider_result: DeciderResult | None = None

    def _check(self) -> None:
        if self.cancel is not None:
            self.cancel.raise_if_cancelled()

    def _emit(self, marker: str, **fields: Any) -> None:
        emit(self.sink, marker, anchor=self.anchor, **fields)

    # EvaluateCandidatesAsync
    def run(self, candidates: list[Candidate], has_exact: bool) -> CurationDecision:
        self._check()
        anchor_hits = len(candidates)
        if not has_exact:
            self._gather_evidence(candidates, anchor_hits)

        if any(c.cosine is not None for c in candidates):
            if self.decider is not None:
                decision = self._ask_llm(candidates, full_candidate_content=True)
                if decision is not None:
                    self._emit("curation_llm_decision", decision=decision_label(decision.kind), reason=decision.reason)
                    return decision
            self._emit("curation_nominee_no_llm_decision", llm_available=self.decider is not None)
            return CurationDecision(DecisionKind.CREATE, reason=REASON_CONSERVATIVE_CREATE)

        rules = evaluate_rules(self.proposal, candidates)
        if rules.kind is DecisionKind.AMBIGUOUS and self.decider is not None:
            decision = self._ask_llm(candidates, full_candidate_content=False)
            if decision is not None:
                self._emit("curation_llm_decision", decision=decision_label(decision.kind), reason=decision.reason)
                return decision
        if rules.kind is DecisionKind.AMBIGUOUS:
            resolved = try_auto_resolve_ambiguous(self.proposal, candidates)
            if resolved is not None:
                self._emit("curation_ambiguous_auto_resolved", decision=decision_label(resolved.kind),
                           reason=resolved.reason)
                return resolved
            self._emit("curation_ambiguous_create_fallback", llm_available=self.decider is not None)
            return CurationDecision(DecisionKind.CREATE, reason=REASON_AMBIGUOUS_CREATE)

        guarded = guard_destructive_update(rules, self.proposal, candidates)
        if has_exact and rules.kind is DecisionKind.UPDATE and guarded.kind is DecisionKind.SKIP:
            self._emit("curation_guard_fallthrough", rejectedTarget=guarded.target_document_id or "(unknown)")
            for i, c in enumerate(candidates):
                if c.is_exact:
                    candidates[i] = replace(c, is_exact=False)
            return self.run(candidates, has_exact=False)
        return guarded

    def _gather_evidence(self, candidates: list[Candidate], anchor_hits: int) -> None:
        if self.nominator is None:
            self._degraded(candidates, anchor_hits, DEGRADED_NO_EMBEDDER)
            return
        self._check()
        try:
            nominations = list(self.nominator.nominate(
                self.proposal.title, self.proposal.content,
                k=self.settings.nominator_k, threshold=self.settings.nominator_similarity_threshold,
            ))
        except NominatorUnavailable as exc:
            self._degraded(candidates, anchor_hits, exc.reason)
            return
        nominees, top_cosine = self._hydrate(nominations)
        if not nominees:
            return
        index = {fold_case(c.document_id): i for i, c in enumerate(candidates)}
        for nominee in nominees:
            at = index.get(fold_case(nominee.document_id))
            if at is not None:
                candidates[at] = replace(candidates[at], cosine=nominee.cosine)
            else:
                candidates.append(nominee)
        self._emit("curation_nominated", count=len(nominees), topCosine=top_cosine)

    def _hydrate(self, nominations: list[Nomination]) -> tuple[list[Candidate], float]:
        threshold, k = self.settings.nominator_similarity_threshold, self.settings.nominator_k
        kept = [n for n in nominations if n.cosine >= threshold][: max(0, k)]
        if not kept:
            return [], 0.0
        hydrated = candidates_by_ids(self.store, [n.document_id for n in kept])
        if not hydrated:
            return [], 0.0
        cosine_by_id = {n.document_id: float(n.cosine) for n in kept}
        tagged = [replace(c, cosine=cosine_by_id[c.document_id]) if c.document_id in cosine_by_id else c
                  for c in hydrated]
        return tagged, float(kept[0].cosine)

    def _degraded(self, candidates: list[Candidate], anchor_hits: int, reason: str) -> None:
        emit(self.sink, "curation_nominator_degraded", anchor=self.anchor, reason=reason)
        if is_blank(self.proposal.content):
            return
        terms = lexical_terms(self.proposal.content)
        if not terms:
            return
        self._check()
        found = candidates_by_content(self.store, terms, LEXICAL_LIMIT)
        if not found:
            return
        existing = {fold_case(c.document_id) for c in candidates}
        for c in found:
            if fold_case(c.document_id) not in existing:
                candidates.append(c)
        self._emit("curation_dual_search", anchor_hits=anchor_hits, content_hits=len(found), merged=len(candidates))

    # TryLlmEvaluationAsync
    def _ask_llm(self, candidates: list[Candidate], *, full_candidate_content: bool) -> CurationDecision | None:
        assert self.decider is not None
        self._check()
        self.llm_calls += 1
        timeout = self.settings.llm_timeout_seconds
        try:
            work = self.decider.decide(
                self.proposal, tuple(candidates), full_candidate_content=full_candidate_content,
                cancel=self.cancel, timeout_s=timeout,
            )
            result = run_to_end(work, self.on_progress)
        except Cancelled:
            self._check()  # the user's own cancel stops the evaluation
            self.decider_result = DeciderResult(decision=None, error="cancelled",
                                                model_id=getattr(self.decider, "model_id", ""))
            self._emit("curation_llm_timeout", timeoutSeconds=timeout)
            return None
        except Exception as exc:  # any decider failure falls back, as Netclaw's catch-all does
            self.decider_result = DeciderResult(decision=None, error=str(exc) or type(exc).__name__,
                                                model_id=getattr(self.decider, "model_id", ""))
            self._emit("curation_llm_error", error=self.decider_result.error)
            return None
        if not isinstance(result, DeciderResult):
            self.decider_result = DeciderResult(decision=None, error="decider returned no result",
                                                model_id=getattr(self.decider, "model_id", ""))
            self._emit("curation_llm_error", error=self.decider_result.error)
            return None
        self.decider_result = result
        decision = result.decision
        try:
            kind = DecisionKind(decision.kind) if decision is not None else None
        except ValueError:
            kind = None
        if decision is None or kind is None or kind is DecisionKind.AMBIGUOUS:
            if result.error in ("timeout", "cancelled"):
                if result.error == "cancelled":
                    self._check()
                self._emit("curation_llm_timeout", timeoutSeconds=timeout)
            elif result.error not in (None, "", "unparseable"):
                self._emit("curation_llm_error", error=result.error)
            else:
                self._emit("curation_llm_no_decision", responseLength=utf16_len(net_trim(result.raw_reply or "")))
            return None
        return replace(decision, kind=kind, from_llm_tier=True, rationale=decision.rationale or result.rationale)


class _Sink:
    """Collects the evaluation's events and forwards each to the caller's own log (list or callable)."""

    def __init__(self, forward: MarkerLog):
        self.events: list[MarkerEvent] = []
        self.forward = forward

    def __call__(self, event: MarkerEvent) -> None:
        self.events.append(event)
        if isinstance(self.forward, list):
            self.forward.append(event)
        elif self.forward is not None:
            self.forward(event)


def evaluate(
    store: Store,
    proposal: Proposal,
    *,
    nominator: Nominator | None = None,
    decider: Decider | None = None,
    settings: CurationSettings = CurationSettings(),
    cancel: CancelToken | None = None,
    log: MarkerLog = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Evaluation:
    """Decide what Netclaw's evaluator would do with `proposal` against `store` (read-only; writes nothing).

    `nominator` None = no embedder configured (lexical degraded path). `decider` None = no LLM. `log` receives
    each marker event (a list is appended to, a callable is called). `on_progress` receives the decider's
    streamed Progress. Raises `Cancelled` when `cancel` is set, StoreError when the store cannot be read."""
    sink = _Sink(log)
    if is_record(proposal):
        return Evaluation(CurationDecision(DecisionKind.CREATE, reason=REASON_RECORD_BYPASS), ())
    flow = _Flow(store, proposal, nominator, decider, settings, cancel, sink, on_progress)
    flow._check()
    candidates = anchor_candidates(store, proposal.anchor_name)
    has_exact = any(c.is_exact for c in candidates)
    decision = flow.run(candidates, has_exact)
    return Evaluation(
        decision=decision,
        candidates=tuple(candidates),
        llm_calls=flow.llm_calls,
        decider_result=flow.decider_result,
        events=tuple(sink.events),
    )
