"""core/forensics/daemon_logs.py: real-shaped Netclaw daemon log lines of every curation marker → a timeline linked to
documents; malformed lines are skipped and counted, never a crash (netclaw-compat §13, §15)."""
from __future__ import annotations

import pytest

from memgui.core.curation import markers
from memgui.core.forensics import daemon_logs as dl
from memgui.core.forensics.daemon_logs import (
    DaemonLogError,
    default_log_dirs,
    find_daemon_logs,
    parse_daemon_logs,
    parse_daemon_logs_work,
)
from memgui.core.forensics.daemon_overwrites import daemon_overwrites
from memgui.core.tasks import Cancelled, CancelToken

D1 = "doc-6f1c2a9e0b7d4c3fa1e2b3c4d5e6f701"
D2 = "doc-6f1c2a9e0b7d4c3fa1e2b3c4d5e6f702"
D3 = "doc-6f1c2a9e0b7d4c3fa1e2b3c4d5e6f703"
P = "2026-06-01 12:00:{s:02d}.123 +00:00 [{lvl}] "

# One Serilog-shaped line per marker of netclaw-compat §13 that the audit cares about, as the daemon renders them.
DAEMON_LINES = [
    P.format(s=1, lvl="INF") + "curation_nominated anchor=atlas-sync count=2 topCosine=0.9312",
    P.format(s=2, lvl="WRN") + "curation_nominee_no_llm_decision anchor=atlas-sync llm_available=False — conservative create",
    P.format(s=3, lvl="INF") + f"curation_llm_decision anchor=atlas-sync decision=Update reason=LLM decision: UPDATE {D1}",
    P.format(s=4, lvl="INF") + f"curation_update anchor=atlas-sync targetDoc={D1} reason=LLM decision: UPDATE {D1}",
    P.format(s=5, lvl="INF") + f"curation_merge_guard_passed anchor=atlas-sync targetDoc={D1} reason=retention 1.00 ≥ 0.95; length ratio 1.10",
    P.format(s=6, lvl="WRN") + f"curation_merge_guard_failed anchor=Atlas Sync targetDoc={D2} missingTokens=[1.5.62,https://git.castell.dev/mira] reason=retention 0.80 < 0.95",
    P.format(s=7, lvl="INF") + f"curation_append_fallback anchor=Atlas Sync targetDoc={D2} hadMergedBody=True",
    P.format(s=8, lvl="INF") + f"curation_consolidate anchor=atlas sync canonicalAnchor=atlas-sync targetIds=[{D2},{D3}] reason=fuzzy anchor match, high content overlap",
    P.format(s=9, lvl="INF") + "curation_create anchor=tidepool reason=no candidates",
    P.format(s=10, lvl="INF") + "curation_skip anchor=tidepool reason=high content overlap (exact anchor)",
    P.format(s=11, lvl="WRN") + f"curation_guard_fallthrough anchor=widget-specs rejectedTarget={D3}",
    P.format(s=12, lvl="INF") + f"curation_reanchor docId={D3} newAnchor=anchor:atlas-sync",
    P.format(s=13, lvl="INF") + "curation_tombstone_anchor anchorId=anchor:atlas-sync-repo canonicalName=atlas-sync",
]
EXPECTED = [
    ("curation_nominated", "atlas-sync", (), {"count": 2, "topCosine": 0.9312}),
    ("curation_nominee_no_llm_decision", "atlas-sync", (), {"llm_available": False}),
    ("curation_llm_decision", "atlas-sync", (), {"decision": "Update", "reason": f"LLM decision: UPDATE {D1}"}),
    ("curation_update", "atlas-sync", (D1,), {"targetDoc": D1}),
    ("curation_merge_guard_passed", "atlas-sync", (D1,), {"reason": "retention 1.00 ≥ 0.95; length ratio 1.10"}),
    ("curation_merge_guard_failed", "Atlas Sync", (D2,),
     {"missingTokens": ["1.5.62", "https://git.castell.dev/mira"], "reason": "retention 0.80 < 0.95"}),
    ("curation_append_fallback", "Atlas Sync", (D2,), {"hadMergedBody": True}),
    ("curation_consolidate", "atlas sync", (D2, D3),
     {"canonicalAnchor": "atlas-sync", "targetIds": [D2, D3], "reason": "fuzzy anchor match, high content overlap"}),
    ("curation_create", "tidepool", (), {"reason": "no candidates"}),
    ("curation_skip", "tidepool", (), {"reason": "high content overlap (exact anchor)"}),
    ("curation_guard_fallthrough", "widget-specs", (D3,), {"rejectedTarget": D3}),
    ("curation_reanchor", "anchor:atlas-sync", (D3,), {"docId": D3, "newAnchor": "anchor:atlas-sync"}),
    ("curation_tombstone_anchor", "anchor:atlas-sync-repo", (), {"canonicalName": "atlas-sync"}),
]


