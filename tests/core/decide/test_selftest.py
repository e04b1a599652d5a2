"""Capability self-test: canary pairs through the production prompt; verdict cached per model file."""
import os

import pytest

from memgui.core.curation.types import CurationDecision, DeciderResult, DecisionKind
from memgui.core.decide import prompts as dp
from memgui.core.decide.selftest import cached_selftest, canaries, run_selftest, selftest_work
from memgui.core.tasks import Cancelled, CancelToken, run_to_end

EXPECTED = {(c.existing, c.new): c.expected for c in canaries()}


class PairDecider:
    """Answers canaries through `classify_pair`, like LlamaDecider; `answer(existing, new)` decides."""

    pipeline = "two-stage"

    def __init__(self, model_path=None, answer=None, model_id="fake-model"):
        self.model_path = model_path
        self.model_id = model_id
        self.answer = answer or (lambda e, n: EXPECTED[(e, n)])
        self.calls = 0

    def classify_pair(self, existing, new, *, cancel=None, timeout_s=None):
        self.calls += 1
        yield from ()
        return self.answer(existing, new)


class ProtocolOnlyDecider:
    """A Decider with only `decide` (e.g. another LLM tier): SAME → UPDATE, DIFFERENT → CREATE."""

    model_id = "protocol-only"

    def decide(self, proposal, candidates, *, full_candidate_content, cancel=None, timeout_s=None):
        yield from ()
        same = EXPECTED[(candidates[0].markdown_body, proposal.content)] == dp.SAME
        kind = DecisionKind.UPDATE if same else DecisionKind.CREATE
        return DeciderResult(decision=CurationDecision(kind, target_document_id="doc-canary" if same else None))


@pytest.fixture
def model_file(tmp_path):
    f = tmp_path / "some-model.Q4_K_M.gguf"
    f.write_bytes(b"GGUF fake weights")
    return f


def test_canaries_cover_paraphrases_near_misses_and_unrelated_pairs():
    kinds = sorted(c.kind for c in canaries())
    assert kinds == ["near-miss", "near-miss", "paraphrase", "paraphrase", "unrelated", "unrelated"]
    shot_texts = {s.existing for s in dp.classify_shots()} | {s.new for s in dp.classify_shots()}
    assert not shot_texts & ({c.existing for c in canaries()} | {c.new for c in canaries()})


def test_a_discriminating_model_is_capable():
    report = run_selftest(PairDecider(), cache=False)
    assert report.capable and (report.passed, report.total) == (6, 6)
    assert report.summary == "fake-model: capable (6/6 canary pairs right)"
    assert all(o.ok for o in report.details)


@pytest.mark.parametrize("constant", [dp.SAME, dp.DIFFERENT])
def test_a_constant_answer_is_not_capable(constant):
    report = run_selftest(PairDecider(answer=lambda e, n: constant), cache=False)
    assert not report.capable
    assert report.passed == (2 if constant == dp.SAME else 4)
    assert "not capable" in report.summary


def test_a_decider_with_only_the_protocol_is_tested_through_decide():
    report = run_selftest(ProtocolOnlyDecider(), cache=False)
    assert report.capable and report.passed == 6


def test_verdict_is_cached_per_model_file_and_redone_when_the_file_changes(model_file):
    assert cached_selftest(model_file) is None
    first = PairDecider(model_file)
    assert run_selftest(first).capable and first.calls == 6
    again = PairDecider(model_file, answer=lambda e, n: dp.SAME)  # would fail if it were asked
    report = run_selftest(again)
    assert report.capable and report.cached and again.calls == 0
    assert cached_selftest(model_file).capable
    os.utime(model_file, ns=(1, 1))  # the file changed (new mtime): test again
    assert cached_selftest(model_file) is None
    report = run_selftest(again)
    assert not report.capable and again.calls == 6 and not report.cached


def test_a_cached_verdict_reads_back_typed_and_one_with_a_canary_this_memgui_does_not_know_is_redone(model_file):
    import json

    from memgui.core.decide import selftest
    from memgui.core.decide.selftest import Answer, CanaryKind

    run_selftest(PairDecider(model_file))
    details = cached_selftest(model_file).details
    assert {type(d.kind) for d in details} == {CanaryKind} and {type(d.expected) for d in details} == {Answer}
    path = selftest._cache_path()
    data = json.loads(path.read_text(encoding="utf-8"))
    (entry,) = data.values()
    assert entry["details"][0]["kind"] == "paraphrase" and entry["details"][0]["expected"] == "SAME"  # as before
    entry["details"][0]["expected"] = "MAYBE"  # a newer memgui's answer
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cached_selftest(model_file) is None
    entry["details"][0] = ["not", "an", "object"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cached_selftest(model_file) is None


def test_an_erroring_model_is_not_capable_and_not_cached(model_file):
    def boom(e, n):
        raise RuntimeError("llama_decode returned -3")

    report = run_selftest(PairDecider(model_file, answer=boom))
    assert not report.capable and report.error == "llama_decode returned -3"
    assert "llama_decode returned -3" in report.summary
    assert cached_selftest(model_file) is None


def test_progress_and_cancel():
    seen = []
    run_to_end(selftest_work(PairDecider(), cache=False), seen.append)
    assert seen[0].stage == "self-test" and seen[-1].done == seen[-1].total == 6
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        run_selftest(PairDecider(), cache=False, cancel=token)


def test_report_round_trips_through_a_dict():
    from memgui.core.decide.selftest import SelfTestReport

    report = run_selftest(PairDecider(), cache=False)
    again = SelfTestReport.from_dict(report.to_dict())
    assert again.details == report.details and again.capable == report.capable
