"""MergeGuard (netclaw-compat §10): ports of Netclaw's T/MergeGuardTests plus the report, .NET-exact text handling
and hypothesis properties."""
from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from memgui.core.merge import guard, guard_tokens
from memgui.core.merge.guard import check_merge, extract_tokens, missing_spans
from memgui.core.netfx import (
    APPEND_MARKER_RE,
    LENGTH_COLLAPSE_THRESHOLD,
    RETENTION_THRESHOLD,
    build_appended_body,
    fold_case,
    utf16_len,
)

# ── Ports of T/MergeGuardTests.cs ────────────────────────────────────────────────────────────────


def test_faithful_union_passes_with_nothing_missing():
    sources = ["Widget specs: 16 cores, 64GB RAM, 2 NICs.", "Widget pricing is TBD as of 2026-05-13."]
    merged = "Widget specs: 16 cores, 64GB RAM, 2 NICs. Pricing is TBD as of 2026-05-13."
    report = check_merge(sources, merged)
    assert report.passed
    assert report.missing == ()


def test_reordered_and_reworded_merge_keeping_every_token_passes():
    sources = [
        "Akka.NET GitHub repository: https://github.com/akkadotnet/akka.net. Latest stable release is 1.5.60 as of 2026-04-02.",
        "Akka.NET release version is now 1.5.62.",
    ]
    merged = (
        "Akka.NET GitHub repository: https://github.com/akkadotnet/akka.net. "
        "Latest stable release is 1.5.62 (previously 1.5.60 as of 2026-04-02)."
    )
    assert check_merge(sources, merged).passed


def test_no_source_bodies_passes_trivially():
    report = check_merge([], "anything")
    assert report.passed
    assert "no source bodies" in report.reason


def test_dropped_url_fails():
    report = check_merge(["Repo lives at https://github.com/netclaw-dev/netclaw."], "Repo lives at the usual place.")
    assert not report.passed
    assert any("github.com" in t.lower() for t in report.missing)
    assert "https://github.com/netclaw-dev/netclaw" in report.missing  # trailing "." stripped


def test_dropped_version_fails():
    report = check_merge(
        ["Latest version is 1.5.62, released with the new serializer."],
        "Latest version was released with the new serializer.",
    )
    assert not report.passed
    assert "1.5.62" in report.missing


def test_dropped_iso_date_fails():
    report = check_merge(["Config path moved to /etc/app/config.yaml on 2026-06-01."], "Config path moved to /etc/app/config.yaml.")
    assert not report.passed
    assert "2026-06-01" in report.missing


def test_dropped_written_date_fails():
    report = check_merge(["Release shipped on May 13, 2026 after code freeze."], "Release shipped after code freeze.")
    assert not report.passed
    assert "May 13, 2026" in report.missing


def test_dropped_camel_case_identifier_fails():
    report = check_merge(["The knob is called maxOutputTokens and defaults to 4096."], "The token cap defaults to 4096.")
    assert not report.passed
    assert "maxOutputTokens" in report.missing


def test_dropped_file_path_fails():
    report = check_merge(["The guard lives in src/Netclaw.Actors/Memory/MergeGuard.cs."], "The guard lives in the memory module.")
    assert not report.passed
    assert any("mergeguard.cs" in t.lower() for t in report.missing)
    assert "src/Netclaw.Actors/Memory/MergeGuard.cs" in report.missing


def test_retention_is_case_insensitive():
    report = check_merge(["Endpoint is HTTPS://EXAMPLE.COM/api."], "Endpoint is https://example.com/api and it is stable.")
    assert report.passed


def _values(n: int) -> str:
    return "Values: " + ", ".join(str(v) for v in range(100, 100 + n)) + "."


def test_exactly_95_percent_retention_passes_with_one_missing():
    report = check_merge([_values(20)], _values(19))
    assert report.passed
    assert len(report.missing) == 1
    assert report.retention == pytest.approx(0.95)


def test_90_percent_retention_fails_with_two_missing():
    report = check_merge([_values(20)], _values(18))
    assert not report.passed
    assert len(report.missing) == 2


def test_union_is_counted_across_sources_not_per_source():
    report = check_merge(["Value alpha is 111.", "Value beta is 222."], "Value alpha is 111 and beta was updated.")
    assert not report.passed
    assert "222" in report.missing


def test_length_collapse_fails_even_when_tokens_are_kept():
    report = check_merge(["Config value is 42. " + "x" * 200], "42")
    assert not report.passed
    assert report.missing == ()
    assert "collapse" in report.reason.lower()


