"""Open a Netclaw memory store and read/write it the way Netclaw does (netclaw-compat §1, §2, §9, §11.2).

Every read and write is a Peewee query on the store's own models (`models.py`, built from the columns the
file has). Every write runs in the handle's one transaction rule (`handle.py`: BEGIN IMMEDIATE, busy_timeout
≥ 30 s, read-only stores refuse). Columns a store lacks (older Netclaw versions) read as their defaults; extra
columns (legacy `domain`) are kept in row images and filled on insert. Invalid UTF-8 in text columns reads as
U+FFFD (see `connection.py`).
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from peewee import fn

from ..netfx import anchor_id_for, fts_query_for_text
from . import memgui_schema
from .connection import StoreDatabase
from .errors import StoreError, StoreLockedError
from .handle import Expr, Query, StoreHandle, count_rows
from .models import TableModel, column, has_column, row_values, selection
from .row_images import RowImages
from .values import (
    ANCHOR_COLUMNS,
    DOCUMENT_COLUMNS,
    LEGACY_BOUNDARY,
    LIVE_EXCLUDED_SEMANTICS,
    RECORD_COLUMNS,
    SEARCHABLE_RECALL_MODES,
    Anchor,
    Document,
    EmbeddingRow,
    Record,
    StoreSummary,
    now_ms,
)

LEGACY_DOMAIN_DEFAULT = "general"
TRUSTED_INSTANCE_BOUNDARY = "boundary:trusted-instance"
FTS_BM25_WEIGHTS = (10.0, 1.0, 5.0, 3.0)  # Netclaw's, positional over all columns (the unindexed id first)
ID_BATCH = 500  # below SQLite's bound-variable cap


class Store(StoreHandle):
    """An open Netclaw memory store: the handle (its models, error mapping and one transaction rule:
    `handle.py`), the reads, and its parts — `images` (row images for the audit trail and undo,
    `row_images.py`)."""

    def __init__(self, path: Path, db: StoreDatabase, read_only: bool, columns: dict[str, tuple[str, ...]],
                 *, read_only_reason: str | None = None, file_read_only: bool = False):
        super().__init__(path, db, read_only, columns, read_only_reason=read_only_reason,
                         file_read_only=file_read_only)
        self.images = RowImages(self)

    def _use_columns(self, columns: dict[str, tuple[str, ...]]) -> None:
        super()._use_columns(columns)
        self._doc_fields = selection(self.m.documents, DOCUMENT_COLUMNS)

    # ---- reads: documents --------------------------------------------------------------------------

    def _doc_query(self) -> Query:
        return self.m.documents.select(*self._doc_fields)

    def _docs(self, query: Query) -> list[Document]:
        """Documents from a query selecting exactly DOCUMENT_COLUMNS, in that order."""
        return [Document(*row) for row in self._tuples(query)]

    def _live(self, model: TableModel = None) -> Expr:
        return column(model or self.m.documents, "update_semantics") != LIVE_EXCLUDED_SEMANTICS

    def documents(self, *, include_tombstoned: bool = False) -> list[Document]:
        """Live documents (not tombstoned), oldest first; tombstoned ones too on request."""
        D = self.m.documents
        query = self._doc_query()
        if not include_tombstoned:
            query = query.where(self._live())
        return self._docs(query.order_by(column(D, "created_at"), D.document_id))

    def tombstoned_documents(self) -> list[Document]:
        D = self.m.documents
        query = self._doc_query().where(column(D, "update_semantics") == LIVE_EXCLUDED_SEMANTICS)
        return self._docs(query.order_by(column(D, "updated_at").desc()))

    def document(self, document_id: str) -> Document | None:
        rows = self._docs(self._doc_query().where(self.m.documents.document_id == document_id))
        return rows[0] if rows else None

    def documents_by_ids(self, ids: Iterable[str]) -> list[Document]:
        """Documents in the order of `ids`; unknown ids are skipped. Batched below SQLite's variable cap."""
        ids = list(dict.fromkeys(ids))
        D = self.m.documents
        found: dict[str, Document] = {}
        for start in range(0, len(ids), ID_BATCH):
            for doc in self._docs(self._doc_query().where(D.document_id.in_(ids[start : start + ID_BATCH]))):
                found[doc.document_id] = doc
        return [found[i] for i in ids if i in found]

    def documents_by_anchor(self, anchor_id: str, *, include_tombstoned: bool = False) -> list[Document]:
        """Newest first, as Netclaw's anchor lookups order them."""
        D = self.m.documents
        where = D.anchor_id == anchor_id
        if not include_tombstoned:
            where &= self._live()
        return self._docs(self._doc_query().where(where).order_by(column(D, "updated_at").desc()))

    def search(self, text: str, limit: int = 50) -> list[Document]:
        """Full-text search through the store's own FTS5 table, Netclaw-style: every term double-quoted
        (quotes doubled) and OR-joined, ranked by bm25(10, 1, 5, 3) — positional over all columns, the
        unindexed id included, so effectively title 1, body 5, aliases 3 — re-joined to live, searchable rows.
        User text can never cause an FTS syntax error: a query FTS5 still rejects is "no results"."""
        query = fts_query_for_text(text)
        D, F = self.m.documents, self.m.documents_fts
        if not query or F is None or not has_column(F, "document_id"):
            return []
        limit = max(1, int(limit))
        select = (
            self._doc_query()
            .join(F, on=(D.document_id == F._meta.columns["document_id"]))
            .where(F.match(query) & self._live() & column(D, "recall_mode").in_(SEARCHABLE_RECALL_MODES))
            .order_by(F.bm25(*FTS_BM25_WEIGHTS))
            .limit(limit * 5)
        )
        try:
            docs = self._docs(select)
        except StoreLockedError:
            raise
        except (StoreError, ValueError):
            return []
        seen: dict[str, Document] = {}
        for doc in docs:
            seen.setdefault(doc.document_id, doc)
        return list(seen.values())[:limit]

    # ---- reads: other tables -----------------------------------------------------------------------

    def anchors(self, *, active_only: bool = False) -> list[Anchor]:
        A = self.m.anchors
        query = A.select(*selection(A, ANCHOR_COLUMNS))
        if active_only:
            query = query.where(column(A, "status") == "active")
        return [Anchor(*row) for row in self._tuples(query.order_by(A.anchor_id))]

    def anchor(self, anchor_id: str) -> Anchor | None:
        A = self.m.anchors
        row = self._first(A.select(*selection(A, ANCHOR_COLUMNS)).where(A.anchor_id == anchor_id))
        return Anchor(*row) if row else None

    def records(self) -> list[Record]:
        R = self.m.records
        if R is None:
            return []
        query = R.select(*selection(R, RECORD_COLUMNS)).order_by(column(R, "created_at"))
        return [Record(*row) for row in self._tuples(query)]

    def embedding_rows(self, model_id: str) -> list[EmbeddingRow]:
        """The daemon's vectors for one model (documents only). memgui reads them, never writes them."""
        E = self.m.embeddings
        if E is None:
            return []
        query = (
            E.select(E.item_id, E.item_kind, E.model_id, E.content_hash, E.dims, E.vector, E.created_at)
            .where((E.model_id == model_id) & (E.item_kind == "document"))
            .order_by(E.item_id)
        )
        return [EmbeddingRow(row[0], row[1], row[2], row[3], row[4], bytes(row[5] or b""), row[6])
                for row in self._tuples(query)]

    def embedding_model_counts(self) -> dict[str, int]:
        E = self.m.embeddings
        if E is None:
            return {}
        count = count_rows()
        query = E.select(E.model_id, count).group_by(E.model_id).order_by(count.desc(), E.model_id)
        return {model: n for model, n in self._tuples(query)}

    def checkpoint_counts(self) -> dict[str, int]:
        C = self.m.checkpoints
        if C is None:
            return {}
        return dict(self._tuples(C.select(C.status, count_rows()).group_by(C.status).order_by(C.status)))

    def memgui_schema_version(self) -> int:
        return memgui_schema.read_version(self)

    def summary(self) -> StoreSummary:
        D, A, R = self.m.documents, self.m.anchors, self.m.records
        semantics = column(D, "update_semantics")
        live, dead = self._first(D.select(
            fn.SUM(semantics != LIVE_EXCLUDED_SEMANTICS), fn.SUM(semantics == LIVE_EXCLUDED_SEMANTICS))) or (0, 0)
        anchors = (self._first(A.select(count_rows())) or (0,))[0]  # an aggregate always returns its one row
        records = (self._first(R.select(count_rows())) or (0,))[0] if R is not None else 0
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

    # ---- writes mirroring Netclaw (netclaw-compat §9, §2.2) ------------------------------------------------

    def _insert(self, model: TableModel, values: dict[str, Any], *, upsert_key: str | None = None, keep: tuple[str, ...] = ()) -> None:
        """INSERT the columns the table has; with `upsert_key`, overwrite every column but `keep` on conflict."""
        data = row_values(model, values)
        query = model.insert(data)
        if upsert_key:
            key = model._meta.columns[upsert_key]
            preserve = [f for f in data if f is not key and f.column_name not in keep]
            query = query.on_conflict(conflict_target=[key], preserve=preserve)
        self._run(query)

    def _legacy_domain_for(self, anchor_id: str) -> str:
        """The prototype-era `domain` to write for a new row under `anchor_id`: the anchor's own, else a
        sibling document's, else a neutral default."""
        for model in (self.m.anchors, self.m.documents):
            if has_column(model, "domain"):
                domain = model._meta.columns["domain"]
                row = self._first(model.select(domain).where((model.anchor_id == anchor_id) & domain.is_null(False)))
                if row:
                    return str(row[0])
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
        so ensuring a tombstoned anchor revives it (netclaw-compat §2.1)."""
        self.require_writable()
        aid = anchor_id or anchor_id_for(canonical_name)
        with self.transaction():
            ts = now_ms()
            values = dict(
                anchor_id=aid, anchor_type=anchor_type, canonical_name=canonical_name, parent_anchor_id=None,
                sensitivity=sensitivity, recall_mode=recall_mode, confidence=confidence, freshness_at=freshness_at,
                status=status, created_at=ts, updated_at=ts,
            )
            if has_column(self.m.anchors, "domain"):
                values["domain"] = self._legacy_domain_for(aid)
            self._insert(self.m.anchors, values, upsert_key="anchor_id", keep=("created_at", "domain"))
            stored = self.anchor(aid)
        assert stored is not None
        return stored

    def upsert_document(self, doc: Document) -> Document:
        """Netclaw's document upsert (netclaw-compat §9): on conflict every column except document_id, anchor_id
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
            if self.legacy_domain:
                values["domain"] = self._legacy_domain_for(doc.anchor_id)
            self._insert(self.m.documents, values, upsert_key="document_id", keep=("anchor_id", "created_at", "domain"))
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
        D, F = self.m.documents, self.m.documents_fts
        if not has_column(D, "update_semantics"):
            raise StoreError(f"{self.path}: memory_documents has no update_semantics column, so a document cannot "
                             "be tombstoned the way Netclaw does; nothing was written")
        with self.transaction():
            current = self.document(document_id)
            if current is None:
                raise StoreError(f"{document_id}: no such document; nothing was written")
            self._run(D.update(row_values(D, {
                "update_semantics": LIVE_EXCLUDED_SEMANTICS, "recall_mode": "never",
                "updated_at": max(now_ms(), current.updated_at + 1),
            })).where(D.document_id == document_id))
            if F is not None:
                self._run(F.delete().where(self.images.where_key(F, "document_id", document_id)))
            self._delete_embeddings(document_id)
            stored = self.document(document_id)
        assert stored is not None
        return stored

    def reanchor_document(self, document_id: str, anchor_id: str) -> None:
        """Consolidation's re-anchor (netclaw-compat §9): only anchor_id changes (no updated_at bump, as Netclaw)."""
        D = self.m.documents
        with self.transaction():
            self._run(D.update({D.anchor_id: anchor_id}).where(D.document_id == document_id))

    def tombstone_anchor(self, anchor_id: str) -> None:
        """Consolidation's anchor tombstone (netclaw-compat §9): status `tombstoned`, updated_at = now."""
        A = self.m.anchors
        with self.transaction():
            self._run(A.update(row_values(A, {"status": "tombstoned", "updated_at": now_ms()}))
                      .where(A.anchor_id == anchor_id))

    def insert_record(self, values: dict[str, Any]) -> None:
        """Netclaw's record insert (netclaw-compat §9): the row (legacy `domain` filled), and its FTS row
        (title = record_type, body = payload_json) when recall_mode is auto or searchable."""
        R, F = self.m.records, self.m.records_fts
        if R is None:
            raise StoreError(f"{self.path}: store has no memory_records table; nothing was written")
        values = dict(values)
        with self.transaction():
            if has_column(R, "domain"):
                values["domain"] = self._legacy_domain_for(values["anchor_id"])
            self._insert(R, values)
            if values.get("recall_mode") in SEARCHABLE_RECALL_MODES and F is not None:
                self._insert(F, dict(
                    record_id=values["record_id"], title=values["record_type"], body=values["payload_json"],
                    aliases=values.get("aliases_json") or "", facets=values.get("facets_json") or "",
                ))

    def _delete_embeddings(self, document_id: str) -> None:
        E = self.m.embeddings
        if E is not None:
            self._run(E.delete().where(E.item_id == document_id))

    def _refresh_fts(self, doc: Document) -> None:
        F = self.m.documents_fts
        if F is None:
            return
        self._run(F.delete().where(self.images.where_key(F, "document_id", doc.document_id)))
        self._insert(F, dict(document_id=doc.document_id, title=doc.title, body=doc.markdown_body,
                             aliases=doc.aliases_json or "", facets=doc.facets_json or ""))


__all__ = ["Store"]
