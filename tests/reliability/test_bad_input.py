"""Every refusal is one line, exit 2, and changes nothing: bad input across every command, with the store
file's bytes compared before and after (WAL folded into the file first, so a hidden write shows)."""
from __future__ import annotations

import hashlib
import sqlite3

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels

PAIR = demo_labels()["duplicate_clusters"][0][:2]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    base = tmp_path_factory.mktemp("bad")
    bad = {
        "store": build_demo_store(base / "netclaw.db"),
        "empty": base / "empty.db",
        "text": base / "notes.txt",
        "corrupt": base / "corrupt.db",
        "folder": base / "folder",
        "not-memory": base / "other.db",
        "body": base / "body.md",
        "latin1": base / "latin1.md",
        "json-garbage": base / "garbage.json",
    }
    bad["empty"].write_bytes(b"")
    bad["text"].write_text("just some notes\n" * 50)
    data = bytearray(bad["store"].read_bytes())
    data[4096:8192] = b"\xde\xad" * 2048  # smash a page
    bad["corrupt"].write_bytes(bytes(data))
    bad["folder"].mkdir()
    conn = sqlite3.connect(bad["not-memory"])
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    bad["body"].write_text("A merged body.", encoding="utf-8")
    bad["latin1"].write_bytes("Caf\xe9 au lait".encode("latin-1"))
    bad["json-garbage"].write_text("{not json")
    return bad


def _digest(path) -> str:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


STORES = ("missing", "empty", "text", "corrupt", "folder", "not-memory")


def _store_path(f, kind: str) -> str:
    return str(f["store"].parent / "nope.db") if kind == "missing" else str(f[kind])


A, B = PAIR
CASES = [  # (name, argv built from the files): every command that opens a store, on every kind of bad store ...
    *[(f"{cmd} on {kind}", lambda f, kind=kind, argv=argv: [argv[0], "--store", _store_path(f, kind), *argv[1:]])
      for kind in STORES
      for cmd, argv in (("info", ["info"]), ("scan", ["scan", "--embedder", "default"]),
                        ("merge", ["merge", "--target", A, "--sources", B, "--append"]), ("audit", ["audit"]))],
    # ... and bad arguments on a good store
    ("decide: one id", lambda f: ["decide", "--store", str(f["store"]), "--docs", A, "--draft", "union"]),
    ("decide: unknown ids", lambda f: ["decide", "--store", str(f["store"]), "--docs", "doc-x,doc-y", "--draft", "union"]),
    ("decide: missing model", lambda f: ["decide", "--store", str(f["store"]), "--docs", f"{A},{B}", "--model",
                                         "/nope.gguf"]),
    ("diff: unknown id", lambda f: ["diff", "--store", str(f["store"]), "--docs", f"{A},doc-nope"]),
    ("diff: three ids", lambda f: ["diff", "--store", str(f["store"]), "--docs", f"{A},{B},doc-c"]),
    ("merge: unknown target", lambda f: ["merge", "--store", str(f["store"]), "--target", "doc-nope", "--sources", B,
                                         "--append"]),
    ("merge: unknown source", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", "doc-nope",
                                         "--append"]),
    ("merge: missing body file", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B,
                                            "--body-file", "/nope.md"]),
    ("merge: body not UTF-8", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B,
                                         "--body-file", str(f["latin1"])]),
    ("merge: body is a folder", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B,
                                           "--body-file", str(f["folder"])]),
    ("merge: no body at all", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B]),
    ("merge: draft not JSON", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B,
                                         "--draft", str(f["json-garbage"])]),
    ("merge: stamps not JSON", lambda f: ["merge", "--store", str(f["store"]), "--target", A, "--sources", B,
                                          "--append", "--expect-stamps", str(f["json-garbage"])]),
    ("undo: unknown entry", lambda f: ["undo", "--store", str(f["store"]), "999"]),
    ("redo: unknown entry", lambda f: ["redo", "--store", str(f["store"]), "999"]),
    ("guard: missing source", lambda f: ["guard", "--source", "/nope.md", "--merged", str(f["body"])]),
    ("guard: merged not UTF-8", lambda f: ["guard", "--source", str(f["body"]), "--merged", str(f["latin1"])]),
    ("evaluate: missing content file", lambda f: ["evaluate", "--store", str(f["store"]), "--title", "t",
                                                  "--content-file", "/nope.md"]),
    ("evaluate: missing model", lambda f: ["evaluate", "--store", str(f["store"]), "--title", "t", "--content-file",
                                           str(f["body"]), "--model", "/nope.gguf"]),
    ("audit: daemon logs missing", lambda f: ["audit", "--store", str(f["store"]), "--daemon-logs", "/nope/logs"]),
]


def test_there_are_enough_cases():
    assert len(CASES) >= 30


def _state(files) -> dict:
    """The good store's settled bytes and every other input file's bytes."""
    state = {"store": _digest(files["store"])}
    for key in ("empty", "text", "corrupt", "not-memory", "body", "latin1", "json-garbage"):
        state[key] = files[key].read_bytes()
    return state


@pytest.mark.parametrize("name, argv", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_one_line_exit_2_and_changes_nothing(files, capsys, name, argv):
    before = _state(files)
    code = main(argv(files))
    _, err = capsys.readouterr()
    lines = [line for line in err.strip().splitlines() if not line.startswith(("loading", "lexical", "\r"))]
    assert code == 2, f"{name}: exit {code}, stderr {err!r}"
    assert len(lines) == 1 and lines[0].startswith("memgui: "), f"{name}: {err!r}"
    assert "Traceback" not in err
    assert _state(files) == before, f"{name} changed a file"
