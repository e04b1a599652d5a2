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

from dataclasses import dataclass
from typing import Iterable, Sequence

from . import wordnet
from .notes import Marker, Note, Word, read_note
from .values import Value


@dataclass(frozen=True)
class FactAtRisk:
    direction: str  # "dropped" | "added" | "changed"
    kind: str  # the value kind (date, money, …), "term", or the marker class (negation, frequency, …)
    token: str  # as the source wrote it; for "added", as the body wrote it
    sources: tuple[int, ...]  # the sources it comes from (empty for "added")
    source_span: tuple[int, int] | None  # in the first of `sources`
    body_token: str | None  # for "added" and "changed": the body's words
    body_span: tuple[int, int] | None
    why: str  # one line for the reviewer

    def to_dict(self) -> dict:
        return {"token": self.token, "kind": self.kind, "sources": list(self.sources), "direction": self.direction,
                "source_span": list(self.source_span) if self.source_span else None,
                "body_token": self.body_token, "body_span": list(self.body_span) if self.body_span else None,
                "why": self.why}


@dataclass(frozen=True)
class Equated:
    source: str
    body: str
    rule: str  # "same value", "lemma", "synonym", "spelling"

    def to_dict(self) -> dict:
        return {"source": self.source, "body": self.body, "rule": self.rule}


@dataclass(frozen=True)
class FactReport:
    passed: bool
    at_risk: tuple[FactAtRisk, ...]
    checked: int
    equated: tuple[Equated, ...]


# ---- matching one fact in another note -------------------------------------------------------------------

class _Index:
    """What a note holds, for fast look-ups: value keys, lemmas, words, synsets, sentence features."""

    def __init__(self, note: Note):
        self.note = note
        self.keys: dict[str, list[int]] = {}
        for i, value in enumerate(note.values):
            for key in _match_keys(value):
                self.keys.setdefault(key, []).append(i)
        self.lemmas: dict[str, Word] = {}
        self.lowers: set[str] = set()
        for word in note.words:
            self.lemmas.setdefault(word.lemma, word)
            self.lowers.add(word.lower)
        self.lower_text = note.text.casefold()
        self.markers_by_sentence: dict[int, set[tuple[str, str]]] = {}
        for marker in note.markers:
            self.markers_by_sentence.setdefault(marker.sentence, set()).add(marker.key)
        self.features = [dict[str, float]() for _ in note.sentences]
        for word in note.words:
            self.features[word.sentence][word.lemma] = _weight(word)
        for value, sentence in zip(note.values, note.value_sentence):
            for key in value.keys:
                self.features[sentence][key] = 3.0
        self.postings: dict[str, list[int]] = {}
        for index, features in enumerate(self.features):
            for feature in features:
                self.postings.setdefault(feature, []).append(index)
        self._synsets: set[int] | None = None

    def synsets(self) -> set[int]:
        if self._synsets is None:
            tables = wordnet.tables()
            self._synsets = set()
            for lemma in self.lemmas:
                self._synsets |= tables.synsets.get(lemma, frozenset())
        return self._synsets


def _weight(word: Word) -> float:
    return min(5.0, max(1.0, 7.0 - word.zipf))


def _match_keys(value: Value) -> set[str]:
    """A value's keys plus the year-less form of a full date, so `14 July` finds `2026-07-14`."""
    keys = set(value.keys)
    for key in value.keys:
        if key.startswith("date:") and len(key) == 15 and not key.startswith("date:????"):
            keys.add("date:????" + key[9:])
    return keys


_WORDLIKE_KINDS = frozenset({"all_caps", "camel_case", "snake_case", "kebab_case", "dotted_identifier", "url", "path",
                             "email", "channel", "file_path", "version"})


def _value_found(value: Value, other: _Index) -> Value | None:
    for key in value.keys:
        if key in other.keys:
            return other.note.values[other.keys[key][0]]
    if value.kind in _WORDLIKE_KINDS and _whole_word_in(value.text.casefold(), other.lower_text):
        return value  # `POOL` in a note that writes `pool`, an identifier inside a longer one
    return None


