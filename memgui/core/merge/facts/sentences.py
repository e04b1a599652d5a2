"""Judgements of whole sentences that restate each other: a word swapped, dropped or put in, a modifier left out,
a sentence dropped or added whole."""
from __future__ import annotations

import difflib
import itertools
import re
from collections import Counter

from . import codes, wordnet
from .lexicon import FUNCTION_WORDS, PREPOSITIONS
from .matching import (
    Index,
    abbreviates,
    aligned,
    gerund,
    spells_an_acronym,
    unbound,
    value_found,
    weight,
    whole_word_in,
    word_found,
)
from .notes import Note, Word, zipf_of
from .report import Direction, FactAtRisk, FactKind, Findings
from .restated import body_value_in
from .values import NUMBER_WORDS, ordinal_value


def _best_restatement(note: Note, sentence: int, features: dict[str, float], body: Note,
                      body_index: Index) -> tuple[list[str], list[str], difflib.SequenceMatcher[str], int] | None:
    """The body sentence that reads most like this source sentence, content word by content word (None when
    none aligns)."""
    mine = [w.lemma for w in note.words_in(sentence)]
    best = None
    for target in aligned(features, body_index)[:3]:
        theirs = [w.lemma for w in body.words_in(target)]
        matcher = difflib.SequenceMatcher(a=mine, b=theirs, autojunk=True)  # (acts from 200 words on: a sentence
        # of repeated words stays near linear; shorter ones are compared exactly as before)
        if best is None or matcher.ratio() > best[2].ratio():
            best = (mine, theirs, matcher, target)
    return best


_VERB_BEFORE = frozenset("to will would can could should must may might do does did i we you they not".split())
LAST_TOKEN = re.compile(r"([^\W\d_]+)[^\w]*$")
_NEXT_TOKEN = re.compile(r"\s+([^\W\d_]+)")
_OBJECT_WORDS = frozenset("the a an my your our their his her its this that these those it them all every each".split())


def verb_use(word: Word, text: str) -> bool:
    """`lasted`, `uses`, `backups stay`, `to keep`: a verb. Choosing another verb, or leaving one out, rewords a
    sentence (its facts are its names, values and markers), while a noun, adjective or adverb (`severely`,
    `milk`) states something."""
    if not wordnet.has_verb_sense(word.lemma):
        return False
    if word.lower != word.lemma and word.lower.endswith(("ed", "ing", "s")):
        return True
    previous = LAST_TOKEN.search(text[max(0, word.start - 30):word.start])
    before = previous.group(1).casefold() if previous else ""
    if before in _VERB_BEFORE or (len(before) > 3 and before.endswith("s") and before not in FUNCTION_WORDS):
        return True
    line = text[:word.start].rsplit("\n", 1)[-1]
    opens = not line.strip(" \t-*+•>#\"“(") or line.rstrip().endswith((".", "!", "?", ":"))
    following = _NEXT_TOKEN.match(text, word.end)
    # an imperative opening a sentence, before its object: `Keep Ziggy's vivarium`, `Feed the fish`
    return opens and following is not None and (following.group(1).casefold() in _OBJECT_WORDS or
                                                following.group(1)[:1].isupper())


def _counted_compound(word: str, compound: str) -> bool:
    """`order` of `second-order`, `inch` of `3-inch`: the word with a number or an ordinal joined to it (the
    number is a value of its own)."""
    parts = compound.split("-")
    return len(parts) == 2 and parts[1] == word and (parts[0].isdigit() or parts[0] in NUMBER_WORDS or
                                                      ordinal_value(parts[0]) is not None)


