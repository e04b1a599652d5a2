"""A word written otherwise by another note (matching.py's `word_found` asks here last): `re-` as `again`, a size
letter, a compound in two words, an abbreviation or a title, an acronym spelled out, a clipped or longer spelling,
a shared stem, kin and gendered forms."""
from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from . import wordnet
from .lexicon import FUNCTION_WORDS, TITLE_ABBREVIATIONS
from .notes import Word, lemma_of, zipf_of
from .report import Equivalence

if TYPE_CHECKING:
    from .matching import Index



def respelled_found(word: Word, other: Index) -> tuple[str, Equivalence] | None:
    """`word` spelled otherwise by the other: `re-` as `again`, a size, a compound in two words, an abbreviation
    or a title, an acronym spelled out, a clipped or longer spelling, a shared stem."""
    if word.lower.startswith("re") and len(word.lower) >= 6 and lemma_of(word.lower[2:].lstrip("-")) in other.lemmas \
            and re.search(r"\bagain\b", other.lower_text):
        return other.lemmas[lemma_of(word.lower[2:].lstrip("-"))].text + " again", Equivalence.PREFIX  # `relock` = `lock again`
    size = SIZES.get(word.text) or next((k for k, v in SIZES.items() if v == word.lower), None)
    if size and (size in other.lowers or size in {w.text for w in other.note.words}):
        return size, Equivalence.SIZE  # `size M` = `a medium`
    compound = _compound_in(word, other)  # before clippings: `wristband` is `wrist band`, not `wrist`
    if compound:
        return compound
    abbreviation = _abbreviation_of(word, other) or _title_of(word, other)
    if abbreviation:
        return abbreviation, Equivalence.ABBREVIATION
    acronym = _ACRONYM.match(word.text)
    if acronym and spelled_out(acronym.group(1).casefold(), other.note.text):
        return acronym.group(1), Equivalence.ACRONYM
    clipped = _clipped(word, other) if len(word.lower) >= 4 else None
    if clipped:
        return clipped, Equivalence.SPELLING
    root = stem(word.lower)
    if len(root) >= 5 and root in other.stems and other.stems[root].lower != word.lower:
        return other.stems[root].text, Equivalence.STEM  # `autoscaling` = `autoscales`, `expires` = `expiry`
    return None


def _clipped(word: Word, other: Index) -> str | None:
    """The other's word that `word` clips or lengthens: `prod` = `production`, `repo` = `repository`, `Postgres`."""
    for lemma, found in other.by_initial.get(word.lemma[:1], ()):
        short, long = sorted((lemma, word.lemma), key=len)
        # a clipped form (`prod` = `production`, `repo` = `repository`) or a longer spelling (`Postgres`)
        if len(short) >= 4 and long.startswith(short) and len(short) >= 0.35 * len(long) and \
                (len(short) >= 0.6 * len(long) or zipf_of(short) < 4.5):  # not `pass` of `passport`
            return found.text
    return None


_GENDERED_ENDINGS = (("lord", "lady"), ("man", "woman"), ("er", "ress"), ("or", "ress"), ("", "ess"), ("", "ette"),
                     ("man", "person"), ("woman", "person"), ("lord", "person"), ("lady", "person"))


# Family words as they are said and as they are written: a closed class (WordNet files `mum` one level under
# `mother`, so its synonyms do not join them).
KIN = {"mum": "mother", "mom": "mother", "mam": "mother", "mummy": "mother", "mommy": "mother", "ma": "mother",
        "dad": "father", "daddy": "father", "pa": "father", "gran": "grandmother", "granny": "grandmother",
        "nan": "grandmother", "nana": "grandmother", "grandma": "grandmother", "grandad": "grandfather",
        "granddad": "grandfather", "grandpa": "grandfather", "hubby": "husband", "sis": "sister", "bro": "brother",
        "grandkid": "grandchild", "kid": "child", "stepmum": "stepmother", "stepdad": "stepfather"}


def kin_form(word: Word, other: Index) -> str | None:
    """`mum` where the other writes `mother` (and the other way round), `grandma` / `grandmother`."""
    formal = KIN.get(word.lemma, word.lemma)
    for lemma, found in other.lemmas.items():
        if lemma != word.lemma and KIN.get(lemma, lemma) == formal:
            return found.text
    return None


def gendered_form(word: Word, other: Index) -> str | None:
    """One role in another gender's word: `landlord` / `landlady`, `chairman` / `chairwoman` / `chairperson`,
    `waiter` / `waitress`, `host` / `hostess`."""
    if not wordnet.names_a_person(word.lemma):
        return None
    for a, b in _GENDERED_ENDINGS:
        for mine, theirs in ((a, b), (b, a)):
            if word.lemma.endswith(mine) and len(word.lemma) - len(mine) >= 3:
                found = other.lemmas.get(word.lemma[: len(word.lemma) - len(mine)] + theirs)
                if found is not None and wordnet.names_a_person(found.lemma):
                    return found.text
    return None


