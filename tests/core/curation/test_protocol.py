"""Curator protocol (netclaw-compat §8): ports of Netclaw's T/CurationPromptBuilderTests plus memgui's REASON line,
exact line shapes, .NET text handling and a never-crash property."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from memgui.core.curation.protocol import (
    build_user_message,
    curator_system_prompt,
    parse_reply,
    prompt_hash,
    truncate_content,
)
from memgui.core.curation.types import Candidate, DecisionKind, Proposal
from memgui.core.merge.guard import check_merge


def _proposal(content: str = "proposal content", **kw) -> Proposal:
    values = dict(title="Test", content=content, anchor_name="test", freshness_at=1000)
    values.update(kw)
    return Proposal(**values)


def _candidate(content: str = "existing content", doc_id: str = "doc-abc123", **kw) -> Candidate:
    values = dict(document_id=doc_id, anchor_id="anchor:existing", canonical_name="existing",
                  markdown_body=content, freshness_at=900, confidence=0.85)
    values.update(kw)
    return Candidate(**values)


# ── ParseResponse ports ──────────────────────────────────────────────────────────────────────────


def test_parses_skip_and_create():
    assert parse_reply("SKIP").kind is DecisionKind.SKIP
    assert parse_reply("CREATE").kind is DecisionKind.CREATE


def test_parses_update_with_id():
    decision = parse_reply("UPDATE doc-abc123")
    assert decision.kind is DecisionKind.UPDATE
    assert decision.target_document_id == "doc-abc123"


def test_parses_consolidate_with_several_ids_first_is_target():
    decision = parse_reply("CONSOLIDATE doc-abc123 doc-def456")
    assert decision.kind is DecisionKind.CONSOLIDATE
    assert decision.consolidation_target_ids == ("doc-abc123", "doc-def456")
    assert decision.target_document_id == "doc-abc123"


def test_keywords_are_case_insensitive():
    assert parse_reply("skip").kind is DecisionKind.SKIP
    assert parse_reply("create").kind is DecisionKind.CREATE
    assert parse_reply("update doc-1").kind is DecisionKind.UPDATE
    assert parse_reply("consolidate a b").consolidation_target_ids == ("a", "b")


def test_surrounding_whitespace_is_ignored():
    assert parse_reply("  SKIP  ").kind is DecisionKind.SKIP
    assert parse_reply("\nCREATE\n").kind is DecisionKind.CREATE


@pytest.mark.parametrize("reply", [None, "", "   ", "UNKNOWN_COMMAND", "UPDATE", "UPDATE   ",
                                   "I think we should SKIP", "Decision: CREATE", "CONSOLIDATE"])
def test_empty_garbage_or_leading_prose_gives_no_decision(reply):
    assert parse_reply(reply) is None


def test_think_block_before_keyword_is_stripped():
    decision = parse_reply("<think>These look similar but the dates differ, so they're distinct.</think>\nCREATE")
    assert decision.kind is DecisionKind.CREATE


def test_multiline_think_block_then_inline_keyword():
    decision = parse_reply("<think>\nstep 1\nstep 2\n</think>UPDATE doc-42")
    assert decision.kind is DecisionKind.UPDATE and decision.target_document_id == "doc-42"


def test_unclosed_think_block_gives_no_decision():
    assert parse_reply("<think>reasoning with no closing tag and no answer") is None


def test_think_tags_any_case_and_several_blocks_and_unclosed_tail():
    assert parse_reply("<THINK>a</Think> <think>b</think>SKIP").kind is DecisionKind.SKIP
    # an answer before an unclosed think survives, the tail is cut
    assert parse_reply("CREATE\n<think>second thoughts, maybe SKIP").kind is DecisionKind.CREATE


def test_update_with_merged_body():
    decision = parse_reply("UPDATE doc-abc123\n---\nConfig path is /etc/app/config.yaml (previously /etc/app/config.json).")
    assert decision.kind is DecisionKind.UPDATE and decision.target_document_id == "doc-abc123"
    assert decision.merged_body == "Config path is /etc/app/config.yaml (previously /etc/app/config.json)."
    assert decision.from_llm_tier


def test_consolidate_with_merged_body():
    decision = parse_reply(
        "CONSOLIDATE doc-abc123 doc-def456\n---\n"
        "Akka.NET GitHub repository: https://github.com/akkadotnet/akka.net.\n"
        "Latest stable release is 1.5.62 (previously 1.5.60)."
    )
    assert decision.kind is DecisionKind.CONSOLIDATE and len(decision.consolidation_target_ids) == 2
    assert "1.5.62" in decision.merged_body and "1.5.60" in decision.merged_body
    assert decision.from_llm_tier


def test_keyword_only_update_and_consolidate_are_valid_without_body():
    update = parse_reply("UPDATE doc-42")
    assert update.kind is DecisionKind.UPDATE and update.target_document_id == "doc-42" and update.merged_body is None
    consolidate = parse_reply("CONSOLIDATE doc-1 doc-2")
    assert len(consolidate.consolidation_target_ids) == 2 and consolidate.merged_body is None


def test_whitespace_only_body_is_absent():
    decision = parse_reply("UPDATE doc-42\n---\n   \n  ")
    assert decision.kind is DecisionKind.UPDATE and decision.merged_body is None


def test_skip_and_create_never_carry_a_body():
    for reply in ["SKIP\n---\nirrelevant trailing text", "CREATE\n---\nirrelevant trailing text"]:
        decision = parse_reply(reply)
        assert decision is not None and decision.merged_body is None


def test_think_block_before_body_protocol():
    decision = parse_reply("<think>These are the same fact, worded differently.</think>\n"
                           "UPDATE doc-abc123\n---\nMerged content preserving both sources.")
    assert decision.kind is DecisionKind.UPDATE
    assert decision.merged_body == "Merged content preserving both sources."


# ── Parser details (netclaw-compat §8.4) ──────────────────────────────────────────────────────────────────


def test_reason_strings_and_llm_tier_flag():
    assert parse_reply("SKIP").reason == "LLM decision: SKIP"
    assert parse_reply("CREATE because").reason == "LLM decision: CREATE"
    assert parse_reply("UPDATE doc-9\n---\nx").reason == "LLM decision: UPDATE doc-9"
    assert parse_reply("CONSOLIDATE  a   b ").reason == "LLM decision: CONSOLIDATE a b"
    for reply in ["SKIP", "CREATE", "UPDATE d", "CONSOLIDATE d e"]:
        decision = parse_reply(reply)
        assert decision.from_llm_tier and decision.canonical_anchor_name is None


def test_prefix_tests_for_skip_and_create():
    assert parse_reply("SKIPPED, already known").kind is DecisionKind.SKIP
    assert parse_reply("CREATEs a new one").kind is DecisionKind.CREATE


def test_ids_are_used_raw_and_consolidate_reads_only_the_first_line():
    assert parse_reply("UPDATE doc-1.").target_document_id == "doc-1."
    decision = parse_reply("CONSOLIDATE doc-a, doc-b\nmore ids here\n---\nbody")
    assert decision.consolidation_target_ids == ("doc-a,", "doc-b")
    assert decision.merged_body == "body"


def test_separator_is_three_or_more_dashes_on_their_own_line():
    assert parse_reply("UPDATE d\n-----  \nbody").merged_body == "body"
    assert parse_reply("UPDATE d\n-- \nbody").merged_body is None
    assert parse_reply("UPDATE d\ntext --- inline\nbody").merged_body is None
    # the FIRST separator line starts the body; later ones are body text
    assert parse_reply("UPDATE d\n---\na\n---\nb").merged_body == "a\n---\nb"


def test_crlf_reply():
    decision = parse_reply("UPDATE doc-7\r\nREASON: newer value\r\n---\r\nline one\r\nline two\r\n")
    assert decision.target_document_id == "doc-7"
    assert decision.rationale == "newer value"
    assert decision.merged_body == "line one\r\nline two"


def test_dotnet_whitespace_rules():
    # U+001C is white space to Python's str.strip but not to .NET: the reply is not blank and not a keyword.
    assert parse_reply("\x1cSKIP") is None
    # U+3000 (ideographic space) is .NET white space
    assert parse_reply("\u3000SKIP\u3000").kind is DecisionKind.SKIP


# ── memgui's REASON line ──────────────────────────────────────────────────────────────────────────


def test_reason_line_fills_rationale_and_is_not_part_of_the_body():
    decision = parse_reply("UPDATE doc-abc123\nREASON: the old path is obsolete.\n---\nPath is /etc/a.yaml.")
    assert decision.rationale == "the old path is obsolete."
    assert decision.merged_body == "Path is /etc/a.yaml."
    assert decision.target_document_id == "doc-abc123"


@pytest.mark.parametrize("reply, kind", [
    ("SKIP\nREASON: already stored as doc-1", DecisionKind.SKIP),
    ("CREATE\nreason : different date", DecisionKind.CREATE),
    ("CONSOLIDATE a b\n\nREASON:  same server  \n---\nmerged", DecisionKind.CONSOLIDATE),
])
def test_reason_line_for_every_keyword(reply, kind):
    decision = parse_reply(reply)
    assert decision.kind is kind
    assert decision.rationale in {"already stored as doc-1", "different date", "same server"}


def test_no_reason_line_or_reason_after_separator():
    assert parse_reply("SKIP").rationale is None
    assert parse_reply("UPDATE d\n---\nREASON: part of the body").rationale is None
    assert parse_reply("UPDATE d\n---\nREASON: part of the body").merged_body == "REASON: part of the body"
    assert parse_reply("UPDATE d\nsome prose\nREASON: too late\n---\nb").rationale is None
    assert parse_reply("SKIP\nREASON:   ").rationale is None


def test_reason_line_does_not_change_netclaw_decision():
    """Netclaw's parser ignores the REASON line: the decision with it equals the decision without it."""
    for plain, with_reason in [
        ("SKIP", "SKIP\nREASON: x"),
        ("UPDATE d-1\n---\nbody", "UPDATE d-1\nREASON: x\n---\nbody"),
        ("CONSOLIDATE a b\n---\nbody", "CONSOLIDATE a b\nREASON: x\n---\nbody"),
    ]:
        a, b = parse_reply(plain), parse_reply(with_reason)
        assert (a.kind, a.target_document_id, a.consolidation_target_ids, a.merged_body, a.reason) == (
            b.kind, b.target_document_id, b.consolidation_target_ids, b.merged_body, b.reason)


