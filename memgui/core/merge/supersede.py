"""Supersede (issue 38): one note is the newer state of what another says. The newest state wins as the present
fact; what it replaces is kept as dated history, in Netclaw's form (`previously … as of YYYY-MM-DD`).

Three parts, pure and Qt-free:

- `order_of(notes)`: which note is older, from each note's freshness (Netclaw's `freshness_at`, the "timestamp" its
  curator sees) and the dates its text states, never from storage order. Doubt (no time at all, equal times, a
  time in the future, a note dated before a past event the other reports) is a reason, never a guess.
- `series_of(notes)`: dated observations of one series (a yearly shot, a reading, a price check, a release) are
  never superseded (Netclaw: dated series are append-only). Two look-alike sentences of two notes that each carry
  their own date, and that differ in it, are two dated observations.
- `supersede_draft(notes, order)`: the newest note whole, then each older note's sentences: a sentence the newer
  text keeps or restates (align.py's proof) leaves; one it is aligned to but does not prove (the state or value
  it replaces) is kept inline after that sentence as `(previously: …, as of DATE)`, dated from the older note's
  freshness; one it does not touch at all is kept as written.
- `check_supersession(notes, order, body)`: a body is checked like any merge. The newest note's statements must
  be kept or restated outside history; each older sentence must be kept, restated, or found inside a history
  phrase with its note's date; an older sentence the newer one replaces, left as a present claim, is a loss.
"""
from __future__ import annotations

import datetime as _dt
import enum
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import lexical
from .align import Fate, align
from .contrasts import contrasts
from .facts.calendar_values import dates, times
from .facts.lexicon import MarkerClass
from .facts.value_types import KeyHead, Value, ValueKey
from .facts.values import values
from .sentences import MarkerKey, Sentence, Token, TokenClass, split, tokens

DAY_MS = 86_400_000
CLOSE_MS = 10 * 60_000  # two notes written within ten minutes are not ordered by their time stamps alone

# Netclaw's form for a superseded value, as memgui writes it (`(previously: …, as of YYYY-MM-DD)`) or as a model
# writes it inline (`previously … as of YYYY-MM-DD`): one line, so prose that says "previously" is not read across
# paragraphs.
HISTORY = re.compile(r"\(?\bpreviously\b:?[ \t]*(?P<old>[^\n]{1,600}?),?[ \t]+as of (?P<date>\d{4}-\d{2}-\d{2})\)?",
                     re.IGNORECASE)


class Reading(enum.Enum):
    SUPERSEDES = "supersedes"
    DATED_SERIES = "dated-series"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class TimedNote:
    body: str
    freshness_ms: int | None  # Netclaw's freshness_at (UTC ms), None when the note has none
    title: str = ""


@dataclass(frozen=True)
class Order:
    oldest_first: tuple[int, ...]  # empty when the notes cannot be ordered
    doubt: str = ""  # why not, for a person
    times: tuple[int | None, ...] = ()  # the time each note was read as (UTC ms)

    @property
    def ordered(self) -> bool:
        return bool(self.oldest_first) and not self.doubt

    @property
    def newest(self) -> int:
        return self.oldest_first[-1]

    def to_dict(self) -> dict[str, object]:
        return {"oldest_first": list(self.oldest_first), "doubt": self.doubt, "times": list(self.times)}


def day_of(ms: int) -> str:
    """Netclaw's date format for an append or a history phrase: the UTC day, YYYY-MM-DD."""
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).date().isoformat()


def _ms_of(key: str, year_hint: int | None) -> int | None:
    """A date value's key (`date:2025-03-18`, `date:????-03-18`, `date:2025-03`) as UTC ms at its day's start."""
    read = ValueKey.read(key)
    date = read.date if read is not None and not read.bound else None
    year = date and (date.year or year_hint)
    if date is None or not date.exact or year is None:
        return None
    try:
        day = _dt.date(year, date.month, date.day or 1)
    except ValueError:
        return None
    return int(_dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc).timestamp() * 1000)


def stated_days(text: str, year_hint: int | None = None) -> list[int]:
    """The days a text states (UTC ms), year-less ones read in `year_hint`'s year."""
    out: list[int] = []
    for value in dates(text or ""):
        days = sorted(d for d in (_ms_of(k, year_hint) for k in value.keys) if d is not None)
        if days:
            out.append(days[0])
    return out


def _year(ms: int | None) -> int | None:
    return None if ms is None else _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).year


