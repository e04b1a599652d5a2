"""`memgui accept-safe` and `memgui undo-batch` on a small store with a scripted model (tests/decider_fakes.py)
and a scanner that returns known clusters: the dry run writes nothing, a second run is served from the decision
cache, only safe clusters are written, a source changed after the plan refuses its write, undo-batch restores
every row, and without a capable model it refuses with exit 2."""
from __future__ import annotations

import hashlib
import json

import pytest

from decider_fakes import ScriptedEngine
from factories import seed_document, update_document
from memgui.__main__ import main
from memgui.core.decide import llm as decide_mod, model_files as decider_model, prompts as dp
from memgui.core.decide.selftest import canaries
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import list_entries
from memgui.core.vectors import nominate

BODIES = {
    "deploy": ("Atlas deploys run at 02:00 UTC with make deploy.",
               "The atlas deploy runs at 02:00 UTC using make deploy."),
    "backup": ("Backups of the atlas database are kept for 30 days on s3://atlas-backups.",
               "The atlas database backups stay 30 days in s3://atlas-backups."),
    "go": ("Routewise services are built with Go 1.22.", "Routewise services moved to Go 1.24 in March."),
}
MERGES = {"deploy": BODIES["deploy"][0], "backup": BODIES["backup"][0]}
SAME_KEYS = {"deploy": dp.SAME, "backups": dp.SAME}  # the sibling pair (Routewise) is judged DIFFERENT


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
                         for key, members in ids.items()
                         if all(not d.is_tombstoned for d in store.documents_by_ids(members)))
        return nominate.ScanResult(None, 5, 0.9, False, None, clusters, documents=6)
        yield  # a generator, as scan_store is

    monkeypatch.setattr(nominate, "scan_store", scan)
    return path, ids


