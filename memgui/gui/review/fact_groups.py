"""Same-fact groups in the window: how the core's `FactGroups` (every pair of the cluster judged "same fact?"
by the model) is shown — a coloured group label on each source pane, one line in the decision panel — and
which pairs "keep separate" records. The partition itself is the core's (`judge_pairs`); this module only
labels it and picks pairs out of it."""
from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from itertools import combinations

from ..services.types import FactGroups
from .sources_view import ALONE_COLOR, GROUP_COLORS

LETTERS = "ABCDEFGH"


def group_labels(groups: FactGroups) -> dict[str, tuple[str, str]]:
    """doc id -> (label, colour): groups of two or more get a letter and a colour (A = the largest, the one
    the merge is drafted for); a member judged different from every other is "apart"."""
    labels: dict[str, tuple[str, str]] = {}
    shared = [g for g in groups.groups if len(g) >= 2]
    for n, group in enumerate(shared):
        for member in group:
            labels[member] = (f"same fact · group {LETTERS[n % len(LETTERS)]}", GROUP_COLORS[n % len(GROUP_COLORS)])
    for group in groups.groups:
        if len(group) < 2:
            labels[group[0]] = ("apart · a different fact", ALONE_COLOR)
    return labels


def groups_html(groups: FactGroups, number_of: Callable[[str], int]) -> str:
    """One line: "Same fact: #1 #2 · apart: #3" (more groups of two or more: "group B: #4 #5")."""
    labels = group_labels(groups)
    parts = []
    shared = [g for g in groups.groups if len(g) >= 2]
    for n, group in enumerate(shared):
        color = labels[group[0]][1]
        members = " ".join(f"#{number_of(m)}" for m in sorted(group, key=number_of))
        name = "Same fact" if n == 0 else f"also same fact (group {LETTERS[n % len(LETTERS)]})"
        parts.append(f"<span style='color:{color}; font-weight:600'>{name}: {members}</span>")
    alone = sorted((g[0] for g in groups.groups if len(g) < 2), key=number_of)
    if alone:
        parts.append(f"<span style='color:{ALONE_COLOR}; font-weight:600'>apart: "
                     + " ".join(f"#{number_of(m)}" for m in alone) + "</span>")
    if not shared:
        parts.insert(0, "<b>Every pair judged a different fact</b>")
    judged = len(groups.verdicts)
    line = " · ".join(parts) + f"<br><span style='color:#57606a'>judged by the model, pair by pair ({judged} "\
        f"pair{'s' if judged != 1 else ''})</span>"
    for v in groups.verdicts:
        if v.conflict:  # kept apart by the amounts they disagree on, whatever the model said
            line += (f"<br><span style='color:{ALONE_COLOR}'>#{number_of(v.a)} and #{number_of(v.b)} kept apart: "
                     f"they disagree on {html.escape(v.conflict)}</span>")
    return line


def pairs_kept_apart(groups: FactGroups | None, member_ids: Sequence[str],
                     included: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs "keep separate" records as not duplicates. When the model judged the cluster into two or more
    groups: the pairs across groups. Otherwise, when the reviewer unchecked some members: each unchecked
    member against each included one. Otherwise every pair of the included members. Never a pair inside an
    accepted group."""
    members = set(member_ids)
    if groups is not None and len(groups.groups) >= 2:
        return [(a, b) for a, b in groups.apart_pairs() if a in members and b in members]
    chosen = [i for i in member_ids if i in set(included)]
    unchecked = [i for i in member_ids if i not in set(included)]
    if unchecked and chosen:
        return [(u, i) for u in unchecked for i in chosen]
    return list(combinations(chosen, 2))
