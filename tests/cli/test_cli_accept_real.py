"""`memgui accept-safe --dry-run --json` with the real default model on the first clusters of the demo store:
nothing is written, every write it plans joins only labelled duplicates (never a sibling pair), and a second run
reads every review from the decision cache."""
import hashlib
import itertools
import json

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels

pytestmark = pytest.mark.realmodel


def test_a_dry_run_on_a_demo_subset_plans_only_labelled_duplicates(tmp_path, capsys):
    labels = demo_labels()
    truth = {frozenset(p) for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)}
    store = build_demo_store(tmp_path / "netclaw.db")
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    # merges only: the real supersede reading has its own real-model test (test_cli_supersede.py)
    argv = ["accept-safe", "--store", str(store), "--dry-run", "--json", "--limit", "2", "--threads", "2",
            "--no-supersede"]
    code = main(argv)
    plan = json.loads(capsys.readouterr().out)
    assert code == 0 and plan["reviewed"] == 2 and plan["computed"] == 2
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    assert plan["considered"] == 2
    for write in plan["writes"]:
        ids = [write["target_id"], *write["tombstoned"]]
        assert all(frozenset(p) in truth for p in itertools.combinations(ids, 2)), write["cluster_id"]
        assert write["guard"]["passed"] and write["strict"]["passed"] and 2 <= len(ids) <= 3
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["cached"] == 2 and again["computed"] == 0
    assert [w["merged_body"] for w in again["writes"]] == [w["merged_body"] for w in plan["writes"]]
