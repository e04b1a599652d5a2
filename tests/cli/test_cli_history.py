"""`memgui history --store DB (--doc ID | --anchor NAME_OR_ID) [--json]`: the JSON shape, the text form, and exit 2
with one clear line (nothing written) for an unknown document or anchor."""
from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from factories import seed_document
from memgui.__main__ import main
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store import create_store, open_store

DAY = 86_400_000
T0 = 1_735_689_600_000  # 2025-01-01 UTC
PLAN = "Car service booked for 08:00 at the Main St garage."
DONE = "The car service is done; it cost 240 EUR."
APPENDED = f"{PLAN}\n\n---\n_[merged 2025-03-02]_\n{DONE}"
MERGED = "The car service is done; it cost 240 EUR (previously: booked for 08:00, as of 2025-03-01)."


@pytest.fixture
def store_path(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    store = open_store(path)
    try:
        a = seed_document(store, "Car service", APPENDED, anchor="car", created_at=T0 + 59 * DAY,
                          updated_at=T0 + 60 * DAY, update_semantics="append-document")
        b = seed_document(store, "Garage", "The garage is on Main St.", anchor="car", created_at=T0 + 10 * DAY,
                          updated_at=T0 + 10 * DAY)
        ids = (a.document_id, b.document_id)
        first = merge_cluster(store, MergePlan(a.document_id, ids, merged_body=MERGED + " The garage is on Main St.",
                                               drafted=draft_stamps(store, ids), guard_override=True))
        undo(store, first.audit_id)
    finally:
        store.close()
    return path, a.document_id, b.document_id, first.audit_id


def _digest(path) -> str:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT audit_id, state FROM memgui_audit ORDER BY audit_id").fetchall()
        docs = conn.execute("SELECT document_id, markdown_body, updated_at FROM memory_documents "
                            "ORDER BY document_id").fetchall()
    return hashlib.sha256(repr((rows, docs)).encode()).hexdigest()


def test_json_shape_for_a_document(store_path, capsys):
    path, a, _, merge_id = store_path
    assert main(["history", "--store", str(path), "--doc", a, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"subject", "entries", "notes"}
    assert out["subject"] == {"kind": "document", "id": a, "name": "Car service", "anchor_id": "anchor:car",
                              "tombstoned": False,
                              "documents": [{"document_id": a, "title": "Car service", "tombstoned": False,
                                             "in_store": True}]}
    entries = out["entries"]
    assert {"date", "time_ms", "source", "kind", "document_id", "title", "text", "before", "audit_id", "state",
            "tombstoned", "note", "repaired"} == set(entries[0])
    # on one day, what has only a day (the history phrase) comes before what has a time (the row's creation)
    assert [(e["source"], e["kind"], e["date"]) for e in entries[:3]] == [
        ("inline-history", "previously", "2025-03-01"), ("document", "created", "2025-03-01"),
        ("append-history", "appended", "2025-03-02")]
    assert entries[1]["text"] == PLAN and entries[2]["text"] == DONE
    assert entries[0]["text"] == "booked for 08:00"  # the undone merge's body still said it
    audit = [e for e in entries if e["source"] == "memgui-audit"]
    assert [(e["kind"], e["state"]) for e in audit] == [("merge", "undone"), ("undo", "applied")]
    assert audit[0]["audit_id"] == merge_id and audit[0]["before"] == APPENDED
    assert audit[1]["text"] == APPENDED


def test_anchor_by_name_text_output_marks_the_undone_write(store_path, capsys):
    path = store_path[0]
    assert main(["history", "--store", str(path), "--anchor", "car"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("History of anchor “car” (anchor:car): 2 documents")
    assert "merge #" in out and "[undone" in out and "— Garage" in out and "history phrase" in out
    assert out.index("Garage") < out.index("Car service")  # the garage note is older: it comes first


def test_anchor_by_id_in_json(store_path, capsys):
    path, a, b, _ = store_path
    assert main(["history", "--store", str(path), "--anchor", "anchor:car", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["subject"]["kind"] == "anchor" and out["subject"]["id"] == "anchor:car"
    assert {d["document_id"] for d in out["subject"]["documents"]} == {a, b}


@pytest.mark.parametrize("argv, message", [
    (["--doc", "doc-00000000000000000000000000000000"], "no such document"),
    (["--anchor", "nowhere"], "no such anchor"),
    (["--anchor", "  "], "empty anchor"),
    (["--doc", " doc-x"], "whitespace"),
])
def test_unknown_subject_is_exit_2_one_line_nothing_written(store_path, capsys, argv, message):
    path = store_path[0]
    before = _digest(path)
    assert main(["history", "--store", str(path), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("memgui: ")
    assert _digest(path) == before


def test_doc_and_anchor_together_or_neither_is_a_usage_error(store_path, capsys):
    path, a, _, _ = store_path
    for argv in (["--doc", a, "--anchor", "car"], []):
        with pytest.raises(SystemExit) as exc:
            main(["history", "--store", str(path), *argv])
        assert exc.value.code == 2
        assert capsys.readouterr().err.startswith("memgui: history: ")


def test_a_tombstoned_document_is_shown_marked(store_path, capsys):
    path, a, b, _ = store_path
    store = open_store(path)
    try:
        ids = (a, b)
        merge_cluster(store, MergePlan(a, ids, merged_body=MERGED + " The garage is on Main St.",
                                       drafted=draft_stamps(store, ids), guard_override=True))
    finally:
        store.close()
    assert main(["history", "--store", str(path), "--doc", b]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("oldest first") and "[tombstoned]" in out.splitlines()[0]
    assert "note: “Garage” is tombstoned" in out
    assert main(["history", "--store", str(path), "--doc", b, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["subject"]["tombstoned"] is True


def test_bad_utf8_in_a_body_prints_without_a_traceback(store_path, capsys):
    path, a, _, _ = store_path
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE memory_documents SET markdown_body = CAST(X'42616420ff0a' AS TEXT) WHERE document_id = ?",
                     (a,))
    for extra in ([], ["--json"]):
        assert main(["history", "--store", str(path), "--doc", a, *extra]) == 0
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err and "Bad \ufffd" in captured.out
