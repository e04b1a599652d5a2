"""`memgui merge`, `memgui audit`, `memgui undo`, `memgui redo` end to end on a real store file."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from factories import seed_document
from memgui.__main__ import main
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import list_entries

A_BODY = "The build server is ci.example.org running version 1.5.62."
B_BODY = "The build server now also runs nightly at 02:00 UTC."
MERGED = "The build server is ci.example.org running version 1.5.62 and also runs nightly at 02:00 UTC."
LOSSY = "The build server runs nightly builds every single night of the week."


@pytest.fixture
def db(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Build server", A_BODY, anchor="build-server").document_id
        b = seed_document(store, "Nightly", B_BODY, anchor="nightly").document_id
    return path, a, b


def _doc(path, doc_id):
    with open_store(path, read_only=True) as store:
        return store.document(doc_id)


def _body_file(tmp_path, text) -> str:
    f = tmp_path / "merged.md"
    f.write_text(text, encoding="utf-8")
    return str(f)


def test_merge_audit_undo_redo_session(db, tmp_path, capsys):
    path, a, b = db
    rc = main(["merge", "--store", str(path), "--target", a, "--sources", f"{a},{b}",
               "--body-file", _body_file(tmp_path, MERGED), "--force", "--note", "same server"])
    out = capsys.readouterr().out
    assert rc == 0 and "audit 1: merge into " + a in out and "guard passed" in out and f"tombstoned: {b}" in out
    assert _doc(path, a).markdown_body == MERGED and _doc(path, b).is_tombstoned

    assert main(["audit", "--store", str(path)]) == 0
    listing = capsys.readouterr().out
    assert "merge" in listing and "guard=passed" in listing and "note: same server" in listing and a in listing

    assert main(["undo", "--store", str(path), "1"]) == 0
    assert "undo of audit 1" in capsys.readouterr().out
    assert _doc(path, a).markdown_body == A_BODY and not _doc(path, b).is_tombstoned

    assert main(["redo", "--store", str(path), "1"]) == 0
    capsys.readouterr()
    assert _doc(path, a).markdown_body == MERGED

    assert main(["audit", "--store", str(path), "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)["memgui"]
    assert [e["operation"] for e in entries] == ["redo", "undo", "merge"]
    assert entries[2]["state"] == "applied" and entries[1]["reverts_audit_id"] == 1
    assert "before" not in entries[0]


def test_failing_guard_exits_1_listing_missing_tokens_and_writes_nothing(db, tmp_path, capsys):
    path, a, b = db
    rc = main(["merge", "--store", str(path), "--target", a, "--sources", b, "--body-file", _body_file(tmp_path, LOSSY),
               "--force"])
    err = capsys.readouterr().err
    assert rc == 1 and "missing tokens:" in err and "1.5.62" in err and "ci.example.org" in err
    assert _doc(path, a).markdown_body == A_BODY and not _doc(path, b).is_tombstoned
    assert main(["audit", "--store", str(path)]) == 0 and "no audited writes" in capsys.readouterr().out

    rc = main(["merge", "--store", str(path), "--target", a, "--sources", b, "--body-file",
               _body_file(tmp_path, LOSSY), "--override-guard", "--force", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert rc == 0 and result["ok"] and result["guard_passed"] is False and result["details"]["guard_override"]
    assert _doc(path, a).markdown_body == LOSSY
    main(["audit", "--store", str(path), "--guard", "failed"])
    assert "FAILED (override)" in capsys.readouterr().out


def test_append_mode_json(db, capsys):
    path, a, b = db
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--append", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["operation"] == "merge" and result["details"]["mode"] == "append"
    body = _doc(path, a).markdown_body
    assert body.startswith(A_BODY) and body.endswith(B_BODY) and "_[merged " in body
    assert _doc(path, a).update_semantics == "append-document"


def test_undo_conflict_and_state_errors_exit_1(db, capsys):
    path, a, b = db
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--append"]) == 0
    with open_store(path) as store:  # someone edits the merged document afterwards
        store.writes.upsert_document(replace(store.document(a), markdown_body="edited afterwards"))
    capsys.readouterr()
    assert main(["undo", "--store", str(path), "1"]) == 1
    err = capsys.readouterr().err
    assert "cannot undo audit 1" in err and a in err
    assert _doc(path, a).markdown_body == "edited afterwards"
    assert main(["redo", "--store", str(path), "1"]) == 1
    assert "not undone" in capsys.readouterr().err


def test_bad_input_exits_2(db, tmp_path, capsys):
    path, a, b = db
    assert main(["merge", "--store", str(path), "--target", a, "--sources", "doc-nope", "--append"]) == 2
    assert "doc-nope" in capsys.readouterr().err
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--body-file",
                 str(tmp_path / "missing.md")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["merge", "--store", str(path), "--target", a, "--sources", a, "--append"]) == 2
    assert "at least one source" in capsys.readouterr().err
    assert main(["merge", "--store", str(path), "--target", a, "--sources", " , ", "--append"]) == 2
    assert main(["merge", "--store", str(tmp_path / "nope.db"), "--target", a, "--sources", b, "--append"]) == 2
    assert main(["undo", "--store", str(path), "99"]) == 2
    assert "no such entry" in capsys.readouterr().err
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b]) == 2  # no body, no mode
    assert "give the body" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["undo", "--store", str(path), "one"])
    assert exit_.value.code == 2
    assert _doc(path, a).markdown_body == A_BODY and not _doc(path, b).is_tombstoned


def test_the_installed_entry_point_runs_merge(db, tmp_path):
    path, a, b = db
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-m", "memgui", "merge", "--store", str(path), "--target", a,
                          "--sources", b, "--append", "--json"], capture_output=True, text=True, cwd=root, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["target_id"] == a


def test_union_mode(db, capsys):
    path, a, b = db
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--union", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    body = _doc(path, a).markdown_body
    assert result["details"]["mode"] == "union" and result["guard_passed"] is True
    assert "1.5.62" in body and "02:00 UTC" in body and _doc(path, a).update_semantics == "merge-document"


def _decide_draft(path, a, b, tmp_path, capsys):
    assert main(["decide", "--store", str(path), "--docs", f"{a},{b}", "--draft", "union", "--json"]) == 0
    draft = tmp_path / "draft.json"
    draft.write_text(capsys.readouterr().out, encoding="utf-8")
    return draft, json.loads(draft.read_text(encoding="utf-8"))


def test_a_source_changed_after_the_draft_makes_the_merge_refuse(db, tmp_path, capsys):
    path, a, b = db
    draft, data = _decide_draft(path, a, b, tmp_path, capsys)
    assert set(data["stamps"]) == {a, b}
    with open_store(path) as store:  # the daemon appends a sentence to a source after the draft
        doc = store.document(b)
        store.writes.upsert_document(replace(doc, markdown_body=doc.markdown_body + " The daemon added this."))
    code = main(["merge", "--store", str(path), "--target", data["target"], "--sources",
                 a if data["target"] == b else b, "--draft", str(draft)])
    assert code == 1
    assert "since the decision was drafted" in capsys.readouterr().err
    assert "The daemon added this." in _doc(path, b).markdown_body and not _doc(path, b).is_tombstoned
    with open_store(path, read_only=True) as store:
        assert list_entries(store) == []  # nothing was written, not even an audit row


def test_an_unchanged_draft_merges_its_own_body(db, tmp_path, capsys):
    path, a, b = db
    draft, data = _decide_draft(path, a, b, tmp_path, capsys)
    other = a if data["target"] == b else b
    assert main(["merge", "--store", str(path), "--target", data["target"], "--sources", other,
                 "--draft", str(draft), "--json"]) == 0
    assert _doc(path, data["target"]).markdown_body == data["merged_body"]
    assert _doc(path, other).is_tombstoned


def test_expected_stamps_are_checked_and_must_cover_every_source(db, tmp_path, capsys):
    path, a, b = db
    with open_store(path, read_only=True) as store:
        doc_a = store.document(a)
    stamps = tmp_path / "stamps.json"
    stamps.write_text(json.dumps({a: {"updated_at": doc_a.updated_at, "content_hash": doc_a.exact_hash}}))
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--append",
                 "--expect-stamps", str(stamps)]) == 2
    assert f"{b}: not among the draft's sources" in capsys.readouterr().err
    stamps.write_text("not json")
    assert main(["merge", "--store", str(path), "--target", a, "--sources", b, "--append",
                 "--expect-stamps", str(stamps)]) == 2
    assert _doc(path, a).markdown_body == A_BODY


def test_a_reader_that_goes_away_does_not_turn_a_written_merge_into_a_failure(db):
    path, a, b = db
    root = Path(__file__).resolve().parents[2]
    script = (f'"{sys.executable}" -m memgui merge --store "{path}" --target {a} --sources {b} --append | true; '
              'echo "exit=${PIPESTATUS[0]}"')
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=root, timeout=120)
    assert run.stdout.strip() == "exit=0", run.stderr
    assert "BrokenPipe" not in run.stderr and "Traceback" not in run.stderr
    assert _doc(path, b).is_tombstoned  # the write stands


def test_a_case_only_edit_that_keeps_updated_at_still_makes_the_merge_refuse(db, tmp_path, capsys):
    path, a, b = db
    draft, data = _decide_draft(path, a, b, tmp_path, capsys)
    with open_store(path) as store, store.transaction():  # a writer that changes case but not updated_at
        store.execute("UPDATE memory_documents SET markdown_body = upper(markdown_body) WHERE document_id = ?", (b,))
    other = a if data["target"] == b else b
    assert main(["merge", "--store", str(path), "--target", data["target"], "--sources", other,
                 "--draft", str(draft)]) == 1
    assert "since the decision was drafted" in capsys.readouterr().err
    assert _doc(path, b).markdown_body.isupper() and not _doc(path, b).is_tombstoned


def test_a_refused_merge_on_a_store_memgui_never_wrote_leaves_the_file_byte_identical(tmp_path, capsys):
    import sqlite3

    from memgui.core.store.demo import build_demo_store

    path = build_demo_store(tmp_path / "netclaw.db")

    def settled_bytes():
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # fold any WAL content into the file before comparing
        conn.close()
        return path.read_bytes()

    before = settled_bytes()
    assert main(["merge", "--store", str(path), "--target", "doc-unknown", "--sources", "doc-other", "--append"]) == 2
    assert "no such document" in capsys.readouterr().err
    assert settled_bytes() == before  # not even memgui's own tables were created


def test_a_store_with_only_the_required_columns_reads_and_refuses_what_it_cannot_write(tmp_path, capsys):
    import sqlite3

    path = tmp_path / "minimal.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memory_anchors (anchor_id TEXT PRIMARY KEY, canonical_name TEXT)")
    conn.execute("CREATE TABLE memory_documents (document_id TEXT PRIMARY KEY, anchor_id TEXT, title TEXT, "
                 "markdown_body TEXT)")
    conn.execute("CREATE TABLE \"odd 'quoted' name\" (x)")  # a table name with quotes must not break opening
    conn.execute("INSERT INTO memory_anchors VALUES ('anchor:a', 'a')")
    conn.execute("INSERT INTO memory_documents VALUES ('doc-1', 'anchor:a', 'One', 'The pool size is 20.'), "
                 "('doc-2', 'anchor:a', 'Two', 'The pool size is 20. Port 5432.')")
    conn.commit()
    conn.close()
    assert main(["info", "--store", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"]["live"] == 2  # missing columns read as defaults
    before = path.read_bytes()
    assert main(["merge", "--store", str(path), "--target", "doc-2", "--sources", "doc-1", "--union"]) == 2
    err = capsys.readouterr().err
    assert "no update_semantics column" in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before