@pytest.fixture
def model(monkeypatch, tmp_path):
    """A scripted LlamaDecider that passes the self-test; `engines` records every engine made."""
    verdicts = {c.existing: c.expected for c in canaries()} | SAME_KEYS
    engines = []

    def merged(prompt):
        notes = prompt.rsplit("NOTE 1:", 1)[1]
        return next(body for key, body in MERGES.items() if key in notes)

    class Scripted(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            engine = ScriptedEngine(verdicts, merged=merged)
            engines.append(engine)
            super().__init__(model_path, engine=engine, **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

    monkeypatch.setattr(decide_mod, "LlamaDecider", Scripted)
    path = tmp_path / "scripted.gguf"
    path.write_bytes(b"GGUF")
    return str(path), engines


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rows(path) -> list:
    with open_store(path, read_only=True) as s:
        return [s.execute(f"SELECT * FROM {t} ORDER BY document_id").fetchall()
                for t in ("memory_documents", "memory_documents_fts")]


def test_dry_run_plans_only_the_safe_clusters_writes_nothing_and_a_second_run_uses_the_cache(store, model, capsys):
    path, ids = store
    before = sha(path)
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run", "--json")
    assert code == 0, err
    plan = json.loads(out)
    assert plan["dry_run"] is True and sha(path) == before
    assert [w["cluster_id"] for w in plan["writes"]] == ["c-deploy", "c-backup"]
    assert {w["target_id"] for w in plan["writes"]} | {t for w in plan["writes"] for t in w["tombstoned"]} == \
        set(ids["deploy"] + ids["backup"])
    assert all(w["guard"]["passed"] and w["strict"]["passed"] and w["length_ratio"] for w in plan["writes"])
    (left,) = plan["excluded"]
    assert left["cluster_id"] == "c-go" and left["reason"] == "every pair was judged a different fact"
    assert plan["computed"] == 3 and plan["cached"] == 0
    calls = sum(len(e.calls) for e in model[1])
    # the second run reads every review from the cache: no model call
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run", "--json")
    again = json.loads(out)
    assert code == 0 and again["cached"] == 3 and again["computed"] == 0
    assert sum(len(e.calls) for e in model[1]) == calls
    assert [w["merged_body"] for w in again["writes"]] == [w["merged_body"] for w in plan["writes"]]
    # the readable plan names every write and every exclusion
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run")
    assert code == 0 and "## Writes (2)" in out and "every pair was judged a different fact" in out
    assert "dry run: nothing was written" in out and sha(path) == before


def test_accept_writes_the_batch_and_undo_batch_restores_every_row(store, model, capsys):
    path, ids = store
    before = rows(path)
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--json")
    assert code == 0, err
    data = json.loads(out)
    written = data["result"]["written"]
    assert [w["cluster_id"] for w in written] == ["c-deploy", "c-backup"] and data["result"]["refused"] == []
    with open_store(path, read_only=True) as s:
        assert all(not d.is_tombstoned for d in s.documents_by_ids(ids["go"]))  # the sibling pair is untouched
        assert sum(d.is_tombstoned for d in s.documents_by_ids(ids["deploy"] + ids["backup"])) == 2
    with open_store(path, read_only=True) as s:  # one audited merge per write, each tagged with the batch
        entries = list_entries(s)
    assert sorted(e.audit_id for e in entries) == sorted(w["audit_id"] for w in written)
    assert all(e.operation == "merge" and e.note == f"accept-safe batch {data['batch_id']}" for e in entries)
    code, out, err = run(capsys, "undo-batch", "--store", str(path), data["batch_id"])
    assert code == 0, err
    assert "undid 2 write(s)" in out
    assert rows(path) == before
    code, _out, err = run(capsys, "undo-batch", "--store", str(path), "no-such-batch")
    assert code == 2 and "no write of this batch" in err and len(err.strip().splitlines()) == 1


def test_a_saved_plan_whose_source_changed_refuses_that_write_and_the_others_land(store, model, capsys, tmp_path):
    path, ids = store
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run", "--json")
    saved = tmp_path / "plan.json"
    saved.write_text(out, encoding="utf-8")
    with open_store(path) as s:
        doc = s.document(ids["deploy"][0])
        update_document(s, doc, markdown_body=doc.markdown_body + " Owner: ops.", updated_at=99_999)
    code, out, _err = run(capsys, "accept-safe", "--store", str(path), "--plan", str(saved), "--json")
    result = json.loads(out)["result"]
    assert code == 1
    assert [r["cluster_id"] for r in result["refused"]] == ["c-deploy"] and ids["deploy"][0] in result["refused"][0]["error"]
    assert [w["cluster_id"] for w in result["written"]] == ["c-backup"]
    with open_store(path, read_only=True) as s:
        assert s.document(ids["deploy"][0]).markdown_body.endswith("Owner: ops.")
        assert not any(d.is_tombstoned for d in s.documents_by_ids(ids["deploy"]))


def test_a_saved_plan_with_a_decision_memgui_does_not_know_is_refused_whole_in_one_line(store, model, capsys,
                                                                                        tmp_path):
    path, _ids = store
    code, out, _ = run(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run", "--json")
    plan = json.loads(out)
    assert plan["writes"]
    plan["writes"][0]["decision"] = "MERGE_EVERYTHING"
    saved = tmp_path / "plan.json"
    saved.write_text(json.dumps(plan), encoding="utf-8")
    before = sha(path)
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--plan", str(saved))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and sha(path) == before
    assert "the decision is 'MERGE_EVERYTHING', not one memgui knows" in err


def test_without_a_model_it_refuses_in_one_line_and_writes_nothing(store, capsys, monkeypatch):
    path, _ = store
    before = sha(path)
    monkeypatch.setattr(decider_model, "default_model_path", lambda: None)
    code, out, err = run(capsys, "accept-safe", "--store", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "needs a capable decider model" in err and "memgui models install" in err
    assert sha(path) == before


def test_a_model_that_fails_the_selftest_is_refused(store, capsys, monkeypatch, tmp_path):
    path, _ = store
    before = sha(path)

    class Constant(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            super().__init__(model_path, engine=ScriptedEngine({}),
                             **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

    monkeypatch.setattr(decide_mod, "LlamaDecider", Constant)
    gguf = tmp_path / "constant.gguf"
    gguf.write_bytes(b"GGUF")
    code, out, err = run(capsys, "accept-safe", "--store", str(path), "--model", str(gguf), "--dry-run")
    assert code == 2 and out == "" and "not a capable decider" in err and sha(path) == before


@pytest.mark.parametrize("argv,message", [
    (["--limit", "0"], "--limit must be at least 1"),
    (["--model", "/nonexistent/model.gguf"], "no such model file"),
    (["--plan", "/nonexistent/plan.json"], "no such file"),
])
def test_bad_input_is_one_line_exit_2(store, capsys, argv, message):
    path, _ = store
    before = sha(path)
    code, _out, err = run(capsys, "accept-safe", "--store", str(path), *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and sha(path) == before
