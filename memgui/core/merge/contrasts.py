"""Conflicts from the alignment (issue 36, item 8): where a sentence of one note is aligned to a sentence of the
other and the two differ, the words that differ are named, whatever their class. So a one-word contrast between
look-alike notes (a blood group's letter, `must` / `may`, a language, a tool, a reason, `~` / `^`) is always named,
without a rule for it.

Two sentences are look-alikes when at least half of what one states is found in the other, both ways; a pair
that shares less is two different statements, not a conflict.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from .align import Fate, align
from .restatement import found
from .sentences import Feature, Token, TokenClass, split, tokens

LOOKALIKE_SHARE = 0.5  # of a sentence's owed tokens found in the other, both ways


@dataclass(frozen=True)
class Contrast:
    a_sentence: str
    b_sentence: str
    a_words: tuple[str, ...]  # what the first note's sentence states that the second's lacks
    b_words: tuple[str, ...]  # and the other way round
    of_values: bool = False  # each side has a value the other lacks (a number, date, version… changed)

    def to_dict(self) -> dict[str, object]:
        return {"a_sentence": self.a_sentence, "b_sentence": self.b_sentence, "a": list(self.a_words),
                "b": list(self.b_words)}


def _states_a_fact(token: Token) -> bool:
    """A word one sentence has and its look-alike lacks is a conflict by itself when it is a value, a name or a
    marker of meaning (`and falling` is a condition; `I see my` is a rewording)."""
    if token.cls is TokenClass.MARKER:
        return token.marker is None or token.marker.cls is not Feature.PERSON
    return token.cls in (TokenClass.VALUE, TokenClass.NAME)


def _owed(text: str) -> list[Token]:
    return [t for t in tokens(text) if t.owed]


def _spelling_differs(a: str, b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The same words read, but written differently where it matters (`~18.2.0` / `^18.2.0`, `net-next` / `net`):
    the word-level differences of the two sentences."""
    mine, theirs = a.split(), b.split()
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=mine, b=theirs, autojunk=False).get_opcodes():
        if op != "equal":
            left += mine[i1:i2]
            right += theirs[j1:j2]
    return tuple(left), tuple(right)


def contrasts(a: str | None, b: str | None) -> list[Contrast]:
    """Each look-alike sentence pair of two notes that differ, with the words that differ on each side."""
    a, b = a or "", b or ""
    result = align([a], b)
    body = split(b)
    out: list[Contrast] = []
    for fate in result.sentences:
        if fate.fate in (Fate.KEPT,) or len(fate.body) != 1 or fate.body[0] >= len(body):
            continue
        theirs_text = body[fate.body[0]].text
        mine, theirs = _owed(fate.text), _owed(theirs_text)
        if not mine or not theirs:
            continue
        a_only = [t for t in mine if not found(t, theirs)]
        b_only = [t for t in theirs if not found(t, mine)]
        shared_a = 1 - len(a_only) / len(mine)
        shared_b = 1 - len(b_only) / len(theirs)
        if min(shared_a, shared_b) < LOOKALIKE_SHARE:
            continue
        if (a_only and b_only) or any(_states_a_fact(t) for t in (*a_only, *b_only)):
            out.append(Contrast(fate.text, theirs_text, tuple(t.text for t in a_only) or ("—",),
                                tuple(t.text for t in b_only) or ("—",),
                                any(t.cls is TokenClass.VALUE for t in a_only)
                                and any(t.cls is TokenClass.VALUE for t in b_only)))
        elif not a_only and not b_only and fate.fate is not Fate.RESTATED:  # all found, yet not proved: order
            left, right = _spelling_differs(fate.text, theirs_text)
            if left or right:
                out.append(Contrast(fate.text, theirs_text, left or ("—",), right or ("—",)))
    return out


__all__ = ["LOOKALIKE_SHARE", "Contrast", "contrasts"]
