"""The model's record: counting false merges on labelled clusters, the measured record's cache, and agreement
with the reviewer's applied decisions (from the audit log)."""
from __future__ import annotations

from dataclasses import replace

from factories import document, seed_document
from memgui.core.decide.review import ClusterReview
from memgui.core.forensics.model_quality import (
    MIN_AGREEMENT_DECISIONS,
    ModelQuality,
    cached_quality,
    merge_stats,
    reviewer_agreement,
    save_quality,
    wrong_merge,
)
from memgui.core.ops.apply import MODE_UNION, MergePlan, draft_stamps, keep_separate, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store.demo import demo_labels
from memgui.core.tasks import run_to_end


def test_a_merge_is_wrong_when_two_of_its_members_are_not_labelled_duplicates():
    truth = {frozenset(("a", "b")), frozenset(("b", "c")), frozenset(("a", "c"))}
    assert not wrong_merge(["a", "b", "c"], truth)
    assert wrong_merge(["a", "b", "d"], truth)


class Judge:
    def __init__(self, same):
        self.same = same

    def __call__(self, existing, new, cancel=None):
        class Call:
            reply = "SAME" if frozenset((existing, new)) in self.same else "DIFFERENT"
        return Call()
        yield


def test_merge_stats_count_what_accepting_every_preselected_group_would_merge():
    docs = {i: document(f"body {i}", document_id=i) for i in "abcsxy"}
    truth = {frozenset("ab")}
    siblings = {frozenset("as")}
    body = {frozenset((f"body {p}", f"body {q}")) for p, q in ("ab", "xy")}  # a-b right, x-y a false merge
    stats = run_to_end(merge_stats([("a", "b", "s"), ("x", "y"), ("c", "s")], docs, Judge(body), truth, siblings))
    assert stats.clusters == 3 and stats.merges == 2 and stats.wrong == 1
    assert stats.mixed == 1 and stats.mixed_split == 1  # the sibling kept out of {a, b}
    assert stats.duplicates_apart == 0 and round(stats.wrong_per_100, 1) == 33.3
    assert stats.verdicts[frozenset("xy")] == "same" and stats.verdicts[frozenset("as")] == "different"


def _quality(limit, clusters):
    return ModelQuality("m", clusters, 60, limit, "all-MiniLM-L6-v2", 10, 8, 7, 2, 2, 5, 1, 1, 1, 3.0,
                        labels_version=_labels_version())


def _labels_version():
    from memgui.core.forensics.model_quality import labels_version

    return labels_version(demo_labels())


def test_the_record_is_cached_per_model_and_the_widest_measurement_wins():
    assert cached_quality("model-key") is None
    save_quality("model-key", _quality(5, 5))
    save_quality("model-key", _quality(None, 60))
    best = cached_quality("model-key")
    assert best.limit is None and best.same_fact_recall == 7 / 8 and best.sibling_rejection == 1.0
    assert round(best.false_merges_per_100, 2) == round(100 / 60, 2)
    assert cached_quality("model-key", 5).clusters_measured == 5
    assert cached_quality("other-model") is None
    save_quality("old-labels", replace(_quality(None, 60), labels_version="stale"))
    assert cached_quality("old-labels") is None  # measured on other labels: not this fixture's record


def _review(pairs):
    ids = sorted({i for a, b, _v in pairs for i in (a, b)})
    return ClusterReview(
        decision=None, targets=[], rationale=None, merged_body=None, guard=None, strict=None, model_id="m",
        seconds=None, prompt_tokens=None, completion_tokens=None, proposal_id=ids[-1], candidate_ids=ids[:-1],
        error=None, raw_reply=None, groups=[ids], groups_judged=True, target=ids[0],
        pairs=[{"a": a, "b": b, "verdict": v, "margin": None, "seconds": None} for a, b, v in pairs],
        stamps={}, likely_different={"likely_different": False, "reason": ""}, decider_available=True)


def test_agreement_compares_the_models_pair_verdicts_with_the_reviewers_applied_decisions(empty_store):
    store = empty_store
    d = {k: seed_document(store, f"Note {k}", f"Fact {k}: the value is {k}.").document_id for k in "abcdefg"}
    reviews = [_review([(d["a"], d["b"], "same"), (d["c"], d["d"], "different"), (d["e"], d["f"], "same")])]
    merge_cluster(store, MergePlan(d["a"], (d["a"], d["b"]), mode=MODE_UNION, drafted=draft_stamps(store, [d["a"], d["b"]])))
    keep_separate(store, [d["c"], d["d"]])  # the model said different too: agreed
    keep_separate(store, [d["e"], d["f"]])  # the model said same: disagreed
    undone = merge_cluster(store, MergePlan(d["f"], (d["f"], d["g"]), mode=MODE_UNION,
                                            drafted=draft_stamps(store, [d["f"], d["g"]])))
    undo(store, undone.audit_id)  # taken back: not a decision any more
    keep_separate(store, [d["a"], d["g"]])  # never judged by the model: not counted
    agreement = reviewer_agreement(store, reviews)
    assert agreement.decisions == 4 and agreement.judged == 3 and agreement.agreed == 2
    assert (agreement.merges_judged, agreement.merges_agreed) == (1, 1)
    assert (agreement.kept_judged, agreement.kept_agreed) == (2, 1)
    assert not agreement.enough and MIN_AGREEMENT_DECISIONS == 20
    assert agreement.to_dict()["rate"] == round(2 / 3, 3)
