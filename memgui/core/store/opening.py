"""Opening a store: file checks, integrity, the memory tables, read-only fallbacks, memgui's migrations."""
from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from peewee import DatabaseError, InterfaceError, OperationalError

from . import memgui_schema
from .connection import (
    SIDE_SUFFIXES,
    StoreDatabase,
    check_file,
    file_read_only_reason,
    is_lock_error,
    is_read_only_error,
    make_database,
    read_columns,
    side_file,
    sqlite_reason,
)
from .errors import StoreError, StoreLockedError, StoreReadOnlyError
from .schema import REQUIRED_COLUMNS, REQUIRED_TABLES
from .store import Store

DEFAULT_BUSY_TIMEOUT_MS = 30_000


def open_store(
    path: str | os.PathLike[str],
    *,
    read_only: bool = False,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    verify: bool = True,
) -> Store:
    """Open a Netclaw memory store, or raise StoreError with a one-line reason.

    Refuses a missing path, a directory, an empty, non-SQLite or corrupt file (`verify` runs SQLite's
    quick_check), an SQLite database without the memory tables, and a store locked past the busy
    timeout. A file that cannot be written, or whose folder cannot be, opens read-only, with or without
    `-wal` / `-shm` files beside it (in place; as immutable when SQLite cannot make the `-shm` it needs and the
    file holds every commit; from a private copy when commits are still in a `-wal`). Opening writes nothing:
    memgui's own tables are created or migrated by the first write, inside that write's transaction; a refused
    open leaves no `-wal` / `-shm` file it made.
    """
    path = Path(os.path.expanduser(path)).absolute()  # `~nobody/…` stays as it is: "no such file"
    check_file(path)
    existing = {suffix for suffix in SIDE_SUFFIXES if side_file(path, suffix).exists()}
    try:
        return _open(path, read_only, busy_timeout_ms, verify)
    except StoreLockedError:
        raise  # the side files are the writer's
    except StoreError:
        _remove_side_files(path, existing)
        raise


def _remove_side_files(path: Path, existing: set[str]) -> None:
    """After a refused open (every connection closed): the `-wal` / `-shm` files SQLite made while memgui read
    the file (a read-only connection leaves them), not those that were there before. A `-wal` holding
    anything is never removed."""
    wal, shm = side_file(path, "-wal"), side_file(path, "-shm")
    try:
        if "-wal" not in existing and wal.exists() and wal.stat().st_size == 0:
            wal.unlink()
        if "-shm" not in existing and shm.exists() and ("-wal" not in existing or not wal.exists()):
            shm.unlink()
    except OSError:
        pass  # a folder we cannot write: SQLite could not have made them there either


def _open(path: Path, read_only: bool, busy_timeout_ms: int, verify: bool) -> Store:
    file_reason = file_read_only_reason(path)
    reason = file_reason or ("requested" if read_only else None)
    requested_only = read_only and file_reason is None
    read_only = read_only or file_reason is not None
    db, columns = (_connect_reader(path, busy_timeout_ms, verify) if requested_only
                   else _connect(path, read_only, busy_timeout_ms, verify))
    store = Store(path, db, read_only, columns, read_only_reason=reason if read_only else None,
                  file_read_only=file_reason is not None)
    if read_only:
        return store
    try:
        _check_schema(store)
    except _NewerSchema as exc:
        store.close()
        db, columns = _connect(path, True, busy_timeout_ms, False)
        return Store(path, db, True, columns, read_only_reason=str(exc), file_read_only=False)
    except StoreReadOnlyError:
        # The file looked writable but SQLite says otherwise (a read-only mount, a -wal file owned by
        # someone else): open it read-only instead of failing.
        store.close()
        db, columns = _connect(path, True, busy_timeout_ms, False)
        return Store(path, db, True, columns, read_only_reason="SQLite refused to write", file_read_only=True)
    except StoreError:
        store.close()
        raise
    return store


def _connect_reader(path: Path, busy_timeout_ms: int, verify: bool) -> tuple[StoreDatabase, dict[str, Any]]:
    """A read-only look at a file memgui could write, with no side file beside it: read-write with query_only, so
    closing it leaves the folder as it was (no `-wal` / `-shm` of its own left behind). `mode=ro` when any side
    file is there (a `-journal` a read-write connection would roll back, changing the file; a `-wal` / `-shm`
    that are someone else's and stay as they are) or SQLite will not open it read-write."""
    if not any(side_file(path, suffix).exists() for suffix in (*SIDE_SUFFIXES, "-journal")):
        try:
            db = make_database(path, read_only=False, busy_timeout_ms=busy_timeout_ms, query_only=True)
            return _inspect(db, path, verify, busy_timeout_ms)
        except StoreLockedError:
            raise
        except StoreError as exc:
            if not ("unable to open" in str(exc) or is_read_only_error(exc)):
                raise
    return _connect(path, True, busy_timeout_ms, verify)


