"""A daemon-like writer appends sentences to documents (as Netclaw's append path does: its own connection,
BEGIN IMMEDIATE, updated_at bumped) while memgui drafts, merges, undoes and redoes on the same file. No update
may be lost: every sentence the daemon committed is, at the end, in some document's body — memgui refused
each write whose sources changed since the draft, and each undo/redo whose rows changed since."""
from __future__ import annotations

import multiprocessing as mp
import random
import sqlite3
import time

from factories import seed_document
from memgui.core.ops.apply import MODE_APPEND, MergePlan, StaleSourceError, draft_stamps, merge_cluster
from memgui.core.ops.undo import UndoConflictError, redo, undo
from memgui.core.store import create_store, open_store

SECONDS = 8  # at least; on a busy machine the run goes on until both sides did enough (at most CAP_SECONDS)
CAP_SECONDS = 120
DOCS = 12


def _daemon(path: str, ids: list[str], stop, log, written, wrote) -> None:
    """Append a unique sentence to a random live document, one short transaction at a time."""
    rng = random.Random(5)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    n = 0
    while not stop.is_set():
        n += 1
        marker = f"daemon-sentence-{n}."
        doc = rng.choice(ids)
        conn.execute("BEGIN IMMEDIATE")
        cur = conn.execute(
            "UPDATE memory_documents SET markdown_body = markdown_body || ' ' || ?, "
            "updated_at = max(updated_at + 1, CAST(strftime('%s','now') AS INTEGER) * 1000) "
            "WHERE document_id = ? AND update_semantics != 'tombstone'", (marker, doc))
        conn.execute("COMMIT")
        if cur.rowcount == 1:
            log.put(marker)
            with written.get_lock():
                written.value += 1
            wrote.set()
        stop.wait(rng.uniform(0.0, 0.004))  # jitter between the daemon's writes (not a wait for anything)
    conn.close()
    log.put(None)


def test_no_update_of_a_concurrent_writer_is_lost(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        ids = [seed_document(store, f"Note {i}", f"Note {i} says port {5400 + i}.", anchor=f"topic-{i % 4}").document_id
               for i in range(DOCS)]
    ctx = mp.get_context("fork")
    stop, log, written, wrote = ctx.Event(), ctx.Queue(), ctx.Value("i", 0), ctx.Event()
    daemon = ctx.Process(target=_daemon, args=(str(path), ids, stop, log, written, wrote))
    daemon.start()
    counts = _review_beside_the_daemon(path, ids, written, wrote)
    stop.set()
    committed = []
    while (item := log.get(timeout=30)) is not None:
        committed.append(item)
    daemon.join(timeout=30)
    conn = sqlite3.connect(path)
    bodies = "\n".join(r[0] for r in conn.execute("SELECT markdown_body FROM memory_documents"))
    conn.close()
    lost = [m for m in committed if f" {m}" not in bodies]
    print(f"\nconcurrent daemon: {len(committed)} daemon writes, memgui {counts}, lost updates {len(lost)}")
    assert len(committed) > 100 and counts["merged"] > 10  # both sides really worked at once
    assert counts["refused as stale"] + counts["undo/redo refused"] > 0  # and really collided
    assert lost == []


def _review_beside_the_daemon(path, ids: list[str], written, wrote) -> dict[str, int]:
    """memgui drafts, merges, undoes and redoes pairs of the documents while the daemon writes, until both sides
    did enough; returns how often each happened (and was refused)."""
    rng = random.Random(11)
    counts = {"merged": 0, "refused as stale": 0, "undone": 0, "redone": 0, "undo/redo refused": 0}
    start = time.monotonic()

    def daemon_writes(chance: float) -> None:
        """Now and then, let the daemon commit a write here (a reviewer reading the draft while it writes)."""
        if rng.random() < chance:
            wrote.clear()
            assert wrote.wait(60), "the daemon stopped writing"

    def enough() -> bool:
        elapsed = time.monotonic() - start
        did_enough = written.value > 100 and counts["merged"] > 10
        return elapsed > CAP_SECONDS or (elapsed > SECONDS and did_enough)

    with open_store(path) as store:
        while not enough():
            live = [d.document_id for d in store.documents_by_ids(ids) if not d.is_tombstoned]
            if len(live) < 2:
                break
            a, b = rng.sample(live, 2)
            drafted = draft_stamps(store, [a, b])
            daemon_writes(1.0)  # a reviewer reading the draft while the daemon writes
            try:
                entry = merge_cluster(store, MergePlan(a, (b,), mode=MODE_APPEND, drafted=drafted))
            except StaleSourceError:
                counts["refused as stale"] += 1
                continue
            counts["merged"] += 1
            for action, key in ((undo, "undone"), (redo, "redone"), (undo, "undone")):
                daemon_writes(0.5)
                try:
                    action(store, entry.audit_id)
                    counts[key] += 1
                except UndoConflictError:
                    counts["undo/redo refused"] += 1
                    break
    return counts