def write(tmp_path, name, lines, *, raw: bytes = b"") -> object:
    path = tmp_path / name
    path.write_bytes("\n".join(lines).encode("utf-8") + b"\n" + raw)
    return path


def test_every_marker_line_parses_into_a_linked_event(tmp_path):
    path = write(tmp_path, "daemon.log", DAEMON_LINES)
    timeline = parse_daemon_logs([path])
    assert timeline.stats.as_dict() == {"files": 1, "lines": len(DAEMON_LINES), "parsed": len(DAEMON_LINES),
                                        "skipped_malformed": 0}
    for event, (marker, anchor, ids, fields), n in zip(timeline.events, EXPECTED, range(1, 99)):
        assert (event.marker, event.anchor, event.document_ids) == (marker, anchor, ids)
        for key, value in fields.items():
            assert event.fields[key] == value, (marker, key)
        assert event.time == f"2026-06-01T12:00:{n:02d}.123+00:00"
        assert event.line_no == n
    assert timeline.events[1].note == "conservative create"
    assert timeline.events[5].level == "warning" and timeline.events[0].level == "info"
    assert [e.marker for e in timeline.for_document(D2)] == [
        "curation_merge_guard_failed", "curation_append_fallback", "curation_consolidate"]
    assert set(timeline.by_document()) == {D1, D2, D3}


def test_malformed_lines_are_skipped_and_counted_never_a_crash(tmp_path):
    bad = [
        P.format(s=20, lvl="WRN") + f"curation_merge_guard_failed anchor=x targetDoc={D1} missingTokens=[1.5.62,https://ex",
        P.format(s=21, lvl="INF") + "curation_update for anchor atlas-sync",  # not key=value
        P.format(s=22, lvl="INF") + "curation_merge_guard_passed",  # truncated: no fields
        P.format(s=23, lvl="INF") + f"curation_merge_guard_passed anchor=atlas-sync reason=no target {D1}",  # no targetDoc=
        '{"@t":"2026-06-01T12:00:24Z","@mt":"curation_skip anchor={Anchor}',  # broken JSON line
    ]
    ordinary = ["2026-06-01 12:00:25.000 +00:00 [INF] Memory checkpoint curation completed for cp-1",
                "   at Netclaw.Actors.Memory.MemoryCurationEvaluator.ApplyDecisionAsync()", "",
                "reason=curation_skip appears only inside a value"]
    lines = DAEMON_LINES[:3] + bad + ordinary + DAEMON_LINES[3:5]
    timeline = parse_daemon_logs([write(tmp_path, "daemon.log", lines)])
    stats = timeline.stats
    assert (stats.lines, stats.parsed, stats.skipped_malformed) == (len(lines), 5, len(bad))
    assert [e.marker for e in timeline.events] == [
        "curation_nominated", "curation_nominee_no_llm_decision", "curation_llm_decision", "curation_update",
        "curation_merge_guard_passed"]
    assert any("unterminated list" in s for s in stats.malformed_samples)
    assert any("no targetDoc=" in s for s in stats.malformed_samples)


def test_bad_utf8_crlf_bom_and_an_overlong_line_are_tolerated(tmp_path, monkeypatch):
    monkeypatch.setattr(dl, "MAX_LINE_BYTES", 256)
    good = f"curation_update anchor=caf\xe9 targetDoc={D1} reason=ok".encode("latin-1")  # é as invalid UTF-8
    overlong = b"curation_skip anchor=x reason=" + b"y" * 1000
    data = b"\xef\xbb\xbf" + DAEMON_LINES[0].encode() + b"\r\n" + good + b"\r\n" + overlong + b"\n" + DAEMON_LINES[9].encode()
    path = tmp_path / "daemon-2026-06-01.log"
    path.write_bytes(data)
    timeline = parse_daemon_logs([path])
    assert [e.marker for e in timeline.events] == ["curation_nominated", "curation_update", "curation_skip"]
    assert timeline.events[1].anchor == "caf\ufffd" and timeline.events[1].fields["reason"] == "ok"
    assert timeline.stats.skipped_malformed == 1 and timeline.stats.lines == 4


