"""The decider pipeline, the protocol it produces and its grammars, with a scripted engine (no model).

The real llama.cpp path is tested in test_decide_real.py."""
import logging

import pytest

from decider_fakes import ScriptedEngine
from factories import document
from memgui.core.curation.protocol import parse_reply
from memgui.core.curation.types import Candidate, DecisionKind, Proposal
from memgui.core.decide import prompts as dp
from memgui.core.decide.llm import PIPELINE_SINGLE, LlamaDecider
from memgui.core.tasks import CancelToken, run_to_end

PROPOSAL = Proposal(title="Deploy", content="Atlas deploys run at 02:00 UTC with make deploy.", anchor_name="atlas")
SAME = Candidate("doc-same", "anchor:atlas", "atlas", "The atlas deploy runs at 02:00 UTC using make deploy.")
OTHER = Candidate("doc-other", "anchor:atlas", "atlas", "Atlas backups are kept for 30 days.")
ALIAS = Candidate("doc-alias", "anchor:atlas-service", "atlas service", "Deploys of atlas: 02:00 UTC, make deploy.")
from decider_fakes import MERGED  # noqa: E402  (the scripted editor's body: proved, so kept as written)


def decide(engine, candidates, **kw):
    opts = {k: kw.pop(k) for k in ("cancel", "timeout_s", "on_progress") if k in kw}
    decider = LlamaDecider(engine=engine, timeout_s=60, **kw)
    work = decider.decide(PROPOSAL, candidates, full_candidate_content=True,
                          cancel=opts.get("cancel"), timeout_s=opts.get("timeout_s"))
    return run_to_end(work, opts.get("on_progress"))


def test_same_fact_candidate_becomes_update_with_the_editor_body():
    engine = ScriptedEngine({"atlas deploy runs": "SAME"})
    seen = []
    result = decide(engine, [SAME, OTHER], on_progress=seen.append)
    d = result.decision
    assert (d.kind, d.target_document_id, d.merged_body) == (DecisionKind.UPDATE, "doc-same", MERGED)
    assert result.error is None and result.model_id == "scripted-model"
    assert [c[0] for c in engine.calls] == ["classify", "classify", "merge"]
    # the raw reply is a protocol reply the Netclaw parser reads the same way
    assert parse_reply(result.raw_reply) == d
    assert result.raw_reply.startswith("UPDATE doc-same\nREASON: ") and "\n---\n" + MERGED in result.raw_reply
    assert "doc-same" in d.rationale and "doc-other" in d.rationale
    # every stage's raw reply and token counts are kept
    calls = result.extra["calls"]
    assert [c["reply"] for c in calls] == ["SAME", "DIFFERENT", MERGED]
    assert result.prompt_tokens == sum(c["prompt_tokens"] for c in calls) > 0
    assert result.completion_tokens == 1 + 1 + len(MERGED.split())
    assert result.extra["same_fact_ids"] == ["doc-same"] and result.extra["different_ids"] == ["doc-other"]
    # streamed pieces add up to what each stage said
    streamed = "".join(p.payload for p in seen if p.payload)
    assert streamed == "SAME" + "DIFFERENT" + MERGED
    assert {p.stage for p in seen if p.payload} == {"classifying", "merging"}
    assert len(result.prompt_hash) == 64
    # the exact prompt text is kept for the audit record, and it names both candidates' bodies
    assert SAME.markdown_body in result.extra["prompt"] and OTHER.markdown_body in result.extra["prompt"]


def test_editor_prompt_gets_every_same_fact_body_newest_first():
    engine = ScriptedEngine({"atlas deploy runs": "SAME"})
    decide(engine, [SAME, OTHER])
    merge_prompt = engine.calls[-1][1]
    assert merge_prompt.index(PROPOSAL.content) < merge_prompt.index(SAME.markdown_body)
    assert OTHER.markdown_body not in merge_prompt
    assert dp.editor_system_prompt() in merge_prompt


