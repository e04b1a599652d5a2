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
import difflib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from . import wordnet
from .lexicon import FUNCTION_WORDS
from .notes import Marker, Note, Word, lemma_of, read_note, read_note_cached, zipf_of
from .values import Value, strip_bound


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

    def describe(self, width: int = 28) -> str:
        """One short phrase for the reviewer: `Postgres → MySQL (term)`, `+never (negation, added)`."""
        def short(text: str) -> str:
            return text if len(text) <= width else text[: width - 1] + "…"
        if self.direction == "changed" and self.body_token:
            return f"{short(self.token)} → {short(self.body_token)} ({self.kind})"
        if self.direction == "added":
            return f"+{short(self.body_token or self.token)} ({self.kind}, added)"
        return f"{short(self.token)} ({self.kind})"

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
        self.by_initial: dict[str, list[tuple[str, Word]]] = {}  # lemmas by first letter, for spellings
        for word in note.words:
            if word.lemma not in self.lemmas:
                self.by_initial.setdefault(word.lemma[:1], []).append((word.lemma, word))
            self.lemmas.setdefault(word.lemma, word)
            self.lowers.add(word.lower)
        self.lower_text = note.text.casefold()
        self.markers_by_sentence: dict[int, set[tuple[str, str]]] = {}
        for marker in (*note.markers, *note.weak_markers):
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
    if "n:1" in value.keys and value.dimension.startswith("count:"):
        noun = re.escape(value.dimension[6:])
        if re.search(rf"\b(?:a|an|one|single)\s+(?:[a-z-]+\s+)?{noun}", other.lower_text):
            return value  # `one rabbit` = `a rabbit`
    return None


def _unbound(value: Value) -> Value:
    """The value with any bound taken off, and matching any bound: `up to 5` and `5` are one amount."""
    keys = {strip_bound(k) for k in value.keys}
    keys |= {f"{b}{k}" for k in keys for b in ("<=", ">=", "<", ">", "~", "~<", "=")}
    return dataclasses.replace(value, keys=frozenset(keys))


def _word_found(word: Word, other: _Index, features: dict[str, float] | None = None) -> tuple[str, str] | None:
    """(the other note's word, rule) when `word` is there: same lemma, a spelling, an acronym, or a WordNet
    synonym in a sentence that restates `word`'s (`features`: its sentence's), since a common word is a
    synonym of many (`pass` of `passport`)."""
    if word.lemma in other.lemmas:
        found = other.lemmas[word.lemma]
        return (found.text, "lemma") if found.lower != word.lower else (found.text, "same")
    if word.lower in other.lowers:
        return word.text, "same"
    if _whole_word_in(word.lower, other.lower_text):
        return word.text, "same"  # inside an identifier or a value: `numpy` of `numpy==1.26`
    synsets = wordnet.tables().synsets.get(word.lemma)
    if synsets and synsets & other.synsets() and features is not None:
        near = set(_aligned(features, other, loose=True))
        for found in other.note.words:
            if found.sentence in near and wordnet.synonyms(word.lemma, found.lemma):
                return found.text, "synonym"
    if "-" in word.lower and all(part in other.lemmas or part in other.lowers or lemma_of(part) in other.lemmas
                                 for part in word.lower.split("-") if part):
        return word.text, "same"  # `check-in` in "checking in", `second-hand` in "second hand"
    abbreviation = _abbreviation_of(word, other)
    if abbreviation:
        return abbreviation, "abbreviation"
    acronym = _ACRONYM.match(word.text)
    if acronym and _spelled_out(acronym.group(1).casefold(), other.note.text):
        return acronym.group(1), "acronym"
    if len(word.lower) >= 4:
        for lemma, found in other.by_initial.get(word.lemma[:1], ()):
            short, long = sorted((lemma, word.lemma), key=len)
            # a clipped form (`prod` = `production`, `repo` = `repository`) or a longer spelling (`Postgres`)
            if len(short) >= 4 and long.startswith(short) and len(short) >= 0.35 * len(long) and \
                    (len(short) >= 0.6 * len(long) or zipf_of(short) < 4.5):  # not `pass` of `passport`
                return found.text, "spelling"
    return None


