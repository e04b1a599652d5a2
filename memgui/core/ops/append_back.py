"""Append text back to a live document: the write behind "append the lost fact back" (forensics/recheck.py).

The text goes after the document's body under Netclaw's structural append separator (`build_appended_body`,
`_[merged YYYY-MM-DD]_`), the document becomes `append-document`, and the write is ONE transaction with its
audit row (operation `append-back`, full before/after images), after the document's stamp is checked against
the one the caller saw. The body and its guard report are computed before BEGIN IMMEDIATE; the lock covers
only the stamp re-check and the writes. Undo and redo treat it like every other write.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import Any

from ..merge.guard import check_merge
from ..netfx import APPEND_SEMANTICS, build_appended_body, is_blank
from ..store import Store
from ..store.audit_log import OP_APPEND_BACK, Provenance, details_json_of, prepared_texts, written_entry
from .change_record import Change, utc_today
from .changes import Written, written
from .stamps import ApplyInputError, SourceStamp, check_stamps


def append_back(store: Store, doc_id: str, addition: str, drafted: SourceStamp, *, when: date | None = None,
                details: Mapping[str, Any] | None = None, note: str | None = None) -> Written:
    """Append `addition` to `doc_id`'s body (structural append format) if the document still has the stamp
    `drafted`; refuses with StaleSourceError / ApplyInputError otherwise (nothing written)."""
    if is_blank(addition):
        raise ApplyInputError("nothing to append; nothing was written")
    when = when or utc_today()
    # the body and its guard report are made before the write lock; inside it only the stamp is checked again
    doc = check_stamps(store, [doc_id], {doc_id: drafted})[doc_id]
    body = build_appended_body(doc.markdown_body, addition, when)
    report = check_merge([doc.markdown_body, addition], body)
    provenance = Provenance(note=note)
    details_json = details_json_of(provenance, {
        **(details or {}), "appended": addition, "when": when.isoformat(), "guard": report.to_dict(),
        "drafted": {doc_id: [drafted.content_hash, drafted.updated_at]}})
    texts = prepared_texts([doc.markdown_body, body], details_json)  # compressed before the lock
    with store.transaction():
        doc = check_stamps(store, [doc_id], {doc_id: drafted})[doc_id]
        change = Change(store, texts)
        change.touch(documents=[doc_id])
        store.writes.upsert_document(replace(doc, markdown_body=body, update_semantics=APPEND_SEMANTICS))
        audit_id = change.commit(operation=OP_APPEND_BACK, target_id=doc_id, source_ids=[doc_id],
                                 provenance=provenance, guard_passed=report.passed, details_json=details_json)
    return written(written_entry(store, audit_id))


__all__ = ["append_back"]
