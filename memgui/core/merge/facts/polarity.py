"""What a negation is said of. A merge can keep every "not" of its sources and still change the fact, by moving
it: `eats fish but no red meat` → `doesn't eat fish or red meat` (the "no" now covers the fish)."""
from __future__ import annotations

import re

from .lexicon import MarkerClass
from .matching import Index, aligned
from .notes import Note
from .report import Direction, FactAtRisk, FactKind, Findings

# a negation reaches to the end of its clause: punctuation and contrast words close it
_CLAUSE_EDGE = re.compile(r"[,;:()\[\]—–\n]|\s-\s|\b(?:but|though|although|however|whereas|while|except|yet|"
                          r"apart from|other than|besides)\b", re.IGNORECASE)


def _clauses(note: Note, sentence: int) -> list[tuple[int, int]]:
    start, end = note.sentences[sentence]
    out, at = [], start
    for m in _CLAUSE_EDGE.finditer(note.text, start, end):
        out.append((at, m.start()))
        at = m.end()
    out.append((at, end))
    return [(a, b) for a, b in out if b > a]


def _said(note: Note, sentence: int, after_only: bool = False) -> tuple[set[str], set[str]]:
    """(lemmas said in a clause with a negation, lemmas said in a clause without one) of a sentence.
    `after_only`: only what follows the negation is denied, less the verb it negates (`Pete doesn't eat fish`
    denies the fish, not Pete nor eating)."""
    negated: set[str] = set()
    plain: set[str] = set()
    negations = [m for m in note.markers if m.cls == MarkerClass.NEGATION and m.sentence == sentence]
    for a, b in _clauses(note, sentence):
        inside = [m for m in negations if a <= m.start < b]
        if inside and after_only:
            first = min(inside, key=lambda m: m.start)
            words = note.words_between(first.end, b)
            if words and _VERBAL.search(first.text):
                words = words[1:]  # `doesn't eat fish`: the verb it negates is no thing denied
            negated.update(w.lemma for w in words)
        elif inside:
            negated.update(w.lemma for w in note.words_between(a, b))
        else:
            plain.update(w.lemma for w in note.words_between(a, b))
    return negated, plain


def negation_moved(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """A thing the source says plainly that the restating body sentence now denies, beside a negation the source
    said of something else."""
    for sentence, features in enumerate(index.features):
        negated, plain = _said(note, sentence)
        if not negated:
            continue  # no negation to move: an added one is the marker check's
        only_plain = plain - negated
        for target in aligned(features, body_index)[:1]:
            body_negated, _ = _said(body, target, after_only=True)
            moved = sorted(only_plain & body_negated)
            if moved:
                word = next(w for w in body.words_in(target) if w.lemma == moved[0])
                findings.add(FactAtRisk(Direction.CHANGED, FactKind.NEGATION, moved[0], (number,), None, word.text,
                                        (word.start, word.end),
                                        f"{word.text!r} is now denied; the source denies only something else"))


_VERBAL = re.compile(r"n't|\bnot\b|\bnever\b|\bcannot\b", re.IGNORECASE)


__all__ = ["negation_moved"]
