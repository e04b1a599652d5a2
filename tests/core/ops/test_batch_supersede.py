"""accept-safe writes a supersession only with proof (issue 38, item 5): the model read it as the newer state, the
dates order the notes without doubt, no dated series, the draft passes its check and MergeGuard; else the
cluster is left for a person with the reason."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from factories import seed_document
from memgui.core.decide.supersede_reader import ANSWERS, SupersedeReader
from memgui.core.ops.batch import SUPERSEDE, BatchPlan, apply_batch, plan_batch, undo_batch
from memgui.core.ops.batch_supersede import read_supersessions
from memgui.core.ops.supersede import SupersedeRefusedError, prove_supersession
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import list_entries
from memgui.core.store.seams import read_plan
from memgui.core.tasks import run_to_end


def ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso + "+00:00").timestamp() * 1000)


class ScoringEngine:
    """A model that answers every supersede question with the same first-token logits."""

    model_id = "scripted-supersede"
    n_ctx = 16384  # one token a character: the prompt with its shots is ≈ 5,500

    def __init__(self, answer: str, logit: float = 5.0):
        self.answer, self.logit, self.questions = answer, logit, 0

    def render(self, messages):
        return "\n".join(m["content"] for m in messages)

    def tokenize(self, text):
        return [ord(c) for c in text]

    def score_words(self, tokens, *, stable_prefix, words):
        self.questions += 1
        yield ""
        return {w: (self.logit if w == self.answer else 0.0) for w in words}


@pytest.fixture
def store(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as s:
        yield s


def _sofa(store):
    """A status that moved on, the older note dated: read as a supersession, never written unattended."""
    a = seed_document(store, "Sofa order", "Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in "
                      "2–3 weeks.", anchor="sofa", freshness_at=ms("2025-03-04T09:00:00"))
    b = seed_document(store, "Sofa", "The KIVIK sofa arrived on 18 March 2025.", anchor="sofa-2",
                      freshness_at=ms("2025-03-18T17:00:00"))
    return a.document_id, b.document_id


def _insurance(store, extra=""):
    """A living value that changed, the older note undated: what accept-safe may write."""
    a = seed_document(store, "Car insurance", "The car insurance is with Allianz, policy 77-310, €41 a month." + extra,
                      anchor="car", freshness_at=ms("2024-05-04T09:00:00"))
    b = seed_document(store, "Car insurance", "The car insurance is with Direct Line, policy DL-5521, €36 a month.",
                      anchor="car-2", freshness_at=ms("2025-03-18T17:00:00"))
    return a.document_id, b.document_id


def _shots(store):
    a = seed_document(store, "Flu shot", "Flu shot on 2024-10-03 at the pharmacy, left arm.", anchor="flu-24",
                      freshness_at=ms("2024-10-03T18:00:00"))
    b = seed_document(store, "Flu shot", "Flu shot on 2025-10-10 at the pharmacy, left arm.", anchor="flu-25",
                      freshness_at=ms("2025-10-10T18:00:00"))
    return a.document_id, b.document_id


def _plan(store, rows, answer="UPDATE"):
    engine = ScoringEngine(answer)
    supersessions = run_to_end(read_supersessions(store, rows, lambda: SupersedeReader(engine)))
    return plan_batch(rows, supersessions=supersessions), engine


def test_a_supersession_the_model_reads_is_planned_written_audited_and_undone(store, tmp_path):
    old, new = _insurance(store)
    before = {d.document_id: d for d in store.documents(include_tombstoned=True)}
    plan, _ = _plan(store, [("c1", [old, new], None)])
    [write] = plan.writes
    assert write.decision == SUPERSEDE and write.target_id == new and write.tombstoned == [old]
    assert "previously" in write.merged_body and "Allianz" in write.merged_body and "€41" in write.merged_body
    saved = tmp_path / "plan.json"
    saved.write_text(json.dumps(plan.to_dict()), encoding="utf-8")
    plan = BatchPlan.from_dict(read_plan(str(saved)))  # a plan file keeps the supersession's reading
    assert plan.writes[0].supersede["order"] == [old, new]
    result = run_to_end(apply_batch(store, plan))
    assert [w.target_id for w in result.written] == [new] and not result.refused
    [entry] = list_entries(store, operation="merge")
    assert entry.details["supersede"]["order"] == [old, new]
    assert store.document(old).is_tombstoned
    undone = undo_batch(store, plan.batch_id)
    assert len(undone.undone) == 1
    assert {d.document_id: d for d in store.documents(include_tombstoned=True)} == before


def test_a_dated_series_is_left_for_a_person_whatever_the_model_reads(store):
    a, b = _shots(store)
    plan, engine = _plan(store, [("c1", [a, b], None)])
    assert plan.writes == [] and "dated series" in plan.excluded[0].reason
    assert engine.questions == 0  # the veto speaks before the model


@pytest.mark.parametrize("answer", [a for a in ANSWERS if a != "UPDATE"])
def test_a_model_that_does_not_read_a_newer_state_writes_nothing(store, answer):
    old, new = _sofa(store)
    plan, _ = _plan(store, [("c1", [old, new], None)], answer=answer)
    assert plan.writes == []
    if answer == "SERIES":  # read as a dated series: the reason says so
        assert "supersede: not a supersession: the model reads separate dated observations" in plan.excluded[0].reason


def test_the_write_time_proof_refuses_a_target_that_is_not_the_newest(store):
    old, new = _sofa(store)
    docs = {d.document_id: d for d in store.documents()}
    body = "Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 weeks."
    with pytest.raises(SupersedeRefusedError, match="no longer the newest"):
        prove_supersession(docs[old], [docs[new]], body)


def test_a_reading_a_person_is_shown_is_not_enough_for_an_unattended_write(store):
    """p(UPDATE) ≈ 0.73: read as a supersession for the reviewer (≥ 0.70 with a value replaced), under the 0.85
    accept-safe needs."""
    old, new = _insurance(store)
    engine = ScoringEngine("UPDATE", logit=1.7)
    supersessions = run_to_end(read_supersessions(store, [("c1", [old, new], None)], lambda: SupersedeReader(engine)))
    assert supersessions["c1"].reading.reading.value == "supersedes"
    plan = plan_batch([("c1", [old, new], None)], supersessions=supersessions)
    assert plan.writes == [] and "under the 0.85 an unattended write needs" in plan.excluded[0].reason


def test_an_older_statement_the_newest_note_does_not_speak_of_leaves_the_supersession_to_a_person(store):
    """Kept as dated history in the draft (never a stale present claim), but whether it still holds is unproved."""
    old, new = _insurance(store, extra=" The green card is in the glovebox.")
    plan, _ = _plan(store, [("c1", [old, new], None)])
    assert plan.writes == [] and "1 older statement(s) the newest note does not speak of" in plan.excluded[0].reason


def test_an_older_note_that_records_a_dated_event_leaves_the_supersession_to_a_person(store):
    """Ordered on 3 March, arrived on 18 March: the model reads the newer state, and the window shows it; but a
    dated record may as well be one of a dated series, so no dated series is involved is not proved."""
    old, new = _sofa(store)
    plan, engine = _plan(store, [("c1", [old, new], None)])
    assert engine.questions == 1 and plan.writes == []
    assert f"{old} records a dated event" in plan.excluded[0].reason


def test_a_restatement_is_never_written_as_a_newer_state_whatever_the_model_reads(store):
    """Two notes with the same values, the newer one reworded: no value is replaced, so the model alone would have to
    be sure (≥ 0.85) to show it as a supersession, and accept-safe never writes it."""
    old = seed_document(store, "Inhaler", "Asthma inhaler: Clenil Modulite 100mcg, 2 puffs twice daily.", anchor="a",
                        freshness_at=ms("2024-04-15T09:00:00")).document_id
    new = seed_document(store, "Inhaler", "Clenil Modulite 100mcg inhaler, 2 puffs twice a day, for the asthma.",
                        anchor="b", freshness_at=ms("2025-01-10T09:00:00")).document_id
    plan, _ = _plan(store, [("c1", [old, new], None)])
    assert plan.writes == [] and "states no value in place of an older one" in plan.excluded[0].reason


@pytest.mark.parametrize(("logit", "reading"), [(2.3, "undecided"), (3.0, "supersedes")])  # p ≈ 0.83, 0.91
def test_without_a_replaced_value_the_model_alone_needs_the_higher_bar(store, logit, reading):
    """A plan that happened states no value in place of the plan's: the model's reading counts from 0.85."""
    old = seed_document(store, "Kitchen", "We plan to repaint the kitchen in May, in a pale green.", anchor="k",
                        freshness_at=ms("2025-04-02T09:00:00")).document_id
    new = seed_document(store, "Kitchen", "Kitchen repainted in pale green; two pots of paint left in the cellar.",
                        anchor="k2", freshness_at=ms("2025-05-20T09:00:00")).document_id
    engine = ScoringEngine("UPDATE", logit=logit)
    found = run_to_end(read_supersessions(store, [("c1", [old, new], None)], lambda: SupersedeReader(engine)))["c1"]
    assert found.reading.reading.value == reading and found.reading.replaced == ""
    assert engine.questions == 1 and ("under 0.85" in found.reading.reason) == (reading == "undecided")


def test_a_pair_read_once_is_read_from_the_cache_the_next_run(store, tmp_path):
    """A second accept-safe run (or N in the window) asks the model nothing it asked before: the reading comes
    back from the reader's cache with the same answer and p; another model file is asked again."""
    from memgui.core.store.reader_cache import ReaderCache

    old, new = _sofa(store)
    model = tmp_path / "decider.gguf"
    model.write_bytes(b"weights")
    cache = ReaderCache(tmp_path / "cache.sqlite3")

    def read(engine):
        engine.model_path = model
        return run_to_end(read_supersessions(store, [("c1", [old, new], None)],
                                             lambda: SupersedeReader(engine, cache=cache)))["c1"]

    first_engine, again_engine = ScoringEngine("UPDATE"), ScoringEngine("OTHER")
    first = read(first_engine)
    again = read(again_engine)
    assert first_engine.questions == 1 and again_engine.questions == 0
    assert again.to_dict()["reading"] == first.to_dict()["reading"] == "supersedes"
    model.write_bytes(b"other weights")  # another model file: its own answers
    third_engine = ScoringEngine("OTHER")
    assert read(third_engine).to_dict()["reading"] != "supersedes" and third_engine.questions == 1


def test_a_supersession_only_a_shared_anchor_joined_is_left_for_a_person(store):
    old, new = _insurance(store)
    rows = [("c1", [old, new], None)]
    supersessions = run_to_end(read_supersessions(store, rows, lambda: SupersedeReader(ScoringEngine("UPDATE"))))
    assert len(plan_batch(rows, supersessions=supersessions, links={"c1": {frozenset((old, new))}}).writes) == 1
    plan = plan_batch(rows, supersessions=supersessions, links={"c1": frozenset()})
    assert plan.writes == [] and "supersede: only a shared anchor joins these notes" in plan.excluded[0].reason
