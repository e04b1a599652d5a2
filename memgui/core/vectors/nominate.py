"""Nominee clusters: TopK(K, threshold) per document over the vector index, joined into clusters.

The nominee graph has an edge a–b when b is among a's K nearest other documents with cosine ≥ threshold (or
the reverse). Its connected components chain: a–b and b–c put a and c together however far apart they are (the
demo store had a 25-document component of different notes). So each component is split by average linkage:
two groups join only while the mean cosine between their members stays ≥ the threshold (the same floor, not a
tuned one), and never beyond MAX_CLUSTER_SIZE members; what does not fit is re-queued as clusters of its own.
Each cluster carries every pairwise cosine among its members (`Pair.nominee` marks the TopK edges). Pairs a
person marked "not duplicates" are removed before the components are formed. Notes of one active anchor are
nominated together too, whatever their cosine, where the cosine is blind: its clusters form first and the anchor
fills in the notes it left alone (anchored.py says how, and why it never pulls a duplicate out).
When no embedder works, the degraded lexical path of netclaw-compat §5 step 3b is used and the result is
flagged. The clustering itself (`build_clusters`) is pure.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...config import CurationSettings, load_curation_settings
from ..curation.anchors import content_overlap  # Netclaw-exact (.NET separators), shared with the rules tier
from ..curation.evaluator import lexical_terms  # the evaluator's degraded-path terms, so both paths search alike
from ..curation.types import Nomination, NominatorUnavailable
from ..store import Document, Store
from ..store.values import embedding_text
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work, run_to_end
from .anchored import fill_by_anchor
from .embed import (
    Embedder,
    EmbedderInfo,
    EmbedderSource,
    EmbedderUnavailable,
    LlamaEmbedder,
    OnnxEmbedder,
    StoredVectors,
    StoredVectorsError,
    VectorSource,
    close_embedder,
    close_source,
    embed_all,
    stored_model_id,
)
from .embedder_choice import EmbedderChoice
from .embedder_model import MODEL_ID as DEFAULT_MODEL_ID
from .index import IndexUpdate, VectorIndex, open_index

# Default cosine floors per embedding model. Netclaw's own (snowflake) threshold comes from its settings
# (Memory.Curation.NominatorSimilarityThreshold, default 0.86). memgui's MiniLM default was chosen on the demo
# store's labelled pairs (docs/benchmarks.md, "Choosing the MiniLM threshold").
MODEL_THRESHOLDS = {DEFAULT_MODEL_ID: 0.68}
ALL_PAIRS_LIMIT = 60  # components larger than this are not split by linkage (pairs grow quadratically)
MAX_CLUSTER_SIZE = 8  # a reviewer (and the pairwise decider: ≤ 28 pairs) takes at most this many at once
LEXICAL_MIN_OVERLAP = 0.40  # degraded path: Netclaw's AmbiguousLowerThreshold for content overlap
LEXICAL_LIMIT = 5
LEXICAL_OVERFETCH = 25


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    cosine: float | None  # None on the degraded lexical path
    nominee: bool = True  # a TopK edge (False: listed only because both are in the same cluster)
    lexical_overlap: float | None = None  # content Jaccard, set on the degraded path
    same_anchor: bool = False  # both under one active anchor: nominated together whatever their cosine (anchored.py)


@dataclass(frozen=True)
class Cluster:
    id: str
    member_ids: tuple[str, ...]
    pairs: tuple[Pair, ...]
    top_cosine: float | None  # None on the degraded lexical path


@dataclass(frozen=True)
class ScanResult:
    embedder: EmbedderInfo | None  # None on the degraded path
    k: int
    threshold: float
    degraded: bool
    degraded_reason: str | None
    clusters: tuple[Cluster, ...]
    notices: tuple[str, ...] = ()
    documents: int = 0
    index_update: IndexUpdate | None = None


# ---- thresholds and sources -------------------------------------------------------------------------------


def default_threshold(model_id: str | None, settings: CurationSettings | None = None) -> float:
    """memgui's floor for its own models; Netclaw's configured floor for the daemon's models."""
    if model_id in MODEL_THRESHOLDS:
        return MODEL_THRESHOLDS[model_id]
    return (settings or load_curation_settings()).nominator_similarity_threshold


