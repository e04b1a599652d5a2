"""The .NET primitives Netclaw's rules are written in, pinned to what .NET does (docs/netclaw-compat.md N1–N9).

Three of these used to exist twice in memgui with different answers; each such case says which copy was
right and why.
"""
import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from memgui.core import netfx
from memgui.core.curation.evaluator import lexical_terms
from memgui.core.curation.rules import evaluate_rules
from memgui.core.curation.types import Candidate, Proposal
from memgui.core.merge.guard import check_merge
from memgui.core.store.values import content_hash

# ---- N1 white space -------------------------------------------------------------------------------

@pytest.mark.parametrize("ch", list(netfx.NET_WHITESPACE))
def test_every_dotnet_whitespace_character_is_trimmed_and_splits(ch):
    assert netfx.net_trim(f"{ch}a{ch}") == "a"
    assert netfx.split_whitespace(f"a{ch}b") == ["a", "b"]
    assert netfx.is_blank(ch * 3)


@pytest.mark.parametrize("ch", ["\x1c", "\x1d", "\x1e", "\x1f", "\u200b", "\ufeff"])
def test_characters_python_calls_space_but_dotnet_does_not_are_kept(ch):
    # str.strip()/str.split() treat U+001C..U+001F as white space; char.IsWhiteSpace does not,
    # and U+200B / U+FEFF are format characters in .NET.
    assert netfx.net_trim(f"{ch}a{ch}") == f"{ch}a{ch}"
    assert netfx.split_whitespace(f"a{ch}b") == [f"a{ch}b"]
    assert not netfx.is_blank(ch)


def test_blank_means_null_empty_or_only_whitespace():
    assert netfx.is_blank(None) and netfx.is_blank("") and netfx.is_blank(" \u3000\t")
    assert not netfx.is_blank(" x ")


# ---- N2 case --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, lowered", [
    ("ΟΔΥΣΣΕΑΣ", "οδυσσεασ"),  # Python's lower() ends in final sigma ς; ToLowerInvariant never does
    ("İstanbul", "İstanbul"),  # invariant casing leaves U+0130 (Python makes it i + U+0307)
    ("ÄÖÜ Straße", "äöü straße"),
    ("ABC", "abc"),
])
def test_lower_invariant_is_dotnet_simple_mapping(text, lowered):
    assert netfx.lower_invariant(text) == lowered
    assert len(netfx.lower_invariant(text)) == len(text)


def test_ordinal_ignore_case_keeps_length_and_compares_upper_cases():
    assert netfx.fold_case("straße") == "STRAßE"  # ß has no single-character upper case
    assert netfx.equals_ignore_case("Doc-ABC", "doc-abc")
    assert not netfx.equals_ignore_case("doc-abc", None)
    assert netfx.equals_ignore_case(None, None)


# ---- N3 length and encoding -----------------------------------------------------------------------

def test_utf16_length_counts_astral_characters_twice():
    assert netfx.utf16_len("a\U0001F600") == 3
    assert netfx.utf16_len("é") == 1


def test_lone_surrogate_encodes_as_replacement_like_dotnet_utf8():
    assert netfx.utf8_bytes("a\ud800b") == "a\ufffdb".encode()


def test_containment_normaliser_lowercases_and_collapses_whitespace():
    assert netfx.normalize_for_containment("  Hello\u3000 WORLD\n") == "hello world"
    # the content hash is built on the same normaliser: case and white space do not change it
    assert content_hash("Title", "Some  BODY") == content_hash("title", "some body")


# ---- N4 number formatting (disagreement 3) --------------------------------------------------------

@pytest.mark.parametrize("value, text", [
    (0.85, "85%"), (1.0, "100%"), (0.0, "0%"), (5 / 7, "71%"),
    # Exact binary ties round to even: .NET's formatter computes the digits with Dragon4 and rounds a tie
    # towards the even digit. The guard's copy rounded half up (0.125 → "13%"); the rules' copy rounded
    # to even ("12%"). .NET prints "12%", so the rules' copy was right.
    (0.125, "12%"), (0.625, "62%"), (0.375, "38%"), (0.875, "88%"),
    (0.605, "60%"),  # stored as 0.60499999…, so below the tie
    (12.34, "1,234%"),  # en-US groups thousands
])
def test_p0_matches_dotnet(value, text):
    assert netfx.format_p0(value) == text


def test_guard_and_rules_print_the_same_percentage():
    # one formatter serves both: the guard's length ratio and the rules' overlap percentage
    report = check_merge(["a" * 800], "a" * 100)  # length ratio exactly 0.125
    assert "12%" in report.reason and "13%" not in report.reason
    assert netfx.format_f2(0.125) == "0.12" and netfx.format_f2(0.135) == "0.14"