def _abbreviation_of(word: Word, other: _Index) -> str | None:
    """`appt` = `appointment`, `Dr` = `Doctor`, `mgr` = `manager`, either way round: a short word whose letters
    are the long word's, in order, from its first to its last (or a clipped start of it)."""
    mine = word.lower.rstrip(".")
    for lemma, found in other.by_initial.get(mine[:1], ()):
        if _abbreviates(mine, lemma) or _abbreviates(lemma, mine) or _abbreviates(found.lower, mine):
            return found.text
    return None


def _abbreviates(short: str, long: str) -> bool:
    return 2 <= len(short) <= 5 and len(long) > len(short) + 1 and short[0] == long[0] and \
        (short[-1] == long[-1] or long.startswith(short)) and _subsequence(short, long) and zipf_of(short) < 5.0


def _subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(ch in letters for ch in short)


_ACRONYM = re.compile(r"^([A-Z]{2,6})s?$")


def _spelled_out(letters: str, text: str) -> bool:
    """`pr` in "pull requests", `nas` in "network attached storage": consecutive words with these initials."""
    words = [w for w in re.findall(r"[^\W\d_]+", text.casefold()) if len(letters) > 2 or w not in FUNCTION_WORDS]
    return letters in "".join(w[0] for w in words)


def _whole_word_in(needle: str, haystack: str) -> bool:
    at = haystack.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or not haystack[at - 1].isalnum()) and (end == len(haystack) or not haystack[end].isalnum()):
            return True
        at = haystack.find(needle, at + 1)
    return False


# ---- aligning sentences -----------------------------------------------------------------------------------

def _aligned(features: dict[str, float], other: _Index, loose: bool = False) -> list[int]:
    """The other note's sentences that restate a sentence with these features (best first); `loose`: every
    sentence that shares a tenth of them (a sentence may be restated across several)."""
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
    if best / total < (0.1 if loose else 0.2):
        return []
    floor = 0.1 * total if loose else max(0.2 * total, 0.5 * best)
    return sorted((i for i, s in scores.items() if s >= floor), key=lambda i: -scores[i])


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
    sources = [read_note_cached(body or "") for body in source_bodies]  # sources stay while a body is edited
    body = read_note(merged_body or "")
    names = {w.lower for note in (*sources, body) for w in note.words if w.term and w.text[:1].isupper()}
    sources = [_with_names(note, names) for note in sources]
    body = _with_names(body, names)
    body_index = _Index(body)
    source_indexes = [_Index(note) for note in sources]
    findings = _Findings()
    checked = 0
    for number, (note, index) in enumerate(zip(sources, source_indexes)):
        checked += _dropped(number, note, index, body, body_index, findings)
    checked += _added(body, body_index, sources, source_indexes, findings)
    _pair_changes(findings, sources, body)
    for number, note in enumerate(sources):
        _uncovered(number, note, source_indexes[number], [body_index], findings, "dropped")
    _uncovered(-1, body, body_index, source_indexes, findings, "added")
    for number, note in enumerate(sources):
        _substituted(number, note, source_indexes[number], body, body_index, source_indexes, findings)
        _list_items(number, note, body_index, findings)
        _modifiers(number, note, source_indexes[number], body, body_index, findings)
        _rebound(number, note, body, findings)
        _swapped(number, note, source_indexes[number], body, body_index, findings)
    items = _unique(findings.items)
    return FactReport(not items, tuple(items), checked, tuple(findings.equated.values()))


