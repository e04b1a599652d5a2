"""Whether one sentence restates another, token by token (the proof behind align.py's `restated`): every token a
source sentence owes is found in its body sentence in its own class's way (sentences.py), a marker once per
marker, a word said twice said twice, and each clause of the source within one clause of the body, in its order
wherever order carries meaning (`in_order`: a date and a time may trade places, a phrase may move with its
preposition, an equative may name its sides in either order; who does what to whom, a marker's scope, a role
word's object and the order of names, of content words and of values of one kind stay as written)."""
from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from . import lexical
from .facts.calendar_values import WEEKDAYS
from .facts.lexicon import EQUIVALENT_MARKERS, TITLE_ABBREVIATIONS, MarkerClass
from .facts.matching import abbreviates
from .facts.value_types import KeyHead, ValueKey
from .facts.values import ordinal_value
from .sentences import OWED_FUNCTION, Feature, MarkerKey, Token, TokenClass


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


def found(token: Token, among: Sequence[Token]) -> bool:
    """`token` is stated by one of `among`, in its own class's way (module docstring of sentences.py)."""
    if token.cls is TokenClass.VALUE:
        return any(_same_value(token, t) for t in among)
    if token.cls is TokenClass.MARKER:
        marker = token.marker
        equivalent = EQUIVALENT_MARKERS.get((marker.cls, marker.value), ()) if marker and isinstance(
            marker.cls, MarkerClass) else ()  # (a tense, a person have no equivalents)
        return any(t.cls is TokenClass.MARKER and (t.marker == marker or t.marker in equivalent) for t in among)
    if token.cls is TokenClass.NAME:
        low = token.text.casefold()
        return any(t.text.casefold() == low or low in t.keys or _plural_of(low, t.text) for t in among) or (
            token.text.isalpha() and any(_word_matches(token.text, t) for t in among if t.cls is TokenClass.NAME))
    return any(_word_matches(token.text, t) for t in among)


def _bound_in_value(marker: MarkerKey | None, among: Sequence[Token]) -> bool:
    """A bound's word is said by a value written with it (`about 1740` by `~1740`, `at least 3` by `≥3`): the
    values read the bound into their keys."""
    return marker is not None and marker.cls is MarkerClass.BOUND and any(
        t.cls is TokenClass.VALUE and t.keys and all(k.startswith(marker.value) for k in t.keys) for t in among)


_OPERATOR = re.compile(r"^[~^<>=≤≥±]+")
_CASE_KINDS_SAFE = re.compile(r"^[\d\s.,:/-]*(?:[A-Za-z]+\.?)?[\d\s.,:/-]*$")  # `14 March`, `9:30am`, `4 GB`


def _same_value(token: Token, other: Token) -> bool:
    """One value: a shared normal-form key (or the same spelling), the same operator before it (`~18.2` is not
    `^18.2`), the same case where case is part of it (`Blue-Heron-42`), and the same grammatical number of its last
    word (`Mondays` recurs, `Monday` does not)."""
    if not (token.keys & other.keys or token.text.casefold() == other.text.casefold() or _in_family(token, other)):
        return False
    if _DIGITS.sub("0", token.text.casefold()) == _DIGITS.sub("0", other.text.casefold()) and \
            _digit_groups(token.text) != _digit_groups(other.text):
        return False  # written the same way, one key met, but the numbers differ (`3:12:40` is not `3:12:41`)
    if _operator(token) != _operator(other):
        return False
    if token.text.casefold() == other.text.casefold() and token.text != other.text and any(
            c.isdigit() for c in token.text) and not _CASE_KINDS_SAFE.match(token.text):
        return False
    if _amount_in_key(token.keys & other.keys):
        return True  # `40 minutes` = `40 min`, `twice a year` = `every six months`: the shared key holds the amount
    if any(k.startswith("weekday:") for k in token.keys & other.keys):
        return None in (_recurs(token.text), _recurs(other.text)) or _recurs(token.text) == _recurs(other.text)
    a, b = _LAST_WORD.search(token.text), _LAST_WORD.search(other.text)
    return not (a and b) or lexical.same_form(a.group(), b.group()) or a.group().casefold() == b.group().casefold()


# A currency written without its country (`$`, `kr`) names one of the currencies written with that sign: the source's `$4.8k` is
# stated by `AUD 4,800` (never the other way: `AUD` is not stated by `$`).
_FAMILIES = {**dict.fromkeys("USD AUD CAD NZD SGD HKD MXN CLP ARS COP UYU".split(), "dollar"),  # written `$`
             **dict.fromkeys("SEK NOK DKK ISK".split(), "krone")}  # written `kr`
