"""Open a Netclaw memory store and read/write it the way Netclaw does (spec §1, §2, §9, §11.2).

Every write runs in a BEGIN IMMEDIATE transaction (the database's lock_type) with busy_timeout ≥ 30 s,
matching the daemon's retry window. A read-only store refuses every write with StoreReadOnlyError.
"""
from __future__ import annotations

import os
import sqlite3
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from peewee import DatabaseError, OperationalError, SqliteDatabase

from . import memgui_schema
from .errors import StoreError, StoreLockedError, StoreReadOnlyError
from .models import StoreModels, build_models
from .schema import REQUIRED_TABLES
from .values import (
    ANCHOR_COLUMNS,
    DOCUMENT_COLUMNS,
    RECORD_COLUMNS,
    Anchor,
    Document,
    EmbeddingRow,
    Record,
    StoreSummary,
    now_ms,
)

DEFAULT_BUSY_TIMEOUT_MS = 30_000
SQLITE_MAGIC = b"SQLite format 3\x00"
LEGACY_DOMAIN_DEFAULT = "general"


def _is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _check_file(path: Path) -> None:
    if not path.exists():
        raise StoreError(f"{path}: no such file")
    if path.is_dir():
        raise StoreError(f"{path}: is a directory, not a Netclaw memory store")
    try:
        with path.open("rb") as fh:
            header = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if header != SQLITE_MAGIC:
        raise StoreError(f"{path}: not an SQLite database")


def _file_is_read_only(path: Path) -> bool:
    """Read-only when the file or its folder cannot be written. Root ignores permission bits, so the
    bits themselves count too: a file the user marked read-only is treated as read-only."""
    mode = path.stat().st_mode
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return True
    return not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK)