def test_same_fact_under_another_anchor_or_several_become_consolidate():
    result = decide(ScriptedEngine({"Deploys of atlas": "SAME"}), [ALIAS])
    assert result.decision.kind is DecisionKind.CONSOLIDATE
    assert result.decision.consolidation_target_ids == ("doc-alias",)
    result = decide(ScriptedEngine({"atlas deploy runs": "SAME", "Deploys of atlas": "SAME"}), [SAME, OTHER, ALIAS])
    assert result.decision.consolidation_target_ids == ("doc-same", "doc-alias")
    # the editor's body states two of the notes; the alias's sentence it does not provably state comes back whole
    assert result.decision.merged_body.startswith(MERGED)
    assert result.decision.merged_body.endswith("]_\n" + ALIAS.markdown_body)


def test_no_same_fact_candidate_is_create_without_a_merge_call():
    engine = ScriptedEngine()
    result = decide(engine, [SAME, OTHER])
    assert result.decision.kind is DecisionKind.CREATE and result.decision.merged_body is None
    assert [c[0] for c in engine.calls] == ["classify", "classify"]
    assert "differs" in result.rationale


def test_without_candidates_the_answer_is_create_and_no_model_call():
    engine = ScriptedEngine()
    result = decide(engine, [])
    assert result.decision.kind is DecisionKind.CREATE and engine.calls == []


def test_classifier_prompt_has_the_system_prompt_and_all_six_shots_and_a_stable_prefix():
    engine = ScriptedEngine()
    decide(engine, [SAME, OTHER])
    (_, first, stable1, _, max1), (_, second, stable2, _, _) = engine.calls
    assert dp.classify_system_prompt() in first and max1 == dp.CLASSIFY_MAX_TOKENS
    shots = dp.classify_shots()
    assert len(shots) == 6 and sorted(s.answer for s in shots) == ["DIFFERENT"] * 3 + ["SAME"] * 3
    for s in shots:
        assert f"EXISTING: {s.existing}\nNEW: {s.new}" in first
    # the cache is reused only over the part every classifier prompt shares
    assert stable1 == stable2 and first[:stable1] == second[:stable1]
    assert SAME.markdown_body not in first[:stable1] and first[:stable1].endswith("DIFFERENT\n<|user|>\n")


def test_timeout_with_a_slow_model_gives_no_decision(caplog):
    engine = ScriptedEngine({"atlas deploy runs": "SAME"}, merged="word " * 200, delay=0.01)
    with caplog.at_level(logging.INFO, logger="memgui.decide"):
        result = decide(engine, [SAME], timeout_s=0.3)
    assert result.decision is None and result.error == "timeout"
    assert engine.pieces_sent < 200  # it stopped streaming, it did not run to the end
    assert result.extra["marker"] == "curation_llm_timeout"
    assert "curation_llm_timeout anchor=atlas timeoutSeconds=0.3" in caplog.text
    assert result.extra["calls"] and result.extra["calls"][0]["reply"] == "SAME"  # what was done is kept


def test_cancel_between_tokens_stops_the_stream():
    engine = ScriptedEngine({"atlas deploy runs": "SAME"}, merged="word " * 200, delay=0.001)
    cancel = CancelToken()

    def on_progress(p):
        if p.stage == "merging" and p.payload:
            cancel.cancel()

    result = decide(engine, [SAME], cancel=cancel, on_progress=on_progress)
    assert result.decision is None and result.error == "cancelled"
    assert engine.pieces_sent == 1 + 1  # the classifier's word and one merge piece, nothing after the cancel


def test_engine_failure_is_no_decision_with_the_error_marker(caplog):
    with caplog.at_level(logging.WARNING, logger="memgui.decide"):
        result = decide(ScriptedEngine(fail=RuntimeError("llama_decode returned -1")), [SAME])
    assert result.decision is None and result.error == "llama_decode returned -1"
    assert "curation_llm_error anchor=atlas" in caplog.text