def order_of(notes: Sequence[TimedNote], now_ms: int) -> Order:
    """Oldest first, by freshness (a note without one: the latest day it states). Doubt instead of a guess."""
    times: list[int | None] = []
    for n in notes:
        if n.freshness_ms is not None:
            times.append(n.freshness_ms)
        else:
            days = stated_days(n.body)
            times.append(max(days) if days else None)
    if len(notes) < 2:
        return Order((), "fewer than two notes", tuple(times))
    if any(t is None for t in times):
        return Order((), "a note has no time stamp and states no date", tuple(times))
    known = [t for t in times if t is not None]
    if any(t > now_ms + DAY_MS for t in known):
        return Order((), "a note's time is in the future", tuple(times))
    oldest_first = tuple(sorted(range(len(notes)), key=lambda i: (known[i], i)))
    for a, b in itertools.pairwise(oldest_first):
        if known[b] - known[a] < CLOSE_MS:
            return Order((), "two notes were written within minutes of each other: their order is not certain",
                         tuple(times))
        # The newer note's own days all lie before a past event the older one reports: their time stamps and their
        # texts disagree (a clock, a time zone, a note filed late).
        past_of_older = [d for d in stated_days(notes[a].body, _year(known[a])) if d <= known[a] + DAY_MS]
        days_of_newer = stated_days(notes[b].body, _year(known[b]))
        if past_of_older and days_of_newer and max(days_of_newer) < max(past_of_older):
            return Order((), "a note is dated before an event the other reports", tuple(times))
        if known[b] - known[a] < DAY_MS and _clock_disagrees(notes[a].body, notes[b].body):
            return Order((), "the notes were written within a day and the times of day they state put them the "
                             "other way round (a time zone?)", tuple(times))
        stale = _dated_change_not_carried(notes[a].body, notes[b].body)
        if stale:
            return Order((), f"each note is newer on a different value: the older records a dated change the newer "
                             f"does not carry (“{_short(stale)}”)", tuple(times))
        kept_on = _persisting_value_contradicted(notes[a].body, notes[b].body)
        if kept_on:
            return Order((), f"the notes disagree: the newer says a value still holds, and the older states another "
                             f"(“{_short(kept_on)}”)", tuple(times))
    return Order(oldest_first, "", tuple(times))


def _latest_clock(text: str) -> tuple[int, str] | None:
    """The latest (day, time of day) a text states with both, as written (local to its writer)."""
    best: tuple[int, str] | None = None
    for sentence in split(text):
        days = stated_days(sentence.text)
        clocks = sorted(min(c) for v in times(sentence.text, []) if (c := _clocks(v.keys)))
        if days and clocks:
            here = (max(days), clocks[-1])
            best = here if best is None or here > best else best
    return best


def _clocks(keys: frozenset[str]) -> list[str]:
    """The times of day (`18:30~pm`) among a value's keys."""
    return [k.body for k in map(ValueKey.read, keys) if k is not None and k.head is KeyHead.TIME and ":" in k.body]


def _clock_disagrees(older: str, newer: str) -> bool:
    a, b = _latest_clock(older), _latest_clock(newer)
    return a is not None and b is not None and b < a


@dataclass(frozen=True)
class _ValueChange:
    older: str  # an older sentence aligned to, and not proved by, newer sentences
    missing: dict[str, frozenset[str]]  # its values those sentences lack: text -> keys
    added: dict[str, frozenset[str]]  # their values it lacks
    newer: tuple[str, ...]  # the newer sentences it is aligned to
    names_missing: tuple[str, ...] = ()  # its names those sentences lack
    names_added: tuple[str, ...] = ()  # their names it lacks


def _value_changes(older: str, newer: str) -> list[_ValueChange]:
    """Each older sentence the newer text speaks of without restating it, with the values each side holds alone."""
    newer_sentences = split(newer)
    out: list[_ValueChange] = []
    for fate in align([older], newer).sentences:
        if fate.fate in (Fate.KEPT, Fate.RESTATED) or not fate.body:
            continue
        aligned = tuple(newer_sentences[i].text for i in fate.body if i < len(newer_sentences))
        out.append(_ValueChange(
            fate.text,
            {t.text: t.keys for t in tokens(fate.text) if t.cls is TokenClass.VALUE and t.text in fate.missing},
            {t.text: t.keys for text in aligned for t in tokens(text) if t.cls is TokenClass.VALUE
             and t.text in fate.added},
            aligned,
            tuple(t.text for t in tokens(fate.text) if _proper(t) and t.text in fate.missing),
            tuple(t.text for text in aligned for t in tokens(text) if _proper(t) and t.text in fate.added)))
    return out


