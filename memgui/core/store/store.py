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

from peewee import fn

from ..netfx import fts_query_for_text
from . import memgui_schema
from .connection import StoreDatabase
from .errors import StoreError, StoreLockedError
from .handle import Expr, Query, StoreHandle, count_rows
from .models import TableModel, column, has_column, selection
from .netclaw_writes import NetclawWrites
from .row_images import RowImages
from .values import (
    ANCHOR_COLUMNS,
    DOCUMENT_COLUMNS,
    LIVE_EXCLUDED_SEMANTICS,
    RECORD_COLUMNS,
    SEARCHABLE_RECALL_MODES,
    Anchor,
    Document,
    EmbeddingRow,
    Record,
    StoreSummary,
    document_row_problem,
)

FTS_BM25_WEIGHTS = (10.0, 1.0, 5.0, 3.0)  # Netclaw's, positional over all columns (the unindexed id first)
ID_BATCH = 500  # below SQLite's bound-variable cap


class Store(StoreHandle):
    """An open Netclaw memory store: the handle (its models, error mapping and one transaction rule:
    `handle.py`), the reads, and its parts — `writes` (Netclaw-exact writes, `netclaw_writes.py`) and
    `images` (row images for the audit trail and undo, `row_images.py`)."""

    def __init__(self, path: Path, db: StoreDatabase, read_only: bool, columns: dict[str, tuple[str, ...]],
                 *, read_only_reason: str | None = None, file_read_only: bool = False):
        super().__init__(path, db, read_only, columns, read_only_reason=read_only_reason,
                         file_read_only=file_read_only)
        self.images = RowImages(self)
        self.writes = NetclawWrites(self)

    def _use_columns(self, columns: dict[str, tuple[str, ...]]) -> None:
        super()._use_columns(columns)
        self._doc_fields = selection(self.m.documents, DOCUMENT_COLUMNS)

    # ---- reads: documents --------------------------------------------------------------------------

    def _doc_query(self) -> Query:
        return self.m.documents.select(*self._doc_fields)

    def _docs(self, query: Query) -> list[Document]:
        """Documents from a query selecting exactly DOCUMENT_COLUMNS, in that order. A row whose id, anchor,
        text or times are not of the type Netclaw writes (a BLOB, a number, NULL) is a one-line StoreError."""
        docs = []
        for row in self._tuples(query):
            problem = document_row_problem(row)
            if problem is not None:
                raise self.bad_document(row[0], problem)
            docs.append(Document(*row))
        return docs

    def bad_document(self, document_id: object, problem: str) -> StoreError:
        """The one-line refusal of a document row memgui cannot read (`problem`: values.document_row_problem)."""
        if isinstance(document_id, str):
            shown = document_id if len(document_id) <= 80 else f"{document_id[:40]}…{document_id[-40:]}"
            which = f"document {shown!r}"
        else:
            which = "a memory_documents row"
        return StoreError(f"{self.path}: {which}: {problem}; memgui cannot use this row (fix or remove it with "
                          "another tool); nothing was written")

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
        """Documents in the order of `ids`; unknown ids are skipped. Batched below SQLite's variable cap. An id held
        by two rows (a table another tool rebuilt without Netclaw's primary key) is a StoreError: which row is the
        document cannot be told, so it is neither shown nor merged."""
        ids = list(dict.fromkeys(ids))
        D = self.m.documents
        found: dict[str, Document] = {}
        for start in range(0, len(ids), ID_BATCH):
            for doc in self._docs(self._doc_query().where(D.document_id.in_(ids[start : start + ID_BATCH]))):
                if doc.document_id in found:
                    raise StoreError(f"{doc.document_id}: more than one row of memory_documents holds this id (its "
                                     "key in a Netclaw store); which is the document cannot be told; nothing was done")
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
        if C is None or not has_column(C, "status"):
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


__all__ = ["Store"]
