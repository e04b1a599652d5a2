"""A persisted hnswlib index of one store's documents in one model's vector space.

Files live in `user_cache_dir()/index/<store key>/`, one set per model: `<model>.json` (the sidecar: label ↔
document id ↔ content hash, the data files' names, sizes and CRCs), `<model>.<generation>.hnsw` (the graph) and
`<model>.<generation>.npy` (the vectors by label, so nominate-all reads them without asking hnswlib one by one).
The sidecar is renamed into place last, so it always names complete files; a cancelled or crashed build leaves
the previous set untouched (or nothing). Reopening is incremental: documents whose content hash is unchanged keep
their vectors, changed and new ones are embedded, tombstoned or deleted ones are marked deleted (their slots
are reused), and capacity grows with `resize_index`. A damaged or mismatched pair is rebuilt with a notice.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...config import load_curation_settings, user_cache_dir
from ..store import Document, Store, queries
from ..store.values import document_value_problem
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work
from .embed import VectorSource, l2_normalise

INDEX_FORMAT = 1
SPACE = "cosine"
M = 16
EF_CONSTRUCTION = 200
QUERY_EF = 64
ADD_BATCH = 256
COMPACT_MIN_STALE = 1024  # rebuild the graph (from stored vectors) once stale labels outnumber live ones


@dataclass(frozen=True)
class IndexUpdate:
    """What opening the index did (shown to the user as a one-line summary)."""

    embedded: int = 0  # documents embedded (new or changed)
    reused: int = 0  # documents whose persisted vector was kept
    removed: int = 0  # documents marked deleted (tombstoned / gone / changed)
    rebuilt: bool = False  # started from nothing (first run, or the persisted files were unusable)
    saved: bool = False
    notices: tuple[str, ...] = ()


def store_key(store_path: str | os.PathLike[str]) -> str:
    return hashlib.sha256(str(Path(store_path).expanduser().absolute()).encode("utf-8")).hexdigest()[:16]


def _slug(model_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model_id).strip("._") or "model"


def index_folder(store_path: str | os.PathLike[str], cache_dir: Path | None = None) -> Path:
    return (cache_dir or user_cache_dir()) / "index" / store_key(store_path)


def sidecar_path(store_path: str | os.PathLike[str], model_id: str, cache_dir: Path | None = None) -> Path:
    return index_folder(store_path, cache_dir) / f"{_slug(model_id)}.json"


def _crc32(path: Path) -> int:
    crc = 0
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            crc = zlib.crc32(chunk, crc)
    return crc


class VectorIndex:
    """An open hnswlib index plus its label ↔ document id ↔ content hash maps (live documents only)."""

    def __init__(self, hnsw: Any, model_id: str, dims: int, sidecar: Path, threads: int):  # an hnswlib.Index
        self._hnsw = hnsw
        self.model_id = model_id
        self.dims = dims
        self.sidecar = sidecar
        self.threads = threads
        self.label_of: dict[str, int] = {}
        self.hash_of: dict[str, str] = {}
        self.doc_of: dict[int, str] = {}
        self.fingerprint_of: dict[str, int] = {}  # cheap change detector: updated_at + title/body lengths
        self.order: list[str] = []  # live document ids in store order (created_at, id) as of the last update
        self.files: dict[str, Any] = {}  # the data files' names, sizes and CRCs, as in the sidecar
        self.next_label = 0
        self._vectors = np.empty((0, dims), dtype=np.float32)  # row = label (rows of deleted labels are stale)
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
        labels = np.fromiter((self.label_of[d] for d in document_ids), dtype=np.int64, count=len(document_ids))
        return self._vectors[labels]

    def _store_vectors(self, labels: list[int], vectors: np.ndarray) -> None:
        top = max(labels) + 1
        if top > len(self._vectors):
            grown = np.empty((max(top, int(len(self._vectors) * 1.5) + 16), self.dims), dtype=np.float32)
            grown[: len(self._vectors)] = self._vectors
            self._vectors = grown
        self._vectors[labels] = vectors

    @property
    def stale_rows(self) -> int:
        """Labels no longer used by a live document (deleted or superseded)."""
        return self.next_label - len(self.label_of)

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


def _new_hnsw(dims: int, capacity: int, threads: int) -> Any:  # an hnswlib.Index (hnswlib ships no types)
    import hnswlib

    hnsw = hnswlib.Index(space=SPACE, dim=dims)
    hnsw.init_index(max_elements=max(16, capacity), ef_construction=EF_CONSTRUCTION, M=M, allow_replace_deleted=True)
    hnsw.set_num_threads(threads)
    return hnsw


def _check_file(folder: Path, meta: dict[str, Any], key: str, *, crc: bool = True) -> Path | str:
    """The data file named by meta[key + '_file'] when its size (and CRC) match, else the reason it is unusable.
    The CRC is skipped when the file still has the size and mtime it had when memgui wrote and summed it."""
    name = str(meta[f"{key}_file"])
    path = folder / name
    if Path(name).name != name or not path.is_file():
        return f"its {key} file is missing"
    st = path.stat()
    if st.st_size != int(meta[f"{key}_size"]):
        return f"its {key} file is damaged"
    untouched = st.st_mtime_ns == meta.get(f"{key}_mtime_ns")
    if crc and not untouched and _crc32(path) != int(meta[f"{key}_crc32"]):
        return f"its {key} file is damaged"
    return path


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
        next_label = int(meta["next_label"])
        if not (len(ids) == len(labels) == len(hashes)) or len(set(labels)) != len(labels):
            return None, "its sidecar is inconsistent"
        if labels and not 0 <= min(labels) <= max(labels) < next_label:
            return None, "its sidecar is inconsistent"
        index_file = _check_file(sidecar.parent, meta, "index")
        if isinstance(index_file, str):
            return None, index_file
        # The graph is CRC-checked (a damaged graph could crash hnswlib); the vectors are plain floats, checked by
        # size and header and mapped copy-on-write, so a reopen does not read 150 MB it may never need.
        vectors_file = _check_file(sidecar.parent, meta, "vectors", crc=False)
        if isinstance(vectors_file, str):
            return None, vectors_file
        vectors = np.load(vectors_file, mmap_mode="c", allow_pickle=False)
        if vectors.dtype != np.float32 or vectors.shape != (next_label, dims):
            return None, "its vectors file does not match its sidecar"
        import hnswlib

        hnsw = hnswlib.Index(space=SPACE, dim=dims)
        hnsw.load_index(str(index_file), max_elements=int(meta["max_elements"]), allow_replace_deleted=True)
        hnsw.set_num_threads(threads)
        if hnsw.element_count < len(labels):
            return None, "its index file does not match its sidecar"
    except (OSError, ValueError, KeyError, TypeError, RuntimeError, UnicodeDecodeError) as exc:
        return None, f"it could not be read ({type(exc).__name__})"
    index = VectorIndex(hnsw, model_id, dims, sidecar, threads)
    index.label_of = dict(zip(ids, labels))
    index.hash_of = dict(zip(ids, hashes))
    index.doc_of = dict(zip(labels, ids))
    fingerprints = meta.get("fingerprints") or [-1] * len(ids)
    index.fingerprint_of = dict(zip(ids, fingerprints))
    index.next_label = next_label
    index._vectors = vectors
    index.files = {k: meta[k] for k in _FILE_KEYS if k in meta}
    return index, None


_FILE_KEYS = (
    "index_file", "index_size", "index_crc32", "index_mtime_ns",
    "vectors_file", "vectors_size", "vectors_crc32", "vectors_mtime_ns",
)


def _write_sidecar(index: VectorIndex, tmp_sidecar: Path) -> None:
    ids = list(index.label_of)
    meta = {
        "format": INDEX_FORMAT, "model_id": index.model_id, "dims": index.dims, "space": SPACE, "M": M,
        "ef_construction": EF_CONSTRUCTION, "max_elements": index.capacity, "next_label": index.next_label,
        **index.files,
        "ids": ids, "labels": [index.label_of[d] for d in ids], "hashes": [index.hash_of[d] for d in ids],
        "fingerprints": [index.fingerprint_of.get(d, -1) for d in ids],
    }
    tmp_sidecar.write_text(json.dumps(meta, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp_sidecar, index.sidecar)


def _save(index: VectorIndex, *, data: bool = True) -> None:
    """Data files first (temp + rename to fresh generation names), then the sidecar naming them (temp + rename);
    older generations are removed last. `data=False` rewrites only the sidecar (fingerprints changed)."""
    folder = index.sidecar.parent
    folder.mkdir(parents=True, exist_ok=True)
    stem = index.sidecar.stem
    generation = uuid.uuid4().hex[:12]  # unique temp names: two memgui processes may save at the same time
    tmp_sidecar = folder / f".{index.sidecar.name}.{generation}.tmp"
    if not data and index.files:
        try:
            _write_sidecar(index, tmp_sidecar)
        except BaseException:
            tmp_sidecar.unlink(missing_ok=True)
            raise
        return
    index_file = folder / f"{stem}.{generation}.hnsw"
    vectors_file = folder / f"{stem}.{generation}.npy"
    temps = [folder / f".{index_file.name}.tmp", folder / f".{vectors_file.name}.tmp", tmp_sidecar]
    tmp_index, tmp_vectors, _ = temps
    try:
        index._hnsw.save_index(str(tmp_index))
        with tmp_vectors.open("wb") as fh:
            np.save(fh, np.ascontiguousarray(index._vectors[: index.next_label]), allow_pickle=False)
        index.files = {
            "index_file": index_file.name, "index_size": tmp_index.stat().st_size, "index_crc32": _crc32(tmp_index),
            "vectors_file": vectors_file.name, "vectors_size": tmp_vectors.stat().st_size,
            "vectors_crc32": _crc32(tmp_vectors),
        }
        os.replace(tmp_index, index_file)
        os.replace(tmp_vectors, vectors_file)
        index.files["index_mtime_ns"] = index_file.stat().st_mtime_ns
        index.files["vectors_mtime_ns"] = vectors_file.stat().st_mtime_ns
        _write_sidecar(index, tmp_sidecar)
    except BaseException:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise
    for old in [*folder.glob(f"{stem}.*.hnsw"), *folder.glob(f"{stem}.*.npy")]:
        if old not in (index_file, vectors_file):
            try:
                old.unlink(missing_ok=True)
            except OSError:  # still mapped by another open index (Windows): removed by a later save
                pass


def _compacted(index: VectorIndex, threads: int) -> VectorIndex:
    """A fresh graph over the live vectors only (labels 0..n-1); no document is embedded again."""
    ids = index.document_ids()
    vectors = index.vectors(ids)
    fresh = VectorIndex(_new_hnsw(index.dims, len(ids), threads), index.model_id, index.dims, index.sidecar, threads)
    if ids:
        labels = list(range(len(ids)))
        fresh._hnsw.add_items(vectors, labels, num_threads=threads)
        fresh._store_vectors(labels, vectors)
    fresh.label_of = {d: i for i, d in enumerate(ids)}
    fresh.doc_of = dict(enumerate(ids))
    fresh.hash_of = {d: index.hash_of[d] for d in ids}
    fresh.fingerprint_of = {d: index.fingerprint_of.get(d, -1) for d in ids}
    fresh.order = index.order
    fresh.next_label = len(ids)
    return fresh


def fingerprint(updated_at: int, title: str, body: str) -> int:
    """A cheap change detector for a document row: Netclaw and memgui bump updated_at (ms) on every write; the
    lengths guard against a hand edit that kept it. A changed fingerprint only triggers a content-hash check.
    (Fits SQLite's 64-bit integers until the year 2248.)"""
    return fingerprint_of_lengths(updated_at, len(title or ""), len(body or ""))


def fingerprint_of_lengths(updated_at: int, title_length: int, body_length: int) -> int:
    return int(updated_at or 0) * 1048576 + (int(title_length or 0) * 31 + int(body_length or 0)) % 1048576


def live_fingerprints(store: Store) -> dict[str, int]:
    """{document id: fingerprint} of the live documents, in the store's document order, in one light query."""
    stamps = queries.live_document_stamps(store)
    for doc_id, updated_at, _title_length, _body_length in stamps:
        problem = document_value_problem("document_id", doc_id) or document_value_problem("updated_at", updated_at)
        if problem is not None:
            raise store.bad_document(doc_id, problem)
    return {doc_id: fingerprint_of_lengths(updated_at, title_length, body_length)
            for doc_id, updated_at, title_length, body_length in stamps}


STALE_TEMP_SECONDS = 3600


def _clean_temp_files(folder: Path) -> None:
    """Remove temp files a crashed save left behind (old ones only: another process may be saving now)."""
    if not folder.is_dir():
        return
    cutoff = time.time() - STALE_TEMP_SECONDS
    for tmp in folder.glob(".*.tmp"):
        try:
            if tmp.stat().st_mtime < cutoff:
                tmp.unlink()
        except OSError:
            pass


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
    yield Progress(Step.INDEXING, 0, None, f"opening the {info.model_id} index")
    if docs is not None:
        by_id: dict[str, Document] | None = {d.document_id: d for d in docs}
        live_fp = {d.document_id: fingerprint(d.updated_at, d.title, d.markdown_body) for d in docs}
    else:
        by_id, live_fp = None, live_fingerprints(store)

    notices: list[str] = []
    index, problem = _load(sidecar, info.model_id, info.dims, threads)
    rebuilt = index is None
    if problem:
        notices.append(f"The saved {info.model_id} vector index was rebuilt: {problem}.")
    if index is None:
        index = VectorIndex(_new_hnsw(info.dims, len(live_fp), threads), info.model_id, info.dims, sidecar, threads)

    to_embed, fingerprints_moved = _changed_documents(store, index, live_fp, by_id)
    embed_ids = {d.document_id for d in to_embed}
    stale = [d for d in index.label_of if d not in live_fp or d in embed_ids]
    removed = sum(1 for d in stale if d not in live_fp)
    _drop(index, stale)
    index.order = list(live_fp)
    reused = len(live_fp) - len(to_embed)
    yield from _embed(index, source, to_embed, live_fp, cancel, threads, batch_size)
    cancel.raise_if_cancelled()
    changed = rebuilt or bool(to_embed) or bool(stale)
    if index.stale_rows > max(COMPACT_MIN_STALE, len(index)):
        index = _compacted(index, threads)
        changed = True
    try:
        if changed:
            _save(index)
        elif fingerprints_moved:
            _save(index, data=False)
    except OSError as exc:  # a full or read-only cache dir: the index still works, it just is not kept
        notices.append(f"The {info.model_id} vector index could not be saved ({exc.strerror or exc}); "
                       "it will be rebuilt next time.")
        changed = False
    index.update = IndexUpdate(
        embedded=len(to_embed), reused=reused, removed=removed, rebuilt=rebuilt, saved=changed, notices=tuple(notices)
    )
    return index


def _changed_documents(store: Store, index: VectorIndex, live_fp: dict[str, int],
                       by_id: dict[str, Document] | None) -> tuple[list[Document], bool]:
    """The documents to embed, and whether a kept vector's fingerprint moved. Documents whose fingerprint
    (updated_at + lengths) is unchanged keep their vector without being read or hashed; the others are read and
    hashed, and embedded only when their content hash changed. `live_fp` is brought up to date (a document gone
    between the two reads is dropped from it)."""
    if index.fingerprint_of == live_fp:  # the common reopen: nothing changed (one C-level comparison)
        suspects: list[str] = []
    else:
        suspects = [d for d, fp in live_fp.items() if index.fingerprint_of.get(d) != fp]
    if suspects and by_id is None:
        fetched = store.documents() if len(suspects) * 2 > len(live_fp) else store.documents_by_ids(suspects)
        by_id = {d.document_id: d for d in fetched}
    to_embed: list[Document] = []
    fingerprints_moved = False
    for doc_id in suspects:
        doc = (by_id or {}).get(doc_id)
        if doc is None or doc.is_tombstoned:  # gone between the two reads
            live_fp.pop(doc_id, None)
            continue
        live_fp[doc_id] = fingerprint(doc.updated_at, doc.title, doc.markdown_body)
        if doc_id in index.label_of and index.hash_of[doc_id] == doc.content_hash:
            index.fingerprint_of[doc_id] = live_fp[doc_id]
            fingerprints_moved = True
        else:
            to_embed.append(doc)
    return to_embed, fingerprints_moved


def _drop(index: VectorIndex, stale: list[str]) -> None:
    """Forgets the documents' vectors (their hnswlib slots are marked deleted, to be reused)."""
    for doc_id in stale:
        label = index.label_of.pop(doc_id)
        index.hash_of.pop(doc_id)
        index.fingerprint_of.pop(doc_id, None)
        index.doc_of.pop(label, None)
        index._hnsw.mark_deleted(label)


def _embed(index: VectorIndex, source: VectorSource, to_embed: list[Document], live_fp: dict[str, int],
           cancel: CancelToken, threads: int, batch_size: int) -> Work[None]:
    """Embeds the documents in batches and adds their vectors, yielding Progress; cancelling raises `Cancelled`."""
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
            yield Progress(Step.INDEXING, done + (inner.done if inner.total else 0), len(to_embed), inner.message)
        cancel.raise_if_cancelled()
        labels = list(range(index.next_label, index.next_label + len(batch)))
        index.next_label += len(batch)
        vectors = l2_normalise(vectors)
        index._hnsw.add_items(vectors, labels, num_threads=threads, replace_deleted=True)
        index._store_vectors(labels, vectors)
        for doc, label in zip(batch, labels):
            index.label_of[doc.document_id] = label
            index.hash_of[doc.document_id] = doc.content_hash
            index.fingerprint_of[doc.document_id] = live_fp[doc.document_id]
            index.doc_of[label] = doc.document_id
        done += len(batch)
        yield Progress(Step.INDEXING, done, len(to_embed))