def _proper(token: Token) -> bool:
    """A name, or a capitalised word inside its sentence (`Dr. Morel`: `morel` is also a word of the lexicon)."""
    return token.cls is TokenClass.NAME or (token.start > 0 and token.text[:1].isupper()
                                            and token.cls is TokenClass.CONTENT)


_STILL = MarkerKey(MarkerClass.ORDER, "still")  # `still`, `unchanged`: a value persists (facts/lexicon.py)


def _persisting_value_contradicted(older: str, newer: str) -> str:
    """An older sentence whose value the aligned newer sentence contradicts in the clause where it says that value
    persists (`address still Tiensestraat 12` beside `moved to Vaartstraat 5`; `rack fee 40 EUR, unchanged` beside
    `goes up to 55 EUR`): the newer note does not replace the older value, the two disagree on it. A persisting
    value that agrees (`now €1,214/month, charges unchanged at €95`) is no disagreement. The older sentence, or
    ""."""
    stated = {k for t in tokens(older) if t.cls is TokenClass.VALUE for k in t.keys}  # anywhere in the older note
    for c in _value_changes(older, newer):
        against = {text for text, keys in c.added.items()
                   if not _stated_in(keys, stated) and any(_contradicts(m, keys) for m in c.missing.values())}
        against |= {b for b in c.names_added if _another_name(c.names_missing, (b,))}
        if against and any(_persists(text, against) for text in c.newer):
            return c.older
    return ""


def _stated_in(keys: frozenset[str], stated: set[str]) -> bool:
    """The value is one the other note states: a shared key, or an amount and its rate (`€95`, `€95/month`)."""
    return any(k == s or s.startswith(k + "/") or k.startswith(s + "/") for k in keys for s in stated)


def _persists(sentence: str, values: set[str]) -> bool:
    """One of `values` stands in a clause that says it still holds (a bare `unchanged` after a comma speaks of the
    clause before it)."""
    words = [t for t in tokens(sentence) if t.owed]
    for t in words:
        if t.marker != _STILL:
            continue
        own = [w for w in words if w.clause == t.clause and w is not t]
        scope = own if own else [w for w in words if w.clause == t.clause - 1]
        if any(w.text in values for w in scope):
            return True
    return False


def _dated_change_not_carried(older: str, newer: str) -> str:
    """An older sentence that dates a change of a value, aligned to a newer sentence that states another value
    without a date, while the newer note dates changes of its own: each note is newer on something (the newer
    note may repeat a value it did not update). The older sentence, or ""."""
    if not stated_days(newer):
        return ""
    for c in _value_changes(older, newer):
        if (stated_days(c.older) and any(not dates(m) for m in c.missing) and c.added
                and not any(stated_days(text) for text in c.newer)):
            return c.older
    return ""


def replaced_value(notes: Sequence[TimedNote], order: Order) -> str:
    """The evidence that the newest note replaces something (not merely restates it): an older sentence aligned to
    a newest sentence that lacks one of its values and states, in its place, another value of the same kind that
    contradicts it (not a looser spelling of it: `early Feb` does not replace `2 February`, `£110 a year` does not
    replace `£110`). The older sentence, or "" — then the notes restate each other or speak of different things."""
    newest = notes[order.newest].body or ""
    for ni in order.oldest_first[:-1]:
        for c in _value_changes(notes[ni].body, newest):
            if any(_contradicts(a, b) and _same_role(c, old, new) for old, a in c.missing.items()
                   for new, b in c.added.items()):
                return c.older
            if _another_name(c.names_missing, c.names_added):
                return c.older
    return ""


def _same_role(change: _ValueChange, old: str, new: str) -> bool:
    """Two values that can stand for one thing: a bare number counts anything, so it replaces another only under
    the same word (`Room 12` → `Room 14`), not `Unit 4` → `fob no. 0412`."""
    if not (_bare(change.missing[old]) and _bare(change.added[new])):
        return True
    return _label(change.older, old) == next((w for w in (_label(t, new) for t in change.newer) if w), "")


