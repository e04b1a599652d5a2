"""The window's decider: the same input as `memgui decide` for the same cluster (so the same decision: the Review
tab's panels on ReviewBench), and one loaded model at a time (the old one closed when the settings change, the last
one when the window closes: the window)."""
from __future__ import annotations

import json
from dataclasses import replace

from decider_fakes import ScriptedEngine
from gui_fakes import FakeDecider, ReviewStore, services_for
from memgui.core.curation.types import DecisionKind
from memgui.core.decide import llm as decide_mod, prompts as dp
from memgui.core.decide.selftest import canaries
from memgui.core.netfx import anchor_id_for
from memgui.core.store import Document, create_store, new_document_id, now_ms, open_store
from waits import LONG_MS

# One fact, two documents, one anchor. The anchor's canonical name is neither the documents' titles nor its
# id with "-" read as " " — what the window made of it before it used the CLI's builder.
ANCHOR = "Prod-DB primary"
OLDER = ("Production database", "The production database is Postgres 14.2 on db-01.internal, port 5432.")
NEWER = ("Prod DB host", "Prod DB: Postgres 14.2 running on db-01.internal (port 5432); nightly backups.")
COSINE = 0.95


def _two_doc_store(path):
    create_store(path)
    store = open_store(path)
    ids = {}
    try:
        store.writes.ensure_anchor(ANCHOR)
        base = now_ms() - 60_000
        for n, (key, (title, body)) in enumerate((("older", OLDER), ("newer", NEWER))):
            ids[key] = new_document_id()
            store.writes.upsert_document(Document(
                document_id=ids[key], anchor_id=anchor_id_for(ANCHOR), memory_class="durable_fact", title=title,
                markdown_body=body, aliases_json=None, facets_json=None, slots_json=None,
                update_semantics="merge-document", boundary="boundary:trusted-instance", audience="personal",
                sensitivity="normal", recall_mode="auto", confidence=0.8, freshness_at=base + n * 1000,
                expires_at=None, created_at=base + n * 1000, updated_at=0,
            ))
    finally:
        store.close()
    return ids


def _scripted_llama(monkeypatch, same_fact_body: str) -> list:
    """The real LlamaDecider (two-stage pipeline, protocol, keyword choice) on a scripted engine that passes the
    capability self-test and calls `same_fact_body` the same fact. Returns the inputs every decide() saw."""
    verdicts = {c.existing: c.expected for c in canaries()}
    verdicts[same_fact_body[:60]] = dp.SAME
    seen = []

    class Scripted(decide_mod.LlamaDecider):
        def __init__(self, model_path, **kw):
            engine = ScriptedEngine(verdicts)
            engine.model_path = model_path
            super().__init__(model_path, engine=engine, **{k: v for k, v in kw.items() if k not in ("n_threads", "n_ctx")})

        def decide(self, proposal, candidates, **kw):
            seen.append((proposal, list(candidates)))
            return (yield from super().decide(proposal, candidates, **kw))

    monkeypatch.setattr(decide_mod, "LlamaDecider", Scripted)
    return seen


def test_window_and_cli_give_the_decider_the_same_input_and_both_get_update(review_bench, tmp_path, qtbot,
                                                                              monkeypatch, capsys):
    """Would fail on the window's old builder: its anchor name came from the anchor id and its candidates'
    canonical names from their titles, so the same cluster was CONSOLIDATE in the window, UPDATE in the CLI."""
    path = tmp_path / "pair" / "netclaw.db"
    path.parent.mkdir()
    ids = _two_doc_store(path)
    model = tmp_path / "scripted.gguf"
    model.write_bytes(b"GGUF")
    seen = _scripted_llama(monkeypatch, OLDER[1])

    from memgui.__main__ import main

    code = main(["decide", "--store", str(path), "--docs", f"{ids['older']},{ids['newer']}", "--model", str(model),
                 "--json"])
    cli = json.loads(capsys.readouterr().out)
    assert code == 0 and cli["model_id"] == "scripted-model"
    assert cli["decision"] == "UPDATE" and cli["targets"] == [ids["older"]]
    cli_input = seen[-1]

    from memgui.gui.services import real_services

    w = review_bench(real_services(), review=ReviewStore(path, ids))
    w.host.settings = replace(w.host.settings, decider_model=str(model))
    w.show("older", "newer", cosine=COSINE)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=30000) as blocker:
        w.actions["ask"].trigger()
    result = blocker.args[0]
    window_proposal, window_candidates = seen[-1]
    cli_proposal, cli_candidates = cli_input

    assert window_proposal == cli_proposal
    assert window_proposal.anchor_name == ANCHOR and window_proposal.memory_id == ids["newer"]
    # the same candidates; the window also knows their cosine to the proposal (the decider does not use it)
    assert [replace(c, cosine=None) for c in window_candidates] == [replace(c, cosine=None) for c in cli_candidates]
    assert [c.canonical_name for c in window_candidates] == [ANCHOR]
    assert [c.cosine for c in window_candidates] == [COSINE]
    assert result.decision.kind is DecisionKind.UPDATE and result.decision.target_document_id == ids["older"]
    assert w.decision_panel.kind_label.text() == "UPDATE"


class CountingDecider(FakeDecider):
    """A decider that counts the models it holds open (each stands for ≈1 GB of llama.cpp weights)."""

    open_now = 0
    made = 0

    def __init__(self):
        super().__init__()
        type(self).open_now += 1
        type(self).made += 1
        self.closed = False

    def close(self):
        assert not self.closed, "closed twice"
        self.closed = True
        type(self).open_now -= 1


def test_a_replaced_model_is_closed_and_the_last_one_when_the_window_closes(make_window, review_store, qtbot,
                                                                            monkeypatch):
    monkeypatch.setattr(CountingDecider, "open_now", 0)
    monkeypatch.setattr(CountingDecider, "made", 0)
    services = services_for(review_store)
    services.make_decider = lambda settings: CountingDecider()
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))

    def ask():
        with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS) as blocker:
            w.review.ask_model()
        assert blocker.args[0] is not None and blocker.args[0].decision is not None

    ask()
    ask()  # same settings: the loaded model is reused
    assert (CountingDecider.made, CountingDecider.open_now) == (1, 1)
    w.apply_settings(replace(w.settings, llm_threads=w.settings.llm_threads + 1))
    ask()
    assert (CountingDecider.made, CountingDecider.open_now) == (2, 1)
    w.apply_settings(replace(w.settings, llm_context=w.settings.llm_context * 2))
    ask()
    assert (CountingDecider.made, CountingDecider.open_now) == (3, 1)
    w.close()
    assert CountingDecider.open_now == 0
