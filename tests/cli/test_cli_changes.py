"""Every writing command prints what it changed under "changes" of its --json output (core/ops/changes.py), and
`memgui undo` / `memgui redo` without an id walk the reviewer's history (core/ops/history.py)."""
from __future__ import annotations

import json

from test_cli_accept import model, run, store  # noqa: F401 - the accept-safe fixtures: a scripted model, three clusters
from test_cli_audit_recheck import LOSSY, _merge, store_path  # noqa: F401
from test_cli_merge import A_BODY, MERGED, _body_file, _doc, db  # noqa: F401

from factories import update_document
from memgui.__main__ import main
from memgui.core.store import open_store


def _json(capsys, *argv):
    code, out, err = run(capsys, *argv)
    return code, (json.loads(out) if out.strip() else None), err


def test_merge_undo_and_redo_print_their_changes(db, tmp_path, capsys):  # noqa: F811
    path, a, b = db
    code, merged, err = _json(capsys, "merge", "--store", str(path), "--target", a, "--sources", f"{a},{b}",
                              "--body-file", _body_file(tmp_path, MERGED), "--force", "--json")
    assert code == 0, err
    assert merged["changes"] == {"documents_written": [a], "documents_tombstoned": [b], "exemptions": [],
                                 "audit_ids": [merged["audit_id"]], "undone": [], "batch_id": None,
                                 "standing": [{"audit_id": merged["audit_id"], "effect": "merged"}]}
    code, undone, err = _json(capsys, "undo", "--store", str(path), str(merged["audit_id"]), "--json")
    assert code == 0, err
    assert undone["changes"]["undone"] == [merged["audit_id"]]
    assert undone["changes"]["documents_written"] == sorted([a, b]) and undone["changes"]["standing"] == []
    code, redone, err = _json(capsys, "redo", "--store", str(path), str(merged["audit_id"]), "--json")
    assert code == 0, err
    assert redone["changes"]["standing"] == [{"audit_id": merged["audit_id"], "effect": "merged"}]
    assert redone["changes"]["documents_tombstoned"] == [b]


def test_undo_and_redo_without_an_id_walk_the_history(db, tmp_path, capsys):  # noqa: F811
    path, a, b = db
    code, _out, err = _json(capsys, "undo", "--store", str(path), "--json")
    assert code == 1 and "nothing to undo" in err  # refused, nothing written
    code, merged, err = _json(capsys, "merge", "--store", str(path), "--target", a, "--sources", f"{a},{b}",
                              "--body-file", _body_file(tmp_path, MERGED), "--force", "--json")
    assert code == 0, err
    code, undone, err = _json(capsys, "undo", "--store", str(path), "--json")
    assert code == 0, err
    assert undone["reverts_audit_id"] == merged["audit_id"] and undone["changes"]["undone"] == [merged["audit_id"]]
    assert _doc(path, a).markdown_body == A_BODY
    code, _out, err = _json(capsys, "undo", "--store", str(path))
    assert code == 1 and "nothing to undo" in err
    code, redone, err = _json(capsys, "redo", "--store", str(path), "--json")
    assert code == 0, err
    assert redone["changes"]["standing"] == [{"audit_id": merged["audit_id"], "effect": "merged"}]
    assert _doc(path, a).markdown_body == MERGED
    code, _out, err = _json(capsys, "redo", "--store", str(path))
    assert code == 1 and "nothing to redo" in err


def test_accept_safe_and_undo_batch_print_the_batch_changes(store, model, capsys):  # noqa: F811
    path, ids = store
    code, dry, err = _json(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--dry-run", "--json")
    assert code == 0, err
    assert dry["changes"]["audit_ids"] == [] and dry["changes"]["documents_written"] == []  # nothing written
    code, data, err = _json(capsys, "accept-safe", "--store", str(path), "--model", model[0], "--json")
    assert code == 0, err
    changes, written = data["changes"], data["result"]["written"]
    assert changes["batch_id"] == data["batch_id"] and changes["audit_ids"] == [w["audit_id"] for w in written]
    assert changes["standing"] == [{"audit_id": w["audit_id"], "effect": "merged"} for w in written]
    merged_docs = set(ids["deploy"] + ids["backup"])
    assert set(changes["documents_written"]) | set(changes["documents_tombstoned"]) == merged_docs
    assert len(changes["documents_tombstoned"]) == 2 and data["result"]["changes"] == changes
    code, back, err = _json(capsys, "undo-batch", "--store", str(path), data["batch_id"], "--json")
    assert code == 0, err
    assert sorted(back["changes"]["undone"]) == sorted(w["audit_id"] for w in written)
    assert set(back["changes"]["documents_written"]) == merged_docs and back["changes"]["batch_id"] == data["batch_id"]


def test_append_back_prints_its_changes(store_path, capsys):  # noqa: F811
    audit_id, target = _merge(store_path, LOSSY)
    s = open_store(store_path)  # the target rewritten since: undo is gone, append-back is the way back
    update_document(s, s.document(target), markdown_body=LOSSY + " Checked in June.")
    s.close()
    assert main(["audit", "--store", str(store_path), "--append-back", str(audit_id), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written["changes"]["documents_written"] == [target]
    assert written["changes"]["standing"] == [{"audit_id": written["audit_id"], "effect": "appended back"}]
