"""The fact lens: what a merged body drops, adds or re-attaches, against its sources, in both directions.

A merge may recombine and reword; it may not invent, drop or re-attach. For sources S₁…Sₙ and body M:

- **dropped**: a value, term or marker a source states that M does not (a marker is looked for in the
  body sentences that restate the source sentence, so a "not" elsewhere in M does not keep it);
- **added**: a value, term or marker M states that no source does (in the source sentences M's sentence
  restates);
- **changed**: a dropped and an added fact of one kind in sentences that restate each other (`ten percent`
  → `twenty percent`, `enabled` → `disabled`: WordNet antonyms), a value now bound to another subject
  (staging and production ports swapped: the words around each value say whose it is), or two names that
  trade places around the same words (`Ana manages Ben` → `Ben manages Ana`).

Same meaning is the same fact, and the report says what it equated: values by their normal form
(values.py), words by lemma, by a WordNet synonym, or by spelling (`Postgres` / `PostgreSQL`).
Pure: strings in, a frozen report out.
"""
from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable, Sequence

from . import markers_said, wordnet
from .agents import agent_changed
from .association import crossed
from .binding import attribute_moved, reattached, rebound, swapped
from .lexicon import MarkerClass
from .matching import (
    Index,
    aligned,
    spells_an_acronym,
    stem,
    unbound,
    value_found,
    whole_word_in,
    word_found,
)
from .notes import Marker, Note, clean_text, lemma_of, read_note, read_note_cached, sentence_spans
from .polarity import negation_moved
from .report import Direction, Equated, Equivalence, FactAtRisk, FactKind, FactReport, Findings
from .restated import body_value_in, number_in_a_name, source_value_in
from .sentences import modifiers, substituted, uncovered
from .steps import reordered_steps
from .tense import changed_tense
from .value_types import ValueKind


def check_facts(source_bodies: Sequence[str | None], merged_body: str | None) -> FactReport:
    """Every fact of every source kept, nothing added, nothing re-attached?

    A sentence the body copies word for word from a source is kept whole and adds nothing, so only the
    sentences a merge changed are compared (their facts are still looked for in the whole of the other side,
    read only when there is something to look for): the live re-check of a long body, mostly copied, reads
    what the reviewer changed."""
    source_texts = [clean_text(body or "") for body in source_bodies]
    body_text = clean_text(merged_body or "")
    copied_from_body = _sentence_texts([body_text])
    copied_from_sources = _sentence_texts(source_texts)
    sources = [read_note_cached(_blanked(text, copied_from_body)) for text in source_texts]
    changed_body_text = _blanked(body_text, copied_from_sources)
    changed_body = read_note(changed_body_text)
    body = read_note(body_text) if changed_body_text != body_text and any(map(_states_something, sources)) \
        else changed_body  # the whole body only when a changed source sentence has facts to look for in it
    full_sources = [read_note_cached(text) if note.text != text and _states_something(changed_body) else note
                    for note, text in zip(sources, source_texts)]  # likewise the whole sources
    names = {w.lower for note in (*full_sources, body) for w in note.words if w.term and w.text[:1].isupper()}
    # one named note per reading: a side read once stays one object, so its index is built once
    read_whole = [full is not note for note, full in zip(sources, full_sources)]
    sources = [_with_names(note, names) for note in sources]
    full_sources = [_with_names(full, names) if whole else note
                    for note, full, whole in zip(sources, full_sources, read_whole)]
    whole_body_read = body is not changed_body
    changed_body = _with_names(changed_body, names)
    body = _with_names(body, names) if whole_body_read else changed_body
    body_index = Index(body)
    changed_body_index = body_index if changed_body is body else Index(changed_body)
    source_indexes = [Index(note) for note in sources]
    full_indexes = [index if note is full else Index(full)
                    for note, index, full in zip(sources, source_indexes, full_sources)]
    findings = Findings()
    checked = 0
    for number, (note, index) in enumerate(zip(sources, source_indexes)):
        checked += _dropped(number, note, index, body, body_index, findings)
    checked += _added(changed_body, changed_body_index, full_sources, full_indexes, findings)
    _pair_changes(findings, sources, source_indexes, body, body_index)
    for number, note in enumerate(sources):
        uncovered(number, note, source_indexes[number], [body_index], findings, Direction.DROPPED)
    uncovered(-1, changed_body, changed_body_index, full_indexes, findings, Direction.ADDED)
    for number, note in enumerate(sources):
        substituted(number, note, source_indexes[number], body, body_index, full_indexes, findings)
        modifiers(number, note, source_indexes[number], body, body_index, findings)
        rebound(number, note, body, findings)
        attribute_moved(number, note, body, findings)
        swapped(number, note, source_indexes[number], body, body_index, findings)
        changed_tense(number, note, source_indexes[number], body, body_index, findings)
        reordered_steps(number, note, body, findings)
        negation_moved(number, note, source_indexes[number], body, body_index, findings)
    crossed(full_sources, changed_body, findings)
    reattached(full_sources, body, findings)
    agent_changed(full_sources, body, findings)
    items = _unique(findings.items)
    return FactReport(not items, tuple(items), checked, tuple(findings.equated.values()))