def _connect(path: Path, read_only: bool, busy_timeout_ms: int, verify: bool) -> tuple[StoreDatabase, dict[str, Any]]:
    try:
        return _inspect(make_database(path, read_only=read_only, busy_timeout_ms=busy_timeout_ms), path, verify, busy_timeout_ms)
    except StoreError as exc:
        if not read_only or not ("unable to open" in str(exc) or is_read_only_error(exc)):
            raise
    # A WAL store SQLite cannot read in place: its folder cannot take the `-shm` file a reader needs (closed
    # cleanly: no `-shm`), or holds one this user cannot use. Nobody can be writing it from here.
    wal = side_file(path, "-wal")
    if not wal.exists() or wal.stat().st_size == 0:  # the file holds every commit: read it as immutable
        db = make_database(path, read_only=True, busy_timeout_ms=busy_timeout_ms, immutable=True)
        return _inspect(db, path, verify, busy_timeout_ms)
    # Commits still in the -wal: read a private copy of the file and its -wal (immutable would skip them).
    copy = _private_copy(path, wal)
    try:
        db = make_database(copy, read_only=True, busy_timeout_ms=busy_timeout_ms)
        db.own_folder(copy.parent)
        return _inspect(db, path, verify, busy_timeout_ms)
    except StoreError:
        shutil.rmtree(copy.parent, ignore_errors=True)
        raise


def _private_copy(path: Path, wal: Path) -> Path:
    """The store and its -wal copied into a private folder; refused if either changed while being copied."""
    def stamps() -> tuple[Any, ...]:
        return tuple((s.st_size, s.st_mtime_ns) for s in (path.stat(), wal.stat()))

    folder = Path(tempfile.mkdtemp(prefix="memgui-read-only-"))
    copy = folder / path.name
    try:
        before = stamps()
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, side_file(copy, "-wal"))
        if stamps() != before:
            raise StoreError(f"{path}: the store changed while it was being read; try again")
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except StoreError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return copy


def _inspect(db: StoreDatabase, path: Path, verify: bool, busy_timeout_ms: int) -> tuple[StoreDatabase, dict[str, Any]]:
    """Connect, check integrity and the memory tables; returns the table → columns map."""
    try:
        db.connect(reuse_if_open=True)
        if verify:
            rows = db.execute_sql("PRAGMA quick_check(1)").fetchall()  # type: ignore[no-untyped-call]  # raw SQL: PRAGMA has no Peewee query form; peewee's stub is unannotated
            if not rows or rows[0][0] != "ok":
                detail = rows[0][0] if rows else "no answer"
                raise StoreError(f"{path}: store is corrupt (SQLite integrity check: {detail})")
        columns = read_columns(db)
    except StoreError:
        db.close_all()
        raise
    except OperationalError as exc:
        db.close_all()
        if is_lock_error(exc):
            raise StoreLockedError(
                f"{path}: store is locked by another process (gave up after {busy_timeout_ms / 1000:g} s)"
            ) from None
        raise StoreError(f"{path}: cannot be opened ({sqlite_reason(exc)})") from None
    except (DatabaseError, InterfaceError, sqlite3.Error) as exc:
        db.close_all()
        raise StoreError(f"{path}: store is corrupt or not an SQLite database ({exc})") from None
    missing = [t for t in REQUIRED_TABLES if t not in columns]
    if missing:
        db.close_all()
        raise StoreError(f"{path}: not a Netclaw memory store (missing tables: {', '.join(missing)})")
    for table, needed in REQUIRED_COLUMNS.items():
        lacking = [c for c in needed if c not in columns.get(table, ())]
        if lacking:
            db.close_all()
            raise StoreError(f"{path}: not a Netclaw memory store ({table} lacks columns: {', '.join(lacking)})")
    return db, columns


def _check_schema(store: Store) -> None:
    """Refuse a store a newer memgui migrated (it is opened read-only instead), and prove the write lock can
    be taken with an empty BEGIN IMMEDIATE transaction — nothing is written on open: memgui's own tables
    are created by the first write, in its transaction (`Store.transaction`)."""
    target = memgui_schema.current_version()
    current = memgui_schema.read_version(store)
    if current > target:
        raise _NewerSchema(f"memgui tables are at version {current}, newer than this memgui ({target})")
    with store.transaction():
        pass
    store.schema_pending = current < target


class _NewerSchema(StoreError):
    """The store was migrated by a newer memgui: it is opened read-only rather than written blindly."""
