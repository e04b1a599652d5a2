"""Finding one note's fact in another: value keys, lemmas, spellings, abbreviations, acronyms, synonyms in the
sentence that restates it, and which sentences restate which (weighted word and value overlap)."""
from __future__ import annotations

import dataclasses
import itertools
import re

from . import codes, wordnet
from .bounds import strip_bound
from .lexicon import EQUIVALENT_MARKERS, FUNCTION_WORDS, MarkerClass
from .notes import Note, Word, lemma_of, zipf_of
from .report import Equivalence
from .respellings import (
    CODES,
    KIN,
    SIZES,
    abbreviates,
    gendered_form,
    gerund,
    kin_form,
    respelled_found,
    spelled_out,
    stem,
    whole_word_in,
)
from .value_types import ValueKey, ValueKind, fmt
from .values import Value


class Index:
    """What a note holds, for fast look-ups: value keys, lemmas, words, synsets, sentence features."""

    def __init__(self, note: Note):
        self.note = note
        self._index_values(note)
        self._index_words(note)
        self._index_sentences(note)
        self._synsets: set[int] | None = None
        self._capitals: tuple[frozenset[str], list[str]] | None = None
        self._pairs: dict[str, list[tuple[Word, Word]]] | None = None

    def _index_values(self, note: Note) -> None:
        """The note's values by key, a rate's amount and period each alone, and values by their written amount."""
        self.keys: dict[str, list[int]] = {}
        for i, value in enumerate(note.values):
            for key in match_keys(value):
                self.keys.setdefault(key, []).append(i)
        # a rate is an amount and a period: each found alone too (`£240 a month` holds `£240` and `monthly`)
        self.rate_parts: dict[str, list[int]] = {}
        for i, value in enumerate(note.values):
            if value.kind == ValueKind.RATE:
                for key in value.keys:
                    amount, period = _rate_parts(key)
                    if period:
                        self.rate_parts.setdefault(amount, []).append(i)
                        self.rate_parts.setdefault(period, []).append(i)
                        self.rate_parts.setdefault(_as_duration(period), []).append(i)  # `$40 per half hour`
        self.amounts: dict[str, list[int]] = {}  # `30` → the values written `30 <unit>`
        for i, value in enumerate(note.values):
            if value.amount:
                self.amounts.setdefault(value.amount, []).append(i)

    def _index_words(self, note: Note) -> None:
        """The note's words by lemma, lower case, stem, first letter and a hyphenated word's parts."""
        self.lemmas: dict[str, Word] = {}
        self.lowers: set[str] = set()
        self.stems: dict[str, Word] = {}  # a word the lemmatiser does not know, by its stem (`autoscal`)
        self.by_initial: dict[str, list[tuple[str, Word]]] = {}  # lemmas by first letter, for spellings
        self.parts: dict[str, Word] = {}  # the lemmas of a hyphenated word's parts
        for word in note.words:
            if word.lemma not in self.lemmas:
                self.by_initial.setdefault(word.lemma[:1], []).append((word.lemma, word))
            self.lemmas.setdefault(word.lemma, word)
            self.lowers.add(word.lower)
            self.stems.setdefault(stem(word.lower), word)
            if "-" in word.lower:  # `auto-debit` holds `debit`, said alone elsewhere as `debited`
                for part in word.lower.split("-"):
                    if len(part) >= 4:
                        self.parts.setdefault(lemma_of(part), word)

    def _index_sentences(self, note: Note) -> None:
        """Per sentence: its markers, and its features (weighted lemmas, stems and value keys) with their postings."""
        self.lower_text = note.text.casefold()
        self.markers_by_sentence: dict[int, set[tuple[str, str]]] = {}
        for marker in (*note.markers, *note.weak_markers):
            self.markers_by_sentence.setdefault(marker.sentence, set()).update(
                {marker.key, *EQUIVALENT_MARKERS.get(marker.key, ())})
        self.features = [dict[str, float]() for _ in note.sentences]
        for word in note.words:
            heft = weight(word)
            self.features[word.sentence][word.lemma] = heft
            # `compress` restated as `compression`: a shared stem aligns them too
            self.features[word.sentence]["~" + stem(word.lemma)] = 0.5 * heft
        for value, sentence in zip(note.values, note.value_sentence):
            for key in value.keys:
                self.features[sentence][key] = 3.0
        self.postings: dict[str, list[int]] = {}
        for index, features in enumerate(self.features):
            for feature in features:
                self.postings.setdefault(feature, []).append(index)

    def neighbour_pairs(self, lead: str) -> list[tuple[Word, Word]]:
        """Two neighbouring words (at most two characters apart) whose first has three letters or more and starts
        with `lead` (three letters): what `_compound_in` asks of, indexed once per note, not scanned per word."""
        if self._pairs is None:
            self._pairs = {}
            for first, second in itertools.pairwise(self.note.words):
                if second.start - first.end <= 2 and len(first.lower) >= 3:
                    self._pairs.setdefault(first.lower[:3], []).append((first, second))
        return self._pairs.get(lead, [])

    def capitals(self) -> tuple[frozenset[str], list[str]]:
        """(acronyms, two- and three-letter codes) the note writes in capitals, scanned once: asked for each word the other
        note has that this one lacks."""
        if self._capitals is None:
            self._capitals = (frozenset(a.casefold().replace("&", "") for a in _ACRONYMS.findall(self.note.text)),
                              CODES.findall(self.note.text))
        return self._capitals

    def synsets(self) -> set[int]:
        if self._synsets is None:
            tables = wordnet.tables()
            self._synsets = set()
            for lemma in self.lemmas:
                self._synsets |= tables.synsets.get(lemma, frozenset())
        return self._synsets


