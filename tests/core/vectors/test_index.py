"""The persisted hnswlib index: incremental reopen, tombstones, capacity, damage, cancel."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from factories import update_document
from memgui.core.tasks import Cancelled, CancelToken, run_to_end
from memgui.core.vectors.embed import EmbedderSource, LlamaEmbedder
from memgui.core.vectors.index import open_index, sidecar_path
from vector_fakes import FakeEmbedder, add_doc


def build(store, embedder, **kw):
    return run_to_end(open_index(store, EmbedderSource(embedder), **kw))


def files(store, model_id="fake-model"):
    """The sidecar and the data files (graph + vectors) of a model's index."""
    side = sidecar_path(store.path, model_id)
    data = sorted([*side.parent.glob("*.hnsw"), *side.parent.glob("*.npy")]) if side.parent.exists() else []
    return side, data


@pytest.fixture
def store_with_docs(empty_store):
    docs = [add_doc(empty_store, f"Note {i}", f"body number {i} about topic {i % 7}") for i in range(30)]
    return empty_store, docs


def test_first_build_persists_and_reopen_embeds_nothing(store_with_docs):
    store, docs = store_with_docs
    fake = FakeEmbedder()
    index = build(store, fake)
    assert (index.update.embedded, index.update.rebuilt, index.update.saved) == (30, True, True)
    side, data = files(store)
    assert side.is_file() and [p.suffix for p in data] == [".hnsw", ".npy"]
    assert len(fake.seen) == 30

    again = FakeEmbedder()
    reopened = build(store, again)
    assert again.seen == [] and reopened.update.embedded == 0 and reopened.update.reused == 30
    assert not reopened.update.saved and not reopened.update.notices
    hits = reopened.query(again.vector(f"Note 3\n{docs[3].markdown_body}")[None, :], 1)[0]
    assert hits[0][0] == docs[3].document_id and hits[0][1] > 0.999


def test_editing_one_document_re_embeds_only_it(store_with_docs):
    store, docs = store_with_docs
    build(store, FakeEmbedder())
    edited = update_document(store, docs[5], markdown_body="a completely different body")
    fake = FakeEmbedder()
    index = build(store, fake)
    assert fake.seen == ["Note 5\na completely different body"]
    assert (index.update.embedded, index.update.reused) == (1, 29)
    assert index.hash_of[edited.document_id] == edited.content_hash
    hit = index.query(fake.vector("Note 5\na completely different body")[None, :], 1)[0][0]
    assert hit[0] == edited.document_id
    # a whitespace/case-only edit keeps the content hash (netclaw-compat §11.2), so nothing is re-embedded
    _side, data = files(store)
    data_before = [p.read_bytes() for p in data]
    update_document(store, edited, markdown_body="A  completely DIFFERENT body")
    quiet = FakeEmbedder()
    assert build(store, quiet).update.embedded == 0 and quiet.seen == []
    assert files(store)[1] == data and [p.read_bytes() for p in data] == data_before, "only the sidecar moved"
    again = FakeEmbedder()
    assert build(store, again).update.embedded == 0 and again.seen == []


def test_tombstoned_documents_leave_the_index(store_with_docs):
    store, docs = store_with_docs
    fake = FakeEmbedder()
    build(store, fake)
    store.writes.tombstone_document(docs[2].document_id)
    index = build(store, FakeEmbedder())
    assert index.update.removed == 1 and docs[2].document_id not in index and len(index) == 29
    query = fake.vector(f"Note 2\n{docs[2].markdown_body}")[None, :]
    assert all(d != docs[2].document_id for d, _ in index.query(query, 29)[0])
    reopened = build(store, FakeEmbedder())
    assert docs[2].document_id not in reopened and reopened.update.embedded == 0


def test_capacity_grows_and_deleted_slots_are_reused(empty_store):
    first = [add_doc(empty_store, f"A{i}", f"alpha {i}") for i in range(20)]
    index = build(empty_store, FakeEmbedder())
    capacity = index.capacity
    more = [add_doc(empty_store, f"B{i}", f"beta {i}") for i in range(capacity)]
    grown = build(empty_store, FakeEmbedder())
    assert grown.capacity > capacity and len(grown) == 20 + capacity
    for d in first[:10]:
        empty_store.writes.tombstone_document(d.document_id)
    slots = grown.slots_used
    replaced = [update_document(empty_store, d, markdown_body=d.markdown_body + " changed") for d in more[:5]]
    after = build(empty_store, FakeEmbedder())
    assert after.update.embedded == 5 and after.update.removed == 10
    assert after.slots_used == slots, "changed documents reuse the slots of deleted ones"
    assert all(d.document_id in after for d in replaced)


def test_cancel_mid_build_leaves_no_file(store_with_docs):
    store, _ = store_with_docs
    token = CancelToken()
    work = open_index(store, EmbedderSource(FakeEmbedder()), cancel=token, batch_size=8)
    next(work)  # opening
    next(work)  # first embedding progress
    token.cancel()
    with pytest.raises(Cancelled):
        run_to_end(work)
    side, data = files(store)
    assert not side.exists() and data == []
    assert not list(side.parent.glob(".*.tmp")) if side.parent.exists() else True


def test_cancel_of_an_update_keeps_the_previous_index(store_with_docs):
    store, docs = store_with_docs
    build(store, FakeEmbedder())
    side, data = files(store)
    before = (side.read_bytes(), [p.read_bytes() for p in data])
    for d in docs[:20]:
        update_document(store, d, markdown_body=d.markdown_body + " v2")
    token = CancelToken()
    work = open_index(store, EmbedderSource(FakeEmbedder()), cancel=token, batch_size=4)
    next(work)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        run_to_end(work)
    side2, data2 = files(store)
    assert (side2.read_bytes(), [p.read_bytes() for p in data2]) == before
    resumed = build(store, FakeEmbedder())
    assert resumed.update.embedded == 20 and not resumed.update.rebuilt