# ── BuildUserMessage ports and exact shapes (netclaw-compat §8.3) ─────────────────────────────────────────


def test_user_message_includes_proposal_fields():
    proposal = _proposal("Latest version is 1.5.62", anchor_name="akka-net-release", title="Akka.NET Release")
    message = build_user_message(proposal, [], full_candidate_content=False)
    for line in ["PROPOSED:", "anchor: akka-net-release", "title: Akka.NET Release",
                 "content: Latest version is 1.5.62", "EXISTING CANDIDATES: none"]:
        assert line in message


def test_user_message_includes_candidates():
    message = build_user_message(_proposal("test content"), [_candidate()], full_candidate_content=False)
    assert "EXISTING CANDIDATES:" in message
    assert "[1] id=doc-abc123 anchor=existing" in message
    assert "content: existing content" in message


def test_user_message_exact_text():
    candidates = [_candidate("first body"), _candidate("  ", doc_id="doc-2", canonical_name="other", freshness_at=None)]
    message = build_user_message(_proposal(freshness_at=None), candidates, full_candidate_content=False)
    assert message == (
        "PROPOSED:\n"
        "  anchor: test\n"
        "  title: Test\n"
        "  content: proposal content\n"
        "  timestamp: \n"
        "\n"
        "EXISTING CANDIDATES:\n"
        "[1] id=doc-abc123 anchor=existing\n"
        "    content: first body\n"
        "    timestamp: 900\n"
        "[2] id=doc-2 anchor=other\n"
        "    content: (empty)\n"
        "    timestamp: \n"
    )
    assert build_user_message(_proposal(), [], full_candidate_content=True).endswith(
        "  timestamp: 1000\n\nEXISTING CANDIDATES: none\n")