def weight(word: Word) -> float:
    return min(5.0, max(1.0, 7.0 - word.zipf))


def match_keys(value: Value) -> set[str]:
    """A value's keys plus the year-less form of a full date, so `14 July` finds `2026-07-14`."""
    days = [k for k in map(ValueKey.read, value.keys) if k and not k.bound and k.date and k.date.year and k.date.day
            and k.date.exact]
    return set(value.keys) | {f"date:????{k.body[4:]}" for k in days}


WORDLIKE_KINDS = frozenset({ValueKind.ALL_CAPS, ValueKind.CAMEL_CASE, ValueKind.SNAKE_CASE, ValueKind.KEBAB_CASE,
                            ValueKind.DOTTED_IDENTIFIER, ValueKind.URL, ValueKind.PATH, ValueKind.EMAIL,
                            ValueKind.CHANNEL, ValueKind.FILE_PATH, ValueKind.VERSION})


def spells_an_acronym(note: Note, word: Word, other: Index) -> bool:
    """`autoscaler` of "horizontal pod autoscaler" where the other note writes `HPA`: one of a run of words whose
    initials spell the other's acronym."""
    acronyms = other.capitals()[0]
    if not acronyms:
        return False
    words = note.words_in(word.sentence)
    at = next((i for i, w in enumerate(words) if w.start == word.start), None)
    if at is None:
        return False
    for acronym in acronyms:
        n = len(acronym)
        for first in range(max(0, at - n + 1), min(at, len(words) - n) + 1):
            if "".join(w.lower[:1] for w in words[first:first + n]) == acronym:
                return True
    return False


_ACRONYMS = re.compile(r"(?<![A-Za-z])([A-Z]{2,6}|[A-Z](?:&[A-Z]){1,3})s?(?![A-Za-z])")  # `HPA`, `A&H`


def _codes_named(text: str, other: Index) -> bool:
    """Each code of `LHR-SFO`, `EN/PT` (or `LHR`, `DE`) named in the other note by what it stands for."""
    parts = re.split(r"[-/]", text)
    return all(CODES.fullmatch(code) for code in parts) and all(
        any(place in other.lowers or whole_word_in(place, other.lower_text) for place in codes.names_of(code))
        for code in parts)


def _rate_parts(key: str) -> tuple[str, str]:
    """(`money:GBP:180`, `freq:3.16881e-08`) of `money:GBP:180/3.15576e+07s`; ('', '') for a rate per a thing."""
    amount, _, per = key.rpartition("/")
    if not amount or not per.endswith("s") or per.startswith("per:"):
        return "", ""
    try:
        seconds = float(per[:-1])
    except ValueError:
        return "", ""
    return amount, f"freq:{fmt(1 / seconds)}" if seconds > 0 else ""


_EQUALLY = re.compile(r"\b(?:equally|evenly|half\s+each|equal\s+(?:shares|halves|parts)|down\s+the\s+middle)\b")
_WHOLLY = re.compile(r"\b(?:entirely|wholly|completely|fully|all\s+of\s+it|in\s+full|100\s+per\s?cent)\b")


