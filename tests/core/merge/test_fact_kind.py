"""A fact at risk's kind is a `FactKind`: a plain string is checked and made one, an unknown one raises at once."""
from __future__ import annotations

import json

import pytest

from memgui.core.forensics import recheck
from memgui.core.merge.facts.lexicon import MarkerClass
from memgui.core.merge.facts.report import Direction, Equivalence, FactAtRisk, FactKind, rule_id
from memgui.core.merge.facts.value_types import ValueKind
from memgui.core.merge.facts.values import values
from memgui.core.merge.guard import TokenKind
from memgui.core.merge.rule_measured import MEASURED
from memgui.core.merge.strict import check_strict


def test_a_plain_kind_is_made_a_member_and_an_unknown_one_raises() -> None:
    finding = FactAtRisk("dropped", "title_identifier", "KEY", (0,), None, None, None, "why")
    assert finding.kind is FactKind.TITLE_IDENTIFIER and finding.rule == "dropped.title-identifier"
    assert finding.to_dict()["kind"] == "title_identifier" and f"{finding.kind:<20}|" == f"{'title_identifier':<20}|"
    with pytest.raises(ValueError):
        FactAtRisk("dropped", "dat", "14 March", (0,), None, None, None, "why")
    assert recheck.FactAtRisk("x", "date", "dropped", ()).kind is FactKind.DATE
    with pytest.raises(ValueError):
        recheck.FactAtRisk("x", "dates", "dropped", ())


def test_every_measured_rule_is_a_direction_and_a_kind() -> None:
    ids = {rule_id(d, k) for d in Direction for k in FactKind}
    assert set(MEASURED) <= ids, sorted(set(MEASURED) - ids)


def test_every_value_kind_token_kind_and_marker_class_is_a_fact_kind() -> None:
    """A value, a MergeGuard token or a marker at risk is reported under its own kind: each is a FactKind."""
    for kind in (*ValueKind, *TokenKind, *MarkerClass):
        assert FactKind(kind) == kind
    found = values("Pay €40 by 5 March; see https://x.org/a and MAX_RETRIES, never on Fridays.")
    assert {v.kind for v in found} >= {ValueKind.MONEY, ValueKind.DATE, ValueKind.URL, ValueKind.SNAKE_CASE}
    assert all(type(v.kind) is ValueKind for v in found)
    assert json.dumps({"kind": ValueKind.MONEY}) == '{"kind": "money"}'  # written as its value


def test_why_a_word_is_the_bodys_is_an_equivalence() -> None:
    report = check_strict(["Leo rehearses on Fridays at 18:00."], "Leo has a rehearsal on Fridays at 6 pm.")
    rules = {same.rule for same in report.equated}
    assert Equivalence.DERIVED in rules and Equivalence.SAME_VALUE in rules and all(type(r) is Equivalence for r in rules)
