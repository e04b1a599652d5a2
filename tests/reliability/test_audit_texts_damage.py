"""A format 2 audit row whose compressed texts are damaged (core/store/audit_texts.py): undo, redo and `memgui
audit` each say so in one line and exit 2, and the store stays byte-identical — never a traceback, never a
partial restore of a body that did not decompress."""
from __future__ import annotations

import hashlib
import sqlite3
import struct
import zlib

import pytest

from factories import seed_document
from memgui.__main__ import main
from memgui.core.ops.apply import MODE_MERGED_BODY, MergePlan, draft_stamps, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import AuditRowError
from memgui.core.store.audit_texts import MAGIC


def _note(tag: str) -> str:
    return " ".join(f"The {tag} service {i} listens on port {3000 + i}." for i in range(3000))


def _digest(path) -> str:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stream(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _damage(kind: str, texts: bytes, before_json: str) -> tuple[object, str]:
    """(texts, before_json) after the damage `kind`."""
    first = struct.unpack_from(">I", texts, len(MAGIC))[0]
    if kind == "a flipped byte inside a stream":
        at = len(MAGIC) + 4 + first // 2
        return texts[:at] + bytes([texts[at] ^ 0xFF]) + texts[at + 1:], before_json
    if kind == "cut short":
        return texts[: len(texts) // 2], before_json
    if kind == "an unknown format":
        return b"PK\x03\x04" + texts[4:], before_json
    if kind == "texts stored as text":
        return "not the texts", before_json
    if kind == "a stream that is not UTF-8":
        return MAGIC + _stream(zlib.compress(b"\xff\xfe" * 600)), before_json
    if kind == "a stream longer than one text may be":
        return MAGIC + _stream(zlib.compress(b"a" * (64 * 1024 * 1024 + 2), 9)), before_json
    if kind == "a reference beyond the texts":
        return texts, before_json.replace('{"$ref": 0}', '{"$ref": 99}', 1)
    if kind == "a reference that is not a number":
        return texts, before_json.replace('{"$ref": 0}', '{"$ref": "0"}', 1)
    if kind == "references without texts":
        return None, before_json
    if kind == "details that refer to an image's text":
        return texts, before_json
    raise AssertionError(kind)


KINDS = ["a flipped byte inside a stream", "cut short", "an unknown format", "texts stored as text",
         "a stream that is not UTF-8", "a stream longer than one text may be", "a reference beyond the texts",
         "a reference that is not a number", "references without texts", "details that refer to an image's text"]


@pytest.fixture(scope="module")
def merged_store(tmp_path_factory):
    path = create_store(tmp_path_factory.mktemp("texts") / "netclaw.db")
    with open_store(path) as store:
        a = seed_document(store, "Ports A", _note("alpha"), anchor="ports").document_id
        b = seed_document(store, "Ports B", _note("beta"), anchor="ports").document_id
        body = store.document(a).markdown_body + "\n\n" + store.document(b).markdown_body
        entry = merge_cluster(store, MergePlan(a, (b,), MODE_MERGED_BODY, body, draft_stamps(store, [a, b])))
    return path, entry.audit_id


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_texts_are_one_line_exit_2_and_change_nothing(merged_store, tmp_path, capsys, kind):
    source, audit_id = merged_store
    path = tmp_path / "netclaw.db"
    path.write_bytes(source.read_bytes())
    conn = sqlite3.connect(path)
    texts, before_json = conn.execute("SELECT texts, before_json FROM memgui_audit WHERE audit_id = ?",
                                      (audit_id,)).fetchone()
    assert texts is not None and '{"$ref": 0}' in before_json
    texts, before_json = _damage(kind, texts, before_json)
    conn.execute("UPDATE memgui_audit SET texts = ?, before_json = ? WHERE audit_id = ?", (texts, before_json, audit_id))
    if kind == "details that refer to an image's text":  # a body where the details' JSON belongs
        conn.execute("UPDATE memgui_audit SET details_json = '{\"$ref\": 0}' WHERE audit_id = ?", (audit_id,))
    conn.commit()
    conn.close()
    before = _digest(path)
    for argv in (["undo", "--store", str(path), str(audit_id)], ["redo", "--store", str(path), str(audit_id)],
                 ["audit", "--store", str(path), "--json", "--images"]):
        code = main(argv)
        err = capsys.readouterr().err
        lines = [line for line in err.strip().splitlines() if line]
        assert code == 2, f"{kind} {argv[0]}: exit {code} {err[-300:]!r}"
        assert len(lines) == 1 and f"audit {audit_id}" in err and "Traceback" not in err, err[-300:]
        assert _digest(path) == before, f"{kind}: {argv[0]} changed the store"
    with open_store(path) as store, pytest.raises(AuditRowError) as info:
        undo(store, audit_id)
    assert "nothing was written" in str(info.value)
    assert _digest(path) == before
