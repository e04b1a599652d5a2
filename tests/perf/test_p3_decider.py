"""Benchmark P3: the decider against raw llama-cpp-python, and the default model on the demo labels.

Run with `make bench` (or `.venv/bin/python -m pytest -q -s tests/perf/test_p3_decider.py --override-ini addopts=`).
Results are printed; docs/decider.md records the numbers measured on the project machine.

- test_p3_overhead: one demo duplicate cluster decided by LlamaDecider (classifier call per candidate + editor
  merge) versus raw `Llama.create_completion` calls with the same prompts, the same grammars and the same
  number of generated tokens, on the same `Llama` object, alternated so both see the same cache states.
  Goal: decider wall ≤ 1.05 × raw. Also prompt and generation tokens/s.
- test_demo_label_accuracy: the production classifier on every demo duplicate cluster (newest member as the
  proposal against each other member) and every sibling pair; plus full decisions (with merged bodies and
  MergeGuard) on a sample of clusters. MEMGUI_P3_MERGES sets the sample size (default 6).
"""
from __future__ import annotations

import json
import os
import statistics
import time

import pytest

from memgui.core.decide import model_files as decider_model, prompts as dp
from memgui.core.decide.inputs import cluster_inputs
from memgui.core.decide.llm import LlamaDecider
from memgui.core.tasks import run_to_end

THREADS = int(os.environ.get("MEMGUI_P3_THREADS", "2"))


@pytest.fixture(scope="module")
def model_path():
    return decider_model.ensure_default_model()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from memgui.config import resources_dir
    from memgui.core.store import open_store
    from memgui.core.store.demo import build_demo_store

    path = tmp_path_factory.mktemp("p3") / "netclaw.db"
    build_demo_store(path)
    store = open_store(path, read_only=True)
    labels = json.loads((resources_dir() / "demo" / "labels.json").read_text(encoding="utf-8"))
    names = {a.anchor_id: a.canonical_name for a in store.anchors()}
    yield store, labels, names
    store.close()


def _cluster(store, names, ids):
    return cluster_inputs(store.documents_by_ids(ids), names)


def test_p3_overhead(model_path, demo, goals):
    store, labels, names = demo
    decider = LlamaDecider(model_path, n_threads=THREADS, n_ctx=4096, timeout_s=0)
    run_to_end(decider.load())
    llm = decider.engine.llm
    from llama_cpp import LlamaGrammar

    # the first 2-member cluster the classifier judges SAME, so the merge stage runs too
    chosen = None
    for ids in labels["duplicate_clusters"]:
        if len(ids) != 2:
            continue
        proposal, cands = _cluster(store, names, ids)
        if run_to_end(decider.classify_pair(cands[0].markdown_body, proposal.content)) == dp.SAME:
            chosen = (proposal, cands)
            break
    assert chosen is not None, "no demo cluster judged SAME"
    proposal, cands = chosen

    def run_decider():
        t = time.perf_counter()
        result = run_to_end(decider.decide(proposal, cands, full_candidate_content=True))
        return time.perf_counter() - t, result

    def raw_calls(result):
        """The same prompts through raw create_completion, same grammar, same number of tokens."""
        prompts = [(dp.classify_messages(c.markdown_body, proposal.content), dp.CLASSIFY_GRAMMAR) for c in cands]
        prompts.append((dp.editor_messages([proposal.content, cands[0].markdown_body]), None))
        t0 = time.perf_counter()
        first_token, gen_tokens, prompt_tokens = [], 0, 0
        for (messages, grammar), call in zip(prompts, result.extra["calls"]):
            prompt = decider.engine.render(messages)
            start = time.perf_counter()
            stream = llm.create_completion(
                prompt, max_tokens=max(1, call["completion_tokens"]), temperature=0.0, stream=True,
                grammar=LlamaGrammar.from_string(grammar, verbose=False) if grammar else None,
            )
            for i, _chunk in enumerate(stream):
                if i == 0:
                    first_token.append(time.perf_counter() - start)
            gen_tokens += call["completion_tokens"]
            prompt_tokens += call["prompt_tokens"]
        return time.perf_counter() - t0, first_token

    # warm both paths once, then alternate
    run_decider()
    dec_times, raw_times = [], []
    for _ in range(3):
        dt, result = run_decider()
        rt, _ = raw_calls(result)
        dec_times.append(dt)
        raw_times.append(rt)
    ratio = statistics.median(dec_times) / statistics.median(raw_times)

    # prompt and generation speed of this model on this machine (cold prompt, then streamed tokens)
    merge = result.extra["calls"][-1]
    llm.reset()
    prompt = decider.engine.render(dp.editor_messages([proposal.content, cands[0].markdown_body]))
    tokens = decider.engine.tokenize(prompt)
    t = time.perf_counter()
    llm.eval(tokens)
    prompt_tps = len(tokens) / (time.perf_counter() - t)
    t = time.perf_counter()
    n = 0
    for _ in llm.create_completion(prompt, max_tokens=64, temperature=0.0, stream=True):
        n += 1
    gen_tps = n / (time.perf_counter() - t)

    print(f"\nP3 decider {statistics.median(dec_times):.2f}s vs raw {statistics.median(raw_times):.2f}s "
          f"→ {ratio:.3f}× (goal ≤ 1.05×); decision {result.decision.kind.value} "
          f"prompt_tokens={result.prompt_tokens} completion_tokens={result.completion_tokens} "
          f"merge body {merge['completion_tokens']} tokens; prompt {prompt_tps:.0f} tok/s, generation {gen_tps:.1f} tok/s "
          f"(threads={THREADS}); runs decider={[round(x, 2) for x in dec_times]} raw={[round(x, 2) for x in raw_times]}")
    goals.hold("P3 decider vs raw llama.cpp completion", "≤ 1.05×", f"{ratio:.3f}×", ratio <= 1.05)