def test_prompt_that_does_not_fit_the_context_is_an_error_not_a_crash():
    result = decide(ScriptedEngine(n_ctx=50), [SAME])
    assert result.decision is None and "does not fit the model context" in result.error


def test_merge_that_does_not_fit_keeps_the_keyword_without_a_body():
    engine = ScriptedEngine({"x" * 10: "SAME"})
    big = Candidate("doc-big", "anchor:atlas", "atlas", "x" * 3000)
    classify_len = len(dp.render_plain(dp.classify_messages(big.markdown_body, PROPOSAL.content)))
    engine.n_ctx = classify_len + 10  # room for the classifier, not for the editor's two full notes
    result = decide(engine, [big])
    assert result.decision.kind is DecisionKind.UPDATE and result.decision.merged_body is None
    assert "does not fit" in result.extra["merge_error"]


def test_single_pipeline_passes_the_protocol_grammar_and_parses_the_reply(caplog):
    reply = "CONSOLIDATE doc-same doc-alias\nREASON: same deploy fact\n---\n" + MERGED
    engine = ScriptedEngine(single_reply=reply)
    result = decide(engine, [SAME, ALIAS], pipeline=PIPELINE_SINGLE)
    [(kind, prompt, _, grammar, max_tokens)] = engine.calls
    assert kind == "protocol" and "PROPOSED:" in prompt and max_tokens > 100
    assert grammar == dp.protocol_grammar(["doc-same", "doc-alias"])
    assert result.decision.consolidation_target_ids == ("doc-same", "doc-alias")
    assert result.rationale == "same deploy fact" and result.raw_reply == reply

    with caplog.at_level(logging.WARNING, logger="memgui.decide"):
        bad = decide(ScriptedEngine(single_reply="Sure! I think UPDATE."), [SAME], pipeline=PIPELINE_SINGLE)
    assert bad.decision is None and bad.error == "unparseable" and bad.raw_reply == "Sure! I think UPDATE."
    assert "curation_llm_no_decision anchor=atlas responseLength=21" in caplog.text


def test_classify_pair_is_the_production_classifier():
    decider = LlamaDecider(engine=ScriptedEngine({"cat sleeps": "SAME"}))
    assert run_to_end(decider.classify_pair("The cat sleeps.", "The cat is asleep.")) == "SAME"
    assert run_to_end(decider.classify_pair("The dog barks.", "The cat is asleep.")) == "DIFFERENT"


def test_unknown_pipeline_and_missing_model_are_refused():
    with pytest.raises(ValueError, match="pipeline"):
        LlamaDecider(engine=ScriptedEngine(), pipeline="three-stage")
    with pytest.raises(ValueError, match="model path"):
        LlamaDecider()


def test_missing_model_file_is_no_decision(tmp_path):
    decider = LlamaDecider(tmp_path / "nope.gguf")
    result = run_to_end(decider.decide(PROPOSAL, [SAME], full_candidate_content=True))
    assert result.decision is None and "model file not found" in result.error


# -- prompts and grammars (pure) ----------------------------------------------------------------------

def test_protocol_grammar_names_only_the_candidate_ids():
    g = dp.protocol_grammar(["doc-1", 'odd"id\\x'])
    assert 'id ::= "doc-1" | "odd\\"id\\\\x"' in g
    assert '"UPDATE " id' in g and '"CONSOLIDATE " id (" " id)*' in g and '"\\n---\\n" body' in g
    assert "reason ::=" in g
    no_candidates = dp.protocol_grammar([])
    assert "merge" not in no_candidates and "UPDATE" not in no_candidates
    assert "reason" not in dp.protocol_grammar(["doc-1"], allow_reason=False)


def test_gbnf_literal_escapes_control_characters():
    assert dp.gbnf_literal('a"b\\c\nd\te\x01') == '"a\\"b\\\\c\\nd\\te\\x01"'


