"""The deterministic half of supersede on the labelled groups written blind (tests/data/supersede: a tune set and a
check set by two different hands, issue 38). The model's reading is measured in `make bench`
(tests/perf/test_supersede_reading.py); what holds without it is held here."""
from __future__ import annotations

import pytest

from memgui.core.merge.supersede import Reading, order_of
from tests.supersede_corpus.groups import NOW_MS, SETS, TAUGHT, load
from tests.supersede_corpus.measure import deterministic_reading, draft_outcome

GROUPS = {which: load(which) for which in SETS}


@pytest.mark.parametrize("which", SETS)
def test_the_sets_are_big_enough(which: str) -> None:
    kinds = [g.kind for g in GROUPS[which]]
    assert kinds.count(Reading.SUPERSEDES) >= 40 and kinds.count(Reading.DATED_SERIES) >= 40


@pytest.mark.parametrize("which", SETS)
def test_every_superseding_group_is_ordered_with_its_labelled_newest_note(which: str) -> None:
    wrong = [(g.id, order_of(g.notes, NOW_MS).doubt or order_of(g.notes, NOW_MS).newest)
             for g in GROUPS[which] if g.kind is Reading.SUPERSEDES
             and (not order_of(g.notes, NOW_MS).ordered or order_of(g.notes, NOW_MS).newest != g.newest)]
    assert wrong == []


@pytest.mark.parametrize("which", TAUGHT)
def test_the_dated_series_veto_never_falls_on_a_supersession(which: str) -> None:
    """On the blind set it fell on 1 of 42 (b-sup-023: an invoice received, then paid, its two sentences alike but
    for their dates): reported in docs/supersede.md, not fixed — the veto keeps series safe, a person still sees the
    pair."""
    vetoed = [g.id for g in GROUPS[which] if g.kind is Reading.SUPERSEDES
              and deterministic_reading(g) is Reading.DATED_SERIES]
    assert vetoed == []


@pytest.mark.parametrize("which", SETS)
def test_every_superseding_draft_keeps_each_replaced_value_as_dated_history(which: str) -> None:
    outcomes = [draft_outcome(g) for g in GROUPS[which] if g.kind is Reading.SUPERSEDES]
    assert [(o.group, o.misplaced) for o in outcomes if o.misplaced] == []
    assert all(o.guard_passed for o in outcomes)  # Netclaw's MergeGuard passes on every draft
    assert all(o.check_passed for o in outcomes)  # and the supersede check on its own draft


def test_the_undecided_groups_of_the_tune_set_are_left_to_a_person() -> None:
    """The doubt rules were written on the tune set; the check set's figure is reported by `make bench`."""
    read = [(g.id, deterministic_reading(g)) for g in GROUPS["tune"] if g.kind is Reading.UNDECIDED]
    assert [gid for gid, r in read if r is not Reading.UNDECIDED] == []
