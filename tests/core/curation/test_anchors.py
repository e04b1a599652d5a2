"""Port of Netclaw's T/AnchorNameMatcherTests.cs (netclaw-compat §6, §14) plus the .NET-primitive edge cases."""
import pytest

from memgui.core import netfx
from memgui.core.curation import anchors as m


@pytest.mark.parametrize(
    "name, expected",
    [
        ("akka-net-release", ["akka", "net", "release"]),
        ("user-preferred-color", ["user", "preferred", "color"]),
        ("AKKA-NET-RELEASE", ["akka", "net", "release"]),
        ("single", ["single"]),
        ("", []),
        ("  ", []),
        # not split on spaces; pieces are trimmed; empty pieces dropped
        ("  user color--Pref - x ", ["user color", "pref", "x"]),
    ],
)
def test_tokenize_splits_on_dash_and_lowers(name, expected):
    assert m.tokenize(name) == expected


def test_fuzzy_subset_match():
    assert m.is_fuzzy_match(["akka", "net", "release"], ["akka", "net", "latest", "release"])


def test_fuzzy_version_suffix():
    assert m.is_fuzzy_match(["akka", "net", "release"], ["akka", "net", "release", "1.5.62"])


def test_fuzzy_exact_match():
    assert m.is_fuzzy_match(["akka", "net", "release"], ["akka", "net", "release"])


def test_fuzzy_one_extra_token_is_a_subset():
    assert m.is_fuzzy_match(["user", "color"], ["user", "color", "preference"])


def test_not_fuzzy_for_unrelated_names():
    assert not m.is_fuzzy_match(["akka", "net", "release"], ["user", "preferred", "color"])


def test_not_fuzzy_for_empty_tokens():
    assert not m.is_fuzzy_match([], [])
    assert not m.is_fuzzy_match([], ["a"])
    assert not m.is_fuzzy_match(["a"], [])


def test_not_fuzzy_when_jaccard_below_threshold():
    assert not m.is_fuzzy_match(["a", "b", "c"], ["a", "d", "e"])


def test_find_fuzzy_matches_subset_cases():
    existing = ["akka-net-release", "user-preferred-color", "akka-net-latest-release", "database-config"]
    matches = m.find_fuzzy_matches("akka-net-release-1.5.62", existing)
    assert "akka-net-release" in matches
    assert "akka-net-latest-release" in matches  # J = 3/5 = 0.6, difference 2
    assert "user-preferred-color" not in matches
    assert "database-config" not in matches


def test_find_fuzzy_matches_superset_cases():
    matches = m.find_fuzzy_matches("akka-net-release", ["akka-net-release-info", "user-preferred-color", "database-config"])
    assert matches == ["akka-net-release-info"]


def test_find_fuzzy_matches_none():
    assert m.find_fuzzy_matches("akka-net-release", ["user-preferred-color", "database-config"]) == []
    assert m.find_fuzzy_matches("   ", ["akka"]) == []


def test_content_overlap_identical_is_one():
    assert m.content_overlap("favorite color is blue", "favorite color is blue") == pytest.approx(1.0)


def test_content_overlap_version_only_difference_is_high():
    assert m.content_overlap(
        "The latest Akka.NET release is version 1.5.60", "The latest Akka.NET release is version 1.5.62"
    ) > 0.7


def test_content_overlap_unrelated_is_low():
    assert m.content_overlap("favorite color is blue", "the database runs on PostgreSQL 15") < 0.2


def test_content_overlap_empty_is_zero():
    assert m.content_overlap("", "something") == 0.0
    assert m.content_overlap("something", "") == 0.0
    assert m.content_overlap("", "") == 0.0
    assert m.content_overlap("  \n", "something") == 0.0
    assert m.content_overlap("...", "something") == 0.0  # only separators: no words


def test_content_overlap_splits_on_punctuation_and_brackets():
    # ( ) [ ] { } " ' split; `.` breaks versions into pieces
    assert m.content_tokens('Use (v1.5) ["x"] {y}') == {"use", "v1", "5", "x", "y"}
    assert m.content_overlap("version 1.5.62", "version 1.5.60") == pytest.approx(3 / 5)


