"""Anchor edges: the notes of one anchor are nominated together (issue 38, item 7).

Netclaw's evaluator puts anchor matches first among its candidates, whatever their cosine (netclaw-compat §5 step 2,
§8 candidate order): two notes under one active anchor are about one thing even when they share no words (a trip's
flights and its hotel). So the scan adds, beside the cosine TopK, each live document's `k` nearest documents under
its own anchor as nominee edges, whatever their cosine. A small anchor (≤ k + 1 documents) is then fully joined; a
broad one (a person, a project) contributes only each note's nearest mates, so it is not one giant graph.

How an anchor edge enters the average linkage: its score is max(cosine, floor), i.e. the anchor counts as a cosine
at the threshold, never more: it is the evaluator's own reason to compare two notes, as good as a nominee, but it
must not outvote cosines. And only where the cosine is blind (`vouched`): a single note that looks like no member
of a group joins it on the anchor; a look-alike, or two groups each held by their own cosines, join on their
cosines alone, as without anchors. The anchor's groups form first (`nominate.anchor_first`: anchor matches come
before nominees in the evaluator's list), so a look-alike under another anchor (another trip's flights) cannot pull
one note out of its anchor's group. A broad anchor splits into groups of mutually nearest notes of at most
MAX_CLUSTER_SIZE; a component the anchors make too big to split falls back to its cosine edges. Pure functions over ids and cosines."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set

import numpy as np


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def anchor_edges(anchor_of: Mapping[str, str], pair_cosine: Callable[[Sequence[str]], np.ndarray], *,
                 k: int) -> dict[tuple[str, str], float]:
    """Each document's `k` nearest documents under its own anchor (ties: the anchor's document order), with their
    cosine. `anchor_of` maps each live document under an active anchor to that anchor (others are left out)."""
    by_anchor: dict[str, list[str]] = {}
    for doc, anchor in anchor_of.items():
        by_anchor.setdefault(anchor, []).append(doc)
    edges: dict[tuple[str, str], float] = {}
    for members in by_anchor.values():
        if len(members) < 2:
            continue
        matrix = np.asarray(pair_cosine(members), dtype=np.float64)
        for i, doc in enumerate(members):
            row = matrix[i].copy()
            row[i] = -np.inf
            for j in np.argsort(-row, kind="stable")[:k]:
                edges[_key(doc, members[j])] = float(min(1.0, matrix[i, j]))
    return edges


def lift(matrix: np.ndarray, members: Sequence[str], anchored: Set[tuple[str, str]], floor: float) -> np.ndarray:
    """The linkage scores of `members`: their cosines, with each anchor edge raised to at least `floor`."""
    scores = np.array(matrix, dtype=np.float64, copy=True)
    for i, a in enumerate(members):
        for j in range(i + 1, len(members)):
            if _key(a, members[j]) in anchored and scores[i, j] < floor:
                scores[i, j] = scores[j, i] = floor
    return scores


def vouched(raw: np.ndarray, floor: float) -> bool:
    """Whether the anchor may carry a join of two groups (`raw`: the cosines between their members): only a single
    note that looks like none of the group's members (every cosine below the floor) says something else about the
    same thing, and joins on its anchor. A look-alike, or two groups each held by their own cosines (a duplicate
    pair beside a dated pair), join only on their cosines, as without anchors: look-alike siblings and duplicates
    are where nomination goes wrong, and the anchor adds nothing there."""
    return min(raw.shape) == 1 and float(raw.max()) < floor
