"""One cluster reviewed end to end (`review_cluster`) and its cache (`DecisionCache`): what `memgui decide`,
the window's background queue and `memgui accept-safe` share."""
from dataclasses import replace

from factories import document
from memgui.core.decide.cache import DecisionCache
from memgui.core.decide.review import review_cluster
from memgui.core.tasks import run_to_end

OLD = document("Rent for the flat is €1,150/month, paid on the 1st to Alberto Pinto.", title="Rent",
               document_id="doc-rent", updated_at=1000, created_at=1000)
SAME = document("Flat rent: €1,150/month (landlord Alberto Pinto, paid on the 1st). Mobile 912 448 301.",
                title="Flat: rent details", document_id="doc-rent-2", updated_at=2000, created_at=2000)
NEW = document("From 2026-05-01 the rent is €1,173/month, paid to Alberto Pinto.", title="New rent",
               document_id="doc-rent-new", updated_at=3000, created_at=3000)


def test_without_a_model_the_draft_leaves_out_a_member_that_disagrees_on_a_value():
    review = run_to_end(review_cluster([OLD, SAME, NEW]))
    assert not review.groups_judged and review.verdict == "pending"
    assert sorted(review.groups[0]) == ["doc-rent", "doc-rent-2"] and review.groups[1] == ["doc-rent-new"]
    assert "€1,173/month" not in review.merged_body and "912 448 301" in review.merged_body
    assert review.guard["passed"] and review.strict["passed"]
    assert set(review.stamps) == {"doc-rent", "doc-rent-2", "doc-rent-new"}


def test_a_cached_review_is_reused_until_a_member_changes(tmp_path):
    cache = DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache")
    review = replace(run_to_end(review_cluster([OLD, SAME])), groups_judged=True)
    cache.put(review)
    again = DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache")  # a new process
    assert again.get([SAME, OLD]) == review
    assert DecisionCache(tmp_path / "netclaw.db", "other-model", root=tmp_path / "cache").get([OLD, SAME]) is None
    edited = replace(SAME, markdown_body=SAME.markdown_body.replace("912", "913"))  # same updated_at
    assert again.get([OLD, edited]) is None
    unjudged = run_to_end(review_cluster([OLD, NEW]))
    cache.put(unjudged)  # a union draft costs nothing: not kept
    assert cache.get([OLD, NEW]) is None


def test_a_cached_decision_reads_back_typed_and_one_this_memgui_does_not_know_is_not_reused(tmp_path):
    import json

    from memgui.core.curation.types import DecisionKind

    cache = DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache")
    review = replace(run_to_end(review_cluster([OLD, SAME])), groups_judged=True)
    cache.put(review)
    assert type(DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache").get([OLD, SAME])
                .decision) is DecisionKind
    data = json.loads(cache.path.read_text(encoding="utf-8"))
    entry = next(iter(data[cache.model_key].values()))
    assert entry["decision"] == review.decision  # written as its keyword
    entry["decision"] = "MERGE_EVERYTHING"  # a newer memgui's keyword
    cache.path.write_text(json.dumps(data), encoding="utf-8")
    again = DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache")
    assert again.get([OLD, SAME]) is None and again.reviews() == []


def test_a_review_cached_by_older_review_rules_is_not_reused(tmp_path, monkeypatch):
    import memgui.core.decide.cache as cache_mod

    review = replace(run_to_end(review_cluster([OLD, SAME])), groups_judged=True)
    DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache").put(review)
    monkeypatch.setattr(cache_mod, "REVIEW_RULES", cache_mod.REVIEW_RULES + 1)  # a memgui with new rules
    assert DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache").get([OLD, SAME]) is None


def test_a_cached_review_is_judged_by_todays_guard_and_lens_not_by_the_verdicts_it_was_kept_with(tmp_path):
    """Would fail with the cache trusted: a review kept when an older lens passed a lossy body went on to
    accept-safe as "strict passed" (found on the demo: a merge that dropped what a gift was for)."""
    cache = DecisionCache(tmp_path / "netclaw.db", "model-key", root=tmp_path / "cache")
    review = replace(run_to_end(review_cluster([OLD, SAME])), groups_judged=True)
    lossy = review.merged_body.replace("Alberto Pinto", "the landlord")
    cache.put(replace(review, merged_body=lossy, strict={"passed": True, "checked": 0, "at_risk": []}))
    again = cache.get([OLD, SAME])
    assert again.merged_body == lossy and not again.strict["passed"]
    assert any(item["token"] == "Alberto" for item in again.strict["at_risk"])
