"""The sentence-union draft (no LLM): a merged body that loses nothing.

`sentence_union(primary, others)` keeps the primary body verbatim, then adds, in source order, only the
sentences (or clauses) of the other sources that bring something the draft lacks: a load-bearing token, a
strict-lens fact or mostly new content words (a greedy cover). A paraphrase of what is already there adds
nothing, so duplicates do not end up twice inside the merged memory. A date another source writes differently
(`11 June 2025` for the draft's `2025-06-11`, `2 December` for `1987-12-02`) is the same fact: it is noted in
brackets after the draft's spelling — the one change made inside the primary — because MergeGuard needs it
verbatim. A label before a colon ("Terminal:") is never added on its own, only with its value, and "Dr." does not
end a sentence. Sentences are compared normalised (case-folded, white space collapsed, list/heading/quote markers
and trailing punctuation ignored). Markdown lines are units of their own: bullets and numbered items are leaned
by clause like prose under their own marker; headings, quotes, table rows and indented code are kept whole, and a
fenced code block is one unit.

MergeGuard and the strict lens pass the result by construction: the draft is checked with both, and if any
load-bearing token or fact went missing (a token can straddle a sentence boundary, or differ only in white space
from a sentence judged "already present") the dropped sentences holding it are put back; if that still
does not pass (e.g. a source made of one sentence repeated many times, whose de-duplicated form falls
under the 60% length floor), the other sources are appended verbatim — over-appending is acceptable,
silent loss is not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from .conflicts import calendar_date, day_and_month
from .facts.lens import check_facts
from .guard import check_merge, extract_tokens
from .strict import ABBREVIATIONS, check_strict, contains_whole, normalise_text, facts as strict_facts
from ..netfx import LENGTH_COLLAPSE_THRESHOLD, fold_case

_LENS_COVER_LIMIT = 20_000  # characters of draft the per-clause lens reads
# the lens's judgements of whole sentences: a clause read alone is not a sentence, the final check judges them
_SENTENCE_JUDGEMENTS = frozenset({"sentence", "word", "word_order"})
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ITEM_MARKER = r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]"  # a bullet or a numbered item
_STRUCTURAL = re.compile(
    r"^(?:" + _ITEM_MARKER +
    r"|[ \t]{0,3}#{1,6}(?:[ \t]|$)"  # heading
    r"|[ \t]*>"  # quote
    r"|[ \t]*\|"  # table row
    r"|(?: {4}|\t)"  # indented code
    r"|[ \t]*(?:[-*_][ \t]*){3,}$)"  # horizontal rule
)
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f]+[\"'\u201d\u2019)\]]*(\s+)")
_ABBREVIATION = re.compile(  # the strict lens's titles, plus "c. 2019", "approx." and "No."
    r"(?<![\w.])(?:" + "|".join(re.escape(a) for a in sorted(ABBREVIATIONS | {"c", "ca", "approx", "no"})) + r")\.$",
    re.IGNORECASE)
_ITEM = re.compile(r"^" + _ITEM_MARKER + r"[ \t]*")
_MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d{1,9}[.)]\s+|#{1,6}\s+|(?:>\s*)+)")
_SPACES = re.compile(r"\s+")
_TRAILING_PUNCT = ".,;:!?\u2026\u3002\uff01\uff1f \t"


@dataclass(frozen=True)
class _Unit:
    text: str
    line: int  # first line of the unit in its source
    paragraph: int  # paragraphs are separated by blank lines
    key: str  # normalised form; "" = nothing worth comparing (punctuation only)


def normalise_sentence(text: str) -> str:
    """The comparison key of a sentence or markdown line."""
    key = _MARKER.sub("", text, count=1)
    key = _SPACES.sub(" ", fold_case(key)).strip()
    return key.rstrip(_TRAILING_PUNCT)


def split_units(text: str | None) -> list[_Unit]:
    """Sentences of prose lines, whole markdown lines, whole fenced code blocks, in source order."""
    if not text:
        return []
    units: list[_Unit] = []
    lines = text.split("\n")
    paragraph = 0
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        if not line.strip():
            paragraph += 1
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].lstrip(" ").startswith(marker[0] * len(marker)):
                j += 1
            block = "\n".join(x.rstrip("\r") for x in lines[i : min(j, len(lines) - 1) + 1])
            units.append(_Unit(block, i, paragraph, normalise_sentence(block)))
            i = j + 1
            continue
        if _STRUCTURAL.match(line):
            units.append(_Unit(line.rstrip(), i, paragraph, normalise_sentence(line)))
        else:
            start = 0
            stripped = line.strip()
            for end in _SENTENCE_END.finditer(stripped):
                following = stripped[end.end() : end.end() + 1]
                if following.islower() or following.isdigit():
                    continue  # "e.g. the", "Jan. 5": not a sentence end
                if _ABBREVIATION.search(stripped, 0, end.start() + 1):
                    continue  # "Dr. Nuno Alves": a title, not a sentence end
                sentence = stripped[start : end.start(1)]
                units.append(_Unit(sentence, i, paragraph, normalise_sentence(sentence)))
                start = end.end()
            if start < len(stripped):
                sentence = stripped[start:]
                units.append(_Unit(sentence, i, paragraph, normalise_sentence(sentence)))
        i += 1
    return units


def _join(units: list[_Unit]) -> str:
    out: list[str] = []
    previous: _Unit | None = None
    for unit in units:
        if previous is not None:
            if unit.line == previous.line:
                out.append(" ")
            elif unit.paragraph != previous.paragraph:
                out.append("\n\n")
            else:
                out.append("\n")
        out.append(unit.text)
        previous = unit
    return "".join(out)


def _append(primary: str, parts: list[str]) -> str:
    """`primary` as an exact prefix, then the parts, separated by blank lines."""
    parts = [p for p in parts if p]
    if not parts:
        return primary
    if not primary or primary.endswith("\n\n"):
        separator = ""
    elif primary.endswith("\n"):
        separator = "\n"
    else:
        separator = "\n\n"
    return primary + separator + "\n\n".join(parts)


def _passes_fully(sources: list[str | None], merged: str) -> tuple[bool, tuple[str, ...]]:
    """Netclaw's guard with nothing missing and the strict lens clean; the tokens/facts still missing."""
    report = check_merge(sources, merged)
    strict = check_strict(sources, merged)
    missing = tuple(report.missing) + tuple(r.token for r in strict.at_risk)
    ok = not missing and report.length_ratio >= LENGTH_COLLAPSE_THRESHOLD
    return ok, missing