# The demo labels are the decider's check half: its prompt was tuned on resources/prompts/decider_devset.json only.
# Goals held just under what the default model reached there (84 % / 88 %, README "Measured").
GOAL_SAME, GOAL_DIFFERENT = 0.80, 0.85


def test_demo_label_accuracy(model_path, demo, goals):
    from memgui.core.merge.guard import check_merge

    store, labels, names = demo
    decider = LlamaDecider(model_path, n_threads=THREADS, n_ctx=4096, timeout_s=0)
    run_to_end(decider.load())
    dup, sib, seconds = [], [], []  # margins: logit(SAME) - logit(DIFFERENT)
    cluster_margins = []
    for ids in labels["duplicate_clusters"]:
        proposal, cands = _cluster(store, names, ids)
        margins = []
        for c in cands:
            call = run_to_end(decider.judge_pair(c.markdown_body, proposal.content))
            seconds.append(call.seconds)
            margins.append(call.margin)
        dup += margins
        cluster_margins.append(min(margins))
        print(f"  dup {len(dup)} margins {margins}", flush=True)
    for a, b in labels["sibling_pairs"]:
        proposal, cands = _cluster(store, names, [a, b])
        call = run_to_end(decider.judge_pair(cands[0].markdown_body, proposal.content))
        sib.append(call.margin)
        print(f"  sibling {len(sib)} margin {call.margin}", flush=True)

    # full decisions (classifier + editor merge + MergeGuard) on a sample of clusters
    sample = int(os.environ.get("MEMGUI_P3_MERGES", "6"))
    merges = []
    for ids in labels["duplicate_clusters"][:sample]:
        proposal, cands = _cluster(store, names, ids)
        result = run_to_end(decider.decide(proposal, cands, full_candidate_content=True))
        d = result.decision
        guard = raw_guard = None
        if d is not None and d.merged_body:
            targets = [c.markdown_body for c in cands if c.document_id in (d.consolidation_target_ids or (d.target_document_id,))]
            guard = check_merge(targets + [proposal.content], d.merged_body)
            editor = next(c["reply"] for c in result.extra["calls"] if c["stage"] == "merge")
            raw_guard = check_merge(targets + [proposal.content], editor)
        merges.append((d.kind.value if d else None, result.seconds, result.completion_tokens,
                       raw_guard.passed if raw_guard else None, guard.passed if guard else None,
                       len(result.extra.get("restored_sentences", ())), round(guard.length_ratio, 2) if guard else None))
        print("  merge", merges[-1], flush=True)

    print(f"\nDemo labels, {decider.model_id}, threads={THREADS}")
    for margin in (0.0, decider.same_margin, 1.0):
        d_ok = sum(m > margin for m in dup)
        c_ok = sum(m > margin for m in cluster_margins)
        s_ok = sum(m <= margin for m in sib)
        print(f"  margin {margin:.1f}: duplicate pairs judged SAME {d_ok}/{len(dup)} ({d_ok / len(dup):.0%}), "
              f"clusters fully recognised {c_ok}/{len(cluster_margins)}, "
              f"sibling pairs judged DIFFERENT {s_ok}/{len(sib)} ({s_ok / len(sib):.0%})")
    print(f"  classifier seconds per pair: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")
    for m in merges:
        print(f"  decision {m[0]} in {m[1]:.1f}s, {m[2]} completion tokens, editor body passes guard={m[3]}, "
              f"after restoring {m[5]} sentence(s) passes={m[4]} (length ratio {m[6]})")
    assert dup and sib
    same = sum(m > decider.same_margin for m in dup) / len(dup)
    different = sum(m <= decider.same_margin for m in sib) / len(sib)
    goals.hold("decider, check half: duplicate pairs judged same-fact", f"≥ {GOAL_SAME:.0%}", f"{same:.1%}",
               same >= GOAL_SAME)
    goals.hold("decider, check half: sibling pairs judged different", f"≥ {GOAL_DIFFERENT:.0%}", f"{different:.1%}",
               different >= GOAL_DIFFERENT)
