"""The second reader in "accept all safe" (core/ops/batch_reader.py + plan_batch's `reader`): a "no" for any source
takes an otherwise safe cluster out of the safe set with the reader's reason; the plan shows the verdicts (JSON and
Markdown) or says the reader did not run; a second read is served by the reader's cache."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from decider_fakes import ScriptedEngine
from factories import seed_document
from memgui.core.decide.inputs import anchor_names
from memgui.core.decide.llm import LlamaDecider
from memgui.core.decide.reader import FactReader
from memgui.core.decide.review import review_cluster
from memgui.core.ops.batch import BatchPlan, ReaderRun, plan_batch
from memgui.core.ops.batch_reader import read_safe_clusters
from memgui.core.store.reader_cache import ReaderCache
from memgui.core.tasks import Cancelled, CancelToken, run_to_end
from reader_fakes import ScoringEngine

DEPLOY = ("Atlas deploys run at 02:00 UTC with make deploy.", "The atlas deploy runs at 02:00 UTC using make deploy.")
BACKUP = ("Backups of the atlas database are kept for 30 days on s3://atlas-backups.",
          "The atlas database backups stay 30 days in s3://atlas-backups.")
GO = ("Routewise services are built with Go 1.22.", "Routewise services moved to Go 1.24 in March.")
SCRIPTS = {"deploy": ({"deploy": "SAME"}, DEPLOY[0]), "backup": ({"backups": "SAME"}, BACKUP[0]),
           "go": ({"Routewise": "DIFFERENT"}, GO[1])}


@pytest.fixture
def rows(empty_store):
    store = empty_store
    out = []
    for n, (key, bodies) in enumerate((("deploy", DEPLOY), ("backup", BACKUP), ("go", GO))):
        docs = [seed_document(store, f"{key} {i}", body, anchor=key, updated_at=1000 * n + i,
                              created_at=1000 * n + i, freshness_at=1000 * n + i) for i, body in enumerate(bodies)]
        verdicts, merged = SCRIPTS[key]
        decider = LlamaDecider(engine=ScriptedEngine(verdicts, merged=merged), timeout_s=60)
        review = run_to_end(review_cluster(docs, anchor_names(store, docs), decider))
        # the strict lens is someone else's moving target: these tests are about the reader, so it passes
        review = replace(review, strict={"passed": True, "checked": 1, "at_risk": []})
        out.append((key, [d.document_id for d in docs], review))
    return store, out


def _backup_loses_a_fact(source, body):
    """The scripted reader: it says the backup merge does not keep the second note's facts."""
    return source == BACKUP[1]


def test_a_no_from_the_reader_takes_an_otherwise_safe_cluster_out_with_its_reason(rows, tmp_path):
    store, reviews = rows
    assert {w.cluster_id for w in plan_batch(reviews).writes} == {"deploy", "backup"}  # safe without the reader
    engine = ScoringEngine(_backup_loses_a_fact)
    reader = FactReader("scripted", engine=engine, cache=ReaderCache(tmp_path / "r.sqlite3"), model_id="scripted")
    run = run_to_end(read_safe_clusters(store, reviews, reader))
    assert set(run.reports) == {"deploy", "backup"}  # the excluded "go" cluster is never read
    assert len(engine.questions) == 4  # one question per source of each safe cluster
    plan = plan_batch(reviews, reader=run)
    assert [w.cluster_id for w in plan.writes] == ["deploy"]
    out = {x.cluster_id: x for x in plan.excluded}
    assert out["backup"].reason.startswith("the second reader: source 2: the reader says a fact changed or was "
                                           "dropped (p(yes)=0.12)")
    assert out["backup"].reader["verdicts"][1]["keeps"] is False
    assert plan.writes[0].reader["passed"] is True and len(plan.writes[0].reader["verdicts"]) == 2
    # the plan shows the reader's verdicts and reads back from its JSON
    data = json.loads(json.dumps(plan.to_dict()))
    assert data["reader"]["ran"] is True and "read 2 otherwise safe clusters" in data["reader"]["note"]
    assert BatchPlan.from_dict(data) == plan
    text = plan.to_markdown()
    assert "Second reader: read 2 otherwise safe clusters" in text
    assert "second reader: kept (p(yes) by source: #1 0.88, #2 0.88)" in text
    assert "the second reader: source 2: the reader says a fact changed" in text


def test_without_the_reader_the_plan_says_it_did_not_run_and_the_lens_alone_decides(rows):
    _store, reviews = rows
    plan = plan_batch(reviews, reader=ReaderRun(False, "--no-reader"))
    assert {w.cluster_id for w in plan.writes} == {"deploy", "backup"}
    assert plan.to_dict()["reader"] == {"ran": False, "note": "--no-reader"}
    assert all(w.reader is None for w in plan.writes)
    assert "Second reader: not run (--no-reader); MergeGuard and the strict lens alone decided." in plan.to_markdown()
    assert "Second reader: not run (no model)" in plan_batch(reviews).to_markdown()


def test_a_cluster_the_reader_did_not_read_is_left_for_a_person(rows):
    _store, reviews = rows
    plan = plan_batch(reviews, reader=ReaderRun(True, "failed (boom); it read no cluster"))
    assert plan.writes == []
    assert {x.reason for x in plan.excluded if x.cluster_id != "go"} == {"the second reader did not read it"}


def test_a_second_run_asks_the_model_nothing(rows, tmp_path):
    store, reviews = rows
    cache = ReaderCache(tmp_path / "r.sqlite3")
    run_to_end(read_safe_clusters(store, reviews, FactReader("m", engine=ScoringEngine(_backup_loses_a_fact),
                                                             cache=cache)))
    never = []  # a second run must not even make the engine (so the model is never loaded)
    again = run_to_end(read_safe_clusters(store, reviews, FactReader("m", make_engine=lambda: never.append(1),
                                                                     cache=cache)))
    assert never == [] and all(r.model_calls == 0 for r in again.reports.values())
    assert [w.cluster_id for w in plan_batch(reviews, reader=again).writes] == ["deploy"]
    assert "0 questions asked, 4 from the cache" in again.note


def test_reading_is_cancellable(rows):
    store, reviews = rows
    token = CancelToken()
    work = read_safe_clusters(store, reviews, FactReader("m", engine=ScoringEngine()), cancel=token)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        run_to_end(work)


def test_a_cluster_only_its_anchor_joined_is_not_read(rows):
    """It is left for a person whatever the reader says, so no model time is spent on it."""
    store, reviews = rows
    engine = ScoringEngine()
    links = {"deploy": {frozenset(reviews[0][1])}, "backup": frozenset(), "go": frozenset()}
    run = run_to_end(read_safe_clusters(store, reviews, FactReader("m", engine=engine), links=links))
    assert set(run.reports) == {"deploy"} and len(engine.questions) == 2
