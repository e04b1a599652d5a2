"""How fast the fact lens reads, against Netclaw's MergeGuard on the same inputs (issue 23, item 12; `make bench`).

Goals: a typical note's facts in ≤ 5 ms; the live re-check of a 10 KB body (sources unchanged, as while a reviewer
edits) ≤ 50 ms; 1 MB of sources ≤ 1 s. Each is printed with MergeGuard's time on the same input as the baseline of
the same run. Each is a row of `make bench`'s goal table; a goal missed fails its test.
"""
from __future__ import annotations

import statistics
import time

from memgui.core.merge.facts.notes import read_note
from memgui.core.merge.guard import check_merge
from memgui.core.merge.strict import check_strict
from memgui.core.store.demo import load_corpus

GOALS_S = {"typical note": 0.005, "10 KB re-check": 0.050, "1 MB": 1.0, "1 MB, a tenth edited": 1.0}


def _prose() -> tuple[list[str], str]:
    docs = [d.row["markdown_body"] for d in load_corpus().documents]
    return docs, "\n\n".join(docs)


def _cut(prose: str, size: int) -> str:
    return (prose * (1 + size // len(prose)))[:size]


def _best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _report(measure: str, seconds: float, baseline: float, goals) -> None:
    goal = GOALS_S[measure]
    met = seconds <= goal
    print(f"\n| {measure} | goal ≤ {goal * 1000:.0f} ms | lens {seconds * 1000:.1f} ms | MergeGuard "
          f"{baseline * 1000:.1f} ms | ×{seconds / max(baseline, 1e-9):.1f} | {'met' if met else 'MISS'} |")
    goals.hold(f"fact lens speed, {measure}", f"≤ {goal * 1000:.0f} ms", f"{seconds * 1000:.1f} ms", met)


def test_a_typical_notes_facts(goals) -> None:
    docs, _ = _prose()
    read_note(docs[0])  # libraries and tables loaded once per process (pint, WordNet, wordfreq)
    per_note = statistics.median(_best(lambda d=d: read_note(d), 3) for d in docs)
    baseline = statistics.median(_best(lambda d=d: check_merge([d], d), 3) for d in docs)
    _report("typical note", per_note, baseline, goals)


def test_the_live_recheck_of_a_10_kb_body(goals) -> None:
    _, prose = _prose()
    a, b = _cut(prose, 5_000), _cut(prose[5_000:] + prose, 5_000)
    body = a + "\n\n" + b
    check_strict([a, b], body)  # the sources are read once, as when the merge opens
    # each keystroke is another edit (a different word each time), so no re-check finds its body read before
    edits = [body.replace("the", "The", n) for n in range(1, 6)]
    seconds = min(_best(lambda e=e: check_strict([a, b], e), repeat=1) for e in edits)
    baseline = min(_best(lambda e=e: check_merge([a, b], e), repeat=1) for e in edits)
    _report("10 KB re-check", seconds, baseline, goals)


def test_one_megabyte_of_sources(goals) -> None:
    """A union draft of two 500 KB notes: every sentence copied, so only the copying is checked."""
    _, prose = _prose()
    a, b = _cut(prose, 500_000), _cut(prose[7_000:] + prose, 500_000)
    body = a + "\n\n" + b
    seconds = _best(lambda: check_strict([a, b], body), repeat=1)
    baseline = _best(lambda: check_merge([a, b], body), repeat=1)
    _report("1 MB", seconds, baseline, goals)


def test_one_megabyte_with_a_tenth_of_its_paragraphs_edited(goals) -> None:
    """The same sources with one paragraph in ten of the body reworded: those are compared in full."""
    _, prose = _prose()
    a, b = _cut(prose, 500_000), _cut(prose[7_000:] + prose, 500_000)
    paragraphs = (a + "\n\n" + b).split("\n\n")
    body = "\n\n".join(p.replace(" the ", " that ", 1) if i % 10 == 0 else p for i, p in enumerate(paragraphs))
    seconds = _best(lambda: check_strict([a, b], body), repeat=1)
    baseline = _best(lambda: check_merge([a, b], body), repeat=1)
    _report("1 MB, a tenth edited", seconds, baseline, goals)
