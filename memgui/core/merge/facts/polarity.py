"""What a negation and a cause are said of. A merge can keep every "not" and every "because" of its sources and
still change the fact, by moving them: `eats fish but no red meat` → `doesn't eat fish or red meat` (the "no"
now covers the fish), `the disk filled up because the cron was disabled` → `the cron was disabled because the disk
filled up` (cause and effect trade places)."""
from __future__ import annotations

import re
from collections.abc import Callable

from .lexicon import MarkerClass
from .matching import Index, aligned
from .notes import CLAUSE_STOP, Note
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
_EFFECT_RIGHT = frozenset({"so", "therefore", "thus", "hence", "so that", "which caused", "which meant"})
_CAUSE_WORDS = re.compile(r"\b(because(?:\s+of)?|since|due\s+to|owing\s+to|caused\s+by|thanks\s+to|so|therefore|"
                          r"thus|hence)\b", re.IGNORECASE)


Relation = tuple[str, set[str], set[str]]  # (relation, first side, second side)


def _causes(note: Note, sentence: int) -> list[Relation]:
    """("because", cause, effect) of each reason a sentence gives, whichever way round it is written."""
    start, end = note.sentences[sentence]
    out = []
    for m in _CAUSE_WORDS.finditer(note.text, start, end):
        word = " ".join(m.group(1).casefold().split())
        stop = CLAUSE_STOP.search(note.text, m.end(), end)
        right = {w.lemma for w in note.words_between(m.end(), stop.start() if stop else end)}
        left = {w.lemma for w in note.words_between(start, m.start())}
        if left and right:
            out.append(("because", left, right) if word in _EFFECT_RIGHT else ("because", right, left))
    return out


def _traded(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings,
            read: Callable[[Note, int], list[Relation]], traded: Callable[[Relation, Relation], bool],
            kind: Callable[[str], FactKind], why: Callable[[str], str]) -> None:
    """A relation of a source sentence that the body sentence restating it states the other way round."""
    for sentence, features in enumerate(index.features):
        mine = read(note, sentence)
        if not mine:
            continue
        for target in aligned(features, body_index)[:1]:
            for relation in mine:
                for theirs in read(body, target):
                    if traded(relation, theirs):
                        findings.add(FactAtRisk(Direction.CHANGED, kind(relation[0]), note.sentence_text(sentence).strip(),
                                                (number,), note.sentences[sentence], body.sentence_text(target).strip(),
                                                body.sentences[target], why(relation[0])))
                        return


def _cause_traded(mine: Relation, theirs: Relation) -> bool:
    """The causes share nothing, and each is the other's effect."""
    _, cause, effect = mine
    _, their_cause, their_effect = theirs
    return bool((cause - effect) & (their_effect - their_cause) and (effect - cause) & (their_cause - their_effect)
                and not (cause - effect) & their_cause)


def cause_reversed(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """The source's cause is the body's effect and its effect the body's cause."""
    _traded(number, note, index, body, body_index, findings, _causes, _cause_traded, lambda _: FactKind.CAUSE,
            lambda _: "cause and effect traded places")


_FROM_TO = re.compile(r"\bfrom\s+(?P<a>[^,;.()\n]{1,60}?)\s+(?:in)?to\s+(?P<b>[^,;.()\n]{1,60})", re.IGNORECASE)
_THAN = re.compile(r"\b(?P<cmp>[a-z]+er|more\s+[a-z]+|less\s+[a-z]+|fewer|worse|better)\s+than\s+(?P<b>[^,;.()\n]{1,60})",
                   re.IGNORECASE)


def _ends(note: Note, sentence: int) -> list[Relation]:
    """(relation, first side, second side) of a sentence: `from A to B`, `A is cheaper than B`."""
    start, end = note.sentences[sentence]
    out = []
    for m in _FROM_TO.finditer(note.text, start, end):
        out.append(("from-to", note.said_between(m.start("a"), m.end("a")), note.said_between(m.start("b"), m.end("b"))))
    for m in _THAN.finditer(note.text, start, end):
        clause = max((c.end() for c in re.finditer(r"[,;:]", note.text[start:m.start()])), default=0) + start
        words = {w.lemma for w in note.words_between(clause, m.start()) if len(w.lemma) > 2}  # not the difference
        out.append((" ".join(m.group("cmp").casefold().split()), words,
                    {w.lemma for w in note.words_between(m.start("b"), m.end("b"))}))
    return [(r, a - b, b - a) for r, a, b in out if a - b and b - a]


def _ends_traded(mine: Relation, theirs: Relation) -> bool:
    relation, first, second = mine
    their_relation, their_first, their_second = theirs
    return bool(relation == their_relation and first & their_second and second & their_first and not (
        first & their_first) and not (second & their_second))


def ends_swapped(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """The two ends of one relation trade places: `from savings into the current account` → `from the current
    account into savings`, `ours is cheaper than Octopus's` → `Octopus's is cheaper than ours`."""
    _traded(number, note, index, body, body_index, findings, _ends, _ends_traded,
            lambda relation: FactKind.DIRECTION if relation == "from-to" else FactKind.COMPARISON,
            lambda relation: f"the two ends of '{relation}' traded places")


__all__ = ["cause_reversed", "ends_swapped", "negation_moved"]
