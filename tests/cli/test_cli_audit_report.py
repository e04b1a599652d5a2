import json

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels


def test_audit_json_on_the_demo_store_with_daemon_logs(tmp_path, capsys):
    path = build_demo_store(tmp_path / "netclaw.db")
    gone = demo_labels()["duplicate_clusters"][0][0]
    log = tmp_path / "logs" / "daemon.log"
    log.parent.mkdir()
    log.write_text(f"2026-06-01 12:00:00.000 +00:00 [INF] curation_merge_guard_passed anchor=a targetDoc={gone} reason=ok\n"
                   "garbage curation_update anchor\n", encoding="utf-8")
    assert main(["audit", "--store", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"memgui", "appended_histories", "daemon_events", "daemon_log_stats", "unrecoverable_merges"}
    assert len(report["appended_histories"]) == 9 and report["daemon_events"][0]["document_id"] == gone
    assert report["daemon_log_stats"] == {"files": 1, "lines": 2, "parsed": 1, "skipped_malformed": 1}
    assert main(["audit", "--store", str(path), "--daemon-logs", str(log)]) == 0
    out = capsys.readouterr().out
    assert "no audited writes" in out and "append histories in the store: 9" in out and "cannot be recovered" in out
    assert main(["audit", "--store", str(path), "--daemon-logs", str(tmp_path / "nope")]) == 2
    assert "no such log file or folder" in capsys.readouterr().err