def test_60_of_100_chars_passes_and_59_fails():
    assert check_merge(["a" * 100], "a" * 60).passed
    assert not check_merge(["a" * 100], "a" * 59).passed


def test_longest_source_sets_the_length_floor():
    assert not check_merge(["Short note.", "b" * 200], "b" * 100).passed


def test_empty_and_whitespace_sources_contribute_nothing():
    assert check_merge(["", "  ", "real content here"], "real content here, unchanged").passed


# ── Report details ────────────────────────────────────────────────────────────────────────────────

SAMPLE = (
    "See https://example.com/a). Version 1.5.62 on 2026-06-01T10:00:00Z, May 13, 2026 and 13 May 2026, "
    "5/13/26. 64GB 300ms src/Netclaw.Actors/Memory/MergeGuard.cs Netclaw.Configuration.MemoryConfig "
    "maxOutputTokens nominator_k memory-core-redesign SKU42 OK US cost is 111."
)


def test_every_token_class_is_found_with_its_kind():
    kinds = dict(extract_tokens(SAMPLE))
    assert kinds["https://example.com/a"] == "url"
    assert kinds["2026-06-01T10:00:00Z"] == "iso_date"
    assert kinds["May 13, 2026"] == "written_date"
    assert kinds["13 May 2026"] == "reverse_date"
    assert kinds["5/13/26"] == "slash_date"
    assert kinds["1.5.62"] == "version"
    assert kinds["64GB"] == "quantity" and kinds["300ms"] == "quantity"
    assert kinds["src/Netclaw.Actors/Memory/MergeGuard.cs"] == "file_path"
    assert kinds["Netclaw.Configuration.MemoryConfig"] == "dotted_identifier"
    assert kinds["maxOutputTokens"] == "camel_case"
    assert kinds["nominator_k"] == "snake_case"
    assert kinds["memory-core-redesign"] == "kebab_case"
    assert kinds["SKU42"] == "all_caps"
    assert kinds["111"] == "integer"
    assert set(kinds.values()) == set(guard.TOKEN_KINDS)
    assert "OK" not in kinds and "US" not in kinds  # ALL_CAPS needs 3+ characters


def test_bare_integer_rules():
    tokens = [t for t, k in extract_tokens("release 1.5.62 has 20GB; cost is 111.") if k == "integer"]
    assert "111" in tokens  # a sentence period after a number does not hide it
    assert "62" not in tokens  # part of a version
    assert "20" not in tokens  # part of a quantity


def test_a_token_found_by_several_classes_gets_the_first_class():
    assert dict(extract_tokens("set MAX_TOKENS now"))["MAX_TOKENS"] == "snake_case"  # also ALL_CAPS


def test_tokens_record_their_sources_and_the_union_keeps_the_first_spelling():
    report = check_merge(["Ticket ABC-1 done", None, "ticket abc-1 and OPS-9"], "ABC-1")
    by_token = {t.token: t for t in report.tokens}
    assert by_token["ABC-1"].sources == (0, 2)  # original indices, the None source skipped
    assert by_token["ABC-1"].kind == "kebab_case" and by_token["ABC-1"].retained
    assert "abc-1" not in by_token
    assert report.missing == ("OPS-9", "OPS", "9")  # kebab, then ALL_CAPS, then integer class


def test_to_dict_shape():
    report = check_merge(["cost 111 and 222"], "cost 111")
    d = report.to_dict()
    assert set(d) == {"passed", "retention", "length_ratio", "reason", "tokens", "missing"}
    assert d["passed"] is False and d["missing"] == ["222"]
    assert d["tokens"] == [
        {"token": "111", "kind": "integer", "retained": True, "sources": [0]},
        {"token": "222", "kind": "integer", "retained": False, "sources": [0]},
    ]


def test_reason_texts():
    assert check_merge([_values(20)], _values(18)).reason == (
        "retention 90% below 95% floor — missing 2/20 load-bearing tokens"
    )
    assert check_merge(["a" * 100], "a" * 59).reason == (
        "merged length 59 is only 59% of longest source (100 chars), below the 60% collapse floor"
    )
    assert check_merge(["a 1 " + "a" * 96], "a 1 " + "a" * 96).reason == (
        "retained 1/1 load-bearing tokens (100%); merged length 100 is 100% of longest source (100 chars)"
    )
    assert check_merge(["x"], "x" * 12346).reason.endswith("is 1,234,600% of longest source (1 chars)")


