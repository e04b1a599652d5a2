"""Every file and row that crosses a seam has one schema (core/store/seams.py, issue 26 items 1–3 and 6): a draft,
a stamps file, a plan, an audit row, an argument that is not what it should be is one line on stderr and exit 2
(or, for a claim that no longer holds when re-proved, a clear refusal, exit 1) — and the store's bytes are
unchanged. The kinds the issue named, and more of each kind."""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3

import pytest

from memgui.__main__ import main
from memgui.core.ops.apply import draft_stamps
from memgui.core.store import open_store
from memgui.core.store.demo import build_demo_store, demo_labels

CLUSTERS = demo_labels()["duplicate_clusters"]
A, B = CLUSTERS[0][:2]
FIVE = list(dict.fromkeys([*CLUSTERS[0], *CLUSTERS[1]]))[:5]
LONG = "x" * 300
DEEP = "[" * 100_000 + "]" * 100_000
BIG, SMALL = str(2 ** 63), str(-(2 ** 63) - 1)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    base = tmp_path_factory.mktemp("seams")
    path = build_demo_store(base / "netclaw.db")
    with open_store(path, read_only=True) as store:
        stamps = {k: {"updated_at": v.updated_at, "content_hash": v.content_hash}
                  for k, v in draft_stamps(store, FIVE).items()}
        bodies = {d.document_id: d.markdown_body for d in store.documents_by_ids(FIVE)}
    return base, path, stamps, bodies


def _digest(path) -> str:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write(base, name: str, content) -> str:
    f = base / name
    f.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(f)


def _pair(stamps) -> dict:
    return {A: stamps[A], B: stamps[B]}


def _plan_write(st, bodies, **over) -> dict:
    write = {"cluster_id": "c1", "target_id": A, "tombstoned": [B], "decision": "UPDATE",
             "merged_body": bodies[A] + "\n\n" + bodies[B], "length_ratio": 1.0,
             "guard": {"passed": True, "reason": "ok", "retention": 1.0, "length_ratio": 1.0, "missing": []},
             "strict": {"passed": True, "checked": 3, "at_risk": []}, "stamps": _pair(st), "model_id": "m",
             "rationale": None, "raw_reply": None, "titles": {}, "reader": None}
    write.update(over)
    return write


def _plan(st, bodies, batch_id="plan-1", **over) -> str:
    return json.dumps({"batch_id": batch_id, "created_at": "", "writes": [_plan_write(st, bodies, **over)],
                       "excluded": []})


def _draft(st, **over) -> str:
    draft = {"decision": "UPDATE", "merged_body": "A merged body.", "stamps": _pair(st)}
    draft.update(over)
    return json.dumps(draft)


def _merge(store, *extra):
    return ["merge", "--store", store, "--target", A, "--sources", B, *extra]


# (name, argv from (base, store path, stamps, bodies)) — each must be exit 2, one stderr line, nothing changed.
# One list per seam; the argv builders below write the file a case reads (into the module's temporary folder).

def _s(d) -> str:
    return str(d[1])


def _draft_arg(name: str, text):
    return lambda d: _merge(_s(d), "--draft", _write(d[0], name, text(d[2])))


def _stamps_arg(name: str, text):
    return lambda d: _merge(_s(d), "--append", "--expect-stamps", _write(d[0], name, text(d[2])))


def _plan_arg(name: str, text):
    return lambda d: ["accept-safe", "--store", _s(d), "--no-reader", "--plan", _write(d[0], name, text(d[2], d[3]))]


def _pair_json(st) -> str:
    return json.dumps(_pair(st))