def _states_something(note: Note) -> bool:
    return bool(note.words or note.values or note.markers)


def _sentence_texts(texts: Sequence[str]) -> set[str]:
    return {" ".join(text[start:end].split()) for text in texts for start, end in sentence_spans(text)}


def _blanked(text: str, copied: set[str]) -> str:
    """The text with every sentence found word for word on the other side blanked out (offsets kept, so every
    span still points into the original text)."""
    blanks = [(start, end) for start, end in sentence_spans(text) if " ".join(text[start:end].split()) in copied]
    if not blanks:
        return text
    pieces, at = [], 0
    for start, end in blanks:  # a sentence holds no line break (sentence_spans), so spaces keep the lines too
        pieces += [text[at:start], " " * (end - start)]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _with_names(note: Note, names: set[str]) -> Note:
    """`Grace` opening a sentence is the name `Grace` written inside one elsewhere, not the word "grace"."""
    if not any(not w.term and w.lower in names and w.text[:1].isupper() for w in note.words):
        return note
    words = [dataclasses.replace(w, term=True) if not w.term and w.lower in names and w.text[:1].isupper() else w
             for w in note.words]
    return dataclasses.replace(note, words=words, _by_sentence=None, _by_clause=None, _word_starts=None)


def _unique(items: Iterable[FactAtRisk]) -> list[FactAtRisk]:
    seen: dict[tuple[str, str, str, str], FactAtRisk] = {}
    for item in items:
        key = (item.direction, item.kind, item.token.casefold(), (item.body_token or "").casefold())
        if key in seen:
            old = seen[key]
            seen[key] = FactAtRisk(old.direction, old.kind, old.token, tuple(sorted(set(old.sources + item.sources))),
                                   old.source_span, old.body_token, old.body_span, old.why)
        else:
            seen[key] = item
    items = list(seen.values())
    # one fact counted once: a changed fact is not also dropped by another source, nor a changed word again
    changed = {i.token.casefold() for i in items if i.direction is Direction.CHANGED and i.kind not in (FactKind.WORD, FactKind.SENTENCE)}
    named = changed
    return [i for i in items
            if not (i.direction is Direction.DROPPED and i.kind is not FactKind.SENTENCE and i.token.casefold() in changed)
            and not (i.kind is FactKind.SENTENCE and any(whole_word_in(c, i.token.casefold()) for c in changed))
            and not (i.kind is FactKind.WORD and any(lemma_of(t) in {lemma_of(n) for n in named}
                                              for t in i.token.casefold().split()))]