def _with_names(note: Note, names: set[str]) -> Note:
    """`Grace` opening a sentence is the name `Grace` written inside one elsewhere, not the word "grace"."""
    if not any(not w.term and w.lower in names and w.text[:1].isupper() for w in note.words):
        return note
    words = [dataclasses.replace(w, term=True) if not w.term and w.lower in names and w.text[:1].isupper() else w
             for w in note.words]
    return dataclasses.replace(note, words=words, _by_sentence=None, _by_clause=None, _word_starts=None)


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
    items = list(seen.values())
    # one fact counted once: a changed fact is not also dropped by another source, nor a changed word again
    changed = {i.token.casefold() for i in items if i.direction == "changed" and i.kind not in ("word", "sentence")}
    named = changed
    return [i for i in items
            if not (i.direction == "dropped" and i.kind != "sentence" and i.token.casefold() in changed)
            and not (i.kind == "sentence" and any(_whole_word_in(c, i.token.casefold()) for c in changed))
            and not (i.kind == "word" and any(lemma_of(t) in {lemma_of(n) for n in named}
                                              for t in i.token.casefold().split()))]


def _dropped(number: int, note: Note, index: _Index, body: Note, body_index: _Index, findings: _Findings) -> int:
    checked = 0
    for value in note.values:
        if value.implied:
            continue
        checked += 1
        found = _value_found(value, body_index)
        loose = _value_found(_unbound(value), body_index) if found is None else None
        if found is None and loose is not None:
            findings.add(FactAtRisk("changed", "bound", value.text, (number,), (value.start, value.end), loose.text,
                                    (loose.start, loose.end), f"{value.text!r} became {loose.text!r}: its bound changed"))
        elif found is None:
            findings.add(FactAtRisk("dropped", value.kind, value.text, (number,), (value.start, value.end), None, None,
                                    f"{value.text!r} of source {number + 1} is not in the body"))
        else:
            findings.equate(value.text, found.text, "same value")
    for word in note.words:
        if not word.term:
            continue
        checked += 1
        hit = _word_found(word, body_index, index.features[word.sentence])
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
        aligned = _aligned(index.features[marker.sentence], other_index, loose=True)
        if any(marker.key in other_index.markers_by_sentence.get(s, ()) for s in aligned):
            continue
        if marker.cls == "frequency" and any(v.kind == "frequency" and s in aligned for v, s in zip(
                other_index.note.values, other_index.note.value_sentence)):
            continue  # "every so often" where the other says how often: "roughly once a week"
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
        if value.implied:
            continue
        checked += 1
        if not any(_value_found(value, index) or _value_found(_unbound(value), index) for index in source_indexes):
            findings.add(FactAtRisk("added", value.kind, value.text, (), None, value.text, (value.start, value.end),
                                    f"{value.text!r} of the body is in no source"))
    for word in body.words:
        if not word.term:
            continue
        checked += 1
        if not any(_word_found(word, index, body_index.features[word.sentence]) for index in source_indexes):
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
            for sentence in _aligned(features, index, loose=True):
                if marker.key in index.markers_by_sentence.get(sentence, ()):
                    return True
        return False


def _sentence_at(note: Note, span: tuple[int, int] | None) -> int | None:
    if span is None:
        return None
    return max(0, bisect.bisect_right([start for start, _ in note.sentences], span[0]) - 1)


def _pair_changes(findings: _Findings, sources: list[Note], body: Note) -> None:
    """A dropped and an added fact of one kind, in sentences that restate each other, become one change:
    `ten percent` → `twenty percent`."""
    dropped = [i for i, f in enumerate(findings.items) if f.direction == "dropped"]
    added = [i for i, f in enumerate(findings.items) if f.direction == "added"]
    used: set[int] = set()
    merged: list[FactAtRisk] = []
    body_index = _Index(body)
    for d in dropped:
        old = findings.items[d]
        note = sources[old.sources[0]] if old.sources and 0 <= old.sources[0] < len(sources) else None
        where = _sentence_at(note, old.source_span) if note is not None else None
        restating = set(_aligned(_Index(note).features[where], body_index)) if where is not None and note else set()
        for a in added:
            new = findings.items[a]
            if a in used or new.kind != old.kind or _sentence_at(body, new.body_span) not in restating or \
                    _dimension(sources, old) != _dimension([body], new, body_side=True):
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
                mine = {w.lemma: w for w in note.words_in(sentence)}
                theirs = {w.lemma: w for w in body.words_in(target)}
                for lemma, word in mine.items():
                    if lemma in theirs or not wordnet.has_antonym(lemma):
                        continue
                    for other, new in theirs.items():
                        if other not in mine and wordnet.antonyms(lemma, other):
                            findings.add(FactAtRisk("changed", "antonym", word.text, (number,), (word.start, word.end),
                                                    new.text, (new.start, new.end),
                                                    f"{word.text!r} became its opposite {new.text!r}"))


