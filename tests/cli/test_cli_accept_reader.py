"""`memgui accept-safe` with the second reader: the scripted model answers the reader's YES/NO question by logits
(tests/reader_fakes.py); a "no" for one source of the backup merge keeps that cluster out of the batch with the
reader's reason, the JSON and Markdown plans show the verdicts, a second run asks the reader nothing, and
`--no-reader` says in the plan that the reader did not run (the lens alone decides)."""
from __future__ import annotations

import json

import pytest

from factories import seed_document
from memgui.__main__ import main
from memgui.core.decide import llm as decide_mod, prompts as dp
from memgui.core.decide.selftest import canaries
from memgui.core.store import create_store, open_store
from memgui.core.vectors import nominate
from reader_fakes import ScoringEngine

BODIES = {
    "deploy": ("Atlas deploys run at 02:00 UTC with make deploy.",
               "The atlas deploy runs at 02:00 UTC using make deploy."),
    "backup": ("Backups of the atlas database are kept for 30 days on s3://atlas-backups.",
               "The atlas database backups stay 30 days in s3://atlas-backups."),
}
MERGES = {key: " ".join(bodies) for key, bodies in BODIES.items()}  # both kept: proved, so only the reader decides


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = create_store(tmp_path / "netclaw.db")
    ids: dict[str, list[str]] = {}
    with open_store(path) as s:
        for n, (key, bodies) in enumerate(BODIES.items()):
            ids[key] = [seed_document(s, f"{key} {i}", body, anchor=key, updated_at=1000 * n + i,
                                      created_at=1000 * n + i).document_id for i, body in enumerate(bodies)]

    def scan(store, **_kw):
        clusters = tuple(nominate.Cluster(f"c-{key}", tuple(members), (nominate.Pair(*members, 0.95),), 0.95)
                         for key, members in ids.items())
        return nominate.ScanResult(None, 5, 0.9, False, None, clusters, documents=4)
        yield  # a generator, as scan_store is

    monkeypatch.setattr(nominate, "scan_store", scan)
    return path, ids


@pytest.fixture
def engines(monkeypatch, tmp_path):
    """A scripted LlamaDecider whose engine also scores: the reader says the backup merge loses the second note."""
    verdicts = {c.existing: c.expected for c in canaries()} | {"deploy": dp.SAME, "backups": dp.SAME}
    made = []

    def merged(prompt):
        notes = prompt.rsplit("NOTE 1:", 1)[1]
        return next(body for key, body in MERGES.items() if key in notes)

    class Scripted(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            engine = ScoringEngine(lambda source, body: source == BODIES["backup"][1], verdicts=verdicts,
                                   merged=merged)
            made.append(engine)
            super().__init__(model_path, engine=engine, **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

    monkeypatch.setattr(decide_mod, "LlamaDecider", Scripted)
    path = tmp_path / "scripted.gguf"
    path.write_bytes(b"GGUF")
    return str(path), made


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_no_from_the_reader_keeps_the_cluster_out_and_the_plan_shows_why(store, engines, capsys):
    path, _ids = store
    model, made = engines
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run", "--json")
    assert code == 0, err
    plan = json.loads(out)
    assert [w["cluster_id"] for w in plan["writes"]] == ["c-deploy"]
    (left,) = plan["excluded"]
    assert left["cluster_id"] == "c-backup" and left["reason"].startswith(
        "the second reader: source 2: the reader says a fact changed or was dropped (p(yes)=0.12)")
    assert plan["reader"]["ran"] is True and plan["writes"][0]["reader"]["passed"] is True
    asked = sum(len(e.questions) for e in made)
    assert asked == 4 and "second reader 1/2: cluster c-deploy" in err
    # a second run: reviews and reader answers both come from their caches
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run")
    assert code == 0 and sum(len(e.questions) for e in made) == asked
    assert "Second reader: read 2 otherwise safe clusters" in out and "0 questions asked, 4 from the cache" in out
    assert "the second reader: source 2" in out


def test_no_reader_says_so_in_the_plan_and_the_lens_alone_decides(store, engines, capsys):
    path, _ids = store
    model, made = engines
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run", "--json",
                         "--no-reader")
    assert code == 0, err
    plan = json.loads(out)
    assert [w["cluster_id"] for w in plan["writes"]] == ["c-deploy", "c-backup"]
    assert plan["reader"] == {"ran": False, "note": "--no-reader"}
    assert sum(len(e.questions) for e in made) == 0
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run", "--no-reader")
    assert "Second reader: not run (--no-reader); MergeGuard and the strict lens alone decided." in out


def test_no_supersede_asks_no_supersede_reading(store, engines, capsys, monkeypatch):
    """`--no-supersede`: merges only, the supersede reading (tens of seconds of model time on first use) is never
    started; without it, it runs on the clusters no merge takes."""
    from memgui.core.ops import batch_supersede

    path, _ids = store
    model, _made = engines
    started = []

    def reading(store, rows, make_reader, **_kw):
        started.append([cid for cid, _members, _review in rows])
        return {}
        yield  # a generator, as read_supersessions is

    monkeypatch.setattr(batch_supersede, "read_supersessions", reading)
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run", "--json",
                         "--no-reader", "--no-supersede")
    assert code == 0, err
    assert started == [] and [w["cluster_id"] for w in json.loads(out)["writes"]] == ["c-deploy", "c-backup"]
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model, "--dry-run", "--json",
                         "--no-reader")
    assert code == 0, err
    assert started == [["c-deploy", "c-backup"]]
