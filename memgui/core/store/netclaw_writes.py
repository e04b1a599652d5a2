"""The writes that mirror Netclaw's own (netclaw-compat §9, §2.1, §2.2): the document upsert, the soft delete,
consolidation's re-anchor and anchor tombstone, EnsureAnchor, the record insert. Each opens the handle's one
transaction (`handle.py`), a savepoint inside the caller's: `core/ops` wraps it with its audit row, so the change
and its record commit together or not at all."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..netfx import anchor_id_for
from .errors import StoreError
from .models import TableModel, has_column, row_values
from .values import (
    DOCUMENT_COLUMNS,
    LEGACY_BOUNDARY,
    LIVE_EXCLUDED_SEMANTICS,
    SEARCHABLE_RECALL_MODES,
    Anchor,
    Document,
    now_ms,
)

if TYPE_CHECKING:
    from .store import Store

LEGACY_DOMAIN_DEFAULT = "general"
TRUSTED_INSTANCE_BOUNDARY = "boundary:trusted-instance"
INT64_MAX = 2 ** 63 - 1  # SQLite's largest integer


class NetclawWrites:
    """`store.writes`: Netclaw-exact writes to Netclaw's tables (memgui's own tables are written by
    `audit_log.py`, `exemptions.py`, `review_marks.py`)."""

    def __init__(self, store: Store):
        self.store = store

    def _insert(self, model: TableModel, values: dict[str, Any], *, upsert_key: str | None = None,
                keep: tuple[str, ...] = ()) -> None:
        """INSERT the columns the table has; with `upsert_key`, overwrite every column but `keep` on conflict."""
        data = row_values(model, values)
        query = model.insert(data)
        if upsert_key:
            key = model._meta.columns[upsert_key]
            preserve = [f for f in data if f is not key and f.column_name not in keep]
            query = query.on_conflict(conflict_target=[key], preserve=preserve)
        self.store._run(query)

    def _legacy_domain_for(self, anchor_id: str) -> str:
        """The prototype-era `domain` to write for a new row under `anchor_id`: the anchor's own, else a
        sibling document's, else a neutral default."""
        for model in (self.store.m.anchors, self.store.m.documents):
            if has_column(model, "domain"):
                domain = model._meta.columns["domain"]
                known = (model.anchor_id == anchor_id) & domain.is_null(False)
                row = self.store._first(model.select(domain).where(known))
                if row:
                    return str(row[0])
        return LEGACY_DOMAIN_DEFAULT

    def ensure_anchor(
        self,
        canonical_name: str,
        *,
        anchor_id: str | None = None,
        anchor_type: str = "concept",
        sensitivity: str = "normal",
        recall_mode: str = "auto",
        confidence: float = 0.8,
        freshness_at: int | None = None,
        status: str = "active",
    ) -> Anchor:
        """Netclaw's EnsureAnchorAsync: upsert overwriting every column but created_at, status included,
        so ensuring a tombstoned anchor revives it (netclaw-compat §2.1)."""
        self.store.require_writable()
        aid = anchor_id or anchor_id_for(canonical_name)
        with self.store.transaction():
            ts = now_ms()
            values = dict(
                anchor_id=aid, anchor_type=anchor_type, canonical_name=canonical_name, parent_anchor_id=None,
                sensitivity=sensitivity, recall_mode=recall_mode, confidence=confidence, freshness_at=freshness_at,
                status=status, created_at=ts, updated_at=ts,
            )
            if has_column(self.store.m.anchors, "domain"):
                values["domain"] = self._legacy_domain_for(aid)
            self._insert(self.store.m.anchors, values, upsert_key="anchor_id", keep=("created_at", "domain"))
            stored = self.store.anchor(aid)
        assert stored is not None
        return stored

    def upsert_document(self, doc: Document) -> Document:
        """Netclaw's document upsert (netclaw-compat §9): on conflict every column except document_id, anchor_id
        and created_at is overwritten; updated_at = now in ms (always later than the stored value);
        memory_class `trace` forces recall_mode `never`; boundary legacy-restricted (or NULL, which reads
        as legacy-restricted) is written as trusted-instance and NULL audience as `personal`; every
        embedding row of the document is deleted; the FTS row is refreshed when recall_mode is auto or
        searchable (other modes leave an existing FTS row alone). One transaction; returns the stored row."""
        self.store.require_writable()
        with self.store.transaction():
            existing = self.store.document(doc.document_id)
            values = {c: getattr(doc, c) for c in DOCUMENT_COLUMNS}
            ts = now_ms()
            values["updated_at"] = self._later(existing, ts) if existing else ts
            if existing is None and not values.get("created_at"):
                values["created_at"] = values["updated_at"]
            if values["boundary"] in (None, LEGACY_BOUNDARY):
                values["boundary"] = TRUSTED_INSTANCE_BOUNDARY
            if values["audience"] is None:
                values["audience"] = doc.effective_audience
            if values["memory_class"] == "trace":
                values["recall_mode"] = "never"
            if self.store.legacy_domain:
                values["domain"] = self._legacy_domain_for(doc.anchor_id)
            self._insert(self.store.m.documents, values, upsert_key="document_id",
                         keep=("anchor_id", "created_at", "domain"))
            self._delete_embeddings(doc.document_id)
            stored = self.store.document(doc.document_id)
            assert stored is not None
            if stored.is_searchable:
                self._refresh_fts(stored)
        return stored

    def _later(self, current: Document, now: int) -> int:
        """An updated_at later than the stored one (now, or the stored one + 1 ms); StoreError when the stored one
        is already SQLite's largest integer (no later time can be written)."""
        later: int = max(now, current.updated_at + 1)
        if isinstance(later, int) and later > INT64_MAX:
            raise StoreError(f"{self.store.path}: document {current.document_id!r}: its updated_at "
                             f"({current.updated_at}) is SQLite's largest integer, so no later time can be written; "
                             "nothing was written")
        return later

    def tombstone_document(self, document_id: str) -> Document:
        """Soft delete as Netclaw does: update_semantics `tombstone`, recall_mode `never`, updated_at
        bumped, FTS row and every embedding row removed — one transaction."""
        self.store.require_writable()
        D, F = self.store.m.documents, self.store.m.documents_fts
        if not has_column(D, "update_semantics"):
            raise StoreError(f"{self.store.path}: memory_documents has no update_semantics column, so a document "
                             "cannot be tombstoned the way Netclaw does; nothing was written")
        with self.store.transaction():
            current = self.store.document(document_id)
            if current is None:
                raise StoreError(f"{document_id}: no such document; nothing was written")
            self.store._run(D.update(row_values(D, {
                "update_semantics": LIVE_EXCLUDED_SEMANTICS, "recall_mode": "never",
                "updated_at": self._later(current, now_ms()),
            })).where(D.document_id == document_id))
            if F is not None:
                self.store._run(F.delete().where(self.store.images.where_key(F, "document_id", document_id)))
            self._delete_embeddings(document_id)
            stored = self.store.document(document_id)
        assert stored is not None
        return stored

    def reanchor_document(self, document_id: str, anchor_id: str) -> None:
        """Consolidation's re-anchor (netclaw-compat §9): only anchor_id changes (no updated_at bump, as Netclaw)."""
        D = self.store.m.documents
        with self.store.transaction():
            self.store._run(D.update({D.anchor_id: anchor_id}).where(D.document_id == document_id))

    def tombstone_anchor(self, anchor_id: str) -> None:
        """Consolidation's anchor tombstone (netclaw-compat §9): status `tombstoned`, updated_at = now."""
        A = self.store.m.anchors
        with self.store.transaction():
            self.store._run(A.update(row_values(A, {"status": "tombstoned", "updated_at": now_ms()}))
                      .where(A.anchor_id == anchor_id))

    def insert_record(self, values: dict[str, Any]) -> None:
        """Netclaw's record insert (netclaw-compat §9): the row (legacy `domain` filled), and its FTS row
        (title = record_type, body = payload_json) when recall_mode is auto or searchable."""
        R, F = self.store.m.records, self.store.m.records_fts
        if R is None:
            raise StoreError(f"{self.store.path}: store has no memory_records table; nothing was written")
        values = dict(values)
        with self.store.transaction():
            if has_column(R, "domain"):
                values["domain"] = self._legacy_domain_for(values["anchor_id"])
            self._insert(R, values)
            if values.get("recall_mode") in SEARCHABLE_RECALL_MODES and F is not None:
                self._insert(F, dict(
                    record_id=values["record_id"], title=values["record_type"], body=values["payload_json"],
                    aliases=values.get("aliases_json") or "", facets=values.get("facets_json") or "",
                ))

    def _delete_embeddings(self, document_id: str) -> None:
        E = self.store.m.embeddings
        if E is not None:
            self.store._run(E.delete().where(E.item_id == document_id))

    def _refresh_fts(self, doc: Document) -> None:
        F = self.store.m.documents_fts
        if F is None:
            return
        self.store._run(F.delete().where(self.store.images.where_key(F, "document_id", doc.document_id)))
        self._insert(F, dict(document_id=doc.document_id, title=doc.title, body=doc.markdown_body,
                             aliases=doc.aliases_json or "", facets=doc.facets_json or ""))


__all__ = ["LEGACY_DOMAIN_DEFAULT", "TRUSTED_INSTANCE_BOUNDARY", "NetclawWrites"]