_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|\d+(?:[.,:]\d+)*")


def _sequence(text: str) -> list[str]:
    return [lemma_of(t.casefold()) for t in _TOKEN.findall(text)]


def _best_restatement(note: Note, sentence: int, features: dict[str, float], body: Note,
                      body_index: _Index) -> tuple[list[str], list[str], difflib.SequenceMatcher, int] | None:
    """The body sentence that reads most like this source sentence, content word by content word (None when
    none aligns)."""
    mine = [w.lemma for w in note.words_in(sentence)]
    best = None
    for target in _aligned(features, body_index)[:3]:
        theirs = [w.lemma for w in body.words_in(target)]
        matcher = difflib.SequenceMatcher(a=mine, b=theirs, autojunk=False)
        if best is None or matcher.ratio() > best[2].ratio():
            best = (mine, theirs, matcher, target)
    return best


def _grammatical_number(number: int, note: Note, sentence: int, body: Note, target: int,
                        matcher: difflib.SequenceMatcher, verbs: set[str], findings: _Findings) -> None:
    """A noun made singular or plural in a sentence that is otherwise the same (`my daughters` → `my daughter`):
    how many is a fact."""
    my_words = note.words_in(sentence)
    their_words = body.words_in(target)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            continue
        for word, other in zip(my_words[i1:i2], their_words[j1:j2]):
            if word.lemma in verbs or word.term or not (_determined(word, note.text) and _determined(other, body.text)):
                continue  # only a noun its determiner marks as one or many (`my daughters`), not `VLAN 30 guest`
            if _plural(word) != _plural(other) and word.lower != other.lower:
                findings.add(FactAtRisk("changed", "grammatical number", word.text, (number,),
                                        (word.start, word.end), other.text, (other.start, other.end),
                                        f"{word.text!r} became {other.text!r}"))


_DETERMINERS = frozenset("my your his her our their the these those this that its both all some several many few "
                         "each every no any".split())


def _determined(word: Word, text: str) -> bool:
    previous = _LAST_TOKEN.search(text[max(0, word.start - 30):word.start])
    return bool(previous) and previous.group(1).casefold() in _DETERMINERS


def _plural(word: Word) -> bool:
    return word.lower != word.lemma and word.lower.endswith("s") and not word.lemma.endswith("s")


_VERB_BEFORE = frozenset("to will would can could should must may might do does did i we you they not".split())
_LAST_TOKEN = re.compile(r"([^\W\d_]+)[^\w]*$")


def _verb_use(word: Word, text: str) -> bool:
    """`lasted`, `uses`, `backups stay`, `to keep`: a verb. Choosing another verb, or leaving one out, rewords a
    sentence (its facts are its names, values and markers), while a noun, adjective or adverb (`severely`,
    `milk`) states something."""
    if not wordnet.has_verb_sense(word.lemma):
        return False
    if word.lower != word.lemma and word.lower.endswith(("ed", "ing", "s")):
        return True
    previous = _LAST_TOKEN.search(text[max(0, word.start - 30):word.start])
    before = previous.group(1).casefold() if previous else ""
    return before in _VERB_BEFORE or (len(before) > 3 and before.endswith("s") and before not in FUNCTION_WORDS)


