"""Where word order carries meaning inside a clause (core/merge/restatement.py, `_in_order_within`): twins, each a
restatement that moves words where order means nothing (proved) and the same move across a word whose order is the
fact (never proved). Without the rule, the first of a twin stays `read` or the second is proved."""
from __future__ import annotations

import pytest

from memgui.core.merge.align import Fate, Verdict, align

TWINS = [
    # a value with its preposition is an adjunct: it may move; content words keep their order (who bit whom)
    ("The dog bit the man at 7 am.", "At 7 am the dog bit the man.", "At 7 am the man bit the dog."),
    # names keep their order among names
    ("Today Ana called Ben at 9am.", "At 9am today Ana called Ben.", "At 9am today Ben called Ana."),
    # values of different kinds may trade places, values of one kind may not (`24 on / 48 off`, `18 g in, 36 g out`)
    ("The pump runs 24 on 48 off on Mondays at 9am.", "The pump runs 24 on 48 off at 9am on Mondays.",
     "The pump runs 48 on 24 off at 9am on Mondays."),
    ("Dose 18 g in 36 g out at 9am on Monday.", "Dose 18 g in 36 g out on Monday at 9am.",
     "Dose 36 g in 18 g out on Monday at 9am."),
    # a marker keeps its place among every word (its scope)
    ("Only Karen signs expenses at 9am on Monday.", "Only Karen signs expenses on Monday at 9am.",
     "Karen only signs expenses on Monday at 9am."),
    # ... even past a phrase that moves with its preposition (`only on Monday` is not `on Monday only at 9am`)
    ("Karen signs only on Monday at 9am.", "Karen signs only at 9am on Monday.", "Karen signs on Monday only at 9am."),
    # a role word keeps its place among every word (its object): `per` of two values of different kinds
    ("Feed 2 kg per 5 m on Monday at 9am.", "Feed 2 kg per 5 m at 9am on Monday.", "Feed 5 m per 2 kg at 9am on Monday."),
    # a route: `from` and `to` bind their names
    ("The load goes from Reno to Boise on Monday at 9am.", "The load goes from Reno to Boise at 9am on Monday.",
     "The load goes to Reno from Boise at 9am on Monday."),
    # a name or a value with no preposition stays on its side of every other word (subject or object)
    ("Tuesday: paid Ana £50 at 9am.", "Tuesday: at 9am paid Ana £50.", "Tuesday: at 9am Ana paid £50."),
    ("Marcus lent the ladder in April.", "In April Marcus lent the ladder.", "In April lent Marcus the ladder."),
    ("The flight leaves Reno at 9am on Monday.", "On Monday at 9am the flight leaves Reno.",
     "On Monday at 9am Reno leaves the flight."),
    # an attribute said after a copula, each part whole (`Ana's manager Ben` is Ben, not Ana's manager's manager)
    ("Ana's manager Ben.", "Ben is Ana's manager.", "Ana is Ben's manager."),
    ("Rheem water heater (2016).", "The water heater is a Rheem (2016).", "The water heater is not a Rheem (2016)."),
]


@pytest.mark.parametrize(("source", "restated", "changed"), TWINS, ids=[t[0] for t in TWINS])
def test_a_move_where_order_means_nothing_is_proved_and_its_swapped_twin_is_not(source: str, restated: str,
                                                                                changed: str) -> None:
    proof = align([source], restated)
    assert proof.verdict is Verdict.PROVED, proof.reasons
    assert proof.sentences[0].fate is Fate.RESTATED
    twin = align([source], changed)
    assert twin.verdict is not Verdict.PROVED
    assert twin.sentences[0].fate is Fate.READ


def test_a_preposition_must_come_with_its_name_to_move_it() -> None:
    """`at 9am` moved without its `at` is no adjunct any more: the value keeps its side of the verb."""
    assert align(["Tuesday: paid Ana £50 at 9am."], "Tuesday: 9am paid Ana £50.").verdict is not Verdict.PROVED


def test_a_clause_stays_inside_one_clause_of_the_body() -> None:
    """Whatever may move inside a clause, its facts are not spread over two clauses there."""
    assert align(["Dose 18 g in 36 g out."], "Dose 18 g out, and 36 g in.").verdict is not Verdict.PROVED
