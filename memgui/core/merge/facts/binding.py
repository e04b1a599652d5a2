"""Bindings: a value or name now said of another subject, and two items that trade places around the same words.
A list's items are no one's context and may come in any order."""
from __future__ import annotations

import bisect
import dataclasses
import re
from collections import Counter

from . import wordnet
from .matching import Index, aligned
from .notes import Note, Word, lemma_of
from .report import Direction, FactAtRisk, FactKind, Findings
from .sentences import list_matches, verb_use
from .value_types import ValueKind
from .values import Value


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
    cached: list[_Bound] | None = getattr(note, "_bindables", None)
    if cached is None:
        cached = _read_bindables(note)
        note._bindables = cached  # type: ignore[attr-defined]
    return cached


def _read_bindables(note: Note) -> list[_Bound]:
    items = [_Bound(v.keys, v.dimension, c, v.text, v.start, v.end) for v, c in zip(note.values, note.value_clause)
             if not v.implied]
    listed = _listed(note)
    items += [_Bound(frozenset({f"w:{w.lemma}"}), "term" if w.term else "word", w.clause, w.text, w.start, w.end)
              for w in note.words if w.start not in listed
              and (w.term or (not verb_use(w, note.text) and not wordnet.can_modify(w.lemma)))]
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
        spans = [m.span() for m in list_matches(note)]
        starts = [a for a, _ in spans]
        value_starts = sorted(v.start for v in note.values)
        cached = set()
        for w in note.words:
            k = bisect.bisect_right(starts, w.start) - 1
            if k >= 0 and w.start < spans[k][1]:
                at = bisect.bisect_left(value_starts, w.end)
                if at < len(value_starts) and value_starts[at] - w.end <= 2:
                    continue  # `employer 3%, employee 5%`: a label of its value, which binds it
                cached.add(w.start)
        note._listed = cached  # type: ignore[attr-defined]
    return cached


_NEAREST = 50  # items on either side a rival is looked for among, in a sentence longer than twice this


def rebound(number: int, note: Note, body: Note, findings: Findings) -> None:
    """A value or name the body keeps but binds to another subject: the words of its clause in the body belong
    to another item of the same dimension in the source (and not to this one), and that other item now sits
    among this one's words (`Staging … 5433, production … 5432` → swapped; `key is with Mrs. Patel … Grace has
    the shed key` → `key is with Grace … Mrs. Patel has the shed key`). Bindings are local: rivals are looked
    for in the item's sentence and the next one, so the work grows with the text, not its square."""
    mine = _bindables(note)
    if not mine:
        return
    by_key_mine, by_key_body = _by_key(mine), _by_key(_bindables(body))
    sentence_starts = [start for start, _ in note.sentences]
    sentence_of = [bisect.bisect_right(sentence_starts, item.start) - 1 for item in mine]
    around = _Around()
    by_sentence: dict[int, list[int]] = {}
    for j, s in enumerate(sentence_of):
        by_sentence.setdefault(s, []).append(j)
    for i, item in enumerate(mine):
        near = by_sentence.get(sentence_of[i], []) + by_sentence.get(sentence_of[i] + 1, [])
        if len(near) > 2 * _NEAREST:  # one endless sentence (a text with no stops): its nearest items only
            at = bisect.bisect_left(near, i)
            near = near[max(0, at - _NEAREST):at + _NEAREST]
        rivals = [mine[j] for j in near if j != i and mine[j].dimension == item.dimension
                  and not (mine[j].keys & item.keys) and mine[j].clause != item.clause
                  and not list_glue(note, min(mine[j].end, item.end), max(mine[j].start, item.start))]  # one list
        if rivals:
            _report_rebound(number, note, body, item, rivals, by_key_mine, by_key_body, around, findings)


def _by_key(items: list[_Bound]) -> dict[str, list[_Bound]]:
    out: dict[str, list[_Bound]] = {}
    for item in items:
        for key in item.keys:
            out.setdefault(key, []).append(item)
    return out


