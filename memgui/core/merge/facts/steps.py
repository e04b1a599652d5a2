"""Steps in order: a sequence the source states with "then" (`cold crash 48 h, then keg, then add the vanilla`)
is a fact about order, so a body that lists the same steps in another order changes it, even when every word and
value survives. A body may still reorder the words when it says the order itself (`before`, `after`, `once`)."""
from __future__ import annotations

import itertools
import re

from .notes import Note
from .report import Direction, FactAtRisk, FactKind, Findings

_THEN = re.compile(r"\b(?:then|after\s+that|afterwards)\b[ \t]*[,:]?", re.IGNORECASE)
_GLUE_BEFORE = re.compile(r"(?:[\s,;.→>-]|\band\b)*$", re.IGNORECASE)  # `, then` `; and then` `. Then` `→ then`
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|once)\b", re.IGNORECASE)  # `if … then`: no sequence
# words that state an order themselves, so the text may put the later step first
_ORDER_WORDS = re.compile(r"\b(?:before|after|once|until|till|prior|following|followed|preceded|having|when|"
                          r"first|beforehand|earlier|later)\b", re.IGNORECASE)


def _steps(note: Note, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a sentence's steps when it chains them with "then" (at least two links in all)."""
    text = note.text
    if "then" not in text[start:end].casefold() and "after" not in text[start:end].casefold():
        return []
    cuts = list(_THEN.finditer(text, start, end))
    if not cuts or _CONDITION.search(text, start, cuts[0].start()):
        return []
    label = text.rfind(":", start, cuts[0].start())
    spans, at = [], (label + 1 if label >= 0 else start)  # `Vanilla stout: cold crash …`: the label is no step
    for cut in cuts:
        before = text[max(at, cut.start() - 12):cut.start()]  # the glue is short: no scan over long blank runs
        glue = _GLUE_BEFORE.search(before)
        spans.append((at, cut.start() - (len(glue.group(0)) if glue else 0)))
        at = cut.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if text[a:b].strip(" ,;.:")]


def _signature(note: Note, span: tuple[int, int], others: list[tuple[int, int]]) -> set[str]:
    """The lemmas only this step holds among the sentence's steps: what finds it in the body."""
    theirs: set[str] = set()
    for other in others:
        if other != span:
            theirs |= note.said_between(*other)
    return note.said_between(*span) - theirs


def _place(body: Note, signature: set[str]) -> int | None:
    """Where the body states the step: the first of its unique words that the body says exactly once."""
    places = []
    for lemma in signature:
        words = [w.start for w in body.words if w.lemma == lemma]
        values = [v.start for v in body.values if v.keys and min(v.keys) == lemma]
        found = words + values
        if len(found) == 1:
            places.append(found[0])
    return min(places) if places else None


def reordered_steps(number: int, note: Note, body: Note, findings: Findings) -> None:
    """A step the source puts after another, which the body puts before it without saying so."""
    for start, end in note.sentences:
        steps = _steps(note, start, end)
        if len(steps) < 2:
            continue
        placed = [(span, _place(body, _signature(note, span, steps))) for span in steps]
        located = [(span, at) for span, at in placed if at is not None]
        for (first, at_first), (later, at_later) in itertools.pairwise(located):
            if at_later >= at_first:
                continue
            if _ORDER_WORDS.search(body.text, max(0, at_later - 60), at_first + 60):
                continue  # the body says the order in words: `add the vanilla after the cold crash`
            early, late = note.text[first[0]:first[1]].strip(), note.text[later[0]:later[1]].strip()
            findings.add(FactAtRisk(Direction.CHANGED, FactKind.ORDER, f"{early} … {late}", (number,), (first[0], later[1]),
                                    None, (at_later, at_first),
                                    f"{late!r} came after {early!r}; the body puts it before"))
            break


__all__ = ["reordered_steps"]
