"""The sentence-union draft, prove or keep (issue 36): the primary whole, then every other sentence the draft cannot
prove it states, whole and once; MergeGuard passes it and its alignment proves it."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from memgui.core.merge.align import Verdict, align
from memgui.core.merge.guard import check_merge
from memgui.core.merge.keep_draft import repair
from memgui.core.merge.sentences import split
from memgui.core.merge.union import sentence_union

PRIMARY = """Atlas 2.14.3 was deployed on 2024-03-18. See https://docs.example.com/atlas/deploy-v2 for the runbook.
The metrics port is 9464.

- Ticket: OPS-4471
- Owner: priya@example.com"""

OTHER = """the metrics  port is 9464! Atlas 2.14.3 was deployed on 2024-03-18
Rollback to 2.13.9 needs --dry-run first. WAL replay takes 30 seconds.

* Ticket: OPS-4471
* Channel: #atlas-sync. Ask there first.

```
atlas deploy --dry-run
The metrics port is 9464.
```
"""


def test_primary_is_kept_verbatim_and_only_sentences_it_does_not_state_are_added_whole_in_order():
    union = sentence_union(PRIMARY, [OTHER])
    assert union.startswith(PRIMARY)
    added = [s.text for s in split(union[len(PRIMARY):])]
    assert added == ["Rollback to 2.13.9 needs --dry-run first.", "WAL replay takes 30 seconds.",
                     "* Channel: #atlas-sync.", "Ask there first.",
                     "```\natlas deploy --dry-run\nThe metrics port is 9464.\n```"]
    assert check_merge([PRIMARY, OTHER], union).passed
    assert align([PRIMARY, OTHER], union).verdict is Verdict.PROVED


def test_duplicates_differing_in_case_spacing_markers_and_end_punctuation_are_not_repeated():
    union = sentence_union("The pool size is 20.", ["THE POOL   SIZE IS 20!", "- the pool size is 20", "The pool size is 20"])
    assert union == "The pool size is 20."


def test_a_sentence_repeated_in_and_across_other_sources_is_added_once():
    union = sentence_union("Alpha is old.", ["Beta is new. Beta is new.", "beta is new"])
    assert union == "Alpha is old.\nBeta is new."  # a kept-back sentence starts a line: it is never run on


def test_a_restatement_the_alignment_proves_is_left_out():
    primary = "The dentist appointment is on 14 March at 9:00. Bring the insurance card."
    assert sentence_union(primary, ["Dentist appointment on March 14 at 9:00."]) == primary


def test_a_sentence_with_one_new_fact_is_kept_whole_never_cut_to_a_clause():
    primary = "The relay runs on port 7443."
    other = "The relay runs on port 7443, and it costs €4.51/month."
    union = sentence_union(primary, [other])
    assert union == primary + "\n" + other


def test_a_paraphrase_that_cannot_be_proved_is_kept_word_for_word():
    primary = "Lena is allergic to peanuts."
    other = "Lena reacts badly to groundnuts and carries an EpiPen."
    assert sentence_union(primary, [other]).endswith(other)


def test_a_long_other_source_is_kept_whole_and_passes_the_guard():
    primary = "Short note about 5433."
    long_other = " ".join(f"Fact number {i} is value-{i}." for i in range(200)) + " Short note about 5433."
    union = sentence_union(primary, [long_other])
    report = check_merge([primary, long_other], union)
    assert report.passed and union.count("Short note about 5433") == 1


def test_empty_primary_and_empty_others():
    assert sentence_union("", ["One. Two."]) == "One. Two."
    assert sentence_union(None, []) == ""
    assert sentence_union("Keep me.", [None, "", "keep me"]) == "Keep me."


def test_every_draft_sentence_is_a_whole_source_sentence_on_the_corpus():
    data = Path(__file__).resolve().parents[2] / "data" / "facts" / "handwritten.json"
    cases = [c for c in json.loads(data.read_text(encoding="utf-8"))["cases"] if len(c["sources"]) >= 2][:40]
    assert len(cases) >= 20
    for case in cases:
        sources = case["sources"]
        union = sentence_union(sources[0], sources[1:])
        whole = {s.text for src in sources for s in split(src)}
        assert all(s.text in whole for s in split(union)), case["id"]
        assert align(sources, union).verdict is Verdict.PROVED, case["id"]
        assert check_merge(sources, union).passed, case["id"]


def test_a_models_draft_is_repaired_dropping_what_it_adds_and_putting_back_what_it_lost():
    sources = ["The relay runs on port 7443. It costs €4.51/month.", "Relay host: relay.example.dev, IPv4 49.12.71.188."]
    body = "The relay runs on port 7443. It also needs a restart every Sunday."
    draft = repair(sources, body, when="2026-12-07")
    assert "Sunday" not in draft.body and draft.dropped == ("It also needs a restart every Sunday.",)
    assert [k.text for k in draft.kept_back] == ["It costs €4.51/month.", "Relay host: relay.example.dev, IPv4 49.12.71.188."]
    assert draft.body == ("The relay runs on port 7443.\n\n---\n_[merged 2026-12-07]_\nIt costs €4.51/month.\n"
                          "Relay host: relay.example.dev, IPv4 49.12.71.188.")
    assert check_merge(sources, draft.body).passed and draft.alignment.verdict is Verdict.PROVED
    whole = repair(sources, sources[0] + " " + sources[1])
    assert whole.body == sources[0] + " " + sources[1] and not whole.kept_back and not whole.dropped


any_text = st.text(st.characters(exclude_categories=()), max_size=200)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_text, st.lists(st.one_of(st.none(), any_text), max_size=4))
@example("", ["0 "])  # a blank primary: the other note kept as written (its length is MergeGuard's measure)
def test_union_of_arbitrary_text_always_passes_the_guard_and_is_never_a_loss(primary, others):
    union = sentence_union(primary, others)
    assert union.lstrip().startswith(primary.strip())
    assert check_merge([primary, *others], union).passed
    assert align([primary, *(o or "" for o in others)], union).verdict is not Verdict.LOSS
