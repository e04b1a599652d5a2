"""core/decide/reader.py: the second reader asks one logit-scored YES/NO question per source (after the few-shot
turns), turns the two logits into p(yes), says why in one line, and caches the answer per (model, source, body)
so a second read never calls the model."""
from __future__ import annotations

import math

import pytest

from decider_fakes import ScriptedEngine
from memgui.core.decide.reader import (
    MAX_CHARS,
    FactReader,
    ReaderReport,
    ReaderUnavailable,
    p_yes_of,
    reader_messages,
    reader_model_key,
    reader_shots,
)
from memgui.core.store.reader_cache import ReaderCache
from memgui.core.tasks import Cancelled, CancelToken, run_to_end
from reader_fakes import ScoringEngine

SOURCES = ("The staging API listens on port 8443.", "Deploys need the ops-approve label on the PR.")
KEPT = "The staging API listens on port 8443; deploys need the ops-approve label on the PR."
LOSSY = "The staging API listens on port 8443."  # drops the second source's fact


def _drops_label(source, body):
    return "ops-approve" in source and "ops-approve" not in body


def _reader(engine, cache=None, key="model-a"):
    return FactReader(key, engine=engine, cache=cache)


def test_a_dropped_fact_is_a_no_for_that_source_only_with_its_reason(tmp_path):
    engine = ScoringEngine(_drops_label, margin=2.0)
    report = run_to_end(_reader(engine).read(SOURCES, LOSSY, document_ids=("doc-a", "doc-b")))
    assert [v.keeps for v in report.verdicts] == [True, False]
    assert not report.passed
    p = 1 / (1 + math.exp(2.0))
    assert report.verdicts[1].p_yes == pytest.approx(p, abs=1e-4)
    assert report.verdicts[1].reason == f"source 2: the reader says a fact changed or was dropped (p(yes)={p:.2f})"
    assert report.reason == report.verdicts[1].reason and report.verdicts[1].document_id == "doc-b"
    assert report.verdicts[0].reason.startswith("source 1: the reader says every fact is kept (p(yes)=0.88")
    # one question per source, each about that source and the whole body
    assert engine.questions == [(SOURCES[0], LOSSY), (SOURCES[1], LOSSY)]


def test_a_body_that_keeps_every_fact_passes():
    report = run_to_end(_reader(ScoringEngine(_drops_label)).read(SOURCES, KEPT))
    assert report.passed and all(v.keeps for v in report.verdicts)
    assert report.reason == "the reader says every fact of the 2 sources is kept"


def test_a_second_read_is_served_by_the_cache_without_a_model_call(tmp_path):
    cache = ReaderCache(tmp_path / "reader.sqlite3")
    engine = ScoringEngine(_drops_label)
    first = run_to_end(_reader(engine, cache).read(SOURCES, LOSSY))
    assert len(engine.questions) == 2 and first.model_calls == 2
    other = ScoringEngine(lambda s, b: True)  # would answer NO to everything: it must not be asked
    again = run_to_end(_reader(other, cache).read(SOURCES, LOSSY))
    assert other.questions == [] and again.model_calls == 0
    assert [v.keeps for v in again.verdicts] == [True, False] and all(v.cached for v in again.verdicts)
    # another model file, or another body: asked again
    run_to_end(_reader(other, cache, key="model-b").read(SOURCES[:1], LOSSY))
    run_to_end(_reader(other, cache).read(SOURCES[:1], KEPT))
    assert len(other.questions) == 2


def test_the_threshold_decides_on_the_cached_probability(tmp_path):
    cache = ReaderCache(tmp_path / "reader.sqlite3")
    run_to_end(_reader(ScoringEngine(margin=0.5), cache).read(SOURCES[:1], KEPT))  # p(yes) ≈ 0.62
    strict = FactReader("model-a", engine=ScriptedEngine(), cache=cache, threshold=0.7)
    report = run_to_end(strict.read(SOURCES[:1], KEPT))
    assert not report.passed and report.verdicts[0].p_yes == pytest.approx(p_yes_of(0.5, 0.0), abs=1e-4)


def test_the_question_follows_the_few_shot_turns_and_reuses_their_cache():
    messages = reader_messages("a source", "a body")
    shots = reader_shots()
    assert len(shots) >= 6 and {s.answer for s in shots} == {"YES", "NO"}
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * len(shots) + ["user"]
    assert messages[-1]["content"] == "SOURCE: a source\nMERGED: a body"
    engine = ScoringEngine()
    run_to_end(_reader(engine).read(SOURCES, KEPT))
    prompt = engine.render(reader_messages(*engine.questions[0]))
    shots_end = prompt.rindex("<|user|>")  # everything before the last question
    assert all(p >= shots_end for p in engine.stable_prefixes)  # system prompt + shots stay in the KV cache


def test_cancel_stops_before_the_next_question():
    token = CancelToken()
    engine = ScoringEngine()
    work = _reader(engine).read(SOURCES, KEPT, cancel=token)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        run_to_end(work)
    assert engine.questions == []


def test_a_source_too_long_to_read_is_not_kept_and_the_model_is_not_asked():
    engine = ScoringEngine()
    report = run_to_end(_reader(engine).read(["x" * (MAX_CHARS + 1)], KEPT))
    assert engine.questions == [] and not report.passed
    assert report.verdicts[0].p_yes is None and "not read by the reader" in report.verdicts[0].reason


def test_a_model_that_cannot_score_is_unavailable_and_the_report_round_trips():
    with pytest.raises(ReaderUnavailable):
        run_to_end(_reader(ScriptedEngine()).read(SOURCES, KEPT))
    report = run_to_end(_reader(ScoringEngine(_drops_label)).read(SOURCES, LOSSY))
    assert ReaderReport.from_dict(report.to_dict()) == report


def test_the_model_key_names_the_file_and_the_prompt(tmp_path):
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    key = reader_model_key(gguf)
    gguf.write_bytes(b"GGUF2")
    assert reader_model_key(gguf) != key and "reader " in key
    assert reader_model_key(tmp_path / "gone.gguf", "some-id").startswith("id:some-id|")
