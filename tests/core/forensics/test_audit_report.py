"""core/forensics/audit_report.py: what `memgui audit --json` prints — memgui's writes, the store's append histories, the
daemon-log timeline and the daemon merges whose earlier body is gone — on the demo store and a real trail."""
from __future__ import annotations

import json

import pytest

from memgui.core.forensics.audit_report import build_audit_report, format_audit_report
from memgui.core.forensics.daemon_logs import DaemonLogError
from memgui.core.ops.apply import MODE_APPEND, MergePlan, draft_stamps, merge_cluster
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels

KEYS = {"memgui", "appended_histories", "daemon_events", "daemon_log_stats", "unrecoverable_merges"}


@pytest.fixture
def demo(tmp_path):
    store = open_store(build_demo_store(tmp_path / "home" / "netclaw.db"))
    yield store
    store.close()


def _cluster(n=0):
    return demo_labels()["duplicate_clusters"][n]


def _log(path, labels):
    merged, appended = labels["duplicate_clusters"][0][0], labels["append_documents"][0]
    gone = "doc-00000000000000000000000000000000"
    lines = [
        f"2026-06-01 12:00:00.100 +00:00 [INF] curation_update anchor=atlas-sync targetDoc={merged} reason=LLM decision: UPDATE {merged}",
        f"2026-06-01 12:00:00.200 +00:00 [INF] curation_merge_guard_passed anchor=atlas-sync targetDoc={merged} reason=retention 1.00",
        f"2026-06-01 12:05:00.000 +00:00 [WRN] curation_merge_guard_failed anchor=release targetDoc={appended} "
        "missingTokens=[v3.3.0] reason=retention 0.5",
        f"2026-06-01 12:05:00.001 +00:00 [INF] curation_append_fallback anchor=release targetDoc={appended} hadMergedBody=True",
        f"2026-06-01 12:06:00.000 +00:00 [INF] curation_merge_guard_passed anchor=old targetDoc={gone} reason=ok",
        "2026-06-01 12:07:00.000 +00:00 [INF] curation_consolidate anchor=x canonicalAnchor=x targetIds=[a,b",
        "2026-06-01 12:08:00.000 +00:00 [INF] Memory checkpoint curation completed for cp-1",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return merged, appended, gone


def test_demo_store_report_lists_actions_histories_and_daemon_events(demo, tmp_path):
    labels = demo_labels()
    ids = tuple(_cluster(1))
    merge_cluster(demo, MergePlan(ids[0], ids, mode=MODE_APPEND, drafted=draft_stamps(demo, ids)))
    merged, _appended, gone = _log(tmp_path / "logs" / "daemon.log", labels)
    report = build_audit_report(demo, daemon_logs=[tmp_path / "logs"])
    assert set(report) == KEYS
    assert [e["operation"] for e in report["memgui"]] == ["merge"]
    assert report["memgui"][0]["target_id"] == ids[0] and "before" not in report["memgui"][0]
    histories = {h["document_id"]: h for h in report["appended_histories"]}
    assert set(labels["append_documents"]) | {ids[0]} == set(histories)  # memgui's append merge is a history too
    assert all(set(h) == {"document_id", "title", "segments"} for h in histories.values())
    assert histories[ids[0]]["segments"][0]["date"] is None and len(histories[ids[0]]["segments"]) == len(ids)
    assert report["daemon_log_stats"] == {"files": 1, "lines": 7, "parsed": 5, "skipped_malformed": 1}
    assert [e["marker"] for e in report["daemon_events"]] == [
        "curation_update", "curation_merge_guard_passed", "curation_merge_guard_failed", "curation_append_fallback",
        "curation_merge_guard_passed"]
    assert all(set(e) == {"time", "marker", "anchor", "document_id", "fields"} for e in report["daemon_events"])
    assert report["daemon_events"][2]["fields"]["missingTokens"] == ["v3.3.0"]
    gone_list = {u["document_id"]: u for u in report["unrecoverable_merges"]}
    assert set(gone_list) == {merged, gone}  # the append fallback is recoverable, the merges are not
    assert gone_list[merged]["in_store"] and "cannot be recovered from the store" in gone_list[merged]["message"]
    assert not gone_list[gone]["in_store"] and "no longer in the store" in gone_list[gone]["message"]
    json.dumps(report)  # the CLI prints it as JSON


def test_logs_next_to_the_store_are_read_by_default(demo, tmp_path):
    _log(tmp_path / "home" / "logs" / "daemon-2026-06-01.log", demo_labels())
    assert build_audit_report(demo)["daemon_log_stats"]["files"] == 1
    assert build_audit_report(demo, default_logs=False)["daemon_log_stats"]["files"] == 0


def test_document_filter_narrows_every_part(demo, tmp_path):
    labels = demo_labels()
    _merged, appended, _ = _log(tmp_path / "logs" / "daemon.log", labels)
    report = build_audit_report(demo, daemon_logs=[tmp_path / "logs" / "daemon.log"], document_id=appended)
    assert [h["document_id"] for h in report["appended_histories"]] == [appended]
    assert {e["document_id"] for e in report["daemon_events"]} == {appended}
    assert report["unrecoverable_merges"] == []


def test_a_missing_log_path_is_a_one_line_error(demo, tmp_path):
    with pytest.raises(DaemonLogError, match="no such log file or folder"):
        build_audit_report(demo, daemon_logs=[tmp_path / "nope"])


def test_text_rendering_names_each_part(demo, tmp_path):
    _log(tmp_path / "logs" / "daemon.log", demo_labels())
    text = format_audit_report(build_audit_report(demo, daemon_logs=[tmp_path / "logs"]))
    assert text.startswith("no audited writes")
    assert "append histories in the store: 9" in text
    assert "1 malformed line(s) skipped" in text
    assert "cannot be recovered from the store: 2" in text
    empty = format_audit_report(build_audit_report(demo, default_logs=False), memgui=False)
    assert empty.startswith("append histories in the store: 9") and "daemon logs: none read" in empty
