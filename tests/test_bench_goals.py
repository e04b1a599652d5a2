"""`make bench`'s goal table (tests/perf/conftest.py): every held goal is a row (measure | goal | now | met), a missed
goal fails its benchmark after the benchmark has run to its end, and so the run exits non-zero."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BENCH = '''
def test_quick(goals):
    goals.hold("quick thing", "≤ 1 s", "0.2 s", True)

def test_slow(goals):
    goals.hold("slow thing", "≤ 1 s", "3.0 s", False)
    goals.hold("after the miss", "≥ 2×", "2.5×", True)  # recorded: the miss fails the test only at its end
'''


def _bench(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    perf = tmp_path / "perf"
    perf.mkdir()
    shutil.copy(ROOT / "tests" / "perf" / "conftest.py", perf / "conftest.py")
    (perf / "test_probe.py").write_text(body, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-p", "no:randomly", str(perf)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)


def test_a_missed_goal_fails_the_run_and_the_table_shows_every_row(tmp_path):
    run = _bench(tmp_path, BENCH)
    assert run.returncode == 1, run.stdout + run.stderr
    out = run.stdout
    assert "benchmark goals: 2 met, 1 missed" in out
    assert "| measure " in out and "| goal " in out and "| now " in out and "| met |" in out
    assert "| quick thing    | ≤ 1 s | 0.2 s | yes |" in out
    assert "| slow thing     | ≤ 1 s | 3.0 s | NO  |" in out
    assert "| after the miss | ≥ 2×  | 2.5×  | yes |" in out
    assert "1 failed, 1 passed" in out and "goal missed: slow thing: 3.0 s (goal ≤ 1 s)" in out


def test_every_goal_met_passes(tmp_path):
    run = _bench(tmp_path, BENCH.split("def test_slow")[0])
    assert run.returncode == 0, run.stdout + run.stderr
    assert "benchmark goals: 1 met, 0 missed" in run.stdout
