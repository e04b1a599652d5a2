"""memgui's own tables inside the store file (prefix `memgui_`), with a versioned migration ladder.

They live in the same file so a merge and its audit row commit atomically; Netclaw ignores tables it
does not own, and memgui never alters Netclaw's tables. Each step runs once, in order, inside one
BEGIN IMMEDIATE transaction together with the version bump.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .errors import StoreError

if TYPE_CHECKING:
    from .handle import StoreHandle


MIGRATIONS: list[list[str]] = [
    # v1: version ledger, audit trail with full before/after images, "not duplicates" exemptions.
    [
        """CREATE TABLE IF NOT EXISTS memgui_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)""",
        """CREATE TABLE IF NOT EXISTS memgui_audit (
    audit_id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at INTEGER NOT NULL,
    operation TEXT NOT NULL,
    target_id TEXT NULL,
    source_ids_json TEXT NOT NULL,
    decided_by TEXT NULL,
    model_id TEXT NULL,
    prompt_hash TEXT NULL,
    guard_passed INTEGER NULL,
    state TEXT NOT NULL DEFAULT 'applied',
    reverts_audit_id INTEGER NULL,
    details_json TEXT NOT NULL,
    before_json TEXT NOT NULL,
    after_json TEXT NOT NULL
)""",
        "CREATE INDEX IF NOT EXISTS idx_memgui_audit_target ON memgui_audit(target_id, created_at DESC)",
        """CREATE TABLE IF NOT EXISTS memgui_exemptions (
    first_id TEXT NOT NULL,
    second_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    note TEXT NULL,
    PRIMARY KEY (first_id, second_id)
)""",
    ],
    # v2: the review queue's skipped / reviewed marks, keyed by the cluster's members and their content stamps
    # (a changed member gives the cluster another key, so its old mark no longer applies).
    [
        """CREATE TABLE IF NOT EXISTS memgui_review_marks (
    cluster_key TEXT PRIMARY KEY,
    member_ids_json TEXT NOT NULL,
    status TEXT NOT NULL,
    audit_id INTEGER NULL,
    marked_at INTEGER NOT NULL
)""",
    ],
    # v3: audit image format 2 — the long texts of a row's images, stored once and compressed
    # (core/store/audit_texts.py); NULL on every row without one (format 1 rows included).
    [
        "ALTER TABLE memgui_audit ADD COLUMN texts BLOB NULL",
    ],
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version() -> int:
    """The version this memgui migrates stores to (read at call time, so tests can extend the ladder)."""
    return len(MIGRATIONS)


VERSION_KEY = "schema_version"


def read_version(store: StoreHandle) -> int:
    """Current memgui schema version (0 when memgui never wrote to this store)."""
    meta = store.m.meta
    if meta is None:
        return 0
    _require_memgui_meta(store, meta)
    try:
        row = store._first(meta.select(meta.value).where(meta.key == VERSION_KEY))
    except StoreError:
        return 0
    try:
        return int(row[0]) if row else 0
    except (TypeError, ValueError):
        return 0


def write_version(store: StoreHandle, version: int) -> None:
    """Record `version` (the caller holds the migration's transaction)."""
    meta = store.m.meta
    if meta is None:  # CREATE TABLE IF NOT EXISTS met another object of that name (a view)
        raise StoreError(f"{store.path}: memgui_meta could not be created (the store has a view or index of that "
                         "name); nothing was written")
    _require_memgui_meta(store, meta)
    store._run(meta.insert({meta.key: VERSION_KEY, meta.value: str(version)})
               .on_conflict(conflict_target=[meta.key], preserve=[meta.value]))


def _require_memgui_meta(store: StoreHandle, meta: Any) -> None:
    """StoreError when the store's memgui_meta is not memgui's (another tool made a table of that name)."""
    lacking = [c for c in ("key", "value") if c not in meta._meta.columns]
    if lacking:
        raise StoreError(f"{store.path}: its memgui_meta table is not memgui's (it lacks {', '.join(lacking)}); "
                         "nothing was read or written")


_ADD_COLUMN = re.compile(r"^ALTER TABLE (\w+) ADD COLUMN (\w+) ")


def run_step(store: StoreHandle, step: list[str]) -> None:
    """One migration step's statements (the caller holds the migration's transaction). Steps are idempotent (a
    version that reads as garbage is migrated again): CREATE … IF NOT EXISTS, and an ADD COLUMN is skipped when
    the column is already there."""
    for statement in step:
        added = _ADD_COLUMN.match(statement)
        if added is not None:
            store.reload_schema()
            if store.has_column(added.group(1), added.group(2)):
                continue
        store.execute(statement)  # raw SQL: a migration step is frozen DDL text (it must never change once shipped)


def migrate(store: StoreHandle) -> bool:
    """Bring memgui's tables to the current version inside the caller's transaction — the first write's own,
    so a refused write leaves no memgui table behind either. The tables and the version are re-read inside it
    (another memgui process may have migrated since), so no step runs twice. True when anything ran."""
    target = current_version()
    store.reload_schema()
    current = read_version(store)
    if current >= target:
        return False
    for step in MIGRATIONS[current:target]:
        run_step(store, step)
    store.reload_schema()
    write_version(store, target)
    return True
