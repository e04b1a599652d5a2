"""`memgui decide`: a demo cluster through the union draft, a (scripted) model, and bad input."""
import json

import pytest

from decider_fakes import ScriptedEngine
from memgui.__main__ import main
from memgui.core.decide import llm as decide_mod, model_files as decider_model, prompts as dp
from memgui.core.decide.selftest import canaries


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    from memgui.config import resources_dir
    from memgui.core.store.demo import build_demo_store

    path = build_demo_store(tmp_path_factory.mktemp("demo") / "netclaw.db")
    labels = json.loads((resources_dir() / "demo" / "labels.json").read_text(encoding="utf-8"))
    return path, labels


def run_cli(capsys, *argv):
    code = main(["decide", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def cluster(labels, size):
    return next(c for c in labels["duplicate_clusters"] if len(c) == size)


def test_union_draft_of_a_demo_cluster(demo_store, capsys):
    path, labels = demo_store
    ids = cluster(labels, 3)
    code, out, _ = run_cli(capsys, "--store", str(path), "--docs", ",".join(ids), "--draft", "union", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"decision", "targets", "rationale", "merged_body", "guard", "model_id", "seconds",
                         "prompt_tokens", "completion_tokens"}
    assert data["model_id"] == "sentence-union" and data["guard"]["passed"] is True
    assert data["decision"] in ("UPDATE", "CONSOLIDATE")
    # the newest document is the proposal; the others are the targets
    assert sorted(data["targets"] + [data["proposal_id"]]) == sorted(ids)
    assert data["prompt_tokens"] == data["completion_tokens"] == 0


def test_union_draft_as_text(demo_store, capsys):
    path, labels = demo_store
    code, out, _ = run_cli(capsys, "--store", str(path), "--docs", ",".join(cluster(labels, 2)), "--draft", "union")
    assert code == 0 and "guard:    PASS" in out and "--- merged body ---" in out


@pytest.mark.parametrize("docs,message", [
    ("doc-only-one", "at least two distinct document ids"),
    ("doc-a,doc-a", "at least two distinct document ids"),
    ("doc-nope1,doc-nope2", "no such document"),
])
def test_bad_ids_are_one_line_errors(demo_store, capsys, docs, message):
    path, _ = demo_store
    code, out, err = run_cli(capsys, "--store", str(path), "--docs", docs, "--json")
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_tombstoned_documents_are_refused(demo_store, capsys):
    path, labels = demo_store
    dead = labels["tombstoned_documents"][0]
    dead = dead if isinstance(dead, str) else dead["id"]
    live = cluster(labels, 2)[0]
    code, _, err = run_cli(capsys, "--store", str(path), "--docs", f"{live},{dead}")
    assert code == 2 and "tombstoned" in err


def test_missing_model_file_is_bad_input(demo_store, capsys, tmp_path):
    path, labels = demo_store
    code, _, err = run_cli(capsys, "--store", str(path), "--docs", ",".join(cluster(labels, 2)),
                           "--model", str(tmp_path / "missing.gguf"))
    assert code == 2 and "no such model file" in err


def test_without_a_model_it_says_so_and_offers_the_union_draft(demo_store, capsys, monkeypatch):
    path, labels = demo_store
    monkeypatch.setattr(decider_model, "default_model_path", lambda: None)
    code, out, err = run_cli(capsys, "--store", str(path), "--docs", ",".join(cluster(labels, 2)), "--json")
    data = json.loads(out)
    assert code == 0 and data["model_id"] == "sentence-union" and data["decider_available"] is False
    assert "no capable model" in err and "memgui models install" in err


def _scripted(monkeypatch, verdict_for):
    """LlamaDecider on a scripted engine that answers the canaries with `verdict_for(expected)`."""
    verdicts = {c.existing: verdict_for(c.expected) for c in canaries()}

    class Scripted(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            engine = ScriptedEngine(verdicts)
            engine.model_path = model_path
            super().__init__(model_path, engine=engine, **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

    monkeypatch.setattr(decide_mod, "LlamaDecider", Scripted)
    return verdicts


def test_a_capable_model_decides_and_the_union_is_offered_beside_it(demo_store, capsys, monkeypatch, tmp_path):
    path, labels = demo_store
    verdicts = _scripted(monkeypatch, lambda expected: expected)
    model = tmp_path / "scripted.gguf"
    model.write_bytes(b"GGUF")
    ids = cluster(labels, 2)
    from memgui.core.store import open_store

    with open_store(path, read_only=True) as store:
        older, newer = sorted(store.documents_by_ids(ids), key=lambda d: (d.updated_at, d.created_at))
    verdicts[older.markdown_body[:60]] = dp.SAME
    code, out, _ = run_cli(capsys, "--store", str(path), "--docs", ",".join(ids), "--model", str(model), "--json")
    data = json.loads(out)
    assert code == 0 and data["model_id"] == "scripted-model" and data["selftest"]["capable"]
    assert data["targets"] == [older.document_id] and data["proposal_id"] == newer.document_id
    assert data["merged_body"] and data["guard"] is not None and data["completion_tokens"] > 0
    assert data["raw_reply"].split("\n")[0] in (f"UPDATE {older.document_id}", f"CONSOLIDATE {older.document_id}")
    assert data["union_draft"]["guard"]["passed"] is True


def test_a_model_that_fails_the_selftest_is_reported_not_capable(demo_store, capsys, monkeypatch, tmp_path):
    path, labels = demo_store
    _scripted(monkeypatch, lambda expected: dp.DIFFERENT)  # a constant answer
    model = tmp_path / "constant.gguf"
    model.write_bytes(b"GGUF")
    code, out, err = run_cli(capsys, "--store", str(path), "--docs", ",".join(cluster(labels, 2)),
                             "--model", str(model), "--json")
    data = json.loads(out)
    assert code == 0 and data["model_id"] == "sentence-union"
    assert "not capable (4/6 canary pairs right)" in err


GO_PAIR = ("doc-41991d75fb0dce859b757ed92245ca27", "doc-703f5e7691b6ff37f7df261ea90f0d4a")  # Go version, twice
GO_SIBLING = "doc-0d79eb5fa1aedf766b21ea3d631f1f80"  # "Routewise moved to Go 1.24": a later, different fact


def test_a_mixed_cluster_is_split_and_only_the_duplicates_are_drafted(demo_store, capsys, monkeypatch, tmp_path):
    path, labels = demo_store
    siblings = [set(p) for p in labels["sibling_pairs"]]
    assert list(GO_PAIR) in labels["duplicate_clusters"] and any(GO_SIBLING in p and p & set(GO_PAIR) for p in siblings)
    verdicts = _scripted(monkeypatch, lambda expected: expected)
    from memgui.core.store import open_store

    with open_store(path, read_only=True) as store:
        older, newer = sorted(store.documents_by_ids(list(GO_PAIR)), key=lambda d: (d.updated_at, d.created_at))
    verdicts[(older.markdown_body[:60], newer.markdown_body[:60])] = dp.SAME  # only this pair is the same fact
    model = tmp_path / "scripted.gguf"
    model.write_bytes(b"GGUF")
    ids = [GO_SIBLING, *GO_PAIR]
    code, out, _ = run_cli(capsys, "--store", str(path), "--docs", ",".join(ids), "--model", str(model), "--json")
    data = json.loads(out)
    assert code == 0 and data["groups_judged"] is True
    assert set(data["groups"][0]) == set(GO_PAIR) and data["groups"][1] == [GO_SIBLING]
    assert data["target"] in GO_PAIR
    assert GO_SIBLING not in data["targets"] + [data["proposal_id"]]  # the merge is drafted for the pair only
    assert len(data["pairs"]) == 3


def test_the_union_draft_names_one_unjudged_group_and_its_target(demo_store, capsys):
    path, labels = demo_store
    ids = cluster(labels, 3)
    _code, out, _ = run_cli(capsys, "--store", str(path), "--docs", ",".join(ids), "--draft", "union", "--json")
    data = json.loads(out)
    assert data["groups"] == [ids] and data["groups_judged"] is False and data["target"] in ids
    from memgui.core.store import open_store

    with open_store(path, read_only=True) as store:
        target_body = store.documents_by_ids([data["target"]])[0].markdown_body
    assert data["merged_body"].startswith(target_body)  # the target's body is kept verbatim
