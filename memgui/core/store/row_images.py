"""Row images: every column of a row exactly as stored (legacy columns included, text that is not UTF-8 kept as
RawText), and putting such a row back. The audit trail captures them before and after each write and undo
restores them (`audit_log.py`); they run inside the caller's transaction (the handle's one rule, `handle.py`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from peewee import Cast, Value

from .errors import StoreError
from .handle import Expr, StoreHandle
from .models import FTS_TABLES, TableModel, row_values, stored_fields
from .values import RawText


class RowImages:
    """`store.images`: rows of any of the store's tables as {column: value}, and their restore."""

    def __init__(self, store: StoreHandle):
        self.store = store

    def stored_rows(self, model: TableModel, where: Expr, order_by: Sequence[Expr] = ()) -> list[dict[str, Any]]:
        """Rows as {column: value}, every column exactly as stored, in table column order. A text value that
        reads with U+FFFD is re-read as bytes: if those are not valid UTF-8 it is kept as RawText(bytes)."""
        fields = stored_fields(model)
        names = [f.column_name for f in fields]
        query = model.select(*fields).where(where)
        if order_by:
            query = query.order_by(*order_by)
        rows = [dict(zip(names, row)) for row in self.store._tuples(query)]
        for row in rows:
            suspect = [f for f in fields if isinstance(row[f.column_name], str) and "\ufffd" in row[f.column_name]]
            if suspect:
                again = where & self._same_row(model, row)
                raw = self.store._first(model.select(*(Cast(f, "BLOB") for f in suspect)).where(again))
                for f, data in zip(suspect, raw or ()):
                    try:
                        bytes(data).decode("utf-8")
                    except UnicodeDecodeError:
                        row[f.column_name] = RawText(bytes(data))
        return rows

    @staticmethod
    def _same_row(model: TableModel, row: dict[str, Any]) -> Expr:
        """A condition selecting `row` again: its primary key, else every non-null column it has."""
        pk = model._meta.primary_key
        keys = [pk] if pk is not None and getattr(pk, "column_name", None) in row else \
            [f for f in stored_fields(model) if isinstance(row.get(f.column_name), (int, float)) or (
                isinstance(row.get(f.column_name), str) and "\ufffd" not in row[f.column_name])]
        cond = Value(1) == Value(1)
        for f in keys:
            cond &= f == row[f.column_name]
        return cond

    def row_image(self, table: str, key_column: str, key: str) -> dict[str, Any] | None:
        """Every column of one row exactly as stored (extra legacy columns included), or None. Works for
        the FTS tables too (their indexed columns, not the implicit rowid)."""
        model = self.store.m.of_table(table)
        if model is None:
            return None
        rows = self.stored_rows(model, self.where_key(model, key_column, key))
        return rows[0] if rows else None

    def where_key(self, model: TableModel, key_column: str, key: str) -> Expr:
        """The condition `key_column = key` (the Netclaw writes delete FTS rows by it too). On a plain FTS5
        table keyed by its UNINDEXED first column that condition is a scan of every FTS row, and a DELETE by it
        re-reads them all (measured on a 1 MB text among a dozen: ≈ 36 ms, against ≈ 12 ms by rowid): the same
        rows are named by their rowids instead, looked up in FTS5's own content table (`<table>_content`, column
        c0 = the first column). Other tables, or an FTS table without that shadow table (contentless, external
        content), keep the plain condition."""
        field = model._meta.columns.get(key_column)
        if field is None:  # a table of Netclaw's name another tool made (an FTS table without its id column)
            raise StoreError(f"{self.store.path}: its {model._meta.table_name} table has no {key_column} column, "
                             "so memgui cannot read or write its rows as Netclaw does; nothing was written")
        content = self.store.m.fts_content(model._meta.table_name) if model._meta.table_name in FTS_TABLES else None
        fields = stored_fields(model)
        if content is None or not fields or fields[0].column_name != key_column \
                or tuple(content._meta.columns)[:2] != ("id", "c0") or len(content._meta.columns) != len(fields) + 1:
            return field == key
        rowids = [r[0] for r in
                  self.store._tuples(content.select(content.id).where(content.c0 == key).order_by(content.id))]
        if len(rowids) == 1:
            return model.rowid == rowids[0]
        return model.rowid.in_(rowids) if rowids else Value(0) == Value(1)

    def document_image(self, document_id: str) -> dict[str, Any]:
        """A document's full state as Netclaw sees it: the row, its FTS row and its embedding rows."""
        E = self.store.m.embeddings
        embeddings = []
        if E is not None:
            embeddings = [
                {**r, "vector": bytes(r["vector"] or b"").hex()}
                for r in self.stored_rows(E, E.item_id == document_id, (E.model_id,))
            ]
        return {
            "row": self.row_image("memory_documents", "document_id", document_id),
            "fts": self.row_image("memory_documents_fts", "document_id", document_id),
            "embeddings": embeddings,
        }

    def restore_row(self, table: str, key_column: str, key: str, row: dict[str, Any] | None) -> None:
        """Put one row back exactly as `row` (from row_image) describes; None removes it. A table the store
        lacks is left alone. Runs in a savepoint inside the caller's transaction."""
        model = self.store.m.of_table(table)
        if model is None:
            return
        with self.store.transaction():
            self.store._run(model.delete().where(self.where_key(model, key_column, key)))
            if row is not None:
                self.store._run(model.insert(row_values(model, row)))

    def restore_document_image(self, document_id: str, image: dict[str, Any]) -> None:
        """Put a document's row and FTS row back exactly as `image` (from document_image) describes, in one
        transaction (a savepoint inside the caller's transaction). Its embedding rows are deleted, never
        written, as on every rewrite: the daemon re-embeds the restored text (netclaw-compat §9)."""
        E = self.store.m.embeddings
        with self.store.transaction():
            self.restore_row("memory_documents", "document_id", document_id, image.get("row"))
            self.restore_row("memory_documents_fts", "document_id", document_id, image.get("fts"))
            if E is not None:
                self.store._run(E.delete().where(E.item_id == document_id))


__all__ = ["RowImages"]