def _bare(keys: frozenset[str]) -> bool:
    return all((k := ValueKey.read(key)) is not None and k.head is KeyHead.N and not k.bound for key in keys)


_NUMBER_WORDS = frozenset({"no", "number", "nr", "num", "#"})


def _label(sentence: str, text: str) -> str:
    """The word a bare number stands under: the content word or name just before it (`Unit 4`; `fob no. 0412` →
    `fob`), in lower case; "" when none."""
    before = ""
    for t in tokens(sentence):
        if t.text == text and t.cls is TokenClass.VALUE:
            return before
        if t.cls in (TokenClass.CONTENT, TokenClass.NAME) and t.text.casefold().rstrip(".") not in _NUMBER_WORDS:
            before = t.text.casefold()
        elif t.cls is not TokenClass.FUNCTION and t.text.casefold().rstrip(".") not in _NUMBER_WORDS:
            before = ""
    return ""


def changed_amount(notes: Sequence[TimedNote], order: Order) -> str:
    """Looser evidence than `replaced_value`: an amount of an older note that the newest states another value of
    wherever each stands (their sentences not aligned). The older amount, or ""."""
    newest = notes[order.newest].body or ""
    return next((a for a in (_measure_changed(notes[ni].body or "", newest) for ni in order.oldest_first[:-1]) if a),
                "")


_MEASURES = ("money", "rate", "quantity", "temperature", "percent")  # amounts of a thing, not a day, a count or a name


def _measure_changed(older: str, newer: str) -> str:
    """An amount of the older note that the newer states another way wherever each stands (`space 42, €85/month`
    → `box 12 … €110/month`): one measure (a price per month, a length) with contradicting values, the older
    gone from the newer note. The older amount, or "". Days are left out (notes written on other days differ in
    them) and so are bare numbers (they count anything)."""
    def amounts(text: str) -> list[Value]:
        return [v for v in values(text) if not v.implied and v.dimension.startswith(_MEASURES)]
    newer_amounts = amounts(newer)
    newer_keys = {k for v in newer_amounts for k in v.keys}
    for a in amounts(older):
        if a.keys & newer_keys:
            continue
        if any(a.dimension == b.dimension and _contradicts(a.keys, b.keys) for b in newer_amounts):
            return a.text
    return ""


def _another_name(missing: Sequence[str], added: Sequence[str]) -> bool:
    """A name of the older sentence gone from its aligned newer sentence, and there a name that shares no word
    with it: another one in its place (`Dr. Morel` → `Dr. Perrin`), not a fuller spelling (`Morel` → `Anne Morel`)."""
    def words(name: str) -> set[str]:
        return {w for w in re.findall(r"\w+", name.casefold()) if len(w) > 2}

    return any(words(a) and words(b) and not words(a) & words(b) for a in missing for b in added)


def _contradicts(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two values of one kind that cannot both hold: no key shared, none a prefix of the other (an amount and its
    rate), and two dates of different months (a day and the looser `early Feb` of its month agree)."""
    for x in a:
        for y in b:
            kx, ky = ValueKey.read(x), ValueKey.read(y)
            if kx is None or ky is None or (kx.bound, kx.head) != (ky.bound, ky.head) or _stated_in(
                    frozenset({x}), {y}):  # one value, or an amount and its rate (not `0.2` and `0.25`)
                continue
            dx, dy = kx.date, ky.date
            if dx and dy and dx.month == dy.month and None in (dx.year, dy.year):
                continue
            return True
    return False


def series_of(notes: Sequence[TimedNote]) -> str:
    """Why these notes are dated observations of one series ("" when they are not): two look-alike sentences of
    two notes that differ in the dates they carry, or that each open with the same action in the past tense (two
    records of one thing done twice: `Swapped the butane bottle — €32`, `Swapped the butane bottle — €34 this
    time`; a log, not one state replacing another)."""
    for i, a in enumerate(notes):
        for b in notes[i + 1:]:
            for c in contrasts(a.body, b.body):
                if _dated(c.a_words) and _dated(c.b_words):
                    return (f"two dated observations: “{_short(c.a_sentence)}” and “{_short(c.b_sentence)}” "
                            "differ in their dates")
                if _past_action(c.a_sentence) & _past_action(c.b_sentence):
                    return f"one action done twice: “{_short(c.a_sentence)}” and “{_short(c.b_sentence)}”"
    return ""


def _past_action(sentence: str) -> frozenset[str]:
    """The verb a sentence opens with, when its first word is one in the past tense (`Swapped`, `Paid`), by
    WordNet's forms; empty for anything else (a label, a plan, a condition: `If we get separated`)."""
    first = next((t for t in tokens(sentence) if t.cls is not TokenClass.FUNCTION), None)
    if first is None or first.cls is not TokenClass.CONTENT or "ed" not in lexical.inflections(first.text):
        return frozenset()
    return frozenset(base for pos, base in lexical.bases(first.text) if pos == "v")


def _dated(words: Sequence[str]) -> bool:
    return bool(dates(" ".join(words)))


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- the draft ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Historied:
    note: int  # the older note
    index: int  # its sentence
    text: str
    after: int  # the newest note's sentence it follows (-1: after the note)
    phrase: str  # what the draft writes


@dataclass(frozen=True)
class SupersedeDraft:
    body: str
    order: Order
    history: tuple[Historied, ...]  # older statements kept as dated history
    kept: tuple[tuple[int, int], ...]  # older sentences (note, index) kept as present statements (not touched)
    dropped: tuple[tuple[int, int], ...]  # older sentences the newer text keeps or restates
    # older sentences the newer note shares nothing with, kept as history because no reader said they still hold:
    # whether each is stale or untouched is a person's call (accept-safe leaves such a supersession to one)
    unaligned: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"merged_body": self.body, "order": self.order.to_dict(),
                "history": [{"note": h.note, "index": h.index, "text": h.text, "phrase": h.phrase}
                            for h in self.history],
                "kept": [list(k) for k in self.kept], "dropped": [list(d) for d in self.dropped],
                "unaligned": [list(u) for u in self.unaligned]}


