"""One note read as facts: its values (values.py), its load-bearing words, its closed-class markers, and the
sentences and clauses they sit in.

- A **term** is an open-class word that names something: rare in general English (wordfreq's Zipf scale) or
  a capitalised word inside a sentence, whatever its case elsewhere (`redis`, `azithromycin`, `Okafor`,
  `severe`). Compared by lemma (simplemma): `Saturdays` = `Saturday`, `migrations` = `migration`.
- A **marker** is a closed-class word or phrase that carries meaning (lexicon.py): negation, quantifiers,
  frequency, restriction, conditions, comparison, order, direction, modality, hedges; plus inflected
  comparatives (`faster`, `cheapest`).
- Every other non-function word is **content**: it does not count as a fact on its own, but it aligns a
  source sentence with the body sentence that restates it, and it is the context a value is bound to.

Number words are read as numbers by writing their digits in place (number_words.py), so every span stays where it
was in the text.
"""
from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...netfx import LONE_SURROGATE
from ..sentences import SENTENCE_END
from . import wordnet
from .lexicon import BOUNDS, FUNCTION_WORDS, LONGEST_PHRASE, PHRASES, WEAK_MARKERS, WEAK_PHRASES, MarkerClass
from .number_words import WORD as _WORD, digitised
from .value_types import ValueKind
from .values import NUMBER_WORDS, Value, values

RARE_ZIPF = 3.3  # below this a word is rare enough to name something (tuned on the corpus's tune half)
NAME_ZIPF = 5.2  # a capitalised word inside a sentence names something unless it is this common

_SENTENCE = SENTENCE_END  # the one sentence splitter of merge/ (merge/sentences.py)
# where a stretch of a sentence ends for a reader looking back or ahead (`Ben; Ana leads` names no doer of `leads`):
# a sentence's end or a semicolon, a single character (the splitter above places whole sentences)
CLAUSE_STOP = re.compile(r"[;.!?\n]")
# clause boundaries inside a sentence: punctuation and the coordinating conjunctions after a comma
_CLAUSE = re.compile(r"(?:[;:()\[\]]|,\s*(?:and|but|or|while|whereas|so)?\b|\s—\s|\s–\s|\s-\s|\bbut\b|\bwhereas\b|"
                     r"\bwhile\b|\band\b|\bor\b)\s*")  # no leading \s*: pieces are trimmed (_spans), and a long
# run of spaces (a blanked, copied stretch) must not be scanned once per space
_SIZE_GLUE = re.compile(r"\d[xX]\d")
_POSSESSIVE = re.compile(r"['’]s$")
_AMOUNT_BEFORE = re.compile(r"(?:[\d%]|\b(?:" + "|".join(sorted(NUMBER_WORDS)) + r"|half|quarter|third|cent|percent))\s*$",
                            re.IGNORECASE)
_BOUND_HIT = (MarkerClass.BOUND, "")
_PLUS_SIGN = re.compile(r"(?<=[\d%])\s+(\+)\s+(?=[A-Za-z])")
# who is asked to act is who acts: `ask host to spotlight Mags` → `spotlight Mags` gives the act to the writer
_DELEGATE = re.compile(r"\b(?:ask|asks|asked|tell|tells|told|remind|reminds|reminded|get|gets|got|invite|invites|"
                       r"invited|let|lets)\s+(?:the\s+|my\s+|our\s+|your\s+|his\s+|her\s+|their\s+)?"
                       r"(?P<who>[a-z][\w'-]*)\s+to\s+[a-z]", re.IGNORECASE)
_PARTICLE_VERBS = frozenset("kick drop set head sign log show tell nod doze cool tail see carry move get hang hold "
                            "try put wear pick send top hand pass ring cross tick sell pay write".split())
_LEFT_AS_SIDE = re.compile(r"\b(?:turns?|turned|turning|go|goes|went|bears?|bearing|keeps?|veers?|forks?|swipe|scroll|"
                           r"move|on\s+the|to\s+the|far|top|bottom|"
                           r"upper|lower|front|back|rear)\s+left\b|\bleft[\s-]+(?:side|hand|handed|of|turn|lane|ear|eye|back|field|"
                           r"knee|arm|leg|foot|wing|door|click|bank|column|panel|corner|wrist|ankle|hip|shoulder)\b",
                           re.IGNORECASE)  # a side: `turn left`, `left knee`, `on the left`
