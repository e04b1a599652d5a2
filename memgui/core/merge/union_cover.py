"""What the sentence-union draft holds so far (union.py's greedy cover), kept so that every question the union
asks of it costs time in proportion to the question, not to the draft: a draft of 1 MB is asked tens of
thousands of times ("is this fact already there?", "does the fact lens find this clause's facts?").

- Whole-token containment (`contains_whole` of the strict lens) is answered from an index of the draft's
  words: a needle's rarest word says where it can only be, and only those places are compared.
- The fact lens reads a clause against the part of the draft that shares its words (a window of at most
  `_WINDOW_UNITS` sentences, plus one sentence for each word it shares with many), not the whole draft; and
  only while the draft is under `LENS_COVER_LIMIT` characters, as before.
"""
from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Callable, Sequence

import ahocorasick_rs

from .conflicts import calendar_date, day_and_month
from .facts.lens import FactAtRisk, FactReport, check_facts
from .strict import StrictReport, contains_whole
from .union_reading import Reader, normalised, text_facts, text_tokens

LENS_COVER_LIMIT = 20_000  # characters of draft the per-clause lens reads
# the lens's judgements of whole sentences: a clause read alone is not a sentence, the final check judges them
_SENTENCE_JUDGEMENTS = frozenset({"sentence", "word", "word_order"})
_WINDOW_UNITS = 16  # the draft sentences sharing the most words with a clause, given to the lens with it
_COMMON_POSTING = 32  # a word in more draft sentences than this says nothing of which one restates a clause

_WORD = re.compile(r"[^\W_]+")
_WORD_RUN = re.compile(r"\w+")  # what `contains_whole` treats as glued: isalnum() or "_"
_STOPWORDS = frozenset([
    "about", "above", "after", "again", "also", "always", "among", "another", "because", "been", "before", "being",
    "below", "between", "both", "cannot", "could", "does", "doing", "down", "during", "each", "every", "from",
    "further", "have", "having", "here", "into", "itself", "just", "more", "most", "much", "must", "once", "only",
    "other", "over", "same", "should", "some", "such", "than", "that", "their", "them", "then", "there", "these",
    "they", "this", "those", "through", "under", "until", "very", "what", "when", "where", "which", "while", "with",
    "would", "your", "yours", "will", "shall", "were", "with", "also"
])
_FUNCTION_WORDS = _STOPWORDS | frozenset(
    [
        "the", "and", "for", "are", "was", "has", "had", "but", "not", "can", "all", "any", "its", "our", "you", "his",
        "her", "she", "him", "who", "how", "why", "yes", "out", "off", "per", "of", "to", "in", "on", "at", "is", "be",
        "as", "by", "it", "an", "or", "if", "we", "he", "me", "my", "no", "so", "up", "do", "go", "us", "am", "a", "i"
    ])
_KEY = re.compile(r"\d+|[^\W\d]+")
_LENS_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")  # the draft read in sentences for the lens's window


def content_words(text: str) -> set[str]:
    """Words that carry meaning: four letters or more (or holding a digit), not a stop word, case-folded,
    a plural `s` dropped."""
    words = set()
    for w in set(_WORD.findall(normalised(text))):  # each distinct word once (a long note repeats its words)
        if len(w) < 4 and not any(c.isdigit() for c in w):
            continue
        if w in _STOPWORDS:
            continue
        words.add(w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w)
    return words


def facts_of(text: str, reader: Reader | None = None) -> set[str]:
    """Load-bearing tokens and strict-lens facts of `text` that stand as whole tokens in it (MergeGuard also
    finds pieces such as the "1" of "16.4", which say nothing on their own)."""
    own = normalised(text)
    tokens, facts = (reader.tokens(text), reader.facts(text)) if reader else (text_tokens(text), text_facts(text))
    found = {t for t, _ in tokens} | {t for t, _ in facts}
    return {t for t in found if contains_whole(own, normalised(t))}


def lens_at_risk(sources: Sequence[str | None], body: str,
                 check: Callable[[Sequence[str | None], str], FactReport | StrictReport] | None = None,
                 ) -> tuple[FactAtRisk, ...] | None:
    """What the fact lens (`check_facts`, or `check_strict` around it) finds at risk, or None when it fails on
    these strings: the union takes any string, and answers a failure the safe way (the clause is kept; the
    draft is held to the strict lens's tokens)."""
    try:
        return (check or check_facts)(sources, body).at_risk
    except Exception:  # noqa: BLE001 - any failure of the lens, on any input, must not cost the draft
        return None


