"""Low-level pieces of opening a store file: file checks, the SQLite connection factory, error mapping.

Text columns are decoded leniently: bytes that are not valid UTF-8 (a store written by a buggy tool, or a
damaged page that still passes the integrity check) are shown as U+FFFD "�" — exactly what Netclaw
itself sees, since .NET's UTF-8 decoder replaces invalid sequences the same way — instead of making every
read of that row fail. Rewriting such a document stores the replacement characters.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import threading
import weakref
from pathlib import Path
from typing import Any

from peewee import DatabaseError, SqliteDatabase

from .errors import StoreError

SQLITE_MAGIC = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE = 100


def decode_text(raw: bytes) -> str:
    """sqlite3 text_factory: UTF-8 with U+FFFD for invalid bytes (never raises)."""
    return raw.decode("utf-8", "replace")


def is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def is_read_only_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "read only" in text


def hidden_cause(exc: BaseException) -> BaseException:
    """The error a failed rollback hid. On a full disk, a file-size limit (EFBIG) or an I/O error SQLite rolls the
    transaction back itself, so the rollback that follows fails with "cannot rollback - no transaction is active"
    and the real reason is only in the exception's context."""
    seen = {id(exc)}
    while "no transaction is active" in str(exc) and exc.__context__ is not None and id(exc.__context__) not in seen:
        exc = exc.__context__
        seen.add(id(exc))
    return exc


_SQLITE_IOERR = 10


def sqlite_reason(exc: BaseException) -> str:
    """SQLite's message for `exc` (or for the error a failed rollback hid), saying what a full disk or an I/O error
    most likely means for the user."""
    cause = hidden_cause(exc)
    original = cause if isinstance(cause, sqlite3.Error) else cause.__cause__ or cause.__context__  # peewee's wraps it
    code = getattr(original, "sqlite_errorcode", None)
    text = " ".join(str(cause).split())
    if isinstance(code, int) and code & 0xFF == _SQLITE_IOERR:  # EFBIG is an I/O error to SQLite, ENOSPC is FULL
        return f"{text}: the disk may be full, a file-size limit reached, or the disk failing"
    return text


SIDE_SUFFIXES = ("-wal", "-shm")  # the files SQLite keeps beside a WAL store


def side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def check_file(path: Path) -> None:
    """Refuse what cannot be a store before SQLite sees it (SQLite would happily treat a missing or
    empty file as a new, empty database)."""
    if not path.exists():
        raise StoreError(f"{path}: no such file")
    if path.is_dir():
        hint = f" (did you mean {path / 'netclaw.db'}?)" if (path / "netclaw.db").is_file() else ""
        raise StoreError(f"{path}: is a directory, not a Netclaw memory store{hint}")
    if not path.is_file():
        raise StoreError(f"{path}: not a regular file, not a Netclaw memory store")
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            header = fh.read(SQLITE_HEADER_SIZE)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if size == 0:
        raise StoreError(f"{path}: empty file (0 bytes), not a Netclaw memory store")
    if not header.startswith(SQLITE_MAGIC):
        raise StoreError(f"{path}: not an SQLite database")
    if len(header) < SQLITE_HEADER_SIZE:
        raise StoreError(f"{path}: SQLite file is truncated ({size} bytes)")


def file_read_only_reason(path: Path) -> str | None:
    """Why the file cannot be written, or None. Root ignores permission bits, so the bits themselves
    count too: a file the user marked read-only (chmod a-w) is treated as read-only."""
    mode = path.stat().st_mode
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return "the file is marked read-only"
    if not os.access(path, os.W_OK):
        return "the file is not writable by this user"
    if not os.access(path.parent, os.W_OK):
        return "its folder is not writable (SQLite needs it for the journal)"
    return None