_NUMBER_SIGN = re.compile(r"no\.\s?(?=\d)", re.IGNORECASE)  # `no. 10342` is `number 10342`, no negation
_PRONOUN_CONTRACTION = re.compile(r"^(?:i|you|he|she|it|we|they|there|that|who|what)'(?:d|ll|ve|re|m|s)$")
_SUBORDINATORS = frozenset("when whenever while until unless once because since after before during".split())
_AFTER_A_STATE = _SUBORDINATORS | frozenset("and but or if so at from for till through".split())  # not `sign off by`, `off the menu`
_TIME_OFF = frozenset({"time", "day", "days", "week", "weeks", "afternoon", "morning", "evening", "night", "year"})
_CONTRACTED = {"ca": "can", "wo": "will", "sha": "shall"}  # can't, won't, shan't
_NOT_CONTENT = FUNCTION_WORDS | frozenset(w for phrase in BOUNDS for w in phrase.split())  # read with values
_BOUND_ONLY = _NOT_CONTENT - FUNCTION_WORDS - NUMBER_WORDS  # `max`, `min`, `over`: words of a bound, not of grammar


def _bound_word_as_name(m: re.Match[str], lower: str, used: bool, text: str, sentence_start: int) -> bool:
    """`Max still needs a booster seat`: a bound's word written with a capital inside a sentence, bounding no
    amount, is someone's name."""
    return not used and lower in _BOUND_ONLY and m.group(0)[0].isupper() and bool(
        text[sentence_start:m.start()].strip(" \t-*+•>#\"“(")) and not re.match(r"\s*[\d$€£~]", text[m.end():])


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int
    lower: str
    lemma: str
    zipf: float
    term: bool  # names something: compared as a fact
    sentence: int
    clause: int


@dataclass(frozen=True)
class Marker:
    cls: MarkerClass
    value: str
    text: str
    start: int
    end: int
    sentence: int
    clause: int

    @property
    def key(self) -> tuple[MarkerClass, str]:
        return (self.cls, self.value)


@dataclass
class Note:
    text: str
    values: list[Value]
    words: list[Word]
    markers: list[Marker]
    sentences: list[tuple[int, int]]
    clauses: list[tuple[int, int]]
    value_sentence: list[int] = field(default_factory=list)
    value_clause: list[int] = field(default_factory=list)
    weak_markers: list[Marker] = field(default_factory=list)  # too common to check, but they answer for one
    _by_sentence: dict[int, list[Word]] | None = field(default=None, repr=False)
    _by_clause: dict[int, list[Word]] | None = field(default=None, repr=False)
    _word_starts: list[int] | None = field(default=None, repr=False)

    def sentence_text(self, index: int) -> str:
        start, end = self.sentences[index]
        return self.text[start:end]

    def words_in(self, sentence: int) -> list[Word]:
        """The words of one sentence (indexed once: the lens asks per sentence, and texts may be long)."""
        if self._by_sentence is None:
            self._by_sentence = {}
            for word in self.words:
                self._by_sentence.setdefault(word.sentence, []).append(word)
        return self._by_sentence.get(sentence, [])

    def words_in_clause(self, clause: int) -> list[Word]:
        if self._by_clause is None:
            self._by_clause = {}
            for word in self.words:
                self._by_clause.setdefault(word.clause, []).append(word)
        return self._by_clause.get(clause, [])

    def words_between(self, start: int, end: int) -> list[Word]:
        starts = self._starts()
        return self.words[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]

    def said_between(self, start: int, end: int) -> set[str]:
        """What a stretch of the note says: its words' lemmas and its values' keys (one key each)."""
        return {w.lemma for w in self.words_between(start, end)} | {
            min(v.keys) for v in self.values if start <= v.start < end and v.keys}

    def _starts(self) -> list[int]:
        if self._word_starts is None:
            self._word_starts = [w.start for w in self.words]
        return self._word_starts


@functools.lru_cache(maxsize=1)
def _lemmatizer() -> Any:  # the simplemma module, loaded on first use
    import simplemma
    return simplemma


