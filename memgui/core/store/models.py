"""Peewee models of one open store, built from the tables and columns the file actually has.

Stores vary (netclaw-compat §2.7): legacy ones carry a prototype-era `domain` column, older ones lack optional
columns or whole tables (FTS, embeddings). So each model is built per store from its own columns, and is
bound to that store's database only (several stores can be open at once without a global binding).
A table the store lacks has no model (None).

Every column is an `AsStored` field: SQLite is dynamically typed, and audit images must read and write
every value exactly as stored (an integer in a REAL column stays an integer, a BLOB in a TEXT column stays
bytes). The typed values that leave the store are the frozen dataclasses of `values.py`.
"""
from __future__ import annotations

import keyword
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from peewee import Cast, Database, Field, Model, Value
from playhouse.sqlite_ext import FTS5Model, RowIDField, SearchField

from .values import RawText

# What a column a store lacks reads as.
MISSING_COLUMN_DEFAULTS: dict[str, object] = {
    "memory_class": "durable_fact", "update_semantics": "merge-document", "sensitivity": "normal",
    "recall_mode": "auto", "confidence": 0.0, "created_at": 0, "updated_at": 0, "status": "active",
    "anchor_type": "concept", "record_type": "", "payload_json": "",
}

# model attribute → table
TABLES = {
    "anchors": "memory_anchors",
    "documents": "memory_documents",
    "records": "memory_records",
    "checkpoints": "memory_checkpoints",
    "embeddings": "memory_embeddings",
    "documents_fts": "memory_documents_fts",
    "records_fts": "memory_records_fts",
    # FTS5's own shadow tables holding each FTS row's columns (c0 = the UNINDEXED id), read to find a row's rowid
    "documents_fts_content": "memory_documents_fts_content",
    "records_fts_content": "memory_records_fts_content",
    "meta": "memgui_meta",
    "audit": "memgui_audit",
    "exemptions": "memgui_exemptions",
    "review_marks": "memgui_review_marks",
}
FTS_TABLES = ("memory_documents_fts", "memory_records_fts")


class AsStored(Field):
    """A column passed through unchanged in both directions (no type adaptation)."""

    field_type = "ANY"
    _coerce = False  # no per-value python_value call when reading (thousands of rows per scan)


# A peewee Model class built at run time from the store's own columns (`_model`): its column attributes exist
# only then, so a checker cannot see them. Any, on purpose; None where the store lacks the table.
TableModel = Any


@dataclass(frozen=True)
class StoreModels:
    """The models of one store; None where the store lacks the table."""

    anchors: TableModel = None
    documents: TableModel = None
    records: TableModel = None
    checkpoints: TableModel = None
    embeddings: TableModel = None
    documents_fts: TableModel = None
    records_fts: TableModel = None
    documents_fts_content: TableModel = None
    records_fts_content: TableModel = None
    meta: TableModel = None
    audit: TableModel = None
    exemptions: TableModel = None
    review_marks: TableModel = None

    def fts_content(self, fts_table: str) -> TableModel:
        """The content shadow table of a plain FTS5 table (None when the store lacks it)."""
        return self.of_table(f"{fts_table}_content")

    def of_table(self, table: str) -> TableModel:
        for attr, name in TABLES.items():
            if name == table:
                return getattr(self, attr)
        return None


def _attribute_name(column: str, base: type) -> str:
    """A Python attribute for a column; a column named like a Model attribute (`select`, `delete`, …) or a
    keyword gets a prefixed attribute (its column name is kept)."""
    if column.isidentifier() and not keyword.iskeyword(column) and not hasattr(base, column) and not column.startswith("_"):
        return column
    return "col_" + "".join(ch if ch.isalnum() else "_" for ch in column)


def _model(db: Database, table: str, columns: tuple[str, ...]) -> type[Model]:
    fts = table in FTS_TABLES
    base = FTS5Model if fts else Model
    attrs: dict[str, object] = {}
    for i, column in enumerate(columns):
        name = _attribute_name(column, base)
        attrs[name] = SearchField(unindexed=(i == 0), column_name=column) if fts else AsStored(column_name=column)
    meta = {"database": db, "table_name": table}
    if not fts:
        meta["primary_key"] = False  # no implicit `id`; keys are named in each query
    attrs["Meta"] = type("Meta", (), meta)
    class_name = "".join(part.title() for part in table.split("_"))
    return type(class_name, (base,), attrs)


def build_models(db: Database, columns: Mapping[str, tuple[str, ...]]) -> StoreModels:
    """Models of every known table the store has, each with exactly its stored columns, in table order."""
    return StoreModels(**{
        attr: _model(db, table, tuple(columns[table])) for attr, table in TABLES.items() if columns.get(table)
    })


def stored_fields(model: type[Model]) -> list[Field]:
    """The model's table columns in table order (an FTS model's implicit rowid left out)."""
    return [f for f in model._meta.sorted_fields if not isinstance(f, RowIDField)]


def column(model: type[Model], name: str) -> Any:  # a Field or a bound Value: a query expression
    """The column `name`, or the value it reads as when the store lacks it (a bound literal)."""
    field = model._meta.columns.get(name)
    return field if field is not None else Value(MISSING_COLUMN_DEFAULTS.get(name))


def selection(model: type[Model], names: tuple[str, ...]) -> list[Any]:
    """SELECT items for `names` in order: stored columns, defaults (aliased) for the ones the store lacks."""
    return [
        model._meta.columns[n] if n in model._meta.columns else Value(MISSING_COLUMN_DEFAULTS.get(n)).alias(n)
        for n in names
    ]


def has_column(model: type[Model] | None, name: str) -> bool:
    return model is not None and name in model._meta.columns


def row_values(model: type[Model], row: Mapping[str, object]) -> dict[Field, Any]:
    """{field: value} for the columns of `row` the table has (insert/update data keyed by field). A RawText
    value is written as TEXT with its exact bytes (CAST of the bound blob), not as a BLOB."""
    cols = model._meta.columns
    return {cols[c]: Cast(Value(v.data), "TEXT") if isinstance(v, RawText) else v for c, v in row.items() if c in cols}