def test_null_fields_render_as_nothing_like_dotnet():
    message = build_user_message(_proposal(title=None, anchor_name=None), [_candidate(None)], full_candidate_content=True)
    assert "  anchor: \n  title: \n" in message
    assert "    content: \n" in message  # full mode prints the raw (null) body


def test_long_proposal_content_is_truncated():
    message = build_user_message(_proposal("x" * 1000), [], full_candidate_content=True)
    assert "  content: " + "x" * 700 + "...\n" in message
    assert "x" * 701 not in message


def test_candidate_content_truncated_by_default_and_full_when_requested():
    long_body = "y" * 1000
    assert long_body not in build_user_message(_proposal(), [_candidate(long_body)], full_candidate_content=False)
    full = build_user_message(_proposal("p" * 1000), [_candidate(long_body), _candidate("z" * 900, doc_id="d2")],
                              full_candidate_content=True)
    assert long_body in full and "z" * 900 in full  # every candidate in full
    assert "p" * 701 not in full  # the proposal is always a preview


def test_truncation_boundary_and_empty():
    assert truncate_content("a" * 700) == "a" * 700
    assert truncate_content("a" * 701) == "a" * 700 + "..."
    assert truncate_content("") == truncate_content(None) == truncate_content(" \n\t\u3000") == "(empty)"


