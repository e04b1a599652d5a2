"""The second reader's answers, kept per (model file, source text, merged body): a second read costs nothing.

One small SQLite file in the user cache dir (`reader_verdicts.sqlite3`, stdlib `sqlite3`), one row per question
asked: the model key (`reader.reader_model_key`: the model file's path, size and mtime plus the reader's prompt
version), the SHA-256 of the source text and of the body, and the model's p(yes). The verdict is not stored: it
is p(yes) against the threshold of the day, so a new threshold needs no new model call. A cache that cannot be
read or written only costs the reuse, never the answer.
"""
from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

from ...config import user_cache_dir

FILE_NAME = "reader_verdicts.sqlite3"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS memgui_reader_verdicts (model_key TEXT NOT NULL, source_sha256 TEXT NOT NULL,"
           " body_sha256 TEXT NOT NULL, p_yes REAL NOT NULL, seconds REAL,"
           " PRIMARY KEY (model_key, source_sha256, body_sha256))")


def text_hash(text: str) -> str:
    return hashlib.sha256((text or "").encode("utf-8", "surrogatepass")).hexdigest()


class ReaderCache:
    """Thread-safe: each call opens its own short connection (the GUI's workers and the CLI share the file)."""

    def __init__(self, path: Path | None = None):
        self.path = path or (user_cache_dir() / FILE_NAME)
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), timeout=5.0)
        conn.execute(_SCHEMA)
        return conn

    def get(self, model_key: str, source: str, body: str) -> float | None:
        """The cached p(yes) for this question, or None."""
        with self._lock:
            try:
                conn = self._connect()
                try:
                    row = conn.execute(
                        "SELECT p_yes FROM memgui_reader_verdicts WHERE model_key=? AND source_sha256=? "
                        "AND body_sha256=?", (model_key, text_hash(source), text_hash(body))).fetchone()
                finally:
                    conn.close()
            except (OSError, sqlite3.Error):
                return None
        return float(row[0]) if row is not None else None

    def put(self, model_key: str, source: str, body: str, p_yes: float, seconds: float | None = None) -> None:
        with self._lock:
            try:
                conn = self._connect()
                try:
                    with conn:
                        conn.execute("INSERT OR REPLACE INTO memgui_reader_verdicts VALUES (?, ?, ?, ?, ?)",
                                     (model_key, text_hash(source), text_hash(body), float(p_yes), seconds))
                finally:
                    conn.close()
            except (OSError, sqlite3.Error):
                pass


__all__ = ["FILE_NAME", "ReaderCache", "text_hash"]
