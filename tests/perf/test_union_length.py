"""Union drafts on the demo's labelled duplicate pairs: guard pass rate, the share the alignment proves (issue 36:
the union is prove-or-keep, `judge(...)`'s verdict `proved`; the strict lens's old pass rate is printed beside it)
and the median length ratio (merged / longest source). Goals: guard 100 % (asserted: it holds by construction),
median ≤ 1.3 (issue 11) and proved ≥ 95 % (issue 36), rows of `make bench`'s goal table (a miss fails).
The same on two sets of pairs written outside the demo (data/union_pairs_*.json, each file says how far it is
held out): the demo's rules were written after reading demo drafts, so the demo figure is not a check."""
import itertools
import json
import statistics
from pathlib import Path

from memgui.core.merge.align import Verdict, judge
from memgui.core.merge.guard import check_merge
from memgui.core.merge.strict import check_strict
from memgui.core.merge.union import sentence_union
from memgui.core.store.demo import demo_labels, load_corpus

_DATA = Path(__file__).parent / "data"


def _report(name: str, pairs: list[tuple[str, str]], goals) -> None:
    ratios, guard_ok, strict_ok, proved = [], 0, 0, 0
    for a, b in pairs:
        longest, other = sorted([a, b], key=len, reverse=True)
        merged = sentence_union(longest, [other])
        ratios.append(len(merged) / max(1, len(longest)))
        guard_ok += check_merge([longest, other], merged).passed
        strict_ok += check_strict([longest, other], merged).passed
        proved += judge([longest, other], merged)[1].verdict is Verdict.PROVED
    median = statistics.median(ratios)
    share = proved / len(pairs)
    print(f"\nunion drafts on {len(pairs)} {name}: guard pass {guard_ok}/{len(pairs)}, proved {proved}/{len(pairs)}, "
          f"strict lens pass {strict_ok}/{len(pairs)}, length ratio median {median:.3f} (goal ≤ 1.30: "
          f"{'met' if median <= 1.3 else 'NOT met'}), mean {statistics.mean(ratios):.2f}, "
          f"max {max(ratios):.2f}")
    assert guard_ok == len(pairs)
    goals.hold(f"union length, median merged/longest, {name}", "≤ 1.30", f"{median:.3f}", median <= 1.3)
    goals.hold(f"union drafts proved, {name}", "≥ 95 %", f"{share:.1%} ({proved}/{len(pairs)})", share >= 0.95)


def test_union_drafts_on_demo_duplicate_pairs(goals):
    bodies = {d.document_id: d.row["markdown_body"] for d in load_corpus().documents}
    pairs = [p for cluster in demo_labels()["duplicate_clusters"] for p in itertools.combinations(cluster, 2)]
    _report("demo duplicate pairs", [(bodies[a], bodies[b]) for a, b in pairs], goals)


def test_union_drafts_on_pairs_written_outside_the_demo(goals):
    for path in sorted(_DATA.glob("union_pairs_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        _report(f"pairs of {path.name}", [(p["a"], p["b"]) for p in data["pairs"]], goals)