def test_retention_failure_is_reported_before_collapse():
    report = check_merge(["111 222 333 " + "x" * 100], "1")
    assert report.reason.startswith("retention")


def test_whitespace_only_source_still_sets_the_length_floor_and_null_merged_is_empty():
    assert not check_merge(["a", " " * 100], "a").passed
    report = check_merge(["abc"], None)
    assert not report.passed and report.length_ratio == 0.0


def test_thresholds():
    assert RETENTION_THRESHOLD == 0.95 and LENGTH_COLLAPSE_THRESHOLD == 0.60


# ── .NET-exact text handling ─────────────────────────────────────────────────────────────────────


def test_length_is_counted_in_utf16_code_units():
    # 30 astral characters are 60 UTF-16 units: exactly at the floor of a 100-unit source.
    assert check_merge(["x" * 100], "\U0001F600" * 30).passed
    assert check_merge(["\U0001F600" * 50], "x" * 60).passed
    assert not check_merge(["\U0001F600" * 50], "x" * 59).passed
    assert utf16_len("a\U0001F600") == 3


def test_word_boundaries_follow_dotnet_word_characters():
    # U+0301 (a non-spacing mark) is a .NET word character: no boundary before SKU42.
    assert "SKU42" not in dict(extract_tokens("e\u0301SKU42 x"))
    # ZWJ counts as a word character for .NET's \b.
    assert "SKU42" not in dict(extract_tokens("\u200dSKU42 x"))
    # '²' (No) and an astral letter (two surrogates in .NET) are not word characters: boundary.
    assert "SKU42" in dict(extract_tokens("²SKU42 x"))
    assert "SKU42" in dict(extract_tokens("\U0001D400SKU42 x"))


def test_digits_are_unicode_decimal_digits_of_the_bmp():
    kinds = dict(extract_tokens("v ١.٢ and ٣٤ and \U0001D7CE\U0001D7CF"))
    assert kinds["١.٢"] == "version" and kinds["٣٤"] == "integer"
    assert not any("\U0001D7CE" in t for t in kinds)  # astral digits are surrogates in .NET


def test_whitespace_is_dotnet_whitespace():
    assert "May 13, 2026" not in "".join(t for t, _ in extract_tokens("May\x1c13, 2026"))  # \x1c: not .NET space
    assert dict(extract_tokens("May\u200913, 2026")).get("May\u200913, 2026") == "written_date"


def test_case_insensitive_classes_match_like_dotnet_ignore_case():
    kinds = dict(extract_tokens("HTTPS://X.org/a and MAY 5TH, 2026 and 3 sept. 2026"))
    assert kinds["HTTPS://X.org/a"] == "url" and kinds["MAY 5TH, 2026"] == "written_date"
    assert not any(k == "reverse_date" for k in kinds.values())  # "sept." is not a month form
    # Python's re.IGNORECASE lets i match dotless ı; .NET (en-US/invariant) does not.
    assert "written_date" not in dict(extract_tokens("Aprıl 5, 2026")).values()


def test_case_folding_keeps_length_and_matches_ordinal_ignore_case():
    for text in ["straße", "ǰ", "ﬁ", "ᾳ", "İı", "ΣσςK"]:
        assert len(fold_case(text)) == len(text)
    assert fold_case("ß") == "ß"  # no multi-character mapping
    assert check_merge(["Endpoint ÄBC-1"], "x äbc-1 yy").missing == ()


def test_ascii_and_unicode_pattern_sets_agree_on_ascii_text():
    ascii_set = guard_tokens._ASCII_PATTERNS
    unicode_set = guard_tokens._patterns_for("é")
    rng = random.Random(7)
    alphabet = "aZ09._-/\\:~ ,;)]T\tMayJan5x"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        for a, b in zip(ascii_set.patterns, unicode_set.patterns):
            assert [m.span() for m in a.finditer(text)] == [m.span() for m in b.finditer(text)], text


@pytest.mark.parametrize("alphabet", ["ab./\\:~-_ C1x", "ab./\\:~-_ C1xé\u0301\u200d\u200c"])
def test_file_path_search_equals_plain_regex(alphabet):
    pattern_set = guard_tokens._patterns_for("é" if "é" in alphabet else "a")
    plain = pattern_set.patterns[guard_tokens._FILE_PATH]
    rng = random.Random(3)
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        expected = [m.span() for m in plain.finditer(text)]
        assert [m.span() for m in guard_tokens._file_path_matches(text, pattern_set)] == expected, text