def _word_found(word: Word, other: _Index) -> tuple[str, str] | None:
    """(the other note's word, rule) when `word` is there: same lemma, a WordNet synonym, or a spelling."""
    if word.lemma in other.lemmas:
        found = other.lemmas[word.lemma]
        return (found.text, "lemma") if found.lower != word.lower else (found.text, "same")
    if word.lower in other.lowers:
        return word.text, "same"
    if _whole_word_in(word.lower, other.lower_text):
        return word.text, "same"  # inside an identifier or a value: `numpy` of `numpy==1.26`
    synsets = wordnet.tables().synsets.get(word.lemma)
    if synsets and synsets & other.synsets():
        for lemma, found in other.lemmas.items():
            if wordnet.synonyms(word.lemma, lemma):
                return found.text, "synonym"
    if len(word.lower) >= 5:
        for lemma, found in other.lemmas.items():
            if len(lemma) >= 5 and (lemma.startswith(word.lemma) or word.lemma.startswith(lemma)) and \
                    min(len(lemma), len(word.lemma)) >= 0.6 * max(len(lemma), len(word.lemma)):
                return found.text, "spelling"
    return None


def _whole_word_in(needle: str, haystack: str) -> bool:
    at = haystack.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or not haystack[at - 1].isalnum()) and (end == len(haystack) or not haystack[end].isalnum()):
            return True
        at = haystack.find(needle, at + 1)
    return False


# ---- aligning sentences -----------------------------------------------------------------------------------

def _aligned(features: dict[str, float], other: _Index) -> list[int]:
    """The other note's sentences that restate a sentence with these features (best first)."""
    total = sum(features.values())
    if not total:
        return []
    scores: dict[int, float] = {}
    for feature, weight in features.items():
        posting = other.postings.get(feature, ())
        if len(posting) > 400:
            continue  # a word in hundreds of sentences aligns nothing
        for index in posting:
            scores[index] = scores.get(index, 0.0) + weight
    if not scores:
        return []
    best = max(scores.values())
    if best / total < 0.2:
        return []
    return sorted((i for i, s in scores.items() if s >= max(0.2 * total, 0.5 * best)), key=lambda i: -scores[i])


# ---- the comparison ----------------------------------------------------------------------------------------

class _Findings:
    def __init__(self) -> None:
        self.items: list[FactAtRisk] = []
        self.equated: dict[tuple[str, str], Equated] = {}

    def add(self, item: FactAtRisk) -> None:
        self.items.append(item)

    def equate(self, source: str, body: str, rule: str) -> None:
        if source.casefold() != body.casefold() and rule != "same":
            self.equated.setdefault((source.casefold(), body.casefold()), Equated(source, body, rule))


def check_facts(source_bodies: Sequence[str | None], merged_body: str | None) -> FactReport:
    """Every fact of every source kept, nothing added, nothing re-attached?"""
    sources = [read_note(body or "") for body in source_bodies]
    body = read_note(merged_body or "")
    body_index = _Index(body)
    source_indexes = [_Index(note) for note in sources]
    findings = _Findings()
    checked = 0
    for number, (note, index) in enumerate(zip(sources, source_indexes)):
        checked += _dropped(number, note, index, body, body_index, findings)
    checked += _added(body, body_index, sources, source_indexes, findings)
    _pair_changes(findings, sources, body)
    for number, note in enumerate(sources):
        _rebound(number, note, body, findings)
        _swapped(number, note, source_indexes[number], body, body_index, findings)
    items = _unique(findings.items)
    return FactReport(not items, tuple(items), checked, tuple(findings.equated.values()))


def _unique(items: Iterable[FactAtRisk]) -> list[FactAtRisk]:
    seen: dict[tuple, FactAtRisk] = {}
    for item in items:
        key = (item.direction, item.kind, item.token.casefold(), (item.body_token or "").casefold())
        if key in seen:
            old = seen[key]
            seen[key] = FactAtRisk(old.direction, old.kind, old.token, tuple(sorted(set(old.sources + item.sources))),
                                   old.source_span, old.body_token, old.body_span, old.why)
        else:
            seen[key] = item
    return list(seen.values())


def _dropped(number: int, note: Note, index: _Index, body: Note, body_index: _Index, findings: _Findings) -> int:
    checked = 0
    for value in note.values:
        checked += 1
        found = _value_found(value, body_index)
        if found is None:
            findings.add(FactAtRisk("dropped", value.kind, value.text, (number,), (value.start, value.end), None, None,
                                    f"{value.text!r} of source {number + 1} is not in the body"))
        else:
            findings.equate(value.text, found.text, "same value")
    for word in note.words:
        if not word.term:
            continue
        checked += 1
        hit = _word_found(word, body_index)
        if hit is None:
            findings.add(FactAtRisk("dropped", "term", word.text, (number,), (word.start, word.end), None, None,
                                    f"{word.text!r} of source {number + 1} is not in the body"))
        else:
            findings.equate(word.text, *hit)
    checked += _markers(note, index, body, body_index, findings, number)
    return checked


