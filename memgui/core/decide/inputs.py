"""A cluster of stored documents as decider input, built once for the window and the CLI."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..curation.types import Candidate, DecisionKind, Proposal
from ..netfx import anchor_slug, equals_ignore_case, net_trim
from ..store import Store


def anchor_names(store: Store, documents: Sequence[Any]) -> dict[str, str]:
    """The canonical names of the documents' anchors (ids without an anchor row are left out)."""
    names = {}
    for anchor_id in dict.fromkeys(d.anchor_id for d in documents):
        anchor = store.anchor(anchor_id)
        if anchor is not None:
            names[anchor_id] = anchor.canonical_name
    return names


def cluster_inputs(documents: Sequence[Any], anchor_names: dict[str, str] | None = None,
                   cosines: dict[frozenset[Any], float] | None = None) -> tuple[Proposal, list[Candidate]]:
    """A cluster of existing documents as decider input: the newest document (updated_at, then created_at) is
    the proposal, the others are candidates (oldest first), with their full content. The window and the CLI
    both build their input here, so the same cluster gets the same decision in both.
    `anchor_names` maps anchor ids to canonical names (the anchor id stands in when a name is missing);
    `cosines` (frozenset of two ids → cosine) gives each candidate its cosine to the proposal."""
    if len(documents) < 2:
        raise ValueError("a cluster needs at least two documents")
    names = anchor_names or {}
    ordered = sorted(documents, key=lambda d: (d.updated_at, d.created_at, d.document_id))
    newest = ordered[-1]
    proposal = Proposal(
        title=newest.title, content=newest.markdown_body,
        anchor_name=names.get(newest.anchor_id, anchor_slug(newest.anchor_id)),
        memory_class=newest.memory_class, memory_id=newest.document_id, aliases_json=newest.aliases_json,
        facets_json=newest.facets_json, slots_json=newest.slots_json, update_semantics=newest.update_semantics,
        boundary=newest.boundary, audience=newest.audience, sensitivity=newest.sensitivity,
        recall_mode=newest.recall_mode, confidence=newest.confidence, freshness_at=newest.freshness_at,
        expires_at=newest.expires_at,
    )
    candidates = [
        Candidate(d.document_id, d.anchor_id, names.get(d.anchor_id, anchor_slug(d.anchor_id)),
                  d.markdown_body, freshness_at=d.freshness_at, confidence=d.confidence,
                  cosine=(cosines or {}).get(frozenset((d.document_id, newest.document_id))))
        for d in ordered[:-1]
    ]
    return proposal, candidates



def merge_keyword(proposal: Proposal, targets: Sequence[Candidate]) -> str:
    """`UPDATE <id>` for one target under the proposal's own anchor, else `CONSOLIDATE <id> …`."""
    ids = [c.document_id for c in targets]
    if len(targets) == 1 and _same_name(targets[0].canonical_name, proposal.anchor_name):
        return f"{DecisionKind.UPDATE} {ids[0]}"
    return f"{DecisionKind.CONSOLIDATE} " + " ".join(ids)


def _same_name(a: str | None, b: str | None) -> bool:
    return equals_ignore_case(net_trim(a or ""), net_trim(b or ""))