def _draft_cases():
    return [
        # drafts (`memgui decide --json` read back by `merge --draft`)
        ("draft: merged_body a number", _draft_arg("d1.json", lambda st: _draft(st, merged_body=5))),
        ("draft: merged_body a list", _draft_arg("d2.json", lambda st: _draft(st, merged_body=["a", "b"]))),
        ("draft: merged_body an object", _draft_arg("d3.json", lambda st: _draft(st, merged_body={"a": 1}))),
        ("draft: stamps a list", _draft_arg("d4.json", lambda st: _draft(st, stamps=[1, 2]))),
        ("draft: no stamps", _draft_arg("d5.json", lambda st: json.dumps({"merged_body": "x"}))),
        ("draft: 100k-deep JSON", _draft_arg("d6.json", lambda st: '{"stamps": {}, "merged_body": ' + DEEP + "}")),
        ("draft: 100k-deep in an unknown field", _draft_arg("d7.json", lambda st: _draft(st)[:-1] + ', "x": ' + DEEP + "}")),
        ("draft: lone surrogate escape in the body", _draft_arg("d8.json", lambda st: _draft(st)[:-1] + ', "merged_body": "a\\ud800b"}')),
        ("draft: lone low surrogate", _draft_arg("d9.json", lambda st: _draft(st)[:-1] + ', "merged_body": "\\udfff"}')),
        ("draft: surrogate bytes (not UTF-8)", lambda d: _merge(_s(d), "--draft", _write(
            d[0], "d10.json", _draft(d[2]).encode()[:-1] + b', "rationale": "\xed\xa0\x80"}'))),
        ("draft: updated_at beyond int64",
         _draft_arg("d11.json", lambda st: _draft(st, stamps={A: {"updated_at": 2 ** 64, "content_hash": "x"}}))),
        ("draft: updated_at below int64",
         _draft_arg("d12.json", lambda st: _draft(st, stamps={A: {"updated_at": -(2 ** 63) - 1, "content_hash": "x"}}))),
        ("draft: updated_at a fraction",
         _draft_arg("d13.json", lambda st: _draft(st, stamps={A: {"updated_at": 1.5, "content_hash": "x"}}))),
        ("draft: content_hash a number", _draft_arg("d14.json", lambda st: _draft(st, stamps={A: {"updated_at": 1, "content_hash": 7}}))),
        ("draft: a stamp with an unknown field", _draft_arg("d15.json", lambda st: _draft(st, stamps={A: {**st[A], "oops": 1}}))),
        ("draft: an empty document id", _draft_arg("d16.json", lambda st: _draft(st, stamps={"": st[A]}))),
        ("draft: a 600-character document id", _draft_arg("d17.json", lambda st: _draft(st, stamps={"d" * 600: st[A]}))),
        ("draft: a document id with a newline", _draft_arg("d24.json", lambda st: _draft(st, stamps={"doc\nx": st[A]}))),
        ("merge --target with a newline", lambda d: ["merge", "--store", _s(d), "--target", "doc-a\nsecond line",
                                                     "--sources", B, "--append"]),
        ("draft: JSON null", _draft_arg("d18.json", lambda st: "null")),
        ("draft: an empty file", _draft_arg("d19.json", lambda st: "")),
        ("draft: NaN", _draft_arg("d20.json", lambda st: "NaN")),
        ("draft: 1e400", _draft_arg("d21.json", lambda st: _draft(st)[:-1] + ', "guard": {"retention": 1e400}}')),
        ("draft: trailing garbage", _draft_arg("d22.json", lambda st: _draft(st) + " }")),
        ("draft: stamps of other documents", _draft_arg("d23.json", lambda st: _draft(st, stamps={FIVE[3]: st[FIVE[3]]}))),
    ]


def _stamps_cases():
    return [
        # stamps files (`--expect-stamps`)
        ("stamps: a list", _stamps_arg("s1.json", lambda st: "[]")),
        ("stamps: 100k-deep", _stamps_arg("s2.json", lambda st: DEEP)),
        ("stamps: a stamp that is null", _stamps_arg("s3.json", lambda st: json.dumps({A: None}))),
        ("stamps: updated_at beyond int64",
         _stamps_arg("s4.json", lambda st: json.dumps({A: {"updated_at": 10 ** 30, "content_hash": "x"}}))),
        ("stamps: updated_at a string", _stamps_arg("s5.json", lambda st: json.dumps({A: {"updated_at": "1", "content_hash": "x"}}))),
        ("stamps: lone surrogate in a hash",
         _stamps_arg("s6.json", lambda st: _pair_json(st)[:-1] + ', "z": {"updated_at": 1, "content_hash": "\\ud800"}}')),
        ("stamps: a directory", lambda d: _merge(_s(d), "--append", "--expect-stamps", str(d[0]))),
        ("stamps: an empty object", _stamps_arg("s7.json", lambda st: "{}")),
    ]


