"""Embedders and vector sources. One index never mixes vector spaces, so every vector here carries the id of the
model that made it.

- `LlamaEmbedder`: memgui's offline default (all-MiniLM-L6-v2 GGUF run by llama-cpp-python, MEAN pooling).
- `StoredVectors`: the daemon's own `memory_embeddings` rows of the store's model, used only where their
  content_hash equals the document's current hash. memgui reads them, never writes them.
- `OnnxEmbedder`: Netclaw's own ONNX model from `$NETCLAW_HOME/models/<model_id>/` (CLS pooling, netclaw-compat §11.1),
  only when the optional `onnxruntime` + `tokenizers` extra is installed; it fills the gaps of the stored vectors.

The text embedded for a document or a proposal is exactly `embedding_text(title, body)` = "{title}\\n{body}".
Every vector leaving this module is L2-normalised float32.
"""
from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from ...config import load_curation_settings, netclaw_home
from ..store import Document, Store
from ..store.values import embedding_text
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work
from .embedder_choice import EmbedderChoice
from .llama_streams import keep_output_streams

# Netclaw's allowlisted models and their dims (netclaw-compat §11.1); used to refuse rows of the wrong size.
NETCLAW_MODEL_DIMS = {
    "snowflake-arctic-embed-m-int8": 768,
    "snowflake-arctic-embed-m": 768,
    "mxbai-embed-large-v1": 1024,
}
ONNX_MAX_TOKENS = 512


class EmbedderUnavailable(Exception):
    """An embedder cannot run here (model missing, runtime missing, load failed). `reason` is one line."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class StoredVectorsError(EmbedderUnavailable):
    """The store's vectors cannot be used as they are (e.g. rows of the wrong dimension)."""


@dataclass(frozen=True)
class EmbedderInfo:
    model_id: str
    dims: int
    source: EmbedderChoice


class Embedder(Protocol):
    """Embeds texts as a generator: yields Progress per batch, returns an (n, dims) L2-normalised float32 array."""

    model_id: str
    dims: int
    source: EmbedderChoice

    def embed(self, texts: Sequence[str], cancel: CancelToken | None = None) -> Work[np.ndarray]: ...


def close_embedder(embedder: object) -> None:
    """Release the model an embedder holds (llama.cpp context, ONNX session), if it holds one. Safe to repeat;
    embedders without a `close` (the fakes, the stored rows) are left as they are."""
    close = getattr(embedder, "close", None)
    if callable(close):
        close()


def close_source(source: object) -> None:
    """Release every model a vector source holds: its embedder, or the embedder that fills stored rows' gaps."""
    for embedder in (getattr(source, "embedder", None), getattr(source, "fill", None)):
        if embedder is not None:
            close_embedder(embedder)


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = (vectors / norms).astype(np.float32, copy=False)
    return normalised


def embed_all(embedder: Embedder, texts: Sequence[str], cancel: CancelToken | None = None) -> np.ndarray:
    """Run an embedder to the end (no progress), for short inputs such as one proposal."""
    from ..tasks import run_to_end

    return run_to_end(embedder.embed(texts, cancel))


# ---- memgui's default: MiniLM GGUF in llama.cpp ------------------------------------------------------------


class LlamaEmbedder:
    """all-MiniLM-L6-v2 (or any BERT-like embedding GGUF) run by llama-cpp-python with `embedding=True`.

    n_ctx = n_batch = n_ubatch = `context` tokens (256 = sentence-transformers' max_seq_length for MiniLM);
    longer texts are truncated. One text per decode; Progress every `batch` texts (the cancel granularity).
    Calls are serialised by a lock (one llama context is not thread-safe).
    """

    source = EmbedderChoice.DEFAULT

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model_id: str | None = None,
        threads: int | None = None,
        context: int = 256,
        batch: int = 16,
    ):
        from . import embedder_model

        if model_path is None:
            try:
                model_path = embedder_model.default_model_path() or embedder_model.ensure_default_model()
            except Exception as exc:  # package missing, conversion failed
                raise EmbedderUnavailable(f"default embedder model unavailable: {exc}") from None
            model_id = model_id or embedder_model.MODEL_ID
        path = Path(model_path)
        if not path.is_file():
            raise EmbedderUnavailable(f"embedder model not found: {path}")
        # Idle OpenMP workers must sleep, not spin: with spinning workers a 2-thread llama.cpp on a busy
        # 2-core machine embedded ~3 texts/s instead of ~32 (measured; docs/benchmarks.md). libgomp reads this
        # when it is first loaded, i.e. at the first `import llama_cpp` of the process.
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        try:
            from llama_cpp import Llama
        except ImportError:
            raise EmbedderUnavailable("llama-cpp-python is not installed") from None
        if threads is None:
            threads = load_curation_settings().llm_threads
        keep_output_streams()
        try:
            llm = Llama(
                model_path=str(path), embedding=True, n_ctx=context, n_batch=context, n_ubatch=context,
                n_threads=threads, n_threads_batch=threads, verbose=False,
            )
        except Exception as exc:  # llama.cpp raises ValueError/RuntimeError on a bad file
            raise EmbedderUnavailable(f"embedder model could not be loaded from {path}: {exc}") from None
        self.model_path = path
        self.model_id = model_id or path.stem
        self._llm: Llama | None = llm
        self.dims = int(llm.n_embd())
        self.batch = max(1, batch)
        self._lock = threading.Lock()

    @property
    def info(self) -> EmbedderInfo:
        return EmbedderInfo(self.model_id, self.dims, self.source)

    def embed(self, texts: Sequence[str], cancel: CancelToken | None = None) -> Work[np.ndarray]:
        cancel = cancel or NEVER_CANCELLED
        texts = list(texts)
        out = np.empty((len(texts), self.dims), dtype=np.float32)
        for start in range(0, len(texts), self.batch):
            cancel.raise_if_cancelled()
            chunk = texts[start : start + self.batch]
            with self._lock:
                if self._llm is None:
                    raise EmbedderUnavailable("the embedder was closed")
                # One text per decode: packing several texts into one non-causal batch costs attention over
                # the whole batch and was slower here at every n_batch (docs/benchmarks.md, P6).
                vectors = [self._llm.embed(t if t.strip() else " ", normalize=False, truncate=True) for t in chunk]
            out[start : start + len(chunk)] = l2_normalise(np.asarray(vectors, dtype=np.float32))
            yield Progress(Step.EMBEDDING, start + len(chunk), len(texts))
        return out

    def close(self) -> None:
        """Free the llama.cpp context (hundreds of MB); a later `embed` raises EmbedderUnavailable."""
        with self._lock:
            llm = getattr(self, "_llm", None)
            if llm is not None:
                llm.close()
                self._llm = None


