"""Crossed associations: two facts that trade partners between the sources and the body, across notes too.

A clause says its items of one another: `Staging … 8081` binds 8081 to staging. When the sources bind a to c and
b to d, and the body binds a to d and b to c (in clauses where neither pair ever sat together in a source
sentence), the facts were crossed even though every token survives: ports swapped between two environments that
came from two notes, versions swapped between services, weekdays swapped between two bullets, executor and
alternate traded. Only the full cross counts — one new neighbour is what any recombining merge does — and a
and b (c and d) must be items of one sort (two numbers, two weekdays, two words), so a rewording that gathers
facts into one clause is not a cross.

The work is bounded by the text: items are looked up per clause, and a word that sits in many clauses (a
common word of the note) is no one's partner.
"""
from __future__ import annotations

import bisect
import dataclasses
import functools
from collections.abc import Sequence
from itertools import combinations

from . import wordnet
from .notes import Note
from .report import Direction, FactAtRisk, FactKind, Findings
from .sentences import list_matches

_MAX_SENTENCES_PER_ITEM = 3  # a word in more source sentences than this is the note's topic, not one fact's partner


def _items(note: Note) -> list[dict[str, tuple[str, str, int, int]]]:
    """Per clause: identity → (sort, text, start, end). Values by each normal form, words by lemma."""
    clauses: list[dict[str, tuple[str, str, int, int]]] = [{} for _ in note.clauses]
    if not clauses:
        return clauses
    lists = [m.span() for m in list_matches(note)]  # a list's items are no one's partner: order says nothing
    list_starts = [a for a, _ in lists]

    def listed(start: int) -> bool:
        k = bisect.bisect_right(list_starts, start) - 1
        return k >= 0 and start < lists[k][1]

    for value, clause in zip(note.values, note.value_clause):
        if value.implied or listed(value.start):
            continue
        for key in value.keys:
            if key.startswith("ordinal:") and key.count(":") > 1:
                continue  # `ordinal:2:floor` restates `ordinal:2` (values.SEQUENCE_NOUNS): one item, not two
            sort = "w" if key.startswith("token:") else f"v:{value.kind}"  # `auth-service` is a name like `billing`
            clauses[clause].setdefault(f"v:{key}", (sort, value.text, value.start, value.end))
    for word in note.words:
        if listed(word.start):
            continue
        clauses[word.clause].setdefault(f"w:{_family(word.lemma)}", ("w", word.text, word.start, word.end))
    return clauses


Item = tuple[str, str, int, int]  # sort, text, start, end


@functools.lru_cache(maxsize=50_000)
def _family(lemma: str) -> str:
    """One name for a word and its derivations (`cardiologist`, `cardiology`), two links deep, so either
    word says whose the fact is."""
    near = {lemma} | wordnet.derived_forms(lemma)
    for form in list(near):
        near |= wordnet.derived_forms(form)
    return min(near)
_MAX_ITEMS_PER_UNIT = 40  # a longer run without punctuation binds nothing to anything in particular
_AMOUNTS = frozenset({"v:money", "v:quantity", "v:number", "v:rate", "v:time", "v:date"})  # not `daily`, `Tue`


