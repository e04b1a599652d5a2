"""What a negation and a cause are said of. A merge can keep every "not" and every "because" of its sources and
still change the fact, by moving them: `eats fish but no red meat` → `doesn't eat fish or red meat` (the "no"
now covers the fish), `the disk filled up because the cron was disabled` → `the cron was disabled because the disk
filled up` (cause and effect trade places)."""
from __future__ import annotations

import re

from .matching import Index, aligned
from .notes import Note
from .report import FactAtRisk, Findings

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
    negations = [m for m in note.markers if m.cls == "negation" and m.sentence == sentence]
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
                findings.add(FactAtRisk("changed", "negation", moved[0], (number,), None, word.text,
                                        (word.start, word.end),
                                        f"{word.text!r} is now denied; the source denies only something else"))


_VERBAL = re.compile(r"n't|\bnot\b|\bnever\b|\bcannot\b", re.IGNORECASE)
_CAUSE_RIGHT = frozenset({"because", "since", "due to", "as a result of", "owing to", "caused by", "thanks to"})
_EFFECT_RIGHT = frozenset({"so", "therefore", "thus", "hence", "so that", "which caused", "which meant"})
_CAUSE_WORDS = re.compile(r"\b(because(?:\s+of)?|since|due\s+to|owing\s+to|caused\s+by|thanks\s+to|so|therefore|"
                          r"thus|hence)\b", re.IGNORECASE)
_END = re.compile(r"[;.!?\n]")


def _cause_and_effect(note: Note, sentence: int) -> list[tuple[set[str], set[str]]]:
    start, end = note.sentences[sentence]
    out = []
    for m in _CAUSE_WORDS.finditer(note.text, start, end):
        word = " ".join(m.group(1).casefold().split())
        word = "because" if word == "because of" else word
        stop = _END.search(note.text, m.end(), end)
        right = {w.lemma for w in note.words_between(m.end(), stop.start() if stop else end)}
        left = {w.lemma for w in note.words_between(start, m.start())}
        if not left or not right:
            continue
        out.append((right, left) if word in _CAUSE_RIGHT else (left, right) if word in _EFFECT_RIGHT else
                   (set(), set()))
    return [pair for pair in out if pair[0] and pair[1]]


def cause_reversed(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """The source's cause is the body's effect and its effect the body's cause."""
    for sentence, features in enumerate(index.features):
        mine = _cause_and_effect(note, sentence)
        if not mine:
            continue
        for target in aligned(features, body_index)[:1]:
            for cause, effect in mine:
                for their_cause, their_effect in _cause_and_effect(body, target):
                    if (cause - effect) & (their_effect - their_cause) and (effect - cause) & (their_cause - their_effect) \
                            and not (cause - effect) & their_cause:  # the causes share nothing, each is the other's effect
                        start, end = body.sentences[target]
                        findings.add(FactAtRisk("changed", "cause", note.sentence_text(sentence).strip(), (number,),
                                                note.sentences[sentence], body.sentence_text(target).strip(),
                                                (start, end), "cause and effect traded places"))
                        return




_FROM_TO = re.compile(r"\bfrom\s+(?P<a>[^,;.()\n]{1,60}?)\s+(?:in)?to\s+(?P<b>[^,;.()\n]{1,60})", re.IGNORECASE)
_THAN = re.compile(r"\b(?P<cmp>[a-z]+er|more\s+[a-z]+|less\s+[a-z]+|fewer|worse|better)\s+than\s+(?P<b>[^,;.()\n]{1,60})",
                   re.IGNORECASE)


def _lemmas_of(note: Note, start: int, end: int) -> set[str]:
    return {w.lemma for w in note.words_between(start, end)} | {
        min(v.keys) for v in note.values if start <= v.start < end and v.keys}


def _ends(note: Note, sentence: int) -> list[tuple[str, set[str], set[str]]]:
    """(relation, first side, second side) of a sentence: `from A to B`, `A is cheaper than B`."""
    start, end = note.sentences[sentence]
    out = []
    for m in _FROM_TO.finditer(note.text, start, end):
        out.append(("from-to", _lemmas_of(note, m.start("a"), m.end("a")), _lemmas_of(note, m.start("b"), m.end("b"))))
    for m in _THAN.finditer(note.text, start, end):
        clause = max((c.end() for c in re.finditer(r"[,;:]", note.text[start:m.start()])), default=0) + start
        words = {w.lemma for w in note.words_between(clause, m.start()) if len(w.lemma) > 2}  # not the difference
        out.append((" ".join(m.group("cmp").casefold().split()), words,
                    {w.lemma for w in note.words_between(m.start("b"), m.end("b"))}))
    return [(r, a - b, b - a) for r, a, b in out if a - b and b - a]


def ends_swapped(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """The two ends of one relation trade places: `from savings into the current account` → `from the current
    account into savings`, `ours is cheaper than Octopus's` → `Octopus's is cheaper than ours`."""
    for sentence, features in enumerate(index.features):
        mine = _ends(note, sentence)
        if not mine:
            continue
        for target in aligned(features, body_index)[:1]:
            for relation, first, second in mine:
                for their_relation, their_first, their_second in _ends(body, target):
                    if relation == their_relation and first & their_second and second & their_first and not (
                            first & their_first) and not (second & their_second):
                        findings.add(FactAtRisk("changed", "direction" if relation == "from-to" else "comparison",
                                                note.sentence_text(sentence).strip(), (number,),
                                                note.sentences[sentence], body.sentence_text(target).strip(),
                                                body.sentences[target], f"the two ends of '{relation}' traded places"))
                        return


__all__ = ["cause_reversed", "ends_swapped", "negation_moved"]