def _as_duration(period: str) -> str:
    """`freq:0.000555556` (once per half hour) as `duration:1800`, the length of each period."""
    try:
        return f"duration:{fmt(1 / float(period[5:]))}" if period.startswith("freq:") else ""
    except (ValueError, ZeroDivisionError):
        return ""


def value_found(value: Value, other: Index) -> Value | None:
    found = _found_by_key(value, other)
    if found is not None:
        return found
    return value if _said_otherwise(value, other) or _spelled_otherwise(value, other) else None


def _found_by_key(value: Value, other: Index) -> Value | None:
    """The other's value that shares a key with `value`, holds it within a rate, or states a rate's amount and
    period in one sentence."""
    for key in value.keys:
        if key in other.keys:
            return other.note.values[other.keys[key][0]]
    if value.kind in (ValueKind.MONEY, ValueKind.QUANTITY, ValueKind.FREQUENCY):
        for key in value.keys:  # `£240` or `monthly` said within the other's `£240 a month`
            if key in other.rate_parts:
                return other.note.values[other.rate_parts[key][0]]
    if value.kind == ValueKind.RATE:
        for key in value.keys:  # `£180 a year` said as `the annual … is £180`: amount and period in one sentence,
            # `$40 per half hour` as `a 30-minute lesson costs $40`
            amount, period = _rate_parts(key)
            for per in (period, _as_duration(period)) if amount and amount in other.keys else ():
                sentences = {other.note.value_sentence[i] for i in other.keys[amount]}
                if per in other.keys and sentences & {other.note.value_sentence[i] for i in other.keys[per]}:
                    return other.note.values[other.keys[amount][0]]
    return None


def _said_otherwise(value: Value, other: Index) -> bool:
    """`value` written in the other's words: a share, a whole, an identifier inside a longer one, a code's number
    or parts."""
    if "share:equal" in value.keys and _EQUALLY.search(other.lower_text):
        return True  # `split 50/50` where the other writes `share equally`
    if "percent:100" in value.keys and _WHOLLY.search(other.lower_text):
        return True  # `internet 100% mine` where the other writes `entirely mine`
    if value.kind in WORDLIKE_KINDS and (whole_word_in(value.text.casefold(), other.lower_text) or (
            value.kind == ValueKind.ALL_CAPS and whole_word_in(value.text.casefold() + "s", other.lower_text))):
        return True  # `POOL` in a note that writes `pool`, an identifier inside a longer one
    if value.kind == ValueKind.ALL_CAPS and coded_number(value.text, other):
        return True  # `Y12` where the other writes `Year 12`
    if value.kind == ValueKind.DOTTED_IDENTIFIER and all(whole_word_in(part, other.lower_text)
                                                  for part in value.text.casefold().split(".") if part):
        return True  # `pg_stat_statements.track` where the other writes `pg_stat_statements … track = top`
    if value.kind == ValueKind.KEBAB_CASE and _parts_said_together(value.text, other.lower_text):
        return True  # `Seattle-to-Bainbridge` where the other writes `Seattle->Bainbridge`, `km-24` `km 24`
    # `#WSF88412` is the number WSF88412 (`confirmation number WSF88412`), not a chat channel
    return value.kind == ValueKind.CHANNEL and bool(re.fullmatch(r"#[A-Za-z]*\d[\w-]*", value.text)) and \
        whole_word_in(value.text[1:].casefold(), other.lower_text)


def _spelled_otherwise(value: Value, other: Index) -> bool:
    """`value` spelled out by the other: an acronym's words, a negated word, the places of a code, `a` for one."""
    if value.kind == ValueKind.ALL_CAPS and not re.search(r"\d", value.text) and len(re.sub(r"[^a-z]", "", value.text.casefold())) >= 2 \
            and spelled_out(re.sub(r"[^a-z]", "", value.text.casefold()), other.note.text):
        return True  # `PTO` where the other writes "paid time off", `L&D` "learning and development"
    shouted = value.text.casefold()
    if value.kind == ValueKind.ALL_CAPS and shouted.startswith(("un", "non")) and lemma_of(
            shouted[3 if shouted.startswith("non") else 2:].lstrip("-")) in other.lemmas and any(
            m.cls == MarkerClass.NEGATION for m in other.note.markers):
        return True  # `UNPAID` where the other writes `hasn't paid`
    if value.kind in (ValueKind.ALL_CAPS, ValueKind.KEBAB_CASE) and _codes_named(value.text, other):
        return True  # `LHR-SFO` where the other writes "London Heathrow … San Francisco"
    if "n:1" in value.keys and value.dimension.startswith("count:"):
        noun = re.escape(value.dimension[6:])
        if re.search(rf"\b(?:a|an|one|single)\s+(?:[a-z-]+\s+)?{noun}", other.lower_text):
            return True  # `one rabbit` = `a rabbit`
    return False


