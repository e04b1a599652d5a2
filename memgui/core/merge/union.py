"""The sentence-union draft (no LLM) and the repair of a model's draft: prove or keep (keep_draft.py).

`sentence_union(primary, others)` keeps the primary body verbatim, then adds, in source order and word for word,
every sentence of the other sources that the draft does not keep or restate by proof (align.py). A paraphrase the
alignment proves is left out; anything it cannot prove stays, whole: a draft never holds a clause cut from its
sentence. MergeGuard passes the result by construction (a sentence whose load-bearing tokens the guard cannot find
as written is kept too), and its alignment's verdict is `proved` unless a sentence cannot be read word by word.

A model's draft is repaired the same way (keep_draft.repair).
"""
from __future__ import annotations

from collections.abc import Sequence

from .keep_draft import prove_or_keep


def sentence_union(primary: str | None, others: Sequence[str | None]) -> str:
    """`primary` whole, then every sentence of `others` the draft cannot prove it already states, whole."""
    sources = [primary or "", *(o or "" for o in others)]
    if not any(sources[1:]):
        return primary or ""
    return prove_or_keep(sources, primary=0).body


__all__ = ["sentence_union"]
