"""Property tests of the fact lens over the corpus seeds (issue 23, item 11; `tests/data/facts/seeds.json`).

- an identity merge never alarms (the body is the only source, or every source is the same note);
- a body that is one source verbatim plus the other sources' remaining sentences never alarms;
- every mutation operator of the generator alarms on the cases it makes (drop, alter, swap, negate, antonym,
  quantifier, unit, binding, add)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from fact_corpus import generate
from memgui.core.merge.strict import check_strict

SEEDS = generate.load_seeds()
PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _why(report: object) -> str:
    items = getattr(report, "at_risk", ()) or ()
    return "; ".join(f"{getattr(i, 'direction', '?')}: {i}" for i in list(items)[:3])


@PROPERTY
@given(note=st.sampled_from(SEEDS), copies=st.integers(1, 3), with_extra=st.booleans())
def test_identity_merge_never_alarms(note: generate.Note, copies: int, with_extra: bool) -> None:
    text = note.render(note.everything if with_extra else note.base)
    report = check_strict([text] * copies, text)
    assert report.passed, f"identity merge alarmed: {text!r} → {_why(report)}"


@PROPERTY
@given(note=st.sampled_from(SEEDS), seed=st.integers(0, 2**16))
def test_verbatim_source_plus_remaining_sentences_never_alarms(note: generate.Note, seed: int) -> None:
    case = generate.verbatim_plus_remaining(note, random.Random(seed))
    report = check_strict(case["sources"], case["body"])
    assert report.passed, f"{case['sources']!r} → {case['body']!r}: {_why(report)}"


@pytest.mark.parametrize("operator", generate.LOSSY_OPERATORS)
def test_each_mutation_operator_alarms(operator: str) -> None:
    @PROPERTY
    @given(note=st.sampled_from(SEEDS), seed=st.integers(0, 2**16), union=st.booleans())
    def prop(note: generate.Note, seed: int, union: bool) -> None:
        case = generate.mutate(note, operator, random.Random(seed), SEEDS, union=union)
        assume(case is not None)
        assert case is not None
        report = check_strict(case["sources"], case["body"])
        assert not report.passed, f"{case['kind']} passed: {case['sources']!r} → {case['body']!r}"

    prop()