_WORD = re.compile(r"[^\W_]+")
_STOPWORDS = frozenset("""
about above after again also always among another because been before being below between both cannot could
does doing down during each every from further have having here into itself just more most much must once only
other over same should some such than that their them then there these they this those through under until very
what when where which while with would your yours will shall were with also
""".split())


def _content_words(text: str) -> set[str]:
    """Words that carry meaning: four letters or more (or holding a digit), not a stop word, case-folded,
    a plural `s` dropped."""
    words = set()
    for w in _WORD.findall(normalise_text(text)):
        if len(w) < 4 and not any(c.isdigit() for c in w):
            continue
        if w in _STOPWORDS:
            continue
        words.add(w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w)
    return words


def _facts(text: str) -> set[str]:
    """Load-bearing tokens and strict-lens facts of `text` that stand as whole tokens in it (MergeGuard also
    finds pieces such as the "1" of "16.4", which say nothing on their own)."""
    own = normalise_text(text)
    found = {t for t, _ in extract_tokens(text)} | {t for t, _ in strict_facts(text)}
    return {t for t in found if contains_whole(own, normalise_text(t))}


# Where a prose sentence may be cut into clauses: after ; , : and around dashes, and at parentheses (a dash
# right after one is part of the same cut: "(Director) — Tuesdays").
_CLAUSE_CUT = re.compile(r"\s*(?:[;,:]\s+|\s[\u2014\u2013-]\s|\s*\(|\)(?:\s+[\u2014\u2013-](?=\s))?\s*)")