def number_in_compound(value: Value, note: Note, other: Index) -> Value | None:
    """The other's compound that writes a plain number with the word beside it: `aid stn km 24` where the other
    writes `the km-24 aid station`."""
    if value.dimension != "number":
        return None
    for compound in other.note.values:
        parts = compound.text.split("-") if compound.kind == ValueKind.KEBAB_CASE else []
        if value.text in parts and _parts_said_together(compound.text, note.text[max(0, value.start - 40):
                                                                                     value.end + 40].casefold()):
            return compound
    return None


_PLURAL_CODE = re.compile(r"(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d|[A-Z]{2,})[A-Z0-9-]{2,}s")  # `A100s`, `ITMs`, `C9500s`
_LETTER_CODE = re.compile(r"([A-Za-z]{1,3})\.?(\d{1,4})")
_WORD_BEFORE = re.compile(r"([^\W\d_]+)\.?\s+$")


def coded_number(code: str, other: Index) -> Value | None:
    """`Y11`, `P3`, `S2`, `v2`: a number after the first letters of what it counts, which the other note writes
    out (`Year 11`, `period three`, `season two`, `version 2.0`)."""
    m = _LETTER_CODE.fullmatch(code)
    if not m:
        return None
    letters, number = m.group(1).casefold(), f"n:{int(m.group(2))}"
    for value in other.note.values:
        if number not in {strip_bound(k) for k in value.keys}:
            continue  # (`up to season three`: the bound is the note's, the number the code's)
        before = _WORD_BEFORE.search(other.note.text, max(0, value.start - 24), value.start)
        if before and len(before.group(1)) > len(letters) and before.group(1).casefold().startswith(letters):
            return value
    return None


def number_coded(value: Value, note: Note, source: Index) -> bool:
    """The converse of `coded_number`: the body's `Year 11` where a source writes `Y11` (or `v2.0` for
    `version 2.0`, `ch. 15` for `chapter 15`)."""
    before = _WORD_BEFORE.search(note.text, max(0, value.start - 24), value.start)
    number = next((strip_bound(k)[2:] for k in value.keys if strip_bound(k).startswith("n:")), "")
    if value.kind != ValueKind.NUMBER or not before or not number:
        return False
    word = before.group(1).casefold()
    return any(re.search(rf"(?<![a-z\d]){re.escape(word[:k])}\.?\s?{re.escape(number)}(?!\d)", source.lower_text)
               for k in range(1, min(3, len(word) - 1) + 1))


def _parts_said_together(compound: str, other_text: str) -> bool:
    """The content parts of a hyphenated compound, in order, with at most one word between each two."""
    parts = [p for p in compound.casefold().split("-") if p and p not in FUNCTION_WORDS]
    return len(parts) >= 2 and bool(re.search(r"(?<!\w)" + r"[\W_]+(?:\w+[\W_]+)?".join(map(re.escape, parts))
                                               + r"(?!\w)", other_text))


_DETERMINED = re.compile(r"\b(?:my|our|your|his|her|their|the|a|an|this|these|those)\s+$", re.IGNORECASE)


def unbound(value: Value) -> Value:
    """The value with any bound taken off, and matching any bound: `up to 5` and `5` are one amount."""
    keys = {strip_bound(k) for k in value.keys}
    keys |= {f"{b}{k}" for k in keys for b in ("<=", ">=", "<", ">", "~", "~<", "=")}
    return dataclasses.replace(value, keys=frozenset(keys))