def _one_word(a: str, b: str) -> bool:
    """Two lemmas that say one thing: synonyms, one the start of the other, or a derivation (`rehearse` /
    `rehearsal`)."""
    return wordnet.synonyms(a, b) or a.startswith(b) or b.startswith(a) or b in wordnet.derived_forms(a) or \
        a == "re" + b or b == "re" + a or \
        _counted_compound(a, b) or _counted_compound(b, a) or \
        (abbreviates(a, b) and zipf_of(min(a, b, key=len)) < 3.5) or (  # `qty` = `quantity`; `vegan` is none
            zipf_of(a) < 3.5 and abbreviates(a, gerund(b))) or (zipf_of(b) < 3.5 and abbreviates(b, gerund(a))) or (
            # `mtg` (meeting) = `meet`
            b in codes.names_of(a.upper()) or a in codes.names_of(b.upper()))  # `de` (`DE`) = `germany`


def substituted(number: int, note: Note, index: Index, body: Note, body_index: Index, sources: list[Index],
                 findings: Findings) -> None:
    """A content word swapped for another, dropped or added in a sentence that is otherwise the same
    (`sister` → `cousin`, `cat` → `guinea pig`, `severely allergic` → `allergic`): a changed fact, unless the
    two are synonyms or spellings of one word, or the word only moved (it is elsewhere in the other text)."""
    for sentence, features in enumerate(index.features):
        best = _best_restatement(note, sentence, features, body, body_index)
        if best is None or best[2].ratio() < 0.5:
            continue  # restructured: a rewording, judged by its facts
        mine, theirs, matcher, target = best
        verbs = {w.lemma for w in note.words_in(sentence) if verb_use(w, note.text)} | \
            {w.lemma for w in body.words_in(target) if verb_use(w, body.text)}
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "delete" and 2 < i2 - i1 <= 4:
                _dropped_phrase(number, note, sentence, mine[i1:i2], body_index, verbs, findings)
                continue
            if op == "equal" or i2 - i1 > 2 or j2 - j1 > 2:
                continue
            if op == "replace" and i2 - i1 == 1 and j2 - j1 == 1 and matcher.ratio() >= 0.6:
                # one word for another here, neither said elsewhere in the other sentence: `manages Ben` →
                # `manages Ana`, `is closed` → `is faster`, even when both words occur elsewhere in the notes
                mine_count, theirs_count = Counter(mine), Counter(theirs)
                local_old = [w for w in mine[i1:i2] if mine_count[w] > theirs_count[w] and w not in PREPOSITIONS]
                local_new = [w for w in theirs[j1:j2] if theirs_count[w] > mine_count[w] and w not in PREPOSITIONS]
                reworded = all(w in verbs for w in local_old + local_new) and not any(
                    wordnet.antonyms(a, b) for a in local_old for b in local_new)  # a verb chosen or restructured
                if local_old and local_new and not reworded and not any(
                        _one_word(a, b) for a in local_old for b in local_new) and not any(
                        "-" in a and whole_word_in(a.replace("-", " "), body_index.lower_text) for a in local_old):
                    findings.add(FactAtRisk(Direction.CHANGED, FactKind.WORD, " ".join(local_old), (number,), None,
                                            " ".join(local_new), None,
                                            f"{' '.join(local_old)!r} became {' '.join(local_new)!r} in a sentence "
                                            "otherwise the same"))
                    continue
            my_words = {w.lemma: w for w in note.words_in(sentence)}
            old = [w for w in mine[i1:i2] if w not in verbs and w not in PREPOSITIONS
                   and w not in body_index.lemmas and not whole_word_in(w, body_index.lower_text)
                   and not ("-" in w and whole_word_in(w.replace("-", " "), body_index.lower_text))  # `on call`
                   and not (w in my_words and word_found(my_words[w], body_index, features))]
            # a word put in is judged by the added-fact checks (terms, values, markers), not here: rewordings
            # put words in all the time ("rate", "phone number", "aim")
            new = [w for w in theirs[j1:j2] if w not in verbs and op == "replace" and w not in PREPOSITIONS
                   and not any(w in s.lemmas or whole_word_in(w, s.lower_text) for s in sources)]
            if not old and not new:
                continue
            if old and new:
                if any(_one_word(a, b) for a in old for b in new):
                    continue
            elif op != "replace" and matcher.ratio() < 0.75:
                continue  # a word left out or put in counts only where the rest is the same
            elif op == "replace" and not old:
                continue  # the word put in place of one the body still has elsewhere: a reordering
            old_text, new_text = " ".join(old), " ".join(new)
            direction = Direction.CHANGED if old and new else Direction.DROPPED if old else Direction.ADDED
            findings.add(FactAtRisk(direction, FactKind.WORD, old_text or new_text, (number,) if old else (), None,
                                    new_text or None, None,
                                    f"{old_text!r} became {new_text!r} in a sentence otherwise the same" if old and new
                                    else f"{(old_text or new_text)!r} {'left out of' if old else 'put in'} a sentence "
                                    "otherwise the same"))


