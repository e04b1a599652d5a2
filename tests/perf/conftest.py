"""Shared helpers for the benchmarks (`make bench`; not part of `make test`), and the goal table.

A benchmark holds a goal with the `goals` fixture: `goals.hold(measure, goal, now, met)` records one row of the
table `make bench` prints at the end (measure | goal | now | met). A missed goal fails its test once the test has
run to the end (every row of that test is recorded first), so `make bench` exits non-zero and the table shows
which measure missed and by how much. A benchmark that cannot run (no model installed) records no row."""
from __future__ import annotations

import os
import time
from collections.abc import Generator
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

from memgui.core.tasks import Progress
from memgui.core.vectors.embed import EmbedderInfo


def clustered_vectors(n: int, dims: int = 384, *, clusters: int = 200, latent: int = 48, seed: int = 7) -> np.ndarray:
    """Embedding-like vectors: `clusters` centres in a `latent`-d space, points scattered around them, lifted to
    `dims` by a random linear map plus a little isotropic noise, L2-normalised. Uniform random vectors have no
    neighbour structure and are a pathological benchmark (dependencies.md §5)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, latent)).astype(np.float32)
    assignment = rng.integers(0, clusters, n)
    points = centres[assignment] + 0.45 * rng.standard_normal((n, latent)).astype(np.float32)
    lift = rng.standard_normal((latent, dims)).astype(np.float32) / np.sqrt(latent)
    vectors = points @ lift + 0.05 * rng.standard_normal((n, dims)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)


class PrecomputedSource:
    """A VectorSource that returns vectors computed beforehand (keyed by document id): isolates index cost."""

    def __init__(self, vectors_by_id: dict[str, np.ndarray], model_id: str = "bench-vectors"):
        dims = len(next(iter(vectors_by_id.values())))
        self.info = EmbedderInfo(model_id, dims, "default")
        self._by_id = vectors_by_id

    def vectors_for(self, docs, cancel=None):
        out = np.stack([self._by_id[d.document_id] for d in docs])
        yield Progress("embedding", len(docs), len(docs))
        return out


def fake_docs(n: int):
    """Lightweight document stand-ins with the attributes the index reads (id, hash, fingerprint fields)."""
    return [
        SimpleNamespace(document_id=f"doc-{i:032x}", content_hash=f"{i:064x}", updated_at=i, title="", markdown_body="",
                        is_tombstoned=False)
        for i in range(n)
    ]


def bench_store(tmp_path):
    """The index only needs the store's path (for its cache key) when documents are passed in."""
    return SimpleNamespace(path=tmp_path / "bench.db")


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start


@pytest.fixture(autouse=True)
def _bench_threads(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", os.environ.get("OMP_WAIT_POLICY", "passive"))


# ---- the goal table ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoalRow:
    measure: str
    goal: str
    now: str
    met: bool


class Goals:
    """The goals one benchmark holds (see the module docstring)."""

    def __init__(self) -> None:
        self.rows: list[GoalRow] = []

    def hold(self, measure: str, goal: str, now: str, met: bool) -> bool:
        row = GoalRow(measure, goal, now, bool(met))
        self.rows.append(row)
        _TABLE.append(row)
        return row.met

    def missed(self) -> list[GoalRow]:
        return [r for r in self.rows if not r.met]


_TABLE: list[GoalRow] = []


@pytest.fixture
def goals(request: pytest.FixtureRequest) -> Goals:
    held = Goals()
    request.node._bench_goals = held
    return held


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    result = yield  # the benchmark ran to its end: now a missed goal fails it
    held: Goals | None = getattr(item, "_bench_goals", None)
    missed = held.missed() if held is not None else []
    if missed:
        raise AssertionError("goal missed: " + "; ".join(f"{r.measure}: {r.now} (goal {r.goal})" for r in missed))
    return result


def format_goal_table(rows: list[GoalRow]) -> list[str]:
    header = ("measure", "goal", "now", "met")
    cells = [header, *((r.measure, r.goal, r.now, "yes" if r.met else "NO") for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["| " + " | ".join(c[i].ljust(widths[i]) for i in range(4)) + " |" for c in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return lines


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if not _TABLE:
        return
    missed = sum(not r.met for r in _TABLE)
    terminalreporter.section(f"benchmark goals: {len(_TABLE) - missed} met, {missed} missed")
    for line in format_goal_table(_TABLE):
        terminalreporter.write_line(line)
