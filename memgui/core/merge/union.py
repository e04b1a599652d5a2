"""The sentence-union draft (no LLM): a merged body that loses nothing.

`sentence_union(primary, others)` keeps the primary body verbatim, then adds every sentence of the other
sources that is not already there. Sentences are compared normalised (case-folded, white space collapsed,
list/heading/quote markers and trailing punctuation ignored). Markdown lines — bullets, numbered items,
headings, quotes, table rows, indented code — are kept whole, and a fenced code block is one unit.

MergeGuard passes the result by construction: the draft is checked with the guard itself, and if any
load-bearing token went missing (a token can straddle a sentence boundary, or differ only in white space
from a sentence judged "already present") the dropped sentences holding it are put back; if that still
does not pass (e.g. a source made of one sentence repeated many times, whose de-duplicated form falls
under the 60% length floor), the other sources are appended verbatim — over-appending is acceptable,
silent loss is not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from .guard import check_merge
from ..netfx import LENGTH_COLLAPSE_THRESHOLD, fold_case

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRUCTURAL = re.compile(
    r"^(?:[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]"  # bullet / numbered item
    r"|[ \t]{0,3}#{1,6}(?:[ \t]|$)"  # heading
    r"|[ \t]*>"  # quote
    r"|[ \t]*\|"  # table row
    r"|(?: {4}|\t)"  # indented code
    r"|[ \t]*(?:[-*_][ \t]*){3,}$)"  # horizontal rule
)
_SENTENCE_END = re.compile(r"[.!?\u2026\u3002\uff01\uff1f]+[\"'\u201d\u2019)\]]*(\s+)")
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
    report = check_merge(sources, merged)
    ok = not report.missing and report.length_ratio >= LENGTH_COLLAPSE_THRESHOLD
    return ok, report.missing


def sentence_union(primary: str | None, others: Sequence[str | None]) -> str:
    """The primary verbatim, then each not-yet-present sentence of the others, in order (see module doc)."""
    primary = primary or ""
    seen = {unit.key for unit in split_units(primary)}
    per_source: list[tuple[list[_Unit], list[bool]]] = []
    for other in others:
        units = split_units(other)
        keep = []
        for unit in units:
            new = bool(unit.key) and unit.key not in seen
            if new:
                seen.add(unit.key)
            keep.append(new)
        per_source.append((units, keep))

    def draft() -> str:
        return _append(primary, [_join([u for u, k in zip(units, keep) if k]) for units, keep in per_source])

    sources = [primary, *others]
    merged = draft()
    ok, missing = _passes_fully(sources, merged)
    if ok:
        return merged

    # Put back the dropped sentences that hold a missing token.
    folded_missing = [fold_case(token) for token in missing]
    for units, keep in per_source:
        for index, unit in enumerate(units):
            if not keep[index] and any(token in fold_case(unit.text) for token in folded_missing):
                keep[index] = True
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
