"""`memgui evaluate` end to end on real store files (read-only: nothing is written)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factories import seed_existing
from memgui.__main__ import main
from memgui.core.store import create_store, open_store

WIDGET = "Widget specs: 16 cores, 64GB RAM, 2 NICs. Pricing on file. Vendor contacts listed."


@pytest.fixture
def db(tmp_path) -> Path:
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        seed_existing(store, "widget-specs", "doc-widget", WIDGET)
        seed_existing(store, "favorite-color", "doc-color", "favorite color is blue")
    return Path(path)


def write(tmp_path, text, name="content.txt") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def run_json(capsys, *argv) -> dict:
    assert main(["evaluate", "--embedder", "none", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_guard_fallthrough_session(db, tmp_path, capsys):
    before = db.read_bytes()
    out = run_json(capsys, "--store", str(db), "--title", "Widget pricing", "--anchor", "widget-specs",
                   "--content-file", write(tmp_path, "Widget pricing is TBD as of Q2.\n"))
    assert out["decision"] == "CREATE"
    assert out["target"] is None and out["consolidation_ids"] == []
    assert out["reason"].startswith("fuzzy anchor match but low content overlap")
    assert out["from_llm_tier"] is False
    assert out["candidates"] == [{"document_id": "doc-widget", "anchor_id": "anchor:widget-specs",
                                  "is_exact": False, "cosine": None}]
    assert [e["marker"] for e in out["events"]] == [
        "curation_guard_fallthrough", "curation_nominator_degraded", "curation_dual_search"]
    assert out["events"][0]["fields"] == {"anchor": "widget-specs", "rejectedTarget": "doc-widget"}
    assert out["events"][1]["fields"]["reason"] == "no_embedder_configured"
    assert db.read_bytes() == before  # read-only: the file is untouched


def test_anchor_defaults_to_first_word_of_content(db, tmp_path, capsys):
    # "favorite" is not the anchor "favorite-color" exactly, but a fuzzy (subset) match
    out = run_json(capsys, "--store", str(db), "--title", "Colour", "--content-file",
                   write(tmp_path, "Favorite color is blue"))
    assert out["candidates"][0]["document_id"] == "doc-color"
    assert out["candidates"][0]["is_exact"] is False
    assert out["decision"] == "CONSOLIDATE" and out["target"] == "doc-color"
    assert out["consolidation_ids"] == ["doc-color"]


def test_exact_anchor_skip_in_text_form(db, tmp_path, capsys):
    code = main(["evaluate", "--embedder", "none", "--store", str(db), "--title", "Colour", "--anchor", "favorite-color",
                 "--content-file", write(tmp_path, "favorite color is blue")])
    text = capsys.readouterr().out
    assert code == 0
    assert "decision:  SKIP" in text
    assert "target:    doc-color" in text
    assert "reason:    exact anchor match + high content overlap (100%)" in text
    assert "doc-color  anchor:favorite-color  exact" in text
    assert "markers: none" in text


def test_top_level_store_option_is_honoured(db, tmp_path, capsys):
    assert main(["--store", str(db), "evaluate", "--embedder", "none", "--title", "Colour", "--anchor", "favorite-color",
                 "--content-file", write(tmp_path, "favorite color is blue"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"] == "SKIP"


def test_freshness_option_reaches_the_rules(db, tmp_path, capsys):
    out = run_json(capsys, "--store", str(db), "--title", "Colour", "--anchor", "favorite-color",
                   "--freshness-ms", "10", "--content-file", write(tmp_path, "favorite colour is now green"))
    assert out["decision"] == "SKIP"
    assert out["reason"].startswith("exact anchor match + stale proposal")


@pytest.mark.parametrize("argv_tail, message", [
    (["--content-file", "/nonexistent/content.txt"], "no such file"),
    (["--content-file", "EMPTY"], "content file is empty"),
    (["--content-file", "BINARY"], "not valid UTF-8"),
])
def test_bad_input_is_one_line_and_exit_2(db, tmp_path, capsys, argv_tail, message):
    argv_tail = [write(tmp_path, "  \n", "empty.txt") if a == "EMPTY" else a for a in argv_tail]
    if "BINARY" in argv_tail:
        (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00bad")
        argv_tail = [str(tmp_path / "bin.txt") if a == "BINARY" else a for a in argv_tail]
    before = db.read_bytes()
    assert main(["evaluate", "--embedder", "none", "--store", str(db), "--title", "T", *argv_tail]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert db.read_bytes() == before


def test_missing_store_is_bad_input(tmp_path, capsys):
    assert main(["evaluate", "--embedder", "none", "--store", str(tmp_path / "nope.db"), "--title", "T",
                 "--content-file", write(tmp_path, "something")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_cli_runs_as_a_process_and_markers_are_greppable(db, tmp_path):
    """The real entry point: JSON on stdout, and the `memgui.curation` log lines when logging is on."""
    code = (
        "import logging, sys; logging.basicConfig(level=logging.DEBUG, format='%(message)s');"
        "from memgui.__main__ import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "evaluate", "--embedder", "none", "--store", str(db), "--title", "Widget pricing", "--anchor",
         "widget-specs", "--content-file", write(tmp_path, "Widget pricing is TBD as of Q2."), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["decision"] == "CREATE"
    assert "curation_guard_fallthrough anchor=widget-specs rejectedTarget=doc-widget" in proc.stderr.splitlines()
    assert "curation_nominator_degraded anchor=widget-specs reason=no_embedder_configured" in proc.stderr


def test_real_embedding_nominee_without_llm_is_a_conservative_create(tmp_path, capsys):
    """The real MiniLM index nominates a paraphrase under an unrelated anchor; with no LLM tier the evaluator
    must not merge on cosine alone (netclaw-compat §5 step 4)."""
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        seed_existing(store, "home-lab", "doc-nas", "The NAS backs up to Backblaze B2 every night at 02:00 using restic.")
        seed_existing(store, "dentist", "doc-dentist", "Dentist appointment with Dr. Silva is on 2026-03-14 at 10:30.")
    code = main(["evaluate", "--model", "none", "--store", str(path), "--title", "NAS backups", "--anchor",
                 "storage-box", "--content-file",
                 write(tmp_path, "Every night at 02:00 the NAS runs restic backups to Backblaze B2."), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    nominees = [c for c in out["candidates"] if c["cosine"] is not None]
    assert [c["document_id"] for c in nominees] == ["doc-nas"] and nominees[0]["cosine"] > 0.68
    assert out["decision"] == "CREATE" and "conservative create" in out["reason"]
    assert "curation_nominee_no_llm_decision" in [e["marker"] for e in out["events"]]


def test_a_model_file_that_does_not_exist_is_refused_not_silently_ignored(db, tmp_path, capsys):
    content = tmp_path / "c.md"
    content.write_text("My favourite colour is teal.", encoding="utf-8")
    code = main(["evaluate", "--embedder", "none", "--store", str(db), "--title", "Colour", "--content-file",
                 str(content), "--model", str(tmp_path / "nonexistent.gguf")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "nonexistent.gguf: no such model file" in err and len(err.strip().splitlines()) == 1