class _Around:
    """`_around` of each item, read once per note and item."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int], set[str]] = {}

    def __call__(self, of: Note, item: _Bound) -> set[str]:
        key = (id(of), item.start)
        if key not in self._cache:
            self._cache[key] = _around(of, item)
        return self._cache[key]


def _report_rebound(number: int, note: Note, body: Note, item: _Bound, rivals: list[_Bound],
                    by_key_mine: dict[str, list[_Bound]], by_key_body: dict[str, list[_Bound]], around: _Around,
                    findings: Findings) -> None:
    """Reports `item` when the body says it among a rival's words, and says the rival among its own."""
    mentions = {id(m): m for key in item.keys for m in by_key_mine.get(key, ())}.values()
    own = set().union(*(around(note, same) for same in mentions))  # every mention of it
    rival_context = set().union(*(around(note, r) for r in rivals))
    shared = rival_context & own
    rival_words = rival_context - own
    if not rival_words:
        return
    in_body = list({id(o): o for key in item.keys for o in by_key_body.get(key, ())}.values())
    if any(around(body, other) & (own - shared) for other in in_body):
        return  # somewhere the body still says it of its own subject
    for other in in_body:
        stolen = sorted(around(body, other) & rival_words)
        if stolen and any(around(body, o) & (own - shared)
                          for r in rivals for key in r.keys for o in by_key_body.get(key, ())):
            findings.add(FactAtRisk(Direction.CHANGED, FactKind.BINDING, item.text, (number,), (item.start, item.end),
                                    other.text, (other.start, other.end),
                                    f"{item.text!r} is now said of {', '.join(stolen)!s}"))
            return


def _subject(note: Note) -> str:
    """What a note is about: its first name (`Jayden …`), or the capitalised word that opens it before a label's
    punctuation (`Leo (Year 2): …`, `Mia: …`)."""
    if note.words and note.words[0].text[:1].isupper() and re.match(r"\s*[(:,]", note.text[note.words[0].end:]):
        return note.words[0].lemma
    return next((w.lemma for w in note.words if w.term and w.text[:1].isupper()), "")


def reattached(sources: list[Note], body: Note, findings: Findings) -> None:
    """A fact of one note put in the sentence of another note's subject: each note is about the first name it
    writes (`Jayden …`, `Tia …`); a term only one note states, found in a body sentence that names another note's
    subject and not its own, has moved between them (`Jayden …; his GP is Dr. Osei` + `Tia …` → `Tia …; her GP is
    Dr. Osei`). A note whose subject the body does not name is not judged (the body may have reworded it)."""
    if len(sources) < 2:
        return
    subjects = [_subject(note) for note in sources]
    if len(set(subjects) - {""}) < 2:
        return
    body_lemmas = {w.lemma for w in body.words}
    first_in_body: dict[str, Word] = {}
    for word in body.words:
        first_in_body.setdefault(word.lemma, word)
    for number, note in enumerate(sources):
        own = subjects[number]
        others = {s for j, s in enumerate(subjects) if j != number and s and s != own}
        if not own or own not in body_lemmas or not others or len(note.sentences) > 3:
            continue  # (a long note is about more than its first name)
        elsewhere = set().union(*({w.lemma for w in other.words} | {v.text.casefold() for v in other.values}
                                  for j, other in enumerate(sources) if j != number))
        shouted = [(Word(v.text, v.start, v.end, v.text.casefold(), lemma_of(v.text.casefold()), 0.0, True,
                         note.value_sentence[k], note.value_clause[k]))
                   for k, v in enumerate(note.values) if v.kind == ValueKind.ALL_CAPS and v.text.isalpha()]  # `HOME`, `AWAY`
        for word in [*note.words, *shouted]:
            if not word.term or word.lemma in elsewhere or word.lemma == own or word.lemma not in first_in_body:
                continue
            found = first_in_body[word.lemma]
            sentence = {w.lemma for w in body.words_in_clause(found.clause)}
            if not sentence & (others | {own}):  # a clause that names no one: its sentence's names
                sentence = {w.lemma for w in body.words_in(found.sentence)}
            said_with = {w.lemma for w in note.words_in(word.sentence)}
            if sentence & others - said_with and own not in sentence:  # (not when the source says it beside them)
                moved_to = sorted(sentence & others - said_with)[0]
                findings.add(FactAtRisk(Direction.CHANGED, FactKind.BINDING, word.text, (number,), (word.start, word.end),
                                        first_in_body[word.lemma].text, None,
                                        f"{word.text!r} was said in the note about {own.title()}; the body says it "
                                        f"in a sentence about {moved_to.title()}"))
                return


