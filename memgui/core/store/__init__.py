"""The Netclaw store adapter: open, read, and write exactly as Netclaw does."""
from .errors import StoreError, StoreLockedError, StoreReadOnlyError
from .locate import locate_store
from .schema import create_store
from .opening import DEFAULT_BUSY_TIMEOUT_MS, open_store
from .store import Store
from .values import Anchor, Document, EmbeddingRow, Record, StoreSummary, content_hash, new_document_id, now_ms

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS", "Anchor", "Document", "EmbeddingRow", "Record", "Store", "StoreError", "StoreLockedError",
    "StoreReadOnlyError", "StoreSummary", "content_hash", "create_store", "locate_store",
    "new_document_id", "now_ms", "open_store",
]