def history_phrase(sentence: str, day: str) -> str:
    """`(previously: <the older statement>, as of YYYY-MM-DD)`; a statement that already is a history phrase is
    kept as it is (never nested twice)."""
    text = " ".join(sentence.split()).rstrip()
    if HISTORY.search(text):
        return text
    text = re.sub(r"^(?:[-*+•]|\d+[.)])\s+", "", text).rstrip(".;")
    return f"(previously: {text}, as of {day})"


def _statements(text: str) -> list[Sentence]:
    return [s for s in split(text) if not s.structural and s.text.strip()]


def supersede_draft(notes: Sequence[TimedNote], order: Order,
                    stale: Callable[[int, str], bool] | None = None) -> SupersedeDraft:
    """The newest note whole as the present fact; what each older note states that it does not is kept as dated
    history where the newer note speaks of the same thing. An older sentence the newer note shares nothing with
    is asked of `stale(note, sentence)` (the model's reading: does the newest state make it out of date?): kept as
    written when it says no, as history otherwise. Without a reader it is history: `previously …, as of DATE` is
    true of any statement, a stale plan left as a present claim is not."""
    if not order.ordered:
        raise ValueError(f"the notes cannot be ordered: {order.doubt}")
    newest = notes[order.newest].body or ""
    new_sentences = _statements(newest)
    after: dict[int, list[str]] = {}
    tail: list[str] = []
    history: list[Historied] = []
    kept: list[tuple[int, int]] = []
    dropped: list[tuple[int, int]] = []
    unaligned: list[tuple[int, int]] = []
    for ni in reversed(order.oldest_first[:-1]):  # the newest of the older notes first
        note = notes[ni]
        day = day_of(order.times[ni] or 0)
        result = align([note.body], newest)
        for fate in result.sentences:
            if fate.fate in (Fate.KEPT, Fate.RESTATED):
                dropped.append((ni, fate.index))
            elif fate.body:
                phrase = history_phrase(fate.text, day)
                where = max(fate.body)
                after.setdefault(where, []).append(phrase)
                history.append(Historied(ni, fate.index, fate.text, where, phrase))
            elif stale is not None and not stale(ni, fate.text):
                tail.append(fate.text.strip())
                kept.append((ni, fate.index))
            else:
                phrase = history_phrase(fate.text, day)
                after.setdefault(len(new_sentences) - 1, []).append(phrase)
                history.append(Historied(ni, fate.index, fate.text, -1, phrase))
                if stale is None:
                    unaligned.append((ni, fate.index))
    body = _with_history(newest, new_sentences, after)
    if tail:
        body = body.rstrip() + "\n" + "\n".join(tail)
    return SupersedeDraft(body, order, tuple(history), tuple(kept), tuple(dropped), tuple(unaligned))