@pytest.mark.parametrize("damage", [
    "garbage_index", "truncated_index", "truncated_vectors", "garbage_sidecar", "missing_index", "other_dims",
])
def test_damaged_or_mismatched_files_are_rebuilt_with_a_notice(store_with_docs, damage):
    store, _docs = store_with_docs
    build(store, FakeEmbedder())
    side, (hnsw, npy) = files(store)
    if damage == "garbage_index":  # same size, damaged later (its mtime moves on, as any later write's does)
        data = bytearray(hnsw.read_bytes())
        data[100:4000] = bytes(3900)
        written = hnsw.stat().st_mtime_ns
        hnsw.write_bytes(bytes(data))
        os.utime(hnsw, ns=(written + 2_000_000_000, written + 2_000_000_000))
    elif damage == "truncated_index":
        hnsw.write_bytes(hnsw.read_bytes()[:500])
    elif damage == "truncated_vectors":
        npy.write_bytes(npy.read_bytes()[:-64])
    elif damage == "garbage_sidecar":
        side.write_text("{not json")
    elif damage == "missing_index":
        hnsw.unlink()
    embedder = FakeEmbedder(dims=24) if damage == "other_dims" else FakeEmbedder()
    index = build(store, embedder)
    assert index.update.rebuilt and index.update.embedded == 30
    assert len(index.update.notices) == 1 and "rebuilt" in index.update.notices[0]
    assert len(index) == 30 and index.dims == embedder.dims
    assert build(store, FakeEmbedder(dims=embedder.dims)).update.embedded == 0, "the rebuilt pair is reusable"
    side, remaining = files(store)
    meta = json.loads(side.read_text())
    assert [p.name for p in remaining] == [meta["index_file"], meta["vectors_file"]], "old generations are removed"


def test_many_edits_compact_the_graph_without_re_embedding(store_with_docs, monkeypatch):
    monkeypatch.setattr("memgui.core.vectors.index.COMPACT_MIN_STALE", 4)
    store, docs = store_with_docs
    build(store, FakeEmbedder())
    for d in docs[:20]:
        store.writes.tombstone_document(d.document_id)
    for d in docs[20:25]:
        update_document(store, d, markdown_body=d.markdown_body + " (edited)")
    fake = FakeEmbedder()
    index = build(store, fake)
    assert len(fake.seen) == 5, "only the edited documents are embedded"
    assert index.next_label == len(index) == 10 and index.stale_rows == 0 and index.slots_used == 10
    for d in docs[25:]:
        hit = index.query(fake.vector(f"{d.title}\n{d.markdown_body}")[None, :], 1)[0][0]
        assert hit[0] == d.document_id and hit[1] > 0.999
    assert build(store, FakeEmbedder()).update.embedded == 0


def test_each_model_has_its_own_index(store_with_docs):
    store, _ = store_with_docs
    build(store, FakeEmbedder(model_id="model-a"))
    other = build(store, FakeEmbedder(model_id="model-b", dims=8))
    assert other.update.rebuilt and not other.update.notices
    assert sidecar_path(store.path, "model-a").is_file() and sidecar_path(store.path, "model-b").is_file()


def test_vectors_round_trip_and_empty_store(empty_store):
    index = build(empty_store, FakeEmbedder())
    assert len(index) == 0 and index.query(np.ones((1, 16), dtype=np.float32), 5) == [[]]
    doc = add_doc(empty_store, "Only", "one document")
    fake = FakeEmbedder()
    index = build(empty_store, fake)
    vec = index.vectors([doc.document_id])[0]
    expected = fake.vector("Only\none document")
    assert np.allclose(vec, expected / np.linalg.norm(expected), atol=1e-5)
    assert index.query(vec[None, :], 5)[0][0][0] == doc.document_id


def test_real_llama_index_finds_the_paraphrase(empty_store):
    a = add_doc(empty_store, "Staging deploy key", "The deploy key for the staging server rotates every 90 days.")
    add_doc(empty_store, "Revenue", "Quarterly revenue grew by 12 percent.")
    add_doc(empty_store, "Editor", "The user prefers Neovim with the LazyVim distribution.")
    embedder = LlamaEmbedder()
    try:
        index = run_to_end(open_index(empty_store, EmbedderSource(embedder)))
        from memgui.core.vectors.embed import embed_all

        query = embed_all(embedder, ["Key rotation\nStaging server deploy keys are rotated every ninety days."])
        best, cosine = index.query(query, 3)[0][0]
        assert best == a.document_id and cosine > 0.8
        assert index.update.embedded == 3 and index.model_id == "all-minilm-l6-v2" and index.dims == 384
    finally:
        embedder.close()


def test_unsavable_cache_keeps_working_with_a_notice(store_with_docs):
    store, _docs = store_with_docs
    folder = sidecar_path(store.path, "fake-model").parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")  # the cache cannot hold the index
    index = build(store, FakeEmbedder())
    assert len(index) == 30 and not index.update.saved
    assert any("could not be saved" in n for n in index.update.notices)


def test_only_stale_temp_files_are_cleaned(store_with_docs):
    import os
    import time

    store, _ = store_with_docs
    build(store, FakeEmbedder())
    folder = sidecar_path(store.path, "fake-model").parent
    fresh, old = folder / ".fresh.hnsw.tmp", folder / ".old.hnsw.tmp"
    fresh.write_bytes(b"another process is saving")
    old.write_bytes(b"left by a crash")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    build(store, FakeEmbedder())
    assert fresh.exists() and not old.exists()
