"""Word classes and senses from WordNet 3.0's own index: which parts of speech a word can be (by WordNet's morphy
rules and exception lists, not by suffix guesses), and whether two words share one of their most frequent senses
in the same part of speech.

WordNet 3.0's index files list a lemma's synsets in order of frequency in the tagged corpus, so "main senses" means
the first few there. Two words are synonyms for a proof only when a main sense of one is a main sense of the other
in the same part of speech: `peanut` and `groundnut` yes; two allergens that share a rare sense, no.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .wordnet_files import cache_file, read_cached, wn_folder

MAIN_SENSES = 2  # how many of a lemma's most frequent senses count as its meaning
_FORMAT = 1  # bump when the cached tables change shape
POS = ("n", "v", "a", "r")  # noun, verb, adjective (with satellites), adverb
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's morphy detachment rules (the suffix and what replaces it), per part of speech
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


@dataclass(frozen=True)
class SenseTables:
    senses: dict[str, dict[str, tuple[int, ...]]]  # lemma → part of speech → synset offsets, most frequent first
    exceptions: dict[str, dict[str, tuple[str, ...]]]  # part of speech → irregular form → base forms
    derived: dict[str, frozenset[str]]  # lemma → derivationally related lemmas (`rehearse` ↔ `rehearsal`)


def _folder() -> Path | None:
    return wn_folder(("wordnet-3.0",), "index.noun")  # 3.0: its index orders senses by frequency


def _parse(folder: Path) -> SenseTables:
    senses: dict[str, dict[str, tuple[int, ...]]] = {}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
    for pos, name in _FILES.items():
        with open(folder / f"index.{name}", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith(" "):
                    continue  # the licence header
                fields = line.split()
                pointers = int(fields[3])
                count = int(fields[2])
                offsets = tuple(int(f) for f in fields[6 + pointers: 6 + pointers + count])
                senses.setdefault(fields[0].replace("_", " "), {})[pos] = offsets
        table: dict[str, list[str]] = {}
        with open(folder / f"{name}.exc", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) >= 2:
                    table.setdefault(parts[0], []).extend(parts[1:])
        exceptions[pos] = {k: tuple(v) for k, v in table.items()}
    from .facts import wordnet  # the derivational links are already read there (3.3's pointers)
    return SenseTables(senses, exceptions, dict(wordnet.tables().derived))


@functools.lru_cache(maxsize=1)
def tables() -> SenseTables:
    """The tables, read once per process (empty without WordNet's data files: then only equal lemmas match)."""
    folder = _folder()
    if folder is None:
        return SenseTables({}, {}, {})
    return read_cached(cache_file("senses", _FORMAT, folder / "index.noun"), SenseTables, lambda: _parse(folder))


@functools.lru_cache(maxsize=1 << 16)
def bases(word: str) -> tuple[tuple[str, str], ...]:
    """Every (part of speech, base form) WordNet's morphy reaches from `word` (lower case): `geese` → (n, goose),
    `booked` → (v, book), `booking` → (n, booking), (v, book). Empty for a word WordNet does not know."""
    t = tables()
    low = word.casefold()
    found: list[tuple[str, str]] = []
    for pos in POS:
        candidates = [low, *t.exceptions.get(pos, {}).get(low, ())]
        candidates += [low[: -len(end)] + add for end, add in _DETACH[pos] if low.endswith(end) and len(low) > len(end) + 1]
        for base in candidates:
            if pos in t.senses.get(base, {}) and (pos, base) not in found:
                found.append((pos, base))
    return tuple(found)


_INFLECTION = {"s": "s", "ses": "s", "xes": "s", "zes": "s", "ches": "s", "shes": "s", "men": "s", "ies": "s",
               "es": "s", "ed": "ed", "ing": "ing", "er": "er", "est": "est"}
_EXCEPTION_INFLECTION = {"n": "s", "v": "ed", "a": "er", "r": "er"}


@functools.lru_cache(maxsize=1 << 16)
def inflections(word: str) -> frozenset[str]:
    """The grammatical forms `word` may be, by WordNet's morphy: "" (a base form), "s" (plural or third person),
    "ed" (past), "ing", "er", "est". `booked` → {ed}; `left` → {"", ed}; `lessons` → {s}. Number and tense are
    facts: a proof finds a word by its lemma only in the same form."""
    t = tables()
    low = word.casefold()
    out: set[str] = set()
    for pos in POS:
        if pos in t.senses.get(low, {}):
            out.add("")
        if low in t.exceptions.get(pos, {}):
            out.add(_EXCEPTION_INFLECTION[pos])
        for end, add in _DETACH[pos]:
            if low.endswith(end) and len(low) > len(end) + 1 and pos in t.senses.get(low[: -len(end)] + add, {}):
                out.add(_INFLECTION[end])
    if len(out) > 1:
        out.discard("")  # `left`, `renewed`, `booking`: a base of its own too, but written inflected
    return frozenset(out or {""})


def is_word(word: str) -> bool:
    """A word WordNet knows, in any inflection."""
    return bool(bases(word))


def parts_of_speech(word: str) -> frozenset[str]:
    return frozenset(pos for pos, _ in bases(word))


def main_senses(word: str) -> dict[str, frozenset[int]]:
    """Per part of speech, the synsets of `word`'s most frequent senses (over all its base forms)."""
    t = tables()
    out: dict[str, set[int]] = {}
    for pos, base in bases(word):
        out.setdefault(pos, set()).update(t.senses[base][pos][:MAIN_SENSES])
    return {pos: frozenset(s) for pos, s in out.items()}


@functools.lru_cache(maxsize=1 << 16)
def same_sense(a: str, b: str) -> bool:
    """`a` and `b` share a main sense in one part of speech (`car` ~ `automobile`, `purchase` ~ `buy`)."""
    if a.casefold() == b.casefold():
        return True
    mine = main_senses(a)
    theirs = main_senses(b)
    return any(mine[pos] & theirs.get(pos, frozenset()) for pos in mine) and same_form(a, b)


def same_lemma(a: str, b: str) -> bool:
    """One base form in one part of speech and one grammatical form (`booked` ~ `Booked`, `geese` ~ `geese`; not
    `daughters` ~ `daughter`, `renewed` ~ `renew`)."""
    return bool(set(bases(a)) & set(bases(b))) and same_form(a, b)


def same_form(a: str, b: str) -> bool:
    return bool(inflections(a) & inflections(b))


def derived(a: str, b: str) -> bool:
    """One is a derivational form of the other (`decide` ~ `decision`, `renew` ~ `renewal`), by WordNet's links."""
    t = tables()
    mine = {base for _, base in bases(a)} or {a.casefold()}
    theirs = {base for _, base in bases(b)} or {b.casefold()}
    return any((t.derived.get(m, frozenset()) & theirs) - mine for m in mine)  # not `place` (n) ~ `place` (v)


__all__ = ["MAIN_SENSES", "bases", "derived", "inflections", "is_word", "main_senses", "parts_of_speech", "same_form",
           "same_lemma", "same_sense", "tables"]
