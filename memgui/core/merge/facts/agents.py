"""Who does what: each thing a note says of a person is said of the person named last before it in its sentence
(`Aiko writes the notes; Ben tags the release` — the tagging is Ben's). A merge that keeps every word but puts a
task, a role or an attribute after another person (`Aiko writes the notes and tags the release`) gives it to
someone else."""
from __future__ import annotations

import bisect
import re

from . import wordnet
from .notes import CLAUSE_STOP, Note, Word, lemma_of
from .report import Direction, FactAtRisk, FactKind, Findings

_ACTS = re.compile(r"(['’]s\b)?\s*([a-z]+(?:s|ed))?\b")  # `Dana's`, `Dana rents`, `Dana lent`
_WRITER = re.compile(r"\b(?:I|me|my|mine|we|us|our|ours)\b")
_NEXT_WORDS = re.compile(r"\S+(?:\s+(?:will|would|can|could|must|should|may|might|has|have|had|is|are|was|"
                         r"were|also|still|already|then|now|just|always|never|often|usually|to|not|n't|does|do|did)"
                         r")*\s+")  # the person, then auxiliaries and adverbs only
_POSSESSIVE = re.compile(r"\w['’]s?(?:\b|$)")
_BY = re.compile(r"\s+by\s+((?:the|our|my|a|an)\s+)?\S", re.IGNORECASE)


def _people(note: Note) -> list[tuple[int, str]]:
    """(offset, who) of every person a note names: a name with a capital, the writer."""
    out = [(w.start, w.lemma) for w in note.words if w.term and w.text[:1].isupper() and _a_name(note, w)
           and not _owns(note, w)]  # `Nadia's manager` is said of the manager, not Nadia
    out += [(m.start(), "p:writer") for m in _WRITER.finditer(note.text)]  # a role (`the art director`) is said
    # of a person, as what they do is
    return sorted(out)


def _owns(note: Note, word: Word) -> bool:
    """`Dana's`, `James'`: a name written as an owner."""
    return _POSSESSIVE.search(note.text[word.start:word.end + 2]) is not None


def _a_name(note: Note, word: Word) -> bool:
    """A person's name: no word of the dictionary (`Leeds`, `Tern` are places and boats), a role, or a name the
    dictionary also holds that acts or owns (`Dana rents`, `Dana's`)."""
    if wordnet.names_a_person(word.lemma) or word.lemma not in wordnet.tables().synsets:
        return True
    if _owns(note, word):
        return True
    after = _ACTS.match(note.text, word.end)
    if after is None:
        return False
    return after.group(1) is not None or (after.group(2) is not None and wordnet.has_verb_sense(lemma_of(after.group(2))))


def _agents(note: Note, people: list[tuple[int, str]]) -> dict[str, str]:
    """Each content word said once → the person named last before it in its stretch of sentence."""
    starts = [at for at, _ in people]
    named = set(starts)
    said: dict[str, list[str | None]] = {}
    for word in note.words:
        if word.start in named or word.text[:1].isupper():
            continue  # a name is no one's deed (`Asha, Ben, Priya`)
        k = bisect.bisect_left(starts, word.start) - 1
        between = note.text[people[k][0]:word.start] if k >= 0 else ""
        follows = k >= 0 and "," not in between and _NEXT_WORDS.fullmatch(between) is not None and \
            wordnet.has_verb_sense(word.lemma) and (word.lower != word.lemma or people[k][1] == "p:writer" or
                                                   len(between.split()) > 1)  # `Ben tags`, `I owe`, `Ida will take`
        # — not `the PagerDuty schedule`, a name before a noun
        if not (wordnet.names_a_person(word.lemma) or follows):
            continue  # what a person is (a role) or does (the verb right after them), not a thing beside them
        who = people[k][1] if k >= 0 else None
        if who is not None:
            stop = CLAUSE_STOP.search(note.text, people[k][0], word.start)
            who = None if stop else who  # the name is in an earlier stretch: not this word's
        by = _BY.match(note.text, word.end)
        if by:  # `led by Alexei`: the passive names its doer after the verb
            k = bisect.bisect_left(starts, by.end() - 1)
            who = people[k][1] if k < len(people) and people[k][0] == by.end() - 1 else who
        said.setdefault(word.lemma, []).append(who)
    return {lemma: whos[0] for lemma, whos in said.items() if len(whos) == 1 and whos[0] is not None}


def _named(note: Note) -> set[str]:
    """Everyone a note names, owners too (`the kiln is Dana's`): who could be said to act."""
    return {who for _, who in _people(note)} | {w.lemma for w in note.words if w.term and w.text[:1].isupper() and
                                                 _a_name(note, w) and _owns(note, w)}


def agent_changed(notes: list[Note], body: Note, findings: Findings) -> None:
    """A word the sources say of one person and the body of another person the sources also name."""
    body_people = _people(body)
    if len({who for _, who in body_people} | _named(body)) < 2:
        return
    theirs = _agents(body, body_people)
    said = [_agents(note, _people(note)) for note in notes]
    in_body = {who for _, who in body_people}
    for number, note in enumerate(notes):
        names = _named(note)
        if len(names) < 2:
            continue
        for lemma, who in said[number].items():
            other = theirs.get(lemma)
            if other is None or other == who or other not in names or who not in in_body:
                continue
            if any(agents.get(lemma) == other for agents in said):
                continue  # another source says it of that person too
            word = next(w for w in body.words if w.lemma == lemma)
            findings.add(FactAtRisk(Direction.CHANGED, FactKind.BINDING, lemma, (number,), None, word.text, (word.start, word.end),
                                    f"{word.text!r} was said of {_shown(who)}; the body says it of {_shown(other)}"))
            return


def _shown(who: str) -> str:
    return "the writer" if who == "p:writer" else who


__all__ = ["agent_changed"]