@functools.lru_cache(maxsize=200_000)
def lemma_of(word: str) -> str:
    lemma = _lemmatizer().lemmatize(word, lang="en").casefold() or word
    if lemma == word and len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        # a plural the lemmatizer does not know (`hotfixes`, `runbooks`): the singular when it is no rarer
        stem = word[:-2] if word.endswith("es") and word[:-2].endswith(("x", "s", "sh", "ch", "z")) else word[:-1]
        if zipf_of(stem) >= zipf_of(word):
            return stem
    return lemma


@functools.lru_cache(maxsize=200_000)
def zipf_of(word: str) -> float:
    from wordfreq import zipf_frequency
    return zipf_frequency(word, "en")


def _spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The pieces between the pattern's matches, each without the white space around it."""
    out, at = [], start
    for m in pattern.finditer(text, start, end):
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    if end > at:
        out.append((at, end))
    trimmed = []
    for s, e in out:
        piece = text[s:e]
        inner = piece.strip()
        if inner:
            s += len(piece) - len(piece.lstrip())
            trimmed.append((s, s + len(inner)))
    return trimmed or [(start, end)]


def _comparative(lower: str, lemma: str) -> str | None:
    """`faster` → `fast+er`, `cheapest` → `cheap+est`: an inflected comparative or superlative adjective."""
    for suffix in ("est", "er"):
        if lower.endswith(suffix) and lemma != lower and len(lemma) >= 3 and \
                lower[: len(lemma)][:-1] == lemma[:-1]:
            return f"{lemma}+{suffix}"
    return None


def _asked_to_act(text: str, start: int, end: int, lower: str) -> bool:
    """`ask host to spotlight Mags`: the one asked to act is who acts, a fact however common the word."""
    asked = _DELEGATE.search(text, max(0, start - 24), end + 6)
    return asked is not None and asked.group("who").casefold() == lower


def _predicative(text: str, tokens: list[re.Match[str]], i: int) -> bool:
    """`on`/`off` ending a clause ("is on.", "switched off, and"): a state, not a preposition ("on Monday"), nor
    the `off` of time taken off (`paid time off`, `a day off`)."""
    if i and tokens[i - 1].group(0).casefold() in _TIME_OFF:
        return False
    if i and lemma_of(tokens[i - 1].group(0).casefold()) in _PARTICLE_VERBS:
        return False  # `kicking off at 7`, `drops off at 4`, `have a lifejacket on`: a phrasal verb's particle
    earlier = [t.group(0).casefold() for t in tokens[max(0, i - 4):i]]
    if any(lemma_of(w) in _PARTICLE_VERBS for w in earlier[-3:]) or (
            "with" in earlier and "with" not in [t.group(0).casefold() for t in tokens[max(0, i - 1):i]]) or \
            _AMOUNT_BEFORE.search(text[max(0, tokens[i].start() - 12):tokens[i].start()]):
        return False  # `drops the kids off`, `with a wrist brace on`, `4 on and 4 off` (a rota), `25% off`
    after = text[tokens[i].end():tokens[i].end() + 3].lstrip(" ")
    if not after or (after[0] in ".,;:!?)]\n" and not re.match(r":\S", after)):
        return True  # `is on.`, not `sessions on :6381` (a port)
    following = tokens[i + 1].group(0).casefold() if i + 1 < len(tokens) else ""
    between = text[tokens[i].end():tokens[i + 1].start()] if i + 1 < len(tokens) else ""
    # followed by a conjunction or a preposition ("off whenever it floods", "comes on at 6"), not by what a
    # preposition governs ("on the shelf", "off my list")
    return not between.strip() and following in _AFTER_A_STATE


def _in_words(value: Value, text: str, regions: list[tuple[int, int]]) -> Value:
    """A value read from digits written in place of words, spanning the words (`twenty two users`)."""
    start = value.start
    for r_start, r_end in regions:
        if r_start <= start < r_end:
            start = r_start
            break
    return dataclasses.replace(value, text=text[start:value.end].strip(), start=start)


_YEAR_NUMBER = re.compile(r"^n:(1[6-9]|2\d)\d\d$")


def _years_carried(found: list[Value], sentence_of: list[int]) -> list[Value]:
    """A day and month without a year takes the one year its sentence states (`2 April – 19 April 2026`):
    a range or a list of dates shares its year."""
    years: dict[int, set[str]] = {}
    for value, sentence in zip(found, sentence_of):
        for key in value.keys:
            if key.startswith("date:") and key[5:9].isdigit():
                years.setdefault(sentence, set()).add(key[5:9])
            elif _YEAR_NUMBER.match(key):
                years.setdefault(sentence, set()).add(key[2:])
    out = []
    for value, sentence in zip(found, sentence_of):
        partial = [k for k in value.keys if k.startswith("date:????")]
        if partial and len(years.get(sentence, ())) == 1:
            year = next(iter(years[sentence]))
            value = dataclasses.replace(value, keys=value.keys | {f"date:{year}{k[9:]}" for k in partial})
        out.append(value)
    return out


