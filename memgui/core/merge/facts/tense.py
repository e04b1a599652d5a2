"""Done or not done: a verb the body keeps in another tense changes the fact (`Renewed the insurance` → `Renew the
insurance`, `Lena will renew her passport` → `Lena has renewed her passport`, `has been serviced` → `is getting
serviced`).

Each verb is read as done (past, perfect, a past passive), not done (present, imperative, a present passive or
progressive), future (after `will`, `shall`, `going to`), or unknown (after `to` or another modal: an infinitive
says nothing of when; after `is`, a participle may be a state; in a time clause, tense is relative). Only done
against not done or future counts: the present of a timetable and its future (`leaves at 9` / `will leave at 9`)
are one fact.
"""
from __future__ import annotations

import re

from . import wordnet
from .matching import Index, aligned
from .notes import Note, Word
from .report import Direction, FactAtRisk, FactKind, Findings

_PREVIOUS = re.compile(r"([^\W\d_]+(?:['’][a-z]+)?)[^\w]*$")
_FUTURE = frozenset("will shall 'll going".split())
_NO_TENSE = frozenset("to can could should must may might would do does did not n't".split())
_PASSIVE_PRESENT = frozenset("get gets getting being".split())  # `is getting serviced`: not yet done
_STATIVE = frozenset("is are am be".split())  # `is booked` is done, `is sold daily` is not: says nothing alone
_TIME_CLAUSE = frozenset("after before once when whenever until till if unless as".split())
_PASSIVE_PAST = frozenset("was were got".split())
_PERFECT = frozenset("has have had been 've 's 'd".split())
_DETERMINER = frozenset("the a an my your our their his her its this that these those all any each every some no "
                        "of for".split())  # before a noun or an adjective: `the upgrade`, `a booked table`
_OBJECT_START = (_DETERMINER - {"of", "for"}) | frozenset("it them him me us".split())
_SUBJECT = frozenset("i we you they".split())
_THIRD_PERSON = frozenset("he she it who which that".split())
_IRREGULAR_PAST = re.compile(r"(?:ed|[^aeiou]t|ought|aught|ew|ung|ank|ode|ook|ote|ove|ore|oke|ent|ame|ave|ind|ound)$")


# Irregular verbs whose simple past is no participle: the closed class of English strong verbs.
_SIMPLE_PAST = frozenset(
    "went came gave took ran began wrote drove ate saw knew grew flew threw drew rose spoke broke chose froze stole "
    "woke wore swore tore sang rang drank sank swam did fell forgot forgave hid rode shook strode strove "
    "arose awoke bore bit blew mistook overtook undertook withdrew".split())


def _previous(text: str, start: int) -> str:
    found = _PREVIOUS.search(text[max(0, start - 24):start])
    return found.group(1).casefold().replace("’", "'") if found else ""


def tense_of(word: Word, text: str) -> str | None:
    """"done", "not done", "future" or None (not a verb, or a form that says nothing of when)."""
    if not wordnet.has_verb_sense(word.lemma) or word.lower.endswith("ing"):
        return None
    before = _previous(text, word.start)
    if _TIME_CLAUSE & set(re.findall(r"[a-z']+", text[max(0, word.start - 24):word.start].casefold())[-3:]):
        return None  # `after you've fed the fish`: a time clause's tense is relative to the main one
    if before in _DETERMINER or before.isdigit():
        return None  # a noun or an adjective (`Upgrade of the cluster`, `the booked table`, `two runs`)
    if word.lower == word.lemma:
        if before in _NO_TENSE:
            return None
        if before in _FUTURE:
            return "future"
        following = re.match(r"\W*([a-z']+)", text[word.end:word.end + 16].casefold())
        imperative = not before and following is not None and following.group(1) in _OBJECT_START
        return "not done" if imperative or before in _SUBJECT else None  # a bare form may be a noun
    if word.lower.endswith("s") and word.lower[:-1].rstrip("e") in (word.lemma, word.lemma.rstrip("e")):
        opens = text[:word.start].rstrip(" \t")[-1:] in ("", ".", "!", "?", ":", "\n", "-", "*", "•")
        return "not done" if before or not opens else None  # `Writes were paused`: a plural noun opens the
        # sentence; `…, $299, renews 9 Jan`: a terse note's verb after its list of facts
    if word.lower in _SIMPLE_PAST and before not in _NO_TENSE:
        return "done"  # `the price went up`: a past no participle shares, after whatever subject
    if not _IRREGULAR_PAST.search(word.lower):
        return None
    if before in _STATIVE:
        return None
    if before in _PASSIVE_PRESENT:
        two_back = _previous(text, text.rfind(before, 0, word.start))
        return "future" if two_back in _FUTURE else None if two_back in _NO_TENSE else "not done"
    if before in _PERFECT or before in _PASSIVE_PAST or not before or before in _SUBJECT | _THIRD_PERSON or \
            text[word.start - len(before) - 1:word.start].strip()[:1].isupper():
        return "done"  # past simple after its subject, a past passive, a perfect; `Renewed the insurance`
    return None  # `one bag included`, `the form attached`: a participle after a noun says how, not when


def changed_tense(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """A verb of the source that the body's restating sentence keeps, done on one side and not on the other."""
    for sentence, features in enumerate(index.features):
        restating = aligned(features, body_index)[:1]
        if not restating:
            continue
        body_verbs: dict[str, tuple[Word, str]] = {}
        for word in body.words_in(restating[0]):
            tense = tense_of(word, body.text)
            if tense:
                body_verbs.setdefault(word.lemma, (word, tense))
        for word in note.words_in(sentence):
            tense = tense_of(word, note.text)
            if not tense or word.lemma not in body_verbs:
                continue
            other, other_tense = body_verbs[word.lemma]
            if "done" in (tense, other_tense) and tense != other_tense:
                findings.add(FactAtRisk(Direction.CHANGED, FactKind.TENSE, word.text, (number,), (word.start, word.end), other.text,
                                        (other.start, other.end),
                                        f"{word.text!r} ({tense}) is {other.text!r} ({other_tense}) in the body"))