def _pairs(note: Note, number: int, seen: dict[str, tuple[int, Item]], count: dict[str, int],
           sentences_of: dict[str, set[tuple[int, int]]] | None = None) -> set[frozenset[str]]:
    """The pairs of items the note binds: in one clause, or in one sentence that holds no rival of one of them
    (`Piano: Wednesdays, with Mrs Lund.` binds Wednesdays to piano; `18 …; … 20` binds each to its own clause)."""
    clauses = _items(note)
    starts = [s for s, _ in note.sentences]
    by_sentence: dict[int, list[dict[str, Item]]] = {}
    for (start, _), items in zip(note.clauses, clauses):
        by_sentence.setdefault(max(0, bisect.bisect_right(starts, start) - 1), []).append(items)
    pairs: set[frozenset[str]] = set()
    for sentence, members in by_sentence.items():
        merged: dict[str, Item] = {}
        for items in members:
            for identity, item in items.items():
                merged.setdefault(identity, item)
            if len(items) <= _MAX_ITEMS_PER_UNIT:
                pairs.update(frozenset(p) for p in combinations(items, 2))
        for identity, item in merged.items():
            seen.setdefault(identity, (number, item))
            count[identity] = count.get(identity, 0) + 1
            if sentences_of is not None:
                sentences_of.setdefault(identity, set()).add((number, sentence))
        if len(merged) <= _MAX_ITEMS_PER_UNIT:
            sorts: dict[str, int] = {}
            for item in merged.values():
                sorts[item[0]] = sorts.get(item[0], 0) + 1
            alone = [identity for identity, item in merged.items() if sorts[item[0]] == 1]
            pairs.update(frozenset((x, y)) for x in alone for y in merged if y != x)
    return pairs


@dataclasses.dataclass(frozen=True)
class _Bindings:
    """What one note binds: its pairs, each item's first occurrence, the sentences it is said in."""
    pairs: set[frozenset[str]]
    first: dict[str, Item]
    sentences: dict[str, set[int]]
    partners: dict[str, set[str]]


_CACHE: dict[str, _Bindings] = {}  # by text: a source's bindings are read once while its merge is edited


def _bindings(note: Note) -> _Bindings:
    found = _CACHE.get(note.text)
    if found is not None:
        return found
    seen: dict[str, tuple[int, Item]] = {}
    sentences: dict[str, set[tuple[int, int]]] = {}
    pairs = _pairs(note, 0, seen, {}, sentences)
    partners: dict[str, set[str]] = {}
    for pair in pairs:
        x, y = tuple(pair)
        partners.setdefault(x, set()).add(y)
        partners.setdefault(y, set()).add(x)
    found = _Bindings(pairs, {k: item for k, (_, item) in seen.items()},
                      {k: {s for _, s in where} for k, where in sentences.items()}, partners)
    if len(_CACHE) >= 64:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[note.text] = found
    return found


def crossed(sources: Sequence[Note], body: Note, findings: Findings) -> None:
    """Report each pair of facts the body binds crosswise to how the sources bind them."""
    body_seen: dict[str, tuple[int, Item]] = {}
    body_pairs = _pairs(body, -1, body_seen, {})
    if not body_pairs:
        return  # the body binds nothing (all of it copied, say): the sources' bindings need not be read
    crossing = _Crossing([_bindings(note) for note in sources], body_pairs, body_seen)
    # sorted: sets iterate in hash order, and the same notes must give the same report on every run
    new = sorted(tuple(sorted(pair)) for pair in body_pairs
                 if all(map(crossing.distinct, pair)) and not crossing.in_sources(pair))
    if not new:
        return
    for number in range(len(crossing.notes) - 1, -1, -1):
        crossing.seen.update((k, (number, item)) for k, item in crossing.notes[number].first.items())
    used: set[str] = set()  # one cross is one fact at risk, however many of its words could tell it
    _report_crosses(crossing, new, used, findings)
    _report_half_crosses(crossing, new, used, findings)


@dataclasses.dataclass
class _Crossing:
    """The sources' bindings as `crossed` asks of them (how often an item is said, its partners, its sentences),
    the body's pairs, and each item's first occurrence in the sources (`seen`) and in the body."""
    notes: list[_Bindings]
    body_pairs: set[frozenset[str]]
    body_seen: dict[str, tuple[int, Item]]
    seen: dict[str, tuple[int, Item]] = dataclasses.field(default_factory=dict)

    def count(self, x: str) -> int:
        return sum(len(n.sentences.get(x, ())) for n in self.notes)

    def distinct(self, x: str) -> bool:
        return 0 < self.count(x) <= _MAX_SENTENCES_PER_ITEM

    def in_sources(self, pair: frozenset[str]) -> bool:
        return any(pair in n.pairs for n in self.notes)

    def partners(self, x: str) -> set[str]:
        return {y for n in self.notes for y in n.partners.get(x, ()) if self.distinct(y)} if self.distinct(x) else set()

    def sentences_of(self, x: str) -> set[tuple[int, int]]:
        return {(number, s) for number, n in enumerate(self.notes) for s in n.sentences.get(x, ())}


