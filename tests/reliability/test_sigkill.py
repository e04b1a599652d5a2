"""A writer killed with SIGKILL at a random point in the middle of apply/undo/redo leaves the store intact
(`PRAGMA integrity_check` ok) and consistent with its audit trail: every touched row holds the after-image
of the last audit entry that touched it (so every audited change is present), and every row no audit entry
touched is exactly as seeded (so there is no change without its audit row)."""
from __future__ import annotations

import multiprocessing as mp
import os
import random
import signal
import sqlite3
import time
from dataclasses import replace

import pytest

from factories import seed_document, seed_embedding
from memgui.core.curation.types import CurationDecision, DecisionKind, Proposal
from memgui.core.netfx import anchor_id_for
from memgui.core.ops.apply import MODE_APPEND, MergePlan, apply_decision, draft_stamps, keep_separate, merge_cluster
from memgui.core.ops.undo import redo, undo
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import Touched, capture, list_entries

KILLS = 50

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or "fork" not in mp.get_all_start_methods(),
                                reason="needs POSIX fork and SIGKILL")


def _seed(store, title, body, anchor) -> str:
    """A document with one `model-a` vector; returns its id."""
    doc_id = seed_document(store, title, body, anchor=anchor).document_id
    seed_embedding(store, doc_id, vector=[0.1, 0.2, 0.3, 0.4])
    return doc_id


def _writer(path: str, ids: list[str], ready, in_op, seed: int) -> None:
    """Child: apply, undo, redo, create, keep-separate in a loop until killed."""
    rng = random.Random(seed)
    store = open_store(path)
    for left in list_entries(store, operation="merge", state="applied"):  # a kill may have left one applied
        undo(store, left.audit_id)
    ready.set()
    n = 0
    while True:
        n += 1
        a, b = rng.sample(ids, 2)
        in_op.value = 1
        entry = merge_cluster(store, MergePlan(a, (b,), mode=MODE_APPEND, drafted=draft_stamps(store, [a, b]), note=f"n{n}"))
        undo(store, entry.audit_id)
        redo(store, entry.audit_id)
        undo(store, entry.audit_id)
        apply_decision(store, Proposal(f"fact {seed}-{n}", f"Fact number {seed}-{n} is 4{n}GB.",
                                       anchor_name=f"crash-{seed}-{n}"), CurationDecision(DecisionKind.CREATE), [])
        keep_separate(store, [a, b], note=f"n{n}")
        in_op.value = 0


def _check_consistent(path: str, seed_images: dict) -> int:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    store = open_store(path)
    try:
        last: dict[tuple[str, str], object] = {}
        entries = list(reversed(list_entries(store)))  # oldest first
        for entry in entries:
            for kind in ("documents", "anchors", "records"):
                for key, image in entry.after.get(kind, {}).items():
                    last[(kind, key)] = image
            for ex in entry.after.get("exemptions", []):
                last[("exemptions", tuple(ex["pair"]))] = ex["row"]
        doc_ids = {r[0] for r in store.execute("SELECT document_id FROM memory_documents").fetchall()}
        doc_ids |= {r[0] for r in store.execute("SELECT item_id FROM memory_embeddings").fetchall()}
        doc_ids |= {k for kind, k in last if kind == "documents"}
        anchor_ids = {r[0] for r in store.execute("SELECT anchor_id FROM memory_anchors").fetchall()}
        anchor_ids |= {k for kind, k in last if kind == "anchors"}
        pairs = {tuple(r) for r in store.execute("SELECT first_id, second_id FROM memgui_exemptions").fetchall()}
        pairs |= {k for kind, k in last if kind == "exemptions"}
        now = capture(store, Touched.of(sorted(doc_ids), sorted(anchor_ids), (), sorted(pairs)))
        for doc_id in doc_ids:
            expected = last.get(("documents", doc_id), seed_images["documents"].get(doc_id, "<never audited>"))
            assert now["documents"][doc_id] == expected, f"document {doc_id} disagrees with its audit trail"
        for anchor_id in anchor_ids:
            expected = last.get(("anchors", anchor_id), seed_images["anchors"].get(anchor_id, "<never audited>"))
            assert now["anchors"][anchor_id] == expected, f"anchor {anchor_id} disagrees with its audit trail"
        for ex in now["exemptions"]:
            assert ex["row"] == last.get(("exemptions", tuple(ex["pair"]))), f"exemption {ex['pair']} not audited"
        states = {e.audit_id: e.state for e in entries}
        last_revert = {}  # original audit id → the last undo/redo of it that committed
        for e in sorted(entries, key=lambda e: e.audit_id):
            if e.operation in ("undo", "redo"):
                last_revert[e.reverts_audit_id] = e.operation
        for audit_id, operation in last_revert.items():  # each flipped its original in the same transaction
            assert states[audit_id] == ("undone" if operation == "undo" else "applied"), audit_id
        for e in entries:
            if e.operation not in ("undo", "redo") and e.audit_id not in last_revert:
                assert e.state == "applied", e.audit_id  # never reverted: still applied
        return len(entries)
    finally:
        store.close()


def test_sigkill_mid_apply_leaves_store_and_audit_consistent(tmp_path):
    path = str(create_store(tmp_path / "netclaw.db"))
    store = open_store(path)
    ids = [_seed(store, f"Doc {i}", f"Server s{i} has {i + 2}0GB of RAM and runs version 1.{i}.", f"topic-{i}")
           for i in range(5)]
    seed_images = capture(store, Touched.of(ids, [anchor_id_for(f"topic-{i}") for i in range(5)]))
    store.close()

    ctx = mp.get_context("fork")
    rng = random.Random(1234)
    counts, in_op_kills = [], 0
    for k in range(KILLS):
        ready, in_op = ctx.Event(), ctx.Value("i", 0, lock=False)
        child = ctx.Process(target=_writer, args=(path, ids, ready, in_op, k), daemon=True)
        child.start()
        assert ready.wait(30), "writer did not start"
        time.sleep(rng.uniform(0.0, 0.25))
        in_op_kills += in_op.value
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        counts.append(_check_consistent(path, seed_images))
    print(f"\nSIGKILL: {KILLS} kills, {in_op_kills} inside an operation, audit entries after each: {counts}")
    assert counts[-1] > 0 and counts == sorted(counts)
    assert in_op_kills >= 1  # at least one kill landed inside an operation (nearly all do)


def test_the_consistency_check_catches_an_unaudited_change(tmp_path):
    """The checker above is not vacuous: a write that bypasses the audit trail is reported."""
    path = str(create_store(tmp_path / "netclaw.db"))
    store = open_store(path)
    try:
        ids = [_seed(store, f"Doc {i}", f"Body {i} with 1{i}GB.", f"topic-{i}") for i in range(2)]
        seed_images = capture(store, Touched.of(ids, [anchor_id_for(f"topic-{i}") for i in range(2)]))
        merge_cluster(store, MergePlan(ids[0], (ids[1],), mode=MODE_APPEND, drafted=draft_stamps(store, ids)))
        assert _check_consistent(path, seed_images) == 1
        store.writes.upsert_document(replace(store.document(ids[0]), markdown_body="changed behind the audit trail"))
    finally:
        store.close()
    with pytest.raises(AssertionError, match="disagrees with its audit trail"):
        _check_consistent(path, seed_images)