@pytest.mark.parametrize("keyword,body,kind", [
    ("SKIP", None, DecisionKind.SKIP),
    ("CREATE", None, DecisionKind.CREATE),
    ("UPDATE doc-1", "merged text\n\nsecond paragraph", DecisionKind.UPDATE),
    ("CONSOLIDATE doc-1 doc-2", "merged\n---\nwith a rule inside", DecisionKind.CONSOLIDATE),
])
def test_assembled_replies_parse_back(keyword, body, kind):
    raw = dp.assemble_reply(keyword, reason="because\nof this", body=body)
    d = parse_reply(raw)
    assert d.kind is kind and d.rationale == "because of this"
    assert d.merged_body == (body.strip() if body else None)


def test_editor_target_length_and_plain_template():
    assert dp.editor_target_words(["one two three four", "five six"]) == 4
    assert dp.editor_target_words(["a " * 100, "b " * 100]) == 160
    text = dp.render_plain([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}])
    assert text == "<|system|>\nS\n<|user|>\nU\n<|assistant|>\n"


def test_long_pair_contents_are_clipped_for_the_classifier():
    text = dp.pair_text("e" * 5000, "n")
    assert len(text) < 2100 and text.endswith("...\nNEW: n")
    assert dp.pair_text("  ", "n").startswith("EXISTING: (empty)")


# -- the sentence-union draft (no model) --------------------------------------------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from memgui.core.decide.drafts import UNION_MODEL_ID, union_draft  # noqa: E402
from memgui.core.decide.inputs import cluster_inputs  # noqa: E402
from memgui.core.merge.guard import check_merge  # noqa: E402

_sentence = st.from_regex(r"[A-Z][a-z]{2,8}( [a-z0-9.:/@-]{1,12}){1,6}[.!?]", fullmatch=True)
_body = st.lists(_sentence, min_size=1, max_size=5).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_body, st.lists(_body, min_size=1, max_size=3))
def test_union_draft_always_passes_the_guard(proposal_body, candidate_bodies):
    proposal = Proposal(title="t", content=proposal_body, anchor_name="a", memory_id="doc-new")
    cands = [Candidate(f"doc-{i}", "anchor:a", "a", b) for i, b in enumerate(candidate_bodies)]
    result = union_draft(proposal, cands)
    d = result.decision
    assert result.model_id == UNION_MODEL_ID and not d.from_llm_tier and result.error is None
    assert check_merge(candidate_bodies + [proposal_body], d.merged_body).passed
    assert d.merged_body.startswith(candidate_bodies[0].strip())  # the primary is kept verbatim
    expected = ("UPDATE",) if len(cands) == 1 else ("CONSOLIDATE",)
    assert d.kind.value in expected and parse_reply(result.raw_reply).merged_body == d.merged_body


def test_cluster_inputs_newest_document_is_the_proposal():
    def doc(i, updated):
        return document(f"body {i}", title=f"T{i}", anchor="x", document_id=f"doc-{i}", boundary=None, audience=None,
                        created_at=1, updated_at=updated)

    proposal, cands = cluster_inputs([doc(1, 30), doc(2, 10), doc(3, 20)], {"anchor:x": "X name"})
    assert proposal.memory_id == "doc-1" and proposal.content == "body 1" and proposal.anchor_name == "X name"
    assert [c.document_id for c in cands] == ["doc-2", "doc-3"] and cands[0].canonical_name == "X name"
    with pytest.raises(ValueError):
        cluster_inputs([doc(1, 1)])


def test_editor_prompt_lists_the_tokens_the_guard_looks_for():
    bodies = ["Deploy v3.2.1 on 2025-09-02, see https://x.example.com/a.", "Release 3.2.1 fixed #412 (owner priya@example.com)."]
    keep = dp.must_keep_tokens(bodies)
    assert "https://x.example.com/a" in keep and "2025-09-02" in keep and "3.2.1" in keep
    assert "x.example.com" not in keep  # inside the URL, so not listed on its own
    user = dp.editor_messages(bodies)[-1]["content"]
    assert "must contain each of these exactly as written: " in user and "2025-09-02" in user


