"""P6: memgui's default embedder (LlamaEmbedder: batches, progress, cancel checks, normalisation) against a raw
llama-cpp-python embed loop over the same texts and the same model/context/threads. Goal: ≥ 0.9× the raw
throughput. Texts are the demo store's documents ("{title}\\n{body}"). Runs alternate to spread machine noise;
the best of each side counts."""
from __future__ import annotations

from conftest import Timer
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store
from memgui.core.tasks import run_to_end
from memgui.core.vectors.embed import LlamaEmbedder
from memgui.core.vectors.embedder_model import ensure_default_model

ROUNDS = 3


def test_p6_default_embedder_vs_raw_llama(tmp_path, goals):
    from llama_cpp import Llama

    with open_store(build_demo_store(tmp_path / "demo.db"), read_only=True) as store:
        texts = [d.embedding_text for d in store.documents()][:200]
    ours = LlamaEmbedder()
    threads, context = ours._llm.n_threads, ours._llm.n_ctx()
    raw = Llama(model_path=str(ensure_default_model()), embedding=True, n_ctx=context, n_batch=context,
                n_ubatch=context, n_threads=threads, n_threads_batch=threads, verbose=False)
    raw.embed(texts[:8])
    run_to_end(ours.embed(texts[:8]))
    raw_best = ours_best = list_best = float("inf")
    for _ in range(ROUNDS):
        with Timer() as t:
            for text in texts:
                raw.embed(text, truncate=True)
        raw_best = min(raw_best, t.seconds)
        with Timer() as t:
            run_to_end(ours.embed(texts))
        ours_best = min(ours_best, t.seconds)
    with Timer() as t:
        raw.embed(texts, truncate=True)  # for reference: one call, llama-cpp-python packs texts per decode
    list_best = t.seconds
    raw.close()
    ours.close()
    raw_rate, ours_rate = len(texts) / raw_best, len(texts) / ours_best
    ratio = ours_rate / raw_rate
    print(f"\nP6 {len(texts)} demo texts, {threads} threads, n_ctx {context}: memgui {ours_rate:.1f} texts/s, raw "
          f"llama-cpp-python loop {raw_rate:.1f} texts/s → {ratio:.2f}×; (raw single packed call "
          f"{len(texts) / list_best:.1f} texts/s)")
    goals.hold("P6 default embedder vs raw llama.cpp", "≥ 0.9×", f"{ratio:.2f}×", ratio >= 0.9)
