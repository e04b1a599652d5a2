"""The real llama.cpp path with the offline default model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M).

Kept short: the model is loaded once; every test runs with the network blocked (no socket may even be
attempted while loading or deciding). `make test` installs and assembles the model first."""
import socket

import pytest

from memgui.core.curation.protocol import parse_reply
from memgui.core.curation.types import Candidate, DecisionKind, Proposal
from memgui.core.decide import model_files as decider_model, prompts as dp
from memgui.core.decide.llm import PIPELINE_SINGLE, LlamaDecider
from memgui.core.decide.selftest import run_selftest
from memgui.core.tasks import run_to_end

pytestmark = pytest.mark.realmodel

PROPOSAL = Proposal(title="Standup", anchor_name="team rituals",
                    content="The team standup is every weekday at 09:30 in the Zoom room https://zoom.example.com/j/4471.")
SAME = Candidate("doc-standup", "anchor:team-rituals", "team rituals",
                 "Daily standup: weekdays at 09:30, Zoom https://zoom.example.com/j/4471. Ana runs it.")
OTHER = Candidate("doc-retro", "anchor:team-rituals", "team rituals",
                  "The sprint retro is every second Friday at 15:00.")


class NetworkBlocked:
    """Every way to open a connection raises, and is recorded (in case a library swallowed the error)."""

    def __init__(self):
        self.attempts = []

    def _refuse(self, what):
        def refuse(*args, **kwargs):
            self.attempts.append((what, args[1:2] if what.startswith("socket.") else args[:1]))
            raise OSError(f"network blocked in tests ({what})")
        return refuse

    def install(self, mp):
        mp.setattr(socket.socket, "connect", self._refuse("socket.connect"))
        mp.setattr(socket.socket, "connect_ex", self._refuse("socket.connect_ex"))
        mp.setattr(socket, "create_connection", self._refuse("create_connection"))
        mp.setattr(socket, "getaddrinfo", self._refuse("getaddrinfo"))


@pytest.fixture(scope="module")
def network():
    blocked = NetworkBlocked()
    with pytest.MonkeyPatch.context() as mp:
        blocked.install(mp)
        yield blocked
    assert blocked.attempts == [], f"network use while loading or deciding: {blocked.attempts}"


@pytest.fixture(scope="module")
def decider(network):
    path = decider_model.default_model_path()
    assert path is not None, "the default decider model is not installed: run `memgui models install`"
    d = LlamaDecider(path, n_threads=2, n_ctx=4096, timeout_s=0)
    load_seconds = run_to_end(d.load())  # loading happens with the network blocked
    assert load_seconds > 0 and d.loaded
    yield d
    d.close()


def test_one_real_decision_through_the_whole_protocol(decider, network):
    streamed = []
    result = run_to_end(decider.decide(PROPOSAL, [SAME, OTHER], full_candidate_content=True),
                        lambda p: streamed.append(p.payload or ""))
    assert result.error is None and result.decision is not None
    assert parse_reply(result.raw_reply) == result.decision
    assert result.model_id == "qwen2.5-coder-1.5b-instruct-q4_k_m"
    calls = result.extra["calls"]
    assert [c["stage"] for c in calls][:2] == ["classify", "classify"]
    assert all(c["reply"] in (dp.SAME, dp.DIFFERENT) for c in calls[:2])  # the classifier grammar held
    assert "".join(streamed) == "".join(c["reply"] for c in calls)
    assert result.prompt_tokens > 300 and result.completion_tokens >= 2
    d = result.decision
    if result.extra["same_fact_ids"]:
        assert d.kind in (DecisionKind.UPDATE, DecisionKind.CONSOLIDATE) and d.merged_body
        assert set(d.consolidation_target_ids or (d.target_document_id,)) <= {"doc-standup", "doc-retro"}
    else:
        assert d.kind is DecisionKind.CREATE
    assert network.attempts == []


def test_every_grammar_compiles_with_the_models_vocabulary(decider):
    engine = decider.engine
    for grammar in (dp.CLASSIFY_GRAMMAR, dp.CLASSIFY_WITH_REASON_GRAMMAR, dp.protocol_grammar([]),
                    dp.protocol_grammar(["doc-1", 'doc-"quoted"\\x', "doc-ünï"], allow_reason=False),
                    dp.protocol_grammar(["doc-a", "doc-b"])):
        assert engine.grammar_is_valid(grammar), grammar
    assert not engine.grammar_is_valid("root ::= ( unclosed")


def test_single_pipeline_grammar_only_admits_the_protocol_with_existing_ids(decider):
    single = LlamaDecider(engine=decider.engine, pipeline=PIPELINE_SINGLE, max_output_tokens=24, timeout_s=0)
    result = run_to_end(single.decide(PROPOSAL, [SAME, OTHER], full_candidate_content=True))
    assert result.error is None and result.decision is not None  # the grammar guarantees a parse
    d = result.decision
    named = set(d.consolidation_target_ids or ((d.target_document_id,) if d.target_document_id else ()))
    assert named <= {"doc-standup", "doc-retro"}
    first_line = result.raw_reply.split("\n", 1)[0]
    assert first_line.split(" ", 1)[0] in ("SKIP", "CREATE", "UPDATE", "CONSOLIDATE")


def test_the_default_model_passes_its_capability_selftest(decider):
    report = run_selftest(decider, cache=False)
    assert report.capable, report.details