class Store:
    """An open Netclaw memory store. Thread-safe: peewee keeps one connection per thread."""

    def __init__(self, path: Path, db: SqliteDatabase, read_only: bool, columns: dict[str, tuple[str, ...]]):
        self.path = path
        self.db = db
        self.read_only = read_only
        self.columns = columns
        self.legacy_domain = "domain" in columns.get("memory_documents", ())
        self.m: StoreModels = build_models(db, legacy_domain=self.legacy_domain)

    # ---- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        if not self.db.is_closed():
            self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def has_table(self, name: str) -> bool:
        return name in self.columns

    # ---- low level ---------------------------------------------------------------------------------

    def execute(self, sql: str, params: Iterable = ()) -> sqlite3.Cursor:
        """Run SQL, turning SQLite failures into one-line StoreErrors."""
        try:
            return self.db.execute_sql(sql, tuple(params))
        except OperationalError as exc:
            if _is_lock_error(exc):
                raise StoreLockedError(f"{self.path}: store is locked by another process (waited for the busy timeout)") from None
            if "readonly" in str(exc).lower() or "read-only" in str(exc).lower():
                raise StoreReadOnlyError(f"{self.path}: store is read-only; nothing was written") from None
            raise StoreError(f"{self.path}: {exc}") from None
        except DatabaseError as exc:
            raise StoreError(f"{self.path}: store is damaged ({exc})") from None

    def _rows(self, sql: str, params: Iterable = ()) -> list[dict]:
        cursor = self.execute(sql, params)
        names = [d[0] for d in cursor.description or ()]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One BEGIN IMMEDIATE transaction (nested calls become savepoints). Refuses on read-only stores."""
        if self.read_only:
            raise StoreReadOnlyError(f"{self.path}: store is opened read-only; nothing was written")
        try:
            with self.db.atomic():
                yield
        except OperationalError as exc:
            if _is_lock_error(exc):
                raise StoreLockedError(f"{self.path}: store is locked by another process (waited for the busy timeout); nothing was written") from None
            raise StoreError(f"{self.path}: write failed ({exc}); nothing was written") from None
        except DatabaseError as exc:
            raise StoreError(f"{self.path}: write failed ({exc}); nothing was written") from None

    def require_writable(self) -> None:
        if self.read_only:
            raise StoreReadOnlyError(f"{self.path}: store is opened read-only; nothing was written")

    # ---- reads: documents --------------------------------------------------------------------------

    _DOC_SELECT = "SELECT " + ", ".join(DOCUMENT_COLUMNS) + " FROM memory_documents"

    def documents(self, *, include_tombstoned: bool = False) -> list[Document]:
        """Live documents (not tombstoned), oldest first; tombstoned ones too on request."""
        where = "" if include_tombstoned else " WHERE update_semantics != 'tombstone'"
        return [Document(**r) for r in self._rows(self._DOC_SELECT + where + " ORDER BY created_at, document_id")]

    def tombstoned_documents(self) -> list[Document]:
        return [Document(**r) for r in self._rows(self._DOC_SELECT + " WHERE update_semantics = 'tombstone' ORDER BY updated_at DESC")]

    def document(self, document_id: str) -> Document | None:
        rows = self._rows(self._DOC_SELECT + " WHERE document_id = ?", (document_id,))
        return Document(**rows[0]) if rows else None

    def documents_by_ids(self, ids: Iterable[str]) -> list[Document]:
        """Documents in the order of `ids`; unknown ids are skipped. Batched below SQLite's variable cap."""
        ids = list(dict.fromkeys(ids))
        found: dict[str, Document] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for r in self._rows(self._DOC_SELECT + f" WHERE document_id IN ({marks})", chunk):
                found[r["document_id"]] = Document(**r)
        return [found[i] for i in ids if i in found]

    def documents_by_anchor(self, anchor_id: str, *, include_tombstoned: bool = False) -> list[Document]:
        """Newest first, as Netclaw's anchor lookups order them."""
        where = " WHERE anchor_id = ?" + ("" if include_tombstoned else " AND update_semantics != 'tombstone'")
        return [Document(**r) for r in self._rows(self._DOC_SELECT + where + " ORDER BY updated_at DESC", (anchor_id,))]

    def search(self, text: str, limit: int = 50) -> list[Document]:
        """Full-text search through the store's own FTS5 table, Netclaw-style: every term double-quoted
        (quotes doubled) and OR-joined, ranked by bm25(10, 1, 5, 3), re-joined to live, searchable rows.
        User text can never cause an FTS syntax error."""
        query = build_fts_query(text)
        if not query or not self.has_table("memory_documents_fts"):
            return []
        sql = (
            "SELECT " + ", ".join("d." + c for c in DOCUMENT_COLUMNS) + " FROM memory_documents_fts f "
            "JOIN memory_documents d ON d.document_id = f.document_id "
            "WHERE memory_documents_fts MATCH ? AND d.update_semantics != 'tombstone' "
            "AND d.recall_mode IN ('auto', 'searchable') "
            "ORDER BY bm25(memory_documents_fts, 10.0, 1.0, 5.0, 3.0) LIMIT ?"
        )
        try:
            rows = self._rows(sql, (query, max(1, limit) * 5))
        except StoreError as exc:
            if isinstance(exc, StoreLockedError):
                raise
            return []  # a malformed FTS index or query is "no results", never a crash
        seen: dict[str, Document] = {}
        for r in rows:
            seen.setdefault(r["document_id"], Document(**r))
        return list(seen.values())[:limit]

    # ---- reads: other tables -----------------------------------------------------------------------

    def anchors(self, *, active_only: bool = False) -> list[Anchor]:
        where = " WHERE status = 'active'" if active_only else ""
        return [Anchor(**r) for r in self._rows("SELECT " + ", ".join(ANCHOR_COLUMNS) + " FROM memory_anchors" + where + " ORDER BY anchor_id")]

    def anchor(self, anchor_id: str) -> Anchor | None:
        rows = self._rows("SELECT " + ", ".join(ANCHOR_COLUMNS) + " FROM memory_anchors WHERE anchor_id = ?", (anchor_id,))
        return Anchor(**rows[0]) if rows else None

    def records(self) -> list[Record]:
        if not self.has_table("memory_records"):
            return []
        return [Record(**r) for r in self._rows("SELECT " + ", ".join(RECORD_COLUMNS) + " FROM memory_records ORDER BY created_at")]

    def embedding_rows(self, model_id: str) -> list[EmbeddingRow]:
        """The daemon's vectors for one model (documents only). memgui reads them, never writes them."""
        if not self.has_table("memory_embeddings"):
            return []
        rows = self._rows(
            "SELECT item_id, item_kind, model_id, content_hash, dims, vector, created_at FROM memory_embeddings "
            "WHERE model_id = ? AND item_kind = 'document' ORDER BY item_id",
            (model_id,),
        )
        return [EmbeddingRow(**{**r, "vector": bytes(r["vector"])}) for r in rows]

    def embedding_model_counts(self) -> dict[str, int]:
        if not self.has_table("memory_embeddings"):
            return {}
        rows = self.execute("SELECT model_id, COUNT(*) FROM memory_embeddings GROUP BY model_id ORDER BY COUNT(*) DESC").fetchall()
        return {model: count for model, count in rows}

    def checkpoint_counts(self) -> dict[str, int]:
        if not self.has_table("memory_checkpoints"):
            return {}
        return dict(self.execute("SELECT status, COUNT(*) FROM memory_checkpoints GROUP BY status ORDER BY status").fetchall())

    def memgui_schema_version(self) -> int:
        return memgui_schema.read_version(self.execute) if self.has_table("memgui_meta") else 0

    def summary(self) -> StoreSummary:
        live, dead = self.execute(
            "SELECT SUM(update_semantics != 'tombstone'), SUM(update_semantics = 'tombstone') FROM memory_documents"
        ).fetchone()
        anchors = self.execute("SELECT COUNT(*) FROM memory_anchors").fetchone()[0]
        records = self.execute("SELECT COUNT(*) FROM memory_records").fetchone()[0] if self.has_table("memory_records") else 0
        legacy = tuple(sorted({c for cols in self.columns.values() for c in cols if c == "domain"}))
        return StoreSummary(
            path=str(self.path),
            read_only=self.read_only,
            live_documents=int(live or 0),
            tombstoned_documents=int(dead or 0),
            anchors=int(anchors),
            records=int(records),
            checkpoints_by_status=self.checkpoint_counts(),
            embeddings_by_model=self.embedding_model_counts(),
            memgui_schema_version=self.memgui_schema_version(),
            legacy_columns=legacy,
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
                {**r, "vector": bytes(r["vector"]).hex()}
                for r in self._rows("SELECT * FROM memory_embeddings WHERE item_id = ? ORDER BY model_id", (document_id,))
            ]
        return {
            "row": self.row_image("memory_documents", "document_id", document_id),
            "fts": fts,
            "embeddings": embeddings,
        }

    def restore_document_image(self, document_id: str, image: dict) -> None:
        """Put a document back exactly as `image` (from document_image) describes. Caller holds the transaction."""
        self.require_writable()
        self.execute("DELETE FROM memory_documents WHERE document_id = ?", (document_id,))
        row = image.get("row")
        if row is not None:
            cols = list(row)
            self.execute(
                f"INSERT INTO memory_documents ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                [row[c] for c in cols],
            )
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
                cols = list(emb)
                values = [bytes.fromhex(emb[c]) if c == "vector" else emb[c] for c in cols]
                self.execute(
                    f"INSERT INTO memory_embeddings ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    values,
                )

    # ---- writes mirroring Netclaw (spec §9, §2.2) ------------------------------------------------

    def _legacy_domain_for(self, anchor_id: str) -> str:
        row = self.execute(
            "SELECT domain FROM memory_documents WHERE anchor_id = ? AND domain IS NOT NULL LIMIT 1", (anchor_id,)
        ).fetchone()
        return row[0] if row else LEGACY_DOMAIN_DEFAULT

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
        """Netclaw's EnsureAnchorAsync: upsert overwriting every column but created_at (revives tombstones)."""
        from .values import anchor_id_for

        self.require_writable()
        aid = anchor_id or anchor_id_for(canonical_name)
        ts = now_ms()
        values = dict(
            anchor_id=aid, anchor_type=anchor_type, canonical_name=canonical_name, parent_anchor_id=None,
            sensitivity=sensitivity, recall_mode=recall_mode, confidence=confidence, freshness_at=freshness_at,
            status=status, created_at=ts, updated_at=ts,
        )
        if self.legacy_domain:
            values["domain"] = self._legacy_domain_for(aid)
        update = {k: v for k, v in values.items() if k not in ("anchor_id", "created_at", "domain")}
        with self.transaction():
            cols = list(values)
            self.execute(
                f"INSERT INTO memory_anchors ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
                f"ON CONFLICT(anchor_id) DO UPDATE SET " + ", ".join(f"{k} = excluded.{k}" for k in update),
                [values[c] for c in cols],
            )
        return self.anchor(aid)  # type: ignore[return-value]

    def upsert_document(self, doc: Document) -> Document:
        """Netclaw's document upsert: on conflict every column except document_id, anchor_id and
        created_at is overwritten; updated_at = now (ms); all embedding rows of the document deleted;
        FTS row refreshed when recall_mode is auto/searchable (other modes leave an existing FTS row)."""
        self.require_writable()
        values = {c: getattr(doc, c) for c in DOCUMENT_COLUMNS}
        values["updated_at"] = max(now_ms(), doc.updated_at + 1) if self.document(doc.document_id) else now_ms()
        if not values.get("created_at"):
            values["created_at"] = values["updated_at"]
        if values["boundary"] == "boundary:legacy-restricted":
            values["boundary"] = "boundary:trusted-instance"  # spec §3: writes convert legacy-restricted
        if values["memory_class"] == "trace":
            values["recall_mode"] = "never"  # spec §9: trace forces recall_mode never
        if self.legacy_domain:
            values["domain"] = self._legacy_domain_for(doc.anchor_id)
        update_cols = [c for c in values if c not in ("document_id", "anchor_id", "created_at", "domain")]
        cols = list(values)
        with self.transaction():
            self.execute(
                f"INSERT INTO memory_documents ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
                "ON CONFLICT(document_id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in update_cols),
                [values[c] for c in cols],
            )
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
                raise StoreError(f"{document_id}: no such document")
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