def _clauses(sentence: str) -> list[_Clause]:
    """The sentence's clauses, in order; a cut never falls inside a load-bearing token or a strict-lens fact
    ("14 March, 2025", "7 daily, 4 weekly" stay whole where the fact spans the comma)."""
    spans = []
    folded = fold_case(sentence)
    for token in {t for t, _ in extract_tokens(sentence)} | {t for t, _ in strict_facts(sentence)}:
        needle = fold_case(token)
        at = folded.find(needle)
        while at != -1:
            spans.append((at, at + len(needle)))
            at = folded.find(needle, at + 1)
    clauses: list[_Clause] = []
    start = 0
    for cut in [*(c for c in _CLAUSE_CUT.finditer(sentence) if not any(a < c.end() and c.start() < b for a, b in spans)),
                None]:
        piece, after = sentence[start:cut.start() if cut else len(sentence)], cut.group() if cut else ""
        if piece.strip(" ."):
            clauses.append(_Clause(piece.strip(), after.strip() == ":", after))
        elif clauses:  # nothing between two cuts ("), "): one separator
            clauses[-1] = clauses[-1]._replace(after=clauses[-1].after + piece + after)
        start = cut.end() if cut else len(sentence)
    return clauses


class _Clause(NamedTuple):
    text: str
    label: bool  # a label before a colon ("Terminal:", "Retention:"): says nothing without what follows
    after: str  # the separator after it in the sentence: ", ", " (", "): ", … ("" at the end)


def _joint(separators: list[str]) -> str:
    """What joins two kept clauses, given the separators between them in the sentence: the one separator as
    written when they were next to each other; else a parenthesis that held only left-out clauses goes with
    them, a list of commas stays a list, and anything else is "; "."""
    if len(separators) == 1:
        return separators[0]
    opens = closes = 0
    for ch in "".join(separators):
        if ch == "(":
            opens += 1
        elif ch == ")":
            opens, closes = (opens - 1, closes) if opens else (opens, closes + 1)
    inner = set("".join(separators)) - set("() ")
    if opens and not closes:
        return " (" * opens
    return ")" * closes + (": " if ":" in separators[0] else ", " if inner == {","} else "; ") + "(" * opens


def _balanced(joint: str, depth: int) -> tuple[str, int]:
    """`joint` without a ")" that closes nothing in the text so far (a clause left out held its "("), and the
    parentheses still open after it."""
    out = []
    for ch in joint:
        if ch == ")" and not depth:
            continue
        depth += (ch == "(") - (ch == ")")
        out.append(ch)
    return "".join(out), depth


class _Cover:
    """What the draft holds so far: its normalised text, content words and full dates (by calendar day)."""

    def __init__(self, primary: str):
        self.words, self.text, self.dates, self.days = set(), "", {}, {}  # days: MM-DD -> spelling
        self.raw: list[str] = []  # the draft's texts as written, for the fact lens
        self.day_months: dict[str, str] = {}  # MM-DD -> a day and month the draft writes without a year
        self.add(primary)

    def respelled(self, text: str) -> list[tuple[str, str]]:
        """(spelling in the draft, spelling in `text`) of each full date `text` writes differently from the
        draft (`2025-06-11` and `11 June 2025`): the same fact, which the draft can note in place."""
        out = []
        for token, kind in extract_tokens(text):
            day = calendar_date(token, kind)
            if not day or contains_whole(self.text, normalise_text(token)):
                continue
            if day in self.dates:
                out.append((self.dates[day], token))
            elif day[5:] in self.day_months and contains_whole(self.text, day[:4]):
                out.append((self.day_months[day[5:]], token))  # "2 April" of a draft that says 2026 too
        for token, kind in strict_facts(text):  # "2 December" of a draft that holds 1987-12-02
            day = day_and_month(token) if kind == "day_month" else None
            if day and day in self.days and not contains_whole(self.text, normalise_text(token)):
                if not any(normalise_text(token) in normalise_text(new) for _, new in out):
                    out.append((self.days[day], token))
        return out

    def brings(self, text: str, *, facts_only: bool = False, wordless: bool = True) -> bool:
        """Does `text` bring a fact, or two thirds of its words, the draft lacks? (A paraphrase brings a word or
        two; a date the draft holds in another spelling is not a new fact.)"""
        respellings = [normalise_text(new) for _, new in self.respelled(text)]
        for fact in _facts(text):
            fact = normalise_text(fact)
            if not contains_whole(self.text, fact) and not any(contains_whole(r, fact) for r in respellings):
                return True
        if facts_only:
            return False  # a label: kept only with its value (_with_labels)
        if self._lens_finds_new(text):
            return True
        all_words = _content_words(text)
        words = all_words.difference(*(_content_words(r) for r in respellings))
        new = words - self.words
        if not all_words:
            return wordless  # a sentence of short words only ("No.") is kept; such a clause is not
        return bool(new) and 3 * len(new) >= 2 * len(words)

    def _lens_finds_new(self, text: str) -> bool:
        """The fact lens reads `text` as a source of the draft so far: a fact it would drop is new. (Skipped on a
        draft past `_LENS_COVER_LIMIT`, where the final check and its put-back carry the guarantee alone.)"""
        draft = "\n\n".join(self.raw)
        if len(draft) > _LENS_COVER_LIMIT:
            return False
        return any(item.direction != "added" and item.kind not in _SENTENCE_JUDGEMENTS
                   for item in check_facts([text], draft).at_risk)

    def add(self, text: str) -> None:
        self.raw.append(text)
        self.words |= _content_words(text)
        self.text += "\n" + normalise_text(text)
        for token, kind in extract_tokens(text):
            day = calendar_date(token, kind)
            if day:
                self.dates.setdefault(day, token)
                self.days.setdefault(day[5:], token)
        for token, kind in strict_facts(text):
            day = day_and_month(token) if kind == "day_month" else None
            if day:
                self.day_months.setdefault(day, token)


