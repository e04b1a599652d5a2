"""A frozen snapshot of the corpus outcomes (issue 36, item 5): every labelled case's verdict, recomputed and compared
with tests/data/facts/verdict_snapshot.json, so a change that moves any case is seen. A move that is meant is
written with `python -m tests.fact_corpus.snapshot --write` (and the diff of the snapshot says which cases moved).

The headline goals are asserted on the snapshot itself, so a snapshot that regresses them cannot be written quietly.
"""
import pytest

from fact_corpus.rates import SETS, load
from fact_corpus.snapshot import SNAPSHOT, compute, groups, headline, moved, read

REWRITE = "if the move is meant: python -m tests.fact_corpus.snapshot --write"


@pytest.fixture(scope="module")
def snapshot() -> dict[str, str]:
    assert SNAPSHOT.exists(), f"no {SNAPSHOT}: python -m tests.fact_corpus.snapshot --write"
    return read()


@pytest.mark.parametrize(("name", "part", "parts"), groups(), ids=[f"{n}-{p}" for n, p, _ in groups()])
def test_no_case_moved(snapshot, name, part, parts):
    now = compute(name, part, parts)
    before = {key: snapshot[key] for key in now if key in snapshot}
    changes = moved(before, now)
    assert not changes, f"{len(changes)} cases of {name} moved (id: snapshot → now):\n  " + "\n  ".join(changes) \
        + f"\n{REWRITE}"


def test_the_snapshot_holds_every_case_and_nothing_else(snapshot):
    ids = {c["id"] for name in SETS for c in load(name)}
    assert not ids - set(snapshot), f"cases not in the snapshot: {sorted(ids - set(snapshot))[:20]}\n{REWRITE}"
    assert not set(snapshot) - ids, f"snapshot entries with no case: {sorted(set(snapshot) - ids)[:20]}\n{REWRITE}"
    assert set(snapshot.values()) <= {"proved", "loss", "read", "named", "missed"}, \
        [k for k, v in snapshot.items() if v not in ("proved", "loss", "read", "named", "missed")][:20]


def test_the_snapshot_meets_the_headline_goals(snapshot):
    rates = headline(snapshot)
    assert rates["lossy_proved"] <= 0.01, rates  # lossy merges judged proved: at most 1 %
    assert rates["faithful_loss"] <= 0.10, rates  # faithful merges judged loss: at most 10 % overall
