"""Whether one sentence restates another, token by token (the proof behind align.py's `restated`): every token a
source sentence owes is found in its body sentence in its own class's way (sentences.py), a marker once per
marker, a word said twice said twice, and in order inside each clause of the source and within one clause of the
body (an equative may name its sides in either order)."""
from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from . import lexical
from .facts.lexicon import EQUIVALENT_MARKERS, TITLE_ABBREVIATIONS, MarkerClass
from .facts.matching import abbreviates
from .sentences import Token, TokenClass


def _word_matches(word: str, other: Token) -> bool:
    if word.casefold() in other.keys:
        return True
    return _words_match(word, other.text, other.cls in (TokenClass.CONTENT, TokenClass.NAME))


@functools.lru_cache(maxsize=1 << 16)
def _words_match(word: str, other: str, open_class: bool) -> bool:
    """One word states another: the same word, a lemma in the same form, a main-sense synonym, a derivational form,
    a contraction (a word pair's answer does not depend on its text: cached)."""
    theirs = TITLE_ABBREVIATIONS.get(other.casefold(), other)
    mine = TITLE_ABBREVIATIONS.get(word.casefold(), word)
    if mine.casefold() == theirs.casefold():
        return True
    if not open_class or not mine.isalpha() or not theirs.isalpha():
        return False
    return lexical.same_lemma(mine, theirs) or lexical.same_sense(mine, theirs) or lexical.derived(mine, theirs) \
        or _contracted(mine.casefold(), theirs.casefold())


def _contracted(a: str, b: str) -> bool:
    """`acct` of `account`, `mgr` of `manager`: a contraction that keeps the word's first and inner letters. A
    clipped prefix (`azithro`, `amox`) is not one: a prefix may name another thing."""
    short, long = sorted((a, b), key=len)
    return not long.startswith(short) and not lexical.is_word(short) and abbreviates(short, long)


def _plural_of(a: str, b: str) -> bool:
    short, long = sorted((a.casefold(), b.casefold()), key=len)
    return long in (short + "s", short + "es")


_MARKER_CLASS = {c.value: c for c in MarkerClass}  # a marker token's key is `class:value`


def found(token: Token, among: Sequence[Token]) -> bool:
    """`token` is stated by one of `among`, in its own class's way (module docstring of sentences.py)."""
    if token.cls is TokenClass.VALUE:
        return any(_same_value(token, t) for t in among)
    if token.cls is TokenClass.MARKER:
        allowed = set(token.keys)
        for key in token.keys:
            cls, _, value = key.partition(":")
            if cls in _MARKER_CLASS:  # (`tense:past`, `person:…` have no equivalents)
                allowed.update(f"{c}:{v}" for c, v in EQUIVALENT_MARKERS.get((_MARKER_CLASS[cls], value), ()))
        return any(t.cls is TokenClass.MARKER and t.keys & allowed for t in among)
    if token.cls is TokenClass.NAME:
        low = token.text.casefold()
        return any(t.text.casefold() == low or low in t.keys or _plural_of(low, t.text) for t in among) or (
            token.text.isalpha() and any(_word_matches(token.text, t) for t in among if t.cls is TokenClass.NAME))
    return any(_word_matches(token.text, t) for t in among)


_OPERATOR = re.compile(r"^[~^<>=≤≥±]+")
_CASE_KINDS_SAFE = re.compile(r"^[\d\s.,:/-]*(?:[A-Za-z]+\.?)?[\d\s.,:/-]*$")  # `14 March`, `9:30am`, `4 GB`


def _same_value(token: Token, other: Token) -> bool:
    """One value: a shared normal-form key (or the same spelling), the same operator before it (`~18.2` is not
    `^18.2`), the same case where case is part of it (`Blue-Heron-42`), and the same grammatical number of its last
    word (`Mondays` recurs, `Monday` does not)."""
    if not (token.keys & other.keys or token.text.casefold() == other.text.casefold()):
        return False
    if _DIGITS.sub("0", token.text.casefold()) == _DIGITS.sub("0", other.text.casefold()) and \
            _digit_groups(token.text) != _digit_groups(other.text):
        return False  # written the same way, one key met, but the numbers differ (`3:12:40` is not `3:12:41`)
    mine, theirs = _OPERATOR.match(token.text), _OPERATOR.match(other.text)
    if (mine.group() if mine else "") != (theirs.group() if theirs else ""):
        return False
    if token.text.casefold() == other.text.casefold() and token.text != other.text and any(
            c.isdigit() for c in token.text) and not _CASE_KINDS_SAFE.match(token.text):
        return False
    a, b = _LAST_WORD.search(token.text), _LAST_WORD.search(other.text)
    return not (a and b) or lexical.same_form(a.group(), b.group()) or a.group().casefold() == b.group().casefold()


