"""What the memory said when (issue 38 item 8): the timeline of one document, or of every document of one anchor.

Four sources, each entry with its date, its source and its text, oldest first:

- `memgui-audit`: memgui's own audit rows (`memgui_audit`), each with the document's text after the write (and
  before it), the operation and whether the write still stands (`applied`) or was undone;
- `append-history`: the `_[merged YYYY-MM-DD]_` additions of the body (forensics/history.py's `split_segments`);
  the date is the day the append was written;
- `inline-history`: the body's "previously … as of YYYY-MM-DD" phrases (merge/supersede.py's `split_history`);
  the date is the day the older value held;
- `document` (and `anchor`): the rows' own created_at, updated_at and freshness_at. "created" carries the text the
  document started with (the original segment of the earliest body known), "updated" the body as stored now,
  "fresh" the present statement (history phrases cut out) as of the note's freshness (the text a later memgui
  write replaced, when there is one).

Entries that only have a day (appends, history phrases) come before the timed entries of that same day; an entry with
no date at all (a row written with created_at 0) comes first. Texts that are not valid UTF-8 (bytes kept as RawText
in an audit image, a lone surrogate in a body) are shown with U+FFFD and the entry says so (`repaired`).

`document_entries(doc, audit)` is pure; `document_timeline(store, id)` and `anchor_timeline(store, name_or_id)`
read the store (read-only) and raise `UnknownSubjectError` (one line) for an id or anchor the store does not know.
"""
from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..merge.supersede import split_history
from ..netfx import ANCHOR_PREFIX, LONE_SURROGATE, TOMBSTONE_SEMANTICS, anchor_id_for, anchor_slug
from ..store import Document, Store
from ..store.audit_log import OP_REDO, OP_UNDO, STATE_UNDONE, AuditEntry, document_row, list_entries
from ..store.values import Anchor, RawText
from .history import split_segments


class Source(StrEnum):
    """Where a timeline entry was read."""

    DOCUMENT = "document"  # the row's own stamps
    ANCHOR = "anchor"
    AUDIT = "memgui-audit"
    APPEND = "append-history"  # the daemon's dated append separators
    INLINE = "inline-history"  # a `previously …, as of …` phrase


class Subject(StrEnum):
    """What a timeline is of."""

    DOCUMENT = "document"
    ANCHOR = "anchor"


SOURCE_DOCUMENT, SOURCE_ANCHOR, SOURCE_AUDIT = Source.DOCUMENT, Source.ANCHOR, Source.AUDIT
SOURCE_APPEND, SOURCE_INLINE = Source.APPEND, Source.INLINE
SOURCES = (SOURCE_DOCUMENT, SOURCE_ANCHOR, SOURCE_AUDIT, SOURCE_APPEND, SOURCE_INLINE)

KIND_CREATED, KIND_UPDATED, KIND_FRESH = "created", "updated", "fresh"
KIND_APPENDED, KIND_PREVIOUSLY, KIND_ANCHOR = "appended", "previously", "anchor-created"

# an "updated" stamp this close after a memgui write that left the current body is that write, not another one
_SAME_WRITE_MS = 60_000


class UnknownSubjectError(LookupError):
    """The store has no such document or anchor (one line, for a person)."""


@dataclass(frozen=True)
class TimelineEntry:
    """One thing the memory said, and when."""

    date: str | None  # YYYY-MM-DD (UTC day); None when the source gives no date
    time_ms: int | None  # when the source gives a time, not only a day (UTC epoch ms)
    source: Source
    kind: str  # created | updated | fresh | appended | previously | anchor-created | an audit operation
    document_id: str | None
    title: str
    text: str  # what the memory said (after the write, for an audit row)
    before: str | None = None  # an audit row: the document's text before the write (None: it did not exist)
    audit_id: int | None = None
    state: str | None = None  # an audit row: applied | undone
    tombstoned: bool = False  # the document was tombstoned at this point
    note: str = ""
    repaired: bool = False  # the text held bytes that are not UTF-8 (or a lone surrogate), shown as U+FFFD

    @property
    def undone(self) -> bool:
        return self.state == STATE_UNDONE

    def as_dict(self) -> dict[str, Any]:
        return {"date": self.date, "time_ms": self.time_ms, "source": self.source, "kind": self.kind,
                "document_id": self.document_id, "title": self.title, "text": self.text, "before": self.before,
                "audit_id": self.audit_id, "state": self.state, "tombstoned": self.tombstoned, "note": self.note,
                "repaired": self.repaired}