def word_found(word: Word, other: Index, features: dict[str, float] | None = None) -> tuple[str, Equivalence] | None:
    """(the other note's word, rule) when `word` is there: same lemma, a spelling, an acronym, or a WordNet
    synonym in a sentence that restates `word`'s (`features`: its sentence's), since a common word is a
    synonym of many (`pass` of `passport`)."""
    if len(word.text) == 1 and word.text.isupper():  # `bus 7A`, `freezer B`: the letter itself, not the article
        return _letter_found(word, other)
    if word.lower in other.lowers:
        return word.text, Equivalence.SAME  # (before the lemma: `the volunteer lead` must not hide a later `volunteers`)
    if _PLURAL_CODE.fullmatch(word.text) and whole_word_in(word.lower[:-1], other.lower_text):
        return word.text[:-1], Equivalence.PLURAL  # `two A100s` where the other writes `2× A100`, `ITMs` / `ITM`
    if word.lemma in other.lemmas:
        return _lemma_found(word, other)
    if whole_word_in(word.lower, other.lower_text):
        return word.text, Equivalence.SAME  # inside an identifier or a value: `numpy` of `numpy==1.26`
    return _related_found(word, other, features) or respelled_found(word, other)


def _letter_found(word: Word, other: Index) -> tuple[str, Equivalence] | None:
    """A capital letter alone (`bus 7A`, `size M`): the letter itself, or the size it names."""
    if re.search(rf"(?<![^\W\d_]){word.text}(?![^\W\d_])", other.note.text):
        return word.text, Equivalence.SAME
    size = SIZES.get(word.text)  # `size M` where the other writes `a medium`
    return (size, Equivalence.SIZE) if size and whole_word_in(size, other.lower_text) else None


def _lemma_found(word: Word, other: Index) -> tuple[str, Equivalence] | None:
    """The other's word of the same lemma; None when the two count people differently (`my daughters` / `my
    daughter`)."""
    found = other.lemmas[word.lemma]
    if found.lower != word.lower and wordnet.names_a_person(word.lemma) and \
            (word.lower == word.lemma) != (found.lower == found.lemma) and \
            _DETERMINED.search(other.note.text, max(0, found.start - 12), found.start):
        return None  # `my daughters` / `my daughter`: how many people is the fact (`Saturdays` is one day;
        # `guest` of `VLAN 30 guest` is a modifier)
    return (found.text, Equivalence.LEMMA) if found.lower != word.lower else (found.text, Equivalence.SAME)


def _related_found(word: Word, other: Index, features: dict[str, float] | None) -> tuple[str, Equivalence] | None:
    """A word of the other related to `word`: a synonym in a sentence that restates it, a derived form, its
    parts, a number it names, the same role of the other sex or in family words, a code for it."""
    synsets = wordnet.tables().synsets.get(word.lemma)
    if synsets and synsets & other.synsets() and features is not None:
        near = set(aligned(features, other, loose=True))
        for found in other.note.words:
            if found.sentence in near and wordnet.synonyms(word.lemma, found.lemma):
                return found.text, Equivalence.SYNONYM
    for form in wordnet.derived_forms(word.lemma) | wordnet.derived_forms(word.lower):
        if form in other.lemmas:  # a nominalisation restates its verb: `rehearses` = `rehearsal`
            return other.lemmas[form].text, Equivalence.DERIVED
    if "-" in word.lower and all(part in other.lemmas or part in other.lowers or lemma_of(part) in other.lemmas or (
            len(part) >= 4 and any(w.startswith(part) for w in other.lowers))
                                 for part in word.lower.split("-") if part):
        return word.text, Equivalence.SAME  # `check-in` in "checking in", `second-hand` in "second hand", `auto-debit` in
        # "debited automatically"
    if word.lemma in other.parts and zipf_of(word.lemma) < 5.5:
        return other.parts[word.lemma].text, Equivalence.PART
    coded = coded_number(word.text, other)
    if coded:
        return coded.text, Equivalence.NUMBER_NAMED  # `S2` where the other writes `season two`
    gendered = gendered_form(word, other) or (kin_form(word, other) if word.lemma in KIN or word.lemma in KIN.values()
                                          else None)
    if gendered:
        return gendered, Equivalence.SAME_ROLE
    if word.text[:1].isupper() and (codes.named_by_code(word.text, other.capitals()[1]) or
                                    _codes_named(word.text, other)):
        return word.text, Equivalence.CODE  # `Heathrow` where the other writes `LHR`, `Portuguese` `PT`, and the other way round
    return None


def aligned(features: dict[str, float], other: Index, loose: bool = False) -> list[int]:
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


__all__ = [
    "WORDLIKE_KINDS",
    "Index",
    "abbreviates",
    "aligned",
    "coded_number",
    "gerund",
    "match_keys",
    "number_coded",
    "number_in_compound",
    "stem",
    "unbound",
    "value_found",
    "weight",
    "whole_word_in",
    "word_found",
]