_COUNTRY_WRITTEN = re.compile(r"[A-Za-z]\$|\b[A-Z]{3}\b|(?i:\b(?:" + "|".join(_FAMILIES) + r"|us|australian|canadian)\b)")
_MONEY_KEY = re.compile(r"^(~?money):([A-Z]{3}):")


def _in_family(token: Token, other: Token) -> bool:
    if _COUNTRY_WRITTEN.search(token.text):
        return False
    return any(k.split(":")[1] in ("dollar", "krone") for k in _by_family(token.keys) & _by_family(other.keys))


def _by_family(keys: frozenset[str]) -> set[str]:
    """Money keys with each currency's family in place of its code (`money:AUD:4800` → `money:dollar:4800`)."""
    return {_MONEY_KEY.sub(lambda m: f"{m[1]}:{_FAMILIES.get(m[2], m[2])}:", k) for k in keys if _MONEY_KEY.match(k)}


def _operator(token: Token) -> str:
    """The operator a value is written with (`~`, `^`, `<`…); `~` also when a word said it (`about 1740` = `~1740`:
    the approximation is in every key)."""
    written = _OPERATOR.match(token.text)
    if written:
        return written.group()
    return "~" if token.keys and all(k.startswith("~") for k in token.keys) else ""


def _recurs(text: str) -> str | None:
    """How a weekday recurs as written: `Tuesdays` and `every Tuesday` weekly, `every second Tuesday` and `alternate
    Tuesdays` every two weeks, `Tuesday` once; `Tue` does not say (an abbreviation has no grammatical number)."""
    words = text.casefold().rstrip(".").split()
    if words[0] == "alternate":
        return "every 2"
    if words[0] in ("every", "each"):
        return f"every {(_nth(words[1]) if len(words) > 2 else None) or 1}"
    if words[-1].endswith("days"):
        return "every 1"
    return None if words[-1] in WEEKDAYS and not words[-1].endswith("day") else "once"


def _nth(word: str) -> int | None:
    """`other` and `second` are 2, `3rd` is 3 (every n-th week)."""
    digits = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
    return 2 if word == "other" else int(digits.group(1)) if digits else ordinal_value(word)


# Keys that hold a measured amount (how long, how often, how much): the grammatical number of the value's last word
# adds nothing to them. A day's or a month's name does not say whether it recurs: there `Mondays` is not `Monday`.
_AMOUNT_HEADS = frozenset({KeyHead.DURATION, KeyHead.FREQ, KeyHead.Q, KeyHead.MONEY, KeyHead.TEMP, KeyHead.PERCENT,
                           KeyHead.FRAC, KeyHead.RATIO, KeyHead.SHARE, KeyHead.TIMES, KeyHead.AGE, KeyHead.KILO})


@functools.lru_cache(maxsize=1 << 14)
def _amount_in_key(shared: frozenset[str]) -> bool:
    heads = [read.head for read in map(ValueKey.read, shared) if read is not None]
    return bool(heads) and all(h in _AMOUNT_HEADS for h in heads)


_LAST_WORD = re.compile(r"[A-Za-z]{3,}$")
_DIGITS = re.compile(r"\d+")


def _digit_groups(text: str) -> frozenset[str]:
    return frozenset(g.lstrip("0") or "0" for g in _DIGITS.findall(text))


def _is_person(t: Token) -> bool:
    return t.cls is TokenClass.MARKER and t.marker is not None and t.marker.cls is Feature.PERSON


_POSSESSOR = re.compile(r"\w['’]s$")


def implied_person(owed: Sequence[Token], among: Sequence[Token]) -> bool:
    """A note's sentence may leave out who it is about (`She has three ferrets` = `Ferrets: Pickle, …`; `My rye is
    85% hydration` = `Rye loaf: 85% hydration`): a pronoun of the source is implied where its body sentence names
    no one else — no pronoun, no possessor (`Dad's laptop`) and no name the source sentence does not state."""
    return not any(_is_person(t) or _POSSESSOR.search(t.text) or _another_name(t, owed) for t in among)


def _another_name(t: Token, owed: Sequence[Token]) -> bool:
    """A name (or a capitalised first word: `Bev tunes …`) the source sentence does not state."""
    return t.cls in (TokenClass.NAME, TokenClass.CONTENT) and t.text[:1].isupper() and not any(found(t, [o]) for o in owed)


