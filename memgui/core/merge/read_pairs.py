"""The alignment as a person reads it (issue 36, item 9): one row per source sentence beside the body sentence(s) it
aligns to, `read` and `lost` rows first, the words that differ between the two sides marked, and the pairs a person
confirmed as restatements.

- `pair_rows(alignment, kept_back, confirmed)`: the rows, in reading order. A `read` or `lost` row carries its marks:
  the words only one side has (`differs`, from the word diff) and, stronger, the tokens the proof could not find in
  the body or that the body adds (`owed`: the sentence's `missing`, the body sentences' `added`). A source sentence a
  union draft kept back word for word says so and why.
- `confirmed_alignment(alignment, confirmed)`: the alignment with each confirmed pair counted as restated and the
  verdict said again over it (a loss stays a loss: a rule that earned `loss` named it).
- `ConfirmedRestatement`: one confirmation as the audit records it (the document, the sentence, both sides' text).

Pure: values in, values out; no store, no Qt.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .align import Alignment, Fate, SentenceFate, Verdict, align
from .diff import EQUAL, word_diff
from .keep_draft import KeptBack

DIFFERS, OWED = "differs", "owed"
CONFIRMED_WHY = "confirmed as a restatement by the reviewer"
# the reading order of the rows: what a person must read first
_ORDER = {Fate.READ: 0, Fate.LOST: 1, Fate.RESTATED: 2, Fate.KEPT: 3}
_WORD = re.compile(r"\w+(?:[.\-'/:@#]+\w+)*", re.UNICODE)
MAX_MARKED_CHARS = 4000  # a longer sentence is shown unmarked (a log line read as one sentence)


@dataclass(frozen=True)
class Mark:
    start: int  # character offsets into the text
    end: int
    kind: str  # DIFFERS | OWED


@dataclass(frozen=True)
class MarkedText:
    text: str
    marks: tuple[Mark, ...] = ()

    def marked_words(self, kind: str | None = None) -> list[str]:
        return [self.text[m.start:m.end] for m in self.marks if kind is None or m.kind == kind]


@dataclass(frozen=True)
class ConfirmedRestatement:
    """A source sentence a person confirmed as restated by the merged body."""

    document_id: str
    sentence: int  # its number in the document's body (the splitter's index)
    text: str
    body: tuple[str, ...]  # the body sentence(s) it was confirmed against

    def to_dict(self) -> dict[str, object]:
        return {"document_id": self.document_id, "sentence": self.sentence, "text": self.text,
                "body": list(self.body)}


@dataclass(frozen=True)
class PairRow:
    source: int  # which source (the alignment's order)
    index: int  # the sentence's number in its source
    fate: Fate  # as the alignment says it (a confirmed pair: restated)
    source_text: MarkedText
    body: tuple[int, ...]  # the body sentences it aligns to
    body_text: MarkedText  # those sentences, joined by a space
    why: str
    kept_back: str = ""  # why a union draft kept it back word for word ("" when it did not)
    confirmed: bool = False  # a person confirmed the pair as a restatement

    @property
    def key(self) -> tuple[int, int]:
        return self.source, self.index

    @property
    def confirmable(self) -> bool:
        """A pair a person may confirm: read (aligned, not provable) with a body sentence beside it."""
        return self.fate is Fate.READ and bool(self.body) and not self.confirmed


def _word_spans(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    wanted = {w.casefold() for w in words if w.strip()}
    if not wanted:
        return []
    out = [(m.start(), m.end()) for m in _WORD.finditer(text) if m.group().casefold() in wanted]
    for w in wanted:  # a token that is not one word (`9:30 am`, `$1,200`) is found as written
        if not _WORD.fullmatch(w):
            out += [(m.start(), m.end()) for m in re.finditer(re.escape(w), text, re.IGNORECASE)]
    return out


def _marks(differs: Iterable[tuple[int, int]], owed: Iterable[tuple[int, int]]) -> tuple[Mark, ...]:
    strong = sorted(set(owed))
    weak = [(a, b) for a, b in set(differs) if not any(a < y and x < b for x, y in strong)]
    marks = [Mark(a, b, DIFFERS) for a, b in weak] + [Mark(a, b, OWED) for a, b in strong]
    return tuple(sorted(marks, key=lambda m: (m.start, m.end)))


def word_marks(source: str, body: str, missing: Sequence[str] = (), added: Sequence[str] = ()) -> tuple[
        MarkedText, MarkedText]:
    """The words that differ between a source sentence and its body sentence(s), marked on both sides: `owed` for
    the tokens the proof names (`missing` from the source, `added` by the body), `differs` for every other word
    only one side has (a word diff, case and punctuation aside)."""
    if len(source) > MAX_MARKED_CHARS or len(body) > MAX_MARKED_CHARS:
        return MarkedText(source), MarkedText(body)
    src_diff: list[tuple[int, int]] = []
    body_diff: list[tuple[int, int]] = []
    src_words = Counter(m.group().casefold() for m in _WORD.finditer(source))
    body_words = Counter(m.group().casefold() for m in _WORD.finditer(body))
    for span in word_diff(source, body).spans:
        if span.op == EQUAL:
            continue
        src_diff += [(span.a_start + m.start(), span.a_start + m.end()) for m in _WORD.finditer(span.a_text)
                     if m.group().casefold() not in body_words]  # moved, not gone: not marked
        body_diff += [(span.b_start + m.start(), span.b_start + m.end()) for m in _WORD.finditer(span.b_text)
                      if m.group().casefold() not in src_words]
    return (MarkedText(source, _marks(src_diff, _word_spans(source, missing))),
            MarkedText(body, _marks(body_diff, _word_spans(body, added))))


def _confirmed_fate(fate: SentenceFate) -> SentenceFate:
    return replace(fate, fate=Fate.RESTATED, why=CONFIRMED_WHY)


def confirmed_alignment(alignment: Alignment, confirmed: Iterable[tuple[int, int]]) -> Alignment:
    """`alignment` with each confirmed (source, sentence) that is `read` counted as restated, and the verdict over
    that: proved when every sentence is kept or restated and no body sentence adds what its unconfirmed sources do
    not state; a `lost` sentence stays lost."""
    keys = set(confirmed)
    if not keys:
        return alignment
    fates = tuple(_confirmed_fate(f) if (f.source, f.index) in keys and f.fate is Fate.READ else f
                  for f in alignment.sentences)
    if any(f.fate is Fate.LOST for f in fates):
        verdict = Verdict.LOSS
    elif all(f.fate in (Fate.KEPT, Fate.RESTATED) for f in fates) and not any(
            b.added and not (b.support and set(b.support) <= keys) for b in alignment.body):
        verdict = Verdict.PROVED
    else:
        verdict = Verdict.READ
    if verdict is Verdict.PROVED and alignment.verdict is not Verdict.PROVED and any(
            r for r in alignment.reasons if not r.startswith(("source ", "body sentence "))):
        verdict = Verdict.READ  # a finding with no sentence to read it in (a title's identifier) still stands
    reasons = tuple(r for r in alignment.reasons if not any(
        r.startswith(f"source {s + 1} sentence {i + 1}:") for s, i in keys))
    return replace(alignment, verdict=verdict, sentences=fates, reasons=reasons)


def fate_counts(alignment: Alignment) -> dict[Fate, int]:
    """How many source sentences have each fate (every fate named, zero or not), in reading order."""
    counts = Counter(f.fate for f in alignment.sentences)
    return {fate: counts.get(fate, 0) for fate in sorted(Fate, key=lambda f: _ORDER[f])}


def kept_back_alignment(sources: Sequence[str | None], primary: int) -> Alignment:
    """The alignment a union draft's kept-back sentences were judged by: every source against the note it keeps
    whole (`primary`), so each kept-back sentence sits beside the sentence of that note it could not be proved to
    restate."""
    texts = [s or "" for s in sources]
    return align(texts, texts[primary] if 0 <= primary < len(texts) else "")


def pair_rows(alignment: Alignment, kept_back: Sequence[KeptBack] = (), confirmed: Iterable[tuple[int, int]] = (),
              before_kept_back: Alignment | None = None) -> list[PairRow]:
    """One row per source sentence, `read` then `lost` then restated then kept (source order inside each), with
    the words that differ marked on `read` and `lost` rows; `kept_back` (a union draft's) says which sentences it
    kept back whole and why, each shown beside the sentence it was compared with (`before_kept_back`, from
    `kept_back_alignment`) so a person can confirm the pair; `confirmed` pairs are restated, flagged as confirmed."""
    keys = set(confirmed)
    why_kept = {(k.source, k.index): k.why for k in kept_back}
    shown = confirmed_alignment(alignment, keys)
    earlier = {(f.source, f.index): f for f in before_kept_back.sentences} if before_kept_back is not None else {}
    rows = []
    for fate in shown.sentences:
        key = (fate.source, fate.index)
        against = shown
        if key in why_kept and key in earlier and key not in keys and before_kept_back is not None:
            fate, against = earlier[key], before_kept_back
        rows.append(_row(fate, against, why_kept.get(key, ""), key in keys))
    rows.sort(key=lambda r: (_ORDER[r.fate], r.confirmed, r.source, r.index))
    return rows


def _row(fate: SentenceFate, alignment: Alignment, kept_back: str, confirmed: bool) -> PairRow:
    body_text = {b.index: b.text for b in alignment.body}
    joined = " ".join(body_text.get(b, "").strip() for b in fate.body).strip()
    if fate.fate in (Fate.READ, Fate.LOST):
        added = {b.index: b.added for b in alignment.body}
        body_added = [a for b in fate.body for a in added.get(b, ())]
        source_text, body_marked = word_marks(fate.text.strip(), joined, fate.missing, body_added)
    else:
        source_text, body_marked = MarkedText(fate.text.strip()), MarkedText(joined)
    return PairRow(fate.source, fate.index, fate.fate, source_text, fate.body, body_marked,
                   fate.why or kept_back, kept_back, confirmed)


__all__ = ["CONFIRMED_WHY", "DIFFERS", "OWED", "ConfirmedRestatement", "Mark", "MarkedText", "PairRow",
           "confirmed_alignment", "fate_counts", "kept_back_alignment", "pair_rows", "word_marks"]
