"""`memgui decide --json` with the real default model on a mixed demo cluster: a duplicate pair plus a sibling
(two notes on which Go the Routewise services use, and a later note that they moved to Go 1.24)."""
import json

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels

pytestmark = pytest.mark.realmodel

GO_PAIR = {"doc-41991d75fb0dce859b757ed92245ca27", "doc-703f5e7691b6ff37f7df261ea90f0d4a"}
GO_SIBLING = "doc-0d79eb5fa1aedf766b21ea3d631f1f80"


def test_the_duplicate_pair_is_one_group_and_the_sibling_stands_alone(tmp_path, capsys):
    labels = demo_labels()
    assert sorted(GO_PAIR) in [sorted(c) for c in labels["duplicate_clusters"]]
    store = build_demo_store(tmp_path / "netclaw.db")
    code = main(["decide", "--store", str(store), "--docs", ",".join([GO_SIBLING, *sorted(GO_PAIR)]), "--json",
                 "--threads", "2"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["groups_judged"] is True, data.get("error")
    assert [set(g) for g in data["groups"]] == [GO_PAIR, {GO_SIBLING}]
    assert data["target"] in GO_PAIR
    assert GO_SIBLING not in data["targets"] + [data["proposal_id"]]
    assert data["decision"] in ("UPDATE", "CONSOLIDATE") and data["guard"]["passed"] is True
