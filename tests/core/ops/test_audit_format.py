"""Audit image format 2 (core/store/audit_texts.py): a write's long texts are stored once, compressed, and the
images refer to them. What a user must see: undo and redo put back the exact bytes from compressed images; a
row written in format 1 (every row before format 2) still reads, undoes and redoes; a store whose audit table
predates format 2 still reads, and its next write climbs to it; the audit row of a merge of long notes is a
fraction of what format 1 stored."""
from __future__ import annotations

import json
import sqlite3

import pytest

import memgui.core.ops.undo as undo_mod
from factories import seed_document
from memgui.__main__ import main
from memgui.core.ops.apply import MODE_MERGED_BODY, MergePlan, draft_stamps, edit_document, merge_cluster
from memgui.core.ops.undo import AuditError, UndoConflictError, redo, undo
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import get_entry, list_entries


def long_note(tag: str, size: int) -> str:
    """`size` characters of a note with what byte-exactness is about: CRLF and LF, tabs, trailing blanks,
    accents, an emoji, an astral character, a zero-width joiner."""
    out, n = [], 0
    while sum(map(len, out)) < size:
        out.append(f"Café ☕ {tag} fact {n}: port {5000 + n}\t owner Zoë  \r\n"
                   f"— 𝔘nicode 👩\u200d💻 line {n} for {tag}.\n")
        n += 1
    return "".join(out)[:size]


def raw_rows(path, doc_id: str) -> tuple:
    """The document's row and FTS row as SQLite holds them (every column as its bytes)."""
    conn = sqlite3.connect(path)
    try:
        doc = conn.execute("SELECT CAST(markdown_body AS BLOB), CAST(title AS BLOB), updated_at, update_semantics, "
                           "recall_mode FROM memory_documents WHERE document_id = ?", (doc_id,)).fetchone()
        fts = conn.execute("SELECT CAST(body AS BLOB), CAST(title AS BLOB) FROM memory_documents_fts "
                           "WHERE document_id = ?", (doc_id,)).fetchall()
        return doc, fts
    finally:
        conn.close()


def audit_row(path, audit_id: int) -> dict:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute("SELECT * FROM memgui_audit WHERE audit_id = ?", (audit_id,)).fetchone())
    finally:
        conn.close()


@pytest.fixture
def merged(tmp_path):
    """Two 200 KB notes merged into the first; (path, target, source, rows before, rows after, audit id)."""
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Ports A", long_note("a", 200_000), anchor="ports").document_id
        b = seed_document(store, "Ports B", long_note("b", 200_000), anchor="ports").document_id
        before = {d: raw_rows(path, d) for d in (a, b)}
        body = store.document(a).markdown_body + "\r\n\r\n" + store.document(b).markdown_body
        entry = merge_cluster(store, MergePlan(a, (b,), MODE_MERGED_BODY, body, draft_stamps(store, [a, b])))
        after = {d: raw_rows(path, d) for d in (a, b)}
    return path, a, b, before, after, entry.audit_id


def test_a_merge_of_long_notes_stores_each_text_once_compressed(merged):
    path, a, _b, _before, _after, audit_id = merged
    row = audit_row(path, audit_id)
    stored = len(row["before_json"].encode()) + len(row["after_json"].encode()) + len(row["texts"])
    # format 1 held the 200 KB bodies 7 times (rows and FTS rows, before and after: ≈ 2 MB of JSON)
    assert row["texts"] is not None and stored < 200_000
    assert len(row["details_json"]) < 100  # the guard's token list (≈ 500 KB of JSON here) is one of the texts
    assert "Café" not in row["before_json"] and '"$ref"' in row["before_json"]
    with open_store(path, read_only=True) as store:
        entry = get_entry(store, audit_id)
        assert entry is not None
        target = entry.after["documents"][a]
        assert target["row"]["markdown_body"] == target["fts"]["body"]  # read back whole, as format 1 was
        assert [e.audit_id for e in list_entries(store, document_id=a)] == [audit_id]  # found by its document
        assert entry.details["mode"] == MODE_MERGED_BODY and entry.guard_report["passed"] is True
        assert len(entry.guard_report["tokens"]) > 1000 and entry.details["tombstoned"] == [_b]


def test_undo_and_redo_put_back_the_exact_bytes_from_compressed_images(merged):
    path, a, b, before, after, audit_id = merged
    with open_store(path) as store:
        undone = undo(store, audit_id)
        assert {d: raw_rows(path, d) for d in (a, b)} == before
        redo(store, audit_id)
        assert {d: raw_rows(path, d)[0][:2] for d in (a, b)} == {d: after[d][0][:2] for d in (a, b)}
        assert {d: raw_rows(path, d)[1] for d in (a, b)} == {d: after[d][1] for d in (a, b)}
        assert audit_row(path, undone.audit_id)["texts"] is not None  # undo's own row is format 2 too


def _as_format_1(path, audit_id: int) -> dict:
    """Rewrite an audit row as memgui wrote every row before format 2: images inline, no texts."""
    with open_store(path, read_only=True) as store:
        entry = get_entry(store, audit_id)
        assert entry is not None
    conn = sqlite3.connect(path)
    dumps = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True)  # noqa: E731
    conn.execute("UPDATE memgui_audit SET before_json = ?, after_json = ?, details_json = ?, texts = NULL "
                 "WHERE audit_id = ?", (dumps(entry.before), dumps(entry.after), dumps(entry.details), audit_id))
    conn.commit()
    conn.close()
    assert "Café" in audit_row(path, audit_id)["before_json"]
    return {"before": dict(entry.before), "after": dict(entry.after), "details": dict(entry.details)}