def _markers(note: Note, index: _Index, other: Note, other_index: _Index, findings: _Findings,
             number: int | None) -> int:
    """Markers of `note` (a source when `number` is set, else the body) missing from the sentences of
    `other` that restate theirs."""
    checked = 0
    for marker in note.markers:
        checked += 1
        aligned = _aligned(index.features[marker.sentence], other_index)
        if any(marker.key in other_index.markers_by_sentence.get(s, ()) for s in aligned):
            continue
        if not aligned and number is None:
            continue  # a body sentence that restates nothing: its terms and values say what it adds
        where = f"source {number + 1}" if number is not None else "the body"
        direction = "dropped" if number is not None else "added"
        span = (marker.start, marker.end)
        text = f"{marker.text!r} ({marker.cls}) of {where} is not in " + (
            "the body's sentence that restates it" if number is not None else "the sources' sentences it restates")
        if number is not None:
            findings.add(FactAtRisk(direction, marker.cls, marker.text, (number,), span, None, None, text))
        else:
            findings.add(FactAtRisk(direction, marker.cls, marker.text, (), None, marker.text, span, text))
    return checked


def _added(body: Note, body_index: _Index, sources: list[Note], source_indexes: list[_Index],
           findings: _Findings) -> int:
    checked = 0
    for value in body.values:
        checked += 1
        if not any(_value_found(value, index) for index in source_indexes):
            findings.add(FactAtRisk("added", value.kind, value.text, (), None, value.text, (value.start, value.end),
                                    f"{value.text!r} of the body is in no source"))
    for word in body.words:
        if not word.term:
            continue
        checked += 1
        if not any(_word_found(word, index) for index in source_indexes):
            findings.add(FactAtRisk("added", "term", word.text, (), None, word.text, (word.start, word.end),
                                    f"{word.text!r} of the body is in no source"))
    for number, (note, index) in enumerate(zip(sources, source_indexes)):
        pass  # markers are checked against all sources together below
    merged_sources = _MergedIndex(source_indexes)
    for marker in body.markers:
        checked += 1
        features = body_index.features[marker.sentence]
        if not merged_sources.has_marker_near(features, marker):
            if merged_sources.aligned_any(features):
                findings.add(FactAtRisk("added", marker.cls, marker.text, (), None, marker.text,
                                        (marker.start, marker.end),
                                        f"{marker.text!r} ({marker.cls}) of the body is not in the sources' "
                                        "sentences it restates"))
    return checked


class _MergedIndex:
    def __init__(self, indexes: list[_Index]):
        self.indexes = indexes

    def aligned_any(self, features: dict[str, float]) -> bool:
        return any(_aligned(features, index) for index in self.indexes)

    def has_marker_near(self, features: dict[str, float], marker: Marker) -> bool:
        for index in self.indexes:
            for sentence in _aligned(features, index):
                if marker.key in index.markers_by_sentence.get(sentence, ()):
                    return True
        return False


def _pair_changes(findings: _Findings, sources: list[Note], body: Note) -> None:
    """A dropped and an added fact of one kind become one change: `ten percent` → `twenty percent`."""
    dropped = [i for i, f in enumerate(findings.items) if f.direction == "dropped"]
    added = [i for i, f in enumerate(findings.items) if f.direction == "added"]
    used: set[int] = set()
    merged: list[FactAtRisk] = []
    for d in dropped:
        old = findings.items[d]
        for a in added:
            new = findings.items[a]
            if a in used or new.kind != old.kind:
                continue
            used.add(a)
            used.add(d)
            why = f"{old.token!r} became {new.body_token!r}"
            if old.kind == "term" and wordnet.antonyms(_lemma(old.token), _lemma(new.body_token or "")):
                why += " (opposite meaning)"
            merged.append(FactAtRisk("changed", old.kind, old.token, old.sources, old.source_span, new.body_token,
                                     new.body_span, why))
            break
    findings.items = [f for i, f in enumerate(findings.items) if i not in used] + merged
    _antonyms(findings, sources, body)


