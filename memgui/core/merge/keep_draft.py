"""Drafts that never drop what they cannot prove (issue 36, "prove or keep").

- `prove_or_keep(sources)`: the fullest note kept whole, then, in source order, every sentence of the other notes
  that the draft does not already keep or restate (align.py's proof), word for word. A sentence is never cut:
  every sentence of the draft is a whole source sentence.
- `repair(sources, body)`: a model's draft made safe. Its sentences that add what no source states are dropped;
  every source sentence the rest does not keep or restate is appended whole, after Netclaw's append separator.

Both are proved by construction (their alignment's verdict is `proved`), unless a sentence cannot be read word by
word at all (then it is kept and the verdict says `read`). `confirmed` names source sentences a person has confirmed
as restated by the draft: they are dropped at once. What is kept back, and why, is in the draft's `kept_back`.
"""
from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from ..netfx import append_separator
from .align import Alignment, Fate, align
from .guard import check_merge
from .sentences import Sentence, split


@dataclass(frozen=True)
class KeptBack:
    source: int
    index: int
    text: str
    why: str  # what the draft's nearest sentence does not state

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "index": self.index, "text": self.text, "why": self.why}


@dataclass(frozen=True)
class ProvedDraft:
    body: str
    primary: int  # the source kept whole (for a repaired model draft: -1)
    kept_back: tuple[KeptBack, ...]  # source sentences appended word for word because no proof was found
    dropped: tuple[str, ...]  # a model's sentences that were dropped because they added what no source states
    sources: tuple[str, ...] = ()

    @functools.cached_property
    def alignment(self) -> Alignment:
        """The draft's alignment to its sources (computed when asked: the union's callers often need the body
        alone)."""
        return align(self.sources, self.body)

    def to_dict(self) -> dict[str, object]:
        return {"body": self.body, "primary": self.primary, "verdict": self.alignment.verdict.value,
                "kept_back": [k.to_dict() for k in self.kept_back], "dropped": list(self.dropped)}


def _weight(text: str) -> int:
    return sum(1 for s in split(text) if not s.structural) * 1000 + len(text)


def fullest(sources: Sequence[str]) -> int:
    """The note that states the most: the most sentences, then the longest."""
    return max(range(len(sources)), key=lambda i: (_weight(sources[i] or ""), -i))


def _join(body: str, sentences: list[Sentence]) -> str:
    """Whole sentences after a body, each on a line of its own: a sentence run on after another could be read as
    one with it (`…:8006. hearth:`), and a line break always ends a sentence."""
    if not sentences:
        return body
    parts = "\n".join(s.text for s in sentences)
    return body.rstrip() + "\n" + parts if body.strip() else parts


def _join_note(body: str, note: str) -> str:
    """A whole note after the body; after a blank body, the note exactly as written (MergeGuard measures its
    length: `0 ` cut to `0` would be half of it)."""
    return f"{body.rstrip()}\n{note.strip()}" if body.strip() else note


def _unproved(sources: Sequence[str], body: str, confirmed: frozenset[tuple[int, int]],
              skip: int | None = None) -> tuple[list[tuple[int, Sentence, str]], Alignment]:
    result = align(sources, body)
    by_key = {(f.source, f.index): f for f in result.sentences}
    out = []
    for si, source in enumerate(sources):
        if si == skip:
            continue
        for s in split(source or ""):
            fate = by_key.get((si, s.index))
            if s.structural or fate is None or (si, s.index) in confirmed:
                continue
            if fate.fate not in (Fate.KEPT, Fate.RESTATED):
                out.append((si, s, fate.why))
    return out, result


def prove_or_keep(sources: Sequence[str], confirmed: frozenset[tuple[int, int]] = frozenset(),
                  primary: int | None = None) -> ProvedDraft:
    """The fullest note whole, then each other note's sentences the draft cannot prove it restates, whole."""
    texts = [s or "" for s in sources]
    first = fullest(texts) if primary is None else primary
    body = texts[first]
    kept_back: list[KeptBack] = []
    if _too_much_to_prove(texts, first):
        return _kept_whole(texts, first)
    for si in range(len(texts)):  # one note at a time: a later note's restatement of an earlier addition is proved
        if si == first:
            continue
        missing, _ = _unproved([texts[si]], body, frozenset((0, i) for s, i in confirmed if s == si))
        missing = list({s.plain: (x, s, why) for x, s, why in reversed(missing)}.values())[::-1]  # once each
        kept_back += [KeptBack(si, s.index, s.text, why) for _, s, why in missing]
        statements = [x for x in split(texts[si]) if not x.structural]
        if missing and len(missing) == len(statements) and len({x.plain for x in statements}) == len(statements):
            body = _join_note(body, texts[si])  # nothing of it proved: the note as its author wrote it
        else:
            body = _join(body, [s for _, s, _ in missing])
    body = _guarded(texts, body, kept_back)
    return ProvedDraft(body, first, tuple(kept_back), (), tuple(texts))


