"""`memgui audit --json` shows the restatements a reviewer confirmed in the window, with the merge they belong to."""
from __future__ import annotations

import json

from factories import seed_document
from memgui.__main__ import main
from memgui.core.merge.read_pairs import ConfirmedRestatement
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.store import create_store, open_store


def test_audit_json_shows_the_confirmed_restatements(tmp_path, capsys):
    path = create_store(tmp_path / "netclaw.db")
    store = open_store(path)
    try:
        a = seed_document(store, "Ana's car", "Ana bought a car.", anchor="ana")
        b = seed_document(store, "Ana's automobile", "Ana purchased a new car.", anchor="ana-car")
        ids = (a.document_id, b.document_id)
        confirmed = ConfirmedRestatement(b.document_id, 0, "Ana purchased a new car.", ("Ana bought a car.",))
        merge_cluster(store, MergePlan(a.document_id, ids, merged_body="Ana bought a car.",
                                       drafted=draft_stamps(store, ids), confirmed=(confirmed,)))
    finally:
        store.close()
    assert main(["audit", "--store", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert "confirmed_restatements" in out
    found = [e for e in _entries(json.loads(out)) if (e.get("details") or {}).get("confirmed_restatements")]
    assert found and found[0]["details"]["confirmed_restatements"] == [confirmed.to_dict()]


def _entries(data):
    if isinstance(data, list):
        return data
    for value in data.values():
        if isinstance(value, list) and value and isinstance(value[0], dict) and "audit_id" in value[0]:
            return value
    return []