def test_long_path_like_runs_do_not_blow_up():
    # Plain backtracking is quadratic on these (tens of seconds at this size); they must stay cheap.
    for blob in ["a." * 20000, "a/" * 20000, "a/" * 10000 + "a//x/y.cs"]:
        kinds = [k for _, k in extract_tokens(blob)]
        assert kinds.count("file_path") <= 1


# ── missing_spans ─────────────────────────────────────────────────────────────────────────────────


def test_missing_spans_point_at_every_occurrence_case_insensitively():
    source = "Port 9464 on HOST-A; host-a again; 9464."
    report = check_merge([source], "Port on nothing much here at all, sorry")
    spans = missing_spans(source, report)
    assert [source[a:b] for a, b in spans] == ["9464", "HOST-A", "host-a", "9464"]


def test_missing_spans_merge_overlaps_and_can_count_utf16():
    source = "\U0001F600 see 2026-06-01"
    report = check_merge([source], "nothing")
    spans = missing_spans(source, report)
    assert spans == [(6, 16)]  # the date and its integers overlap: one range
    assert missing_spans(source, report, utf16=True) == [(7, 17)]
    assert missing_spans(source, check_merge([source], source)) == []
    assert missing_spans(None, report) == []


# ── Append format (netclaw-compat §9) ──────────────────────────────────────────────────────────────────────


def test_append_format():
    body = build_appended_body("old body", "new text", dt.date(2026, 6, 1))
    assert body == "old body\n\n---\n_[merged 2026-06-01]_\nnew text"
    assert APPEND_MARKER_RE.search(body)
    assert build_appended_body("a", "b", dt.date(7, 1, 2)) == "a\n\n---\n_[merged 0007-01-02]_\nb"
    stacked = build_appended_body(body, "third", dt.date(2026, 6, 2))
    assert len(APPEND_MARKER_RE.findall(stacked)) == 2 and stacked.startswith(body)


def test_an_append_always_passes_the_guard():
    existing, proposal = "Pool size is 20 (db-main).", "The database pool max is 25 as of 2026-06-01."
    assert check_merge([existing, proposal], build_appended_body(existing, proposal, dt.date(2026, 6, 2))).passed


# ── Properties ───────────────────────────────────────────────────────────────────────────────────

any_text = st.text(st.characters(exclude_categories=()), max_size=300)
sources_strategy = st.lists(st.one_of(st.none(), any_text), max_size=5)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources_strategy)
def test_concatenation_of_all_sources_always_passes(sources):
    merged = "\n".join(s for s in sources if s)
    report = check_merge(sources, merged)
    assert report.passed, report.reason
    assert report.missing == ()


@settings(max_examples=300, deadline=None)
@given(sources_strategy, any_text)
def test_arbitrary_unicode_never_crashes(sources, merged):
    report = check_merge(sources, merged)
    assert 0.0 <= report.retention <= 1.0
    assert report.passed == (report.retention >= 0.95 and report.length_ratio >= 0.60) or not sources
    for source in sources:
        for a, b in missing_spans(source, report):
            assert 0 <= a < b <= len(source or "")
    for text in sources:
        extract_tokens(text)


