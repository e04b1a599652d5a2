"""Shared test factories: `Document` values and seeded store rows.

Documents and anchors go through the store's public API (`store.writes.ensure_anchor`, `upsert_document`); embedding
rows are written the way the Netclaw daemon writes them (memgui itself never writes that table).

    document(body, *, title, anchor, document_id, **fields)     a Document value, nothing written
    seed_document(store, title, body, *, anchor, anchor_status, document_id, **fields)
                                                                  anchor + document in the store
    seed_existing(store, anchor, doc_id, body, freshness_at, **fields)
                                                                  the evaluator tests' "Existing <anchor>" memory
    update_document(store, doc, **fields)                        write `doc` back with fields replaced
    put_embedding(store, doc, model_id, vector, ...)             one memory_embeddings row for `doc`
    seed_embedding(store, doc_id, model, dims, *, vector)        a row for the stored document's current text
    seed_anchor_store(store)                                     the labelled anchor groups of data/anchor_notes.py
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from memgui.core.netfx import anchor_id_for
from memgui.core.store import Document, Store, new_document_id, now_ms

DOCUMENT_DEFAULTS = dict(
    memory_class="durable_fact", aliases_json=None, facets_json=None, slots_json=None,
    update_semantics="merge-document", boundary="boundary:trusted-instance", audience="personal",
    sensitivity="normal", recall_mode="auto", confidence=0.8, freshness_at=None, expires_at=None,
    created_at=0, updated_at=0,
)


def document(body: str = "body", *, title: str = "Title", anchor: str = "general", document_id: str | None = None,
             **fields) -> Document:
    """A live document on the anchor named `anchor` (its id is `anchor_id_for(anchor)`); any column can be
    overridden through `fields` (anchor_id included). Nothing is written."""
    values = dict(DOCUMENT_DEFAULTS, document_id=document_id or new_document_id(), anchor_id=anchor_id_for(anchor),
                  title=title, markdown_body=body)
    values.update(fields)
    return Document(**values)


def seed_document(store: Store, title: str, body: str, *, anchor: str = "general", anchor_status: str = "active",
                  document_id: str | None = None, **fields) -> Document:
    """Ensure the anchor (with `anchor_status`), then upsert `document(...)` on it; returns the stored row."""
    store.writes.ensure_anchor(anchor, status=anchor_status)
    return store.writes.upsert_document(document(body, title=title, anchor=anchor, document_id=document_id, **fields))


def seed_existing(store: Store, anchor: str, document_id: str, body: str, freshness_at: int = 1000, *,
                  title: str | None = None, confidence: float = 0.9, **fields) -> Document:
    """The memory an evaluator test finds in the store: titled "Existing <anchor>", confidence 0.9, fresh,
    created and updated at `freshness_at`; `fields` as for `seed_document` (anchor_status, recall_mode, ...)."""
    return seed_document(store, title or f"Existing {anchor}", body, anchor=anchor, document_id=document_id,
                         confidence=confidence, freshness_at=freshness_at, created_at=freshness_at,
                         updated_at=freshness_at, **fields)


def update_document(store: Store, doc: Document, **fields) -> Document:
    """Upsert `doc` with `fields` replaced (an edit as the daemon makes it); returns the stored row."""
    return store.writes.upsert_document(replace(doc, **fields))


def put_embedding(store: Store, doc: Document, model_id: str, vector, *, content_hash: str | None = None,
                  dims: int | None = None, created_at: int | None = None) -> None:
    """Write a daemon-style memory_embeddings row for `doc` (its content hash unless told otherwise)."""
    blob = np.asarray(vector, dtype="<f4").tobytes()
    with store.transaction():
        store.execute(
            "INSERT OR REPLACE INTO memory_embeddings (item_id, item_kind, model_id, content_hash, dims, vector, created_at) "
            "VALUES (?, 'document', ?, ?, ?, ?, ?)",
            (doc.document_id, model_id, content_hash or doc.content_hash, len(vector) if dims is None else dims, blob,
             now_ms() if created_at is None else created_at),
        )


def seed_embedding(store: Store, doc_id: str, model: str = "model-a", dims: int = 4, *, vector=None) -> None:
    """An embedding row matching the stored document's current text; `vector` defaults to `dims` × 0.5."""
    put_embedding(store, store.document(doc_id), model, [0.5] * dims if vector is None else vector, dims=dims)


@dataclass(frozen=True)
class AnchorStore:
    """What `seed_anchor_store` wrote: the document ids of each anchor group, of the big anchor, and the look-alike
    pairs (notes that read alike under different anchors)."""

    groups: dict[str, tuple[str, ...]]
    big: tuple[str, ...]
    lookalikes: tuple[frozenset[str], ...]


def seed_anchor_store(store: Store) -> AnchorStore:
    """The labelled anchor-group store of `tests/data/anchor_notes.py`: ≥ 20 anchors of 2–4 complementary notes,
    look-alike notes under different anchors, one anchor of 40 notes."""
    from data import anchor_notes as notes

    groups = {
        anchor: tuple(seed_document(store, title, body, anchor=anchor, freshness_at=1_700_000_000_000 + i).document_id
                      for i, (title, body) in enumerate(items))
        for anchor, items in notes.GROUPS.items()
    }
    big = tuple(seed_document(store, title, body, anchor=notes.BIG_ANCHOR).document_id for title, body in notes.BIG)
    lookalikes = tuple(frozenset((groups[a][i], groups[b][j])) for (a, i), (b, j) in notes.LOOKALIKES)
    return AnchorStore(groups, big, lookalikes)