def swapped(number: int, note: Note, index: Index, body: Note, body_index: Index, findings: Findings) -> None:
    """Two names or values that trade places around the same words: `Ana manages Ben` → `Ben manages Ana`,
    `from Vienna to Zurich` → `from Zurich to Vienna`, `from 08:00 to 22:00` → `from 22:00 to 08:00`."""
    for sentence, features in enumerate(index.features):
        restating = aligned(features, body_index)[:1]
        if not restating:
            continue
        mine = _items(note, sentence)
        body_items = _items(body, restating[0])
        repeated = {i for i, n in Counter(x[0] for x in (*mine, *body_items)).items() if n > 2} | {
            i for i, n in Counter(x[0] for x in mine).items() if n > 1} | {
            i for i, n in Counter(x[0] for x in body_items).items() if n > 1}
        mine = [x for x in mine if x[0] not in repeated]  # an item said twice has no one place to trade
        theirs = {identity: (start, end) for identity, start, end, _ in body_items if identity not in repeated}
        for a in range(len(mine)):
            for b in range(a + 1, min(len(mine), a + 12)):
                x, y = mine[a], mine[b]
                if x[0] == y[0] or x[0] not in theirs or y[0] not in theirs or (x[0][:2] == "v:") != (y[0][:2] == "v:"):
                    continue  # a value and a word trade places when a sentence is laid out anew (`2pm, at her house`)
                (xs, xe), (ys, ye) = theirs[x[0]], theirs[y[0]]
                if ys >= xs:
                    continue
                between = _between(note.text, x[2], y[1], note)
                if between in _COPULAS or between.strip() in ("(", ":", "-", "–", "—", "="):
                    continue  # `Lena's birthday is June 2` = `June 2 is Lena's birthday`, `Sam (Lisbon)` = `Lisbon
                    # (Sam)`: a copula or a bracket says it both ways
                if between and between == _between(body.text, ye, xs, body) and not list_glue(note, x[2], y[1]):
                    x_text, y_text = note.text[x[1]:x[2]], note.text[y[1]:y[2]]
                    kind = FactKind.BINDING if (x[3] and y[3]) or "p:writer" in (x[0], y[0]) else FactKind.WORD_ORDER
                    findings.add(FactAtRisk(Direction.CHANGED, kind, f"{x_text} … {y_text}", (number,), (x[1], y[2]),
                                            f"{body.text[ys:ye]} … {body.text[xs:xe]}", (ys, xe),
                                            f"{x_text!r} and {y_text!r} traded places"))


def _items(note: Note, sentence: int) -> list[tuple[str, int, int, bool]]:
    """(identity, start, end, names something) of the words and values of a sentence, in order."""
    items = [(f"w:{w.lemma}", w.start, w.end, w.term) for w in note.words_in(sentence)]
    start, end = note.sentences[sentence]
    # the writer is a party too: `We owe Brightline` → `Brightline owes us`, `I lent Gus` → `Gus lent me`
    items += [("p:writer", m.start(), m.end(), True) for m in _FIRST_PERSON.finditer(note.text, start, end)]
    items += [(f"v:{min(v.keys)}", v.start, v.end, True) for v in _values_in(note, sentence) if not v.implied]
    return sorted(items, key=lambda item: item[1])


_DETERMINERS = frozenset({"the", "a", "an", "my", "your", "his", "her", "its", "our", "their"})
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|we|us|our|ours)\b", re.IGNORECASE)
_COPULAS = frozenset({"be", "=", "be on", "be at", "equal", "mean"})  # lemmas (_between)
_LONGEST_LIST = 400  # characters between two items of one list, at most
_LIST_SEPARATOR = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b|\bnor\b)\s*", re.IGNORECASE)


