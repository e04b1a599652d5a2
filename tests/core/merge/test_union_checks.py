"""The union does not check a draft it has already seen refused (union.py: the put-back draft is often the lean draft
itself). That is exact only while its checks are pure functions of the text: the same draft gets the same verdict
from the full check and the one that stops at a failing guard, whatever the reader read before. Fails when a check
starts to depend on anything else."""
from __future__ import annotations

import random

from memgui.core.merge import union as union_mod
from memgui.core.merge.union import sentence_union
from memgui.core.merge.union_reading import Reader
from memgui.core.store.demo import load_corpus
from text_fuzz import random_text


def _cases() -> list[tuple[str, list[str]]]:
    rng = random.Random(26)
    bodies = [d.row["markdown_body"] for d in load_corpus().documents]
    cases = [(random_text(rng, 20), [random_text(rng, 20) for _ in range(rng.randint(1, 2))]) for _ in range(30)]
    cases += [(rng.choice(bodies), rng.sample(bodies, rng.randint(1, 2))) for _ in range(10)]
    return cases


def test_a_draft_gets_the_same_verdict_each_time_it_is_checked():
    rng = random.Random(5)
    for primary, others in _cases():
        sources: list[str | None] = [primary, *others]
        union = sentence_union(primary, others)
        # the union's own draft, and drafts that lose a part of it (most of them refused)
        drafts = {union, union[: len(union) // 2], union[: rng.randrange(len(union) + 1)], primary}
        shared = Reader()
        for draft in sorted(drafts):
            full, _ = union_mod._passes_fully(sources, draft, shared)
            again, _ = union_mod._passes_fully(sources, draft, shared, only_whether=True)
            fresh, _ = union_mod._passes_fully(sources, draft, Reader(), only_whether=True)
            assert full == again == fresh, draft[:80]