def clean_text(text: str) -> str:
    """A lone surrogate is no letter: U+FFFD in its place keeps every offset."""
    try:
        text.encode("utf-8")  # in C: a text with no lone surrogate (nearly all) is returned as it is
        return text
    except UnicodeEncodeError:
        return LONE_SURROGATE.sub("\ufffd", text)


@functools.lru_cache(maxsize=16)
def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The sentences of a text as `read_note` cuts them (none holds a line break)."""
    return _spans(_SENTENCE, text, 0, len(text))


def read_note(text: str) -> Note:
    """The facts of one text, with the sentence and clause each one sits in. A long text is read paragraph by
    paragraph, each paragraph's reading kept: while a reviewer edits one paragraph of a long body, only that
    paragraph is read again."""
    text = clean_text(text or "")
    if len(text) < _BY_PARAGRAPH_FROM:
        return _read(text)
    parts = []
    at = 0
    for brk in _PARAGRAPH_BREAK.finditer(text):
        if text[at:brk.start()].strip():
            parts.append((at, _read_paragraph(text[at:brk.start()])))
        at = brk.end()
    if text[at:].strip():
        parts.append((at, _read_paragraph(text[at:])))
    return _joined(text, parts)


_BY_PARAGRAPH_FROM = 4_000  # shorter texts are read whole (one paragraph's reading is not worth keeping)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a sentence boundary too (_SENTENCE), so nothing spans it


@functools.lru_cache(maxsize=4096)
def _read_paragraph(text: str) -> Note:
    return _read(text)


def _joined(text: str, parts: list[tuple[int, Note]]) -> Note:
    """One note from the readings of its paragraphs (each at its offset in `text`)."""
    values: list[Value] = []
    words: list[Word] = []
    markers: list[Marker] = []
    weak: list[Marker] = []
    sentences: list[tuple[int, int]] = []
    clauses: list[tuple[int, int]] = []
    value_sentence: list[int] = []
    value_clause: list[int] = []
    for offset, part in parts:
        s0, c0 = len(sentences), len(clauses)
        values += [dataclasses.replace(v, start=v.start + offset, end=v.end + offset)
                   for v in part.values]
        words += [Word(w.text, w.start + offset, w.end + offset, w.lower, w.lemma, w.zipf, w.term, w.sentence + s0,
                       w.clause + c0) for w in part.words]
        markers += [Marker(k.cls, k.value, k.text, k.start + offset, k.end + offset, k.sentence + s0, k.clause + c0)
                    for k in part.markers]
        weak += [Marker(k.cls, k.value, k.text, k.start + offset, k.end + offset, k.sentence + s0, k.clause + c0)
                 for k in part.weak_markers]
        sentences += [(s + offset, e + offset) for s, e in part.sentences]
        clauses += [(s + offset, e + offset) for s, e in part.clauses]
        value_sentence += [i + s0 for i in part.value_sentence]
        value_clause += [i + c0 for i in part.value_clause]
    if not sentences:
        return _read(text)
    return Note(text, values, words, markers, sentences, clauses, value_sentence, value_clause, weak)


def _read(text: str) -> Note:
    plain, regions = digitised(text)
    sentences = _spans(_SENTENCE, text, 0, len(text))
    clauses = [c for s, e in sentences for c in _spans(_CLAUSE, text, s, e)]
    sentence_starts = [s for s, _ in sentences]
    clause_starts = [s for s, _ in clauses]

    def where(pos: int) -> tuple[int, int]:
        return (max(0, bisect.bisect_right(sentence_starts, pos) - 1), max(0, bisect.bisect_right(clause_starts, pos) - 1))

    found = values(plain)
    found = [_in_words(v, text, regions) for v in found]
    tokens = _word_tokens(text, found)
    lowers = [_POSSESSIVE.sub("", m.group(0)).casefold().replace("’", "'") for m in tokens]
    markers, used = _phrase_markers(text, tokens, lowers, where)
    words = _content_words(text, tokens, lowers, used, sentences, where, markers)
    for plus in _PLUS_SIGN.finditer(text):  # `£1,200 + VAT`: an amount on top, the sign written for `plus`
        s, c = where(plus.start(1))
        markers.append(Marker(*PHRASES["plus"], "+", plus.start(1), plus.end(1), s, c))
    markers.sort(key=lambda k: k.start)
    is_weak = [k.key in WEAK_MARKERS or k.text.casefold() in WEAK_PHRASES for k in markers]
    weak = [k for k, w in zip(markers, is_weak) if w]
    note = Note(text, found, words, [k for k, w in zip(markers, is_weak) if not w], sentences, clauses,
                weak_markers=weak)
    note.value_sentence = [where(v.start)[0] for v in found]
    note.values = _years_carried(found, note.value_sentence)
    note.value_clause = [where(v.start)[1] for v in found]
    return note


def _word_tokens(text: str, found: list[Value]) -> list[re.Match[str]]:
    """The words of `text` outside its values (a shouted marker, `NOT covered`, is both)."""
    taken = [(v.start, v.end) for v in found]
    taken_starts = [s for s, _ in taken]

    def inside_value(start: int, end: int) -> bool:
        k = bisect.bisect_right(taken_starts, start) - 1
        return k >= 0 and taken[k][0] <= start and end <= taken[k][1]

    shouted = {(v.start, v.end) for v in found if v.kind == ValueKind.ALL_CAPS and v.text.casefold() in PHRASES}
    # a shouted marker (`NOT covered`) is the identifier MergeGuard sees and the marker it says: read as both
    return [m for m in _WORD.finditer(text) if (not inside_value(m.start(), m.end()) or (m.start(), m.end()) in
                                                shouted) and not _SIZE_GLUE.match(text, m.start() - 1 if m.start()
                                                                                   else 0)
            and not _NUMBER_SIGN.match(text, m.start())]  # not `35x45mm`'s x45mm, nor `sail no. 10342`'s `no`


def _phrase_markers(text: str, tokens: list[re.Match[str]], lowers: list[str],
                    where: Callable[[int], tuple[int, int]]) -> tuple[list[Marker], set[int]]:
    """The markers the note's phrases say (the longest phrase first), and the tokens they used."""
    markers: list[Marker] = []
    used: set[int] = set()
    i = 0
    while i < len(tokens):
        joined = 1  # how many tokens from i on follow one another with only spaces between (a phrase's reach)
        while joined < min(LONGEST_PHRASE, len(tokens) - i) and \
                not text[tokens[i + joined - 1].end():tokens[i + joined].start()].strip(" \t-"):
            joined += 1
        for size in range(joined, 0, -1):
            phrase = " ".join(lowers[i:i + size])
            hit = _phrase_hit(text, tokens, lowers, i, size, phrase)
            if hit is None and size == 1 and (phrase.endswith("n't") or phrase == "cannot"):
                hit = (MarkerClass.NEGATION, "not")
                base = _CONTRACTED.get(phrase[:-3], phrase[:-3]) if phrase.endswith("n't") else "can"
                if base in PHRASES:  # "mustn't" is "must" and "not"
                    s, c = where(tokens[i].start())
                    markers.append(Marker(*PHRASES[base], tokens[i].group(0), tokens[i].start(), tokens[i].end(), s, c))
            if hit is not None:
                start, end = tokens[i].start(), tokens[i + size - 1].end()
                s, c = where(start)
                if hit is not _BOUND_HIT:  # "at least", "up to": read with the amount they bound (values.py)
                    markers.append(Marker(hit[0], hit[1], text[start:end], start, end, s, c))
                if phrase == "but not":  # `fish but not shellfish` also denies the shellfish (`off the menu`)
                    markers.append(Marker(MarkerClass.NEGATION, "not", text[start:end], start, end, s, c))
                used.update(range(i, i + size))
                i += size - 1
                break
        i += 1
    return markers, used