def _report_crosses(crossing: _Crossing, new: list[tuple[str, ...]], used: set[str], findings: Findings) -> None:
    """The full crosses: the sources bind a to c and b to d, the body a to d and b to c."""
    seen, body_pairs = crossing.seen, crossing.body_pairs
    new_set = {frozenset(pair) for pair in new}
    for x, y in new:
        for a, d in ((x, y), (y, x)):
            sort_a, sort_d = seen[a][1][0], seen[d][1][0]
            for c in sorted(crossing.partners(a)):
                if c == d or seen[c][1][0] != sort_d:
                    continue
                for b in sorted(crossing.partners(d)):
                    if b in (a, c) or seen[b][1][0] != sort_a or frozenset((b, c)) not in new_set:
                        continue
                    if frozenset((a, c)) in body_pairs or frozenset((b, d)) in body_pairs or used & {a, b, c, d}:
                        continue
                    used.update((a, b, c, d))
                    _report(a, c, d, b, seen, crossing.body_seen, findings)


def _report_half_crosses(crossing: _Crossing, new: list[tuple[str, ...]], used: set[str], findings: Findings) -> None:
    """Half a cross: a value moved next to a word only its rival was said with."""
    seen, body_seen = crossing.seen, crossing.body_seen
    for x, y in new:
        for v, w in ((x, y), (y, x)):
            if v in used or seen[v][1][0] not in _AMOUNTS or seen[w][1][0] != "w" or crossing.count(w) != 1:
                continue
            # across sentences only: a sentence's subject is said of all its clauses (`X has 16 GB … and a 512 GB SSD`)
            rivals = [b for b in sorted(crossing.partners(w)) if b != v and seen[b][1][0] == seen[v][1][0]
                      and b in body_seen and frozenset((b, w)) not in crossing.body_pairs
                      and not crossing.in_sources(frozenset((v, w)))
                      and not crossing.sentences_of(v) & crossing.sentences_of(b)]
            if rivals:
                used.update((v, rivals[0]))
                v_text, w_text, b_text = seen[v][1][1], seen[w][1][1], seen[rivals[0]][1][1]
                _report(v, w, w, rivals[0], seen, body_seen, findings,
                        f"{v_text!r} is now said of {w_text!r}, which the sources say of {b_text!r}")


def _report(a: str, c: str, d: str, b: str, seen: dict[str, tuple[int, Item]],
            body_seen: dict[str, tuple[int, Item]], findings: Findings, why: str = "") -> None:
    number, (_, a_text, a_start, a_end) = seen[a]
    c_text, d_text, b_text = seen[c][1][1], seen[d][1][1], seen[b][1][1]
    for x in (a, b, c, d):
        n, (_, _, s, e) = seen[x]
        for item in findings.items:  # the swap is already told (two names that traded places, a value rebound)
            if item.kind in (FactKind.BINDING, FactKind.WORD_ORDER) and item.source_span and n in item.sources and \
                    s < item.source_span[1] and item.source_span[0] < e:
                return
    _, (_, body_text, body_start, body_end) = body_seen[a]
    findings.add(FactAtRisk(
        Direction.CHANGED, FactKind.BINDING, a_text, (number,), (a_start, a_end), body_text, (body_start, body_end),
        why or f"{a_text!r} was said of {c_text!r} and {b_text!r} of {d_text!r}; the body says {a_text!r} of "
        f"{d_text!r} and {b_text!r} of {c_text!r}"))
