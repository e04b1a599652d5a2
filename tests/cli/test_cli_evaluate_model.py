"""`memgui evaluate-model`: the decider measured on the labelled demo store (same-fact recall, sibling rejection,
false merges per 100 clusters), cached per model file; a scripted model, and the real one on a tiny subset."""
import itertools
import json

import pytest

from decider_fakes import ScriptedEngine
from memgui.__main__ import main
from memgui.core.decide import llm as decide_mod, model_files as decider_model
from memgui.core.decide.selftest import canaries
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.vectors import nominate


@pytest.fixture(scope="module")
def demo_bodies(tmp_path_factory):
    path = build_demo_store(tmp_path_factory.mktemp("demo") / "netclaw.db")
    with open_store(path, read_only=True) as store:
        return {d.document_id: d for d in store.documents() if not d.is_tombstoned}


def run_cli(capsys, *argv):
    code = main(["evaluate-model", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _scripted(monkeypatch, docs, same_pairs):
    """LlamaDecider on a scripted engine: right on the canaries, SAME exactly for `same_pairs` (by id)."""
    verdicts = {c.existing: c.expected for c in canaries()}
    for a, b in same_pairs:
        older, newer = sorted((docs[a], docs[b]), key=lambda d: (d.updated_at, d.created_at, d.document_id))
        verdicts[(older.markdown_body, newer.markdown_body)] = "SAME"
    engines = []

    class Scripted(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            engine = ScriptedEngine(verdicts)
            engine.model_path = model_path
            engines.append(engine)
            super().__init__(model_path, engine=engine, **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

    monkeypatch.setattr(decide_mod, "LlamaDecider", Scripted)
    return engines


@pytest.fixture
def lexical(monkeypatch):
    """No embedder in this test: the demo store's clusters come from Netclaw's degraded lexical path."""
    def unavailable(*_a, **_k):
        raise nominate.EmbedderUnavailable("test: no embedder")

    monkeypatch.setattr(nominate, "resolve_source", unavailable)


def _model(tmp_path):
    model = tmp_path / "scripted.gguf"
    model.write_bytes(b"GGUF")
    return model


def test_a_perfect_model_scores_full_marks_and_the_result_is_cached(demo_bodies, capsys, monkeypatch, tmp_path,
                                                                  lexical):
    labels = demo_labels()
    same = [p for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)
            if all(i in demo_bodies for i in p)]
    engines = _scripted(monkeypatch, demo_bodies, same)
    model = _model(tmp_path)
    code, out, _ = run_cli(capsys, "--model", str(model), "--limit", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["cached"] is False and data["model_id"] == "scripted-model"
    assert data["clusters_measured"] == 6 and data["limit"] == 6 and data["clusters_total"] > 6
    assert data["subset"] == f"the first 6 of {data['clusters_total']} nominee clusters (queue order)"
    assert data["embedder"] == "lexical overlap"
    assert data["selftest"] == {"capable": True, "passed": 6, "total": 6}
    assert data["duplicate_pairs"] > 0 and data["same_fact_recall"] == 1.0
    assert data["false_merges"] == 0 and data["false_merges_per_100"] == 0.0
    assert data["sibling_rejection"] in (1.0, None)
    calls = len(engines[0].calls)
    assert calls > 6  # the canaries and the pairs
    # again: the cached result, no model call
    code, out, _ = run_cli(capsys, "--model", str(model), "--limit", "6", "--json")
    again = json.loads(out)
    assert code == 0 and again["cached"] is True and again["same_fact_recall"] == 1.0
    assert sum(len(e.calls) for e in engines) == calls


def test_a_model_that_merges_everything_shows_its_false_merges(demo_bodies, capsys, monkeypatch, tmp_path, lexical):
    labels = demo_labels()
    everything = [p for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)]
    everything += [tuple(p) for p in labels["sibling_pairs"]]
    # every pair of every demo document judged the same fact is too many to script; siblings are enough to show it
    _scripted(monkeypatch, demo_bodies, [p for p in everything if all(i in demo_bodies for i in p)])
    code, out, _ = run_cli(capsys, "--model", str(_model(tmp_path)), "--json")
    data = json.loads(out)
    assert code == 0 and data["limit"] is None and data["subset"].startswith("all ")
    assert data["sibling_pairs"] == len([p for p in labels["sibling_pairs"] if all(i in demo_bodies for i in p)])
    assert data["sibling_rejection"] == 0.0  # it merges every sibling pair
    assert data["same_fact_recall"] == 1.0
    # what the window would pre-select is measured too: siblings that disagree on an amount or a date stay
    # apart whatever the model says (value conflicts), so its false merges are fewer than its "same" answers
    assert data["false_merges"] < data["sibling_pairs"]


def test_text_output_names_the_subset(demo_bodies, capsys, monkeypatch, tmp_path, lexical):
    _scripted(monkeypatch, demo_bodies, [])
    code, out, _ = run_cli(capsys, "--model", str(_model(tmp_path)), "--limit", "2")
    assert code == 0 and "measured on:        the first 2 of" in out and "same-fact recall:" in out


@pytest.mark.parametrize("argv,message", [
    (["--limit", "0"], "--limit must be at least 1"),
    (["--model", "/nonexistent/model.gguf"], "no such model file"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_without_a_model_it_says_how_to_install_one(capsys, monkeypatch):
    monkeypatch.setattr(decider_model, "default_model_path", lambda: None)
    code, _, err = run_cli(capsys, "--json")
    assert code == 2 and "memgui models install" in err


@pytest.mark.realmodel
def test_the_real_model_on_two_clusters(capsys):
    if decider_model.default_model_path() is None:
        pytest.skip("the default decider model is not installed")
    code, out, _ = run_cli(capsys, "--limit", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["clusters_measured"] == 2 and data["pairs_judged"] >= 2
    assert data["selftest"]["total"] == 6 and data["embedder"] != "lexical overlap"
    assert data["duplicate_pairs"] + data["sibling_pairs"] >= 1
    assert data["false_merges_per_100"] is not None and 0 <= data["false_merges_per_100"] <= 100