LOAD_BEARING = st.one_of(
    st.from_regex(r"\Ahttps://[a-z]{3,8}\.(com|org)/[a-z0-9]{1,8}\Z"),
    st.from_regex(r"\A20[0-9]{2}-[01][0-9]-[0-3][0-9]\Z"),
    st.from_regex(r"\A[1-9][0-9]{0,2}(\.[0-9]{1,3}){1,3}\Z"),
    st.from_regex(r"\A[1-9][0-9]{0,3}(GB|MB|ms|h)\Z"),
    st.from_regex(r"\A(src|lib)/[a-z]{2,6}/[a-z]{2,8}\.(py|cs|yaml)\Z"),
    st.from_regex(r"\A[a-z]{2,6}[A-Z][a-z]{2,6}\Z"),
    st.from_regex(r"\A[a-z]{2,5}_[a-z]{2,5}\Z"),
    st.from_regex(r"\A[a-z]{2,5}-[a-z0-9]{2,5}\Z"),
    st.from_regex(r"\A[A-Z]{3,6}[0-9]{0,2}\Z"),
    st.from_regex(r"\A[1-9][0-9]{2,5}\Z"),
)
FILLER = st.lists(st.sampled_from(["the", "note", "says", "we", "keep", "this", "fact", "about", "it"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(FILLER, LOAD_BEARING, FILLER)
def test_dropping_the_only_occurrence_of_a_token_from_a_small_source_fails(before, token, after):
    source = " ".join([*before, token, *after]) + "."
    merged = source.replace(token, "#" * len(token))
    assume(fold_case(token) not in fold_case(merged))
    report = check_merge([source], merged)
    assert not report.passed
    assert fold_case(token) in {fold_case(t) for t in report.missing}


def test_missing_tokens_are_named_in_source_order_of_collection():
    report = check_merge(["A 111. B https://x.org/p 222."], "A B.")
    assert report.missing[0] == "https://x.org/p"  # URL class runs first
    assert re.fullmatch(r"retention \d+% below 95% floor — missing \d+/\d+ load-bearing tokens", report.reason)


_GATE_ALPHABET = st.sampled_from(list("aZ09._-/\\: \n,(") + ["Sep", "march", "ſep", "2025", "v1", "GB", "x_y",
                                                           "://", "http", "é", "١", "\u200d", "aB", "fooBar",
                                                           "a.b", "-x", "..", "C:\\", "~/", ".md", "._x", "A1_"])


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_GATE_ALPHABET, max_size=40).map("".join))
@example("self._cache, Z00 and 7Z")  # a dot before an underscore; all caps with a digit; a unit in upper case
def test_the_scan_shortcuts_never_change_the_matches(text):
    """The guard skips a class when the text lacks what it needs (a month name, a dot, a slash…) and scans
    identifier classes only around their markers: the matches must be exactly those of scanning every class
    over the whole text, in the same order."""
    assert list(guard_tokens.iter_matches(text)) == list(guard_tokens.iter_matches(text, shortcuts=False))


_CHUNK_ALPHABET = st.sampled_from(list("aZ09._-/\\: \n\t,(") + ["\xa0", "\u2028", "\u3000", "\x1c", "\x1f", "\x85",
                                                              "Sep 3, 2025", "4 march 2024", "2025-06-11",
                                                              "http://x.io/a b", "v1.2", "32GB", "a.b", "fooBar",
                                                              "x_y", "C:\\t\\a.md", "~/n/a.md", "é", "١", "\u200d", ". ", "1.2. "])


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CHUNK_ALPHABET, max_size=60).map("".join))
@example("see http://x.io/a\x1cb")  # Python splits at U+001C; .NET's URL class runs through it
def test_scanning_distinct_chunks_finds_what_scanning_the_text_finds(text):
    """A long text is scanned as its distinct white-space-delimited chunks (the month-name dates over the
    whole text): the matches, and their order, must be those of a full scan of every class."""
    assert list(guard_tokens.iter_matches(text, compact_from=0)) == list(guard_tokens.iter_matches(text, shortcuts=False))


_DATE_ALPHABET = st.sampled_from([" ", "  ", "\n", "\xa0", "\u3000", ",", ".", "x", "(", "\u200d", "1", "12", "31st",
                                   "2025", "١٢٣٤", "20250", "June", "jun", "Sept", "ſeptember", "MAY", "Dec.", "août"])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_DATE_ALPHABET, max_size=30).map("".join))
@example("on June 11, 2025 and 4 march 2024")
@example("Sept.\xa0\xa031st,\u3000 2025")
@example("(ſeptember.  31st,\n\n2025)")  # the longest written date: 10 characters, then 5, before the year
@example("on 31 September.,  \xa02025.")  # the longest reverse one: 2, then 11
def test_month_name_dates_searched_near_years_are_the_dates_a_full_scan_finds(text):
    """The month-name dates are searched only in windows that end at a year (or, with years everywhere, over the
    whole text): the matches, and their order, must be those of scanning the whole text (white-space runs of
    any length, Unicode digits and spaces)."""
    only = frozenset({2, 3})
    expected = list(guard_tokens.iter_matches(text, only, shortcuts=False))
    for chars_per_year in (1, 64):  # 1: windows for any number of years; 64: the default budget
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(guard_tokens, "_CHARS_PER_YEAR", chars_per_year)
            assert list(guard_tokens.iter_matches(text, only)) == expected


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_CHUNK_ALPHABET, max_size=40).map("".join), min_size=1, max_size=3),
       st.lists(_CHUNK_ALPHABET, max_size=50).map("".join), st.data())
