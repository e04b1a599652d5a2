"""core/forensics/export.py: JSON Lines round trip of a real audit trail, and the Markdown report a person reads."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date

import pytest

from factories import seed_document
from memgui.core.forensics.export import fence, jsonl_text, markdown_report, read_jsonl, write_jsonl, write_markdown
from memgui.core.forensics.history import appended_histories
from memgui.core.ops.apply import MODE_MERGED_BODY, MergePlan, draft_stamps, drop_document, keep_separate, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store.audit_log import list_entries

A = "The build server is ci.example.org running version 1.5.62. Use `make ci` to rebuild."
B = "The build server also runs nightly at 02:00 UTC — ```fenced``` notes survive."
MERGED = ("The build server is ci.example.org running version 1.5.62 and runs nightly at 02:00 UTC. "
          "Use `make ci` to rebuild; ```fenced``` notes survive.")


@pytest.fixture
def audited(empty_store):
    store = empty_store
    a = seed_document(store, "Build server", A, anchor="build-server")
    b = seed_document(store, "Nightly build", B, anchor="nightly")
    c = seed_document(store, "Release 1.2", "Version 1.2 ships Monday.", anchor="release")
    d = seed_document(store, "Release 1.3", "Version 1.3 ships Friday.", anchor="release-2")
    ids = (a.document_id, b.document_id)
    merge = merge_cluster(store, MergePlan(
        a.document_id, ids, mode=MODE_MERGED_BODY, merged_body=MERGED, drafted=draft_stamps(store, ids),
        model_id="qwen2.5-coder-1.5b-instruct-q4_k_m", prompt_hash="ab" * 32, raw_reply="UPDATE\n---\n" + MERGED,
        rationale="Same build server; the nightly schedule is added.", cosines=((a.document_id, b.document_id, 0.9123),),
        decided_by="llm", note="accepted in review", when=date(2026, 6, 1),
    ))
    kept = keep_separate(store, [c.document_id, d.document_id], note="different versions")
    drop = drop_document(store, d.document_id, draft_stamps(store, [d.document_id]), note="obsolete")
    undo(store, drop.audit_id)
    return store, merge, kept, a, b


def test_jsonl_round_trips_every_entry_into_equal_dicts(audited, tmp_path):
    store = audited[0]
    entries = list_entries(store)
    assert len(entries) == 4  # merge, keep-separate, drop, undo
    path = tmp_path / "audit.jsonl"
    assert write_jsonl(path, entries) == 4
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) == 4 and all(line.startswith("{") for line in text.splitlines())
    assert "—" in text  # UTF-8 kept as is, not escaped
    assert read_jsonl(path) == [e.to_dict(images=True) for e in entries]
    # without images the lines are smaller but still equal to the entries' dicts
    assert [json.loads(x) for x in jsonl_text(entries, images=False).splitlines()] == [e.to_dict() for e in entries]


def test_read_jsonl_names_a_bad_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"audit_id": 1, "created_at": 0, "operation": "merge", "state": "applied"}\n\nnot json\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.jsonl:3"):
        read_jsonl(path)


@pytest.mark.parametrize("line, why", [
    ('{"audit_id": 1}', "created_at"),  # a line without its fields
    ('{"audit_id": 99999999999999999999, "created_at": 0, "operation": "merge", "state": "applied"}', "<="),
    ('{"audit_id": 1, "created_at": 0, "operation": "merge", "state": "applied", "before": []}', "array"),
    ('{"audit_id": 1, "created_at": 0, "operation": "merge", "state": "\\ud800"}', "surrogate"),
    ('{"audit_id": 1, "created_at": 0, "operation": "merge", "state": "applied", "details": {"x": '
     + "[" * 5000 + "]" * 5000 + "}}", "nested"),
])
def test_read_jsonl_refuses_a_line_outside_the_schema(tmp_path, line, why):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.jsonl:1") as info:
        read_jsonl(path)
    assert why in str(info.value) and "\n" not in str(info.value)


def test_export_to_a_missing_folder_fails_cleanly_and_leaves_nothing(audited, tmp_path):
    with pytest.raises(OSError):
        write_jsonl(tmp_path / "nope" / "audit.jsonl", list_entries(audited[0]))
    assert not (tmp_path / "nope").exists()


def test_markdown_report_shows_sources_merged_body_guard_when_and_who(audited, tmp_path):
    store, merge, kept, a, b = audited
    text = markdown_report(list_entries(store), store_path=str(store.path))
    section = text.split(f"## #{merge.audit_id} ")[1].split("\n## #")[0]
    assert "· Merge ·" in text
    assert "**Decided by:** the LLM, model `qwen2.5-coder-1.5b-instruct-q4_k_m`, prompt sha256 `abababababababab`…" in section
    assert "**Guard:** passed (retention 100%" in section
    when = section.split("**When:** ", 1)[1].split("\n", 1)[0]  # local time with its UTC offset (netfx N10)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d", when), when
    assert "**Rationale:** Same build server; the nightly schedule is added." in section
    assert f"`{a.document_id}` ↔ `{b.document_id}` 0.912" in section
    assert "### Sources before" in section and A in section and B in section
    assert "### Merged body after (`merge-document`)" in section and MERGED in section
    # bodies with ``` inside are fenced with a longer fence, so the report still renders
    assert "````\n" + B in section
    assert "Raw model reply" in section
    kept_section = text.split(f"## #{kept.audit_id} ")[1].split("\n## #")[0]
    assert "Kept separate" in kept_section and "**Note:** different versions" in kept_section
    path = write_markdown(tmp_path / "audit.md", list_entries(store))
    assert path.read_text(encoding="utf-8").startswith("# memgui audit report")


def test_markdown_report_with_histories_and_daemon_events(empty_store):
    store = empty_store
    doc = seed_document(store, "Homelab IP plan", "Static leases.\n\n---\n_[merged 2025-04-27]_\nAlso .31 homeassistant.",
                        anchor="build-server")
    store.writes.upsert_document(replace(doc, update_semantics="append-document"))
    event = {"time": "2026-06-01T12:00:00+00:00", "marker": "curation_merge_guard_passed", "anchor": "a|b",
             "document_id": "doc-1", "fields": {"anchor": "a|b", "targetDoc": "doc-1", "reason": "ok"}}
    text = markdown_report([], histories=appended_histories(store), daemon_events=[event],
                           unrecoverable=[{"document_id": "doc-1", "title": None, "time": "2026-06-01",
                                           "message": "cannot be recovered from the store"}])
    assert "_No writes by memgui are recorded in this store._" in text
    assert "**Appended 2025-04-27**" in text and "Also .31 homeassistant." in text
    assert "| 2026-06-01T12:00:00+00:00 | curation_merge_guard_passed | a\\|b | doc-1 |" in text
    assert "cannot be recovered from the store" in text


def test_fence_grows_past_backtick_runs():
    assert fence("plain") == "```\nplain\n```"
    assert fence("a ```` b").startswith("`````\n")