def resolve_source(
    store: Store,
    choice: EmbedderChoice | str = EmbedderChoice.AUTO,
    *,
    docs: Sequence[Document] | None = None,
    model_path: str | Path | None = None,
) -> tuple[VectorSource, list[str]]:
    """The vector source for a scan, plus notices. Raises EmbedderUnavailable when the choice cannot run.

    auto: the daemon's vectors when every live document has a current one (or Netclaw's ONNX model fills the
    gaps), else memgui's default embedder for the whole store. default: memgui's MiniLM. stored: like auto,
    but refuses unusable rows (e.g. wrong dimension) instead of falling back. onnx: Netclaw's model run here."""
    if choice not in set(EmbedderChoice):
        raise ValueError(f"unknown embedder {choice!r}; choose one of {', '.join(EmbedderChoice)}")
    choice = EmbedderChoice(choice)
    notices: list[str] = []
    if choice is not EmbedderChoice.DEFAULT:
        model_id = stored_model_id(store)
        if choice is EmbedderChoice.ONNX:
            return _onnx_source(store, model_id), notices
        stored = _stored_source(store, model_id, choice, docs, notices)
        if stored is not None:
            return stored, notices
    embedder = LlamaEmbedder(model_path) if model_path is not None else LlamaEmbedder()
    return EmbedderSource(embedder), notices


def _onnx_source(store: Store, model_id: str | None) -> VectorSource:
    """Netclaw's ONNX model run here, over the daemon's vectors where they are current."""
    if not model_id:
        raise EmbedderUnavailable("no Netclaw embedding model is configured or stored in this store")
    onnx = OnnxEmbedder(model_id)
    try:
        return StoredVectors(store, model_id, fill=onnx)
    except StoredVectorsError:
        onnx.close()
        raise
    except EmbedderUnavailable:
        return EmbedderSource(onnx)


def _stored_source(store: Store, model_id: str | None, choice: EmbedderChoice, docs: Sequence[Document] | None,
                   notices: list[str]) -> StoredVectors | None:
    """The daemon's vectors when every live document has a current one (or Netclaw's ONNX model fills the gaps);
    None (with a notice when it says why) to fall back to memgui's default embedder. `stored` refuses instead."""
    stored = None
    if model_id:
        try:
            stored = StoredVectors(store, model_id)
        except StoredVectorsError as exc:
            if choice is EmbedderChoice.STORED:
                raise
            notices.append(f"{exc.reason}; using memgui's default embedder.")
        except EmbedderUnavailable:
            if choice is EmbedderChoice.STORED:
                raise
    elif choice is EmbedderChoice.STORED:
        raise EmbedderUnavailable("the store has no daemon vectors (memory_embeddings is empty)")
    if stored is None:
        return None
    live = list(docs) if docs is not None else store.documents()
    missing = stored.missing(live)
    if missing:
        try:
            stored.fill = OnnxEmbedder(stored.model_id)
        except EmbedderUnavailable as exc:
            notices.append(
                f"{len(missing)} of {len(live)} documents have no current {stored.model_id} vector and "
                f"{exc.reason[0].lower() + exc.reason[1:]}; the whole store uses memgui's default embedder."
            )
            return None
    return stored


# ---- nominee graph and clusters ----------------------------------------------------------------------------


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def nominee_edges(
    index: VectorIndex,
    doc_ids: Sequence[str],
    *,
    k: int,
    threshold: float,
    cancel: CancelToken | None = None,
    batch: int = 1024,
) -> Work[dict[tuple[str, str], float]]:
    """TopK(k, threshold) of every document against the others: undirected edges with their cosine."""
    cancel = cancel or NEVER_CANCELLED
    edges: dict[tuple[str, str], float] = {}
    for start in range(0, len(doc_ids), batch):
        cancel.raise_if_cancelled()
        chunk = list(doc_ids[start : start + batch])
        hits_per_doc = index.query(index.vectors(chunk), k + 1)
        for doc, hits in zip(chunk, hits_per_doc):
            kept = 0
            for other, cosine in hits:
                if other == doc:
                    continue
                if kept >= k or cosine < threshold:
                    break
                kept += 1
                key = _key(doc, other)
                edges[key] = max(edges.get(key, -1.0), min(1.0, cosine))
        yield Progress(Step.NOMINATING, min(start + batch, len(doc_ids)), len(doc_ids))
    return edges