# ---- the daemon's model run here (optional extra) ----------------------------------------------------------


def onnx_model_dir(model_id: str, home: Path | None = None) -> Path:
    return (home or netclaw_home()) / "models" / model_id


class OnnxEmbedder:
    """Netclaw's ONNX embedder reproduced (netclaw-compat §11.1): WordPiece (lower-casing vocab.txt), max 512 tokens,
    only the inputs the graph declares, CLS pooling, L2 norm. Needs `pip install memgui[onnx]`."""

    source = EmbedderChoice.ONNX

    def __init__(self, model_id: str, *, home: Path | None = None, threads: int | None = None):
        folder = onnx_model_dir(model_id, home)
        model, vocab = folder / "model.onnx", folder / "vocab.txt"
        if not model.is_file() or not vocab.is_file():
            raise EmbedderUnavailable(f"Netclaw's ONNX model for {model_id} is not in {folder}")
        try:
            import onnxruntime
            from tokenizers import BertWordPieceTokenizer
        except ImportError:
            raise EmbedderUnavailable("the ONNX runtime is not installed (pip install 'memgui[onnx]')") from None
        try:
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = threads or load_curation_settings().llm_threads
            self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
            self._tokenizer = BertWordPieceTokenizer(str(vocab), lowercase=True)
        except Exception as exc:
            raise EmbedderUnavailable(f"Netclaw's ONNX model could not be loaded from {model}: {exc}") from None
        self._tokenizer.enable_truncation(ONNX_MAX_TOKENS)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self.model_id = model_id
        out_shape = self._session.get_outputs()[0].shape
        self.dims = int(out_shape[-1]) if isinstance(out_shape[-1], int) else NETCLAW_MODEL_DIMS.get(model_id, 0)
        self._lock = threading.Lock()

    @property
    def info(self) -> EmbedderInfo:
        return EmbedderInfo(self.model_id, self.dims, self.source)

    def embed(self, texts: Sequence[str], cancel: CancelToken | None = None) -> Work[np.ndarray]:
        cancel = cancel or NEVER_CANCELLED
        rows = []
        for i, text in enumerate(texts):
            cancel.raise_if_cancelled()
            ids = self._tokenizer.encode(text).ids
            length = -(-len(ids) // 8) * 8  # padded to a multiple of 8, as Netclaw does
            feed = {
                "input_ids": np.zeros((1, length), dtype=np.int64),
                "attention_mask": np.zeros((1, length), dtype=np.int64),
                "token_type_ids": np.zeros((1, length), dtype=np.int64),
            }
            feed["input_ids"][0, : len(ids)] = ids
            feed["attention_mask"][0, : len(ids)] = 1
            with self._lock:
                if self._session is None:
                    raise EmbedderUnavailable("the embedder was closed")
                hidden = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
            rows.append(hidden[0, 0] if hidden.ndim == 3 else hidden[0])
            if (i + 1) % 16 == 0 or i + 1 == len(texts):
                yield Progress(Step.EMBEDDING, i + 1, len(texts))
        if not rows:
            return np.empty((0, self.dims), dtype=np.float32)
        return l2_normalise(np.stack(rows))

    def close(self) -> None:
        """Drop the ONNX session (its memory goes with it); a later `embed` raises EmbedderUnavailable."""
        with self._lock:
            self._session = None


# ---- vector sources: what an index is built from -------------------------------------------------------


class VectorSource(Protocol):
    """Vectors for documents, all in one model's space."""

    info: EmbedderInfo

    def vectors_for(self, docs: Sequence[Document], cancel: CancelToken | None = None) -> Work[np.ndarray]: ...


class EmbedderSource:
    """Documents embedded by an Embedder from "{title}\\n{body}"."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self.info = EmbedderInfo(embedder.model_id, embedder.dims, embedder.source)

    def vectors_for(self, docs: Sequence[Document], cancel: CancelToken | None = None) -> Work[np.ndarray]:
        texts = [embedding_text(d.title, d.markdown_body) for d in docs]
        return (yield from self.embedder.embed(texts, cancel))

    def close(self) -> None:
        """Free the embedder's model (the source is done: a scan or a calibration ended)."""
        close_embedder(self.embedder)


def stored_model_id(store: Store, configured: str | None = None) -> str | None:
    """The store's vector model: Netclaw's configured Memory.Embeddings.ModelId, else the most common model_id."""
    if configured is None:
        configured = load_curation_settings().embedding_model_id
    if configured:
        return configured
    counts = store.embedding_model_counts()
    if not counts:
        return None
    return Counter(counts).most_common(1)[0][0]


class StoredVectors:
    """The daemon's `memory_embeddings` rows of one model, keyed by document id, used only where the row's
    content_hash equals the document's current content_hash. Documents without a current row are embedded by
    `fill` (Netclaw's ONNX model, same space) or refused.

    Raises StoredVectorsError when the rows cannot form one vector space (mixed or wrong dimensions)."""

    def __init__(self, store: Store, model_id: str | None = None, *, fill: Embedder | None = None):
        model_id = model_id or stored_model_id(store)
        if not model_id:
            raise EmbedderUnavailable("the store has no daemon vectors (memory_embeddings is empty)")
        rows = store.embedding_rows(model_id)
        if not rows:
            raise EmbedderUnavailable(f"the store has no daemon vectors of model {model_id}")
        expected = NETCLAW_MODEL_DIMS.get(model_id)
        dims_seen = Counter(len(r.vector) // 4 for r in rows)
        declared_bad = [r.item_id for r in rows if r.dims * 4 != len(r.vector)]
        if declared_bad:
            raise StoredVectorsError(
                f"memory_embeddings rows of model {model_id} are damaged: {len(declared_bad)} vector(s) do not hold "
                f"their declared dims (e.g. {declared_bad[0]}); refusing the stored vectors"
            )
        if expected is None:
            expected = dims_seen.most_common(1)[0][0]
        wrong = {d: n for d, n in dims_seen.items() if d != expected}
        if wrong:
            found = ", ".join(f"{n} row(s) of {d} dims" for d, n in sorted(wrong.items()))
            raise StoredVectorsError(
                f"memory_embeddings rows of model {model_id} have the wrong dimension ({found}; expected {expected}); "
                "refusing to mix vector spaces"
            )
        if fill is not None and (fill.model_id != model_id or fill.dims != expected):
            raise StoredVectorsError(f"cannot fill gaps of {model_id} vectors with {fill.model_id} ({fill.dims} dims)")
        self.model_id = model_id
        self.dims = expected
        self.fill = fill
        self._rows = {r.item_id: (r.content_hash, r.vector) for r in rows}
        self.info = EmbedderInfo(model_id, expected, EmbedderChoice.STORED)

    def current_vector(self, doc: Document) -> np.ndarray | None:
        row = self._rows.get(doc.document_id)
        if row is None or row[0] != doc.content_hash:
            return None
        return np.frombuffer(row[1], dtype="<f4").astype(np.float32)

    def missing(self, docs: Sequence[Document]) -> list[Document]:
        """Documents with no row of this model for their current content."""
        return [d for d in docs if self.current_vector(d) is None]

    def close(self) -> None:
        """Free the model that fills the gaps, if one was loaded (the stored rows need none)."""
        if self.fill is not None:
            close_embedder(self.fill)

    def vectors_for(self, docs: Sequence[Document], cancel: CancelToken | None = None) -> Work[np.ndarray]:
        cancel = cancel or NEVER_CANCELLED
        out = np.empty((len(docs), self.dims), dtype=np.float32)
        gaps: list[int] = []
        for i, doc in enumerate(docs):
            vector = self.current_vector(doc)
            if vector is None:
                gaps.append(i)
            else:
                out[i] = vector
        if gaps:
            if self.fill is None:
                raise EmbedderUnavailable(
                    f"{len(gaps)} document(s) have no current {self.model_id} vector and no embedder of that model is available"
                )
            texts = [embedding_text(docs[i].title, docs[i].markdown_body) for i in gaps]
            filled = yield from self.fill.embed(texts, cancel)
            out[gaps] = filled
        cancel.raise_if_cancelled()
        yield Progress(Step.EMBEDDING, len(docs), len(docs), f"{len(docs) - len(gaps)} stored vector(s) reused")
        return l2_normalise(out) if len(docs) else out
