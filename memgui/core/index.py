"""A persisted hnswlib index of one store's documents in one model's vector space.

Files live in `user_cache_dir()/index/<store key>/`, one pair per model: `<model>.json` (the sidecar: label ↔
document id ↔ content hash, the index file's name, size and CRC) and `<model>.<generation>.hnsw`. The sidecar is
renamed into place last, so it always names a complete index file; a cancelled or crashed build leaves the
previous pair untouched (or nothing). Reopening is incremental: documents whose content hash is unchanged keep
their vectors, changed and new ones are embedded, tombstoned or deleted ones are marked deleted (their slots
are reused), and capacity grows with `resize_index`. A damaged or mismatched pair is rebuilt with a notice.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..config import load_curation_settings, user_cache_dir
from .embed import VectorSource
from .store import Document, Store
from .tasks import NEVER_CANCELLED, CancelToken, Progress, Work

INDEX_FORMAT = 1
SPACE = "cosine"
M = 16
EF_CONSTRUCTION = 200
QUERY_EF = 64
ADD_BATCH = 256


@dataclass(frozen=True)
class IndexUpdate:
    """What opening the index did (shown to the user as a one-line summary)."""

    embedded: int = 0  # documents embedded (new or changed)
    reused: int = 0  # documents whose persisted vector was kept
    removed: int = 0  # documents marked deleted (tombstoned / gone / changed)
    rebuilt: bool = False  # started from nothing (first run, or the persisted files were unusable)
    saved: bool = False
    notices: tuple[str, ...] = ()


def store_key(store_path: str | os.PathLike) -> str:
    return hashlib.sha256(str(Path(store_path).expanduser().absolute()).encode("utf-8")).hexdigest()[:16]


def _slug(model_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model_id).strip("._") or "model"


def index_folder(store_path: str | os.PathLike, cache_dir: Path | None = None) -> Path:
    return (cache_dir or user_cache_dir()) / "index" / store_key(store_path)


def sidecar_path(store_path: str | os.PathLike, model_id: str, cache_dir: Path | None = None) -> Path:
    return index_folder(store_path, cache_dir) / f"{_slug(model_id)}.json"


def _crc32(path: Path) -> int:
    crc = 0
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            crc = zlib.crc32(chunk, crc)
    return crc


class VectorIndex:
    """An open hnswlib index plus its label ↔ document id ↔ content hash maps (live documents only)."""

    def __init__(self, hnsw, model_id: str, dims: int, sidecar: Path, threads: int):
        self._hnsw = hnsw
        self.model_id = model_id
        self.dims = dims
        self.sidecar = sidecar
        self.threads = threads
        self.label_of: dict[str, int] = {}
        self.hash_of: dict[str, str] = {}
        self.doc_of: dict[int, str] = {}
        self.next_label = 0
        self.update = IndexUpdate()

    def __len__(self) -> int:
        return len(self.label_of)

    def __contains__(self, document_id: str) -> bool:
        return document_id in self.label_of

    @property
    def capacity(self) -> int:
        return int(self._hnsw.get_max_elements())

    @property
    def slots_used(self) -> int:
        return int(self._hnsw.element_count)

    def document_ids(self) -> list[str]:
        return list(self.label_of)

    def vectors(self, document_ids: Sequence[str]) -> np.ndarray:
        """Stored (L2-normalised) vectors of indexed documents, in the given order."""
        if not document_ids:
            return np.empty((0, self.dims), dtype=np.float32)
        labels = [self.label_of[d] for d in document_ids]
        return np.asarray(self._hnsw.get_items(labels, return_type="numpy"), dtype=np.float32)

    def query(self, vectors: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """Up to k nearest live documents per query vector, best first, as (document id, cosine)."""
        vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        k = min(k, len(self))
        if k <= 0 or len(vectors) == 0:
            return [[] for _ in range(len(vectors))]
        self._hnsw.set_ef(max(QUERY_EF, 2 * k))
        try:
            labels, distances = self._hnsw.knn_query(vectors, k=k, num_threads=self.threads)
        except RuntimeError:  # hnswlib could not fill k results (tiny or heavily deleted graph): go exact
            return self._exact_query(vectors, k)
        return [
            [(self.doc_of[int(label)], float(1.0 - dist)) for label, dist in zip(row_l, row_d)]
            for row_l, row_d in zip(labels, distances)
        ]

    def _exact_query(self, vectors: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        ids = self.document_ids()
        matrix = self.vectors(ids)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        sims = (vectors / norms) @ matrix.T
        out = []
        for row in sims:
            top = np.argsort(-row)[:k]
            out.append([(ids[i], float(row[i])) for i in top])
        return out


def _new_hnsw(dims: int, capacity: int, threads: int):
    import hnswlib

    hnsw = hnswlib.Index(space=SPACE, dim=dims)
    hnsw.init_index(max_elements=max(16, capacity), ef_construction=EF_CONSTRUCTION, M=M, allow_replace_deleted=True)
    hnsw.set_num_threads(threads)
    return hnsw


def _load(sidecar: Path, model_id: str, dims: int, threads: int) -> tuple[VectorIndex | None, str | None]:
    """The persisted index, or (None, reason) when it is missing (reason None) or unusable (reason given)."""
    if not sidecar.exists():
        return None, None
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        if meta.get("format") != INDEX_FORMAT:
            return None, "it was written by another memgui version"
        if meta.get("model_id") != model_id or int(meta.get("dims", -1)) != dims:
            return None, f"it holds {meta.get('model_id')} vectors of {meta.get('dims')} dims, not {model_id} ({dims})"
        if (meta.get("space"), meta.get("M"), meta.get("ef_construction")) != (SPACE, M, EF_CONSTRUCTION):
            return None, "it was built with other index parameters"
        ids, labels, hashes = meta["ids"], meta["labels"], meta["hashes"]
        if not (len(ids) == len(labels) == len(hashes)) or len(set(labels)) != len(labels):
            return None, "its sidecar is inconsistent"
        index_file = sidecar.parent / str(meta["index_file"])
        if Path(meta["index_file"]).name != meta["index_file"] or not index_file.is_file():
            return None, "its index file is missing"
        if index_file.stat().st_size != int(meta["index_size"]) or _crc32(index_file) != int(meta["index_crc32"]):
            return None, "its index file is damaged"
        import hnswlib

        hnsw = hnswlib.Index(space=SPACE, dim=dims)
        hnsw.load_index(str(index_file), max_elements=int(meta["max_elements"]), allow_replace_deleted=True)
        hnsw.set_num_threads(threads)
        if hnsw.element_count < len(labels):
            return None, "its index file does not match its sidecar"
    except (OSError, ValueError, KeyError, TypeError, RuntimeError, UnicodeDecodeError) as exc:
        return None, f"it could not be read ({type(exc).__name__})"
    index = VectorIndex(hnsw, model_id, dims, sidecar, threads)
    index.label_of = {d: int(label) for d, label in zip(ids, labels)}
    index.hash_of = dict(zip(ids, hashes))
    index.doc_of = {int(label): d for d, label in zip(ids, labels)}
    index.next_label = int(meta.get("next_label", max(labels, default=-1) + 1))
    return index, None


def _save(index: VectorIndex) -> None:
    """Index file first (temp + rename to a fresh generation name), then the sidecar naming it (temp + rename)."""
    folder = index.sidecar.parent
    folder.mkdir(parents=True, exist_ok=True)
    stem = index.sidecar.stem
    index_file = folder / f"{stem}.{uuid.uuid4().hex[:12]}.hnsw"
    tmp_index = folder / f".{index_file.name}.tmp"
    tmp_sidecar = folder / f".{index.sidecar.name}.tmp"
    try:
        index._hnsw.save_index(str(tmp_index))
        size, crc = tmp_index.stat().st_size, _crc32(tmp_index)
        os.replace(tmp_index, index_file)
        ids = list(index.label_of)
        meta = {
            "format": INDEX_FORMAT, "model_id": index.model_id, "dims": index.dims, "space": SPACE, "M": M,
            "ef_construction": EF_CONSTRUCTION, "index_file": index_file.name, "index_size": size,
            "index_crc32": crc, "max_elements": index.capacity, "next_label": index.next_label,
            "ids": ids, "labels": [index.label_of[d] for d in ids], "hashes": [index.hash_of[d] for d in ids],
        }
        tmp_sidecar.write_text(json.dumps(meta, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp_sidecar, index.sidecar)
    except BaseException:
        tmp_index.unlink(missing_ok=True)
        tmp_sidecar.unlink(missing_ok=True)
        raise
    for old in folder.glob(f"{stem}.*.hnsw"):
        if old != index_file:
            old.unlink(missing_ok=True)


def _clean_temp_files(folder: Path) -> None:
    if folder.is_dir():
        for tmp in folder.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)


def open_index(
    store: Store,
    source: VectorSource,
    *,
    docs: Sequence[Document] | None = None,
    cancel: CancelToken | None = None,
    cache_dir: Path | None = None,
    threads: int | None = None,
    batch_size: int = ADD_BATCH,
) -> Work[VectorIndex]:
    """Open (or build) the store's index for `source`'s model and bring it up to date with the live documents.

    Yields Progress ("indexing", documents done, documents to embed); returns the VectorIndex whose `update`
    says what happened. Cancelling raises `Cancelled` and leaves the files as they were."""
    cancel = cancel or NEVER_CANCELLED
    threads = threads or load_curation_settings().llm_threads
    info = source.info
    sidecar = sidecar_path(store.path, info.model_id, cache_dir)
    _clean_temp_files(sidecar.parent)
    live = list(docs) if docs is not None else store.documents()
    yield Progress("indexing", 0, None, f"opening the {info.model_id} index")

    notices: list[str] = []
    index, problem = _load(sidecar, info.model_id, info.dims, threads)
    rebuilt = index is None
    if problem:
        notices.append(f"The saved {info.model_id} vector index was rebuilt: {problem}.")
    if index is None:
        index = VectorIndex(_new_hnsw(info.dims, len(live), threads), info.model_id, info.dims, sidecar, threads)

    live_hash = {d.document_id: d.content_hash for d in live}
    to_embed = [d for d in live if index.hash_of.get(d.document_id) != live_hash[d.document_id]]
    stale = [d for d in index.label_of if live_hash.get(d) != index.hash_of[d]]
    removed = sum(1 for d in stale if d not in live_hash)
    for doc_id in stale:
        label = index.label_of.pop(doc_id)
        index.hash_of.pop(doc_id)
        index.doc_of.pop(label, None)
        index._hnsw.mark_deleted(label)
    reused = len(live) - len(to_embed)

    needed = index.slots_used + len(to_embed)
    if needed > index.capacity:
        index._hnsw.resize_index(max(needed, int(index.capacity * 1.5)))

    done = 0
    for start in range(0, len(to_embed), batch_size):
        cancel.raise_if_cancelled()
        batch = to_embed[start : start + batch_size]
        gen = source.vectors_for(batch, cancel)
        while True:
            try:
                inner = next(gen)
            except StopIteration as stop:
                vectors = stop.value
                break
            yield Progress("indexing", done + (inner.done if inner.total else 0), len(to_embed), inner.message)
        cancel.raise_if_cancelled()
        labels = list(range(index.next_label, index.next_label + len(batch)))
        index.next_label += len(batch)
        index._hnsw.add_items(np.asarray(vectors, dtype=np.float32), labels, num_threads=threads, replace_deleted=True)
        for doc, label in zip(batch, labels):
            index.label_of[doc.document_id] = label
            index.hash_of[doc.document_id] = live_hash[doc.document_id]
            index.doc_of[label] = doc.document_id
        done += len(batch)
        yield Progress("indexing", done, len(to_embed))

    cancel.raise_if_cancelled()
    changed = rebuilt or bool(to_embed) or bool(stale)
    if changed:
        _save(index)
    index.update = IndexUpdate(
        embedded=len(to_embed), reused=reused, removed=removed, rebuilt=rebuilt, saved=changed, notices=tuple(notices)
    )
    return index