class StoreDatabase(SqliteDatabase):
    """SqliteDatabase with lenient text decoding and a registry of every thread's connection, so
    `close_all()` really closes the file (peewee itself only closes the calling thread's connection).
    Connections of threads that have ended are closed when the next one is made."""

    def __init__(self, database: str | None, **kwargs: Any):
        super().__init__(database, **kwargs)
        self._registry_lock = threading.Lock()
        self._registry: list[tuple[weakref.ref[threading.Thread], sqlite3.Connection]] = []
        self._private_folder: Path | None = None
        self._kept_wal: Path | None = None  # the store whose -wal was there at open: left as it is unless memgui wrote
        self.wrote = False  # set by the handle when a write transaction commits a change

    def total_changes(self) -> int:
        """Rows this thread's connection has inserted, updated or deleted since it opened."""
        conn: sqlite3.Connection = self.connection()  # type: ignore[no-untyped-call]  # peewee's stub is unannotated
        return conn.total_changes

    def keep_wal(self, path: Path) -> None:
        """The store's `-wal` (commits not yet in the file, or an empty one) was there before memgui opened it:
        closing without having written leaves it byte for byte (SQLite's last connection would fold it into the
        file and delete it)."""
        self._kept_wal = path if side_file(path, "-wal").exists() else None

    def own_folder(self, folder: Path) -> None:
        """`folder` (a private copy of the store) is removed when the database is closed, or collected."""
        self._private_folder = folder
        weakref.finalize(self, shutil.rmtree, folder, True)

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection = super()._connect()  # type: ignore[misc]  # peewee's stub omits SqliteDatabase._connect
        conn.text_factory = decode_text
        with self._registry_lock:
            alive = []
            for thread_ref, other in self._registry:
                thread = thread_ref()
                if thread is None or not thread.is_alive():
                    _quiet_close(other)
                else:
                    alive.append((thread_ref, other))
            alive.append((weakref.ref(threading.current_thread()), conn))
            self._registry = alive
        return conn

    def close_all(self) -> None:
        keeper = self._wal_keeper()
        if not self.is_closed():
            self.close()
        with self._registry_lock:
            for _, conn in self._registry:
                _quiet_close(conn)
            self._registry = []
        if keeper is not None:
            keeper.close_all()  # a read-only connection closing last neither checkpoints nor deletes the -wal
        if self._private_folder is not None:
            shutil.rmtree(self._private_folder, ignore_errors=True)


    def _wal_keeper(self) -> StoreDatabase | None:
        """A read-only connection holding the -wal open while the read-write ones close, when memgui wrote nothing
        and the -wal was there before: then no memgui connection is the last one, so none checkpoints it."""
        if self.wrote or self._kept_wal is None or not self._registry or not side_file(self._kept_wal, "-wal").exists():
            return None
        keeper = make_database(self._kept_wal, read_only=True, busy_timeout_ms=1000)
        try:
            keeper.get_tables()  # a read: the connection joins the WAL
        except (DatabaseError, sqlite3.Error):
            keeper.close_all()
            return None
        return keeper


def _quiet_close(conn: sqlite3.Connection) -> None:
    try:
        conn.close()
    except Exception:  # pragma: no cover - closing a connection another thread is using
        pass


def make_database(path: Path, *, read_only: bool, busy_timeout_ms: int, immutable: bool = False,
                  query_only: bool = False) -> StoreDatabase:
    """A per-thread-connection database: writes take the lock at BEGIN (BEGIN IMMEDIATE), every
    connection waits `busy_timeout_ms` for locks. Read-only stores open with `mode=ro` + query_only.

    `query_only` (a read-only look at a file memgui could write): opened read-write with SQLite's query_only,
    so it still writes nothing, but its last close removes the `-wal` / `-shm` files its reading made, as any
    writer's last close does (a `mode=ro` connection cannot, and leaves them behind); a `-wal` that was there
    before is left byte for byte (`keep_wal`)."""
    pragmas = {"busy_timeout": int(busy_timeout_ms)}
    common = dict(timeout=busy_timeout_ms / 1000, check_same_thread=False, lock_type="IMMEDIATE")
    if read_only:
        uri = f"{path.as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")
        return StoreDatabase(uri, uri=True, pragmas={**pragmas, "query_only": 1}, **common)
    db = StoreDatabase(str(path), pragmas={**pragmas, "query_only": 1} if query_only else pragmas, **common)
    db.keep_wal(path)
    return db



def read_columns(db: SqliteDatabase) -> dict[str, tuple[str, ...]]:
    """{table: its column names in table order} for every table of the file (FTS5 virtual tables included),
    through Peewee's schema introspection."""
    return {t: tuple(c.name for c in db.get_columns(t)) for t in db.get_tables()}