LIST = re.compile(r"(?:[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2}\s*,\s*){1,}"
                   r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2},?\s+(?:and|or)\s+[^\W\d_][\w'’-]*")


def _dropped_phrase(number: int, note: Note, sentence: int, lemmas: list[str], body_index: Index, verbs: set[str],
                    findings: Findings) -> None:
    """A phrase left out of a sentence the body otherwise keeps (`contribution to the honeymoon fund`): its words
    that say something (not verbs, not the commonest words) are nowhere in the body."""
    words = {w.lemma: w for w in note.words_in(sentence)}
    lost = [lemma for lemma in lemmas if lemma not in verbs and lemma in words and words[lemma].zipf < 5.0
            and lemma not in body_index.lemmas and not whole_word_in(lemma, body_index.lower_text)]
    if len(lost) >= 2:
        findings.add(FactAtRisk(Direction.DROPPED, FactKind.PHRASE, " ".join(lost), (number,), None, None, None,
                                f"{' '.join(lost)!r} left out of a sentence the body otherwise keeps"))


def list_matches(note: Note) -> list[re.Match[str]]:
    """The enumerations of a note (`postgres, redis and kafka`), looked for only in the lines that have a comma
    (the pattern is costly on long texts); kept on the note."""
    cached: list[re.Match[str]] | None = getattr(note, "_lists", None)
    if cached is None:
        cached = []
        text = note.text
        at = text.find(",")
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            cached += LIST.finditer(text, start, end)
            at = text.find(",", end)
        note._lists = cached  # type: ignore[attr-defined]
    return cached


def modifiers(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """A word that qualifies the next one (`late father`, `severely allergic`, `acting manager`), left out where
    the body keeps the word it qualified, in the sentence that restates it."""
    note_lemmas: set[str] | None = None
    for sentence, features in enumerate(index.features):
        restating = aligned(features, body_index)[:2]
        if not restating:
            continue
        kept = {w.lemma for t in restating for w in body.words_in(t)}
        words = note.words_in(sentence)
        for word, head in itertools.pairwise(words):
            gap = note.text[word.end:head.start]
            if gap.strip(" -") or head.lemma not in kept or word.lemma in body_index.lemmas or word.term or \
                    word.lower in PREPOSITIONS:
                continue  # only a word right before the one it qualifies; terms are checked as terms; `through
                # GitHub` is a preposition's object
            if verb_use(word, note.text) or whole_word_in(word.lower, body_index.lower_text) or \
                    word_found(word, body_index, features):
                continue  # a verb, or said in other words (`large` = `big`)
            if word.lower == word.lemma and wordnet.has_verb_sense(word.lemma) and re.search(
                    r"(?:^|[:;(]|\n)\s*$", note.text[max(0, word.start - 40):word.start]):
                continue  # `Dry box: put aids in the dryer`: a clause opened by a verb, the imperative
            if not wordnet.can_modify(word.lemma):
                if note_lemmas is None:
                    note_lemmas = {w.lemma for w in note.words}  # (once per note: a long note asks it per word)
                _replaced_noun_modifier(number, note_lemmas, word, head, body, restating, findings)
                continue  # a noun before a noun (`hall cupboard`) counts only when another noun takes its place
            findings.add(FactAtRisk(Direction.DROPPED, FactKind.MODIFIER, f"{word.text} {head.text}", (number,),
                                    (word.start, head.end), None, None,
                                    f"{word.text!r} of {word.text + ' ' + head.text!r} is not in the body"))


def _replaced_noun_modifier(number: int, mine: set[str], word: Word, head: Word, body: Note, restating: list[int],
                            findings: Findings) -> None:
    """`hall cupboard` → `airing cupboard`: the head kept, another word the sources never use right before it
    (`mine`: the lemmas of the source note)."""
    for sentence in restating:
        words = body.words_in(sentence)
        for other, other_head in itertools.pairwise(words):
            if other_head.lemma == head.lemma and not body.text[other.end:other_head.start].strip(" -") and \
                    other.lemma not in mine and (other.lower.endswith("ing") or not verb_use(other, body.text)) and not (
                        other.lower == other.lemma and wordnet.has_verb_sense(other.lemma)):  # `, add fertiliser`
                findings.add(FactAtRisk(Direction.CHANGED, FactKind.MODIFIER, f"{word.text} {head.text}", (number,),
                                        (word.start, head.end), f"{other.text} {other_head.text}",
                                        (other.start, other_head.end),
                                        f"{word.text + ' ' + head.text!r} became {other.text + ' ' + other_head.text!r}"))
                return


_VALUE_WEIGHT = 3.0  # as in a sentence's features (matching.Index)


def uncovered(number: int, note: Note, index: Index, others: list[Index], findings: Findings,
               direction: Direction) -> None:
    """A sentence most of whose words are nowhere in the other text: dropped (or, for the body, added) whole,
    whatever its words' rarity (`Wen is vegetarian.`, `We use oak wood.`)."""
    for sentence, features in enumerate(index.features):
        if note.sentence_text(sentence).lstrip().startswith("#"):
            continue  # a markdown heading labels what follows; its facts are the lines under it
        words = {w.lemma: w for w in note.words_in(sentence)}
        # a body sentence's values count too: a terse restatement keeps the dates and amounts and rewords the rest
        # (a source sentence's only when it has two or more and every one is kept: a sentence dropped whole often
        # shares a date with one kept)
        amounts = [v for v, where in zip(note.values, note.value_sentence) if where == sentence and not v.implied]
        if direction is Direction.DROPPED and (len(amounts) < 2 or not all(
                value_found(v, other) or value_found(unbound(v), other) for v in amounts for other in others[:1])):
            amounts = []  # a terse line of values (`Shift: Mon–Thu 08:30–17:00`) is kept when all of them are
        total = sum(weight(w) for w in words.values()) + _VALUE_WEIGHT * len(amounts)
        if total < 2:
            continue
        kept = sum(weight(w) for w in words.values() if any(word_found(w, other, features) or (
            direction is Direction.ADDED and spells_an_acronym(note, w, other)) for other in others))
        kept += _VALUE_WEIGHT * sum(1 for v in amounts if any(  # as the lens finds an added value (`17:00` for `5`)
            body_value_in(v, note, other) if direction is Direction.ADDED else value_found(v, other) or
            value_found(unbound(v), other) for other in others))
        if kept / total < 0.5:
            text = note.sentence_text(sentence).strip()
            findings.add(FactAtRisk(direction, FactKind.SENTENCE, text, (number,) if direction is Direction.DROPPED else (),
                                    note.sentences[sentence] if direction is Direction.DROPPED else None,
                                    text if direction is Direction.ADDED else None,
                                    note.sentences[sentence] if direction is Direction.ADDED else None,
                                    f"most of {text[:60]!r} is " + ("not in the body" if direction is Direction.DROPPED
                                                                    else "in no source")))


__all__ = ["LAST_TOKEN", "LIST", "list_matches", "modifiers", "substituted", "uncovered",
           "verb_use"]