def _owed_here(owed: Sequence[Token], among: Sequence[Token]) -> list[Token]:
    """What `owed` asks of `among`: its pronouns only where `among` does not imply them (`implied_person`), a bound's
    word only where no value there is written with it (`about 1740` of `~1740`: the value answers for both)."""
    implied = any(_is_person(t) for t in owed) and implied_person(owed, among)
    return [t for t in owed if not (implied and _is_person(t)) and not (
        t.cls is TokenClass.MARKER and _bound_in_value(t.marker, among))]


def markers_added(source: Sequence[Token], among: Sequence[Token]) -> list[Token]:
    """The markers `among` states, in the clauses that restate `source`, that `source` does not (`Ana might have a
    key` does not restate `Ana has a key`, nor `No longer uses zsh` `Uses zsh`), even where `among` is another
    source's sentence kept as written. A pronoun is read by `implied_person`, a bound written in a value by its key."""
    clauses: set[int] = set()
    for _, words in sorted(_by_clause(t for t in source if t.owed and t.cls is not TokenClass.MARKER).items()):
        hits = Counter(a.clause for a in among if a.cls is not TokenClass.MARKER and any(found(o, [a]) for o in words))
        clauses.update(c for c, n in hits.items() if n == max(hits.values()))  # the clause that restates it
    return [a for a in among if a.cls is TokenClass.MARKER and a.clause in clauses and not _is_person(a)
            and not found(a, source) and not _bound_in_value(a.marker, source) and not _bound_in_value(a.marker, among)]


def qualified_before(source: Sequence[Token], among: Sequence[Token]) -> bool:
    """`source`, written word for word inside `among`, comes after a marker of its clause there that it does not
    state (`No longer uses zsh` holds `Uses zsh` word for word)."""
    words = [t.text.casefold() for t in source]
    texts = [t.text.casefold() for t in among]
    for k in range(len(texts) - len(words) + 1 if words else 0):  # (a sentence not read has no tokens)
        if texts[k: k + len(words)] == words:
            first = among[k]
            return any(a.cls is TokenClass.MARKER and a.clause == first.clause and not _is_person(a)
                       and not found(a, source) for a in among[:k])
    return False


def _by_clause(words: Iterable[Token]) -> dict[int, list[Token]]:
    out: dict[int, list[Token]] = defaultdict(list)
    for t in words:
        out[t.clause].append(t)
    return out


def misses_at_least(owed: Sequence[Token], among: Sequence[Token], limit: int) -> bool:
    """At least `limit` of `owed` are not found in `among` (stops counting there)."""
    misses = 0
    for t in _owed_here(owed, among):
        if not found(t, among):
            misses += 1
            if misses >= limit:
                return True
    return False


def not_found(owed: Iterable[Token], among: Sequence[Token]) -> list[Token]:
    """The tokens not found. A marker is found once per marker there: one negation does not answer for two
    (`avoids red meat` does not hold the `not` of `does not eat fish`)."""
    owed = _owed_here(list(owed), among)
    missing = [t for t in owed if not found(t, among)]
    spare = Counter(t.marker for t in among if t.cls is TokenClass.MARKER)
    wanted = Counter(t.marker for t in owed if t.cls is TokenClass.MARKER)
    for t in owed:
        if t.cls is TokenClass.MARKER and t not in missing and wanted[t.marker] > spare[t.marker]:
            missing.append(t)
            wanted[t.marker] -= 1
    # a word said twice is said twice (`Tomorrow, and Tomorrow, and Tomorrow` is a title, not `Tomorrow, and Tomorrow`)
    said = Counter(t.text.casefold() for t in owed if t.cls in (TokenClass.NAME, TokenClass.CONTENT))
    there = Counter(t.text.casefold() for t in among)
    for word, times in said.items():
        if times > 1 and there[word] < times:
            missing += [t for t in owed if t.text.casefold() == word and t not in missing][: times - there[word]]
    return missing


