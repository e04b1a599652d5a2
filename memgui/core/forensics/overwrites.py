"""Past overwrites that lost an older value (issue 38, item 6): writes that replaced a value in place without
keeping the older one as history (`previously … as of …`, Netclaw's form for a superseded value).

Two kinds of write leave both texts behind:
- memgui's own audited writes (a reviewer's merge, the curation protocol's update or consolidation run by
  memgui): the audit row keeps every source's before-image and the target's after-image;
- a later write by someone else (the daemon's UPDATE, a tool edit) over a document memgui wrote: memgui's
  after-image is the body before it, the store holds the body after it. A daemon write over a document memgui
  never wrote keeps no earlier body anywhere (netclaw-compat §15): it cannot be re-checked, and is not guessed.

`stale_overwrites(store)` is read-only and returns what each such write replaced, sentence by sentence.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..merge.supersede import overwritten
from ..store import Store
from ..store.audit_log import (
    OP_DECIDE_CONSOLIDATE,
    OP_DECIDE_UPDATE,
    OP_MERGE,
    STATE_APPLIED,
    AuditEntry,
    document_row,
    list_entries,
)
from ..store.values import RawText

BY_MEMGUI = {OP_MERGE: "memgui merge", OP_DECIDE_UPDATE: "curation update (memgui)",
             OP_DECIDE_CONSOLIDATE: "curation consolidation (memgui)"}
BY_LATER_WRITE = "a later write outside memgui (the daemon's update or a tool edit)"


@dataclass(frozen=True)
class StaleOverwrite:
    document_id: str
    audit_id: int  # the memgui write it was (or the one the later write overwrote)
    when: int  # ms: when the overwrite was written (the document's updated_at for a later write)
    by: str
    replaced: tuple[tuple[str, str], ...]  # (older sentence, the sentence now in its place)

    def to_dict(self) -> dict[str, Any]:
        return {"document_id": self.document_id, "audit_id": self.audit_id, "when": self.when, "by": self.by,
                "replaced": [{"older": a, "now": b} for a, b in self.replaced]}


def _text(value: Any) -> str:
    if isinstance(value, RawText):
        return value.data.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else ""


def _body(images: Any, doc_id: str) -> str | None:
    row = document_row(images, doc_id)
    return None if row is None else _text(row.get("markdown_body"))


def _of_write(entry: AuditEntry) -> StaleOverwrite | None:
    target = entry.target_id or ""
    after = _body(entry.after, target)
    if after is None:
        return None
    replaced: list[tuple[str, str]] = []
    for doc_id in dict.fromkeys((target, *entry.source_ids)):
        before = _body(entry.before, doc_id)
        if before is not None:
            replaced += [p for p in overwritten(before, after) if p not in replaced]
    return StaleOverwrite(target, entry.audit_id, entry.created_at, BY_MEMGUI[entry.operation],
                          tuple(replaced)) if replaced else None


def stale_overwrites(store: Store) -> list[StaleOverwrite]:
    """Every applied memgui write, and every later write over a document memgui wrote, that replaced a value
    without keeping the older one as history; newest first."""
    out: list[StaleOverwrite] = []
    seen_targets: set[str] = set()
    for entry in list_entries(store, operation=list(BY_MEMGUI), state=STATE_APPLIED):  # newest first
        found = _of_write(entry)
        if found is not None and not entry.details.get("supersede"):
            out.append(found)
        target = entry.target_id or ""
        if target in seen_targets:
            continue  # only the newest memgui write of a document is what a later write overwrote
        seen_targets.add(target)
        later = _later_write(store, entry)
        if later is not None:
            out.append(later)
    return sorted(out, key=lambda o: o.when, reverse=True)


def _later_write(store: Store, entry: AuditEntry) -> StaleOverwrite | None:
    target = entry.target_id or ""
    written = _body(entry.after, target)
    now = store.document(target)
    if written is None or now is None or now.markdown_body == written or now.updated_at <= entry.created_at:
        return None
    replaced = overwritten(written, now.markdown_body or "")
    return StaleOverwrite(target, entry.audit_id, now.updated_at, BY_LATER_WRITE, tuple(replaced)) if replaced \
        else None


__all__ = ["BY_LATER_WRITE", "BY_MEMGUI", "StaleOverwrite", "stale_overwrites"]
