"""The decisions-ahead queue's core: which cluster comes next, and taking turns with the reviewer's own call
(the background pauses while it runs, then goes on without judging a pair twice)."""
from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest

from factories import seed_document
from memgui.core.decide.ahead import ModelTurns, ahead_order, decider_result_of, fact_groups_of, model_key, review_ahead
from memgui.core.tasks import Cancelled, CancelToken, Progress, run_to_end


def test_the_order_is_the_cluster_on_screen_then_the_queue_after_it_then_round_to_the_start():
    keys = ["a", "b", "c", "d", "e"]
    assert ahead_order(keys, "c") == ["c", "d", "e", "a", "b"]  # the cluster on screen first (issue 24)
    assert ahead_order(keys, "c", skip={"c"}) == ["d", "e", "a", "b"]  # ... unless the reviewer works on it
    assert ahead_order(keys, "c", skip={"e", "a"}) == ["c", "d", "b"]
    assert ahead_order(keys, None) == keys  # nothing selected yet: from the top
    assert ahead_order(keys, "e", skip=set(keys) - {"b"}) == ["b"]
    assert ahead_order(keys, "zz") == keys  # the current cluster left the queue (filtered out)


@dataclass
class Call:
    reply: str
    margin: float = 1.0
    seconds: float = 0.01


class SteppedDecider:
    """Each judgement yields a few steps and checks the token between them (like llama.cpp between tokens).
    `step` is called at every step, so a test can act in the middle of a call."""

    model_id = "stepped"

    def __init__(self, step=lambda: None):
        self.step = step
        self.judged: list[tuple[str, str]] = []
        self.stopped = 0
        self.decided = 0

    def judge_pair(self, existing, new, *, cancel=None, timeout_s=None):
        self.judged.append((existing, new))
        for n in range(3):
            self.step()
            if cancel is not None and cancel.cancelled:
                self.stopped += 1
                return None  # the real decider's answer to a cancelled call: no verdict
            yield Progress("classifying", n, 3)
        return Call("SAME")

    def decide(self, proposal, candidates, *, full_candidate_content, cancel=None, timeout_s=None):
        from memgui.core.curation.types import CurationDecision, DeciderResult, DecisionKind

        self.decided += 1
        yield Progress("merging", 0, None, payload="x")
        body = "\n\n".join([candidates[0].markdown_body, proposal.content])
        decision = CurationDecision(DecisionKind.UPDATE, target_document_id=candidates[0].document_id,
                                    merged_body=body, from_llm_tier=True)
        return DeciderResult(decision, raw_reply=f"UPDATE {candidates[0].document_id}\n---\n{body}",
                             model_id=self.model_id)


@pytest.fixture
def three_docs(empty_store):
    docs = [seed_document(empty_store, f"Deploy note {n}", f"Atlas deploys run at 02:00 UTC (note {n}).")
            for n in range(3)]
    return empty_store.documents_by_ids([d.document_id for d in docs])


def test_the_background_pauses_while_the_reviewer_calls_and_resumes_without_judging_a_pair_twice(three_docs):
    turns = ModelTurns()
    reviewer_done = threading.Event()
    pauses = []
    holder = {}

    def step():
        # In the middle of the second pair the reviewer presses M: the background must let go of the model.
        if len(decider.judged) == 2 and "reviewer" not in holder:
            holder["reviewer"] = threading.Thread(target=reviewer_call)
            holder["reviewer"].start()
            started.wait(5)

    started = threading.Event()
    judged_during_reviewer_call = []

    def reviewer_call():
        with turns.reviewer():
            started.set()
            count = len(decider.judged)
            reviewer_done.wait(0.3)  # the reviewer's call runs a while
            judged_during_reviewer_call.append(len(decider.judged) - count)

    decider = SteppedDecider(step)
    work = review_ahead(three_docs, None, decider, turns)
    review = run_to_end(work, lambda p: pauses.append(p.stage) if p.stage == "paused" else None)
    holder["reviewer"].join(5)
    assert judged_during_reviewer_call == [0]  # nothing ran while the reviewer had the model
    assert "paused" in pauses
    assert decider.stopped == 1  # the interrupted call stopped at its next step
    # three pairs, the interrupted one judged again, the first one not: 3 + 1 calls
    assert len(decider.judged) == 4 and decider.judged[1] == decider.judged[2]
    assert review.groups_judged and review.verdict == "same" and decider.decided == 1
    assert review.merged_body and review.error is None


def test_an_interrupted_merge_is_drafted_again_not_cached_as_cancelled(three_docs):
    turns = ModelTurns()

    class Interrupted(SteppedDecider):
        def decide(self, proposal, candidates, **kw):
            if self.decided == 0:  # the reviewer takes the model during the first draft
                self.decided += 1
                with turns.reviewer():
                    yield Progress("merging", 0, None, payload="x")
                    assert kw["cancel"].cancelled
                from memgui.core.curation.types import DeciderResult

                return DeciderResult(None, error="cancelled", model_id=self.model_id)
            return (yield from super().decide(proposal, candidates, **kw))

    decider = Interrupted()
    review = run_to_end(review_ahead(three_docs, None, decider, turns))
    assert review.error is None and review.decision == "UPDATE" and decider.decided == 2


def test_only_an_explicit_cancel_stops_the_background(three_docs):
    turns, cancel = ModelTurns(), CancelToken()
    decider = SteppedDecider(lambda: cancel.cancel() if len(decider.judged) == 2 else None)
    with pytest.raises(Cancelled):
        run_to_end(review_ahead(three_docs, None, decider, turns, cancel=cancel))
    with turns.reviewer(), pytest.raises(Cancelled):  # waiting for its turn, it still hears the cancel
        turns.wait_turn(cancel)


def test_a_cached_review_gives_back_the_groups_and_the_decision(three_docs):
    review = run_to_end(review_ahead(three_docs, None, SteppedDecider(), ModelTurns()))
    groups = fact_groups_of(review)
    assert groups.largest == tuple(review.groups[0]) and groups.target == review.target
    assert len(groups.verdicts) == 3 and groups.apart_pairs() == []
    result = decider_result_of(review)
    assert result.decision.kind.value == "UPDATE" and result.decision.merged_body == review.merged_body
    assert result.model_id == "stepped" and result.extra["decided_ahead"]


def test_the_model_key_is_the_model_file(tmp_path):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")

    class FileDecider:
        model_path, pipeline, model_id = model, "two-stage", "m"

    key = model_key(FileDecider())
    assert str(model.resolve()) in key and key.endswith("two-stage")
    model.write_bytes(b"GGUF2")  # a rebuilt model file starts afresh
    assert model_key(FileDecider()) != key
    assert model_key(SteppedDecider()) == "id:stepped|"