def _lemma(text: str) -> str:
    from .notes import lemma_of
    return lemma_of(text.casefold())


def _antonyms(findings: _Findings, sources: list[Note], body: Note) -> None:
    """A common word replaced by its opposite in a sentence that restates it (`enabled` → `disabled`)."""
    body_index = _Index(body)
    for number, note in enumerate(sources):
        index = _Index(note)
        for sentence, features in enumerate(index.features):
            for target in _aligned(features, body_index)[:1]:
                mine = {w.lemma: w for w in note.words if w.sentence == sentence}
                theirs = {w.lemma: w for w in body.words if w.sentence == target}
                for lemma, word in mine.items():
                    if lemma in theirs or not wordnet.has_antonym(lemma):
                        continue
                    for other, new in theirs.items():
                        if other not in mine and wordnet.antonyms(lemma, other):
                            findings.add(FactAtRisk("changed", "antonym", word.text, (number,), (word.start, word.end),
                                                    new.text, (new.start, new.end),
                                                    f"{word.text!r} became its opposite {new.text!r}"))


def _context(note: Note, clause: int) -> set[str]:
    return {w.lemma for w in note.words if w.clause == clause}


def _rebound(number: int, note: Note, body: Note, findings: _Findings) -> None:
    """A value the body keeps but binds to another subject: the words of its clause in the body belong to
    another value of the same dimension in the source, and not to this one."""
    by_dimension: dict[str, list[int]] = {}
    for i, value in enumerate(note.values):
        by_dimension.setdefault(value.dimension, []).append(i)
    for i, value in enumerate(note.values):
        rivals = [j for j in by_dimension[value.dimension] if j != i and not (note.values[j].keys & value.keys)]
        if not rivals:
            continue
        own = _context(note, note.value_clause[i])
        rival_words = set().union(*(_context(note, note.value_clause[j]) for j in rivals)) - own
        if not rival_words:
            continue
        for b, other in enumerate(body.values):
            if not (other.keys & value.keys):
                continue
            around = _context(body, body.value_clause[b])
            stolen = sorted(around & rival_words)
            if stolen and not (around & own - _shared_context(note, i, rivals)) and \
                    _crossed(note, body, rivals, own - _shared_context(note, i, rivals)):
                findings.add(FactAtRisk("changed", "binding", value.text, (number,), (value.start, value.end),
                                        other.text, (other.start, other.end),
                                        f"{value.text!r} is now said of {', '.join(stolen)!s}"))
                break


def _crossed(note: Note, body: Note, rivals: list[int], own: set[str]) -> bool:
    """A rival value now sits among this value's own words: the two traded subjects (not a rewording)."""
    for j in rivals:
        for b, other in enumerate(body.values):
            if other.keys & note.values[j].keys and _context(body, body.value_clause[b]) & own:
                return True
    return False


def _shared_context(note: Note, i: int, rivals: list[int]) -> set[str]:
    return set().union(*(_context(note, note.value_clause[j]) for j in rivals)) & _context(note, note.value_clause[i])


def _swapped(number: int, note: Note, index: _Index, body: Note, body_index: _Index, findings: _Findings) -> None:
    """Two terms that trade places around the same words: `Ana manages Ben` → `Ben manages Ana`."""
    for sentence, features in enumerate(index.features):
        aligned = _aligned(features, body_index)[:1]
        if not aligned:
            continue
        mine = [w for w in note.words if w.sentence == sentence]
        theirs = [w for w in body.words if w.sentence == aligned[0]]
        position = {w.lemma: k for k, w in enumerate(theirs)}
        for a in range(len(mine)):
            for b in range(a + 1, min(len(mine), a + 4)):
                x, y = mine[a], mine[b]
                if not (x.term and y.term) or x.lemma == y.lemma:
                    continue
                if x.lemma in position and y.lemma in position and position[y.lemma] < position[x.lemma]:
                    between_src = [w.lemma for w in mine[a + 1:b]]
                    between_body = [w.lemma for w in theirs[position[y.lemma] + 1:position[x.lemma]]]
                    if between_src == between_body:
                        findings.add(FactAtRisk("changed", "binding", f"{x.text} … {y.text}", (number,),
                                                (x.start, y.end), f"{y.text} … {x.text}", None,
                                                f"{x.text!r} and {y.text!r} traded places"))


__all__ = ["Equated", "FactAtRisk", "FactReport", "check_facts"]
