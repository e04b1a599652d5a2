"""Shared values of the curation flow (netclaw-compat §5–§9): proposals, candidates, decisions, and the
interfaces of the nominator and the decider. Pure data; no I/O."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..netfx import StrEnum
from ..tasks import CancelToken, Work


class DecisionKind(StrEnum):
    """The protocol's decision keywords (netclaw-compat §8.2), as the model writes them and the audit stores them."""

    SKIP = "SKIP"
    CREATE = "CREATE"
    UPDATE = "UPDATE"
    CONSOLIDATE = "CONSOLIDATE"
    AMBIGUOUS = "AMBIGUOUS"  # rules tier only; never returned by the LLM parser


class MemoryKind(StrEnum):
    """What a proposal writes (Netclaw's MemoryKind, as the wire and the audit details spell it)."""

    DOCUMENT = "document"
    RECORD = "record"  # an immutable record: never merged (rules.is_record)


@dataclass(frozen=True)
class Proposal:
    """A typed curation operation (Netclaw's SQLiteMemoryCurationOperation)."""

    title: str
    content: str
    anchor_name: str = ""
    anchor_type: str = "concept"
    kind: MemoryKind = MemoryKind.DOCUMENT
    memory_class: str = "durable_fact"
    memory_id: str | None = None
    aliases_json: str | None = None
    facets_json: str | None = None
    slots_json: str | None = None
    update_semantics: str = "merge-document"
    boundary: str | None = "boundary:trusted-instance"
    audience: str | None = "personal"
    sensitivity: str = "normal"
    recall_mode: str = "auto"
    confidence: float = 0.8
    freshness_at: int | None = None
    expires_at: int | None = None


@dataclass(frozen=True)
class Candidate:
    """An existing document the proposal is judged against (netclaw-compat §5 step 2/3)."""

    document_id: str
    anchor_id: str
    canonical_name: str
    markdown_body: str
    freshness_at: int | None = None
    confidence: float = 0.0
    is_exact: bool = False
    cosine: float | None = None  # set when the nominator found it


@dataclass(frozen=True)
class CurationDecision:
    kind: DecisionKind
    target_document_id: str | None = None
    consolidation_target_ids: tuple[str, ...] = ()
    canonical_anchor_name: str | None = None
    reason: str = ""
    merged_body: str | None = None
    from_llm_tier: bool = False
    rationale: str | None = None  # memgui's optional `REASON:` line


@dataclass(frozen=True)
class Nomination:
    document_id: str
    cosine: float


class Nominator(Protocol):
    """TopK nominees (cosine ≥ threshold, best first) for a proposal's "{title}\\n{content}".
    Raises NominatorUnavailable(reason) when it cannot run (netclaw-compat §5 step 3b reasons)."""

    def nominate(self, title: str, content: str, *, k: int, threshold: float) -> Sequence[Nomination]: ...


class NominatorUnavailable(Exception):
    def __init__(self, reason: str):  # no_embedder_configured | embedder_unavailable | vector_index_unavailable
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class DeciderResult:
    """What one decider call produced. `decision` is None when there is no usable decision
    (timeout, unparseable reply, error) — callers then fall back conservatively."""

    decision: CurationDecision | None
    raw_reply: str = ""
    rationale: str | None = None
    model_id: str = ""
    prompt_hash: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    error: str | None = None  # "timeout" | "cancelled" | "unparseable" | "<exception text>"
    extra: dict[str, Any] = field(default_factory=dict)


class Decider(Protocol):
    """An LLM tier. `decide` is a generator: it yields Progress (payload = streamed text piece) and
    returns a DeciderResult. It checks `cancel` between tokens and stops at `timeout_s`."""

    model_id: str

    def decide(
        self,
        proposal: Proposal,
        candidates: Sequence[Candidate],
        *,
        full_candidate_content: bool,
        cancel: CancelToken | None = None,
        timeout_s: float | None = None,
    ) -> Work[DeciderResult]: ...
