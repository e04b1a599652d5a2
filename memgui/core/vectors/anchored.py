"""Anchor edges: the notes of one anchor are nominated together (issue 38, item 7).

Netclaw's evaluator puts anchor matches first among its candidates, whatever their cosine (netclaw-compat §5 step 2,
§8 candidate order): two notes under one active anchor are about one thing even when they share no words (a trip's
flights and its hotel). But most duplicates the agent writes sit under *different* anchors (the same fact filed again
under a fresh anchor: 119 of the demo store's 135 duplicate pairs), so the anchor must never outvote the cosine.

So the cosine clusters form first, exactly as without anchors, and the anchor only fills what the cosine is blind to
(`fill_by_anchor`):

1. the notes of one anchor that the cosine left alone ("free" notes) group among themselves: each one's `k` nearest
   free anchor mates are edges scored at least the floor, then the same average linkage and MAX_CLUSTER_SIZE, so a
   small anchor is joined whole and a broad one (a person, a project) splits into groups of mutually nearest notes;
2. such a group (or a single free note) joins a cosine cluster made of its anchor mates only (a note restated
   under its own anchor), only while it looks like no member of it (every cosine below the floor: a complementary
   detail, not a look-alike sibling or a duplicate the cosine chose to leave out) and the cluster stays within
   MAX_CLUSTER_SIZE. A cosine cluster spanning anchors is how a fact filed twice looks (the demo store's duplicates):
   the anchor's other notes stay out of it, so a sibling of one copy (the rent before it changed, the talk of another
   month) is never mixed into a cluster of duplicates (on the demo store, joining them there mixed 4 more clusters);
3. a note the cosine clustered stays in its cluster: an anchor never pulls it out. One exception, where the
   cosine pair is itself the anchor's blind spot: a cluster spanning several anchors, *each* member of which has
   free anchor mates that are all complementary to it (below the floor), is two things told in parallel (two trips'
   flights, two festivals' dates), not a fact filed twice: its members go back to their anchors' groups. A fact
   filed twice leaves one copy on an anchor with no other note, or with a look-alike beside it, and stays.

Pure functions over ids and cosines; `nominate.build_clusters` calls them."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set

import numpy as np

Split = Callable[[Sequence[str], np.ndarray], list[list[str]]]  # average linkage of members over their scores


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def anchor_edges(anchor_of: Mapping[str, str], pair_cosine: Callable[[Sequence[str]], np.ndarray], *,
                 k: int) -> dict[tuple[str, str], float]:
    """Each document's `k` nearest documents under its own anchor (ties: the anchor's document order), with their
    cosine. `anchor_of` maps each document to its anchor (documents left out have none)."""
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
    """Whether the anchor may carry a join (`raw`: the cosines between the joining notes and the cluster's
    members): only notes that look like none of its members (every cosine below the floor) say something else
    about the same thing. A look-alike stands on its cosine, as without anchors: look-alike siblings and duplicates
    are where nomination goes wrong, and the anchor adds nothing there."""
    return raw.size > 0 and float(raw.max()) < floor


def _parallel(group: Sequence[str], anchors: Mapping[str, str], free: Mapping[str, list[str]],
              pair_cosine: Callable[[Sequence[str]], np.ndarray], floor: float) -> bool:
    """Whether a cosine cluster is two things told in parallel (rule 3 of the module doc): it spans several
    anchors and each member has free anchor mates, all below the floor to it."""
    if any(m not in anchors for m in group) or len({anchors[m] for m in group}) < 2:
        return False
    for m in group:
        mates = free.get(anchors[m], [])
        if not mates or not vouched(np.asarray(pair_cosine([m, *mates]), dtype=np.float64)[:1, 1:], floor):
            return False
    return True


def fill_by_anchor(groups: Sequence[Sequence[str]], anchors: Mapping[str, str],
                   pair_cosine: Callable[[Sequence[str]], np.ndarray], *, floor: float, cap: int, k: int,
                   split: Split, exempt: Set[frozenset[str]] = frozenset(),
                   limit: int = 60) -> tuple[list[list[str]], list[str]]:
    """The cosine's `groups` (disjoint) with the anchor's notes filled in (module doc, rules 1–3). `anchors` maps live
    documents under an active anchor to it. Returns the groups (the cosine's first, in their order, then the
    anchor's own) and notices. An anchor with more than `limit` free notes groups them by
    its edges' components, each split within `limit`; a larger component is left to the cosine, with a notice."""
    mates: dict[str, list[str]] = {}
    for doc, anchor in anchors.items():
        mates.setdefault(anchor, []).append(doc)
    clustered = {m for g in groups for m in g}
    free = {a: [d for d in ds if d not in clustered] for a, ds in mates.items() if len(ds) > 1}
    out = [list(g) for g in groups]
    for i in [i for i, g in enumerate(out) if _parallel(g, anchors, free, pair_cosine, floor)]:
        for m in out[i]:
            free[anchors[m]].append(m)
        out[i] = []
    notices: list[str] = []
    edges = {key for key in anchor_edges({d: a for a, ds in free.items() for d in ds}, pair_cosine, k=k)
             if frozenset(key) not in exempt}
    parts: list[tuple[str, list[str]]] = []  # (anchor, its free notes grouped; singles too)
    for anchor, docs in free.items():
        if len(docs) < 2:
            parts += [(anchor, [d]) for d in docs]
            continue
        chunks = [docs] if len(docs) <= limit else _edge_components(docs, edges)
        for chunk in chunks:
            if len(chunk) > limit:
                notices.append(f"{len(chunk)} documents under one anchor are too many to split; their cosines alone nominate")
                parts += [(anchor, [d]) for d in chunk]
                continue
            scores = lift(np.asarray(pair_cosine(chunk), dtype=np.float64), chunk, edges, floor)
            grouped = split(chunk, scores)
            done = {d for g in grouped for d in g}
            parts += [(anchor, g) for g in grouped] + [(anchor, [d]) for d in chunk if d not in done]
    cosine = len(out)
    for anchor, part in parts:
        target = _target(part, anchor, out[:cosine], anchors, pair_cosine, floor=floor, cap=cap, exempt=exempt)
        if target is not None:
            out[target] = out[target] + part
        elif len(part) > 1:
            out.append(part)
    return [g for g in out if len(g) > 1], notices


def _target(part: Sequence[str], anchor: str, groups: Sequence[Sequence[str]], anchors: Mapping[str, str],
            pair_cosine: Callable[[Sequence[str]], np.ndarray], *, floor: float, cap: int,
            exempt: Set[frozenset[str]]) -> int | None:
    """The cosine cluster `part` (free notes of `anchor`) joins: one made of its anchor mates only (the largest),
    while `part` looks like none of its members and the cluster stays within `cap`; None when there is none."""
    best: tuple[int, int] | None = None
    for i, g in enumerate(groups):
        held = sum(1 for m in g if anchors.get(m) == anchor)
        if not g or held < len(g):  # none of its mates, or a cluster spanning anchors (a fact filed twice)
            continue
        if len(g) + len(part) > cap or (best is not None and held <= best[0]):
            continue
        if any(frozenset((a, b)) in exempt for a in part for b in g):
            continue
        members = [*part, *g]
        if vouched(np.asarray(pair_cosine(members), dtype=np.float64)[: len(part), len(part):], floor):
            best = (held, i)
    return None if best is None else best[1]


def _edge_components(docs: Sequence[str], edges: Set[tuple[str, str]]) -> list[list[str]]:
    parent = {d: d for d in docs}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        if a in parent and b in parent:
            parent[find(b)] = find(a)
    out: dict[str, list[str]] = {}
    for d in docs:
        out.setdefault(find(d), []).append(d)
    return list(out.values())