def _plan_cases():
    return [
        # plans (`accept-safe --plan`)
        ("plan: writes an object", _plan_arg("p1.json", lambda st, b: json.dumps({"batch_id": "p", "writes": {}}))),
        ("plan: merged_body a number", _plan_arg("p2.json", lambda st, b: _plan(st, b, merged_body=12))),
        ("plan: stamps a list", _plan_arg("p3.json", lambda st, b: _plan(st, b, stamps=[]))),
        ("plan: five documents in one write", _plan_arg("p4.json", lambda st, b: _plan(
            st, b, tombstoned=FIVE[1:], stamps={k: st[k] for k in FIVE}))),
        ("plan: the target among its tombstones", _plan_arg("p5.json", lambda st, b: _plan(st, b, tombstoned=[A, B]))),
        ("plan: no tombstones", _plan_arg("p6.json", lambda st, b: _plan(st, b, tombstoned=[], stamps={A: st[A]}))),
        ("plan: stamps for other documents", _plan_arg("p7.json", lambda st, b: _plan(st, b, stamps={A: st[A], FIVE[2]: st[FIVE[2]]}))),
        ("plan: a SKIP decision", _plan_arg("p8.json", lambda st, b: _plan(st, b, decision="SKIP"))),
        ("plan: the reader said no", _plan_arg("p9.json", lambda st, b: _plan(st, b, reader={"passed": False, "verdicts": []}))),
        ("plan: an empty batch id", _plan_arg("p10.json", lambda st, b: _plan(st, b, batch_id=""))),
        ("plan: a batch id with spaces", _plan_arg("p11.json", lambda st, b: _plan(st, b, batch_id="my batch"))),
        ("plan: a 200-character batch id", _plan_arg("p12.json", lambda st, b: _plan(st, b, batch_id="b" * 200))),
        ("plan: a batch id that is a number", _plan_arg("p13.json", lambda st, b: _plan(st, b, batch_id=7))),
        ("plan: one document in two writes", _plan_arg("p14.json", lambda st, b: json.dumps({
            "batch_id": "p", "writes": [_plan_write(st, b), _plan_write(st, b, cluster_id="c2")]}))),
        ("plan: 100k-deep", _plan_arg("p15.json", lambda st, b: '{"batch_id": "p", "writes": ' + DEEP + "}")),
        ("plan: a lone surrogate in the body", _plan_arg("p16.json", lambda st, b: _plan(st, b).replace(
            '"merged_body": "', '"merged_body": "\\ud800', 1))),
        ("plan: checked beyond int64", _plan_arg("p17.json", lambda st, b: _plan(st, b, strict={"passed": True, "checked": 2 ** 64}))),
        ("plan: a list", _plan_arg("p18.json", lambda st, b: "[]")),
    ]


