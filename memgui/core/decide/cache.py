"""Cluster reviews cached per store file and model file, so a model's answer is computed once.

An entry is keyed by the cluster's member ids and holds the stamps (updated_at + byte-exact hash) its members
had when it was computed: a member that changed since makes the entry invalid, so a cached proposal never
merges text it has not seen. The model key is the self-test's (path + size + mtime + prompt version), so a
different or rebuilt model starts afresh, and so does a memgui whose review rules changed (`REVIEW_RULES`).
One JSON file per store in the user cache dir, replaced atomically.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...config import user_cache_dir
from ..store.seams import read_cache
from .review import REVIEW_RULES, ClusterReview, rechecked, stamps_of

FOLDER = "decisions"


def _store_file(store_path: str | os.PathLike[str], root: Path | None) -> Path:
    digest = hashlib.sha256(str(Path(store_path).resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return (root or user_cache_dir()) / FOLDER / f"{digest}.json"


def _cluster_key(ids: Sequence[str]) -> str:
    return "\x1f".join(sorted(ids))


class DecisionCache:
    """Thread-safe; `get` and `put` may run on workers."""

    def __init__(self, store_path: str | os.PathLike[str], model_key: str, *, root: Path | None = None):
        self.path = _store_file(store_path, root)
        # reviews made by other review rules (an older memgui: no value conflicts) are not reused
        self.model_key = f"{model_key}|rules {REVIEW_RULES}"
        self._lock = threading.Lock()
        self._parsed: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # (the file's stat signature, its parsed content)

    def _load(self) -> dict[str, Any]:
        """The file's content, parsed again only when the file changed: a queue looks up every cluster in a
        row. Callers must not modify the result."""
        try:
            st = self.path.stat()
        except OSError:
            return {}
        signature = (st.st_mtime_ns, st.st_size, st.st_ino)
        if self._parsed is not None and self._parsed[0] == signature:
            return self._parsed[1]
        data = read_cache(self.path)  # bounded; a malformed or 100k-deep cache is an empty one
        self._parsed = (signature, data)
        return data

    def get(self, documents: Sequence[Any]) -> ClusterReview | None:
        """The cached review of exactly these documents, if every one is unchanged since; else None."""
        with self._lock:
            entry = self._load().get(self.model_key, {}).get(_cluster_key([d.document_id for d in documents]))
        if not isinstance(entry, dict):
            return None
        try:
            review = ClusterReview.from_dict(entry)
        except (TypeError, ValueError):  # a review this memgui cannot read is not reused
            return None
        return rechecked(review, documents) if review.stamps == stamps_of(documents) else None

    def reviews(self) -> list[ClusterReview]:
        """Every review kept for this model, current or not (what the model judged, e.g. to compare with
        what the reviewer then decided)."""
        with self._lock:
            entries = self._load().get(self.model_key, {})
        out = []
        for entry in entries.values() if isinstance(entries, dict) else ():
            try:
                out.append(ClusterReview.from_dict(entry))
            except (TypeError, ValueError):  # a review this memgui cannot read is not reused
                continue
        return out

    def put(self, review: ClusterReview) -> None:
        """Keep a model's review (unjudged union drafts are cheap and not cached). An unwritable cache folder
        only costs the reuse, never the review."""
        if not review.groups_judged:
            return
        with self._lock:
            data = dict(self._load())
            data[self.model_key] = {**data.get(self.model_key, {}), _cluster_key(list(review.stamps)): review.to_dict()}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(data), encoding="utf-8")  # ASCII: lone surrogates survive as escapes
                os.replace(tmp, self.path)
            except OSError:
                pass


__all__ = ["DecisionCache"]