def _with_history(text: str, sentences: list[Sentence], after: dict[int, list[str]]) -> str:
    """Each history phrase right after the newest note's sentence it replaces, the note's text otherwise as is."""
    out: list[str] = []
    cursor = 0
    for s in sentences:
        out.append(text[cursor:s.end])
        cursor = s.end
        if s.index in after:
            out.append(" " + " ".join(after[s.index]))
    out.append(text[cursor:])
    return "".join(out)


# ---- the check --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SupersedeFinding:
    note: int
    index: int
    text: str
    problem: str  # "dropped" | "left as a present claim" | "history without its date" | "newest state not kept"

    def to_dict(self) -> dict[str, object]:
        return {"note": self.note, "index": self.index, "text": self.text, "problem": self.problem}


@dataclass(frozen=True)
class SupersedeCheck:
    findings: tuple[SupersedeFinding, ...]

    @property
    def passed(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, object]:
        return {"passed": self.passed, "findings": [f.to_dict() for f in self.findings]}


def split_history(body: str) -> tuple[str, list[tuple[str, str]]]:
    """The body's present text (history phrases cut out) and its history phrases as (statement, YYYY-MM-DD)."""
    phrases = [(m.group("old").strip(), m.group("date")) for m in HISTORY.finditer(body or "")]
    return HISTORY.sub(" ", body or ""), phrases


def check_supersession(notes: Sequence[TimedNote], order: Order, body: str) -> SupersedeCheck:
    """Every statement of the newest note kept or restated as present; every older statement kept, restated, or
    inside a history phrase dated from its note; an older statement the newest replaces is never a present claim."""
    if not order.ordered:
        raise ValueError(f"the notes cannot be ordered: {order.doubt}")
    present, phrases = split_history(body)
    findings: list[SupersedeFinding] = []
    newest_i = order.newest
    for fate in align([notes[newest_i].body], present).sentences:
        if fate.fate not in (Fate.KEPT, Fate.RESTATED):
            findings.append(SupersedeFinding(newest_i, fate.index, fate.text, "newest state not kept"))
    newest = notes[newest_i].body or ""
    for ni in order.oldest_first[:-1]:
        day = day_of(order.times[ni] or 0)
        replaced = {c.a_sentence for c in contrasts(notes[ni].body, newest)}
        against_newest = {f.index: f for f in align([notes[ni].body], newest).sentences}
        in_present = align([notes[ni].body], present).sentences
        for fate in in_present:
            if fate.fate in (Fate.KEPT, Fate.RESTATED):
                touched = fate.text in replaced or (against_newest.get(fate.index) is not None
                                                    and against_newest[fate.index].body
                                                    and against_newest[fate.index].fate not in (Fate.KEPT,
                                                                                                Fate.RESTATED))
                if touched:
                    findings.append(SupersedeFinding(ni, fate.index, fate.text, "left as a present claim"))
                continue
            if _in_history(fate.text, phrases, day):
                continue
            problem = "history without its date" if _in_history(fate.text, phrases, None) else "dropped"
            findings.append(SupersedeFinding(ni, fate.index, fate.text, problem))
    return SupersedeCheck(tuple(findings))


def overwritten(before: str, after: str) -> list[tuple[str, str]]:
    """Older values a write replaced without keeping them as history: each (older sentence, the sentence that
    now states another value in its place) where the two are look-alikes that differ in a value, and the older
    sentence is in no `previously … as of …` phrase of `after`."""
    present, phrases = split_history(after)
    return [(c.a_sentence, c.b_sentence) for c in contrasts(before, present)
            if c.of_values and not _in_history(c.a_sentence, phrases, None)]


def _in_history(sentence: str, phrases: list[tuple[str, str]], day: str | None) -> bool:
    texts = [old for old, d in phrases if day is None or d == day]
    if not texts:
        return False
    return align([sentence], "\n".join(texts)).sentences[0].fate in (Fate.KEPT, Fate.RESTATED)


__all__ = [
    "HISTORY",
    "Historied",
    "Order",
    "Reading",
    "SupersedeCheck",
    "SupersedeDraft",
    "SupersedeFinding",
    "TimedNote",
    "changed_amount",
    "check_supersession",
    "day_of",
    "history_phrase",
    "order_of",
    "overwritten",
    "replaced_value",
    "series_of",
    "split_history",
    "stated_days",
    "supersede_draft",
]
