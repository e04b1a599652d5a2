"""The fact lens, conflict evidence and the union take any Python string without raising: lone surrogates,
control characters, digits glued to letters, half-written dates and units (a memory store holds whatever an
agent wrote). Would fail on the first input that made one of them raise."""
from hypothesis import given, settings, strategies as st

from memgui.core.merge.conflicts import likely_different, pair_evidence
from memgui.core.merge.strict import check_strict
from memgui.core.merge.union import sentence_union

ANY_CHAR = st.characters(blacklist_categories=())  # surrogates (Cs) included
# pieces that reach the value readers: numbers, units, dates, times, phones, identifiers, markers
PIECES = st.sampled_from([
    "4 GB", "2gb", "€40", "EUR 280", "$85 per person", "14 July", "2026-07-14", "03/04/2026", "9:45 am", "09:45",
    "twice a week", "every other Thursday", "Monday to Friday", "a quarter of an hour", "18 or over",
    "+44 20 7946 0123", "020 7946 0000, extension 412", "v1.2.3", "db-01.internal", "https://x.org/a",
    "not", "never", "only", "unless", "at most", "faster", "Ana manages Ben", "1.", "\n- ", ". ", ", and ",
    "every 0 days", "0 times a week", "28 x 0 mm", "9-0", "half an hour", "two pellets each", "days: 0",
])
TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=12), PIECES), max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=3), TEXT)
def test_the_lens_reads_any_strings(sources, body):
    report = check_strict(sources, body)
    assert report.passed == (not report.at_risk)
    assert check_strict(sources[:1], sources[0]).passed  # a source is its own faithful merge


def test_a_zero_period_is_no_frequency_and_no_crash():
    assert check_strict(["Water the ferns every 0 days."], "Water the ferns every 0 days.").passed


@settings(max_examples=100, deadline=None)
@given(TEXT, TEXT)
def test_conflict_evidence_and_the_union_take_any_strings(a, b):
    pair_evidence(a, b)
    likely_different([a, b])
    merged = sentence_union(a, [b])
    assert merged.startswith(a.rstrip())  # the primary whole (its trailing white space is where the rest joins)
