"""MergeGuard, the sentence union and the word diff take any Python string without raising (issue 26 item 5):
lone surrogates, NUL, controls, astral characters, half-written dates and units, markdown. A sample here
(Hypothesis, a few hundred inputs each); 200,000 random inputs in tests/perf/test_text_fuzz.py. Beyond not
raising, each keeps its contract: the guard retains every token of a source that is its own merge, the union
loses no load-bearing token, the diff's spans rebuild both texts."""
from __future__ import annotations

import random

from hypothesis import example, given, settings, strategies as st

from memgui.core.merge.diff import word_diff
from memgui.core.merge.guard import check_merge
from memgui.core.merge.union import sentence_union
from text_fuzz import PIECES, WORDS, random_text

ANY_CHAR = st.characters(blacklist_categories=())  # surrogates (Cs) included
TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=12), st.sampled_from(PIECES), st.sampled_from(WORDS)),
                max_size=12).map("".join)


def _rebuilt(diff, a: str, b: str) -> None:
    assert "".join(s.a_text for s in diff.spans) == a
    assert "".join(s.b_text for s in diff.spans) == b


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=3), TEXT)
@example(["\ud800 release 2.14.3 on 2024-03-18 \udfff"], "\ud800")
@example(["port 5432\udc00"], "port 5432\udc00")
def test_the_guard_takes_any_strings(sources, body):
    report = check_merge(sources, body)
    assert report.passed == (report.retention >= 0.95 and report.length_ratio >= 0.6)
    assert check_merge(sources[:1], sources[0]).missing == ()  # a source is its own faithful merge


@settings(max_examples=200, deadline=None)
@given(TEXT, st.lists(TEXT, min_size=1, max_size=2))
@example("Mira.", ["Atlas runs every 0 days."])  # the fact lens raises on it: the union keeps the clause
@example("\ud800", ["\udfff 5432 \ud800. Port 5432."])
@example("", [""])
def test_the_union_takes_any_strings_and_loses_no_token(primary, others):
    merged = sentence_union(primary, others)
    assert isinstance(merged, str)
    assert check_merge([primary, *others], merged).missing == ()


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
@example("\ud800 a b", "a \udfff b")
@example("", "\ud83d")
def test_the_word_diff_takes_any_strings(a, b):
    _rebuilt(word_diff(a, b), a, b)


def test_a_seeded_sample_of_random_strings():
    """The generator the 200,000-input fuzz uses, on a sample: all three paths, no exception."""
    rng = random.Random(26)
    for _ in range(150):
        a, b = random_text(rng), random_text(rng)
        check_merge([a, b], a)
        assert check_merge([a, b], sentence_union(a, [b])).missing == ()
        _rebuilt(word_diff(a, b), a, b)