def _substituted(number: int, note: Note, index: _Index, body: Note, body_index: _Index, sources: list[_Index],
                 findings: _Findings) -> None:
    """A content word swapped for another, dropped or added in a sentence that is otherwise the same
    (`sister` → `cousin`, `cat` → `guinea pig`, `severely allergic` → `allergic`): a changed fact, unless the
    two are synonyms or spellings of one word, or the word only moved (it is elsewhere in the other text)."""
    for sentence, features in enumerate(index.features):
        best = _best_restatement(note, sentence, features, body, body_index)
        if best is None or best[2].ratio() < 0.5:
            continue  # restructured: a rewording, judged by its facts
        mine, theirs, matcher, target = best
        verbs = {w.lemma for w in note.words_in(sentence) if _verb_use(w, note.text)} | \
            {w.lemma for w in body.words_in(target) if _verb_use(w, body.text)}
        _grammatical_number(number, note, sentence, body, target, matcher, verbs, findings)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal" or i2 - i1 > 2 or j2 - j1 > 2:
                continue
            if op == "replace" and i2 - i1 == 1 and j2 - j1 == 1 and matcher.ratio() >= 0.6:
                # one word for another here, neither said elsewhere in the other sentence: `manages Ben` →
                # `manages Ana`, `is closed` → `is faster`, even when both words occur elsewhere in the notes
                mine_count, theirs_count = Counter(mine), Counter(theirs)
                local_old = [w for w in mine[i1:i2] if mine_count[w] > theirs_count[w]]
                local_new = [w for w in theirs[j1:j2] if theirs_count[w] > mine_count[w]]
                reworded = all(w in verbs for w in local_old + local_new) and not any(
                    wordnet.antonyms(a, b) for a in local_old for b in local_new)  # another verb, same facts
                if local_old and local_new and not reworded and not any(
                        wordnet.synonyms(a, b) or a.startswith(b) or b.startswith(a) for a in local_old for b in local_new):
                    findings.add(FactAtRisk("changed", "word", " ".join(local_old), (number,), None,
                                            " ".join(local_new), None,
                                            f"{' '.join(local_old)!r} became {' '.join(local_new)!r} in a sentence "
                                            "otherwise the same"))
                    continue
            my_words = {w.lemma: w for w in note.words_in(sentence)}
            old = [w for w in mine[i1:i2] if w not in verbs
                   and w not in body_index.lemmas and not _whole_word_in(w, body_index.lower_text)
                   and not (w in my_words and _word_found(my_words[w], body_index, features))]
            # a word put in is judged by the added-fact checks (terms, values, markers), not here: rewordings
            # put words in all the time ("rate", "phone number", "aim")
            new = [w for w in theirs[j1:j2] if w not in verbs and op == "replace"
                   and not any(w in s.lemmas or _whole_word_in(w, s.lower_text) for s in sources)]
            if not old and not new:
                continue
            if old and new:
                if any(wordnet.synonyms(a, b) or a.startswith(b) or b.startswith(a) for a in old for b in new):
                    continue
            elif op != "replace" and matcher.ratio() < 0.75:
                continue  # a word left out or put in counts only where the rest is the same
            elif op == "replace" and not old:
                continue  # the word put in place of one the body still has elsewhere: a reordering
            old_text, new_text = " ".join(old), " ".join(new)
            direction = "changed" if old and new else "dropped" if old else "added"
            findings.add(FactAtRisk(direction, "word", old_text or new_text, (number,) if old else (), None,
                                    new_text or None, None,
                                    f"{old_text!r} became {new_text!r} in a sentence otherwise the same" if old and new
                                    else f"{(old_text or new_text)!r} {'left out of' if old else 'put in'} a sentence "
                                    "otherwise the same"))


_LIST = re.compile(r"(?:[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2}\s*,\s*){1,}"
                   r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2},?\s+(?:and|or)\s+[^\W\d_][\w'’-]*")


def _list_items(number: int, note: Note, body_index: _Index, findings: _Findings) -> None:
    """Each item of an enumeration is a fact (`penicillin, latex and shellfish`): one the body lacks is dropped,
    however common its word."""
    for m in _LIST.finditer(note.text):
        items = re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group(0))
        if len(items) < 3:
            continue
        for item in items[1:]:  # the first may carry the words before the list ("allergic to penicillin")
            words = [w for w in note.words_between(m.start(), m.end()) if w.text in item.split()]
            if words and not any(_word_found(w, body_index) for w in words):
                start = note.text.find(item, m.start())
                findings.add(FactAtRisk("dropped", "list item", item, (number,), (start, start + len(item)), None,
                                        None, f"{item!r}, an item of a list in source {number + 1}, is not in the body"))


