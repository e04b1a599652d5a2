"""The pre-selection before any decision (`groups.preselect`): the largest group with no disagreeing pair, and
never a whole cluster above three members."""
from memgui.core.decide.groups import MAX_PRESELECTED, preselect


def test_no_conflicts_and_three_members_selects_them_all():
    sel = preselect(["a", "b", "c"], [])
    assert sel.members == ("a", "b", "c") and sel.whole and not sel.capped and sel.disagreeing == 0


def test_a_member_that_disagrees_is_left_out():
    sel = preselect(["a", "b", "c"], [("a", "c"), ("b", "c")])
    assert sel.members == ("a", "b") and not sel.whole and sel.disagreeing == 2


def test_every_pair_disagrees_leaves_one_member():
    ids = [f"d{i}" for i in range(7)]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    sel = preselect(ids, pairs)
    assert len(sel.members) == 1 and sel.disagreeing == 21


def test_a_big_cluster_without_conflicts_is_cut_to_the_closest_three():
    ids = ["a", "b", "c", "d", "e"]
    cos = {frozenset(p): 0.80 for p in [(x, y) for i, x in enumerate(ids) for y in ids[i + 1:]]}
    cos[frozenset(("b", "d"))] = 0.97
    cos[frozenset(("b", "e"))] = 0.95
    cos[frozenset(("d", "e"))] = 0.94
    sel = preselect(ids, [], cos)
    assert sel.capped and not sel.whole and len(sel.members) == MAX_PRESELECTED
    assert sel.members == ("b", "d", "e")


def test_a_big_cluster_without_cosines_is_still_never_whole():
    sel = preselect(["a", "b", "c", "d"], [])
    assert len(sel.members) == 3 and not sel.whole


def test_wording_conflicts_do_not_keep_members_apart_but_values_do():
    from types import SimpleNamespace as NS

    from memgui.core.decide.groups import disagreeing_pairs

    def ev(*classes):
        return NS(conflicts=[NS(fact_class=c) for c in classes])

    pairs = disagreeing_pairs([("a", "d", "€1 vs €2")], [("a", "b", ev("term", "negation", "identifier")), ("b", "c", ev("version")),
                                                          ("a", "c", ev())])
    assert pairs == [("a", "d"), ("b", "c")]