def test_a_format_1_row_still_reads_undoes_and_redoes(merged, capsys):
    path, a, b, before, _after, audit_id = merged
    images = _as_format_1(path, audit_id)
    with open_store(path) as store:
        entry = get_entry(store, audit_id)
        assert entry is not None and {"before": entry.before, "after": entry.after, "details": entry.details} == images
        undo(store, audit_id)
        assert {d: raw_rows(path, d) for d in (a, b)} == before
        redo(store, audit_id)
        assert raw_rows(path, a)[0][0] == images["after"]["documents"][a]["row"]["markdown_body"].encode()
    capsys.readouterr()
    assert main(["audit", "--store", str(path), "--json", "--images"]) == 0
    shown = {e["audit_id"]: e for e in json.loads(capsys.readouterr().out)["memgui"]}
    assert shown[audit_id]["before"] == images["before"] and shown[audit_id]["state"] == "applied"


def test_a_store_whose_audit_table_predates_format_2_reads_and_climbs_with_its_next_write(merged):
    path, a, b, before, _after, audit_id = merged
    images = _as_format_1(path, audit_id)
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE memgui_audit DROP COLUMN texts")  # the table as schema version 2 made it
    conn.execute("UPDATE memgui_meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with open_store(path, read_only=True) as store:
        entry = get_entry(store, audit_id)
        assert entry is not None and entry.before == images["before"]
    with open_store(path) as store:
        undone = undo(store, audit_id)  # the first write adds the column, in its own transaction
        assert {d: raw_rows(path, d) for d in (a, b)} == before
        assert audit_row(path, undone.audit_id)["texts"] is not None
        edit_document(store, a, store.document(a).markdown_body + " Edited.", draft_stamps(store, [a]))
        assert get_entry(store, audit_id) is not None


def test_undo_reads_the_entry_before_its_lock_but_checks_the_state_and_the_rows_inside_it(merged, monkeypatch):
    """Undo reads the entry (and compresses its texts) before BEGIN IMMEDIATE; what another writer does in
    between is still caught inside: a daemon's edit of the target, or another memgui's undo of the same entry."""
    path, a, b, _before, after, audit_id = merged
    real = undo_mod._read_ahead
    meanwhile: list = []

    def read_then_someone_writes(store, wanted):
        entry = real(store, wanted)
        if meanwhile:
            meanwhile.pop()(store)
        return entry

    monkeypatch.setattr(undo_mod, "_read_ahead", read_then_someone_writes)
    conn = sqlite3.connect(path)

    def daemon_edits_the_target(_store):
        conn.execute("UPDATE memory_documents SET markdown_body = markdown_body || ' Daemon.', updated_at = updated_at + 1 "
                     "WHERE document_id = ?", (a,))
        conn.commit()

    with open_store(path) as store:
        meanwhile.append(daemon_edits_the_target)
        with pytest.raises(UndoConflictError) as info:
            undo(store, audit_id)
        assert a in str(info.value)
        assert raw_rows(path, a)[0][0].endswith(b" Daemon.") and raw_rows(path, b) == after[b]
        conn.execute("UPDATE memory_documents SET markdown_body = ?, updated_at = ? WHERE document_id = ?",
                     (after[a][0][0].decode(), after[a][0][2], a))  # the daemon's edit taken back
        conn.commit()

        def another_memgui_undoes(_store):
            with open_store(path) as other:
                undo(other, audit_id)

        meanwhile.append(another_memgui_undoes)
        with pytest.raises(AuditError) as info:
            undo(store, audit_id)
        assert "already undone" in str(info.value)
        assert len(list_entries(store, operation="undo")) == 1  # the other one's undo only
    conn.close()


def test_a_long_body_that_is_not_utf8_comes_back_byte_for_byte(tmp_path):
    """A body whose stored bytes are not UTF-8 is kept in the image as its bytes ({"$text": hex}); a long one is
    one of the row's compressed texts, and undo puts those exact bytes back."""
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Ports A", long_note("a", 5_000), anchor="ports").document_id
        b = seed_document(store, "Ports B", "placeholder", anchor="ports").document_id
    bad = long_note("b", 5_000).encode() + b"\x80\xff broken tail"
    conn = sqlite3.connect(path)
    conn.execute("UPDATE memory_documents SET markdown_body = CAST(? AS TEXT) WHERE document_id = ?", (bad, b))
    conn.commit()
    conn.close()
    before = raw_rows(path, b)
    assert before[0][0] == bad
    with open_store(path) as store:
        body = store.document(a).markdown_body + "\n\n" + store.document(b).markdown_body  # read with U+FFFD
        entry = merge_cluster(store, MergePlan(a, (b,), MODE_MERGED_BODY, body, draft_stamps(store, [a, b])))
        assert audit_row(path, entry.audit_id)["texts"] is not None and bad.hex() not in audit_row(path, entry.audit_id)["before_json"]
        undo(store, entry.audit_id)
    assert raw_rows(path, b) == before
