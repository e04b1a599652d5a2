"""Netclaw's memory-table DDL (netclaw-compat §2), exactly as the store's own idempotent init creates it.

Used to build empty stores for the demo and the tests. The legacy variant adds the prototype-era
`domain TEXT NOT NULL` column on anchors, documents, records and edges (netclaw-compat §2.7).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

MEMORY_TABLES = (
    "memory_anchors",
    "memory_documents",
    "memory_records",
    "memory_edges",
    "memory_checkpoints",
    "memory_embeddings",
    "memory_documents_fts",
    "memory_records_fts",
)

# The two tables without which a file is not a Netclaw memory store; the others are optional
# (older stores predate memory_embeddings; legacy stores rebuilt FTS on start-up).
REQUIRED_TABLES = ("memory_anchors", "memory_documents")

# Columns without which memgui cannot show or write a table's rows (others read as defaults when absent).
REQUIRED_COLUMNS = {
    "memory_anchors": ("anchor_id", "canonical_name"),
    "memory_documents": ("document_id", "anchor_id", "title", "markdown_body"),
}

FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"


# One group of statements per table (its indexes with it). `domain` is the legacy column line, or "" (see _ddl).


def _anchors_ddl(domain: str) -> list[str]:
    return [
        f"""CREATE TABLE IF NOT EXISTS memory_anchors (
    anchor_id TEXT PRIMARY KEY,
{domain}    anchor_type TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    parent_anchor_id TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
)""",
    ]


def _documents_ddl(domain: str) -> list[str]:
    return [
        f"""CREATE TABLE IF NOT EXISTS memory_documents (
    document_id TEXT PRIMARY KEY,
    anchor_id TEXT NOT NULL,
{domain}    memory_class TEXT NOT NULL DEFAULT 'durable_fact',
    title TEXT NOT NULL,
    markdown_body TEXT NOT NULL,
    aliases_json TEXT NULL,
    facets_json TEXT NULL,
    slots_json TEXT NULL,
    update_semantics TEXT NOT NULL,
    boundary TEXT NULL,
    audience TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    expires_at INTEGER NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (anchor_id) REFERENCES memory_anchors(anchor_id)
)""",
        "CREATE INDEX IF NOT EXISTS idx_memory_documents_anchor ON memory_documents(anchor_id, updated_at DESC)",
        "CREATE INDEX IF NOT EXISTS idx_memory_documents_policy ON memory_documents(sensitivity, recall_mode, updated_at DESC)",
    ]


def _records_ddl(domain: str) -> list[str]:
    return [
        f"""CREATE TABLE IF NOT EXISTS memory_records (
    record_id TEXT PRIMARY KEY,
    anchor_id TEXT NOT NULL,
{domain}    memory_class TEXT NOT NULL DEFAULT 'evidence',
    record_type TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    aliases_json TEXT NULL,
    facets_json TEXT NULL,
    slots_json TEXT NULL,
    supersedes_record_id TEXT NULL,
    update_semantics TEXT NOT NULL,
    boundary TEXT NULL,
    audience TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    expires_at INTEGER NULL,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (anchor_id) REFERENCES memory_anchors(anchor_id)
)""",
        "CREATE INDEX IF NOT EXISTS idx_memory_records_anchor ON memory_records(anchor_id, created_at DESC)",
        "CREATE INDEX IF NOT EXISTS idx_memory_records_policy ON memory_records(sensitivity, recall_mode, created_at DESC)",
    ]


def _edges_ddl(domain: str) -> list[str]:
    return [
        f"""CREATE TABLE IF NOT EXISTS memory_edges (
    edge_id TEXT PRIMARY KEY,
    from_anchor_id TEXT NOT NULL,
    to_anchor_id TEXT NOT NULL,
{domain}    relation_type TEXT NOT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
)""",
        "CREATE INDEX IF NOT EXISTS idx_memory_edges_from ON memory_edges(from_anchor_id, relation_type)",
        "CREATE INDEX IF NOT EXISTS idx_memory_edges_to ON memory_edges(to_anchor_id, relation_type)",
    ]


# The tables without the legacy column: the same in both variants.
CHECKPOINTS_DDL = (
    """CREATE TABLE IF NOT EXISTS memory_checkpoints (
    checkpoint_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id TEXT NULL,
    trigger_type TEXT NOT NULL,
    priority INTEGER NOT NULL,
    status TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    retry_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS idx_memory_checkpoints_pending ON memory_checkpoints(status, priority DESC, created_at ASC)",
)

EMBEDDINGS_DDL = (
    """CREATE TABLE IF NOT EXISTS memory_embeddings (
    item_id TEXT NOT NULL,
    item_kind TEXT NOT NULL,
    model_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (item_id, model_id)
)""",
    "CREATE INDEX IF NOT EXISTS idx_memory_embeddings_model ON memory_embeddings(model_id)",
)

FTS_DDL = (
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS memory_documents_fts USING fts5(
    document_id UNINDEXED, title, body, aliases, facets, tokenize = '{FTS_TOKENIZER}'
)""",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS memory_records_fts USING fts5(
    record_id UNINDEXED, title, body, aliases, facets, tokenize = '{FTS_TOKENIZER}'
)""",
)


def _ddl(legacy: bool) -> list[str]:
    """Every statement of Netclaw's init, in its order; `legacy` adds the `domain` column (netclaw-compat §2.7)."""
    domain = "    domain TEXT NOT NULL,\n" if legacy else ""
    return [*_anchors_ddl(domain), *_documents_ddl(domain), *_records_ddl(domain), *_edges_ddl(domain),
            *CHECKPOINTS_DDL, *EMBEDDINGS_DDL, *FTS_DDL]


def create_store(path: str | Path, *, legacy: bool = False) -> Path:
    """Create (or complete) a Netclaw memory store at `path`, in WAL mode, as Netclaw's init does.
    Raises StoreError (one line) when `path` is a directory or a file SQLite cannot use."""
    from .connection import sqlite_reason
    from .errors import StoreError

    path = Path(path)
    if path.is_dir():
        raise StoreError(f"{path}: is a directory; give the path of the store file to create")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot create a store here ({sqlite_reason(exc)})") from None
    try:
        conn.execute("PRAGMA journal_mode = WAL")  # raw SQL: PRAGMA has no Peewee query form
        with conn:
            for statement in _ddl(legacy):
                conn.execute(statement)  # raw SQL: Netclaw's exact DDL (its FTS5 tokenizer and text), not Peewee's
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot create a store here ({sqlite_reason(exc)})") from None
    finally:
        conn.close()
    return path