def _components(nodes_order: Sequence[str], edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[str, list[str]] = {}
    rank = {d: i for i, d in enumerate(nodes_order)}
    for node in sorted(parent, key=lambda d: (rank.get(d, len(rank)), d)):
        groups.setdefault(find(node), []).append(node)
    return [g for g in groups.values() if len(g) > 1]


def coherent_groups(members: Sequence[str], matrix: np.ndarray, *, floor: float,
                    cap: int = MAX_CLUSTER_SIZE) -> list[list[str]]:
    """Pure: split one component (its cosine matrix) into groups of two or more. Average linkage: the two
    groups with the highest mean cosine between their members join while that mean is ≥ `floor` and the
    joined group fits `cap`. What does not fit a full group stays in groups of its own (re-queued as separate
    clusters). Members keep `members` order; singletons are dropped."""
    groups: list[list[int]] = [[i] for i in range(len(members))]
    while len(groups) > 1:
        best, pair = floor, None
        for gi in range(len(groups)):
            for gj in range(gi + 1, len(groups)):
                a, b = groups[gi], groups[gj]
                if len(a) + len(b) > cap:
                    continue
                mean = float(matrix[np.ix_(a, b)].mean())
                if mean >= best:
                    best, pair = mean, (gi, gj)
        if pair is None:
            break
        gi, gj = pair
        groups[gi] = sorted(groups[gi] + groups[gj])
        del groups[gj]
    return [[members[i] for i in g] for g in sorted(groups, key=lambda g: g[0]) if len(g) > 1]


def cluster_id(member_ids: Iterable[str]) -> str:
    return "c-" + hashlib.sha1("\n".join(sorted(member_ids)).encode("utf-8")).hexdigest()[:12]


def sub_cluster(cluster: Cluster, member_ids: Iterable[str]) -> Cluster:
    """The part of `cluster` on `member_ids` (kept in the cluster's order): the pairs among them, their top
    cosine and the id a scan gives those members."""
    wanted = set(member_ids)
    members = tuple(m for m in cluster.member_ids if m in wanted)
    pairs = tuple(p for p in cluster.pairs if p.a in wanted and p.b in wanted)
    cosines = [p.cosine for p in pairs if p.cosine is not None]
    return Cluster(cluster_id(members), members, pairs, max(cosines) if cosines else None)


def build_clusters(
    edges: Mapping[tuple[str, str], float | None],
    *,
    order: Sequence[str] = (),
    exempt: Set[frozenset[str]] = frozenset(),
    pair_cosine: Callable[[Sequence[str]], np.ndarray] | None = None,
    lexical: Mapping[tuple[str, str], float] | None = None,
    threshold: float | None = None,
    anchors: Mapping[str, str] | None = None,
    anchor_k: int = 5,
) -> tuple[tuple[Cluster, ...], list[str]]:
    """Pure: clusters from nominee edges, minus exempt pairs. `pair_cosine(members)` returns the members'
    cosine matrix (so every pair gets its cosine, and components are split into coherent groups of at most
    MAX_CLUSTER_SIZE with `threshold` — default: the lowest edge cosine — as the linkage floor); without it
    the components are kept and only the edges listed. `anchors` maps live documents to their active anchor:
    with `pair_cosine`, the cosine's clusters are then filled with the anchor's notes the cosine left alone
    (`anchored.fill_by_anchor`, each note's `anchor_k` nearest free mates as edges), and pairs under one anchor
    are marked. Returns the clusters (best first) and notices."""
    notices: list[str] = []
    kept = {key: cos for key, cos in edges.items() if frozenset(key) not in exempt}
    anchors = anchors or {}
    members_list = []
    floor = -1.0 if threshold is None else threshold
    for component in _components(order, kept):
        if pair_cosine is None or len(component) > ALL_PAIRS_LIMIT:
            members_list.append(component)
            continue
        members_list += coherent_groups(component, np.asarray(pair_cosine(component), dtype=np.float64), floor=floor)
    if anchors and pair_cosine is not None:  # the cosine's clusters first, unchanged; the anchor fills its blind spots
        members_list, more = fill_by_anchor(
            members_list, anchors, pair_cosine, floor=floor, cap=MAX_CLUSTER_SIZE, k=anchor_k, exempt=exempt,
            split=lambda ids, scores: coherent_groups(ids, scores, floor=floor), limit=ALL_PAIRS_LIMIT)
        notices += more
        rank = {d: i for i, d in enumerate(order)}
        members_list = [sorted(g, key=lambda d: (rank.get(d, len(rank)), d)) for g in members_list]
    clusters = []
    for members in members_list:
        pairs: list[Pair] = []
        if pair_cosine is not None and len(members) <= ALL_PAIRS_LIMIT:
            matrix = pair_cosine(members)
            for i in range(len(members)):
                for j in range(i + 1, len(members)):
                    a, b = _key(members[i], members[j])
                    if frozenset((a, b)) in exempt:
                        continue
                    cos = float(min(1.0, matrix[i, j]))
                    same = anchors.get(a) is not None and anchors.get(a) == anchors.get(b)
                    pairs.append(Pair(a, b, cos, nominee=(a, b) in kept, same_anchor=same))
        else:
            if pair_cosine is not None:
                listed = sum(1 for k in kept if k[0] in members)
                notices.append(f"a cluster of {len(members)} documents lists only its {listed} nominee pairs")
            member_set = set(members)
            for (a, b), kept_cosine in kept.items():
                if a in member_set:
                    overlap = lexical.get((a, b)) if lexical else None
                    pairs.append(Pair(a, b, None if kept_cosine is None else float(kept_cosine), True, overlap))
        pairs.sort(key=lambda p: (-(p.cosine if p.cosine is not None else (p.lexical_overlap or 0.0)), p.a, p.b))
        cosines = [p.cosine for p in pairs if p.cosine is not None]
        clusters.append(Cluster(cluster_id(members), tuple(members), tuple(pairs), max(cosines) if cosines else None))

    def score(c: Cluster) -> float:
        if c.top_cosine is not None:
            return c.top_cosine
        return max((p.lexical_overlap or 0.0 for p in c.pairs), default=0.0)

    clusters.sort(key=lambda c: (-score(c), c.id))
    return tuple(clusters), notices


def live_anchors(store: Store, doc_ids: Iterable[str]) -> dict[str, str]:
    """Each of `doc_ids` that is a live document under an active anchor, to that anchor (tombstoned documents and
    inactive anchors are never nominated by their anchor)."""
    active = {a.anchor_id for a in store.anchors(active_only=True)}
    live = {d.document_id: d.anchor_id for d in store.documents() if d.anchor_id in active}
    return {d: live[d] for d in doc_ids if d in live}


def _exempt_pairs(store: Store) -> set[frozenset[str]]:
    try:
        from ..store.exemptions import exempt_pairs
    except ImportError:  # the exemptions module not present in this build
        return set()
    return set(exempt_pairs(store))


# ---- the degraded lexical path (netclaw-compat §5 step 3b) -----------------------------------------------------------

def lexical_candidates(store: Store, content: str, *, exclude: str | None = None, active: set[str] | None = None) -> list[Document]:
    """FindCandidatesByContent: FTS over the first 8 terms, overfetch 25, durable_fact, active anchor, live; 5."""
    terms = lexical_terms(content)
    if not terms:
        return []
    if active is None:
        active = {a.anchor_id for a in store.anchors(active_only=True)}
    out = []
    for doc in store.search(" ".join(terms), limit=LEXICAL_OVERFETCH):
        if doc.document_id == exclude or doc.memory_class != "durable_fact" or doc.anchor_id not in active:
            continue
        out.append(doc)
        if len(out) == LEXICAL_LIMIT:
            break
    return out


def lexical_edges(store: Store, docs: Sequence[Document], cancel: CancelToken | None = None) -> Work[dict[tuple[str, str], float]]:
    """Degraded nominee edges: each document's lexical candidates whose content overlap ≥ 0.40."""
    cancel = cancel or NEVER_CANCELLED
    active = {a.anchor_id for a in store.anchors(active_only=True)}
    body = {d.document_id: d.markdown_body for d in docs}
    edges: dict[tuple[str, str], float] = {}
    for i, doc in enumerate(docs):
        if i % 64 == 0:
            cancel.raise_if_cancelled()
            yield Progress(Step.LEXICAL_SEARCH, i, len(docs))
        for cand in lexical_candidates(store, doc.markdown_body, exclude=doc.document_id, active=active):
            if cand.document_id not in body:
                continue
            overlap = content_overlap(doc.markdown_body, cand.markdown_body)
            if overlap >= LEXICAL_MIN_OVERLAP:
                edges[_key(doc.document_id, cand.document_id)] = overlap
    yield Progress(Step.LEXICAL_SEARCH, len(docs), len(docs))
    return edges


# ---- the scan ----------------------------------------------------------------------------------------------


def scan_store(
    store: Store,
    *,
    embedder_choice: EmbedderChoice = EmbedderChoice.AUTO,
    k: int | None = None,
    threshold: float | None = None,
    cancel: CancelToken | None = None,
    model_path: str | Path | None = None,
    source: VectorSource | None = None,
    settings: CurationSettings | None = None,
    by_anchor: bool = True,
) -> Work[ScanResult]:
    """Nominee clusters of the store's live documents. Falls back to the flagged lexical path when no embedder
    can run. Raises EmbedderUnavailable only when an explicit choice (stored/onnx) is refused. `by_anchor`: notes
    of one active anchor are nominated together (anchored.py); off, the cosine alone."""
    cancel = cancel or NEVER_CANCELLED
    settings = settings or load_curation_settings()
    k = settings.nominator_k if k is None else k
    if k < 1:
        raise ValueError("k must be at least 1")
    if threshold is not None and not -1.0 <= threshold <= 1.0:
        raise ValueError("threshold must be a cosine between -1 and 1")
    exempt = _exempt_pairs(store)
    if source is not None:  # the caller's source: the caller closes it
        return (yield from _scan(store, source, [], k, threshold, settings, cancel, exempt, by_anchor))
    yield Progress(Step.LOADING_EMBEDDER, 0, None, "loading the embedder")
    notices: list[str] = []
    try:
        source, notices = resolve_source(store, embedder_choice, model_path=model_path)
    except StoredVectorsError:
        raise
    except EmbedderUnavailable as exc:
        if embedder_choice in (EmbedderChoice.STORED, EmbedderChoice.ONNX):
            raise
        docs = store.documents()
        edges = yield from lexical_edges(store, docs, cancel)
        clusters, more = build_clusters(
            {key: None for key in edges}, order=[d.document_id for d in docs], exempt=exempt, lexical=edges
        )
        reason = "embedder_unavailable: " + exc.reason
        return ScanResult(
            None, k, threshold if threshold is not None else LEXICAL_MIN_OVERLAP, True, reason, clusters,
            tuple(notices + [f"No embedder could run ({exc.reason}); clusters come from lexical search."] + more),
            len(docs),
        )
    try:
        return (yield from _scan(store, source, notices, k, threshold, settings, cancel, exempt, by_anchor))
    finally:
        close_source(source)  # the model this scan loaded is freed when it ends (done, cancelled or failed)


def _scan(store: Store, source: VectorSource, notices: list[str], k: int, threshold: float | None,
          settings: CurationSettings, cancel: CancelToken, exempt: set[frozenset[str]],
          by_anchor: bool = True) -> Work[ScanResult]:
    """The index and clusters of one scan, from a source that is ready."""
    info = source.info
    if threshold is None:
        threshold = default_threshold(info.model_id, settings)
    index = yield from open_index(store, source, cancel=cancel)
    notices.extend(index.update.notices)
    order = index.order
    edges = yield from nominee_edges(index, order, k=k, threshold=threshold, cancel=cancel)
    cancel.raise_if_cancelled()

    def pair_cosine(members: Sequence[str]) -> np.ndarray:
        vectors = index.vectors(members)
        product: np.ndarray = vectors @ vectors.T
        return product

    clusters, more = build_clusters(edges, order=order, exempt=exempt, pair_cosine=pair_cosine, threshold=threshold,
                                    anchors=live_anchors(store, order) if by_anchor else None, anchor_k=k)
    return ScanResult(info, k, threshold, False, None, clusters, tuple(notices + more), len(order), index.update)


# ---- a Nominator for the evaluator (curation.Nominator protocol) ---------------------------------------------


class IndexNominator:
    """TopK over the store's persisted index for a proposal's "{title}\\n{content}" (netclaw-compat §5 step 3a): the
    proposal is embedded as a passage by the index's own embedder, hits with cosine ≥ threshold are kept and
    hydrated to live documents under active anchors (so fewer than k may come back)."""

    def __init__(self, store: Store, index: VectorIndex, embedder: Embedder):
        if embedder.model_id != index.model_id or embedder.dims != index.dims:
            raise NominatorUnavailable("vector_index_unavailable")
        self.store = store
        self.index = index
        self.embedder = embedder
        self.info = EmbedderInfo(embedder.model_id, embedder.dims, embedder.source)

    @property
    def default_threshold(self) -> float:
        return default_threshold(self.index.model_id)

    def refresh(self, cancel: CancelToken | None = None) -> Work[IndexUpdate]:
        """Bring the index up to date after the store changed (only changed documents are re-embedded)."""
        self.index = yield from open_index(self.store, EmbedderSource(self.embedder), cancel=cancel)
        return self.index.update

    def close(self) -> None:
        """Free the embedder's model: when the evaluation ends or another model replaces this one."""
        close_embedder(self.embedder)

    def nominate(self, title: str, content: str, *, k: int, threshold: float) -> list[Nomination]:
        if k <= 0 or len(self.index) == 0:
            return []
        try:
            vector = embed_all(self.embedder, [embedding_text(title, content)])
        except Exception as exc:
            raise NominatorUnavailable("embedder_unavailable") from exc
        hits = [(d, c) for d, c in self.index.query(vector, k)[0] if c >= threshold]
        if not hits:
            return []
        active = {a.anchor_id for a in self.store.anchors(active_only=True)}
        live = {d.document_id: d for d in self.store.documents_by_ids([d for d, _ in hits])}
        return [
            Nomination(d, min(1.0, c))
            for d, c in hits
            if d in live and not live[d].is_tombstoned and live[d].anchor_id in active
        ]


def open_index_nominator(
    store: Store,
    *,
    embedder: Embedder | None = None,
    model_path: str | Path | None = None,
    cancel: CancelToken | None = None,
) -> Work[IndexNominator]:
    """Build/update the index for a nominator. Uses Netclaw's ONNX model (the daemon's own space) when it is
    installed and the store has its vectors, else memgui's default embedder. Raises NominatorUnavailable."""
    owned = embedder is None  # an embedder opened here is closed here if the index cannot be had
    source: VectorSource | None
    if embedder is None:
        try:
            source, _ = resolve_source(store, "onnx")
            if isinstance(source, StoredVectors):
                embedder = source.fill
            elif isinstance(source, EmbedderSource):
                embedder = source.embedder
        except (EmbedderUnavailable, ValueError):
            source = None
        if source is None:
            try:
                embedder = LlamaEmbedder(model_path) if model_path is not None else LlamaEmbedder()
            except EmbedderUnavailable:
                raise NominatorUnavailable("embedder_unavailable") from None
            source = EmbedderSource(embedder)
    else:
        source = EmbedderSource(embedder)
    try:
        index = yield from open_index(store, source, cancel=cancel)
    except (OSError, RuntimeError, EmbedderUnavailable):
        if owned:
            close_source(source)
        raise NominatorUnavailable("vector_index_unavailable") from None
    if embedder is None:  # a source without an embedder of its own cannot embed a proposal
        close_source(source)
        raise NominatorUnavailable("embedder_unavailable")
    return IndexNominator(store, index, embedder)


def index_nominator(store: Store, *, embedder: Embedder | None = None, model_path: str | Path | None = None,
                    cancel: CancelToken | None = None) -> IndexNominator:
    """Blocking form of open_index_nominator (for the CLI and the evaluator)."""
    return run_to_end(open_index_nominator(store, embedder=embedder, model_path=model_path, cancel=cancel))
