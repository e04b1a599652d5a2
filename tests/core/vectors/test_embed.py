"""Embedders and vector sources: memgui's llama.cpp MiniLM, the daemon's stored vectors, the ONNX gate."""
from __future__ import annotations

import json

import numpy as np
import pytest

from factories import put_embedding, update_document
from memgui.core.tasks import Cancelled, CancelToken, run_to_end
from memgui.core.vectors.embed import (
    EmbedderSource,
    EmbedderUnavailable,
    LlamaEmbedder,
    OnnxEmbedder,
    StoredVectors,
    StoredVectorsError,
    embed_all,
    stored_model_id,
)
from memgui.core.vectors.embedder_model import MODEL_ID
from vector_fakes import FakeEmbedder, add_doc, text_vector

SNOW = "snowflake-arctic-embed-m-int8"


@pytest.fixture(scope="module")
def llama():
    e = LlamaEmbedder()
    yield e
    e.close()


def test_llama_embedder_vectors_are_normalised_float32(llama):
    assert (llama.model_id, llama.dims, llama.source) == (MODEL_ID, 384, "default")
    vectors = embed_all(llama, ["Title\nBody text.", "", "   ", "word " * 400])
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_llama_embedder_yields_progress_per_batch_and_honours_cancel(llama):
    texts = [f"memory number {i} about the build server" for i in range(40)]
    steps = []
    vectors = run_to_end(llama.embed(texts), steps.append)
    assert [p.done for p in steps] == [16, 32, 40] and all(p.total == 40 for p in steps)
    single = embed_all(llama, texts[33:34])
    assert float(vectors[33] @ single[0]) > 0.9999, "batching does not change a text's vector"

    token = CancelToken()
    work = llama.embed(texts, token)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        next(work)


def test_missing_model_file_is_unavailable_with_reason(tmp_path):
    with pytest.raises(EmbedderUnavailable, match="not found"):
        LlamaEmbedder(tmp_path / "nope.gguf")
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(EmbedderUnavailable, match="could not be loaded"):
        LlamaEmbedder(junk)


def test_stored_vectors_used_only_for_current_content(empty_store):
    a = add_doc(empty_store, "Alpha", "first body")
    b = add_doc(empty_store, "Beta", "second body")
    c = add_doc(empty_store, "Gamma", "third body")
    put_embedding(empty_store, a, SNOW, text_vector("a", 768))
    put_embedding(empty_store, b, SNOW, text_vector("b", 768), content_hash="0" * 64)  # stale row
    stored = StoredVectors(empty_store, SNOW)
    assert stored.info.source == "stored" and stored.dims == 768
    docs = [a, b, c]
    assert [d.document_id for d in stored.missing(docs)] == [b.document_id, c.document_id]
    with pytest.raises(EmbedderUnavailable, match="2 document"):
        run_to_end(stored.vectors_for(docs))
    vec = run_to_end(stored.vectors_for([a]))
    expected = text_vector("a", 768)
    assert np.allclose(vec[0], expected / np.linalg.norm(expected), atol=1e-6)

    # an edit deletes the daemon's rows (as Netclaw does) so the document needs a vector again
    a2 = update_document(empty_store, a, markdown_body="first body, edited")
    assert len(StoredVectors(empty_store, SNOW).missing([a2, b, c])) == 3


def test_stored_vectors_gaps_filled_by_an_embedder_of_the_same_model(empty_store):
    a = add_doc(empty_store, "Alpha", "first body")
    b = add_doc(empty_store, "Beta", "second body")
    put_embedding(empty_store, a, "fake-model", text_vector("a", 16))
    fill = FakeEmbedder(dims=16, model_id="fake-model")
    stored = StoredVectors(empty_store, "fake-model", fill=fill)
    vectors = run_to_end(stored.vectors_for([a, b]))
    assert fill.seen == ["Beta\nsecond body"], "only the gap is embedded, from title + newline + body"
    assert vectors.shape == (2, 16)
    with pytest.raises(StoredVectorsError, match="cannot fill"):
        StoredVectors(empty_store, "fake-model", fill=FakeEmbedder(dims=8, model_id="fake-model"))


def test_wrong_dimension_rows_are_refused_with_a_clear_message(empty_store):
    a = add_doc(empty_store, "Alpha", "first body")
    b = add_doc(empty_store, "Beta", "second body")
    put_embedding(empty_store, a, SNOW, text_vector("a", 768))
    put_embedding(empty_store, b, SNOW, text_vector("b", 384))
    with pytest.raises(StoredVectorsError) as info:
        StoredVectors(empty_store, SNOW)
    assert "wrong dimension" in info.value.reason and "384" in info.value.reason and "768" in info.value.reason


def test_rows_whose_blob_disagrees_with_declared_dims_are_refused(empty_store):
    a = add_doc(empty_store, "Alpha", "first body")
    put_embedding(empty_store, a, "custom-model", text_vector("a", 64), dims=32)
    with pytest.raises(StoredVectorsError, match="damaged"):
        StoredVectors(empty_store, "custom-model")


def test_store_model_is_configured_one_else_most_common(empty_store, tmp_path, monkeypatch):
    docs = [add_doc(empty_store, f"T{i}", f"body {i}") for i in range(3)]
    for d in docs:
        put_embedding(empty_store, d, SNOW, text_vector(d.document_id, 768))
    put_embedding(empty_store, docs[0], "mxbai-embed-large-v1", text_vector("x", 1024))
    assert stored_model_id(empty_store) == SNOW
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "netclaw.json").write_text(json.dumps({"Memory": {"Embeddings": {"ModelId": "mxbai-embed-large-v1"}}}))
    monkeypatch.setenv("NETCLAW_HOME", str(home))
    assert stored_model_id(empty_store) == "mxbai-embed-large-v1"
    assert StoredVectors(empty_store).dims == 1024


def test_onnx_embedder_needs_the_daemon_model_files(tmp_path):
    with pytest.raises(EmbedderUnavailable, match="ONNX model"):
        OnnxEmbedder(SNOW, home=tmp_path)


def test_embedder_source_embeds_title_newline_body(empty_store):
    doc = add_doc(empty_store, "Title here", "Body **markdown**")
    fake = FakeEmbedder()
    source = EmbedderSource(fake)
    assert source.info.model_id == "fake-model"
    run_to_end(source.vectors_for([doc]))
    assert fake.seen == ["Title here\nBody **markdown**"]
