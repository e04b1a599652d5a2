"""Plain values that leave the store: frozen dataclasses, never ORM objects (architecture rule)."""
from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..netfx import TOMBSTONE_SEMANTICS, normalize_for_containment, utf8_bytes

# Wire values (netclaw-compat §3).
LIVE_EXCLUDED_SEMANTICS = TOMBSTONE_SEMANTICS
SEARCHABLE_RECALL_MODES = ("auto", "searchable")
LEGACY_BOUNDARY = "boundary:legacy-restricted"
DEFAULT_AUDIENCE = "personal"


@dataclass(frozen=True)
class RawText:
    """A TEXT value whose bytes are not valid UTF-8, kept as those bytes (reads elsewhere show U+FFFD):
    audit images hold it so undo/redo put back exactly what was stored."""

    data: bytes


def now_ms() -> int:
    """Unix epoch milliseconds, UTC — Netclaw's timestamp unit (netclaw-compat §2)."""
    return int(time.time() * 1000)


def new_document_id() -> str:
    """`doc-` + 32 lowercase hex (a Guid in "N" format), 36 chars (netclaw-compat §2.2)."""
    return "doc-" + uuid.uuid4().hex


def new_record_id() -> str:
    return "rec-" + uuid.uuid4().hex


def content_hash(title: str | None, body: str | None) -> str:
    """Lowercase hex SHA-256 of UTF-8(norm(title) + "\\n" + norm(body)) (netclaw-compat §11.2)."""
    return hashlib.sha256(
        utf8_bytes(normalize_for_containment(title) + "\n" + normalize_for_containment(body))
    ).hexdigest()


def exact_hash(title: str | None, body: str | None) -> str:
    """memgui's own byte-exact digest of a document's text (unlike Netclaw's content hash, a change of case
    or white space changes it): what a draft's stamp compares, so no edit slips through unseen."""
    data = f"{title or ''}\x1f{body or ''}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def embedding_text(title: str, body: str) -> str:
    """The text Netclaw embeds for a document or a proposal: "{title}\\n{body}" (netclaw-compat §11.1)."""
    return f"{title}\n{body}"


@dataclass(frozen=True)
class Document:
    """One `memory_documents` row. `boundary`/`audience` are as stored (may be None); use the
    `effective_*` properties for display and policy."""

    document_id: str
    anchor_id: str
    memory_class: str
    title: str
    markdown_body: str
    aliases_json: str | None
    facets_json: str | None
    slots_json: str | None
    update_semantics: str
    boundary: str | None
    audience: str | None
    sensitivity: str
    recall_mode: str
    confidence: float
    freshness_at: int | None
    expires_at: int | None
    created_at: int
    updated_at: int

    @property
    def is_tombstoned(self) -> bool:
        return self.update_semantics == LIVE_EXCLUDED_SEMANTICS

    @property
    def is_searchable(self) -> bool:
        return self.recall_mode in SEARCHABLE_RECALL_MODES

    @property
    def effective_boundary(self) -> str:
        return self.boundary if self.boundary is not None else LEGACY_BOUNDARY

    @property
    def effective_audience(self) -> str:
        return self.audience if self.audience is not None else DEFAULT_AUDIENCE

    @property
    def content_hash(self) -> str:
        return content_hash(self.title, self.markdown_body)

    @property
    def exact_hash(self) -> str:
        return exact_hash(self.title, self.markdown_body)

    @property
    def embedding_text(self) -> str:
        return embedding_text(self.title, self.markdown_body)


DOCUMENT_COLUMNS = tuple(Document.__dataclass_fields__)

# The columns every reader of a document relies on, and the Python types SQLite may hand back for them. A row
# written by another tool (a table without type affinity, a hand edit) can hold a BLOB, a number or NULL there.
_TEXT, _TIME = (str,), (int, float)
DOCUMENT_TYPES = {"document_id": _TEXT, "anchor_id": _TEXT, "title": _TEXT + (type(None),),
                  "markdown_body": _TEXT + (type(None),), "created_at": _TIME, "updated_at": _TIME}
_KINDS = {bytes: "a BLOB", str: "text", int: "an integer", float: "a real number", type(None): "NULL"}


def document_value_problem(name: str, value: Any) -> str | None:
    """Why `value` cannot be a document's `name` column (DOCUMENT_TYPES), or None."""
    allowed = DOCUMENT_TYPES.get(name)
    if allowed is None or (isinstance(value, allowed) and not isinstance(value, bool)):
        return None
    expected = "text" if allowed[0] is str else "an integer (epoch milliseconds)"
    return f"its {name} is {_KINDS.get(type(value), type(value).__name__)}, not {expected}"


def document_row_problem(row: tuple[Any, ...]) -> str | None:
    """Why a `memory_documents` row (DOCUMENT_COLUMNS, in order) cannot be read as a Document, or None."""
    for name, value in zip(DOCUMENT_COLUMNS, row):
        problem = document_value_problem(name, value)
        if problem is not None:
            return problem
    return None


@dataclass(frozen=True)
class Anchor:
    anchor_id: str
    anchor_type: str
    canonical_name: str
    parent_anchor_id: str | None
    sensitivity: str
    recall_mode: str
    confidence: float
    freshness_at: int | None
    status: str
    created_at: int
    updated_at: int

    @property
    def is_active(self) -> bool:
        return self.status == "active"


ANCHOR_COLUMNS = tuple(Anchor.__dataclass_fields__)


@dataclass(frozen=True)
class Record:
    record_id: str
    anchor_id: str
    memory_class: str
    record_type: str
    payload_json: str
    aliases_json: str | None
    facets_json: str | None
    slots_json: str | None
    supersedes_record_id: str | None
    update_semantics: str
    boundary: str | None
    audience: str | None
    sensitivity: str
    recall_mode: str
    confidence: float
    freshness_at: int | None
    expires_at: int | None
    created_at: int


RECORD_COLUMNS = tuple(Record.__dataclass_fields__)


@dataclass(frozen=True)
class EmbeddingRow:
    item_id: str
    item_kind: str
    model_id: str
    content_hash: str
    dims: int
    vector: bytes  # raw little-endian float32, dims*4 bytes
    created_at: int


@dataclass(frozen=True)
class StoreSummary:
    """What `memgui info` reports. `read_only` says whether memgui can write this store at all (the file,
    its folder or a newer memgui schema forbid it); `opened_read_only` says how this Store was opened
    (use `Store.read_only` to decide whether a write will be refused)."""

    path: str
    read_only: bool
    live_documents: int
    tombstoned_documents: int
    anchors: int
    records: int
    checkpoints_by_status: dict[str, int] = field(default_factory=dict)
    embeddings_by_model: dict[str, int] = field(default_factory=dict)
    memgui_schema_version: int = 0
    legacy_columns: tuple[str, ...] = ()
    opened_read_only: bool = False
    read_only_reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "read_only": self.read_only,
            "read_only_reason": self.read_only_reason,
            "opened_read_only": self.opened_read_only,
            "documents": {"live": self.live_documents, "tombstoned": self.tombstoned_documents},
            "anchors": self.anchors,
            "records": self.records,
            "checkpoints": dict(self.checkpoints_by_status),
            "embeddings": dict(self.embeddings_by_model),
            "memgui_schema_version": self.memgui_schema_version,
            "legacy_columns": list(self.legacy_columns),
        }
