"""The deterministic sentence-union draft as a decider result (no model)."""
from __future__ import annotations

import time
from collections.abc import Sequence

from ..curation.protocol import parse_reply
from ..curation.types import Candidate, CurationDecision, DeciderResult, Proposal
from ..merge.union import sentence_union
from . import prompts as dp
from .inputs import merge_keyword

UNION_MODEL_ID = "sentence-union"


def union_draft(proposal: Proposal, candidates: Sequence[Candidate],
                targets: Sequence[str] | None = None, primary: str | None = None) -> DeciderResult:
    """The deterministic sentence-union draft (no model): one body verbatim — `primary` (a candidate id or
    the proposal's memory id; default the first target) — plus the sentences of the others (the other targets
    and the proposal) that bring something new. MergeGuard and the strict lens pass it by construction.
    `targets` (candidate ids) defaults to every candidate."""
    chosen = [c for c in candidates if targets is None or c.document_id in targets]
    if not chosen:
        raise ValueError("the union draft needs at least one candidate")
    start = time.monotonic()
    bodies = [(c.document_id, c.markdown_body) for c in chosen] + [(proposal.memory_id or "the proposal",
                                                                   proposal.content)]
    first = next((i for i, (doc_id, _) in enumerate(bodies) if primary is not None and doc_id == primary), 0)
    bodies.insert(0, bodies.pop(first))
    body = sentence_union(bodies[0][1], [b for _, b in bodies[1:]])
    reason = (f"sentence-union draft (no model): {bodies[0][0]} kept verbatim, new sentences of "
              f"{', '.join(doc_id for doc_id, _ in bodies[1:])} added")
    raw = dp.assemble_reply(merge_keyword(proposal, chosen), reason=reason, body=body)
    parsed = parse_reply(raw)
    if parsed is None:  # assemble_reply writes a reply parse_reply reads; a None here is a bug, said plainly
        raise ValueError(f"the union draft's own reply does not parse: {raw[:80]!r}")
    decision = CurationDecision(
        parsed.kind, target_document_id=parsed.target_document_id,
        consolidation_target_ids=parsed.consolidation_target_ids, reason="sentence-union draft",
        merged_body=parsed.merged_body, from_llm_tier=False, rationale=parsed.rationale,
    )
    return DeciderResult(decision=decision, raw_reply=raw, rationale=decision.rationale, model_id=UNION_MODEL_ID,
                         seconds=round(time.monotonic() - start, 3), extra={"pipeline": "union"})