_LEADING_AND = re.compile(r"^and\s+(?=\S)", re.IGNORECASE)  # "or", "but" and "so" say how the clauses relate


def _with_labels(clauses: list[_Clause], needs: list[bool]) -> list[bool]:
    """`needs` plus the labels kept in front of a kept value: a short label ("shell: fish"), or any label of a
    short value ("Safe alternative she has taken before: azithromycin": a bare name says nothing)."""
    needs = list(needs)
    for i, clause in enumerate(clauses[:-1]):
        if clause.label and not needs[i] and needs[i + 1]:
            needs[i] = len(clause.text.split()) <= 4 or len(clauses[i + 1].text.split()) <= 2
    return needs


def _lean(unit: _Unit, cover: _Cover) -> tuple[_Unit | None, list[str]]:
    """The part of a prose sentence the draft needs — the whole sentence when every clause brings something,
    only the clauses that do when some do (joined by "; ", a kept label by ": "), None when none does — and the
    texts left out. A bullet or numbered item is leaned the same way under its own marker."""
    if _FENCE.match(unit.text):
        return unit, []  # code is kept whole whenever it is not literally there yet
    item = _ITEM.match(unit.text)  # a bullet or numbered item is leaned like prose, its marker kept
    if (_STRUCTURAL.match(unit.text) and not item) or "\n" in unit.text:
        return (unit, []) if cover.brings(unit.text) else (None, [unit.text])
    marker = item.group() if item else ""
    clauses = _clauses(unit.text[len(marker):])
    # a clause of short words only ("The cat") brings nothing; a label brings a fact of its own, or is kept
    # in front of a value that is kept ("shell: fish"): it says what the value is
    needs = [cover.brings(c.text, facts_only=c.label, wordless=len(clauses) == 1) for c in clauses]
    needs = _with_labels(clauses, needs)
    left_out = [c.text for c, need in zip(clauses, needs) if not need]
    if not any(needs):
        return None, left_out
    if all(needs):
        return unit, []
    kept = [i for i, need in enumerate(needs) if need]
    first, depth = clauses[kept[0]].text, 0
    if kept[0]:  # "…, and Mira squash-merges them": the conjunction joined it to a clause left out
        first = _LEADING_AND.sub("", first, count=1) or first
    text = marker + first
    for previous, following in zip(kept, kept[1:]):
        joint, depth = _balanced(_joint([c.after for c in clauses[previous:following]]), depth)
        text += joint.lstrip() if joint.startswith(" ") and text.endswith(" ") else joint
        text += clauses[following].text
    text += ")" * depth  # a parenthesis left open by the clauses left out
    if unit.text.rstrip()[-1:] in ".!?" and text[-1:] not in ".!?":
        text += unit.text.rstrip()[-1]
    return _Unit(text, unit.line, unit.paragraph, unit.key), left_out