@dataclass(frozen=True)
class TimelineDocument:
    document_id: str
    title: str
    tombstoned: bool
    in_store: bool = True  # False: only memgui's audit still knows it (its row is gone)

    def as_dict(self) -> dict[str, Any]:
        return {"document_id": self.document_id, "title": self.title, "tombstoned": self.tombstoned,
                "in_store": self.in_store}


@dataclass(frozen=True)
class Timeline:
    subject_kind: Subject
    subject_id: str  # the document id, or the anchor id
    name: str  # the document's title, or the anchor's canonical name
    anchor_id: str | None
    documents: tuple[TimelineDocument, ...]
    entries: tuple[TimelineEntry, ...]  # oldest first
    notes: tuple[str, ...] = ()  # what a person should know (a tombstone, a history the store cannot recover)

    @property
    def tombstoned(self) -> bool:
        return bool(self.documents) and all(d.tombstoned for d in self.documents)

    def as_dict(self) -> dict[str, Any]:
        """The shape of `memgui history --json`."""
        return {"subject": {"kind": self.subject_kind, "id": self.subject_id, "name": self.name,
                            "anchor_id": self.anchor_id, "tombstoned": self.tombstoned,
                            "documents": [d.as_dict() for d in self.documents]},
                "entries": [e.as_dict() for e in self.entries], "notes": list(self.notes)}


# ---- pure ---------------------------------------------------------------------------------------------------------

def clean_text(value: object) -> tuple[str, bool]:
    """Text fit to show and print: (text, repaired). RawText (bytes that are not UTF-8) and lone surrogates become
    U+FFFD; None is ""; anything else its str()."""
    if value is None:
        return "", False
    if isinstance(value, RawText):
        return value.data.decode("utf-8", "replace"), True
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace"), True
    text = value if isinstance(value, str) else str(value)
    if LONE_SURROGATE.search(text):
        return LONE_SURROGATE.sub("\ufffd", text), True
    return text, False


def day_of(ms: int) -> str:
    """The UTC day of an epoch-ms time, YYYY-MM-DD (Netclaw's date format)."""
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).date().isoformat()


