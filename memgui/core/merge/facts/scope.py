"""The scope of a focus word: `Only Lena can approve` is not `Lena can only approve`. A focus word narrows the
word after it (past its articles and prepositions: `only on Fridays`) or, at the end of a phrase, the word before
it (`members only`). When the body keeps the focus word and the word it narrowed, but not next to each other, the
fact changed."""
from __future__ import annotations

import re

from .lexicon import FUNCTION_WORDS, MarkerClass
from .matching import Index, aligned
from .notes import Marker, Note, lemma_of
from .report import Direction, FactAtRisk, FactKind, Findings

_FOCUS = frozenset({(MarkerClass.RESTRICTION, "only")})  # `only`, `solely`, `exclusively`, `merely`; `even` is too weak
_TOKEN = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")


def _scope_after(text: str, end: int, stop: int) -> str | None:
    """The first word after `end` (up to `stop`) that is not a function word, as a lemma."""
    for m in _TOKEN.finditer(text, end, stop):
        low = m.group(0).casefold()
        if low not in FUNCTION_WORDS:
            return lemma_of(low)
    return None


def _neighbours(text: str, marker: Marker, sentence: tuple[int, int]) -> set[str]:
    """What a focus word can narrow where it stands: the next content word, or the word right before it."""
    out = set()
    after = _scope_after(text, marker.end, sentence[1])
    if after:
        out.add(after)
    before = list(_TOKEN.finditer(text, sentence[0], marker.start))
    if before:
        out.add(lemma_of(before[-1].group(0).casefold()))
    return out


def moved_focus(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    for marker in note.markers:
        if marker.key not in _FOCUS:
            continue
        scope = _scope_after(note.text, marker.end, note.sentences[marker.sentence][1])
        restating = aligned(index.features[marker.sentence], body_index)[:1]
        if not scope or not restating:
            continue
        sentence = body.sentences[restating[0]]
        theirs = [m for m in body.markers if m.sentence == restating[0] and m.key == marker.key]
        if any(" " in m.text.strip() for m in theirs):
            continue  # `…, nobody else` closes the whole clause: it narrows what the clause names, wherever it stands
        if not theirs or not re.search(rf"\b{re.escape(scope)}", body.text[sentence[0]:sentence[1]].casefold()):
            continue  # the focus word or its word is gone: dropped, which the lens tells elsewhere
        if any(scope in _neighbours(body.text, m, sentence) for m in theirs):
            continue
        other = theirs[0]
        findings.add(FactAtRisk(Direction.CHANGED, FactKind.SCOPE, marker.text, (number,), (marker.start, marker.end), other.text,
                                (other.start, other.end),
                                f"{marker.text!r} narrowed {scope!r}; in the body it narrows another word"))
