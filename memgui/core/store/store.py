"""Open a Netclaw memory store and read/write it the way Netclaw does (spec §1, §2, §9, §11.2).

Every write runs in a BEGIN IMMEDIATE transaction with busy_timeout ≥ 30 s, matching the daemon's retry
window. A read-only store refuses every write with StoreReadOnlyError. Columns a store lacks (older
Netclaw versions) read as their defaults; extra columns (legacy `domain`) are tolerated and filled on
insert. Invalid UTF-8 in text columns reads as U+FFFD (see `connection.py`).
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from peewee import DatabaseError, InterfaceError, OperationalError

from ..netfx import anchor_id_for, fts_query_for_text
from . import memgui_schema
from .errors import StoreError, StoreLockedError, StoreReadOnlyError
from .models import StoreModels, build_models
from .connection import StoreDatabase, is_lock_error, is_read_only_error
from .values import (
    ANCHOR_COLUMNS,
    DOCUMENT_COLUMNS,
    LEGACY_BOUNDARY,
    RECORD_COLUMNS,
    Anchor,
    Document,
    EmbeddingRow,
    Record,
    StoreSummary,
    now_ms,
)

LEGACY_DOMAIN_DEFAULT = "general"
TRUSTED_INSTANCE_BOUNDARY = "boundary:trusted-instance"

# What a column a store lacks reads as (SQL literals).
_MISSING_COLUMN_DEFAULTS = {
    "memory_class": "'durable_fact'", "update_semantics": "'merge-document'", "sensitivity": "'normal'",
    "recall_mode": "'auto'", "confidence": "0.0", "created_at": "0", "updated_at": "0", "status": "'active'",
    "anchor_type": "'concept'", "record_type": "''", "payload_json": "''",
}


class Store:
    """An open Netclaw memory store. Thread-safe: peewee keeps one connection per thread, and every
    thread's connection is closed by `close()`."""

    def __init__(self, path: Path, db: StoreDatabase, read_only: bool, columns: dict[str, tuple[str, ...]],
                 *, read_only_reason: str | None = None, file_read_only: bool = False):
        self.path = path
        self.db = db
        self.read_only = read_only
        self.read_only_reason = read_only_reason
        self.file_read_only = file_read_only
        self.columns = columns
        self.legacy_domain = "domain" in columns.get("memory_documents", ())
        self.m: StoreModels = build_models(db, legacy_domain=self.legacy_domain)
        self._doc_select = self._select("memory_documents", DOCUMENT_COLUMNS)
        self._doc_select_d = self._select("memory_documents", DOCUMENT_COLUMNS, alias="d")

    # ---- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        self.db.close_all()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has_table(self, name: str) -> bool:
        return name in self.columns

    def has_column(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, ())

    def _select(self, table: str, wanted: Iterable[str], alias: str = "") -> str:
        prefix = f"{alias}." if alias else ""
        parts = [
            f"{prefix}{c}" if self.has_column(table, c) else f"{_MISSING_COLUMN_DEFAULTS.get(c, 'NULL')} AS {c}"
            for c in wanted
        ]
        return "SELECT " + ", ".join(parts) + f" FROM {table}" + (f" {alias}" if alias else "")

    # ---- low level ---------------------------------------------------------------------------------

    def execute(self, sql: str, params: Iterable = ()) -> sqlite3.Cursor:
        """Run SQL, turning SQLite failures into one-line StoreErrors."""
        try:
            return self.db.execute_sql(sql, tuple(params))
        except OperationalError as exc:
            if is_lock_error(exc):
                raise StoreLockedError(f"{self.path}: store is locked by another process (waited for the busy timeout)") from None
            if is_read_only_error(exc):
                raise StoreReadOnlyError(f"{self.path}: store is read-only; nothing was written") from None
            raise StoreError(f"{self.path}: {exc}") from None
        except (DatabaseError, InterfaceError) as exc:
            raise StoreError(f"{self.path}: store is damaged ({exc})") from None

    def _fetchall(self, sql: str, params: Iterable = ()) -> tuple[list[str], list[tuple]]:
        cursor = self.execute(sql, params)
        names = [d[0] for d in cursor.description or ()]
        try:
            return names, cursor.fetchall()
        except sqlite3.OperationalError as exc:
            if is_lock_error(exc):
                raise StoreLockedError(f"{self.path}: store is locked by another process (waited for the busy timeout)") from None
            raise StoreError(f"{self.path}: read failed ({exc})") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: store is damaged ({exc})") from None

    def _docs(self, sql: str, params: Iterable = ()) -> list[Document]:
        """Documents from a query selecting exactly DOCUMENT_COLUMNS, in that order."""
        return [Document(*row) for row in self._fetchall(sql, params)[1]]

    def _rows(self, sql: str, params: Iterable = ()) -> list[dict]:
        names, rows = self._fetchall(sql, params)
        return [dict(zip(names, row)) for row in rows]

    def _refuse_write(self) -> StoreReadOnlyError:
        why = f" ({self.read_only_reason})" if self.read_only_reason not in (None, "requested") else ""
        return StoreReadOnlyError(f"{self.path}: store is opened read-only{why}; nothing was written")

    def require_writable(self) -> None:
        if self.read_only:
            raise self._refuse_write()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One BEGIN IMMEDIATE transaction (nested calls become savepoints). Refuses on read-only stores.
        Any error inside rolls everything back."""
        self.require_writable()
        try:
            with self.db.atomic():
                yield
        except OperationalError as exc:
            if is_lock_error(exc):
                raise StoreLockedError(
                    f"{self.path}: store is locked by another process (waited for the busy timeout); nothing was written"
                ) from None
            if is_read_only_error(exc):
                raise StoreReadOnlyError(f"{self.path}: store is read-only; nothing was written") from None
            raise StoreError(f"{self.path}: write failed ({exc}); nothing was written") from None
        except (DatabaseError, InterfaceError) as exc:
            raise StoreError(f"{self.path}: write failed ({exc}); nothing was written") from None

    # ---- reads: documents --------------------------------------------------------------------------

    def documents(self, *, include_tombstoned: bool = False) -> list[Document]:
        """Live documents (not tombstoned), oldest first; tombstoned ones too on request."""
        where = "" if include_tombstoned else " WHERE update_semantics != 'tombstone'"
        return self._docs(self._doc_select + where + " ORDER BY created_at, document_id")

    def tombstoned_documents(self) -> list[Document]:
        sql = self._doc_select + " WHERE update_semantics = 'tombstone' ORDER BY updated_at DESC"
        return self._docs(sql)

    def document(self, document_id: str) -> Document | None:
        rows = self._docs(self._doc_select + " WHERE document_id = ?", (document_id,))
        return rows[0] if rows else None

    def documents_by_ids(self, ids: Iterable[str]) -> list[Document]:
        """Documents in the order of `ids`; unknown ids are skipped. Batched below SQLite's variable cap."""
        ids = list(dict.fromkeys(ids))
        found: dict[str, Document] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for doc in self._docs(self._doc_select + f" WHERE document_id IN ({marks})", chunk):
                found[doc.document_id] = doc
        return [found[i] for i in ids if i in found]

    def documents_by_anchor(self, anchor_id: str, *, include_tombstoned: bool = False) -> list[Document]:
        """Newest first, as Netclaw's anchor lookups order them."""
        where = " WHERE anchor_id = ?" + ("" if include_tombstoned else " AND update_semantics != 'tombstone'")
        return self._docs(self._doc_select + where + " ORDER BY updated_at DESC", (anchor_id,))

    def search(self, text: str, limit: int = 50) -> list[Document]:
        """Full-text search through the store's own FTS5 table, Netclaw-style: every term double-quoted
        (quotes doubled) and OR-joined, ranked by bm25(10, 1, 5, 3) — positional over all columns, the
        unindexed id included, so effectively title 1, body 5, aliases 3 — re-joined to live, searchable rows.
        User text can never cause an FTS syntax error: a query FTS5 still rejects is "no results"."""
        query = fts_query_for_text(text)
        if not query or not self.has_table("memory_documents_fts"):
            return []
        sql = (
            self._doc_select_d + " JOIN memory_documents_fts f ON d.document_id = f.document_id "
            "WHERE memory_documents_fts MATCH ? AND d.update_semantics != 'tombstone' "
            "AND d.recall_mode IN ('auto', 'searchable') "
            "ORDER BY bm25(memory_documents_fts, 10.0, 1.0, 5.0, 3.0) LIMIT ?"
        )
        try:
            docs = self._docs(sql, (query, max(1, int(limit)) * 5))
        except StoreLockedError:
            raise
        except (StoreError, ValueError):
            return []
        seen: dict[str, Document] = {}
        for doc in docs:
            seen.setdefault(doc.document_id, doc)
        return list(seen.values())[: max(1, int(limit))]

    # ---- reads: other tables -----------------------------------------------------------------------

    def anchors(self, *, active_only: bool = False) -> list[Anchor]:
        where = " WHERE status = 'active'" if active_only else ""
        return [Anchor(**r) for r in self._rows(self._select("memory_anchors", ANCHOR_COLUMNS) + where + " ORDER BY anchor_id")]

    def anchor(self, anchor_id: str) -> Anchor | None:
        rows = self._rows(self._select("memory_anchors", ANCHOR_COLUMNS) + " WHERE anchor_id = ?", (anchor_id,))
        return Anchor(**rows[0]) if rows else None

    def records(self) -> list[Record]:
        if not self.has_table("memory_records"):
            return []
        return [Record(**r) for r in self._rows(self._select("memory_records", RECORD_COLUMNS) + " ORDER BY created_at")]

    def embedding_rows(self, model_id: str) -> list[EmbeddingRow]:
        """The daemon's vectors for one model (documents only). memgui reads them, never writes them."""
        if not self.has_table("memory_embeddings"):
            return []
        rows = self._rows(
            "SELECT item_id, item_kind, model_id, content_hash, dims, vector, created_at FROM memory_embeddings "
            "WHERE model_id = ? AND item_kind = 'document' ORDER BY item_id",
            (model_id,),
        )
        return [EmbeddingRow(**{**r, "vector": bytes(r["vector"] or b"")}) for r in rows]

    def embedding_model_counts(self) -> dict[str, int]:
        if not self.has_table("memory_embeddings"):
            return {}
        _, rows = self._fetchall(
            "SELECT model_id, COUNT(*) FROM memory_embeddings GROUP BY model_id ORDER BY COUNT(*) DESC, model_id"
        )
        return {model: count for model, count in rows}

    def checkpoint_counts(self) -> dict[str, int]:
        if not self.has_table("memory_checkpoints"):
            return {}
        _, rows = self._fetchall("SELECT status, COUNT(*) FROM memory_checkpoints GROUP BY status ORDER BY status")
        return dict(rows)

    def memgui_schema_version(self) -> int:
        return memgui_schema.read_version(self.execute) if self.has_table("memgui_meta") else 0

    def summary(self) -> StoreSummary:
        live, dead = self.execute(
            "SELECT SUM(update_semantics != 'tombstone'), SUM(update_semantics = 'tombstone') FROM memory_documents"
        ).fetchone()
        anchors = self.execute("SELECT COUNT(*) FROM memory_anchors").fetchone()[0]
        records = self.execute("SELECT COUNT(*) FROM memory_records").fetchone()[0] if self.has_table("memory_records") else 0
        legacy = tuple(sorted(t for t, cols in self.columns.items() if "domain" in cols and t.startswith("memory_")))
        cannot_write = self.file_read_only or (self.read_only and self.read_only_reason not in (None, "requested"))
        return StoreSummary(
            path=str(self.path),
            read_only=cannot_write,
            live_documents=int(live or 0),
            tombstoned_documents=int(dead or 0),
            anchors=int(anchors),
            records=int(records),
            checkpoints_by_status=self.checkpoint_counts(),
            embeddings_by_model=self.embedding_model_counts(),
            memgui_schema_version=self.memgui_schema_version(),
            legacy_columns=tuple(f"{t}.domain" for t in legacy),
            opened_read_only=self.read_only,
            read_only_reason=self.read_only_reason if cannot_write else None,
        )

    # ---- raw images (for the audit trail and undo) -----------------------------------------------

    def row_image(self, table: str, key_column: str, key: str) -> dict | None:
        """Every column of one row exactly as stored (extra legacy columns included), or None."""
        rows = self._rows(f"SELECT * FROM {table} WHERE {key_column} = ?", (key,))
        return rows[0] if rows else None

    def document_image(self, document_id: str) -> dict:
        """A document's full state as Netclaw sees it: the row, its FTS row and its embedding rows."""
        fts = None
        if self.has_table("memory_documents_fts"):
            fts_rows = self._rows(
                "SELECT document_id, title, body, aliases, facets FROM memory_documents_fts WHERE document_id = ?",
                (document_id,),
            )
            fts = fts_rows[0] if fts_rows else None
        embeddings = []
        if self.has_table("memory_embeddings"):
            embeddings = [
                {**r, "vector": bytes(r["vector"] or b"").hex()}
                for r in self._rows("SELECT * FROM memory_embeddings WHERE item_id = ? ORDER BY model_id", (document_id,))
            ]
        return {
            "row": self.row_image("memory_documents", "document_id", document_id),
            "fts": fts,
            "embeddings": embeddings,
        }

    def restore_document_image(self, document_id: str, image: dict) -> None:
        """Put a document back exactly as `image` (from document_image) describes, in one transaction
        (a savepoint inside the caller's transaction)."""
        with self.transaction():
            self.execute("DELETE FROM memory_documents WHERE document_id = ?", (document_id,))
            row = image.get("row")
            if row is not None:
                self._insert("memory_documents", row)
            if self.has_table("memory_documents_fts"):
                self.execute("DELETE FROM memory_documents_fts WHERE document_id = ?", (document_id,))
                fts = image.get("fts")
                if fts is not None:
                    self.execute(
                        "INSERT INTO memory_documents_fts (document_id, title, body, aliases, facets) VALUES (?, ?, ?, ?, ?)",
                        (fts["document_id"], fts["title"], fts["body"], fts["aliases"], fts["facets"]),
                    )
            if self.has_table("memory_embeddings"):
                self.execute("DELETE FROM memory_embeddings WHERE item_id = ?", (document_id,))
                for emb in image.get("embeddings", []):
                    self._insert("memory_embeddings", {c: bytes.fromhex(v) if c == "vector" else v for c, v in emb.items()})

    def _insert(self, table: str, values: dict, *, upsert_key: str | None = None, keep: tuple[str, ...] = ()) -> None:
        """INSERT the columns the table has; with `upsert_key`, overwrite every column but `keep` on conflict."""
        cols = [c for c in values if self.has_column(table, c)]
        sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        if upsert_key:
            update = [c for c in cols if c != upsert_key and c not in keep]
            sql += f" ON CONFLICT({upsert_key}) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in update)
        self.execute(sql, [values[c] for c in cols])

    # ---- writes mirroring Netclaw (spec §9, §2.2) ------------------------------------------------

    def _legacy_domain_for(self, anchor_id: str) -> str:
        """The prototype-era `domain` to write for a new row under `anchor_id`: the anchor's own, else a
        sibling document's, else a neutral default."""
        for table in ("memory_anchors", "memory_documents"):
            if self.has_column(table, "domain"):
                row = self.execute(
                    f"SELECT domain FROM {table} WHERE anchor_id = ? AND domain IS NOT NULL LIMIT 1", (anchor_id,)
                ).fetchone()
                if row:
                    return row[0]
        return LEGACY_DOMAIN_DEFAULT

    def ensure_anchor(
        self,
        canonical_name: str,
        *,
        anchor_id: str | None = None,
        anchor_type: str = "concept",
        sensitivity: str = "normal",
        recall_mode: str = "auto",
        confidence: float = 0.8,
        freshness_at: int | None = None,
        status: str = "active",
    ) -> Anchor:
        """Netclaw's EnsureAnchorAsync: upsert overwriting every column but created_at, status included,
        so ensuring a tombstoned anchor revives it (spec §2.1)."""
        self.require_writable()
        aid = anchor_id or anchor_id_for(canonical_name)
        with self.transaction():
            ts = now_ms()
            values = dict(
                anchor_id=aid, anchor_type=anchor_type, canonical_name=canonical_name, parent_anchor_id=None,
                sensitivity=sensitivity, recall_mode=recall_mode, confidence=confidence, freshness_at=freshness_at,
                status=status, created_at=ts, updated_at=ts,
            )
            if self.has_column("memory_anchors", "domain"):
                values["domain"] = self._legacy_domain_for(aid)
            self._insert("memory_anchors", values, upsert_key="anchor_id", keep=("created_at", "domain"))
            stored = self.anchor(aid)
        assert stored is not None
        return stored

    def upsert_document(self, doc: Document) -> Document:
        """Netclaw's document upsert (spec §9): on conflict every column except document_id, anchor_id
        and created_at is overwritten; updated_at = now in ms (always later than the stored value);
        memory_class `trace` forces recall_mode `never`; boundary legacy-restricted (or NULL, which reads
        as legacy-restricted) is written as trusted-instance and NULL audience as `personal`; every
        embedding row of the document is deleted; the FTS row is refreshed when recall_mode is auto or
        searchable (other modes leave an existing FTS row alone). One transaction; returns the stored row."""
        self.require_writable()
        with self.transaction():
            existing = self.document(doc.document_id)
            values = {c: getattr(doc, c) for c in DOCUMENT_COLUMNS}
            ts = now_ms()
            values["updated_at"] = max(ts, existing.updated_at + 1) if existing else ts
            if existing is None and not values.get("created_at"):
                values["created_at"] = values["updated_at"]
            if values["boundary"] in (None, LEGACY_BOUNDARY):
                values["boundary"] = TRUSTED_INSTANCE_BOUNDARY
            if values["audience"] is None:
                values["audience"] = doc.effective_audience
            if values["memory_class"] == "trace":
                values["recall_mode"] = "never"
            if self.has_column("memory_documents", "domain"):
                values["domain"] = self._legacy_domain_for(doc.anchor_id)
            self._insert("memory_documents", values, upsert_key="document_id", keep=("anchor_id", "created_at", "domain"))
            self._delete_embeddings(doc.document_id)
            stored = self.document(doc.document_id)
            assert stored is not None
            if stored.is_searchable:
                self._refresh_fts(stored)
        return stored

    def tombstone_document(self, document_id: str) -> Document:
        """Soft delete as Netclaw does: update_semantics `tombstone`, recall_mode `never`, updated_at
        bumped, FTS row and every embedding row removed — one transaction."""
        self.require_writable()
        with self.transaction():
            current = self.document(document_id)
            if current is None:
                raise StoreError(f"{document_id}: no such document; nothing was written")
            self.execute(
                "UPDATE memory_documents SET update_semantics = 'tombstone', recall_mode = 'never', updated_at = ? "
                "WHERE document_id = ?",
                (max(now_ms(), current.updated_at + 1), document_id),
            )
            if self.has_table("memory_documents_fts"):
                self.execute("DELETE FROM memory_documents_fts WHERE document_id = ?", (document_id,))
            self._delete_embeddings(document_id)
            stored = self.document(document_id)
        assert stored is not None
        return stored

    def _delete_embeddings(self, document_id: str) -> None:
        if self.has_table("memory_embeddings"):
            self.execute("DELETE FROM memory_embeddings WHERE item_id = ?", (document_id,))

    def _refresh_fts(self, doc: Document) -> None:
        if not self.has_table("memory_documents_fts"):
            return
        self.execute("DELETE FROM memory_documents_fts WHERE document_id = ?", (doc.document_id,))
        self.execute(
            "INSERT INTO memory_documents_fts (document_id, title, body, aliases, facets) VALUES (?, ?, ?, ?, ?)",
            (doc.document_id, doc.title, doc.markdown_body, doc.aliases_json or "", doc.facets_json or ""),
        )