def _integer_cases():
    return [
        # integers beyond SQLite's range, and other non-integers
        ("undo: 2^63", lambda d: ["undo", "--store", _s(d), BIG]),
        ("undo: below -2^63", lambda d: ["undo", "--store", _s(d), SMALL]),
        ("redo: 2^63", lambda d: ["redo", "--store", _s(d), BIG]),
        ("undo: 1e3", lambda d: ["undo", "--store", _s(d), "1e3"]),
        ("undo: a 5,000-digit id", lambda d: ["undo", "--store", _s(d), "9" * 5000]),
        ("audit --limit 2^64", lambda d: ["audit", "--store", _s(d), "--limit", str(2 ** 64)]),
        ("audit --append-back 2^63", lambda d: ["audit", "--store", _s(d), "--append-back", BIG]),
        ("accept-safe --limit 2^70", lambda d: ["accept-safe", "--store", _s(d), "--dry-run", "--limit", str(2 ** 70)]),
        ("decide --threads 2^63", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--threads", BIG]),
        ("decide --timeout nan", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--timeout", "nan"]),
        ("scan --k 0", lambda d: ["scan", "--store", _s(d), "--k", "0"]),
    ]


def _path_cases():
    return [
        # paths no file system can hold
        ("--store: a component too long", lambda d: ["info", "--store", f"{d[0]}/{LONG}/netclaw.db"]),
        ("merge --store: a component too long", lambda d: _merge(f"{d[0]}/{LONG}.db", "--append")),
        ("--body-file: a component too long", lambda d: _merge(_s(d), "--force", "--body-file", f"{d[0]}/{LONG}.md")),
        ("--draft: a component too long", lambda d: _merge(_s(d), "--draft", f"{d[0]}/{LONG}.json")),
        ("--expect-stamps: a component too long", lambda d: _merge(_s(d), "--append", "--expect-stamps", f"/{LONG}")),
        ("--plan: a component too long", lambda d: ["accept-safe", "--store", _s(d), "--plan", f"/{LONG}/p.json"]),
        ("--model: a component too long", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--model", f"/{LONG}.gguf"]),
        ("--store: a path longer than PATH_MAX", lambda d: ["audit", "--store", "/" + "/".join(["y" * 200] * 30)]),
    ]


def _model_file_cases():
    return [
        # model files that are not models (item 6)
        ("decide --model: a text file", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--model",
                                                   _write(d[0], "m1.gguf", "not a model\n")]),
        ("decide --model: an empty file", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--model",
                                                     _write(d[0], "m2.gguf", b"")]),
        ("decide --model: a safetensors file", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--model",
                                                          _write(d[0], "m3.safetensors", b"\x08\x00\x00\x00\x00\x00\x00\x00{}      ")]),
        ("decide --model: GGUF magic, then junk", lambda d: ["decide", "--store", _s(d), "--docs", f"{A},{B}", "--model",
                                                             _write(d[0], "m5.gguf", b"GGUF\x03\x00\x00\x00junk" * 8)]),
        ("accept-safe --model: a JSON file", lambda d: ["accept-safe", "--store", _s(d), "--dry-run", "--model",
                                                        _write(d[0], "m4.gguf", "{}")]),
    ]


def _body_cases():
    return [
        # bodies and the stamps a body-file needs (item 3)
        ("merge --body-file without stamps or --force", lambda d: _merge(_s(d), "--body-file", _write(d[0], "b1.md", "A body."))),
        ("merge --body-file: surrogate bytes",
         lambda d: _merge(_s(d), "--force", "--body-file", _write(d[0], "b2.md", b"a \xed\xa0\x80 b"))),
        ("merge --body-file: only white space", lambda d: _merge(_s(d), "--force", "--body-file", _write(d[0], "b3.md", " \n\t "))),
        ("merge --note posing as a batch", lambda d: _merge(_s(d), "--append", "--note", "accept-safe batch x1")),
    ]


def _not_utf8_cases():
    return [
        # text arguments that are not UTF-8 (a byte a shell passed through: Python's surrogate escape)
        ("merge --target not UTF-8", lambda d: ["merge", "--store", _s(d), "--target", "doc-\udcff", "--sources", B, "--append"]),
        ("merge --note not UTF-8", lambda d: _merge(_s(d), "--append", "--note", "note \udcff")),
        ("decide --docs not UTF-8", lambda d: ["decide", "--store", _s(d), "--docs", f"{A}\udcff,{B}", "--draft", "union"]),
        ("diff --docs not UTF-8", lambda d: ["diff", "--store", _s(d), "--docs", f"{A},{B}\udcfe"]),
        ("audit --model not UTF-8", lambda d: ["audit", "--store", _s(d), "--model", "\udcff"]),
        ("audit --document not UTF-8", lambda d: ["audit", "--store", _s(d), "--document", "\udcff"]),
    ]