def _compound_in(word: Word, other: Index) -> tuple[str, Equivalence] | None:
    """A closed compound written open, or the other way round: `carsick` = `car sickness`, `handover` = `hand
    over`, `bookkeeping` = `book keeping` — two neighbouring words of the other note that spell it."""
    if len(word.lower) < 6 or not word.lower.isalpha():
        return None
    for first, second in other.neighbour_pairs(word.lower[:3]):
        if not word.lower.startswith(first.lower):
            continue
        rest = word.lower[len(first.lower):]
        if len(rest) >= 3 and (second.lower.startswith(rest) or rest.startswith(stem(second.lower)) or
                               lemma_of(rest) == second.lemma):
            return f"{first.text} {second.text}", Equivalence.COMPOUND
    return None


_SUFFIXES = ("ations", "ation", "ions", "ion", "ments", "ment", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed",
             "ry", "y", "s", "e")


@functools.lru_cache(maxsize=65536)
def stem(lower: str) -> str:
    """A word without its inflection or a common derivational ending, for words no lemmatiser knows (Snowball's
    English stemmer was tried: it cuts `autoscaling` and `autoscales`, `expires` and `expiry` apart)."""
    for suffix in _SUFFIXES:
        if lower.endswith(suffix) and len(lower) - len(suffix) >= 5 and not (suffix == "s" and lower[-2] in "su"):
            return lower[:-len(suffix)]  # not the `s` of `compress`, `campus`
    return lower


def _abbreviation_of(word: Word, other: Index) -> str | None:
    """`appt` = `appointment`, `Dr` = `Doctor`, `mgr` = `manager`, either way round: a short word whose letters
    are the long word's, in order, from its first to its last (or a clipped start of it)."""
    mine = word.lower.rstrip(".")
    for lemma, found in other.by_initial.get(mine[:1], ()):
        if _abbreviates(mine, lemma) or _abbreviates(lemma, mine) or _abbreviates(found.lower, mine) or \
                _abbreviates(lemma, word.lemma) or \
                _abbreviates(mine, found.lower) or \
                _abbreviates(mine, gerund(lemma)):  # `req'd` = `required`; `mtg` (meeting) = `meets`
            return found.text
    for marker in other.note.markers:  # `req'd` = `required`, read as a marker of modality
        if marker.text[:1].casefold() == mine[:1] and _abbreviates(mine, marker.text.casefold()):
            return marker.text
    return None


def gerund(lemma: str) -> str:
    """`meet` → `meeting`, `schedule` → `scheduling`: the noun of the act a clipped form may stand for."""
    return (lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma) + "ing"


def _title_of(word: Word, other: Index) -> str | None:
    """`Dr` = `Doctor`, `St` = `Street`, either way round (lexicon.TITLE_ABBREVIATIONS)."""
    mine = word.lower.rstrip(".")
    if mine in TITLE_ABBREVIATIONS and TITLE_ABBREVIATIONS[mine] in other.lemmas:
        return other.lemmas[TITLE_ABBREVIATIONS[mine]].text
    for short, long in TITLE_ABBREVIATIONS.items():
        if long == word.lemma and (short in other.lowers or short in other.lemmas):
            return short
    return None


def abbreviates(short: str, long: str) -> bool:
    """`qty` of `quantity`, `appt` of `appointment`, `mgr` of `manager` (either way round)."""
    return _abbreviates(short, long) or _abbreviates(long, short)


def _abbreviates(short: str, long: str) -> bool:
    short = short.replace("'", "").replace("’", "")  # `req'd` = `required`, `gov't` = `government`
    return 2 <= len(short) <= 5 and len(long) > len(short) + 1 and short[0] == long[0] and \
        (short[-1] == long[-1] or long.startswith(short) or (long[-1] == "e" and short[-1] == long[-2])) and \
        _subsequence(short, long) and zipf_of(short) < 5.0 and (wordnet.is_word(long) or not wordnet.is_word(short))
    # `svc` = `service`: a silent final e dropped; `Dob` = `Dobsonian`, but a name is not clipped to a word (`sun`)


def _subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(ch in letters for ch in short)


SIZES = {"XS": "extra-small", "S": "small", "M": "medium", "L": "large", "XL": "extra-large", "XXL": "xxl"}
_ACRONYM = re.compile(r"^([A-Z]{2,6})s?$")
CODES = re.compile(r"(?<![A-Za-z])[A-Z]{2,3}(?![A-Za-z])")


def spelled_out(letters: str, text: str) -> bool:
    """`pr` in "pull requests", `nas` in "network attached storage": consecutive words with these initials."""
    words = [w for w in re.findall(r"[^\W\d_]+", text.casefold()) if len(letters) > 2 or w not in FUNCTION_WORDS]
    return letters in "".join(w[0] for w in words)


# a long note asks for the same words over and over (a str's hash is cached); as many entries as read_note_cached
# keeps notes, so the texts it holds on to stay within what the lens already keeps
@functools.lru_cache(maxsize=4096)
def whole_word_in(needle: str, haystack: str) -> bool:
    at = haystack.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or not haystack[at - 1].isalnum()) and (end == len(haystack) or not haystack[end].isalnum()):
            return True
        at = haystack.find(needle, at + 1)
    return False


# ---- aligning sentences -----------------------------------------------------------------------------------