_LAST_WORD = re.compile(r"[A-Za-z]{3,}$")
_DIGITS = re.compile(r"\d+")


def _digit_groups(text: str) -> frozenset[str]:
    return frozenset(g.lstrip("0") or "0" for g in _DIGITS.findall(text))


def misses_at_least(owed: Sequence[Token], among: Sequence[Token], limit: int) -> bool:
    """At least `limit` of `owed` are not found in `among` (stops counting there)."""
    misses = 0
    for t in owed:
        if not found(t, among):
            misses += 1
            if misses >= limit:
                return True
    return False


def not_found(owed: Iterable[Token], among: Sequence[Token]) -> list[Token]:
    """The tokens not found. A marker is found once per marker there: one negation does not answer for two
    (`avoids red meat` does not hold the `not` of `does not eat fish`)."""
    owed = list(owed)
    missing = [t for t in owed if not found(t, among)]
    spare = Counter(k for t in among if t.cls is TokenClass.MARKER for k in t.keys)
    wanted = Counter(k for t in owed if t.cls is TokenClass.MARKER for k in t.keys)
    for t in owed:
        if t.cls is TokenClass.MARKER and t not in missing and any(wanted[k] > spare[k] for k in t.keys):
            missing.append(t)
            for k in t.keys:
                wanted[k] -= 1
    # a word said twice is said twice (`Tomorrow, and Tomorrow, and Tomorrow` is a title, not `Tomorrow, and Tomorrow`)
    said = Counter(t.text.casefold() for t in owed if t.cls in (TokenClass.NAME, TokenClass.CONTENT))
    there = Counter(t.text.casefold() for t in among)
    for word, times in said.items():
        if times > 1 and there[word] < times:
            missing += [t for t in owed if t.text.casefold() == word and t not in missing][: times - there[word]]
    return missing


def in_order(owed: Sequence[Token], among: Sequence[Token], everything: Sequence[Token] = ()) -> bool:
    """Who does what to whom: inside each clause of the source sentence, what it states keeps its order where the
    body restates it (a restatement may move whole clauses, not swap the words of one: `Ana manages Ben` is not
    `Ben manages Ana`, `Only Karen can` is not `Karen can only`), and all inside one clause of the body (a clause's
    facts spread over two clauses there are bound to other things: `18 g in and 36 g out` swapped)."""
    clauses: dict[int, list[Token]] = defaultdict(list)
    for t in owed:
        clauses[t.clause].append(t)
    by_clause: dict[int, list[tuple[int, Token]]] = defaultdict(list)
    for i, other in enumerate(among):
        by_clause[other.clause].append((i, other))
    copulas = {t.clause: t.start for t in reversed(everything)
               if t.cls is TokenClass.FUNCTION and t.text.casefold() in _COPULAS}
    return all(any(_in_order_within(words, there) or _sides_swapped(words, there, copulas.get(clause))
                   for there in by_clause.values())
               for clause, words in clauses.items())


_COPULAS = frozenset("is are am be =".split())


def _sides_swapped(words: Sequence[Token], there: Sequence[tuple[int, Token]], copula: int | None) -> bool:
    """An equative may name its sides in either order (`Leila's pediatrician is Dr. Okonkwo` = `Dr. Okonkwo is
    Leila's pediatrician`), each side a phrase kept whole: its words in order and together, nothing the source
    clause states between them (`Ana is Ben's manager` is not `Ben is Ana's manager`)."""
    if copula is None:
        return False
    sides = [[t for t in words if t.start < copula], [t for t in words if t.start > copula]]
    owed_there = [(i, t) for i, t in there if t.owed]
    return all(side and _whole_phrase(side, owed_there) for side in sides)


def _whole_phrase(side: Sequence[Token], there: Sequence[tuple[int, Token]]) -> bool:
    return any(all(found(t, [there[start + k][1]]) for k, t in enumerate(side))
               for start in range(len(there) - len(side) + 1))


def _in_order_within(words: Sequence[Token], there: Sequence[tuple[int, Token]]) -> bool:
    """Every word found in this one clause of the body, in the order the source clause states them."""
    at = -1
    for t in words:
        later = [i for i, other in there if i > at and found(t, [other])]
        if not later:
            return False
        at = later[0]
    return True


__all__ = ["found", "in_order", "misses_at_least", "not_found"]