def _note_respellings(text: str, respellings: dict[str, str]) -> str:
    """Each date another source spells differently, in brackets after the draft's spelling: `on 2025-06-11
    (11 June 2025)` — MergeGuard and the strict lens need the other spelling verbatim, the reader needs it once."""
    for new, existing in respellings.items():
        at = text.find(existing)
        if at >= 0 and new not in text:
            end = at + len(existing)
            text = f"{text[:end]} ({new}){text[end:]}"
    return text


def sentence_union(primary: str | None, others: Sequence[str | None]) -> str:
    """The primary verbatim, then — in source order — what the other sources' sentences bring that the draft
    does not have yet: a load-bearing token, a strict-lens fact, or mostly new content words (a greedy
    cover, at the level of clauses: a sentence that adds one new fact adds that clause, not the sentence).
    Then checked: see the module doc."""
    primary = primary or ""
    seen = {unit.key for unit in split_units(primary)}
    cover = _Cover(primary)
    respellings: dict[str, str] = {}  # a date as another source writes it -> the draft's spelling
    per_source: list[tuple[list[_Unit], list[bool]]] = []
    dedup_only: list[list[bool]] = []  # every sentence not literally there yet (the draft before the cover)
    originals: list[list[_Unit]] = []  # the units before leaning, for the last safety net
    for other in others:
        units = split_units(other)
        originals.append(list(units))
        keep, unseen_keys = [], []
        for index, unit in enumerate(units):
            unseen = bool(unit.key) and unit.key not in seen
            lean = None
            if unseen:
                seen.add(unit.key)
                lean, left_out = _lean(unit, cover)
                if lean is not None:
                    cover.add(lean.text)
                    units[index] = lean
                for text in left_out:
                    for existing, new in cover.respelled(text):
                        respellings[new] = existing
                        cover.add(new)
            keep.append(lean is not None)
            unseen_keys.append(unseen)
        per_source.append((units, keep))
        dedup_only.append(unseen_keys)

    def draft() -> str:
        parts = [_join([u for u, k in zip(units, keep) if k]) for units, keep in per_source]
        return _note_respellings(_append(primary, parts), respellings)

    sources = [primary, *others]
    merged = draft()
    ok, missing = _passes_fully(sources, merged)
    if ok:
        return merged

    # Put back the dropped sentences that hold a missing token or fact (once: a repeat is already there).
    folded_missing = [fold_case(token) for token in missing]
    for (units, keep), unseen_keys in zip(per_source, dedup_only):
        for index, unit in enumerate(units):
            if unseen_keys[index] and not keep[index] and any(t in fold_case(unit.text) for t in folded_missing):
                keep[index] = True
    merged = draft()
    ok, _ = _passes_fully(sources, merged)
    if ok:
        return merged
    # Too short after the cover (a source that repeats itself): every sentence not literally there yet, whole.
    for (units, keep), unseen_keys, whole in zip(per_source, dedup_only, originals):
        keep[:] = list(unseen_keys)
        units[:] = whole
    merged = draft()
    ok, _ = _passes_fully(sources, merged)
    if ok:
        return merged
    # Degenerate input: append the other sources as they are.
    return _append(primary, [other for other in others if other])


def restore_missing_sentences(body: str, sources: Sequence[str]) -> tuple[str, list[str]]:
    """The editor's body, plus — when MergeGuard finds load-bearing tokens missing — every source sentence that
    carries one, appended verbatim as a last paragraph (in source order, once each). The model's own wording
    stays; a fact it dropped comes back word for word ("over-appending is acceptable, silent loss is not").
    Returns the body and the restored sentences."""
    report = check_merge(list(sources), body)
    if not report.missing:
        return body, []
    missing = [fold_case(t) for t in report.missing]
    folded_body = fold_case(body)
    restored: list[str] = []
    for source in sources:
        for unit in split_units(source):
            text = unit.text.strip()
            folded = fold_case(text)
            if text and text not in restored and any(m in folded and m not in folded_body for m in missing):
                restored.append(text)
                folded_body += "\n" + folded
    if not restored:
        return body, []
    return body.rstrip() + "\n\n" + "\n".join(restored), restored


__all__ = ["sentence_union", "split_units", "normalise_sentence", "restore_missing_sentences"]