def _modifiers(number: int, note: Note, index: _Index, body: Note, body_index: _Index, findings: _Findings) -> None:
    """A word that qualifies the next one (`late father`, `severely allergic`, `acting manager`), left out where
    the body keeps the word it qualified, in the sentence that restates it."""
    for sentence, features in enumerate(index.features):
        aligned = _aligned(features, body_index)[:2]
        if not aligned:
            continue
        kept = {w.lemma for t in aligned for w in body.words_in(t)}
        words = note.words_in(sentence)
        for word, head in zip(words, words[1:]):
            gap = note.text[word.end:head.start]
            if gap.strip(" -") or head.lemma not in kept or word.lemma in body_index.lemmas or word.term:
                continue  # only a word right before the one it qualifies; terms are checked as terms
            if _verb_use(word, note.text) or _whole_word_in(word.lower, body_index.lower_text) or \
                    not wordnet.can_modify(word.lemma) or _word_found(word, body_index, features):
                continue  # a noun or verb, or said in other words (`large` = `big`)
            findings.add(FactAtRisk("dropped", "modifier", f"{word.text} {head.text}", (number,),
                                    (word.start, head.end), None, None,
                                    f"{word.text!r} of {word.text + ' ' + head.text!r} is not in the body"))


def _content(lemma: str) -> bool:
    return lemma.isalpha() and lemma not in FUNCTION_WORDS and len(lemma) > 1


def _uncovered(number: int, note: Note, index: _Index, others: list[_Index], findings: _Findings,
               direction: str) -> None:
    """A sentence most of whose words are nowhere in the other text: dropped (or, for the body, added) whole,
    whatever its words' rarity (`Wen is vegetarian.`, `We use oak wood.`)."""
    for sentence, features in enumerate(index.features):
        words = {w.lemma: w for w in note.words_in(sentence)}
        total = sum(_weight(w) for w in words.values())
        if total < 2:
            continue
        kept = sum(_weight(w) for w in words.values() if any(_word_found(w, other, features) for other in others))
        if kept / total < 0.5:
            text = note.sentence_text(sentence).strip()
            findings.add(FactAtRisk(direction, "sentence", text, (number,) if direction == "dropped" else (),
                                    note.sentences[sentence] if direction == "dropped" else None,
                                    text if direction == "added" else None,
                                    note.sentences[sentence] if direction == "added" else None,
                                    f"most of {text[:60]!r} is " + ("not in the body" if direction == "dropped"
                                                                    else "in no source")))


def _context(note: Note, clause: int) -> set[str]:
    return {w.lemma for w in note.words if w.clause == clause}


@dataclasses.dataclass(frozen=True)
class _Bound:
    """A value or a name, and the clause it is said in."""
    keys: frozenset[str]
    dimension: str
    clause: int
    text: str
    start: int
    end: int


def _bindables(note: Note) -> list[_Bound]:
    items = [_Bound(v.keys, v.dimension, c, v.text, v.start, v.end) for v, c in zip(note.values, note.value_clause)
             if not v.implied]
    listed = _listed(note)
    items += [_Bound(frozenset({f"w:{w.lemma}"}), "term" if w.term else "word", w.clause, w.text, w.start, w.end)
              for w in note.words if w.start not in listed
              and (w.term or (not _verb_use(w, note.text) and not wordnet.can_modify(w.lemma)))]
    return items


def _around(note: Note, item: _Bound) -> set[str]:
    """The words of the item's clause, less the item itself and less the items of a list (a list's order says
    nothing, so its items are no one's context)."""
    listed = _listed(note)
    return {w.lemma for w in note.words_in_clause(item.clause) if w.start not in listed} - {
        k[2:] for k in item.keys if k.startswith("w:")}


