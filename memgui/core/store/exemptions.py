""""Not duplicates": pairs of documents a person kept separate, so the nominator never offers them again.

Rows live in `memgui_exemptions(first_id, second_id, created_at, note)` with first_id < second_id.
These are primitives: each write runs in `store.transaction()`, which becomes a savepoint when called
inside an open transaction, so `core.apply` can add exemptions in the same transaction as their audit
row. People's "keep separate" goes through `apply.keep_separate` / `apply.allow_nomination` (audited,
undoable); the nominator reads `exempt_pairs(store)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from . import Store, now_ms

TABLE = "memgui_exemptions"


@dataclass(frozen=True)
class Exemption:
    first_id: str
    second_id: str
    created_at: int
    note: str | None

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.first_id, self.second_id))


def ordered_pair(a: str, b: str) -> tuple[str, str]:
    """The stored order of a pair (smaller id first). Refuses a document paired with itself."""
    if not isinstance(a, str) or not isinstance(b, str) or not a or not b:
        raise ValueError("an exemption needs two document ids")
    if a == b:
        raise ValueError(f"{a}: a document cannot be kept separate from itself")
    return (a, b) if a < b else (b, a)


def all_pairs(doc_ids: Iterable[str]) -> list[tuple[str, str]]:
    """Every unordered pair of distinct ids, in stored order, each once."""
    ids = sorted(dict.fromkeys(doc_ids))
    return [(ids[i], ids[j]) for i in range(len(ids)) for j in range(i + 1, len(ids))]


def _has_table(store: Store) -> bool:
    return store.has_table(TABLE)


def exemption_row(store: Store, a: str, b: str) -> dict | None:
    """The stored row of a pair exactly as in the table (for audit images), or None."""
    if not _has_table(store):
        return None
    first, second = ordered_pair(a, b)
    cursor = store.execute(
        f"SELECT first_id, second_id, created_at, note FROM {TABLE} WHERE first_id = ? AND second_id = ?",
        (first, second),
    )
    row = cursor.fetchone()
    return None if row is None else dict(zip(("first_id", "second_id", "created_at", "note"), row))


def add_exemption(store: Store, a: str, b: str, note: str | None = None) -> bool:
    """Remember that a and b are not duplicates. True if a row was added, False if it existed already
    (the existing row and its note are kept). Callable inside an open transaction."""
    first, second = ordered_pair(a, b)
    with store.transaction():
        cursor = store.execute(
            f"INSERT INTO {TABLE} (first_id, second_id, created_at, note) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(first_id, second_id) DO NOTHING",
            (first, second, now_ms(), note),
        )
        return cursor.rowcount > 0


def remove_exemption(store: Store, a: str, b: str) -> bool:
    """Forget an exemption; True if one was removed. Callable inside an open transaction."""
    first, second = ordered_pair(a, b)
    with store.transaction():
        cursor = store.execute(f"DELETE FROM {TABLE} WHERE first_id = ? AND second_id = ?", (first, second))
        return cursor.rowcount > 0


def restore_exemption_row(store: Store, a: str, b: str, row: dict | None) -> None:
    """Put a pair back exactly as `row` (from exemption_row) describes; None removes it. Caller holds
    the transaction (used by undo/redo)."""
    first, second = ordered_pair(a, b)
    store.execute(f"DELETE FROM {TABLE} WHERE first_id = ? AND second_id = ?", (first, second))
    if row is not None:
        store.execute(
            f"INSERT INTO {TABLE} (first_id, second_id, created_at, note) VALUES (?, ?, ?, ?)",
            (row["first_id"], row["second_id"], row["created_at"], row["note"]),
        )


def list_exemptions(store: Store) -> list[Exemption]:
    """Every exemption, newest first."""
    if not _has_table(store):
        return []
    rows = store.execute(
        f"SELECT first_id, second_id, created_at, note FROM {TABLE} ORDER BY created_at DESC, first_id, second_id"
    ).fetchall()
    return [Exemption(*row) for row in rows]


def exempt_pairs(store: Store) -> set[frozenset[str]]:
    """The pairs the nominator must not offer again, as unordered pairs."""
    if not _has_table(store):
        return set()
    return {frozenset(row) for row in store.execute(f"SELECT first_id, second_id FROM {TABLE}").fetchall()}


def is_exempt(store: Store, a: str, b: str) -> bool:
    return a != b and exemption_row(store, a, b) is not None
