"""The second reader's answers, kept per (model file, source text, merged body): a second read costs nothing.

One small SQLite file in the user cache dir (`reader_verdicts.sqlite3`, stdlib `sqlite3`), one row per question
asked: the model key (`reader.reader_model_key`: the model file's path, size and mtime plus the reader's prompt
version), the SHA-256 of the source text and of the body, and the model's p(yes). The verdict is not stored: it
is p(yes) against the threshold of the day, so a new threshold needs no new model call. A cache that cannot be
read or written only costs the reuse, never the answer.
"""
from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import peewee

from ...config import user_cache_dir

FILE_NAME = "reader_verdicts.sqlite3"


class _Verdict(peewee.Model):
    model_key = peewee.TextField()
    source_sha256 = peewee.TextField()
    body_sha256 = peewee.TextField()
    p_yes = peewee.FloatField()
    seconds = peewee.FloatField(null=True)

    class Meta:
        table_name = "memgui_reader_verdicts"
        primary_key = peewee.CompositeKey("model_key", "source_sha256", "body_sha256")


def text_hash(text: str) -> str:
    return hashlib.sha256((text or "").encode("utf-8", "surrogatepass")).hexdigest()


class ReaderCache:
    """Thread-safe: each call opens its own short connection (the GUI's workers and the CLI share the file)."""

    def __init__(self, path: Path | None = None):
        self.path = path or (user_cache_dir() / FILE_NAME)
        self._lock = threading.Lock()

    def _database(self) -> peewee.SqliteDatabase:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = peewee.SqliteDatabase(str(self.path), timeout=5.0)
        db.bind([_Verdict])
        db.create_tables([_Verdict], safe=True)
        return db

    def get(self, model_key: str, source: str, body: str) -> float | None:
        """The cached p(yes) for this question, or None."""
        with self._lock:
            try:
                db = self._database()
                try:
                    row = (_Verdict.select(_Verdict.p_yes)
                           .where((_Verdict.model_key == model_key) & (_Verdict.source_sha256 == text_hash(source))
                                  & (_Verdict.body_sha256 == text_hash(body))).first())
                finally:
                    db.close()
            except (OSError, peewee.PeeweeException):
                return None
        return float(row.p_yes) if row is not None else None

    def put(self, model_key: str, source: str, body: str, p_yes: float, seconds: float | None = None) -> None:
        with self._lock:
            try:
                db = self._database()
                try:
                    with db.atomic():
                        _Verdict.replace(  # type: ignore[no-untyped-call]  # peewee's stub leaves Model.replace unannotated
                            model_key=model_key, source_sha256=text_hash(source),
                                         body_sha256=text_hash(body), p_yes=float(p_yes), seconds=seconds).execute()
                finally:
                    db.close()
            except (OSError, peewee.PeeweeException):
                pass


__all__ = ["FILE_NAME", "ReaderCache", "text_hash"]
