"""The default embedder model: converted once from the installed safetensors to GGUF, run by llama.cpp, and
equal to an independent numpy BERT reference (tokens and vectors)."""
from __future__ import annotations

import numpy as np
import pytest

from bert_reference import ReferenceBert
from memgui.core.vectors import embedder_model
from memgui.core.vectors.embed import LlamaEmbedder, embed_all

PARITY_TEXTS = [
    "The cat sits on the mat.",
    "Hello, unaffable world!",
    "Deploy key for staging: rotate every 90 days (see https://wiki.example.com/ops#keys).",
    "Café naïve résumé — déjà vu 😀",
    "Postgres 16.2 replication\nThe replica lags by 3s when WAL archiving is on; set wal_compression=on.",
]


@pytest.fixture(scope="module")
def model_path():
    return embedder_model.ensure_default_model()


@pytest.fixture(scope="module")
def embedder(model_path):
    e = LlamaEmbedder(model_path, model_id=embedder_model.MODEL_ID)
    yield e
    e.close()


@pytest.fixture(scope="module")
def reference():
    return ReferenceBert(embedder_model.source_files()["weights"].parent)


def test_tensor_names_follow_llama_cpp():
    assert embedder_model.gguf_tensor_name("embeddings.word_embeddings.weight") == "token_embd.weight"
    assert embedder_model.gguf_tensor_name("bert.embeddings.LayerNorm.bias") == "token_embd_norm.bias"
    assert embedder_model.gguf_tensor_name("encoder.layer.5.attention.self.key.bias") == "blk.5.attn_k.bias"
    assert embedder_model.gguf_tensor_name("encoder.layer.0.output.LayerNorm.weight") == "blk.0.layer_output_norm.weight"
    assert embedder_model.gguf_tensor_name("encoder.layer.0.attention.output.LayerNorm.gamma") == "blk.0.attn_output_norm.weight"
    assert embedder_model.gguf_tensor_name("embeddings.position_ids") is None
    assert embedder_model.gguf_tensor_name("pooler.dense.weight") is None


def test_convert_once_then_instant(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "models"))
    assert embedder_model.default_model_path() is None
    messages = []
    path = embedder_model.ensure_default_model(messages.append)
    assert path.is_file() and path.parent.parent == tmp_path / "models"
    assert messages, "the first call reports the conversion"
    assert embedder_model.default_model_path() == path
    assert embedder_model.verify_default_model()
    mtime = path.stat().st_mtime_ns
    again = []
    assert embedder_model.ensure_default_model(again.append) == path
    assert again == [] and path.stat().st_mtime_ns == mtime, "the second call must not convert again"
    assert not list(path.parent.glob(".convert-*")), "no temp file is left behind"


def test_damaged_model_is_reconverted(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "models"))
    path = embedder_model.ensure_default_model()
    with path.open("r+b") as fh:
        fh.truncate(1000)
    assert embedder_model.default_model_path() is None, "a truncated file is not offered"
    repaired = embedder_model.ensure_default_model()
    assert repaired == path and embedder_model.verify_default_model()


def test_llama_cpp_matches_numpy_reference(embedder, reference):
    vectors = embed_all(embedder, PARITY_TEXTS)
    for text, vector in zip(PARITY_TEXTS, vectors):
        llama_ids = embedder._llm.tokenize(text.encode("utf-8"), add_bos=True, special=False)
        assert llama_ids == reference.tokenize(text), f"tokenisation differs for {text!r}"
        cosine = float(vector @ reference.embed_ids(llama_ids))
        assert cosine > 0.9999, f"{text!r}: cosine {cosine:.6f} vs the numpy reference"


def test_paraphrase_outranks_unrelated(embedder):
    a, b, c = embed_all(embedder, [
        "The deploy key for the staging server rotates every 90 days.",
        "Staging server deploy keys are rotated every ninety days.",
        "Quarterly revenue grew by 12 percent.",
    ])
    assert float(a @ b) > 0.85 > 0.3 > float(a @ c)
    assert np.allclose(np.linalg.norm([a, b, c], axis=1), 1.0, atol=1e-5)
