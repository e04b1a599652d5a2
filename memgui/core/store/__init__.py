"""The Netclaw store adapter: open, read, and write exactly as Netclaw does. The only package that holds SQL
(tests/core/store/test_sql_boundary.py): every read and write is a Peewee query on per-store models.

    models.py        Peewee models built per store from the file's own tables and columns (AsStored fields)
    handle.py        StoreHandle: the open file, its models, error mapping and the one transaction rule
    store.py         Store (a StoreHandle): the reads of Netclaw's tables, and its two parts:
    netclaw_writes.py  store.writes: the writes that mirror Netclaw's (upsert, tombstone, anchors, records)
    row_images.py    store.images: rows exactly as stored, captured and restored for the audit trail and undo
    queries.py       Netclaw's read queries later stages need (evaluator candidates, consolidation's anchors,
                     append-history prefilter, index change stamps), returning plain tuples
    audit_log.py     memgui_audit: entries with full before/after images, capture and restore
    exemptions.py    memgui_exemptions: "not duplicates" pairs
    review_marks.py  memgui_review_marks: the review queue's skipped / reviewed marks (members + content stamps)
    memgui_schema.py memgui's migration ladder (frozen DDL) and its version row in memgui_meta
    schema.py        Netclaw's DDL (to build stores for the demo and tests)
    opening.py / connection.py / locate.py / errors.py   finding, checking and opening a store file
    demo.py          the demo store, built from resources/demo through the models
    values.py        the frozen dataclasses that leave the store (never ORM objects)
"""
from .errors import StoreError, StoreLockedError, StoreReadOnlyError, StoreWriteFailedError
from .locate import locate_store
from .opening import DEFAULT_BUSY_TIMEOUT_MS, open_store
from .schema import create_store
from .store import Store
from .values import Anchor, Document, EmbeddingRow, Record, StoreSummary, content_hash, new_document_id, now_ms

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS", "Anchor", "Document", "EmbeddingRow", "Record", "Store", "StoreError", "StoreLockedError",
    "StoreReadOnlyError", "StoreSummary", "StoreWriteFailedError", "content_hash", "create_store", "locate_store",
    "new_document_id", "now_ms", "open_store",
]
