"""Same-fact groups from pairwise judgements (issue 11, item 1)."""
from types import SimpleNamespace

from memgui.core.decide.groups import DIFFERENT, SAME, PairVerdict, choose_target, judge_pairs, partition
from memgui.core.tasks import run_to_end


def v(a, b, verdict):
    return PairVerdict(a, b, verdict)


def test_a_duplicate_pair_and_a_sibling_split_into_the_pair_and_the_sibling():
    groups = partition(["prod-1", "prod-2", "staging"], [
        v("prod-1", "prod-2", SAME), v("prod-1", "staging", DIFFERENT), v("prod-2", "staging", DIFFERENT)])
    assert groups == (("prod-1", "prod-2"), ("staging",))


def test_one_same_answer_does_not_chain_two_different_notes():
    # a~b and b~c, but a and c are different facts: c does not join a's group
    groups = partition(["a", "b", "c"], [v("a", "b", SAME), v("b", "c", SAME), v("a", "c", DIFFERENT)])
    assert groups == (("a", "b"), ("c",))


def test_an_unanswered_pair_keeps_its_members_apart():
    assert partition(["a", "b"], [v("a", "b", None)]) == (("a",), ("b",))


def test_groups_are_largest_first():
    ids = ["x", "a", "b", "c"]
    same = [v(p, q, SAME) for p, q in (("a", "b"), ("a", "c"), ("b", "c"))]
    assert partition(ids, same)[0] == ("a", "b", "c")


def doc(doc_id, body, updated):
    return SimpleNamespace(document_id=doc_id, markdown_body=body, updated_at=updated, created_at=updated)


def test_target_is_the_most_complete_then_the_newest():
    short = doc("short", "Relay on port 7443.", 30)
    full = doc("full", "Relay relay.atlas-sync.dev on port 7443, Hetzner CX22 in Falkenstein.", 10)
    same_facts_newer = doc("newer", "Relay relay.atlas-sync.dev on port 7443, Hetzner CX22 in Falkenstein.", 20)
    assert choose_target([short, full]) == "full"
    assert choose_target([short, full, same_facts_newer]) == "newer"


def test_every_pair_is_judged_older_first_and_partitioned():
    docs = [doc("staging", "Staging Postgres 16.4 since 2025-05-28.", 3),
            doc("prod-1", "Prod Postgres upgraded to 16.4 on 2025-06-11.", 1),
            doc("prod-2", "Production DB now on Postgres 16.4 (2025-06-11), 11 minutes of downtime.", 2)]
    asked = []

    def judge(existing, new, cancel=None):
        asked.append((existing[:4], new[:4]))
        yield from ()
        return SimpleNamespace(reply="SAME" if {existing[:4], new[:4]} <= {"Prod"} else "DIFFERENT", margin=1.0,
                               seconds=0.1)

    result = run_to_end(judge_pairs(docs, judge))
    assert len(asked) == 3 and asked[0] == ("Prod", "Prod")  # oldest two first, older as "existing"
    assert result.groups == (("prod-1", "prod-2"), ("staging",))
    assert result.target == "prod-2"  # more facts than prod-1
    assert sorted(result.apart_pairs()) == [("prod-1", "staging"), ("prod-2", "staging")]


def test_a_pair_that_disagrees_on_an_amount_is_kept_apart_even_when_judged_the_same():
    old = doc("rent", "Rent for the flat is €1,150/month, paid on the 1st to Alberto Pinto.", 1)
    same = doc("rent-2", "Flat rent: €1,150/month (landlord Alberto Pinto, paid on the 1st).", 2)
    new = doc("rent-new", "From 2026-05-01 rent is €1,173/month, paid to Alberto Pinto.", 3)

    def always_same(existing, new_body, cancel=None):
        yield from ()
        return SimpleNamespace(reply="SAME", margin=None, seconds=0.0)

    groups = run_to_end(judge_pairs([old, same, new], always_same))
    assert set(groups.largest) == {"rent", "rent-2"}
    assert ("rent-new",) in groups.groups
    conflicted = [v for v in groups.verdicts if v.conflict]
    assert {frozenset((v.a, v.b)) for v in conflicted} == {frozenset(("rent", "rent-new")),
                                                           frozenset(("rent-2", "rent-new"))}
    assert "€1,150/month vs €1,173/month" in conflicted[0].conflict
    assert all(v.verdict == "same" for v in groups.verdicts)  # the model's answer is kept as it was