def test_a_sentence_the_editor_adds_is_dropped_and_what_it_lost_comes_back_verbatim():
    engine = ScriptedEngine({"atlas deploy runs": "SAME"}, merged="Atlas deploys run at 02:00 UTC with make deploy, "
                                                                 "owned by the ops team.")
    src = Candidate("doc-same", "anchor:atlas", "atlas", "The atlas deploy runs at 02:00 UTC using make deploy. Logs: https://logs.example.com/atlas.")
    result = decide(engine, [src])
    body = result.decision.merged_body
    assert "ops team" not in body  # stated by no source
    assert result.extra["dropped_sentences"] == ["Atlas deploys run at 02:00 UTC with make deploy, owned by the ops team."]
    assert result.extra["restored_sentences"] == ["Atlas deploys run at 02:00 UTC with make deploy.",
                                                  "The atlas deploy runs at 02:00 UTC using make deploy.",
                                                  "Logs: https://logs.example.com/atlas."]
    assert "https://logs.example.com/atlas" in body and check_merge([PROPOSAL.content, src.markdown_body], body).passed
    assert "1 of its sentence(s) dropped" in result.decision.rationale and "restored verbatim" in result.decision.rationale


class ScoringEngine(ScriptedEngine):
    """An engine that can score answer words (like LlamaEngine): verdicts are SAME/DIFFERENT or a margin."""

    def score_words(self, prompt_tokens, *, stable_prefix, words):
        prompt = "".join(chr(t) for t in prompt_tokens)
        kind, verdict = self._reply(prompt)
        assert kind == "classify" and tuple(words) == (dp.SAME, dp.DIFFERENT)
        self.calls.append((kind, prompt, stable_prefix, None, 0))
        yield ""
        margin = {dp.SAME: 5.0, dp.DIFFERENT: -5.0}.get(verdict, verdict)
        return {dp.SAME: margin, dp.DIFFERENT: 0.0}


def test_a_near_tie_is_judged_different_and_the_margin_is_kept():
    engine = ScoringEngine({"atlas deploy runs": 0.2, "Deploys of atlas": 2.5})
    result = decide(engine, [SAME, ALIAS])
    calls = result.extra["calls"]
    assert [(c["reply"], c["margin"]) for c in calls[:2]] == [(dp.DIFFERENT, 0.2), (dp.SAME, 2.5)]
    assert result.decision.kind is DecisionKind.CONSOLIDATE and result.decision.consolidation_target_ids == ("doc-alias",)
    strict = decide(ScoringEngine({"atlas deploy runs": 0.2}), [SAME], same_margin=0.1)
    assert strict.decision.kind is DecisionKind.UPDATE


def test_scored_classification_honours_cancel():
    token = CancelToken()
    token.cancel()
    result = decide(ScoringEngine({"atlas deploy runs": dp.SAME}), [SAME], cancel=token)
    assert result.decision is None and result.error == "cancelled"


def test_close_frees_the_llama_model():
    """The window closes a decider it replaces (≈1 GB of weights each): close reaches llama.cpp's Llama.close."""
    from memgui.core.decide.engine import LlamaEngine

    class FakeLlama:
        closed = 0

        def close(self):
            FakeLlama.closed += 1

    engine = LlamaEngine("/models/none.gguf", n_threads=1, n_ctx=512)
    engine._llm = FakeLlama()
    decider = LlamaDecider(engine=engine)
    assert decider.loaded
    decider.close()
    assert FakeLlama.closed == 1 and not decider.loaded and not engine.loaded
    decider.close()  # closing twice is harmless
    assert FakeLlama.closed == 1
