"""The deterministic sentence-union draft as a decider result (no model)."""
from __future__ import annotations

import time
from typing import Sequence

from . import prompts as dp
from .inputs import merge_keyword
from ..curation.protocol import parse_reply
from ..curation.types import Candidate, CurationDecision, DeciderResult, Proposal
from ..merge.union import sentence_union

UNION_MODEL_ID = "sentence-union"


def union_draft(proposal: Proposal, candidates: Sequence[Candidate],
                targets: Sequence[str] | None = None) -> DeciderResult:
    """The deterministic sentence-union draft (no model): the first target's body verbatim, plus every
    sentence of the other targets and of the proposal not already in it. MergeGuard passes it by
    construction. `targets` (candidate ids) defaults to every candidate."""
    chosen = [c for c in candidates if targets is None or c.document_id in targets]
    if not chosen:
        raise ValueError("the union draft needs at least one candidate")
    start = time.monotonic()
    body = sentence_union(chosen[0].markdown_body, [c.markdown_body for c in chosen[1:]] + [proposal.content])
    reason = (f"sentence-union draft (no model): {chosen[0].document_id} kept verbatim, new sentences of "
              f"{', '.join([c.document_id for c in chosen[1:]] + [proposal.memory_id or 'the proposal'])} added")
    raw = dp.assemble_reply(merge_keyword(proposal, chosen), reason=reason, body=body)
    parsed = parse_reply(raw)
    decision = CurationDecision(
        parsed.kind, target_document_id=parsed.target_document_id,
        consolidation_target_ids=parsed.consolidation_target_ids, reason="sentence-union draft",
        merged_body=parsed.merged_body, from_llm_tier=False, rationale=parsed.rationale,
    )
    return DeciderResult(decision=decision, raw_reply=raw, rationale=decision.rationale, model_id=UNION_MODEL_ID,
                         seconds=round(time.monotonic() - start, 3), extra={"pipeline": "union"})
