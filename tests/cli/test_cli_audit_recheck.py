"""`memgui audit --recheck` / `--append-back`: exit codes 0 / 1 / 2 and the JSON shape."""
from __future__ import annotations

import json

import pytest

from factories import seed_document, update_document
from memgui.__main__ import main
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.store import create_store, open_store

A_BODY = "The backup job runs nightly at 02:30 and keeps 14 snapshots."
B_BODY = "Backups go to s3://backups/pg. Restores are tested every Friday."
LOSSY = "The backup job runs nightly at 02:30 and keeps 14 snapshots. Backups go to s3://backups/pg."


@pytest.fixture
def store_path(tmp_path):
    return create_store(tmp_path / "netclaw.db")


def _merge(path, body):
    store = open_store(path)
    try:
        a = seed_document(store, "Backups", A_BODY, anchor="backups")
        b = seed_document(store, "Backup target", B_BODY, anchor="backup-target")
        ids = (a.document_id, b.document_id)
        entry = merge_cluster(store, MergePlan(a.document_id, ids, merged_body=body, drafted=draft_stamps(store, ids),
                                               guard_override=True))
        return entry.audit_id, a.document_id
    finally:
        store.close()


def test_recheck_exits_0_when_nothing_is_at_risk(store_path, capsys):
    assert main(["audit", "--store", str(store_path), "--recheck"]) == 0
    assert "all 0 re-checked merge(s) keep their facts" in capsys.readouterr().out
    _merge(store_path, LOSSY + " Restores are tested every Friday.")
    assert main(["audit", "--store", str(store_path), "--recheck", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    verdicts = report.pop("verdicts")
    assert report == {"passed": True, "checked": 1, "at_risk": [], "resolved": [], "skipped": [], "overwrites": []}
    assert [v["verdict"] for v in verdicts] == ["proved"]


def test_recheck_exits_1_and_lists_the_merge_then_append_back_repairs_it(store_path, capsys):
    audit_id, target = _merge(store_path, LOSSY)
    assert main(["audit", "--store", str(store_path), "--recheck", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"passed", "checked", "at_risk", "resolved", "skipped", "verdicts", "overwrites"}
    assert report["passed"] is False and report["at_risk"][0]["verdict"] in ("loss", "read")
    [merge] = report["at_risk"]
    assert set(merge) == {"audit_id", "created_at", "target_id", "target_title", "source_ids", "facts", "action",
                          "why", "append_text", "verdict", "unproved"}
    assert (merge["audit_id"], merge["target_id"], merge["action"]) == (audit_id, target, "undo")
    assert all(set(f) == {"token", "kind", "direction", "sources"} for f in merge["facts"])
    assert any("friday" in f["token"].lower() and f["direction"] == "dropped" for f in merge["facts"])
    assert main(["audit", "--store", str(store_path), "--recheck"]) == 1
    out = capsys.readouterr().out
    assert f"#{audit_id}" in out and "dropped" in out and f"memgui undo --store {store_path} {audit_id}" in out

    store = open_store(store_path)  # the daemon rewrites the target: undo is gone, append-back is offered
    update_document(store, store.document(target), markdown_body=LOSSY + " Checked in June.")
    store.close()
    assert main(["audit", "--store", str(store_path), "--recheck"]) == 1
    assert f"--append-back {audit_id}" in capsys.readouterr().out
    assert main(["audit", "--store", str(store_path), "--append-back", str(audit_id), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written["ok"] is True and written["operation"] == "append-back" and written["target_id"] == target
    store = open_store(store_path)
    assert "Restores are tested every Friday." in store.document(target).markdown_body
    store.close()
    assert main(["audit", "--store", str(store_path), "--recheck", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["resolved"] == [
        {"audit_id": audit_id, "append_back_audit_id": written["audit_id"]}]
    # a second append-back is refused (exit 1); undo of the append-back goes through `memgui undo`
    assert main(["audit", "--store", str(store_path), "--append-back", str(audit_id)]) == 1
    assert "appended back already" in capsys.readouterr().err
    assert main(["undo", "--store", str(store_path), str(written["audit_id"])]) == 0


def test_bad_input_exits_2(store_path, capsys):
    assert main(["audit", "--store", str(store_path), "--append-back", "999"]) == 2
    assert "no such entry" in capsys.readouterr().err
    assert main(["audit", "--store", str(store_path), "--recheck", "--append-back", "1"]) == 2
    assert main(["audit", "--store", str(store_path / "nope" / "netclaw.db"), "--recheck"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["audit", "--store", str(store_path), "--append-back", "abc"])
    assert exc.value.code == 2