def in_order(owed: Sequence[Token], among: Sequence[Token], everything: Sequence[Token] = ()) -> bool:
    """Who does what to whom: inside each clause of the source sentence, what it states keeps its order where the
    body restates it wherever order carries meaning (`_in_order_within`: `Ana manages Ben` is not `Ben manages Ana`,
    `Only Karen can` is not `Karen can only`), and all inside one clause of the body (a clause's facts spread over
    two clauses there are bound to other things: `18 g in and 36 g out` swapped). An equative may name its sides in
    either order, and an attribute may be said after a copula (`Rheem water heater` = `the water heater is a
    Rheem`). `everything` is the source sentence's every token (the prepositions that bind its names and values)."""
    clauses = _by_clause(_owed_here(owed, among))
    by_clause: dict[int, list[tuple[int, Token]]] = defaultdict(list)
    for i, other in enumerate(among):
        by_clause[other.clause].append((i, other))
    copulas = {t.clause: t.start for t in reversed(everything)
               if t.cls is TokenClass.FUNCTION and t.text.casefold() in _COPULAS}
    source = _Sentence(everything)
    body = _Sentence(among)
    return all(any(_in_order_within(words, there, source, body) or _sides_swapped(words, there, copulas.get(clause))
                   or (clause not in copulas and _attribute_said_after(words, there))
                   for there in by_clause.values()) or _whole_clauses_in_turn(words, by_clause, source, body)
               for clause, words in clauses.items())


def _whole_clauses_in_turn(words: Sequence[Token], by_clause: dict[int, list[tuple[int, Token]]], source: _Sentence,
                           body: _Sentence) -> bool:
    """One clause of the source said by the body as consecutive clauses, each said whole and in turn: `Her bandoneon
    is a 1938 Alfred Arnold with 142 voices` = `Bandoneon: 1938 Alfred Arnold, 142 voices`. Each body clause's every
    owed word answers for the source's next words, in order, so nothing in it binds them to something else (`18 g
    out` is not found in `18 g in, 36 g out`: its clause `18 g in` is not said whole)."""
    runs = [[(i, t) for i, t in there if t.owed] for _, there in sorted(by_clause.items())]
    runs = [run for run in runs if run]
    for first in range(len(runs) - 1):
        at = 0
        for run in runs[first:]:
            part = words[at: at + len(run)]
            if len(part) < len(run) or not _in_order_within(part, run, source, body):
                break
            at += len(run)
            if at == len(words):
                return run is not runs[first]
    return False


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


def _attribute_said_after(words: Sequence[Token], there: Sequence[tuple[int, Token]]) -> bool:
    """A clause with no copula that the body says with one, its first words moved after it: `Rheem water heater` =
    `the water heater is a Rheem`, `Cat Miso` = `Miso is a cat` (a noun's attribute said as its predicate). Each part
    a phrase kept whole, in order and together, and no marker in the clause (its scope would move with it)."""
    copula = next((i for i, t in there if t.cls is TokenClass.FUNCTION and t.text.casefold() in _COPULAS), None)
    if copula is None or any(t.cls is TokenClass.MARKER for t in words):
        return False
    before = [(i, t) for i, t in there if t.owed and i < copula]
    after = [(i, t) for i, t in there if t.owed and i > copula]
    return any(_whole_phrase(words[k:], before) and _whole_phrase(words[:k], after) for k in range(1, len(words)))


def _whole_phrase(side: Sequence[Token], there: Sequence[tuple[int, Token]]) -> bool:
    return any(all(found(t, [there[start + k][1]]) for k, t in enumerate(side))
               for start in range(len(there) - len(side) + 1))


# ---- where order carries meaning ----------------------------------------------------------------------------------
# A preposition binds the name or value it introduces (`at 7 am`, `on Mondays`, `at Kwik Fit`): with it, the phrase
# is an adjunct and may move as a whole (`At 7 am the dog gets a walk`).
_PREPOSITIONS = frozenset(("at on in for with by to of from into onto upon about via per until till since before "
                           "after during over under near behind beside between through across toward towards").split())
_ARTICLES = frozenset("a an the".split())
_ANY_VALUE = "value:*"  # a bare number may count, price or time anything: it keeps its order among every value
_VALUE_KINDS = {KeyHead.N: _ANY_VALUE, KeyHead.ORDINAL: _ANY_VALUE, KeyHead.TIMES: _ANY_VALUE,
                KeyHead.RATIO: _ANY_VALUE, KeyHead.AGE: _ANY_VALUE, KeyHead.PERCENT: "value:frac",
                KeyHead.KILO: "value:q:kilogram"}  # `7 kilos`; `5 km` is read as `kilo` too: kept in order among kg
_NAME, _CONTENT = frozenset({"name"}), frozenset({"content"})
_Class = frozenset[str] | None  # a token's class for order: its kinds, or None for a marker or a role word