def build_fts_query(text: str) -> str:
    """Each whitespace-separated term double-quoted (embedded quotes doubled), OR-joined (spec §2.7)."""
    terms = [t for t in (text or "").split() if t.strip()]
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def open_store(path: str | os.PathLike, *, read_only: bool = False, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
    """Open a Netclaw memory store, or raise StoreError with a one-line reason.

    Refuses a missing path, a directory, a non-SQLite or corrupt file, an SQLite database without the
    memory tables, and a store locked past the busy timeout. A file that cannot be written opens
    read-only. memgui's own tables are created/migrated on writable stores.
    """
    path = Path(path).expanduser().absolute()
    _check_file(path)
    read_only = read_only or _file_is_read_only(path)
    if read_only:
        database = f"{path.as_uri()}?mode=ro"
        db = SqliteDatabase(database, uri=True, timeout=busy_timeout_ms / 1000, check_same_thread=False,
                            pragmas={"busy_timeout": busy_timeout_ms, "query_only": 1})
    else:
        db = SqliteDatabase(str(path), timeout=busy_timeout_ms / 1000, lock_type="IMMEDIATE", check_same_thread=False,
                            pragmas={"busy_timeout": busy_timeout_ms})
    try:
        db.connect(reuse_if_open=True)
        status = db.execute_sql("PRAGMA quick_check").fetchone()
        if not status or status[0] != "ok":
            raise StoreError(f"{path}: store is corrupt (integrity check: {status[0] if status else 'no answer'})")
        tables = [r[0] for r in db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
        columns = {t: tuple(r[1] for r in db.execute_sql(f"PRAGMA table_info('{t}')").fetchall()) for t in tables}
    except StoreError:
        db.close()
        raise
    except OperationalError as exc:
        db.close()
        if _is_lock_error(exc):
            raise StoreLockedError(f"{path}: store is locked by another process (waited {busy_timeout_ms // 1000} s)") from None
        raise StoreError(f"{path}: cannot be opened ({exc})") from None
    except DatabaseError as exc:
        db.close()
        raise StoreError(f"{path}: not a usable SQLite database ({exc})") from None
    missing = [t for t in REQUIRED_TABLES if t not in columns]
    if missing:
        db.close()
        raise StoreError(f"{path}: not a Netclaw memory store (missing tables: {', '.join(missing)})")
    store = Store(path, db, read_only, columns)
    if not read_only:
        _migrate(store)
    return store


def _migrate(store: Store) -> None:
    current = store.memgui_schema_version()
    if current >= memgui_schema.SCHEMA_VERSION:
        return
    with store.transaction():
        for step in memgui_schema.MIGRATIONS[current:]:
            for statement in step:
                store.execute(statement)
        store.execute(
            "INSERT INTO memgui_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (memgui_schema.VERSION_KEY, str(memgui_schema.SCHEMA_VERSION)),
        )
    refreshed = store.db.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    for (name,) in refreshed:
        if name not in store.columns:
            store.columns[name] = tuple(r[1] for r in store.db.execute_sql(f"PRAGMA table_info('{name}')").fetchall())
