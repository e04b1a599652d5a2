"""One audited change: the before-images of the rows a write touches, taken as each is first touched, and the audit
row written from them (`commit`). Every write of core/ops collects its change here."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timezone
from typing import Any

from ..store import Store, exemptions as exemptions_mod
from ..store.audit_log import TextPack, Touched, capture, record_entry


def utc_today() -> date:
    return datetime.now(timezone.utc).date()


class Change:
    """Collects before-images of rows as they are first touched; `commit` writes the audit row. `texts` holds
    the long texts the images will hold (the sources' bodies, the new body), compressed before the lock."""

    def __init__(self, store: Store, texts: TextPack | None = None):
        self.store = store
        self.texts = texts if texts is not None else TextPack()
        self.docs: list[str] = []
        self.anchors: list[str] = []
        self.records: list[str] = []
        self.pairs: list[tuple[str, str]] = []
        self.before: dict[str, Any] = {"documents": {}, "anchors": {}, "records": {}, "exemptions": []}

    def touch(self, documents: Iterable[str] = (), anchors: Iterable[str] = (), records: Iterable[str] = (),
              exemptions: Iterable[tuple[str, str]] = ()) -> None:
        new = Touched.of(
            [d for d in documents if d not in self.docs], [a for a in anchors if a not in self.anchors],
            [r for r in records if r not in self.records],
            [p for p in (exemptions_mod.ordered_pair(a, b) for a, b in exemptions) if p not in self.pairs],
        )
        image = capture(self.store, new)
        for kind in ("documents", "anchors", "records"):
            self.before[kind].update(image[kind])
        self.before["exemptions"] += image["exemptions"]
        self.docs += new.documents
        self.anchors += new.anchors
        self.records += new.records
        self.pairs += new.exemptions

    @property
    def empty(self) -> bool:
        return not (self.docs or self.anchors or self.records or self.pairs)

    def commit(self, **entry: Any) -> int:
        after = capture(self.store, Touched.of(self.docs, self.anchors, self.records, self.pairs))
        return record_entry(self.store, before=self.before, after=after, texts=self.texts, **entry)


__all__ = ["Change", "utc_today"]