PROVE_UP_TO = 64_000  # characters of new sentences a draft proves one by one; past it every new one is kept whole


def _too_much_to_prove(texts: list[str], first: int) -> bool:
    seen = {x.plain for x in split(texts[first])}
    new = sum(len(x.text) for si, t in enumerate(texts) if si != first for x in split(t) if x.plain not in seen)
    return new > PROVE_UP_TO


def _kept_whole(texts: list[str], first: int) -> ProvedDraft:
    """Past PROVE_UP_TO: the fullest note, then every other sentence not in the draft word for word, once, whole
    (proved by construction: each is kept; linear in the input)."""
    seen = {x.plain for x in split(texts[first])}
    kept_back: list[KeptBack] = []
    added: list[Sentence] = []
    for si, text in enumerate(texts):
        if si == first:
            continue
        for x in split(text):
            if x.plain not in seen and not x.structural:
                seen.add(x.plain)
                added.append(x)
                kept_back.append(KeptBack(si, x.index, x.text, f"kept whole: over {PROVE_UP_TO // 1000} KB of new "
                                                               "sentences are not proved one by one"))
    body = _guarded(texts, _join(texts[first], added), kept_back)
    return ProvedDraft(body, first, tuple(kept_back), (), tuple(texts))


def _guarded(sources: list[str], body: str, kept_back: list[KeptBack]) -> str:
    """Netclaw's MergeGuard reads tokens literally: a restated value written another way (`4` for `four`) is kept
    back whole too, so the guard's verdict holds as well as the proof."""
    report = check_merge(sources, body)
    if report.passed:
        return body
    in_body = {x.plain for x in split(body)}
    candidates = [(si, x) for si, source in enumerate(sources) for x in split(source)
                  if not x.structural and x.plain not in in_body]
    missing = set(report.missing)
    extra: list[Sentence] = []
    while missing and candidates:  # the fewest whole sentences that bring the tokens back, most tokens first
        holds = [{m for m in missing if m.casefold() in x.text.casefold()} for _, x in candidates]
        best = max(range(len(candidates)), key=lambda i: len(holds[i]))
        if not holds[best]:
            break
        si, x = candidates.pop(best)
        extra.append(x)
        kept_back.append(KeptBack(si, x.index, x.text, "MergeGuard needs its tokens as written"))
        missing -= holds[best]
        if not missing:
            body = _join(body, extra)
            extra = []
            report = check_merge(sources, body)
            missing = set(report.missing)
            if report.passed:
                return body
    body = _join(body, extra)
    if check_merge(sources, body).passed:
        return body
    # Degenerate input (text with no sentence in it, a note of one sentence repeated): every source whole.
    for si, source in enumerate(sources):
        if source and (not source.strip() or source.strip() not in body):
            body = f"{body}\n\n{source}" if body else source
            kept_back.append(KeptBack(si, -1, source, "kept whole: MergeGuard could not pass otherwise"))
    return body


def repair(sources: Sequence[str], body: str, when: str | None = None,
           confirmed: frozenset[tuple[int, int]] = frozenset()) -> ProvedDraft:
    """A model's draft kept where it is proved; its unproved sentences dropped; every source sentence it no longer
    states appended whole after Netclaw's append separator (dated `when`, YYYY-MM-DD, default today)."""
    texts = [s or "" for s in sources]
    first = align(texts, body)
    dropped = tuple(b.text for b in first.body if b.added)
    kept = [b.text for b in first.body if not b.added and b.text.strip()]
    trimmed = "\n".join(kept) if "\n" in body.strip() else " ".join(kept)
    missing, _ = _unproved(texts, trimmed, confirmed)
    kept_back = [KeptBack(si, s.index, s.text, why) for si, s, why in missing]
    if missing:
        addition = "\n".join(s.text for _, s, _ in missing)
        date = when or _dt.datetime.now(_dt.timezone.utc).date().isoformat()
        trimmed = (trimmed.rstrip() + append_separator(date) + addition) if trimmed.strip() else addition
    trimmed = _guarded(texts, trimmed, kept_back)
    return ProvedDraft(trimmed, -1, tuple(kept_back), dropped, tuple(texts))


__all__ = ["KeptBack", "ProvedDraft", "fullest", "prove_or_keep", "repair"]