def list_glue(note: Note, start: int, end: int) -> bool:
    """Only list glue between two items: commas, "and", "or", and other items of one word each (`postgres,
    redis and kafka`, `apples, pears and plums`) — a list, whose order says nothing. `5432 and production uses
    port 5433` is two clauses, not a list."""
    inner = note.text[start:end]
    if len(inner) > _LONGEST_LIST or not _LIST_SEPARATOR.search(inner):
        return False  # a list's glue is short: far-apart items (or a blanked, copied stretch) are not one list
    if any(w.term and 0 <= end - w.end <= 2 for w in note.words_between(start, end)) and any(
            v.start == end for v in _values_starting(note, end)):
        return False  # `employer 3%, employee 5%`: label and value pairs, each label binding its value
    for item in sorted([(w.start, w.end) for w in note.words_between(start, end) if w.term and w.end <= end] +
                       [(v.start, v.end) for v in _values_between(note, start, end)], reverse=True):
        inner = inner[: item[0] - start] + " " + inner[item[1] - start:]
    pieces = [[w for w in p.split() if w.casefold() not in ("the", "a", "an")] for p in _LIST_SEPARATOR.split(inner)]
    # items follow one another with only separators between: nothing before the first or after the last
    return not pieces[0] and not pieces[-1] and all(len(piece) <= 1 for piece in pieces)


def _values_in(note: Note, sentence: int) -> list[Value]:
    by_sentence: dict[int, list[Value]] | None = getattr(note, "_values_by_sentence", None)
    if by_sentence is None:
        by_sentence = {}
        for value, where in zip(note.values, note.value_sentence):
            by_sentence.setdefault(where, []).append(value)
        note._values_by_sentence = by_sentence  # type: ignore[attr-defined]
    return by_sentence.get(sentence, [])


def _value_starts(note: Note) -> list[int]:
    starts: list[int] | None = getattr(note, "_value_starts", None)
    if starts is None:
        starts = [v.start for v in note.values]
        note._value_starts = starts  # type: ignore[attr-defined]
    return starts


def _values_starting(note: Note, at: int) -> list[Value]:
    first = bisect.bisect_left(_value_starts(note), at)
    return [v for v in note.values[first:first + 3] if v.start == at]


def _values_between(note: Note, start: int, end: int) -> list[Value]:
    at = bisect.bisect_left(_value_starts(note), start)
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
    for w in sorted((w for w in note.words_between(start, end) if w.term and w.text[:1].isupper() and w.end <= end),
                    key=lambda w: -w.start):
        inner = inner[: w.start - start] + " " + inner[w.end - start:]
    return " ".join(lemma_of(w) if w[:1].isalpha() else w for w in inner.casefold().split()
                    if w not in _DETERMINERS).strip(" ,;")  # `owe the plumber` → `the plumber owes`




_NAME_AND_ROLE = re.compile(r"\b(?P<name>[A-Z][\w'’-]+)\s*\((?P<attr>[^()\n]{1,40})\)")


def attribute_moved(number: int, note: Note, body: Note, findings: Findings) -> None:
    """Two people each with a word in brackets (`Ms Alvarez (homeroom) and Mr Chen (math)`) whose words the body
    puts next to the other one (`Mr Chen, the homeroom teacher, and Ms Alvarez from math`)."""
    for start, end in note.sentences:
        pairs = [(m.group("name"), {w.lemma for w in note.words_between(m.start("attr"), m.end("attr"))})
                 for m in _NAME_AND_ROLE.finditer(note.text, start, end)]
        pairs = [(name, attr) for name, attr in pairs if attr]
        if len({name for name, _ in pairs}) < 2:
            continue
        names = {name for name, _ in pairs}
        counts = Counter(w.lemma for w in body.words)
        for name, attrs in pairs:
            for word in body.words:
                if word.lemma not in attrs or counts[word.lemma] != 1:
                    continue
                b_start, b_end = body.sentences[word.sentence]
                near = sorted((abs(b_start + m.start() - word.start), other) for other in names
                              for m in re.finditer(rf"\b{re.escape(other)}\b", body.text[b_start:b_end]))
                if re.search(rf"\b{re.escape(word.text)}\s*\(\s*{re.escape(name)}\b", body.text, re.IGNORECASE):
                    continue  # `Lisbon (Sam)`: the bracket turned round still says it of Sam
                if near and near[0][1] != name and any(n == name for _, n in near):
                    findings.add(FactAtRisk(Direction.CHANGED, FactKind.BINDING, f"{name} ({word.text})", (number,), (start, end),
                                            f"{near[0][1]} … {word.text}", (word.start, word.end),
                                            f"{word.text!r} was said of {name}; the body puts it by {near[0][1]}"))
                    return


__all__ = ["attribute_moved", "list_glue", "reattached", "rebound", "swapped"]