def _dropped(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> int:
    values, terms = [v for v in note.values if not v.implied], [w for w in note.words if w.term]
    for value in values:
        found = source_value_in(value, note, body_index, index)
        loose = value_found(unbound(value), body_index) if found is None else None
        if found is None and loose is not None:
            findings.add(FactAtRisk(Direction.CHANGED, FactKind.BOUND, value.text, (number,), (value.start, value.end), loose.text,
                                    (loose.start, loose.end), f"{value.text!r} became {loose.text!r}: its bound changed"))
        elif found is None:
            findings.add(FactAtRisk(Direction.DROPPED, FactKind(value.kind), value.text, (number,), (value.start, value.end), None, None,
                                    f"{value.text!r} of source {number + 1} is not in the body"))
        else:
            findings.equate(value.text, found.text, Equivalence.SAME_VALUE)
    for word in terms:
        hit = word_found(word, body_index, index.features[word.sentence])
        if hit is None:
            findings.add(FactAtRisk(Direction.DROPPED, FactKind.TERM, word.text, (number,), (word.start, word.end), None, None,
                                    f"{word.text!r} of source {number + 1} is not in the body"))
        else:
            findings.equate(word.text, *hit)
    return len(values) + len(terms) + _markers(note, index, body, body_index, findings, number)


def _markers(note: Note, index: Index, other: Note, other_index: Index, findings: Findings,
             number: int) -> int:
    """Markers of source `number` missing from the body's sentences that restate theirs."""
    checked = 0
    for marker in note.markers:
        checked += 1
        if any(said(note, marker) for said in (markers_said.glues_a_range, markers_said.both_and,
                                                markers_said.negates_a_bound)):
            continue
        features = index.features[marker.sentence]
        # a sentence of markers only ("No.") restates whatever the other says: look in all of it
        restating = aligned(features, other_index, loose=True) if features else list(
            other_index.markers_by_sentence)
        if any(marker.key in other_index.markers_by_sentence.get(s, ()) for s in restating):
            continue
        if " " not in marker.text and any(re.search(rf"(?i)\b{re.escape(marker.text)}-[^\W\d_]|[^\W\d_]-"
                                                    rf"{re.escape(marker.text)}\b", other_index.note.sentence_text(s))
                                          for s in restating):
            continue  # `a ride after work` = `an after-work ride`: the word inside a compound
        if marker.text.casefold() == "but not" and any(
                (MarkerClass.NEGATION, "not") in other_index.markers_by_sentence.get(s, ()) for s in restating):
            continue  # `fish but not shellfish` = `shellfish is off the menu, fish is fine`
        if marker.cls == MarkerClass.MODALITY and marker.value in _PERMISSION and _negated(note, marker) and any(
                (MarkerClass.NEGATION, "not") in other_index.markers_by_sentence.get(s, ()) for s in restating):
            continue  # `isn't allowed` where the other writes `is not allowed` or `don't`: one prohibition
        if marker.cls == MarkerClass.FREQUENCY and any(v.kind == ValueKind.FREQUENCY and s in restating for v, s in zip(
                other_index.note.values, other_index.note.value_sentence)):
            continue  # "every so often" where the other says how often: "roughly once a week"
        findings.add(FactAtRisk(Direction.DROPPED, FactKind(marker.cls), marker.text, (number,),
                                (marker.start, marker.end), None, None,
                                f"{marker.text!r} ({marker.cls}) of source {number + 1} is not in the body's "
                                "sentence that restates it"))
    return checked


def _added(body: Note, body_index: Index, sources: list[Note], source_indexes: list[Index],
           findings: Findings) -> int:
    values, terms = [v for v in body.values if not v.implied], [w for w in body.words if w.term]
    for value in values:
        if not any(body_value_in(value, body, index) for index in source_indexes) \
                and not number_in_a_name(body, value, sources):
            findings.add(FactAtRisk(Direction.ADDED, FactKind(value.kind), value.text, (), None, value.text, (value.start, value.end),
                                    f"{value.text!r} of the body is in no source"))
    for word in terms:
        if not any(word_found(word, index, body_index.features[word.sentence]) for index in source_indexes) and \
                not any(spells_an_acronym(body, word, index) for index in source_indexes):
            findings.add(FactAtRisk(Direction.ADDED, FactKind.TERM, word.text, (), None, word.text, (word.start, word.end),
                                    f"{word.text!r} of the body is in no source"))
    merged_sources = _MergedIndex(source_indexes)
    for marker in body.markers:
        if markers_said.glues_a_range(body, marker) or markers_said.negates_a_bound(body, marker):
            continue
        features = body_index.features[marker.sentence]
        if not merged_sources.has_marker_near(features, marker) and \
                not merged_sources.has_marker_near(_clause_features(body, body_index, marker.clause), marker) and \
                merged_sources.aligned_any(features) and \
                not merged_sources.implies(features, marker):
            findings.add(FactAtRisk(Direction.ADDED, FactKind(marker.cls), marker.text, (), None, marker.text,
                                    (marker.start, marker.end),
                                    f"{marker.text!r} ({marker.cls}) of the body is not in the sources' "
                                    "sentences it restates"))
    return len(values) + len(terms) + len(body.markers)


def _clause_features(note: Note, index: Index, clause: int) -> dict[str, float]:
    """A clause's own share of its sentence's features: a marker in a long sentence that merges several notes
    (`retention is 90 days and compression is turned on`) is looked for where its clause came from."""
    if not 0 <= clause < len(note.clauses):
        return {}
    words = note.words_in_clause(clause)
    if not words:
        return {}
    features = index.features[words[0].sentence]
    lemmas = {w.lemma for w in words} | {"~" + stem(w.lemma) for w in words}
    start, end = note.clauses[clause]
    keys = {key for value in note.values if start <= value.start < end for key in value.keys}
    return {f: weight for f, weight in features.items() if f in lemmas or f in keys}


class _MergedIndex:
    def __init__(self, indexes: list[Index]):
        self.indexes = indexes

    def aligned_any(self, features: dict[str, float]) -> bool:
        return any(aligned(features, index) for index in self.indexes)

    def implies(self, features: dict[str, float], marker: Marker) -> bool:
        """The sources' restated sentences say it without the word: an obligation a verbless note leaves implied
        (`Tyre pressures: 32 psi` → `should be at 32 psi`, `Rent due 1st` → `has to be paid by the 1st`), a pair."""
        for index in self.indexes:
            for sentence in aligned(features, index, loose=True):
                if marker.cls == MarkerClass.MODALITY and marker.value in _OBLIGATION and (
                        not _has_verb(index.note, sentence) or _imperative(index.note, sentence)):
                    return True  # `Bring a dish` = `we should bring a dish`
                if markers_said.pair_restated(marker, [index.note.sentence_text(sentence)]):
                    return True
                if marker.value == "plus" and re.search(r"\+|\band\b|\balso\b|\bwith\b",
                                                        index.note.sentence_text(sentence)) and \
                        not re.search(r"\bof (?:that|it|this|which)\b|\bincl", index.note.sentence_text(sentence)):
                    return True  # `Sam + both kids` = `Sam plus both kids`; not `$80 of that` → `plus $80`
        return False

    def has_marker_near(self, features: dict[str, float], marker: Marker) -> bool:
        for index in self.indexes:
            for sentence in aligned(features, index, loose=True):
                if marker.key in index.markers_by_sentence.get(sentence, ()):
                    return True
        return False


_PERMISSION = frozenset({"may", "can"})
def _negated(note: Note, marker: Marker) -> bool:
    """A negation of the marker: before it in its clause (`isn't allowed`) or right after it (`may not`); not the
    `without` of `allowed without a fee`, which negates the fee."""
    return any(m.cls == MarkerClass.NEGATION and m.clause == marker.clause and
               (m.end <= marker.start or (m.start >= marker.end and m.start - marker.end <= 1 and m.text != "without"))
               for m in note.markers)


_OBLIGATION = frozenset({"must", "should"})
_FINITE = frozenset("is are was were am be been has have had do does did will would can could shall may might "
                    "must should need needs".split())


def _has_verb(note: Note, sentence: int) -> bool:
    """The sentence has a finite verb or an auxiliary (a note line like `Tyre pressures: 32 front` has none)."""
    text = _CLOCK_AM.sub(" ", note.sentence_text(sentence).casefold())  # the `am` of `9am` is no verb
    # `paid`, `booked` are finite; `fasting from midnight` is not, without an auxiliary
    return any(word in _FINITE or word.endswith("n't") for word in re.findall(r"[a-z']+", text)) or any(
        w.lower != w.lemma and not w.lower.endswith(("s", "ing")) and wordnet.has_verb_sense(w.lemma)
        for w in note.words_in(sentence))


def _imperative(note: Note, sentence: int) -> bool:
    """A clause of the sentence opens with a verb in its base form (`Bring a dish; cake by May`): an instruction,
    which says `should` without the word."""
    start, end = note.sentences[sentence]
    for clause_start, _ in note.clauses:
        if start <= clause_start < end:
            first = next((w for w in note.words_in(sentence) if w.start >= clause_start), None)
            if first is not None and first.start == clause_start and first.lower == first.lemma and \
                    wordnet.has_verb_sense(first.lemma) and not wordnet.names_a_person(first.lemma):
                return True
    return False


_CLOCK_AM = re.compile(r"(?<=\d)\s*a\.?m\b\.?")


def _sentence_at(note: Note, span: tuple[int, int] | None) -> int | None:
    if span is None:
        return None
    return max(0, bisect.bisect_right([start for start, _ in note.sentences], span[0]) - 1)


def _pair_changes(findings: Findings, sources: list[Note], source_indexes: list[Index], body: Note,
                  body_index: Index) -> None:
    """A dropped and an added fact of one kind, in sentences that restate each other, become one change:
    `ten percent` → `twenty percent`."""
    dropped = [i for i, f in enumerate(findings.items) if f.direction is Direction.DROPPED]
    added = [i for i, f in enumerate(findings.items) if f.direction is Direction.ADDED]
    used: set[int] = set()
    merged: list[FactAtRisk] = []
    for d in dropped:
        old = findings.items[d]
        number = old.sources[0] if old.sources and 0 <= old.sources[0] < len(sources) else None
        note = sources[number] if number is not None else None
        where = _sentence_at(note, old.source_span) if note is not None else None
        restating = set(aligned(source_indexes[number].features[where], body_index)) \
            if where is not None and number is not None else set()
        for a in added:
            new = findings.items[a]
            if a in used or new.kind != old.kind or _sentence_at(body, new.body_span) not in restating or \
                    _dimension(sources, old) != _dimension([body], new, body_side=True):
                continue
            used.add(a)
            used.add(d)
            why = f"{old.token!r} became {new.body_token!r}"
            if old.kind is FactKind.TERM and wordnet.antonyms(lemma_of(old.token.casefold()),
                                                              lemma_of((new.body_token or "").casefold())):
                why += " (opposite meaning)"
            merged.append(FactAtRisk(Direction.CHANGED, old.kind, old.token, old.sources, old.source_span, new.body_token,
                                     new.body_span, why))
            break
    findings.items = [f for i, f in enumerate(findings.items) if i not in used] + merged


def _dimension(notes: list[Note], item: FactAtRisk, body_side: bool = False) -> str:
    """What the value of an item measures (`2 GB` is data, `47 minutes` a duration); "" for a word."""
    note = notes[0] if body_side else (notes[item.sources[0]] if item.sources and 0 <= item.sources[0] < len(notes)
                                       else None)
    span = item.body_span if body_side else item.source_span
    if note is None or span is None:
        return ""
    for value in note.values:
        if value.start == span[0]:
            return value.dimension.split(":")[0] if value.dimension.startswith("count") else value.dimension
    return ""


__all__ = ["Equated", "FactAtRisk", "FactReport", "check_facts"]