def test_rules_reason_uses_the_same_p0():
    proposal = Proposal(title="t", content="alpha beta", anchor_name="x", confidence=0.9, freshness_at=1)
    cand = Candidate("doc-1", "anchor:x", "x", "alpha gamma delta beta eps zeta eta theta", freshness_at=2,
                     confidence=0.9, is_exact=True)
    decision = evaluate_rules(proposal, [cand])
    assert "(overlap=25%)" in decision.reason  # 2 shared of 8 words


# ---- N5 anchor ids (disagreement 1) ---------------------------------------------------------------

@pytest.mark.parametrize("name, anchor_id", [
    # The store's copy used str.strip(); the anchors module's copy used str.lower(). .NET's AnchorId is
    # name.Trim().ToLowerInvariant().Replace(' ', '-'): both were wrong somewhere.
    ("ΟΔΥΣΣΕΑΣ", "anchor:οδυσσεασ"),  # the anchors copy wrote "οδυσσεας"
    ("İstanbul trip", "anchor:İstanbul-trip"),  # the anchors copy wrote "i̇stanbul-trip" (two characters)
    ("\x1fbuild server\x1f", "anchor:\x1fbuild-server\x1f"),  # the store copy stripped the control characters
    ("  Build Server \u3000", "anchor:build-server"),
])
def test_anchor_id_is_dotnet_anchor_id(name, anchor_id):
    assert netfx.anchor_id_for(name) == anchor_id


def test_lexical_terms_lowercase_invariantly():
    assert lexical_terms("ΟΔΥΣΣΕΑΣ returns") == ["οδυσσεασ", "returns"]


# ---- N6 FTS quoting -------------------------------------------------------------------------------

def test_fts_terms_are_quoted_literally():
    assert netfx.fts_match_query(['say "hi"', "AND", " "]) == '"say ""hi""" OR "AND"'
    assert netfx.fts_match_query([]) is None
    assert netfx.fts_query_for_text("title:x NEAR(a b)") == '"title:x" OR "NEAR(a" OR "b)"'
    assert netfx.fts_query_for_text("a\x00b") == '"a" OR "b"'


# ---- N7 the structural append ---------------------------------------------------------------------

def test_append_format_and_its_separator_regex_agree():
    body = netfx.build_appended_body("Old text.", "New text.", dt.date(2026, 5, 3))
    assert body == "Old text.\n\n---\n_[merged 2026-05-03]_\nNew text."
    assert netfx.APPEND_MARKER_RE.search(body)
    match = netfx.APPEND_SEPARATOR_RE.search(body)
    assert match and match.group(1) == "2026-05-03"
    assert netfx.APPEND_SEPARATOR_RE.search(body.replace("\n", "\r\n"))


# ---- N8 guard limits ------------------------------------------------------------------------------

def test_guard_limits_are_netclaws():
    assert (netfx.RETENTION_THRESHOLD, netfx.LENGTH_COLLAPSE_THRESHOLD) == (0.95, 0.60)
    just_long_enough = check_merge(["x" * 100], "x" * 60)
    too_short = check_merge(["x" * 100], "x" * 59)
    assert just_long_enough.passed and not too_short.passed


def test_extractor_anchor_and_exact_anchor_matching_use_the_dotnet_primitives():
    from memgui.core.curation.evaluator import extractor_anchor

    assert extractor_anchor("ΟΔΥΣΣΕΑΣ called") == "οδυσσεασ"  # ToLowerInvariant, not str.lower()
    assert extractor_anchor("\x1fnote text") == "\x1fnote"  # Trim keeps U+001F
    assert netfx.equals_ignore_case(netfx.anchor_id_for("Build Server"), "ANCHOR:BUILD-SERVER")


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(["a", "é", "ß", "ﬁ", "ǰ", "ᾳ", "İ", "ı", "Σ", "ς", "K", "\U0001F600", "\ud800", "ÿ",
                                "ǅ", "ꭰ", "\u0345"]), max_size=30))
def test_the_fast_case_fold_and_utf16_length_equal_the_per_character_definitions(text):
    """fold_case takes str.upper unless a character's full upper case is longer (ß → SS); utf16_len encodes
    instead of counting: both must equal the per-character rules (.NET simple upper case, UTF-16 code units)."""
    assert netfx.fold_case(text) == "".join(chr(netfx._FOLD[ord(ch)]) for ch in text)
    assert netfx.utf16_len(text) == sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)