def _listed(note: Note) -> set[int]:
    """Start offsets of the words inside an enumeration (`postgres, redis and kafka`)."""
    cached = getattr(note, "_listed", None)
    if cached is None:
        spans = [m.span() for m in _LIST.finditer(note.text)]
        cached = {w.start for w in note.words if any(a <= w.start < b for a, b in spans)}
        note._listed = cached  # type: ignore[attr-defined]
    return cached


def _rebound(number: int, note: Note, body: Note, findings: _Findings) -> None:
    """A value or name the body keeps but binds to another subject: the words of its clause in the body belong
    to another item of the same dimension in the source (and not to this one), and that other item now sits
    among this one's words (`Staging … 5433, production … 5432` → swapped; `key is with Mrs. Patel … Grace has
    the shed key` → `key is with Grace … Mrs. Patel has the shed key`). Bindings are local: rivals are looked
    for in the item's sentence and the next one, so the work grows with the text, not its square."""
    mine, theirs = _bindables(note), _bindables(body)
    sentence_starts = [start for start, _ in note.sentences]
    sentence_of = [bisect.bisect_right(sentence_starts, item.start) - 1 for item in mine]
    by_key_mine: dict[str, list[_Bound]] = {}
    for item in mine:
        for key in item.keys:
            by_key_mine.setdefault(key, []).append(item)
    by_key_body: dict[str, list[_Bound]] = {}
    for other in theirs:
        for key in other.keys:
            by_key_body.setdefault(key, []).append(other)
    around_cache: dict[tuple[int, int], set[str]] = {}

    def around(of: Note, item: _Bound) -> set[str]:
        key = (id(of), item.start)
        if key not in around_cache:
            around_cache[key] = _around(of, item)
        return around_cache[key]

    by_sentence: dict[int, list[int]] = {}
    for j, s in enumerate(sentence_of):
        by_sentence.setdefault(s, []).append(j)
    for i, item in enumerate(mine):
        near = by_sentence.get(sentence_of[i], []) + by_sentence.get(sentence_of[i] + 1, [])
        rivals = [mine[j] for j in near if j != i and mine[j].dimension == item.dimension
                  and not (mine[j].keys & item.keys) and mine[j].clause != item.clause
                  and not _list_glue(note, min(mine[j].end, item.end), max(mine[j].start, item.start))]  # one list
        if not rivals:
            continue
        mentions = {id(m): m for key in item.keys for m in by_key_mine.get(key, ())}.values()
        own = set().union(*(around(note, same) for same in mentions))  # every mention of it
        rival_context = set().union(*(around(note, r) for r in rivals))
        shared = rival_context & own
        rival_words = rival_context - own
        if not rival_words:
            continue
        in_body = list({id(o): o for key in item.keys for o in by_key_body.get(key, ())}.values())
        if any(around(body, other) & (own - shared) for other in in_body):
            continue  # somewhere the body still says it of its own subject
        for other in in_body:
            stolen = sorted(around(body, other) & rival_words)
            if stolen and any(around(body, o) & (own - shared)
                              for r in rivals for key in r.keys for o in by_key_body.get(key, ())):
                findings.add(FactAtRisk("changed", "binding", item.text, (number,), (item.start, item.end),
                                        other.text, (other.start, other.end),
                                        f"{item.text!r} is now said of {', '.join(stolen)!s}"))
                break