def test_two_token_difference_is_fuzzy():
    assert m.is_fuzzy_match(m.tokenize("email-draft-editing-preference"), m.tokenize("email-draft-editing-workflow"))


def test_prefix_match_repo_vs_repository():
    assert m.is_fuzzy_match(m.tokenize("netclaw-github-repo"), m.tokenize("netclaw-github-repository"))


def test_prefix_match_snake_vs_snakey():
    assert m.is_fuzzy_match(m.tokenize("snake-game-project-location"), m.tokenize("snakey-trail-project-location"))


def test_prefix_requires_three_characters():
    assert not m.is_fuzzy_match(["in", "memory", "store"], ["integration", "memory", "store"])
    assert not m.is_prefix_match("in", "integration")
    assert m.is_prefix_match("int", "integration")
    assert m.is_prefix_match("Repo", "repository")


def test_prefix_length_counts_utf16_code_units():
    # one astral character is two UTF-16 code units (.NET String.Length): "𝐚b" is 3 long there
    assert netfx.utf16_len("𝐚b") == 3
    assert m.is_prefix_match("𝐚b", "𝐚bc")


def test_anchor_jaccard_identical_is_one():
    tokens = ["akka", "net", "release"]
    assert m.anchor_jaccard(tokens, tokens) == pytest.approx(1.0)


def test_anchor_jaccard_counts_prefix_matches():
    assert m.anchor_jaccard(m.tokenize("netclaw-github-repo"), m.tokenize("netclaw-github-repository")) == pytest.approx(1.0)
    # many-to-one prefix matches are capped at min(|A|, |B|)
    assert m.soft_jaccard_detail(["repo", "repos"], ["repository"]) == (pytest.approx(1 / 2), 1, 2)


def test_anchor_jaccard_empty_is_zero():
    assert m.anchor_jaccard([], ["a"]) == 0.0
    assert m.anchor_jaccard(["a"], []) == 0.0


def test_duplicate_tokens_are_deduplicated_case_insensitively():
    assert m.soft_jaccard_detail(["a", "A", "b"], ["a", "b"]) == (pytest.approx(1.0), 2, 2)


def test_anchor_id_normalization():
    assert netfx.anchor_id_for("  My Topic ") == "anchor:my-topic"


def test_normalize_for_containment_uses_net_whitespace():
    assert netfx.normalize_for_containment("Config   path:\n/etc/APP\u00a0x") == "config path: /etc/app x"
    # U+001F is whitespace to Python's str.split but not to .NET's char.IsWhiteSpace
    assert netfx.normalize_for_containment("a\x1fb") == "a\x1fb"


# ---- properties ---------------------------------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text())
def test_arbitrary_unicode_never_crashes_and_scores_are_bounded(a, b):
    overlap = m.content_overlap(a, b)
    assert 0.0 <= overlap <= 1.0
    assert overlap == m.content_overlap(b, a)
    ta, tb = m.tokenize(a), m.tokenize(b)
    assert 0.0 <= m.anchor_jaccard(ta, tb) <= 1.0
    assert isinstance(m.is_fuzzy_match(ta, tb), bool)
    assert isinstance(netfx.normalize_for_containment(a), str)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=6), min_size=1, max_size=5))
def test_a_name_always_fuzzy_matches_itself(tokens):
    name = "-".join(tokens)
    assert m.is_fuzzy_match(m.tokenize(name), m.tokenize(name))
    assert m.anchor_jaccard(m.tokenize(name), m.tokenize(name)) == 1.0


def test_soft_intersection_counts_from_the_first_argument_like_netclaw():
    # Netclaw counts the tokens of A that match something in B, so the score is not symmetric
    assert m.soft_jaccard_detail(["abc", "xyz"], ["abcd", "abce"])[1] == 1
    assert m.soft_jaccard_detail(["abcd", "abce"], ["abc", "xyz"])[1] == 2
