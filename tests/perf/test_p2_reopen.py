"""P2: reopening a store's persisted index against a cold build, at 100k documents. Goal: reopen ≤ 1 s and
≥ 20× faster than the cold build. Both sides run `open_index` on a real 100k-document store file (reading the
unchanged documents are recognised by their updated_at/length fingerprints); vectors are precomputed so the cold
build is only the index build
(embedding 100k documents with MiniLM would add about an hour, see P6)."""
from __future__ import annotations

import sqlite3

from conftest import PrecomputedSource, Timer, clustered_vectors
from memgui.core.store import create_store, open_store
from memgui.core.tasks import run_to_end
from memgui.core.vectors.index import open_index

N = 100_000


def fill_store(path, n: int) -> list[str]:
    create_store(path)
    ids = [f"doc-{i:032x}" for i in range(n)]
    rows = [
        (d, "anchor:bench", "durable_fact", f"Note {i}", f"Benchmark memory number {i}: fact {i * 7 % 1000}.",
         "merge-document", "boundary:trusted-instance", "personal", "normal", "auto", 0.8, 1_700_000_000_000 + i,
         1_700_000_000_000 + i)
        for i, d in enumerate(ids)
    ]
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO memory_anchors (anchor_id, anchor_type, canonical_name, sensitivity, recall_mode, confidence, "
            "status, created_at, updated_at) VALUES ('anchor:bench', 'concept', 'bench', 'normal', 'auto', 0.8, 'active', 0, 0)"
        )
        conn.executemany(
            "INSERT INTO memory_documents (document_id, anchor_id, memory_class, title, markdown_body, update_semantics, "
            "boundary, audience, sensitivity, recall_mode, confidence, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
    conn.close()
    return ids


def test_p2_reopen_vs_cold_build(tmp_path, goals):
    path = tmp_path / "netclaw.db"
    ids = fill_store(path, N)
    source = PrecomputedSource(dict(zip(ids, clustered_vectors(N))))
    with open_store(path, read_only=True) as store:
        with Timer() as cold:
            built = run_to_end(open_index(store, source))
        assert built.update.embedded == N and built.update.saved
        with Timer() as read_docs:
            store.documents()
        with Timer() as reopen:
            reopened = run_to_end(open_index(store, source))
    assert reopened.update.embedded == 0 and reopened.update.reused == N and not reopened.update.saved
    ratio = cold.seconds / reopen.seconds
    print(f"\nP2 N={N}: cold build {cold.seconds:.1f} s, reopen {reopen.seconds:.2f} s → {ratio:.0f}× faster "
          f"(for scale: reading all documents with Store.documents() takes {read_docs.seconds:.2f} s; a reopen "
          f"reads only ids + fingerprints)")
    goals.hold(f"P2 reopen N={N:,}", "≤ 1 s", f"{reopen.seconds:.2f} s", reopen.seconds <= 1.0)
    goals.hold(f"P2 reopen vs cold build N={N:,}", "≥ 20×", f"{ratio:.0f}×", ratio >= 20)
