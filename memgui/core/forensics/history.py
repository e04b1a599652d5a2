"""Past daemon merges as far as the store keeps them (netclaw-compat §9, §15): append histories.

Netclaw writes every append (the evaluator's guard fallback and the store's anchor dedup-collision path) as
`<existing body>` + `\\n\\n---\\n_[merged YYYY-MM-DD]_\\n` + `<added text>`, and repeated appends stack further
separators. So an `append-document` body IS its own history: the original text followed by dated additions
(the date is when the append was written, not when the fact happened).

A `merge-document` write (a deterministic Update or a guard-passed LLM merge) overwrites the body in place and
nothing else keeps the old text: for such a document the earlier body cannot be recovered from the store. Only
memgui's own merges keep before-images (in `memgui_audit`).

`split_segments(body)` is pure; `history_of(doc)` and `appended_histories(store)` read documents.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..netfx import APPEND_SEMANTICS, APPEND_SEPARATOR_RE, MERGE_SEMANTICS, build_appended_body
from ..store import Document, Store, queries

UNRECOVERABLE_MESSAGE = (
    "Netclaw overwrites a merge-document body in place and keeps no earlier version, so the body before a "
    "daemon merge cannot be recovered from the store (daemon logs can still say when and why it merged)."
)


@dataclass(frozen=True)
class HistorySegment:
    """One piece of an append history: the original text (`date` None) or one dated addition."""

    date: str | None  # YYYY-MM-DD as written in the separator; None for the original body
    text: str  # exactly as stored between separators (CRLF kept)
    start: int  # offset of `text` in the body
    end: int

    def as_dict(self) -> dict[str, Any]:
        return {"date": self.date, "text": self.text}


def split_segments(body: str | None) -> tuple[HistorySegment, ...]:
    """Split a body at its `_[merged YYYY-MM-DD]_` separators: the original first (date None), then each
    addition with its date. A body without separators is one original segment. Stacked separators with
    nothing between them give an empty addition, never a lost date."""
    body = body or ""
    segments: list[HistorySegment] = []
    pos, date = 0, None
    for m in APPEND_SEPARATOR_RE.finditer(body):
        segments.append(HistorySegment(date, body[pos:m.start()], pos, m.start()))
        date, pos = m.group(1) or m.group(2), m.end()
    segments.append(HistorySegment(date, body[pos:], pos, len(body)))
    return tuple(segments)


def has_separators(body: str | None) -> bool:
    return APPEND_SEPARATOR_RE.search(body or "") is not None


@dataclass(frozen=True)
class DocumentHistory:
    document_id: str
    title: str
    update_semantics: str
    tombstoned: bool
    segments: tuple[HistorySegment, ...]
    recoverable: bool  # False: the store cannot say what the body was before its last write
    message: str  # what a person should know, in one or two sentences

    @property
    def additions(self) -> tuple[HistorySegment, ...]:
        return self.segments[1:]

    @property
    def original(self) -> HistorySegment:
        return self.segments[0]

    def as_dict(self) -> dict[str, Any]:
        """The shape `memgui audit --json` uses for `appended_histories`."""
        return {"document_id": self.document_id, "title": self.title,
                "segments": [s.as_dict() for s in self.segments]}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def history_of(doc: Document) -> DocumentHistory:
    """The history the store keeps for one document, with a plain statement of what cannot be recovered."""
    segments = split_segments(doc.markdown_body)
    n = len(segments) - 1
    semantics = doc.update_semantics
    if n:
        dates = [s.date for s in segments[1:]]
        span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} … {dates[-1]}"
        message = (f"Original text followed by {_plural(n, 'appended addition')} ({span}); the dates are when each "
                   "append was written.")
        if semantics not in (APPEND_SEMANTICS,):
            message += (f" Its last write was `{semantics}`, so text merged in after the last append may have "
                        "replaced earlier wording; that earlier wording is not in the store.")
        recoverable = semantics == APPEND_SEMANTICS or doc.is_tombstoned
    elif semantics == APPEND_SEMANTICS:
        message = ("Marked `append-document` but the body has no `_[merged YYYY-MM-DD]_` separator, so the store "
                   "cannot tell which text came later.")
        recoverable = False
    elif semantics == MERGE_SEMANTICS:
        message = "No history in the store. " + UNRECOVERABLE_MESSAGE
        recoverable = False
    else:
        message = f"No history in the store (last write: `{semantics}`)."
        recoverable = False
    if doc.is_tombstoned:
        message += " The document is tombstoned; its last body is kept."
    return DocumentHistory(doc.document_id, doc.title, semantics, doc.is_tombstoned, segments, recoverable, message)


def appended_histories(store: Store, *, document_ids: Iterable[str] | None = None,
                       include_tombstoned: bool = True) -> list[DocumentHistory]:
    """Every document whose body holds an append history (or that is marked append-document), most
    recently updated first. `document_ids` limits the answer to those documents."""
    ids = queries.append_history_document_ids(store)
    if document_ids is not None:
        wanted = set(document_ids)
        ids = [i for i in ids if i in wanted]
    docs = store.documents_by_ids(ids)
    if not include_tombstoned:
        docs = [d for d in docs if not d.is_tombstoned]
    docs.sort(key=lambda d: (-d.updated_at, d.document_id))
    histories = [history_of(d) for d in docs]
    return [h for h in histories if h.additions or h.update_semantics == APPEND_SEMANTICS]


def join_segments(segments: Iterable[HistorySegment]) -> str:
    """The body Netclaw would have written for these segments (LF separators)."""
    out = ""
    for i, seg in enumerate(segments):
        out = seg.text if i == 0 else build_appended_body(out, seg.text, seg.date or "")
    return out


__all__ = [
    "UNRECOVERABLE_MESSAGE",
    "DocumentHistory",
    "HistorySegment",
    "appended_histories",
    "has_separators",
    "history_of",
    "join_segments",
    "split_segments",
]
