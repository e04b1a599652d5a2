"""Rules earn their verdict (issue 36, item 5): each fact-lens finding names its rule, and a rule says `loss`
only with a measured precision of at least 0.9 on the check sets (by other hands) and over the whole corpus."""
import pytest

from fact_corpus.rates import load
from memgui.core.merge import rule_grades
from memgui.core.merge.facts.report import FactAtRisk, rule_id
from memgui.core.merge.rule_grades import MEASURED, Grade, grade, precision, table
from memgui.core.merge.strict import check_strict

# measured by `python -m tests.fact_corpus.rule_precision --write` (rule → faithful/lossy firings, check then all)
EARNED = "dropped.date"  # (0, 4, 1, 37): 100 % on the check sets, 97 % overall
BELOW = "changed.term"  # (8, 37, 19, 120): 82 % on the check sets, 87 % overall


def test_a_rule_never_measured_is_read():
    assert "dropped.no-such-rule" not in MEASURED
    assert precision("dropped.no-such-rule") is None
    assert grade("dropped.no-such-rule") is Grade.READ


def test_a_measured_rule_below_the_bar_is_read():
    on_all = precision(BELOW)
    assert on_all is not None and on_all < rule_grades.MIN_PRECISION, MEASURED[BELOW]
    assert grade(BELOW) is Grade.READ


def test_a_rule_that_earned_it_on_the_check_sets_and_overall_is_loss():
    faithful_check, lossy_check, _, _ = MEASURED[EARNED]
    assert faithful_check + lossy_check >= rule_grades.MIN_CHECK_FIRINGS
    on_check, on_all = precision(EARNED, "check"), precision(EARNED)
    assert on_check is not None and on_check >= 0.9 and on_all is not None and on_all >= 0.9, MEASURED[EARNED]
    assert grade(EARNED) is Grade.LOSS


@pytest.mark.parametrize(("counts", "want"), [
    ((0, 2, 0, 40), Grade.READ),    # precise, but only 2 firings on the check sets
    ((0, 3, 0, 40), Grade.LOSS),    # 3 on the check sets, all lossy
    ((1, 9, 4, 36), Grade.LOSS),    # 0.9 on both: the bar is inclusive
    ((0, 10, 20, 40), Grade.READ),  # perfect on the check sets, 2/3 overall
    ((2, 8, 2, 98), Grade.READ),    # 0.98 overall, 0.8 on the check sets
])
def test_the_grade_needs_both_halves_and_enough_check_firings(monkeypatch, counts, want):
    monkeypatch.setitem(MEASURED, "dropped.made-up", counts)
    assert grade("dropped.made-up") is want


def test_tune_precision_is_all_minus_check():
    faithful_check, lossy_check, faithful_all, lossy_all = MEASURED[BELOW]
    tune = precision(BELOW, "tune")
    if faithful_all + lossy_all > faithful_check + lossy_check:
        assert tune == (lossy_all - lossy_check) / (faithful_all + lossy_all - faithful_check - lossy_check)
    else:
        assert tune is None


def test_the_table_lists_every_measured_rule_once_with_its_grade():
    rows = table()
    assert sorted(r["rule"] for r in rows) == sorted(MEASURED)
    assert all(r["grade"] == grade(str(r["rule"])).value for r in rows)
    by_rule = {r["rule"]: r for r in rows}
    assert by_rule[EARNED]["grade"] == "loss" and by_rule[BELOW]["grade"] == "read"
    firings = [int(str(r["faithful"])) + int(str(r["lossy"])) for r in rows]
    assert firings == sorted(firings, reverse=True)


def test_a_dropped_date_names_its_rule_and_the_dict_carries_it():
    report = check_strict(["Dentist on 14 March 2026 at 9:00."], "Dentist at 9:00.")
    dates = [a for a in report.at_risk if a.kind == "date"]
    assert [(a.rule, a.token) for a in dates] == [("dropped.date", "14 March 2026")], [a.describe() for a in dates]
    assert all(a.to_dict()["rule"] == "dropped.date" for a in dates)
    assert "dropped.date" in {item["rule"] for item in report.to_dict()["at_risk"]}


def test_rule_ids_are_direction_dot_slugged_kind():
    finding = FactAtRisk("dropped", "title_identifier", "PH-2025-07", (0,), None, None, None, "why")
    assert finding.rule == "dropped.title-identifier" == rule_id("dropped", "title_identifier")
    assert rule_id("changed", "Term") == "changed.term"
    assert rule_id("added", "modal verb_x") == "added.modal-verb-x"


def test_every_rule_the_lens_emits_on_corpus_cases_is_measured():
    cases = [c for c in load("handwritten") if c["label"] in ("lossy", "lossless")][::4][:30]  # across its kinds
    emitted = {a.rule for c in cases for a in check_strict(list(c["sources"]), c["body"]).at_risk}
    assert emitted, "the lens found nothing on 30 corpus cases"
    missing = emitted - set(MEASURED)
    assert not missing, f"rules not in rule_grades.MEASURED (run python -m tests.fact_corpus.rule_precision --write): " \
                        f"{sorted(missing)}"
