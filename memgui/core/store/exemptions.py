""""Not duplicates": pairs of documents a person kept separate, so the nominator never offers them again.

Rows live in `memgui_exemptions(first_id, second_id, created_at, note)` with first_id < second_id.
These are primitives: each write runs in `store.transaction()`, which becomes a savepoint when called
inside an open transaction, so `core.apply` can add exemptions in the same transaction as their audit
row. People's "keep separate" goes through `apply.keep_separate` / `apply.allow_nomination` (audited,
undoable); the nominator reads `exempt_pairs(store)`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import StoreError
from .models import TableModel, row_values
from .store import Store
from .values import now_ms


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


def _model(store: Store) -> TableModel:
    return store.m.exemptions


def exemption_row(store: Store, a: str, b: str) -> dict[str, Any] | None:
    """The stored row of a pair exactly as in the table (for audit images), or None."""
    X = _model(store)
    if X is None:
        return None
    first, second = ordered_pair(a, b)
    rows = store.images.stored_rows(X, (X.first_id == first) & (X.second_id == second))
    return rows[0] if rows else None


def _require(store: Store) -> TableModel:
    X = _model(store)
    if X is None:
        raise StoreError(f"{store.path}: memgui's tables are missing (store opened read-only?); nothing was written")
    return X


def add_exemption(store: Store, a: str, b: str, note: str | None = None) -> bool:
    """Remember that a and b are not duplicates. True if a row was added, False if it existed already
    (the existing row and its note are kept). Callable inside an open transaction."""
    first, second = ordered_pair(a, b)
    with store.transaction():
        X = _require(store)
        query = X.insert({X.first_id: first, X.second_id: second, X.created_at: now_ms(), X.note: note})
        return store._run(query.on_conflict_ignore().as_rowcount()) > 0


def remove_exemption(store: Store, a: str, b: str) -> bool:
    """Forget an exemption; True if one was removed. Callable inside an open transaction."""
    first, second = ordered_pair(a, b)
    with store.transaction():
        X = _require(store)
        return store._run(X.delete().where((X.first_id == first) & (X.second_id == second))) > 0


def restore_exemption_row(store: Store, a: str, b: str, row: dict[str, Any] | None) -> None:
    """Put a pair back exactly as `row` (from exemption_row) describes; None removes it. Caller holds
    the transaction (used by undo/redo)."""
    first, second = ordered_pair(a, b)
    X = _require(store)
    store._run(X.delete().where((X.first_id == first) & (X.second_id == second)))
    if row is not None:
        store._run(X.insert(row_values(X, row)))


def list_exemptions(store: Store) -> list[Exemption]:
    """Every exemption, newest first."""
    X = _model(store)
    if X is None:
        return []
    query = (X.select(X.first_id, X.second_id, X.created_at, X.note)
             .order_by(X.created_at.desc(), X.first_id, X.second_id))
    return [Exemption(*row) for row in store._tuples(query)]


def exempt_pairs(store: Store) -> set[frozenset[str]]:
    """The pairs the nominator must not offer again, as unordered pairs."""
    X = _model(store)
    if X is None:
        return set()
    return {frozenset(row) for row in store._tuples(X.select(X.first_id, X.second_id))}


def is_exempt(store: Store, a: str, b: str) -> bool:
    return a != b and exemption_row(store, a, b) is not None