class WholeText:
    """Normalised texts (no line ends inside), appended one by one: `contains(needle)` is the strict lens's
    `contains_whole` over "\\n".join of them, looking only where the needle's rarest word stands."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        # word -> each place it stands, packed `part << 32 | offset` in an array: no (part, offset) tuple per
        # place (a 1 MB draft has 150,000 places: they made the garbage collector run more often)
        self._words: dict[str, array[int]] = {}
        self._found: set[str] = set()  # needles found so far: the text only grows, they stay found
        self._long = False  # a part of 4 GB or more: every needle is looked for part by part

    def add(self, normalised: str) -> None:
        number = len(self._parts)
        self._parts.append(normalised)
        if len(normalised) >> 32:  # (never on a real draft) a place the packing cannot hold: read it as parts
            self._long = True
        words = self._words
        for m in _WORD_RUN.finditer(normalised):
            places = words.get(m.group())
            if places is None:
                places = words[m.group()] = array("q")
            places.append(number << 32 | m.start())

    def contains(self, needle: str) -> bool:
        # Each word of a whole needle is a whole word of the text where it stands (bounded by the needle's own
        # characters, or by the ends `contains_whole` requires to be unglued), so the needle can only start at
        # a place of its rarest word, minus that word's offset in the needle.
        if not needle or needle in self._found:
            return True
        if self._search(needle):
            self._found.add(needle)
            return True
        return False

    def _search(self, needle: str) -> bool:
        runs = list(_WORD_RUN.finditer(needle))
        if not runs or "\n" in needle or self._long:
            return any(contains_whole(part, needle) for part in self._parts)
        rarest = min(runs, key=lambda m: len(self._words.get(m.group(), ())))
        for place in self._words.get(rarest.group(), ()):
            at = (place & 0xFFFFFFFF) - rarest.start()
            part = self._parts[place >> 32]
            if at >= 0 and part.startswith(needle, at) and _whole_at(part, needle, at):
                return True
        return False


def _glued(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _whole_at(haystack: str, needle: str, at: int) -> bool:
    """`contains_whole`'s test of one place: `needle` (found at `at`) has no word character glued to either end,
    and is not a number glued to a decimal or ordinal continuation."""
    end = at + len(needle)
    left_ok = at == 0 or not _glued(haystack[at - 1]) or not _glued(needle[0])
    right_ok = end == len(haystack) or not _glued(haystack[end]) or not _glued(needle[-1])
    if right_ok and needle[-1].isdigit() and end + 1 < len(haystack) and haystack[end] in ".," and \
            haystack[end + 1].isdigit():
        right_ok = False
    if left_ok and needle[0].isdigit() and at >= 2 and haystack[at - 1] in ".," and haystack[at - 2].isdigit():
        left_ok = False
    return left_ok and right_ok


_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_found(needles: set[str], haystack: str) -> set[str]:
    """The needles `contains_whole(haystack, needle)` holds for, in one pass (Aho–Corasick, overlapping, each
    place tested for glue), in growing pieces that drop the needles found so far: a common token is found at
    once instead of at each of its thousands of places. Needles with a line end or a lone surrogate (which the
    automaton cannot take) are tested one by one."""
    needles = {n for n in needles if n}
    plain = {n for n in needles if "\n" not in n and not _SURROGATE.search(n)}
    found = {n for n in needles - plain if contains_whole(haystack, n)}
    left = sorted(plain)
    start, size = 0, 16384
    overlap = max(map(len, left), default=1) - 1
    while left and start < len(haystack):
        begin = max(0, start - overlap)
        piece = _SURROGATE.sub("\ufffd", haystack[begin:start + size])
        automaton = ahocorasick_rs.AhoCorasick(left)
        hits = {left[number] for number, a, _ in automaton.find_matches_as_indexes(piece, overlapping=True)
                if _whole_at(haystack, left[number], begin + a)}
        if hits:
            found |= hits
            left = [needle for needle in left if needle not in hits]
        start, size = start + size, size * 4
    return found


class Cover:
    """What the draft holds so far: its normalised text, content words and full dates (by calendar day)."""

    def __init__(self, primary: str, reader: Reader | None = None):
        self.reader = reader or Reader()
        self.words: set[str] = set()
        self.text = WholeText()
        self.dates: dict[str, str] = {}
        self.days: dict[str, str] = {}  # MM-DD -> spelling
        self.day_months: dict[str, str] = {}  # MM-DD -> a day and month the draft writes without a year
        self._raw_length = -2  # of "\n\n".join(the draft's texts as written), the text the lens would read
        self._sentences: list[str] = []  # the draft's sentences as written, for the lens's window
        self._postings: dict[str, list[int]] = {}  # a word's key -> the draft sentences holding it
        self._not_new: set[str] = set()  # clauses the lens found nothing new in (the draft only grows)
        self.reader.locate(primary, self.reader.note(primary), 0)
        self.add(primary)

    def respelled(self, text: str) -> list[tuple[str, str]]:
        """(spelling in the draft, spelling in `text`) of each full date `text` writes differently from the
        draft (`2025-06-11` and `11 June 2025`): the same fact, which the draft can note in place."""
        out: list[tuple[str, str]] = []
        if not _has_digit(text):
            return out  # every date spelling holds a digit (a day, a year)
        for token, kind in self.reader.tokens(text):
            day = calendar_date(token, kind)
            if not day or self.text.contains(normalised(token)):
                continue
            if day in self.dates:
                out.append((self.dates[day], token))
            elif day[5:] in self.day_months and self.text.contains(day[:4]):
                out.append((self.day_months[day[5:]], token))  # "2 April" of a draft that says 2026 too
        for token, kind in self.reader.facts(text):  # "2 December" of a draft that holds 1987-12-02
            day = day_and_month(token) if kind == "day_month" else None
            if (day and day in self.days and not self.text.contains(normalised(token))
                    and not any(normalised(token) in normalised(new) for _, new in out)):
                out.append((self.days[day], token))
        return out

    def brings(self, text: str, *, facts_only: bool = False, wordless: bool = True) -> bool:
        """Does `text` bring a fact, or two thirds of its words, the draft lacks? (A paraphrase brings a word or
        two; a date the draft holds in another spelling is not a new fact.)"""
        respellings: list[str] | None = None  # asked only when a fact or a word is not in the draft yet
        for fact in facts_of(text, self.reader):
            fact = normalised(fact)
            if not self.text.contains(fact):
                if respellings is None:
                    respellings = [normalised(new) for _, new in self.respelled(text)]
                if not any(contains_whole(r, fact) for r in respellings):
                    return True
        if facts_only:
            return False  # a label: kept only with its value (_with_labels)
        all_words = content_words(text)
        if all_words - self.words:  # else no word is new, whatever the respellings take away
            if respellings is None:
                respellings = [normalised(new) for _, new in self.respelled(text)]
            words = all_words.difference(*(content_words(r) for r in respellings))
            new = words - self.words
            if new and 3 * len(new) >= 2 * len(words):
                return True
        if self._lens_finds_new(text):  # asked last: the dearest question, and only one answer matters
            return True
        return wordless and not all_words  # a sentence of short words only ("No.") is kept; such a clause is not

    def _lens_finds_new(self, text: str) -> bool:
        """The fact lens reads `text` as a source of the draft so far: a fact it would drop is new. (Skipped on a
        draft past `LENS_COVER_LIMIT`, where the final check and its put-back carry the guarantee alone.)"""
        if self._raw_length > LENS_COVER_LIMIT:
            return False
        key = normalised(text)
        if key in self._not_new:
            return False
        at_risk = lens_at_risk([text], self._window(text))
        new = at_risk is None or any(item.direction != "added" and item.kind not in _SENTENCE_JUDGEMENTS
                                     for item in at_risk)  # a clause the lens cannot read is kept
        if not new:
            self._not_new.add(key)
        return new

    def _window(self, text: str) -> str:
        """The draft's sentences the lens needs to judge `text`: those sharing the most of its words (a
        restatement shares them), and for each word many sentences share, the first and the latest."""
        scores: Counter[int] = Counter()
        always: set[int] = set()
        for key in sorted(_keys(text)):  # in one order whatever the hash seed: ties of most_common go by it
            posting = self._postings.get(key, [])
            if len(posting) > _COMMON_POSTING:
                always.update((posting[0], posting[-1]))
            else:
                scores.update(posting)
        chosen = always.union(number for number, _ in scores.most_common(_WINDOW_UNITS))
        return "\n\n".join(self._sentences[number] for number in sorted(chosen))

    def add(self, text: str) -> None:
        self._raw_length += len(text) + 2
        if self._raw_length <= LENS_COVER_LIMIT:  # the lens may still read it (the draft only grows)
            for sentence in _LENS_SENTENCE.split(text):
                if sentence.strip():
                    number = len(self._sentences)
                    self._sentences.append(sentence)
                    for key in _keys(sentence):
                        self._postings.setdefault(key, []).append(number)
        self.words |= content_words(text)
        self.text.add(normalised(text))
        if not _has_digit(text):
            return  # no date: every date spelling holds a digit
        calendar, day_months = self.reader.dates(text)
        for token, kind in calendar:
            day = calendar_date(token, kind)
            if day:
                self.dates.setdefault(day, token)
                self.days.setdefault(day[5:], token)
        for token in day_months:
            day = day_and_month(token)
            if day:
                self.day_months.setdefault(day, token)


_DIGIT = re.compile(r"\d")


def _has_digit(text: str) -> bool:
    """A text without a digit states no date: `calendar_date` and `day_and_month` read one from a day or a year."""
    return _DIGIT.search(text) is not None


def _keys(text: str) -> set[str]:
    """The words of `text` that can tie it to a sentence restating it: case-folded, cut to four characters (a
    lemma or a clipped spelling shares them: `backup`/`backups`, `prod`/`production`), numbers whole and apart
    from the letters glued to them (`24h` and `24-hour` share `24`)."""
    keys = set()
    for word in _KEY.findall(text.casefold()):
        if word in _FUNCTION_WORDS:
            continue
        keys.add(word if word.isdigit() else word[:4])
    return keys


__all__ = [
    "LENS_COVER_LIMIT",
    "Cover",
    "WholeText",
    "content_words",
    "facts_of",
    "lens_at_risk",
    "normalised",
    "text_facts",
    "text_tokens",
    "whole_found",
]
