"""An open store file: its connection, the models built from its columns, SQLite errors as one-line
StoreErrors, and the one transaction rule every write obeys (netclaw-compat §11.2).

Every write runs in `transaction()`: BEGIN IMMEDIATE with busy_timeout ≥ 30 s (the daemon's retry window),
nested calls as savepoints, memgui's own tables created by the first write inside its transaction. A read-only
store refuses every write with StoreReadOnlyError. The query runners (`_tuples`, `_first`, `_run`) are for the
store package's own modules; every other stage calls the store's methods and parts (`store.py`).
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from peewee import DatabaseError, InterfaceError, OperationalError, Value, fn

from . import memgui_schema
from .connection import StoreDatabase, hidden_cause, is_lock_error, is_read_only_error, read_columns, sqlite_reason
from .errors import StoreError, StoreLockedError, StoreReadOnlyError, StoreWriteFailedError
from .models import StoreModels, build_models

# A peewee query or SQL expression over the run-time models (TableModel): built and read as Any, on purpose.
Query = Any
Expr = Any


def count_rows() -> Expr:
    """COUNT(*): a bound 1 counts every row, as `*` does."""
    return fn.COUNT(Value(1))


class StoreHandle:
    """The open file under a Store. Thread-safe: peewee keeps one connection per thread, and every thread's
    connection is closed by `close()`."""

    def __init__(self, path: Path, db: StoreDatabase, read_only: bool, columns: dict[str, tuple[str, ...]],
                 *, read_only_reason: str | None = None, file_read_only: bool = False):
        self.path = path
        self.db = db
        self.read_only = read_only
        self.read_only_reason = read_only_reason
        self.file_read_only = file_read_only
        # memgui's own tables are created by the first write, inside its transaction (see `transaction`)
        self.schema_pending = False
        self._identity = _file_identity(path)  # the file opened: a write checks the path still names it
        self._use_columns(columns)

    def _use_columns(self, columns: dict[str, tuple[str, ...]]) -> None:
        self.columns = columns
        self.legacy_domain = "domain" in columns.get("memory_documents", ())
        self.m: StoreModels = build_models(self.db, columns)

    def reload_schema(self) -> None:
        """Re-read the tables and columns (after memgui's migrations created its own) and rebuild the models."""
        with self._sqlite_errors():
            self._use_columns(read_columns(self.db))

    # ---- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        self.db.close_all()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def has_table(self, name: str) -> bool:
        return name in self.columns

    def has_column(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, ())

    # ---- running queries -------------------------------------------------------------------------

    @contextmanager
    def _sqlite_errors(self) -> Iterator[None]:
        """SQLite failures (at execute or while fetching) as one-line StoreErrors."""
        try:
            yield
        except (OperationalError, sqlite3.OperationalError) as exc:
            if is_lock_error(exc):
                raise StoreLockedError(f"{self.path}: store is locked by another process (waited for the busy timeout)") from None
            if is_read_only_error(exc):
                raise StoreReadOnlyError(f"{self.path}: store is read-only; nothing was written") from None
            raise StoreError(f"{self.path}: {exc}") from None
        except (DatabaseError, InterfaceError, sqlite3.DatabaseError, sqlite3.InterfaceError) as exc:
            raise StoreError(f"{self.path}: store is damaged ({exc})") from None

    def _tuples(self, query: Query) -> list[tuple[Any, ...]]:
        """The rows of a SELECT as plain tuples, straight from the cursor: Peewee compiles the query, and no
        per-row wrapper runs (every column is AsStored, so there is nothing to convert)."""
        with self._sqlite_errors():
            rows: list[tuple[Any, ...]] = self.db.execute(query).fetchall()  # type: ignore[no-untyped-call]  # peewee's stub leaves execute() unannotated
            return rows

    def _first(self, query: Query) -> tuple[Any, ...] | None:
        rows = self._tuples(query.limit(1))
        return rows[0] if rows else None

    def _run(self, query: Query) -> int:
        """Execute an insert/update/delete; returns what Peewee returns (row count, or the new rowid)."""
        with self._sqlite_errors():
            return int(query.execute())

    def execute(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        """Run literal SQL, for tests and diagnostics only: core code reads and writes through the models
        (tests/core/store/test_sql_boundary.py keeps SQL out of every other module)."""
        with self._sqlite_errors():
            cursor: sqlite3.Cursor = self.db.execute_sql(sql, tuple(params))  # type: ignore[no-untyped-call]  # raw SQL: the escape hatch this method is; peewee's stub is unannotated
            return cursor

    # ---- the one transaction rule ----------------------------------------------------------------

    def _refuse_write(self) -> StoreReadOnlyError:
        why = f" ({self.read_only_reason})" if self.read_only_reason not in (None, "requested") else ""
        return StoreReadOnlyError(f"{self.path}: store is opened read-only{why}; nothing was written")

    def require_writable(self) -> None:
        if self.read_only:
            raise self._refuse_write()

    def _require_same_file(self) -> None:
        """Refuse to commit when the path no longer names the file memgui opened: deleted, moved away, or replaced
        by another store (a backup put back, a sync tool's copy). SQLite keeps writing the file it opened, so the
        commit would land in a file nobody reads, or in a `-wal` the new file at the path would then replay."""
        if _file_identity(self.path) != self._identity:
            raise StoreWriteFailedError(f"{self.path}: the store file was deleted, moved or replaced since memgui "
                                        "opened it; nothing was written (open the store again)")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One BEGIN IMMEDIATE transaction (nested calls become savepoints). Refuses on read-only stores.
        Any error inside rolls everything back. The outermost transaction of a store memgui has not written
        yet first creates memgui's own tables, so they commit with the first write or not at all."""
        self.require_writable()
        outermost = not self.db.in_transaction()
        migrating = self.schema_pending and outermost
        try:
            try:
                with self.db.atomic():
                    changes = self.db.total_changes()
                    if migrating:
                        memgui_schema.migrate(self)
                    yield
                    if outermost and self.db.total_changes() != changes:
                        self._require_same_file()  # before the commit: refused, it rolls back
                        self.db.wrote = True  # committed below: closing may fold the -wal into the file
            except BaseException:
                if migrating:  # the tables were rolled back with the write: forget their models
                    self.reload_schema()
                raise
        except (OperationalError, sqlite3.OperationalError) as exc:
            cause = hidden_cause(exc)  # SQLite rolled back itself (a full disk): the rollback's error hides why
            if is_lock_error(cause):
                raise StoreLockedError(
                    f"{self.path}: store is locked by another process (waited for the busy timeout); nothing was written"
                ) from None
            if is_read_only_error(cause):
                raise StoreReadOnlyError(f"{self.path}: store is read-only; nothing was written") from None
            raise StoreWriteFailedError(f"{self.path}: write failed ({sqlite_reason(exc)}); nothing was written"
                                        ) from None
        except (DatabaseError, InterfaceError) as exc:
            raise StoreWriteFailedError(f"{self.path}: write failed ({sqlite_reason(exc)}); nothing was written"
                                        ) from None
        if migrating:
            self.schema_pending = False


def _file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`, None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


__all__ = ["Expr", "Query", "StoreHandle", "count_rows"]