def test_other_prefixes_console_akka_stdlib_json_and_quoted_values(tmp_path):
    lines = [
        "2026-06-01T09:00:00.5Z info: Netclaw.Actors.Memory.MemoryCurationEvaluator[0]",
        f"      curation_append_fallback anchor=atlas-sync targetDoc={D1} hadMergedBody=False",
        f"[INFO][6/1/2026 1:02:03 PM][Thread 0012][akka://netclaw/user/curation] curation_update anchor=Atlas Sync targetDoc={D2} reason=exact anchor, newer",
        f"2026-06-01 14:00:00,250 WARNING memgui.curation: curation_guard_fallthrough anchor=widget specs rejectedTarget={D3}",
        '{"@t":"2026-06-01T15:00:00.1234567Z","@l":"Warning","@mt":"curation_merge_guard_failed anchor={Anchor} targetDoc={TargetDoc} missingTokens={MissingTokens} reason={Reason}","Anchor":"atlas-sync","TargetDoc":"%s","MissingTokens":["June 1, 2026","v3.0.0"],"Reason":"retention 0.50 < 0.95"}' % D1,  # noqa: UP031 - a JSON line full of braces: % leaves them literal
        f'2026-06-01 16:00:00.000 +02:00 [WRN] curation_merge_guard_failed anchor="atlas sync" targetDoc="{D2}" missingTokens=["June 1, 2026", "1.5.62"] reason="retention 0.50 < 0.95"',
    ]
    ev = parse_daemon_logs([write(tmp_path, "daemon.log", lines)]).events
    by = {(e.marker, e.line_no): e for e in ev}
    console = by[("curation_append_fallback", 2)]
    assert console.time == "2026-06-01T09:00:00.5+00:00" and console.level == "info"
    assert console.fields["hadMergedBody"] is False
    akka = by[("curation_update", 3)]
    assert akka.time == "2026-06-01T13:02:03" and akka.anchor == "Atlas Sync" and akka.fields["reason"] == "exact anchor, newer"
    stdlib = by[("curation_guard_fallthrough", 4)]
    assert stdlib.level == "warning" and stdlib.anchor == "widget specs" and stdlib.document_ids == (D3,)
    js = by[("curation_merge_guard_failed", 5)]
    assert js.level == "warning" and js.time == "2026-06-01T15:00:00.123456+00:00"
    assert js.fields["missingTokens"] == ["June 1, 2026", "v3.0.0"]
    quoted = by[("curation_merge_guard_failed", 6)]
    assert quoted.anchor == "atlas sync" and quoted.document_ids == (D2,)
    assert quoted.fields["missingTokens"] == ["June 1, 2026", "1.5.62"] and quoted.fields["reason"] == "retention 0.50 < 0.95"
    # 16:00 +02:00 is 14:00 UTC: the timeline is in real time order, not text order
    assert [e.line_no for e in ev] == [2, 3, 6, 4, 5]


@pytest.mark.parametrize("marker", sorted(markers.TEMPLATES))
def test_lines_memgui_itself_emits_parse_back_to_their_fields(marker):
    order = markers.TEMPLATES[marker][1]
    sample = {"anchor": "Atlas Sync", "targetDoc": D1, "targetId": D2, "docId": D3, "rejectedTarget": D3,
              "newAnchor": "anchor:atlas-sync", "anchorId": "anchor:x", "canonicalName": "atlas sync",
              "canonicalAnchor": "atlas-sync", "targetIds": [D1, D2], "missingTokens": ["1.5.62", "https://a.b/c"],
              "reason": "LLM decision: UPDATE doc-1 (x=y)", "decision": "Update", "count": 3, "topCosine": 0.93125,
              "llm_available": True, "hadMergedBody": False, "responseLength": 12, "timeoutSeconds": 30,
              "anchor_hits": 1, "content_hits": 2, "merged": 3}
    fields = {k: sample[k] for k in order}
    line = "2026-06-01 12:00:00.000 +00:00 [INF] " + markers.format_marker(marker, fields)
    event = dl.parse_line(line)
    assert event is not None and event.marker == marker
    expected = dict(fields)
    if "topCosine" in expected:
        expected["topCosine"] = round(expected["topCosine"], 4)
    if "timeoutSeconds" in expected:
        expected["timeoutSeconds"] = float(expected["timeoutSeconds"])
    assert dict(event.fields) == expected


