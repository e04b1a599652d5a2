"""`memgui guard`: exit 0 pass, 1 fail, 2 bad input; text and JSON reports."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memgui.__main__ import main

SOURCE_A = "Widget specs: 16 cores, 64GB RAM, 2 NICs."
SOURCE_B = "Widget pricing is TBD as of 2026-05-13."
FAITHFUL = "Widget specs: 16 cores, 64GB RAM, 2 NICs. Pricing is TBD as of 2026-05-13."
LOSSY = "Widget specs: 16 cores and plenty of RAM. Pricing is TBD, to be announced soon."


@pytest.fixture
def files(tmp_path: Path):
    def write(name: str, text: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_passing_merge_exits_0_with_a_pass_line(files, capsys):
    code = main(["guard", "--source", files("a.md", SOURCE_A), "--source", files("b.md", SOURCE_B),
                 "--merged", files("m.md", FAITHFUL)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("PASS: retained 10/10 load-bearing tokens (100%)")


def test_failing_merge_exits_1_and_names_each_missing_token_with_its_source(files, capsys):
    code = main(["guard", "--source", files("a.md", SOURCE_A), "--source", files("b.md", SOURCE_B),
                 "--merged", files("m.md", LOSSY)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("FAIL: retention")
    assert "missing  quantity          64GB   (source 1)" in out
    assert "missing  iso_date          2026-05-13   (source 2)" in out


def test_json_report(files, capsys):
    code = main(["guard", "--source", files("a.md", SOURCE_A), "--source", files("b.md", SOURCE_B),
                 "--merged", files("m.md", LOSSY), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert set(report) == {"passed", "retention", "length_ratio", "reason", "tokens", "missing", "strict", "verdict",
                           "sentences", "body_sentences"}
    assert report["passed"] is False
    assert report["verdict"] == "loss"  # memgui's verdict beside Netclaw's: a dropped date is a named loss
    lost = [s for s in report["sentences"] if s["fate"] == "lost"]
    assert lost and all(s["rules"] for s in lost) and {"source", "index", "text", "fate", "body"} <= set(lost[0])
    assert all(a["rule"] for a in report["strict"]["at_risk"])  # every finding carries its stable rule id
    assert "64GB" in report["missing"] and "2026-05-13" in report["missing"]
    by_token = {t["token"]: t for t in report["tokens"]}
    assert by_token["64GB"] == {"token": "64GB", "kind": "quantity", "retained": False, "sources": [0]}
    assert by_token["TBD"]["retained"] is True and by_token["TBD"]["kind"] == "all_caps"
    assert report["retention"] == pytest.approx((len(report["tokens"]) - len(report["missing"])) / len(report["tokens"]))


def test_length_collapse_fails_with_exit_1(files, capsys):
    code = main(["guard", "--source", files("a.md", "a" * 100), "--merged", files("m.md", "a" * 59), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["missing"] == [] and "collapse" in report["reason"]


def test_missing_file_exits_2_with_one_line(files, capsys, tmp_path):
    code = main(["guard", "--source", str(tmp_path / "nope.md"), "--merged", files("m.md", FAITHFUL)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"memgui: {tmp_path / 'nope.md'}: no such file\n"


def test_bad_utf8_exits_2_with_one_line(files, capsys):
    bad = files("bad.md", b"ok \xff\xfe")
    code = main(["guard", "--source", files("a.md", SOURCE_A), "--merged", bad])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"memgui: {bad}: not valid UTF-8 (byte 3)\n"


def test_a_directory_is_bad_input(files, capsys, tmp_path):
    code = main(["guard", "--source", str(tmp_path), "--merged", files("m.md", FAITHFUL)])
    assert code == 2
    assert "is a directory" in capsys.readouterr().err


def test_bom_is_ignored_and_crlf_kept(files, capsys):
    source = files("a.md", "\ufeffPort 9464\r\nis open.".encode("utf-8"))
    code = main(["guard", "--source", source, "--merged", files("m.md", "Port 9464\r\nis open."), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["length_ratio"] == 1.0


def test_real_entry_point_reads_merged_body_from_stdin(files):
    a, b = files("a.md", SOURCE_A), files("b.md", SOURCE_B)
    ok = subprocess.run([sys.executable, "-m", "memgui", "guard", "--source", a, "--source", b, "--merged", "-"],
                        input=FAITHFUL.encode(), capture_output=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.decode().startswith("PASS")
    bad = subprocess.run([sys.executable, "-m", "memgui", "guard", "--source", a, "--merged", "-", "--json"],
                         input=b"Widget specs.", capture_output=True, timeout=120)
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["passed"] is False
    usage = subprocess.run([sys.executable, "-m", "memgui", "guard", "--merged", a], capture_output=True, timeout=120)
    assert usage.returncode == 2  # --source is required


# ---- --strict: memgui's fact lens in the exit code (issue 23, item 9) ---------------------------------------

PORTS = "Staging uses port 5432 and production uses port 5433."
SWAPPED = "Staging uses port 5433 and production uses port 5432."  # every token kept: Netclaw's guard passes


def test_plain_guard_exits_on_netclaws_verdict_and_strict_on_the_lens_too(files, capsys):
    src, merged = files("a.md", PORTS), files("m.md", SWAPPED)
    assert main(["guard", "--source", src, "--merged", merged]) == 0
    capsys.readouterr()
    assert main(["guard", "--strict", "--source", src, "--merged", merged]) == 1
    out = capsys.readouterr().out
    assert "changed" in out and "5432" in out
    # a faithful rewording passes both ways
    same = files("s.md", "Production uses port 5433, and staging uses port 5432.")
    assert main(["guard", "--strict", "--source", src, "--merged", same]) == 0


def test_strict_json_lists_each_fact_with_direction_kind_spans_and_what_was_equated(files, capsys):
    src = files("a.md", "The call is on Tue 14 July at 09:45 and costs €40.")
    merged = files("m.md", "The call is on Tuesday, July 14 at 9:45 am, costs 40 euros and never moves.")
    assert main(["guard", "--strict", "--json", "--source", src, "--merged", merged]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {"passed", "retention", "strict"} <= set(data)  # Netclaw's report, with the lens beside it
    added = [r for r in data["strict"]["at_risk"] if r["direction"] == "added"]
    assert [(r["kind"], r["body_token"]) for r in added] == [("negation", "never")]
    start, end = added[0]["body_span"]
    assert "The call is on Tuesday, July 14 at 9:45 am, costs 40 euros and never moves."[start:end] == "never"
    equated = {(e["source"], e["body"]) for e in data["strict"]["equated"]}
    assert {("Tue", "Tuesday"), ("14 July", "July 14"), ("09:45", "9:45 am"), ("€40", "40 euros")} <= equated


def test_json_verdict_is_proved_for_a_faithful_restatement(files, capsys):
    source = files("a.md", "The dentist appointment is on 14 March at 9:00. Bring the insurance card.")
    other = files("b.md", "Dentist appointment on March 14 at 9:00.")
    merged = files("m.md", "The dentist appointment is on 14 March at 9:00. Bring the insurance card.")
    assert main(["guard", "--source", source, "--source", other, "--merged", merged, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "proved"
    assert [(s["source"], s["index"], s["fate"], s["body"]) for s in report["sentences"]] == [
        (0, 0, "kept", [0]), (0, 1, "kept", [1]), (1, 0, "restated", [0])]


def test_text_report_says_which_sentence_a_person_must_read(files, capsys):
    assert main(["guard", "--source", files("a.md", "Ana is allergic to peanuts."),
                 "--merged", files("m.md", "Ana is allergic to sesame.")]) == 0  # MergeGuard sees no token gone
    out = capsys.readouterr().out
    assert "verdict:      read" in out and "does not state: peanuts" in out and "added    body sentence 1: sesame" in out