def _batch_id_cases():
    return [
        # batch ids given back
        ("undo-batch: a batch id with spaces", lambda d: ["undo-batch", "--store", _s(d), "my batch"]),
        ("undo-batch: an empty batch id", lambda d: ["undo-batch", "--store", _s(d), ""]),
        ("undo-batch: an unknown batch", lambda d: ["undo-batch", "--store", _s(d), "never-written"]),
    ]


def _cases():
    return [*_draft_cases(), *_stamps_cases(), *_plan_cases(), *_integer_cases(), *_path_cases(),
            *_model_file_cases(), *_body_cases(), *_not_utf8_cases(), *_batch_id_cases()]


CASES = _cases()


def test_there_are_many_kinds():
    assert len(CASES) >= 70


def run(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's refusal of an argument
        return int(exc.code or 0)


def _one_line(err: str) -> list[str]:
    return [line for line in err.strip().splitlines() if not line.startswith(("loading", "lexical", "\r"))]


@pytest.mark.parametrize("name, argv", CASES, ids=[c[0] for c in CASES])
def test_a_bad_seam_input_is_one_line_exit_2_and_changes_nothing(demo, capsys, name, argv):
    before = _digest(demo[1])
    code = run(argv(demo))
    _out, err = capsys.readouterr()
    lines = _one_line(err)
    assert code == 2, f"{name}: exit {code}, stderr {err[-500:]!r}"
    assert len(lines) == 1 and lines[0].startswith("memgui: "), f"{name}: {err[-500:]!r}"
    assert len(lines[0]) < 600 and "Traceback" not in err
    assert _digest(demo[1]) == before, f"{name} changed the store"


# ---- claims re-proved at apply time ----------------------------------------------------------------------------

@pytest.fixture
def fresh(demo, tmp_path):
    path = tmp_path / "netclaw.db"
    shutil.copy(demo[1], path)
    return tmp_path, path, demo[2], demo[3]


def test_a_plan_whose_lens_verdict_was_edited_to_passed_is_refused(fresh, capsys):
    base, path, stamps, bodies = fresh
    lossy = bodies[A] + "\n\n" + bodies[B] + " The meeting moved to 9 March 2031."  # MergeGuard passes it
    plan = _write(base, "edited.json", _plan(stamps, bodies, merged_body=lossy,
                                             strict={"passed": True, "checked": 9, "at_risk": []}))
    before = _digest(path)
    assert main(["accept-safe", "--store", str(path), "--no-reader", "--plan", plan]) == 1
    err = capsys.readouterr().err
    assert "memgui's check does not prove" in err and "9 March 2031" in err and _digest(path) == before


def test_a_plan_whose_guard_verdict_was_edited_to_passed_is_refused(fresh, capsys):
    base, path, stamps, bodies = fresh
    plan = _write(base, "guard.json", _plan(stamps, bodies, merged_body="Nothing of either note."))
    before = _digest(path)
    assert main(["accept-safe", "--store", str(path), "--no-reader", "--plan", plan]) == 1
    assert "merge guard failed" in capsys.readouterr().err and _digest(path) == before


def test_a_batch_id_is_written_once_and_a_reused_one_is_refused(fresh, capsys):
    base, path, stamps, bodies = fresh
    plan = _write(base, "good.json", _plan(stamps, bodies, batch_id="batch-once"))
    assert main(["accept-safe", "--store", str(path), "--no-reader", "--plan", plan]) == 0
    capsys.readouterr()
    assert main(["undo-batch", "--store", str(path), "batch-once"]) == 0  # the rows are back: the stamps hold again
    capsys.readouterr()
    before = _digest(path)
    assert main(["accept-safe", "--store", str(path), "--no-reader", "--plan", plan]) == 2
    err = capsys.readouterr().err
    assert len(_one_line(err)) == 1 and "already applied" in err and _digest(path) == before


def test_merge_body_file_with_force_is_recorded_and_a_stale_stamp_says_what_changed(fresh, capsys):
    base, path, _stamps, bodies = fresh
    body = _write(base, "body.md", bodies[A] + "\n\n" + bodies[B])
    with open_store(path, read_only=True) as store:  # the stamps as memgui takes them (with the body's own hash)
        full = {k: {"updated_at": v.updated_at, "content_hash": v.content_hash, "body_hash": v.body_hash}
                for k, v in draft_stamps(store, [A, B]).items()}
    stamp_file = _write(base, "stamps.json", json.dumps(full))
    with open_store(path) as store:  # a case-only edit of B's body, updated_at kept
        Doc = store.m.documents
        store._run(Doc.update({Doc.markdown_body: bodies[B].upper()}).where(Doc.document_id == B))
    before = _digest(path)
    assert main(_merge(str(path), "--body-file", body, "--expect-stamps", stamp_file)) == 1
    err = capsys.readouterr().err
    assert f"{B} changed (its content changed; updated_at unchanged at" in err and _digest(path) == before
    with open_store(path) as store:  # the body back, the title edited, the time moved
        Doc = store.m.documents
        store._run(Doc.update({Doc.markdown_body: bodies[B], Doc.title: "Renamed",
                               Doc.updated_at: full[B]["updated_at"] + 5}).where(Doc.document_id == B))
    assert main(_merge(str(path), "--body-file", body, "--expect-stamps", stamp_file)) == 1
    err = capsys.readouterr().err
    assert f"its title changed; its time changed: updated_at {full[B]['updated_at']} → {full[B]['updated_at'] + 5}" in err
    assert main(_merge(str(path), "--body-file", body, "--force", "--override-guard", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["details"]["forced"] is True


# ---- audit rows that are not what memgui writes ---------------------------------------------------------------------

BAD_ROWS = {
    "before not JSON": ("before_json", "{not json"),
    "before a JSON list": ("before_json", "[]"),
    "after a string": ("after_json", '"x"'),
    "before 100k-deep": ("before_json", DEEP),
    "a row value beyond int64": ("after_json", None),
    "a lone surrogate escape": ("before_json", '{"documents": {"\\ud800": {}}}'),
    "bytes that are not hex": ("before_json", None),
    "an unknown image kind": ("before_json", '{"documents": {}, "tables": {}}'),
    "source ids an object": ("source_ids_json", '{"a": 1}'),
    "details a list": ("details_json", "[1]"),
}


@pytest.mark.parametrize("kind", list(BAD_ROWS))
def test_an_audit_row_that_is_not_an_image_is_one_line_exit_2_on_undo_redo_and_audit(fresh, capsys, kind):
    _base, path, _stamps, _bodies = fresh
    assert main(_merge(str(path), "--append")) == 0
    capsys.readouterr()
    column, value = BAD_ROWS[kind]
    conn = sqlite3.connect(path)
    audit_id, stored = conn.execute(f"SELECT audit_id, {column} FROM memgui_audit ORDER BY audit_id DESC LIMIT 1").fetchone()
    if kind == "a row value beyond int64":
        value = stored.replace('"updated_at": ', '"updated_at": 99999999999999999999', 1)
    elif kind == "bytes that are not hex":
        value = json.dumps({"documents": {A: {"row": {"x": {"$bytes": "zz"}}}}})
    conn.execute(f"UPDATE memgui_audit SET {column} = ? WHERE audit_id = ?", (value, audit_id))
    conn.commit()
    conn.close()
    before = _digest(path)
    for argv in (["undo", "--store", str(path), str(audit_id)], ["redo", "--store", str(path), str(audit_id)],
                 ["audit", "--store", str(path), "--json", "--images"]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2, f"{kind} {argv[0]}: exit {code} {err[-300:]!r}"
        assert len(_one_line(err)) == 1 and f"audit {audit_id}" in err and "Traceback" not in err, err[-300:]
        assert _digest(path) == before
