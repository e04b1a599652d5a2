"""The write lock under a live daemon: memgui merges notes of 1 KB … 1 MB while a daemon-like process writes
other documents of the same store (its own connection, BEGIN IMMEDIATE, Netclaw's 30 s busy timeout). Measures
how long memgui holds the lock (from BEGIN IMMEDIATE granted to COMMIT done, outermost transactions only) and
counts the daemon's writes that failed. Shared by tests/reliability/test_lock_hold.py (asserts 0 failed daemon
writes and a bounded hold) and tests/perf/test_lock_hold_bench.py (prints the figures)."""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import random
import sqlite3
import time
from dataclasses import dataclass, field

from factories import seed_document
from memgui.core.ops.apply import MODE_APPEND, MODE_MERGED_BODY, MergePlan, draft_stamps, merge_cluster
from memgui.core.store import create_store, open_store

NETCLAW_BUSY_TIMEOUT_S = 30.0
WORDS = ("alpha", "port", "server", "backup", "nightly", "ticket", "owner", "config", "deploy", "region")


def note(size: int, tag: str, seed: int) -> str:
    """About `size` characters of distinct factual sentences."""
    rng = random.Random(seed)
    out, total, i = [], 0, 0
    while total < size:
        s = f"The {rng.choice(WORDS)} {tag}{i} uses value {rng.randint(1, 99999)} for {rng.choice(WORDS)}."
        out.append(s)
        total += len(s) + 1
        i += 1
    return " ".join(out)


def _daemon(path: str, ids: list[str], stop, ready, stats, wrote) -> None:
    """Append a sentence to one of its own documents, one short transaction at a time, as Netclaw does."""
    rng = random.Random(3)
    conn = sqlite3.connect(path, timeout=NETCLAW_BUSY_TIMEOUT_S, isolation_level=None)
    n = 0
    ready.set()
    while not stop.is_set():
        n += 1
        started = time.perf_counter()
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("UPDATE memory_documents SET markdown_body = markdown_body || ?, updated_at = updated_at + 1 "
                         "WHERE document_id = ?", (f" daemon {n}.", rng.choice(ids)))
            conn.execute("COMMIT")
            with stats.get_lock():
                stats[0] += 1
                stats[2] = max(stats[2], time.perf_counter() - started)
            wrote.set()
        except sqlite3.OperationalError:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            with stats.get_lock():
                stats[1] += 1
        stop.wait(rng.uniform(0.0, 0.003))  # jitter between the daemon's writes (not a wait for anything)
    conn.close()


@dataclass
class LockHoldRun:
    holds: dict[tuple[int, str], list[float]] = field(default_factory=dict)  # (note size, mode) -> seconds
    daemon_written: int = 0
    daemon_failed: int = 0
    daemon_longest_write_s: float = 0.0

    @property
    def longest(self) -> float:
        return max((h for hs in self.holds.values() for h in hs), default=0.0)


def measure(tmp_path, sizes=(1_000, 10_000, 100_000, 1_000_000), modes=(MODE_MERGED_BODY, MODE_APPEND),
            repeats: int = 1, notes: int = 2) -> LockHoldRun:
    path = create_store(tmp_path / "netclaw.db")
    run = LockHoldRun()
    with open_store(path) as store:
        daemon_ids = [seed_document(store, f"Daemon {i}", f"Daemon note {i}.", anchor="daemon").document_id
                      for i in range(6)]
        clusters = []
        for size in sizes:
            for mode in modes:
                for r in range(repeats):
                    ids = [seed_document(store, f"Note {size} {mode} {r} {k}", note(size, f"n{k}x", size + 7 * r + k),
                                         anchor=f"topic-{size}-{mode}-{r}").document_id for k in range(notes)]
                    clusters.append((size, mode, ids))
    ctx = mp.get_context("fork")
    stop, ready, wrote, stats = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Array("d", 3)
    daemon = ctx.Process(target=_daemon, args=(str(path), daemon_ids, stop, ready, stats, wrote))
    daemon.start()
    assert ready.wait(60), "the daemon did not start"
    try:
        with open_store(path) as store:
            held: list[float] = []
            inner = store.transaction

            @contextlib.contextmanager
            def timed():
                outer = not store.db.in_transaction()
                with inner():
                    granted = time.perf_counter()
                    yield
                if outer:
                    held.append(time.perf_counter() - granted)

            store.transaction = timed  # type: ignore[method-assign]
            for size, mode, ids in clusters:
                docs = {d.document_id: d for d in store.documents_by_ids(ids)}
                body = "\n\n".join(docs[i].markdown_body for i in ids) if mode == MODE_MERGED_BODY else None
                held.clear()
                merge_cluster(store, MergePlan(ids[0], tuple(ids[1:]), mode, body, draft_stamps(store, ids)))
                run.holds.setdefault((size, mode), []).append(max(held))
                wrote.clear()
                assert wrote.wait(60), "the daemon stopped writing"  # the daemon writes between merges too
    finally:
        stop.set()
        daemon.join(60)
    run.daemon_written, run.daemon_failed, run.daemon_longest_write_s = int(stats[0]), int(stats[1]), stats[2]
    return run


def table(run: LockHoldRun) -> str:
    lines = [f"{'note size':>10} {'mode':<12} {'lock held (max)':>16}"]
    for (size, mode), hs in sorted(run.holds.items()):
        lines.append(f"{size:>10,} {mode:<12} {max(hs) * 1000:>13.1f} ms")
    lines.append(f"longest hold {run.longest * 1000:.1f} ms (goal ≤ 100 ms); daemon: {run.daemon_written} writes, "
                 f"{run.daemon_failed} failed, its longest write {run.daemon_longest_write_s * 1000:.1f} ms")
    return "\n".join(lines)
