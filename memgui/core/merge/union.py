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
silent loss is not. The fact lens (facts/) reads the draft only while it is under 20 KB (`LENS_COVER_LIMIT`),
clause by clause and at the end; a longer draft is held to MergeGuard and the strict lens's tokens, each
whole in it. A lens that fails on some string counts as "something is missing": the clause is kept. Sources
that bring more than 64 KB of new sentences (`LEAN_UP_TO`) are not leaned at all: every new sentence is kept
whole, then the same checks.

Linear in its input (tests/perf/test_union_speed.py): every question asked of the draft so far is answered
from indexes of it (union_cover.py), never by reading the whole draft again; a long source is scanned once and
its sentences' and clauses' tokens and facts taken from that scan by their spans (union_reading.py).
"""
from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Sequence
from typing import Final, NamedTuple

import ahocorasick_rs

from ..netfx import LENGTH_COLLAPSE_THRESHOLD, fold_case
from .guard import check_merge
from .strict import ABBREVIATIONS, check_strict
from .union_cover import LENS_COVER_LIMIT, Cover, lens_at_risk, normalised, whole_found
from .union_reading import NoteReading, Reader

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
_ABBREVIATIONS = ABBREVIATIONS | {"c", "ca", "approx", "no"}  # the strict lens's titles, "c. 2019", "approx.", "No."
_ABBREVIATION = re.compile(
    r"(?<![\w.])(?:" + "|".join(re.escape(a) for a in sorted(_ABBREVIATIONS)) + r")\.$", re.IGNORECASE)
_ABBREVIATION_SPAN = max(map(len, _ABBREVIATIONS)) + 1  # it is looked for this far back from a full stop
_ITEM = re.compile(r"^" + _ITEM_MARKER + r"[ \t]*")
_MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d{1,9}[.)]\s+|#{1,6}\s+|(?:>\s*)+)")
_SPACES = re.compile(r"\s+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TRAILING_PUNCT = ".,;:!?\u2026\u3002\uff01\uff1f \t"


class _Unit(NamedTuple):  # a tuple: 1 MB of sources makes tens of thousands
    text: str
    line: int  # first line of the unit in its source
    paragraph: int  # paragraphs are separated by blank lines
    key: str  # normalised form; "" = nothing worth comparing (punctuation only)
    at: int = -1  # where the text stands in its source (-1: nowhere as written, e.g. a unit leaned anew)


# Inside the union a unit is a plain tuple (text, line, paragraph, key, at), read by these indexes: the garbage
# collector stops tracking an exact tuple of strings and numbers at its first collection, a NamedTuple's never
# (tens of thousands of units alive through a union made a full collection of the whole heap come sooner).
_TEXT: Final = 0
_LINE: Final = 1
_PARAGRAPH: Final = 2
_KEY: Final = 3
_AT: Final = 4
_Plain = tuple[str, int, int, str, int]


@functools.lru_cache(maxsize=1 << 14)  # a note that repeats itself repeats its sentences
def normalise_sentence(text: str) -> str:
    """The comparison key of a sentence or markdown line."""
    key = _MARKER.sub("", text, count=1)
    key = _SPACES.sub(" ", fold_case(key)).strip()
    return key.rstrip(_TRAILING_PUNCT)


def split_units(text: str | None) -> list[_Unit]:
    """Sentences of prose lines, whole markdown lines, whole fenced code blocks, in source order."""
    return list(map(_Unit._make, _units(text)))


def _units(text: str | None) -> list[_Plain]:
    """`split_units`, each unit a plain tuple."""
    if not text:
        return []
    units: list[_Plain] = []
    lines = text.split("\n")
    offsets = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))  # where each line starts
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
            at = offsets[i] if text.startswith(block, offsets[i]) else -1  # not as written once a "\r" is cut
            units.append((block, i, paragraph, normalise_sentence(block), at))
            i = j + 1
            continue
        if _STRUCTURAL.match(line):
            units.append((line.rstrip(), i, paragraph, normalise_sentence(line), offsets[i]))
        else:
            start = 0
            stripped = line.strip()
            at = offsets[i] + len(line) - len(line.lstrip())
            for end in _SENTENCE_END.finditer(stripped):
                following = stripped[end.end() : end.end() + 1]
                if following.islower() or following.isdigit():
                    continue  # "e.g. the", "Jan. 5": not a sentence end
                if _ABBREVIATION.search(stripped, max(0, end.start() + 1 - _ABBREVIATION_SPAN), end.start() + 1):
                    continue  # "Dr. Nuno Alves": a title, not a sentence end
                sentence = stripped[start : end.start(1)]
                units.append((sentence, i, paragraph, normalise_sentence(sentence), at + start))
                start = end.end()
            if start < len(stripped):
                sentence = stripped[start:]
                units.append((sentence, i, paragraph, normalise_sentence(sentence), at + start))
        i += 1
    return units


def _join(units: list[_Plain]) -> str:
    out: list[str] = []
    previous: _Plain | None = None
    for unit in units:
        if previous is not None:
            if unit[_LINE] == previous[_LINE]:
                out.append(" ")
            elif unit[_PARAGRAPH] != previous[_PARAGRAPH]:
                out.append("\n\n")
            else:
                out.append("\n")
        out.append(unit[_TEXT])
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


def _passes_fully(sources: list[str | None], merged: str, reader: Reader,
                  only_whether: bool = False) -> tuple[bool, tuple[str, ...]]:
    """Netclaw's guard with nothing missing and the strict lens clean; the tokens/facts still missing. The fact
    lens reads a draft under `LENS_COVER_LIMIT` characters (as it does clause by clause); a longer one is held
    to the strict lens's tokens, each whole in it. `only_whether`: the lens is not asked once the guard fails
    (what is missing is then not all listed)."""
    report = check_merge(sources, merged)
    if only_whether and (report.missing or report.length_ratio < LENGTH_COLLAPSE_THRESHOLD):
        return False, report.missing
    lens = lens_at_risk(sources, merged, check_strict) if len(merged) <= LENS_COVER_LIMIT else None
    at_risk = tuple(r.token for r in lens) if lens is not None else _strict_tokens_missing(sources, merged, reader)
    missing = tuple(report.missing) + at_risk
    ok = not missing and report.length_ratio >= LENGTH_COLLAPSE_THRESHOLD
    return ok, missing


def _strict_tokens_missing(sources: list[str | None], merged: str, reader: Reader) -> tuple[str, ...]:
    """The strict lens's facts of the sources (tokens, times, dates, quantities, names, negations…) that stand
    whole in their source and not in the merged body. Whether a fact stands whole in its source is asked only
    of those the body lacks (none, most often: a long source is then not normalised at all)."""
    body = normalised(merged)
    primary = normalised(sources[0] or "") if sources else ""
    if body.startswith(primary) and body[len(primary):len(primary) + 1] in ("", " "):
        sources = sources[1:]  # the body starts with the whole primary: what stands whole in it stands in the body
    facts = [(source, _facts_by_key(source, reader)) for source in sources if source]
    candidates = set().union(*(keys for _, keys in facts))
    absent = candidates - whole_found(candidates, body)
    wanted: dict[str, str] = {}
    for source, keys in facts:
        asked = absent.intersection(keys).difference(wanted)
        if asked:
            whole = whole_found(asked, normalised(source))  # MergeGuard's pieces ("4.20" of "v5.4.20") are not
            wanted.update((key, token) for key, token in keys.items() if key in whole and key not in wanted)
    return tuple(wanted.values())


def _facts_by_key(source: str, reader: Reader) -> dict[str, str]:
    """A source's strict-lens facts by normal form, each as first spelt. Kept for the next check of the same
    sources (do not modify the result)."""
    kept = reader.whole.get(source)
    if kept is None:
        kept = reader.whole[source] = {}
        for token, _ in reader.whole_facts(source):
            kept.setdefault(normalised(token), token)
    return kept


# Where a prose sentence may be cut into clauses: after ; , : and around dashes, and at parentheses (a dash
# right after one is part of the same cut: "(Director) — Tuesdays").
_CLAUSE_CUT = re.compile(r"\s*(?:[;,:]\s+|\s[\u2014\u2013-]\s|\s*\(|\)(?:\s+[\u2014\u2013-](?=\s))?\s*)")


def _clauses(sentence: str, reader: Reader) -> list[_Clause]:
    """The sentence's clauses, in order; a cut never falls inside a load-bearing token or a strict-lens fact
    ("14 March, 2025", "7 daily, 4 weekly" stay whole where the fact spans the comma)."""
    tokens = {t for t, _ in reader.tokens(sentence)} | {t for t, _ in reader.facts(sentence)}
    starts, ends = _merged_spans(_occurrences(fold_case(sentence), {fold_case(t) for t in tokens if _CUTTABLE.search(t)}))
    clauses: list[_Clause] = []
    start = 0
    for cut in [*(c for c in _CLAUSE_CUT.finditer(sentence) if not _inside(starts, ends, c.start(), c.end())), None]:
        piece, after = sentence[start:cut.start() if cut else len(sentence)], cut.group() if cut else ""
        if piece.strip(" ."):
            clauses.append(_Clause(piece.strip(), after.strip() == ":", after, start + len(piece) - len(piece.lstrip())))
        elif clauses:  # nothing between two cuts ("), "): one separator
            clauses[-1] = clauses[-1]._replace(after=clauses[-1].after + piece + after)
        start = cut.end() if cut else len(sentence)
    return clauses


# A token can hold a cut only where it holds one of a cut's characters: white space, ; , : a dash or a parenthesis.
_CUTTABLE = re.compile(r"[\s;,:\u2014\u2013()-]")


def _occurrences(text: str, needles: set[str]) -> list[tuple[int, int]]:
    """(start, end) of every place each needle occurs in `text`, overlapping ones included: one Aho–Corasick
    pass when there are many needles (one scan of a long sentence per token would be quadratic)."""
    plain = [n for n in needles if n and not _SURROGATE.search(n)]
    spans = []
    if len(plain) >= 8:
        automaton = ahocorasick_rs.AhoCorasick(plain)
        spans = [(a, b) for _, a, b in automaton.find_matches_as_indexes(_SURROGATE.sub("\ufffd", text),
                                                                         overlapping=True)]
        needles = {n for n in needles if n not in plain}
    for needle in needles:
        at = text.find(needle) if needle else -1
        while at != -1:
            spans.append((at, at + len(needle)))
            at = text.find(needle, at + 1)
    return spans


def _holding_any(texts: list[str], needles: Sequence[str]) -> list[bool]:
    """For each text: does it hold one of the needles (case-insensitively)? One pass over all of them."""
    folded = "\n".join(fold_case(text) for text in texts)
    starts = list(itertools.accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
    holds = [False] * len(texts)
    for a, b in _occurrences(folded, {fold_case(needle) for needle in needles}):
        at = bisect.bisect_right(starts, a) - 1
        holds[at] = holds[at] or b <= starts[at] + len(texts[at])
    return holds


def _merged_spans(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The union of the spans as sorted, disjoint intervals: their starts and ends."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(spans):
        if starts and a < ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _inside(starts: list[int], ends: list[int], a: int, b: int) -> bool:
    """Does [a, b) overlap one of the intervals?"""
    at = bisect.bisect_right(starts, a) - 1  # the last interval starting at or before a
    if at >= 0 and ends[at] > a:
        return True
    return at + 1 < len(starts) and starts[at + 1] < b


class _Clause(NamedTuple):
    text: str
    label: bool  # a label before a colon ("Terminal:", "Retention:"): says nothing without what follows
    after: str  # the separator after it in the sentence: ", ", " (", "): ", … ("" at the end)
    at: int  # where it starts in the sentence


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


_LEADING_AND = re.compile(r"^and\s+(?=\S)", re.IGNORECASE)  # "or", "but" and "so" say how the clauses relate


def _with_labels(clauses: list[_Clause], needs: list[bool]) -> list[bool]:
    """`needs` plus the labels kept in front of a kept value: a short label ("shell: fish"), or any label of a
    short value ("Safe alternative she has taken before: azithromycin": a bare name says nothing)."""
    needs = list(needs)
    for i, clause in enumerate(clauses[:-1]):
        if clause.label and not needs[i] and needs[i + 1]:
            needs[i] = len(clause.text.split()) <= 4 or len(clauses[i + 1].text.split()) <= 2
    return needs


def _lean(unit: _Plain, cover: Cover, note: NoteReading) -> tuple[_Plain | None, list[str]]:
    """The part of a prose sentence the draft needs — the whole sentence when every clause brings something,
    only the clauses that do when some do (joined by "; ", a kept label by ": "), None when none does — and the
    texts left out. A bullet or numbered item is leaned the same way under its own marker."""
    if _FENCE.match(unit[_TEXT]):
        return unit, []  # code is kept whole whenever it is not literally there yet
    item = _ITEM.match(unit[_TEXT])  # a bullet or numbered item is leaned like prose, its marker kept
    if (_STRUCTURAL.match(unit[_TEXT]) and not item) or "\n" in unit[_TEXT]:
        return (unit, []) if cover.brings(unit[_TEXT]) else (None, [unit[_TEXT]])
    marker = item.group() if item else ""
    cover.reader.locate(unit[_TEXT][len(marker):], note, unit[_AT] + len(marker) if unit[_AT] >= 0 else -1)
    clauses = _clauses(unit[_TEXT][len(marker):], cover.reader)
    for clause in clauses:  # each is read from the scan of its note, where it stands
        cover.reader.locate(clause.text, note, unit[_AT] + len(marker) + clause.at if unit[_AT] >= 0 else -1)
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
    for previous, following in itertools.pairwise(kept):
        joint, depth = _balanced(_joint([c.after for c in clauses[previous:following]]), depth)
        text += joint.lstrip() if joint.startswith(" ") and text.endswith(" ") else joint
        text += clauses[following].text
    text += ")" * depth  # a parenthesis left open by the clauses left out
    if unit[_TEXT].rstrip()[-1:] in ".!?" and text[-1:] not in ".!?":
        text += unit[_TEXT].rstrip()[-1]
    return (text, unit[_LINE], unit[_PARAGRAPH], unit[_KEY], -1), left_out


def _note_respellings(text: str, respellings: dict[str, str]) -> str:
    """Each date another source spells differently, in brackets after the draft's spelling: `on 2025-06-11
    (11 June 2025)` — MergeGuard and the strict lens need the other spelling verbatim, the reader needs it once."""
    for new, existing in respellings.items():
        at = text.find(existing)
        if at >= 0 and new not in text:
            end = at + len(existing)
            text = f"{text[:end]} ({new}){text[end:]}"
    return text


_SPANS_PAY = 4  # a note is scanned whole when its sentences not in the draft yet are 1/4 of it or more
# Characters of new sentences (not literally in the draft yet) the cover leans clause by clause: three times
# what the lens reads clause by clause (LENS_COVER_LIMIT). Past them the union keeps every new sentence whole, as
# its own fallback does: at 1 MB the cover took 1.4–3.8 s of CPU where this takes 0.3–0.8 s (docs/benchmarks.md),
# and a draft that long is read in the diff, not clause by clause.
LEAN_UP_TO = 64_000


def _new_sentences(units_of: list[list[_Plain]], seen: set[str]) -> list[list[_Plain]]:
    """For each source, its units not literally in the draft yet (nor in an earlier source), in order."""
    seen = set(seen)
    out = []
    for units in units_of:
        kept = []
        for unit in units:
            if unit[_KEY] and unit[_KEY] not in seen:
                seen.add(unit[_KEY])
                kept.append(unit)
        out.append(kept)
    return out


def sentence_union(primary: str | None, others: Sequence[str | None]) -> str:
    """The primary verbatim, then — in source order — what the other sources' sentences bring that the draft
    does not have yet: a load-bearing token, a strict-lens fact, or mostly new content words (a greedy
    cover, at the level of clauses: a sentence that adds one new fact adds that clause, not the sentence).
    Then checked: see the module doc."""
    primary = primary or ""
    seen = {unit[_KEY] for unit in _units(primary)}
    units_of = [_units(other) for other in others]
    sources = [primary, *others]
    new_units = _new_sentences(units_of, seen)
    if sum(len(unit[_TEXT]) for kept in new_units for unit in kept) > LEAN_UP_TO:
        # Past this much new text nobody reads the draft clause by clause: every sentence not literally there
        # yet, whole (the cover's own fallback, below), then the same checks.
        merged = _append(primary, [_join(kept) for kept in new_units])
        ok, _ = _passes_fully(sources, merged, Reader(), only_whether=True)
        return merged if ok else _append(primary, [other for other in others if other])
    reader = Reader()  # each source scanned once; its sentences and clauses read from the scan
    cover = Cover(primary, reader)
    respellings: dict[str, str] = {}  # a date as another source writes it -> the draft's spelling
    per_source: list[tuple[list[_Plain], list[bool]]] = []
    dedup_only: list[list[bool]] = []  # every sentence not literally there yet (the draft before the cover)
    originals: list[list[_Plain]] = []  # the units before leaning, for the last safety net
    for other, units in zip(others, units_of):
        note = reader.note(other or "")
        fresh = {unit[_KEY]: len(unit[_TEXT]) for unit in units if unit[_KEY] not in seen}
        note.spans_pay = _SPANS_PAY * sum(fresh.values()) >= len(other or "")  # else its few new sentences read alone
        originals.append(list(units))
        keep, unseen_keys = [], []
        for index, unit in enumerate(units):
            unseen = bool(unit[_KEY]) and unit[_KEY] not in seen
            lean = None
            if unseen:
                seen.add(unit[_KEY])
                reader.locate(unit[_TEXT], note, unit[_AT])
                lean, left_out = _lean(unit, cover, note)
                if lean is not None:
                    cover.add(lean[_TEXT])
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

    merged = draft()
    ok, missing = _passes_fully(sources, merged, reader)
    if ok:
        return merged
    # The drafts refused so far: the checks are pure functions of the text, so the same draft again (nothing was
    # put back; every new sentence was already there whole) is refused again without reading it.
    refused = [merged]

    # Put back the dropped sentences that hold a missing token or fact (once: a repeat is already there).
    if missing:  # else only the length fell short: nothing to put back
        dropped = [(keep, index, unit[_TEXT]) for (units, keep), unseen_keys in zip(per_source, dedup_only)
                   for index, unit in enumerate(units) if unseen_keys[index] and not keep[index]]
        for (keep, index, _), holds in zip(dropped, _holding_any([text for _, _, text in dropped], missing)):
            keep[index] = keep[index] or holds
        merged = draft()
        if merged not in refused:
            ok, _ = _passes_fully(sources, merged, reader, only_whether=True)
            if ok:
                return merged
            refused.append(merged)
    # Too short after the cover (a source that repeats itself): every sentence not literally there yet, whole.
    for (units, keep), unseen_keys, whole in zip(per_source, dedup_only, originals):
        keep[:] = list(unseen_keys)
        units[:] = whole
    merged = draft()
    if merged not in refused:
        ok, _ = _passes_fully(sources, merged, reader, only_whether=True)
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
    missing = set(map(fold_case, report.missing))
    folded_body = fold_case(body)
    still = missing - _needles_in([folded_body], missing)[0]  # not in the body yet
    spanning = {m for m in still if "\n" in m}  # may come to straddle the line a restored sentence starts
    texts = [unit.text.strip() for source in sources for unit in split_units(source)]
    folded = [fold_case(text) for text in texts]
    restored: list[str] = []
    seen: set[str] = set()
    for text, folded_text, holds in zip(texts, folded, _needles_in(folded, still)):
        if text and text not in seen and holds & still:
            restored.append(text)
            seen.add(text)
            still -= holds
            if spanning:
                folded_body += "\n" + folded_text
                still -= {m for m in spanning if m in folded_body}
    if not restored:
        return body, []
    return body.rstrip() + "\n\n" + "\n".join(restored), restored


def _needles_in(texts: list[str], needles: set[str]) -> list[set[str]]:
    """For each text, the needles it holds: one Aho–Corasick pass over all of them (a lone surrogate, which the
    automaton cannot take, is looked for needle by needle)."""
    plain = sorted(n for n in needles if n and not _SURROGATE.search(n))
    out: list[set[str]] = [set() for _ in texts]
    if plain:
        joined = "\n".join(texts)
        starts = list(itertools.accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
        automaton = ahocorasick_rs.AhoCorasick(plain)
        for number, a, b in automaton.find_matches_as_indexes(_SURROGATE.sub("\ufffd", joined), overlapping=True):
            at = bisect.bisect_right(starts, a) - 1
            if b <= starts[at] + len(texts[at]):
                out[at].add(plain[number])
    for needle in needles.difference(plain):
        for text, holds in zip(texts, out):
            if needle in text:
                holds.add(needle)
    return out


__all__ = ["normalise_sentence", "restore_missing_sentences", "sentence_union", "split_units"]