def _swapped(number: int, note: Note, index: _Index, body: Note, body_index: _Index, findings: _Findings) -> None:
    """Two names or values that trade places around the same words: `Ana manages Ben` → `Ben manages Ana`,
    `from Vienna to Zurich` → `from Zurich to Vienna`, `from 08:00 to 22:00` → `from 22:00 to 08:00`."""
    for sentence, features in enumerate(index.features):
        aligned = _aligned(features, body_index)[:1]
        if not aligned:
            continue
        mine = _items(note, sentence)
        theirs = {identity: (start, end) for identity, start, end, _ in _items(body, aligned[0])}
        for a in range(len(mine)):
            for b in range(a + 1, min(len(mine), a + 12)):
                x, y = mine[a], mine[b]
                if x[0] == y[0] or x[0] not in theirs or y[0] not in theirs:
                    continue
                (xs, xe), (ys, ye) = theirs[x[0]], theirs[y[0]]
                if ys >= xs:
                    continue
                between = _between(note.text, x[2], y[1], note)
                if between and between == _between(body.text, ye, xs, body) and not _list_glue(note, x[2], y[1]):
                    x_text, y_text = note.text[x[1]:x[2]], note.text[y[1]:y[2]]
                    kind = "binding" if x[3] and y[3] else "word_order"
                    findings.add(FactAtRisk("changed", kind, f"{x_text} … {y_text}", (number,), (x[1], y[2]),
                                            f"{body.text[ys:ye]} … {body.text[xs:xe]}", (ys, xe),
                                            f"{x_text!r} and {y_text!r} traded places"))


def _items(note: Note, sentence: int) -> list[tuple[str, int, int, bool]]:
    """(identity, start, end, names something) of the words and values of a sentence, in order."""
    items = [(f"w:{w.lemma}", w.start, w.end, w.term) for w in note.words_in(sentence)]
    items += [(f"v:{min(v.keys)}", v.start, v.end, True) for v in _values_in(note, sentence) if not v.implied]
    return sorted(items, key=lambda item: item[1])


_GLUE = re.compile(r"^(?=.*(?:[,;/&]|\b(?:and|or|nor)\b))[\s,;/&]*(?:(?:and|or|nor)[\s,;/&]*)?$", re.IGNORECASE)


_LIST_SEPARATOR = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b|\bnor\b)\s*", re.IGNORECASE)


def _list_glue(note: Note, start: int, end: int) -> bool:
    """Only list glue between two items: commas, "and", "or", and other items of one word each (`postgres,
    redis and kafka`, `apples, pears and plums`) — a list, whose order says nothing. `5432 and production uses
    port 5433` is two clauses, not a list."""
    inner = note.text[start:end]
    if not _LIST_SEPARATOR.search(inner):
        return False
    for item in sorted([(w.start, w.end) for w in note.words_between(start, end) if w.term and w.end <= end] +
                       [(v.start, v.end) for v in _values_between(note, start, end)], reverse=True):
        inner = inner[: item[0] - start] + " " + inner[item[1] - start:]
    pieces = [[w for w in p.split() if w.casefold() not in ("the", "a", "an")] for p in _LIST_SEPARATOR.split(inner)]
    # items follow one another with only separators between: nothing before the first or after the last
    return not pieces[0] and not pieces[-1] and all(len(piece) <= 1 for piece in pieces)


def _values_in(note: Note, sentence: int) -> list[Value]:
    by_sentence = getattr(note, "_values_by_sentence", None)
    if by_sentence is None:
        by_sentence = {}
        for value, where in zip(note.values, note.value_sentence):
            by_sentence.setdefault(where, []).append(value)
        note._values_by_sentence = by_sentence  # type: ignore[attr-defined]
    return by_sentence.get(sentence, [])


def _values_between(note: Note, start: int, end: int) -> list[Value]:
    starts = getattr(note, "_value_starts", None)
    if starts is None:
        starts = [v.start for v in note.values]
        note._value_starts = starts  # type: ignore[attr-defined]
    at = bisect.bisect_left(starts, start)
    out = []
    for value in note.values[at:]:
        if value.start >= end:
            break
        if value.end <= end:
            out.append(value)
    return out


def _between(text: str, start: int, end: int, note: Note) -> str:
    """The words between two items, less the names among them (`Blackbird in drop D` → `in drop`, whichever
    name sits inside)."""
    inner = text[start:end]
    for w in sorted((w for w in note.words_between(start, end) if w.term and w.end <= end), key=lambda w: -w.start):
        inner = inner[: w.start - start] + " " + inner[w.end - start:]
    return " ".join(inner.casefold().split()).strip(" ,;")


__all__ = ["Equated", "FactAtRisk", "FactReport", "check_facts"]