def _phrase_hit(text: str, tokens: list[re.Match[str]], lowers: list[str], i: int, size: int,
                phrase: str) -> tuple[MarkerClass, str] | None:
    """The marker (class, key) the phrase of `size` tokens from `i` says, if any (`_BOUND_HIT` for a bound's
    words); not where its words say something else (`10 left`, `goes ahead`, `out of 28 days`)."""
    hit = PHRASES.get(phrase) or (_BOUND_HIT if size > 1 and phrase in BOUNDS else None)
    if phrase == "left" and not _LEFT_AS_SIDE.search(text, max(0, tokens[i].start() - 14), tokens[i].end() + 8):
        hit = None  # `the food is left out`, `10 left`: the verb leave, or what remains — no side
    if phrase == "ahead" and i and lowers[i - 1] in ("go", "goes", "going", "went", "gone"):
        hit = None  # `the repair goes ahead`: it proceeds, no direction
    if phrase == "out of" and re.match(r"\s*(?:[\d$€£]|(?:a|an|one|two|three|four|five|six|seven|eight|nine|"
                                        r"ten|twenty|thirty|forty|fifty|a\s+hundred)\b)", text[tokens[i + 1].end():]):
        hit = None  # `out of 28 days`: a share of a whole, no direction
    if hit is None and size == 1 and phrase in ("on", "off") and _predicative(text, tokens, i):
        hit = (MarkerClass.STATE, phrase)  # "the heating is on" / "off": a state, not a preposition
    return hit