def _valid_day(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return _dt.date.fromisoformat(text).isoformat()
    except ValueError:
        return None


def _time(ms: object) -> int | None:
    """A stored time stamp as epoch ms, None when there is none (0, NULL, not a number, out of range)."""
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms <= 0:
        return None
    try:
        day_of(int(ms))
    except (OverflowError, OSError, ValueError):
        return None
    return int(ms)


def _row_body(row: dict[str, Any] | None) -> tuple[str | None, bool]:
    if row is None:
        return None, False
    text, repaired = clean_text(row.get("markdown_body"))
    return text, repaired


def _audit_note(e: AuditEntry, changed: bool, exists_after: bool, tombstone: tuple[bool, bool] = (False, False)) -> str:
    parts = []
    if e.operation in (OP_UNDO, OP_REDO) and e.reverts_audit_id is not None:
        parts.append(f"{e.operation} of #{e.reverts_audit_id}")
    if e.state == STATE_UNDONE:
        parts.append("undone since")
    if not exists_after:
        parts.append("the row did not exist after this write")
    elif tombstone == (False, True):
        parts.append("tombstoned by this write")
    elif tombstone == (True, False):
        parts.append("brought back from its tombstone")
    elif not changed:
        parts.append("the text did not change")
    if e.note:
        parts.append(f"note: {clean_text(e.note)[0]}")
    return "; ".join(parts)


def audit_entries(document_id: str, title: str, audit: Iterable[AuditEntry]) -> list[TimelineEntry]:
    """One entry per audit row that names or touches the document: its text after the write (and before it)."""
    out: list[TimelineEntry] = []
    for e in sorted(audit, key=lambda a: a.audit_id):
        before_row, after_row = document_row(e.before, document_id), document_row(e.after, document_id)
        touched = document_id in (e.before.get("documents") or {}) or document_id in (e.after.get("documents") or {})
        if not touched and document_id not in e.source_ids and e.target_id != document_id:
            continue
        before, before_repaired = _row_body(before_row)
        after, after_repaired = _row_body(after_row)
        row_title = clean_text((after_row or before_row or {}).get("title"))[0] or title
        tombstoned = after_row is not None and after_row.get("update_semantics") == TOMBSTONE_SEMANTICS
        was_tombstoned = before_row is not None and before_row.get("update_semantics") == TOMBSTONE_SEMANTICS
        when = _time(e.created_at)
        out.append(TimelineEntry(
            date=day_of(when) if when is not None else None, time_ms=when, source=SOURCE_AUDIT, kind=e.operation,
            document_id=document_id, title=row_title, text=after if after is not None else "",
            before=before, audit_id=e.audit_id, state=e.state, tombstoned=tombstoned,
            note=_audit_note(e, before != after, after_row is not None or not touched, (was_tombstoned, tombstoned)),
            repaired=before_repaired or after_repaired))
    return out


def _joined(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _known_bodies(document_id: str, body: str, repaired: bool,
                  audit: Sequence[AuditEntry]) -> list[tuple[str, bool, str]]:
    """Every body the document is known to have had, (text, repaired, where): the current one first, then the
    audit's images, newest write first (an append or a history phrase a later write dropped is still history)."""
    out = [(body, repaired, "")]
    for a in sorted(audit, key=lambda a: -a.audit_id):
        for image, word in ((a.after, "after"), (a.before, "before")):
            text, fixed = _row_body(document_row(image, document_id))
            if text is not None and text not in (b for b, _, _ in out):
                out.append((text, fixed, f"no longer in the body: from its text {word} audit #{a.audit_id}"))
    return out


def document_entries(doc: Document, audit: Sequence[AuditEntry] = ()) -> list[TimelineEntry]:
    """Every entry one document contributes (unsorted): its audit rows, its append history, its history phrases
    and its own time stamps."""
    title = clean_text(doc.title)[0]
    body, repaired = clean_text(doc.markdown_body)
    did = doc.document_id
    out = audit_entries(did, title, audit)
    tombstoned = doc.update_semantics == TOMBSTONE_SEMANTICS

    # the text it started with: the original segment of the earliest body known
    earliest, earliest_repaired = body, repaired
    for a in sorted(audit, key=lambda a: a.audit_id):
        row = document_row(a.before, did) or document_row(a.after, did)
        if row is not None:
            text, fixed = _row_body(row)
            earliest, earliest_repaired = text or "", fixed
            break
    created = _time(doc.created_at)
    out.append(TimelineEntry(
        date=day_of(created) if created is not None else None, time_ms=created, source=SOURCE_DOCUMENT,
        kind=KIND_CREATED, document_id=did, title=title, text=split_segments(earliest)[0].text.strip(),
        note="" if created is not None else "the row has no creation time", repaired=earliest_repaired))

    seen: set[tuple[str, str | None, str]] = set()
    for text, fixed, where in _known_bodies(did, body, repaired, audit):
        for seg in split_segments(text)[1:]:
            key = (SOURCE_APPEND, seg.date, seg.text.strip())
            if key not in seen:
                seen.add(key)
                out.append(TimelineEntry(date=_valid_day(seg.date), time_ms=None, source=SOURCE_APPEND,
                                         kind=KIND_APPENDED, document_id=did, title=title, text=seg.text.strip(),
                                         repaired=fixed, note=_joined("the day the append was written", where)))
        for old, date in split_history(text)[1]:
            key = (SOURCE_INLINE, date, old)
            if key not in seen:
                seen.add(key)
                day = _valid_day(date)
                out.append(TimelineEntry(date=day, time_ms=None, source=SOURCE_INLINE, kind=KIND_PREVIOUSLY,
                                         document_id=did, title=title, text=old, repaired=fixed,
                                         note=_joined("" if day else f"{date} is not a calendar day", where)))
    updated = _time(doc.updated_at)
    last_audit = max(audit, key=lambda a: a.audit_id, default=None)
    same_write = (last_audit is not None and updated is not None and last_audit.state != STATE_UNDONE
                  and _row_body(document_row(last_audit.after, did))[0] == body
                  and abs(int(last_audit.created_at) - updated) <= _SAME_WRITE_MS)
    if updated is not None and updated != created and not same_write:
        out.append(TimelineEntry(
            date=day_of(updated), time_ms=updated, source=SOURCE_DOCUMENT, kind=KIND_UPDATED, document_id=did,
            title=title, text=body.strip(), tombstoned=tombstoned, repaired=repaired,
            note=f"last write: {clean_text(doc.update_semantics)[0]}" + ("; tombstoned" if tombstoned else "")))
    fresh = _time(doc.freshness_at)
    if fresh is not None:
        then, then_repaired, note = body, repaired, "the note's freshness: what it stated as of then"
        later = [a for a in sorted(audit, key=lambda a: a.audit_id)
                 if int(a.created_at) > fresh and document_row(a.before, did) is not None]
        if later:  # memgui rewrote it after its freshness: the text then is the one its first later write replaced
            replaced, then_repaired = _row_body(document_row(later[0].before, did))
            then = replaced or ""
            note += f" (its text before audit #{later[0].audit_id}; memgui rewrote it later)"
        then_present, then_phrases = split_history(then)
        out.append(TimelineEntry(
            date=day_of(fresh), time_ms=fresh, source=SOURCE_DOCUMENT, kind=KIND_FRESH, document_id=did,
            title=title, text=_tidy(then_present) if then_phrases else then.strip(),
            tombstoned=tombstoned, repaired=then_repaired, note=note))
    return out


def _tidy(text: str) -> str:
    """A body with its history phrases cut out: each line's spaces closed up, empty lines at the ends dropped."""
    lines = (" ".join(line.split()).replace(" .", ".").replace(" ,", ",") for line in text.splitlines())
    return "\n".join(lines).strip()


def ordered(entries: Iterable[TimelineEntry]) -> tuple[TimelineEntry, ...]:
    """Oldest first: undated entries first; on one day, the day-only entries (in their order) before timed ones."""
    indexed = list(enumerate(entries))
    indexed.sort(key=lambda p: (p[1].date or "", -1 if p[1].time_ms is None else p[1].time_ms, p[0]))
    return tuple(e for _, e in indexed)


# ---- reading the store --------------------------------------------------------------------------------------------

def _audit_of(store: Store, document_id: str, cache: dict[int, AuditEntry]) -> list[AuditEntry]:
    out = []
    for e in list_entries(store, document_id=document_id):
        out.append(cache.setdefault(e.audit_id, e))
    return out


def _doc_notes(doc: Document) -> list[str]:
    title = clean_text(doc.title)[0] or doc.document_id
    notes = []
    if doc.update_semantics == TOMBSTONE_SEMANTICS:
        notes.append(f"“{title}” is tombstoned: the daemon no longer recalls it; its last body and its history are "
                     "still shown.")
    return notes


def _entries_from_audit_only(document_id: str, audit: Sequence[AuditEntry]) -> list[TimelineEntry]:
    title = ""
    for a in audit:
        row = document_row(a.after, document_id) or document_row(a.before, document_id)
        if row is not None:
            title = clean_text(row.get("title"))[0]
    return audit_entries(document_id, title, audit)


def document_timeline(store: Store, document_id: str) -> Timeline:
    """The timeline of one document (tombstoned too). A document whose row is gone but that memgui's audit still
    knows (a write undone that had created it) is shown from the audit alone."""
    cache: dict[int, AuditEntry] = {}
    doc = store.document(document_id)
    audit = _audit_of(store, document_id, cache)
    if doc is None:
        if not audit:
            raise UnknownSubjectError(f"{clean_text(document_id)[0]!r}: no such document in this store, and memgui's "
                                      "audit never touched one with that id")
        entries = _entries_from_audit_only(document_id, audit)
        title = next((e.title for e in reversed(entries) if e.title), "")
        return Timeline(Subject.DOCUMENT, document_id, title, None,
                        (TimelineDocument(document_id, title, False, in_store=False),), ordered(entries),
                        ("The document's row is no longer in the store; memgui's audit still holds its texts.",))
    title = clean_text(doc.title)[0]
    return Timeline(Subject.DOCUMENT, doc.document_id, title, doc.anchor_id,
                    (TimelineDocument(doc.document_id, title, doc.update_semantics == TOMBSTONE_SEMANTICS),),
                    ordered(document_entries(doc, audit)), tuple(_doc_notes(doc)))


def resolve_anchor(store: Store, name_or_id: str) -> tuple[str, Anchor | None]:
    """The anchor id meant by an id (`anchor:…`), a canonical name or a slug, and its row (None when only documents
    name it). UnknownSubjectError when neither an anchor row nor a document has it."""
    text = clean_text(name_or_id)[0]
    candidates = [text] if text.startswith(ANCHOR_PREFIX) else []
    if text.strip():
        candidates.append(anchor_id_for(text))
    for anchor_id in dict.fromkeys(candidates):
        row = store.anchor(anchor_id)
        if row is not None:
            return anchor_id, row
    wanted = " ".join(text.split()).casefold()
    for row in store.anchors():
        if " ".join(clean_text(row.canonical_name)[0].split()).casefold() == wanted:
            return row.anchor_id, row
    for anchor_id in dict.fromkeys(candidates):
        if store.documents_by_anchor(anchor_id, include_tombstoned=True):
            return anchor_id, None
    raise UnknownSubjectError(f"{text!r}: no such anchor in this store (give its name, e.g. \"home router\", or its "
                              "id, e.g. anchor:home-router)")


def _once_per_anchor(entries: Sequence[TimelineEntry]) -> list[TimelineEntry]:
    """An append or a history phrase that several documents of one anchor carry (a merge copied it) is one entry,
    that names the other documents."""
    first: dict[tuple[str, str | None, str], int] = {}
    also: dict[int, list[str]] = {}
    out: list[TimelineEntry] = []
    for e in entries:
        if e.source not in (SOURCE_APPEND, SOURCE_INLINE):
            out.append(e)
            continue
        key = (e.source, e.date, " ".join(e.text.split()))
        if key in first:
            names = also.setdefault(first[key], [])
            if e.title not in names and e.title != out[first[key]].title:
                names.append(e.title or e.document_id or "")
            continue
        first[key] = len(out)
        out.append(e)
    for i, names in also.items():
        out[i] = replace(out[i], note=_joined(out[i].note, "also in " + ", ".join(f"“{n}”" for n in names)))
    return out


def anchor_timeline(store: Store, name_or_id: str) -> Timeline:
    """The timeline of every document of one anchor (tombstoned ones too, marked), merged oldest first, with the
    anchor's own creation."""
    anchor_id, anchor = resolve_anchor(store, name_or_id)
    docs = sorted(store.documents_by_anchor(anchor_id, include_tombstoned=True),
                  key=lambda d: (d.created_at, d.document_id))
    cache: dict[int, AuditEntry] = {}
    entries: list[TimelineEntry] = []
    notes: list[str] = []
    name = clean_text(anchor.canonical_name)[0] if anchor is not None else anchor_slug(anchor_id)
    if anchor is not None:
        created = _time(anchor.created_at)
        entries.append(TimelineEntry(date=day_of(created) if created is not None else None, time_ms=created,
                                     source=SOURCE_ANCHOR, kind=KIND_ANCHOR, document_id=None, title=name, text=name,
                                     note=f"status: {clean_text(anchor.status)[0]}"))
    else:
        notes.append(f"{anchor_id} has no row in memory_anchors; its documents still name it.")
    for doc in docs:
        entries.extend(document_entries(doc, _audit_of(store, doc.document_id, cache)))
        notes.extend(_doc_notes(doc))
    entries = _once_per_anchor(entries)
    if not docs:
        notes.append("No document is filed under this anchor.")
    documents = tuple(TimelineDocument(d.document_id, clean_text(d.title)[0], d.update_semantics == TOMBSTONE_SEMANTICS)
                      for d in docs)
    return Timeline(Subject.ANCHOR, anchor_id, name, anchor_id, documents, ordered(entries), tuple(notes))


@dataclass(frozen=True)
class HistorySubject:
    """A document or an anchor a timeline can be asked for (what the window's picker lists)."""

    kind: Subject
    key: str  # the document id, or the anchor id
    label: str
    tombstoned: bool = False


def history_subjects(store: Store) -> list[HistorySubject]:
    """Every anchor that has a row or a document (by name, with its number of documents), then every document
    (tombstoned ones too, marked), by title."""
    docs = store.documents(include_tombstoned=True)
    counts: dict[str, int] = {}
    for d in docs:
        counts[d.anchor_id] = counts.get(d.anchor_id, 0) + 1
    names = {a.anchor_id: clean_text(a.canonical_name)[0] for a in store.anchors()}
    anchors = [HistorySubject(Subject.ANCHOR, anchor_id, f"{names.get(anchor_id) or anchor_slug(anchor_id)} "
                              f"({counts.get(anchor_id, 0)} note{'' if counts.get(anchor_id, 0) == 1 else 's'})")
               for anchor_id in sorted(set(names) | set(counts), key=lambda i: (names.get(i) or anchor_slug(i)).casefold())]
    documents = [HistorySubject(Subject.DOCUMENT, d.document_id,
                                f"{clean_text(d.title)[0] or '(untitled)'} · {d.document_id}"
                                + (" [tombstoned]" if d.update_semantics == TOMBSTONE_SEMANTICS else ""),
                                d.update_semantics == TOMBSTONE_SEMANTICS)
                 for d in sorted(docs, key=lambda d: (clean_text(d.title)[0].casefold(), d.document_id))]
    return anchors + documents


def history_timeline(store: Store, *, document_id: str | None = None, anchor: str | None = None) -> Timeline:
    """`document_timeline` or `anchor_timeline`: exactly one of them must be given."""
    if (document_id is None) == (anchor is None):
        raise ValueError("give a document id or an anchor, not both")
    return document_timeline(store, document_id) if document_id is not None else anchor_timeline(store, anchor or "")


__all__ = [
    "SOURCES",
    "SOURCE_ANCHOR",
    "SOURCE_APPEND",
    "SOURCE_AUDIT",
    "SOURCE_DOCUMENT",
    "SOURCE_INLINE",
    "HistorySubject",
    "Source",
    "Subject",
    "Timeline",
    "TimelineDocument",
    "TimelineEntry",
    "UnknownSubjectError",
    "anchor_timeline",
    "audit_entries",
    "clean_text",
    "document_entries",
    "document_timeline",
    "history_subjects",
    "history_timeline",
    "ordered",
    "resolve_anchor",
]