def test_files_and_folders_rotated_logs_and_bad_paths(tmp_path, monkeypatch):
    logs = tmp_path / "home" / "logs"
    logs.mkdir(parents=True)
    write(logs, "daemon-2026-05-31.log", [DAEMON_LINES[0].replace("2026-06-01", "2026-05-31")])
    write(logs, "daemon.log", DAEMON_LINES[1:3])
    write(logs, "other.txt", ["curation_skip anchor=x reason=ignored"])
    assert [p.name for p in find_daemon_logs([logs])] == ["daemon-2026-05-31.log", "daemon.log"]
    timeline = parse_daemon_logs([logs])
    assert timeline.stats.files == 2 and timeline.events[0].time.startswith("2026-05-31")
    with pytest.raises(DaemonLogError, match="no such log file or folder"):
        find_daemon_logs([tmp_path / "missing.log"])
    monkeypatch.setenv("NETCLAW_HOME", str(tmp_path / "home"))
    assert default_log_dirs() == [logs]
    store_dir = tmp_path / "store"
    (store_dir / "logs").mkdir(parents=True)
    assert default_log_dirs(store_dir / "netclaw.db") == [store_dir / "logs", logs]


def test_long_logs_stream_with_progress_and_cancel(tmp_path, monkeypatch):
    monkeypatch.setattr(dl, "PROGRESS_EVERY_LINES", 100)
    lines = [DAEMON_LINES[i % len(DAEMON_LINES)] for i in range(1000)]
    path = write(tmp_path, "daemon.log", lines)
    work = parse_daemon_logs_work([path])
    progress = []
    while True:
        try:
            progress.append(next(work))
        except StopIteration as stop:
            timeline = stop.value
            break
    assert timeline.stats.parsed == 1000 and len(progress) >= 10
    assert progress[-1].done == progress[-1].total == path.stat().st_size
    token = CancelToken()
    work = parse_daemon_logs_work([path], cancel=token)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        list(work)


def test_overwrites_guard_passed_and_deterministic_updates_but_not_appends(tmp_path):
    lines = [
        P.format(s=1, lvl="INF") + f"curation_update anchor=a targetDoc={D1} reason=LLM decision: UPDATE {D1}",
        P.format(s=2, lvl="INF") + f"curation_merge_guard_passed anchor=a targetDoc={D1} reason=ok",
        P.format(s=3, lvl="INF") + f"curation_update anchor=b targetDoc={D2} reason=LLM decision: UPDATE {D2}",
        P.format(s=4, lvl="WRN") + f"curation_merge_guard_failed anchor=b targetDoc={D2} missingTokens=[x] reason=lossy",
        P.format(s=5, lvl="INF") + f"curation_append_fallback anchor=b targetDoc={D2} hadMergedBody=True",
        P.format(s=6, lvl="INF") + f"curation_update anchor=c targetDoc={D3} reason=exact anchor, newer superset",
        P.format(s=7, lvl="INF") + "curation_create anchor=d reason=no candidates",
    ]
    found = daemon_overwrites(parse_daemon_logs([write(tmp_path, "daemon.log", lines)]).events)
    assert [(o.document_id, o.event.marker) for o in found] == [(D1, "curation_merge_guard_passed"), (D3, "curation_update")]
    assert "deterministic" in found[1].how


def test_a_line_nested_too_deep_is_counted_malformed_not_a_crash(tmp_path):
    deep_marker = '{"@m": "curation_skip anchor=x", "junk": ' + "[" * 50_000 + "]" * 50_000 + "}"
    deep_other = '{"@m": "nothing to see", "junk": ' + "{\"a\":" * 5_000 + "1" + "}" * 5_000 + "}"
    quoted = '{"@m": "curation_skip anchor=atlas-sync reason=x", "text": "' + "[" * 500 + '"}'  # brackets in a string
    lines = DAEMON_LINES[:2] + [deep_marker, deep_other, quoted]
    timeline = parse_daemon_logs([write(tmp_path, "daemon.log", lines)])
    assert timeline.stats.skipped_malformed == 1  # the deep line with a marker; the other deep line is no event
    assert timeline.stats.parsed == 3  # the two daemon lines and the quoted-brackets line