def test_only_the_tokens_of_lost_units_are_searched_yet_every_verdict_is_a_substring_test(sources, merged, data):
    """check_merge searches only the tokens of source units (text between ". ", or the white-space chunks of
    a long one) the body lacks: each token's `retained` must still be exactly "its folded form occurs in the
    folded body", for long texts (compacted) and short ones, and for long parts."""
    if data.draw(st.booleans()):  # keep part of a source, as a real merged body does
        merged = data.draw(st.sampled_from(sources)) + merged
    _assert_verdicts_are_substring_tests(sources, merged, data.draw(st.sampled_from([0, 4096])),
                                         data.draw(st.sampled_from([0, 3, 1024])))


@pytest.mark.parametrize("sources, merged", [
    ([". 1.2. x"], "1.2"),  # the body ends with a part that had a "." after it in the source
    (["a.b. http://x.io/a.  1.2"], "http://x.io/a  1.2. a.b"),
    (["Port 5432. Pool 20. Host db-01. Since 2025."], "Since 2025. Host db-01. Pool 20"),
    (["\n\n\n", ". . v1.2"], "\n"),  # sources and a body of nothing but separators
])
@pytest.mark.parametrize("long_part", [0, 3, 1024])
def test_verdicts_on_reordered_sentences_are_substring_tests(sources, merged, long_part):
    _assert_verdicts_are_substring_tests(sources, merged, 0, long_part)


def _assert_verdicts_are_substring_tests(sources, merged, compact_from, long_part):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard_tokens, "_COMPACT_FROM", compact_from)
        patch.setattr(guard_tokens, "_LONG_PART", long_part)
        guard._source_union.cache_clear()
        guard_tokens.source_scan.cache_clear()
        report = check_merge(sources, merged)
    guard._source_union.cache_clear()
    guard_tokens.source_scan.cache_clear()
    folded = fold_case(merged)
    assert [t.retained for t in report.tokens] == [fold_case(t.token) in folded for t in report.tokens]
    expected = {fold_case(t) for s in sources for t, _ in guard_tokens.iter_matches(s, shortcuts=False) if t}
    assert {fold_case(t.token) for t in report.tokens} == expected


def test_the_piecewise_substring_search_finds_what_plain_search_finds_across_piece_boundaries():
    """The body is searched in growing pieces (16 KB, 64 KB, …): a needle straddling a piece boundary, or first
    occurring deep in a long body, is still found, and nothing absent is."""
    rng = random.Random(5)
    haystack = list("".join(rng.choice("abc0123 .-") for _ in range(90_000)))
    needles = [f"needle{i}x{'y' * rng.randint(0, 40)}" for i in range(60)]
    for needle, at in zip(needles[:40], [16379, 81910, 86000, 5, 30000, 4600, 21000] + list(range(40000, 40000 + 33 * 100, 100))):
        haystack[at:at + len(needle)] = needle  # the first two straddle piece boundaries
    haystack = "".join(haystack)
    expected = {n for n in needles if n in haystack}
    assert len(expected) >= 30
    assert guard._substrings_found(needles, haystack) == expected
    assert guard._substrings_found(needles[:5], haystack) == {n for n in needles[:5] if n in haystack}


def test_a_needle_found_only_inside_another_needles_match_is_found():
    """Tokens nest ("8.71" inside "v8.71.99"'s version, "15" inside a date): a token that occurs only inside
    another token's place in the body is still in the body."""
    needles = ["2025-08-15", "08-15", "8-1", *(f"absent{i}" for i in range(8))]
    haystack = "release on 2025-08-15 port 9320." * 3
    assert guard._substrings_found(needles, haystack) == {"2025-08-15", "08-15", "8-1"}


def test_a_lone_surrogate_in_the_body_does_not_crash_the_one_pass_search():
    """Would fail with the automaton fed raw text: ahocorasick-rs encodes to UTF-8 and raised UnicodeEncodeError
    on a lone surrogate (valid in .NET strings and in Python's). Eight or more lost tokens take that path."""
    source = " ".join(f"host-{i}.internal v{i}.2.3 2025-01-{i + 10:02d}" for i in range(9))
    body = "\ud800 " + source[: len(source) // 3] + " \udfff"
    with_surrogates = check_merge([source], body)
    without = check_merge([source], body.replace("\ud800", "?").replace("\udfff", "?"))
    assert (with_surrogates.passed, with_surrogates.missing) == (without.passed, without.missing)
    assert len(with_surrogates.missing) >= 8