class _Sentence:
    """A sentence's tokens and where each stands (to find the preposition that binds one)."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.at = {id(t): k for k, t in enumerate(tokens)}

    def binder(self, k: int | None) -> str | None:
        """The preposition that introduces the name or value at `k` (over the names, values and articles before it
        in its phrase and its clause), if one does."""
        if k is None:
            return None
        for j in range(k - 1, -1, -1):
            t = self.tokens[j]
            low = t.text.casefold()
            if t.clause != self.tokens[k].clause:
                return None
            if t.cls in (TokenClass.NAME, TokenClass.VALUE) or low in _ARTICLES:
                continue
            return low if low in _PREPOSITIONS else None
        return None


def _swap_class(t: Token) -> _Class:
    """A token's class for order (`_in_order_within`): None for a marker or a role word (`from`, `per`, `before`),
    which keeps its place among every word of its clause (its scope, its object)."""
    if t.cls is TokenClass.MARKER or t.text.casefold() in OWED_FUNCTION:
        return None
    if t.cls is TokenClass.VALUE:
        return frozenset(_value_kind(key) for key in t.keys)
    if t.cls is TokenClass.NAME:
        return _NAME
    return _NAME | _CONTENT if t.text[:1].isupper() else _CONTENT  # a sentence's first word may be a name


def _value_kind(key: str) -> str:
    read = ValueKey.read(key)
    if read is None:
        return "value:" + key
    if read.head is KeyHead.Q:
        return "value:q:" + read.unit  # a quantity of one dimension (`18 g` and `36 g`)
    return _VALUE_KINDS.get(read.head, "value:" + read.head)


def _same_class(a: _Class, b: _Class) -> bool:
    """Two tokens of these classes keep their order whatever else holds (one a marker or a role word, or both of one
    class: names, content words, values of one kind)."""
    if a is None or b is None or a & b:
        return True
    return (_ANY_VALUE in a and _values(b)) or (_ANY_VALUE in b and _values(a))


def _values(kinds: frozenset[str]) -> bool:
    return any(k.startswith("value:") for k in kinds)


def _keep_order(mine: _Class, p_anchored: bool, theirs: _Class, t_anchored: bool) -> bool:
    """A word of class `mine`, stated before one of class `theirs` in one clause, must stay before it there
    (`_in_order_within`); `anchored`: it came with its preposition."""
    if _same_class(mine, theirs):
        return True
    if mine is not None and theirs is not None and _values(mine) and _values(theirs):
        return False  # a date and a time, an amount and a weekday
    return not (p_anchored or t_anchored)  # a name or a value that moves with its preposition: an adjunct


def _in_order_within(words: Sequence[Token], there: Sequence[tuple[int, Token]], source: _Sentence,
                     body: _Sentence) -> bool:
    """Every word found in this one clause of the body, in the order the source clause states them, except where
    order carries no meaning: two values of different kinds may trade places (`on Monday at 9am` = `at 9am on
    Monday`), and a name or a value that comes with its preposition (the same in both: `at 7 am`, `at Kwik Fit`)
    may move past words of other classes (`The dog gets a walk at 7 am` = `At 7 am the dog gets a walk`). Never
    among words of one class (names, content words, values of one kind: `Ana manages Ben`, `Reno to Boise`, `24 on
    / 48 off`), never past a marker or a role word (`Only Karen can` is not `Karen can only`, `2 kg per 5 m` is not
    `5 m per 2 kg`), and a name or a value with no preposition stays on its side of every other word (`paid Ana
    £50` is not `Ana paid £50`, `Ana's manager Ben` is not `Ana is Ben's manager`). Each body word answers for one
    word of the source; the first place that fits is taken (a proof, never a search: a miss leaves it for a
    person)."""
    placed: list[tuple[_Class, int, bool]] = []  # a word's class, where it was found, whether its preposition came
    used: set[int] = set()
    for t in words:
        mine = _swap_class(t)
        floor = max((at for cls, at, anchored in placed if _keep_order(cls, anchored, mine, False)), default=-1)
        binder = source.binder(source.at.get(id(t))) if t.cls in (TokenClass.NAME, TokenClass.VALUE) else None
        floor_anchored = floor if binder is None else \
            max((at for cls, at, anchored in placed if _keep_order(cls, anchored, mine, True)), default=-1)
        pick = None
        for i, other in there:
            if i > floor_anchored and i not in used and found(t, [other]):
                anchored = binder is not None and body.binder(i) == binder
                if i > floor or anchored:
                    pick = (i, anchored)
                    break
        if pick is None:
            return False
        placed.append((mine, *pick))
        used.add(pick[0])
    return True


__all__ = ["found", "in_order", "markers_added", "misses_at_least", "not_found", "qualified_before"]
