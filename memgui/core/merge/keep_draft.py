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
    alignment: Alignment

    def to_dict(self) -> dict[str, object]:
        return {"body": self.body, "primary": self.primary, "verdict": self.alignment.verdict.value,
                "kept_back": [k.to_dict() for k in self.kept_back], "dropped": list(self.dropped)}


def _weight(text: str) -> int:
    return sum(1 for s in split(text) if not s.structural) * 1000 + len(text)


def fullest(sources: Sequence[str]) -> int:
    """The note that states the most: the most sentences, then the longest."""
    return max(range(len(sources)), key=lambda i: (_weight(sources[i] or ""), -i))


def _join(body: str, sentences: list[Sentence]) -> str:
    """Whole sentences after a body: a list item on its own line, prose after a space on a new line."""
    if not sentences:
        return body
    parts = [s.text for s in sentences]
    glue = "\n" if any(p.lstrip()[:1] in "-*+•" for p in parts) or "\n" in body.strip() else " "
    return body.rstrip() + glue + glue.join(parts) if body.strip() else glue.join(parts)


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
    for si in range(len(texts)):  # one note at a time: a later note's restatement of an earlier addition is proved
        if si == first:
            continue
        missing, _ = _unproved([texts[si]], body, frozenset((0, i) for s, i in confirmed if s == si))
        missing = list({s.plain: (x, s, why) for x, s, why in reversed(missing)}.values())[::-1]  # once each
        kept_back += [KeptBack(si, s.index, s.text, why) for _, s, why in missing]
        body = _join(body, [s for _, s, _ in missing])
    body = _guarded(texts, body, kept_back)
    return ProvedDraft(body, first, tuple(kept_back), (), align(texts, body))


def _guarded(sources: list[str], body: str, kept_back: list[KeptBack]) -> str:
    """Netclaw's MergeGuard reads tokens literally: a restated value written another way (`4` for `four`) is kept
    back whole too, so the guard's verdict holds as well as the proof."""
    if check_merge(sources, body).passed:
        return body
    extra: list[Sentence] = []
    for si, source in enumerate(sources):
        for s in split(source):
            if s.structural or f" {s.plain} " in f" {' '.join(x.plain for x in split(body))} ":
                continue
            if not check_merge([s.text], body).passed:
                extra.append(s)
                kept_back.append(KeptBack(si, s.index, s.text, "MergeGuard needs its tokens as written"))
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
    return ProvedDraft(trimmed, -1, tuple(kept_back), dropped, align(texts, trimmed))


__all__ = ["KeptBack", "ProvedDraft", "fullest", "prove_or_keep", "repair"]
