"""Two notes that read alike but for a few words: what those words are, when they do not mean the same.

Look-alike notes usually differ in one place (`moved to Wednesdays` / `moved from Wednesdays`, `starts Dec 18` /
`ends Dec 18`, `02:00 UTC` / `02:00 local time`, `Kenji owes me` / `I owe Kenji`). The fact model names a
difference of a class it knows; a common word swapped for another (`to` / `from`, `starts` / `ends`) is no fact
on its own, but in two notes otherwise the same it is the whole difference. Words that mean the same are not a
difference: one lemma, a WordNet synonym, an abbreviation, one value however written.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher

from . import wordnet
from .matching import abbreviates
from .notes import lemma_of, read_note

SIMILAR = 0.7  # the share of words two notes must have in common, in order, to be near-identical
_MOST_PLACES = 3  # more differing places than this is a rewording, not one changed detail
_LONGEST_SWAP = 3  # words on either side of one difference
_AUXILIARIES = frozenset({"be", "have", "do", "will"})
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")


def minimal_pair_changes(a: str, b: str) -> list[tuple[str, str]]:
    """The (a's words, b's words) where two near-identical notes say different things; [] for notes that are
    not near-identical, or differ only in words that mean the same."""
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb:
        return []
    # difflib's popular-token heuristic acts only from 200 tokens on (so never on a note of usual length): it keeps a
    # long text of repeated words from making the comparison cubic
    matcher = SequenceMatcher(None, ta, tb, autojunk=True)
    places = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if matcher.ratio() < SIMILAR or len(places) > _MOST_PLACES:
        return []
    changes = []
    for tag, i1, i2, j1, j2 in places:
        mine, theirs = ta[i1:i2], tb[j1:j2]
        if tag != "replace" or len(mine) > _LONGEST_SWAP or len(theirs) > _LONGEST_SWAP:
            continue  # a word only one note has is a fact the other lacks, not a contradiction
        if not any(t[0].isalnum() for t in (*mine, *theirs)) or _same_meaning(mine, theirs):
            continue
        changes.append((" ".join(mine), " ".join(theirs)))
    return changes


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall((text or "").casefold())


def _same_meaning(mine: list[str], theirs: list[str]) -> bool:
    words_a, words_b = [t for t in mine if t[0].isalnum()], [t for t in theirs if t[0].isalnum()]
    if [lemma_of(t) for t in words_a] == [lemma_of(t) for t in words_b]:
        # `Saturdays` / `Saturday`, punctuation apart; but `is` / `was` is another time
        return not any(x != y and lemma_of(x) in _AUXILIARIES for x, y in zip(words_a, words_b))
    if len(words_a) == 1 and len(words_b) == 1:
        x, y = lemma_of(words_a[0]), lemma_of(words_b[0])
        if wordnet.synonyms(x, y) or abbreviates(words_a[0], words_b[0]):
            return True
    keys_a = {k for v in read_note(" ".join(mine)).values for k in v.keys}
    keys_b = {k for v in read_note(" ".join(theirs)).values for k in v.keys}
    return bool(keys_a & keys_b)  # one value however written: `7pm` / `19:00`, `two` / `2`


__all__ = ["SIMILAR", "minimal_pair_changes"]
