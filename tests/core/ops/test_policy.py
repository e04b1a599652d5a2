"""core/ops/policy.py: which merges are refused, which need a warned confirmation (the words the window shows),
and which may go unattended — one module, beside the verdicts it reads."""
from __future__ import annotations

import pytest

from memgui.core.merge.align import judge
from memgui.core.merge.conflicts import DifferentFactsMark
from memgui.core.ops import batch, policy
from memgui.core.ops.apply import ApplyInputError, MergePlan, merge_cluster
from memgui.core.ops.policy import facts_at_risk, guard_refuses, merge_refusal, merge_risks

NUMBERS = {"a": 1, "b": 2, "c": 3}


def _risks(**kw):
    args = dict(mode="merged_body", documents=2, length_ratio=1.0, strict=None, mark=None, cosines={},
                included=("a", "b"), threshold=0.8, number_of=NUMBERS.__getitem__)
    return merge_risks(**(args | kw))


def test_a_plain_two_document_merge_needs_no_warning():
    assert _risks() == []


def test_each_risk_is_named_in_the_words_the_confirmation_shows():
    assert _risks(documents=3) == ["3 documents are written at once (more than 2)."]
    assert _risks(length_ratio=2.5) == ["The merged body is 250% of the longest source's length (over 200 %): it may "
                                        "carry more than one fact."]
    assert _risks(cosines={frozenset("ab"): 0.71, frozenset("bc"): 0.5}) == [
        "#1 and #2 are only 0.710 alike, below the scan's threshold 0.800."]  # b–c: c is not included
    assert _risks(mark=DifferentFactsMark(True, "they name different hosts")) == [
        "The sources are marked likely different facts: they name different hosts."]
    strict, _proof = judge(["Backups run at 02:00 UTC every night."], "Backups run at 03:00 UTC every night.")
    assert strict.at_risk
    (warning,) = _risks(strict=strict)
    assert warning.startswith(f"The strict lens finds {facts_at_risk(strict)} fact(s) of the sources not kept whole: ")
    assert "02:00" in warning


def test_an_append_keeps_every_source_whole_so_body_risks_do_not_apply():
    strict, _proof = judge(["Backups run at 02:00 UTC every night."], "Backups run at 03:00 UTC every night.")
    assert _risks(mode="append", length_ratio=3.0, strict=strict) == []
    assert _risks(mode="append", documents=4) == ["4 documents are written at once (more than 2)."]


def test_no_threshold_no_cosine_warning():
    assert _risks(cosines={frozenset("ab"): 0.1}, threshold=None) == []


def test_the_refusals_and_merge_cluster_obeys_them(empty_store):
    assert merge_refusal("merged_body", "a", ("b",), "body") is None
    assert merge_refusal("squash", "a", ("b",), "body") == "unknown merge mode 'squash' (use one of: merged_body, " \
                                                           "append, union)"
    assert merge_refusal("merged_body", "", ("b",), "body") == "a merge needs a target document"
    assert merge_refusal("append", "a", (), None) == "a merge needs at least one source besides the target"
    assert merge_refusal("merged_body", "a", ("b",), "  ") == "merged_body mode needs a non-empty merged body"
    assert guard_refuses(False, False) and not guard_refuses(False, True) and not guard_refuses(True, False)
    with pytest.raises(ApplyInputError, match="needs a non-empty merged body"):
        merge_cluster(empty_store, MergePlan("a", ("a", "b"), merged_body=" "))


def test_the_unattended_rule_is_the_policys_and_bulk_accept_reads_it():
    assert batch.why_not_safe is policy.why_not_safe and batch.MAX_MERGED == policy.MAX_MERGED == 3
    assert policy.why_not_safe(None) == "not reviewed yet"
    assert policy.proved({"verdict": "proved"}) and not policy.proved({"verdict": "read"}) and not policy.proved(None)


def test_a_write_needs_its_documents_joined_by_the_cosine_not_by_an_anchor_alone():
    ab, bc = frozenset("ab"), frozenset("bc")
    assert policy.why_not_linked(["a", "b"], [ab]) is None
    assert policy.why_not_linked(["a", "b", "c"], [ab, bc]) is None  # a chain is joined
    assert policy.why_not_linked(["a", "b"], []) == ("only a shared anchor joins these notes, not the scan's cosine: "
                                                     "a person reads them")
    assert policy.why_not_linked(["a", "b", "c"], [ab]).startswith("1 of 3 notes are joined to the others only by a "
                                                                    "shared anchor")  # c came in by its anchor
    assert policy.why_not_linked(["a", "c"], [ab, bc]) is not None  # joined only through b, which is not written