def test_truncation_counts_utf16_units_and_never_splits_a_character():
    assert truncate_content("\U0001F600" * 350) == "\U0001F600" * 350  # exactly 700 units
    assert truncate_content("a" + "\U0001F600" * 350) == "a" + "\U0001F600" * 349 + "..."
    assert truncate_content("é" * 701) == "é" * 700 + "..."


def test_prompt_hash():
    h = prompt_hash("system", "user")
    assert re.fullmatch(r"[0-9a-f]{64}", h)
    assert h == prompt_hash("system", "user")
    assert h != prompt_hash("system", "user ") != prompt_hash("System", "user")
    assert prompt_hash("ab", "c") != prompt_hash("a", "bc")
    prompt_hash("\ud800", "x")  # a lone surrogate does not crash


# ── System prompt ────────────────────────────────────────────────────────────────────────────────


def test_system_prompt_names_all_four_keywords_and_the_body_rules():
    prompt = curator_system_prompt()
    for word in ["SKIP", "UPDATE", "CONSOLIDATE", "CREATE", "---", "REASON:", "LOSSLESS", "previously"]:
        assert word in prompt
    assert prompt == prompt.rstrip()


def test_system_prompt_sample_replies_parse_and_their_merges_keep_tokens():
    prompt = curator_system_prompt()
    samples = prompt.split("Sample replies:", 1)[1].strip().split("\n\n")
    decisions = [parse_reply(sample) for sample in samples]
    assert [d.kind for d in decisions] == [DecisionKind.SKIP, DecisionKind.UPDATE, DecisionKind.CONSOLIDATE,
                                           DecisionKind.CREATE]
    assert all(d.rationale for d in decisions[:3])
    update = decisions[1]
    assert update.target_document_id == "doc-7f3a21" and "previously" in update.merged_body
    consolidate = decisions[2]
    assert consolidate.consolidation_target_ids == ("doc-7f3a21", "doc-0c9e44")
    # the example merged body is itself lossless against the facts it names
    source = "The staging DB is db-staging-2, port 5433, config deploy/staging/db.yaml, connection limit 120."
    assert check_merge([source], consolidate.merged_body).passed


# ── Properties ───────────────────────────────────────────────────────────────────────────────────


@settings(max_examples=400, deadline=None)
@given(st.text(st.characters(exclude_categories=()), max_size=200))
def test_arbitrary_unicode_never_crashes_the_parser(text):
    decision = parse_reply(text)
    if decision is not None:
        assert decision.from_llm_tier
        assert decision.merged_body is None or decision.merged_body.strip()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["SKIP", "CREATE", "UPDATE doc-1", "CONSOLIDATE a b"]),
       st.text(st.characters(exclude_categories=("Cs",)), max_size=80))
def test_keyword_line_decides_whatever_follows(keyword, tail):
    decision = parse_reply(keyword + "\n" + tail)
    assert decision is not None
    assert decision.kind.value == keyword.split()[0]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=1500), st.text(max_size=50))
def test_user_message_never_crashes_and_keeps_the_shape(content, title):
    message = build_user_message(_proposal(content, title=title), [_candidate(content)], full_candidate_content=False)
    assert message.startswith("PROPOSED:\n  anchor: test\n")
    assert "\nEXISTING CANDIDATES:\n[1] id=doc-abc123 anchor=existing\n" in message


_THINK_REFERENCE = re.compile(r"<[Tt][Hh][Ii][Nn][Kk]>.*?</[Tt][Hh][Ii][Nn][Kk]>", re.DOTALL)  # the old parser


def _reference_strip(text):
    from memgui.core.netfx import fold_case

    stripped = _THINK_REFERENCE.sub("", text)
    at = fold_case(stripped).find("<THINK>")
    return stripped[:at] if at >= 0 else stripped


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["<think>", "</think>", "<THINK>", "</Think>", "x", "UPDATE doc-1", "\n---\nbody",
                                 "<thınk>", " ", "SKIP"]), max_size=14).map("".join))
def test_think_blocks_are_stripped_exactly_as_the_regex_does(text):
    from memgui.core.curation.protocol import strip_think_blocks

    assert strip_think_blocks(text) == _reference_strip(text)


def test_a_reply_of_unclosed_think_tags_is_unusable_not_slow():
    from memgui.core.curation.protocol import parse_reply

    assert parse_reply("<think>" * 14_000) is None  # the regex version rescanned the rest from every tag
    assert parse_reply("<think>a</think>" * 6_000 + "SKIP").kind == DecisionKind.SKIP
