"""`memgui supersede` end to end on a real store file (issue 38): the reading, the draft in Netclaw's
"previously … as of" form, the write into the newest note, its audit record, and undo byte for byte."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from factories import seed_document
from memgui.__main__ import main
from memgui.core.decide import model_files
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import list_entries


def ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso + "+00:00").timestamp() * 1000)


ORDERED = "Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 weeks."
ARRIVED = "The KIVIK sofa arrived on 18 March 2025 and is in the living room."
SHOT_2024 = "Flu shot on 2024-10-03 at the Croix-Rousse pharmacy, left arm."
SHOT_2025 = "Flu shot on 2025-10-10 at the Croix-Rousse pharmacy, left arm."


@pytest.fixture
def db(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        ids = {
            "ordered": seed_document(store, "Sofa order", ORDERED, anchor="sofa",
                                     freshness_at=ms("2025-03-04T09:00:00")).document_id,
            "arrived": seed_document(store, "Sofa", ARRIVED, anchor="sofa-delivery",
                                     freshness_at=ms("2025-03-18T17:00:00")).document_id,
            "shot24": seed_document(store, "Flu shot", SHOT_2024, anchor="flu-2024",
                                    freshness_at=ms("2024-10-03T18:00:00")).document_id,
            "shot25": seed_document(store, "Flu shot", SHOT_2025, anchor="flu-2025",
                                    freshness_at=ms("2025-10-10T18:00:00")).document_id,
            "undated_a": seed_document(store, "Gate", "The gate code is 4411.", anchor="gate-a").document_id,
            "undated_b": seed_document(store, "Gate", "The gate code is 7720.", anchor="gate-b").document_id,
        }
    return path, ids


def _rows(path):
    with open_store(path, read_only=True) as store:
        return {d.document_id: d for d in store.documents(include_tombstoned=True)}


def _json(capsys):
    return json.loads(capsys.readouterr().out)


def test_a_person_reads_it_as_supersedes_the_newest_note_gets_the_draft_and_undo_restores_every_byte(db, capsys):
    path, ids = db
    before = _rows(path)
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['arrived']},{ids['ordered']}",
               "--reviewer-reads-supersedes", "--json"])
    out = _json(capsys)
    assert rc == 0 and out["reading"] == "supersedes" and out["written"] is True
    assert out["order"] == [ids["ordered"], ids["arrived"]] and out["newest"] == ids["arrived"]
    body = out["merged_body"]
    assert body.startswith(ARRIVED) and "(previously: Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery " \
                                         "expected in 2–3 weeks, as of 2025-03-04)" in body
    after = _rows(path)
    assert after[ids["arrived"]].markdown_body == body
    assert after[ids["ordered"]].is_tombstoned
    assert set(out["changes"]["documents_written"]) >= {ids["arrived"]}
    with open_store(path, read_only=True) as store:
        entry = list_entries(store)[0]
    assert entry.details["supersede"]["order"] == [ids["ordered"], ids["arrived"]]
    assert entry.details["supersede"]["history"][0]["document_id"] == ids["ordered"]
    assert main(["undo", "--store", str(path), str(entry.audit_id)]) == 0
    capsys.readouterr()
    restored = _rows(path)
    for doc_id in (ids["arrived"], ids["ordered"]):
        assert restored[doc_id] == before[doc_id]


def test_a_dry_run_prints_the_draft_and_writes_nothing(db, capsys):
    path, ids = db
    before = _rows(path)
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['ordered']},{ids['arrived']}",
               "--reviewer-reads-supersedes", "--dry-run", "--json"])
    out = _json(capsys)
    assert rc == 0 and out["dry_run"] is True and out["written"] is False and out["merged_body"].startswith(ARRIVED)
    assert _rows(path) == before


def test_a_dated_series_is_never_superseded_even_when_a_person_says_so(db, capsys):
    path, ids = db
    before = _rows(path)
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['shot24']},{ids['shot25']}",
               "--reviewer-reads-supersedes", "--json"])
    out = _json(capsys)
    assert rc == 1 and out["reading"] == "dated-series" and out["merged_body"] is None and out["written"] is False
    assert _rows(path) == before


def test_notes_without_any_time_are_left_to_a_person(db, capsys):
    path, ids = db
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['undated_a']},{ids['undated_b']}",
               "--reviewer-reads-supersedes", "--json"])
    out = _json(capsys)
    assert rc == 1 and out["reading"] == "undecided" and "no time stamp" in out["reason"]


def test_without_a_model_nothing_is_read_as_supersedes(db, capsys):
    path, ids = db
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['ordered']},{ids['arrived']}", "--no-model",
               "--json"])
    out = _json(capsys)
    assert rc == 1 and out["reading"] == "undecided" and "no model" in out["reason"]


@pytest.mark.parametrize(("docs", "message"), [("doc-nope,doc-nada", "no such document"), ("ONE", "two or more")])
def test_bad_input_is_one_line_and_exit_2(db, capsys, docs, message):
    path, ids = db
    docs = docs.replace("ONE", ids["ordered"])
    before = _rows(path)
    assert main(["supersede", "--store", str(path), "--docs", docs, "--no-model"]) == 2
    err = capsys.readouterr().err
    assert message in err and "nothing was written" in err and len(err.strip().splitlines()) == 1
    assert _rows(path) == before


@pytest.mark.skipif(model_files.default_model_path() is None, reason="the default decider model is not installed")
def test_the_real_model_reads_a_status_that_moved_on_and_it_is_written(db, capsys):
    path, ids = db
    rc = main(["supersede", "--store", str(path), "--docs", f"{ids['ordered']},{ids['arrived']}", "--json"])
    out = _json(capsys)
    assert out["pairs"][0]["answer"] == "UPDATE"
    assert rc == 0 and out["reading"] == "supersedes" and out["written"] is True
