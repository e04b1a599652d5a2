"""Netclaw's own read queries that later stages need (the evaluator's candidate lookups, consolidation's
anchor matching, the append-history prefilter, the index's change detector), as Peewee queries on the
store's models. They return plain tuples; the stage that asks turns them into its own values.

A candidate row is `(anchor_id, canonical_name, document_id, markdown_body, freshness_at, confidence)`.
"""
from __future__ import annotations

from typing import Any

from peewee import JOIN, fn

from ..netfx import APPEND_SEMANTICS, APPEND_SEPARATOR_PREFIX
from .models import TableModel, column, has_column
from .store import FTS_BM25_WEIGHTS, Store
from .values import LIVE_EXCLUDED_SEMANTICS

CandidateRow = tuple[Any, ...]  # (anchor_id, canonical_name, document_id, markdown_body, freshness_at, confidence)


def _active(A: TableModel) -> Any:
    return column(A, "status") == "active"


def latest_live_document_per_active_anchor(store: Store) -> list[CandidateRow]:
    """Every active anchor with its most recently updated live document (document columns None when it has
    none), in store order — FindFuzzyAnchorMatchesAsync's scan."""
    A, D = store.m.anchors, store.m.documents
    rank = fn.ROW_NUMBER().over(partition_by=[D.anchor_id], order_by=[column(D, "updated_at").desc()])
    latest = (
        D.select(D.anchor_id, D.document_id, D.markdown_body, column(D, "freshness_at").alias("freshness_at"),
                 column(D, "confidence").alias("confidence"), rank.alias("rn"))
        .where(column(D, "update_semantics") != LIVE_EXCLUDED_SEMANTICS)
        .alias("d")
    )
    query = (
        A.select(A.anchor_id, A.canonical_name, latest.c.document_id, latest.c.markdown_body,
                 latest.c.freshness_at, latest.c.confidence)
        .join(latest, JOIN.LEFT_OUTER, on=((latest.c.anchor_id == A.anchor_id) & (latest.c.rn == 1)))
        .where(_active(A))
    )
    return store._tuples(query)


def _candidate_columns(A: TableModel, D: TableModel) -> list[Any]:
    return [A.anchor_id, A.canonical_name, D.document_id, D.markdown_body, column(D, "freshness_at"),
            column(D, "confidence")]


def live_candidate(store: Store, document_id: str) -> CandidateRow | None:
    """GetCandidatesByIdsAsync for one id: the document if live and under an active anchor, else None."""
    A, D = store.m.anchors, store.m.documents
    query = (
        D.select(*_candidate_columns(A, D))
        .join(A, on=(D.anchor_id == A.anchor_id))
        .where((D.document_id == document_id) & _active(A)
               & (column(D, "update_semantics") != LIVE_EXCLUDED_SEMANTICS))
    )
    return store._first(query)


def content_candidates(store: Store, match_query: str, hits: int, limit: int) -> list[CandidateRow]:
    """FindCandidatesByContentAsync: the top `hits` FTS hits by bm25(10, 1, 5, 3), then durable facts under
    active anchors that are not tombstoned, by rank, confidence (high first), recency; at most `limit`.
    No FTS table → none. Raises StoreError when FTS5 rejects the query or the index is damaged."""
    A, D, F = store.m.anchors, store.m.documents, store.m.documents_fts
    if F is None or not has_column(F, "document_id"):
        return []
    rank = F.bm25(*FTS_BM25_WEIGHTS)
    doc_hits = (
        F.select(F._meta.columns["document_id"].alias("document_id"), rank.alias("fts_rank"))
        .where(F.match(match_query))
        .order_by(rank)
        .limit(hits)
        .alias("dh")
    )
    query = (
        D.select(*_candidate_columns(A, D))
        .join_from(D, doc_hits, on=(D.document_id == doc_hits.c.document_id))
        .join_from(D, A, on=(D.anchor_id == A.anchor_id))
        .where(_active(A) & (column(D, "memory_class") == "durable_fact")
               & (column(D, "update_semantics") != LIVE_EXCLUDED_SEMANTICS))
        .order_by(doc_hits.c.fts_rank, column(D, "confidence").desc(), column(D, "updated_at").desc())
        .limit(limit)
    )
    return store._tuples(query)


def active_anchors_with_live_documents(store: Store) -> list[tuple[str, str]]:
    """(anchor_id, canonical_name) of every active anchor that has a live document, by anchor id."""
    A, D = store.m.anchors, store.m.documents
    has_live = fn.EXISTS(
        D.select(D.document_id).where((D.anchor_id == A.anchor_id)
                                      & (column(D, "update_semantics") != LIVE_EXCLUDED_SEMANTICS))
    )
    return store._tuples(A.select(A.anchor_id, A.canonical_name).where(_active(A) & has_live).order_by(A.anchor_id))


def append_history_document_ids(store: Store) -> list[str]:
    """Documents marked append-document or whose body holds a `_[merged ` separator (a cheap prefilter for
    the append-history parser), by document id; tombstoned ones included."""
    D = store.m.documents
    where = fn.instr(D.markdown_body, APPEND_SEPARATOR_PREFIX) > 0
    if has_column(D, "update_semantics"):
        where |= D.update_semantics == APPEND_SEMANTICS
    return [r[0] for r in store._tuples(D.select(D.document_id).where(where).order_by(D.document_id))]


def live_document_stamps(store: Store) -> list[tuple[str, int, int, int]]:
    """(document_id, updated_at, length(title), length(markdown_body)) of every live document, in the
    store's document order (created_at, document_id) — one light query for the index's change detector.
    NULLs read as 0; lengths are SQLite's (characters of text)."""
    D = store.m.documents
    query = (
        D.select(D.document_id, fn.coalesce(column(D, "updated_at"), 0), fn.coalesce(fn.length(D.title), 0),
                 fn.coalesce(fn.length(D.markdown_body), 0))
        .where(column(D, "update_semantics") != LIVE_EXCLUDED_SEMANTICS)
        .order_by(column(D, "created_at"), D.document_id)
    )
    return store._tuples(query)


__all__ = [
    "APPEND_SEPARATOR_PREFIX", "CandidateRow", "active_anchors_with_live_documents", "append_history_document_ids",
    "content_candidates", "latest_live_document_per_active_anchor", "live_candidate", "live_document_stamps",
]