def _content_words(text: str, tokens: list[re.Match[str]], lowers: list[str], used: set[int],
                   sentences: list[tuple[int, int]], where: Callable[[int], tuple[int, int]],
                   markers: list[Marker]) -> list[Word]:
    """The note's content words (not a phrase's, a function word or a number word), each with its lemma, how
    common it is and whether it is a term; a comparative's marker is appended to `markers`."""
    words: list[Word] = []
    for i, (m, lower) in enumerate(zip(tokens, lowers)):
        if _PRONOUN_CONTRACTION.match(lower):
            continue  # "he'd", "she'll", "we're": a pronoun and an auxiliary
        s0 = where(m.start())[0]
        letter = len(lower) == 1 and m.group(0).isupper() and lower != "i" and text[sentences[s0][0]:m.start()].strip(
            " \t-*+•>#\"“(")  # `an A in history`, `freezer B`: a letter that names something, not the article
        if not letter and (i in used or lower in _NOT_CONTENT or lower in NUMBER_WORDS) and not _bound_word_as_name(
                m, lower, i in used, text, sentences[s0][0]):
            continue
        lemma = lemma_of(lower)
        s, c = where(m.start())
        comparative = _comparative(lower, lemma)
        if comparative and not re.match(r"\s+than\s+(?:[\d$€£]|(?:" + "|".join(sorted(NUMBER_WORDS)) + r")\b)",
                                        text[m.end():m.end() + 20]):  # `younger than 18` (or `eight`) is
            # the amount's bound (bounds._COMPARED)
            markers.append(Marker(MarkerClass.COMPARISON, comparative, m.group(0), m.start(), m.end(), s, c))
        zipf = zipf_of(lower) if lemma == lower else min(zipf_of(lower), zipf_of(lemma))
        capital = m.group(0)[0].isupper()
        sentence_start = m.start() == sentences[s][0] or not text[sentences[s][0]:m.start()].strip(" \t-*+•>#\"“(")
        term = zipf < RARE_ZIPF or (capital and not sentence_start and zipf < NAME_ZIPF) or (
            capital and sentence_start and zipf < RARE_ZIPF + 0.7) or any(ch.isupper() for ch in m.group(0)[1:]) or (
            len(lower) == 1 and capital and lower != "i" and (lower != "a" or not sentence_start)) or (  # `freezer B`
            wordnet.names_a_person(lemma)) or (  # a role or a relation names someone: `the site secretary`, `landlord`
            _asked_to_act(text, m.start(), m.end(), lower))
        words.append(Word(m.group(0), m.start(), m.end(), lower, lemma, zipf, term, s, c))
    return words


@functools.lru_cache(maxsize=32)
def read_note_cached(text: str) -> Note:
    """`read_note` for a text read again and again (a source while its merge is edited). The note is shared:
    callers derive new notes from it (dataclasses.replace) and never change it."""
    return read_note(text)


__all__ = [
    "CLAUSE_STOP",
    "RARE_ZIPF",
    "Marker",
    "Note",
    "Word",
    "clean_text",
    "lemma_of",
    "read_note",
    "read_note_cached",
    "sentence_spans",
    "zipf_of",
]
