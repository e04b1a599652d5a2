"""A fact at risk's kind is a `FactKind`: a plain string is checked and made one, an unknown one raises at once."""
from __future__ import annotations

import pytest

from memgui.core.forensics import recheck
from memgui.core.merge.facts.report import Direction, FactAtRisk, FactKind, rule_id
from memgui.core.merge.rule_measured import MEASURED


def test_a_plain_kind_is_made_a_member_and_an_unknown_one_raises() -> None:
    finding = FactAtRisk("dropped", "grammatical number", "cats", (0,), None, None, None, "why")
    assert finding.kind is FactKind.GRAMMATICAL_NUMBER and finding.rule == "dropped.grammatical-number"
    assert finding.to_dict()["kind"] == "grammatical number" and f"{finding.kind:<20}|" == f"{'grammatical number':<20}|"
    with pytest.raises(ValueError):
        FactAtRisk("dropped", "dat", "14 March", (0,), None, None, None, "why")
    assert recheck.FactAtRisk("x", "date", "dropped", ()).kind is FactKind.DATE
    with pytest.raises(ValueError):
        recheck.FactAtRisk("x", "dates", "dropped", ())


def test_every_measured_rule_is_a_direction_and_a_kind() -> None:
    ids = {rule_id(d, k) for d in Direction for k in FactKind}
    assert set(MEASURED) <= ids, sorted(set(MEASURED) - ids)
