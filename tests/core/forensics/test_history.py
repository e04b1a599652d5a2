"""core/forensics/history.py: append histories split into dated segments exactly as Netclaw writes them (netclaw-compat §9, §15)."""
from __future__ import annotations

from datetime import date

import pytest

from factories import document
from memgui.core.forensics.history import (
    UNRECOVERABLE_MESSAGE,
    appended_histories,
    has_separators,
    history_of,
    join_segments,
    split_segments,
)
from memgui.core.netfx import build_appended_body
from memgui.core.store import Document

ORIGINAL = "Static leases on 192.168.50.0/24:\n- .1 gateway\n- .2 pip (Pi-hole)"
ADD1 = "Also reserved: .31 homeassistant VM."
ADD2 = "New: .40 the office printer (Brother HL-L2350DW)."


def doc(body: str, semantics: str = "append-document", **fields) -> Document:
    """A Homelab IP plan document value (not stored) with the given update semantics."""
    return document(body, **{"title": "Homelab IP plan", "anchor": "home-network", "update_semantics": semantics,
                             "created_at": 1, "updated_at": 2, **fields})


def test_netclaw_stacked_appends_split_into_original_and_dated_additions():
    body = build_appended_body(build_appended_body(ORIGINAL, ADD1, date(2025, 4, 27)), ADD2, date(2025, 10, 4))
    segs = split_segments(body)
    assert [(s.date, s.text) for s in segs] == [(None, ORIGINAL), ("2025-04-27", ADD1), ("2025-10-04", ADD2)]
    assert join_segments(segs) == body  # nothing lost, nothing invented
    for s in segs:
        assert body[s.start:s.end] == s.text


def test_crlf_separators_and_trailing_blanks_are_recognised():
    body = f"{ORIGINAL}\r\n\r\n---\r\n_[merged 2025-04-27]_\r\n{ADD1}\r\n\r\n--- \r\n_[merged 2025-10-04]_ \r\n{ADD2}"
    segs = split_segments(body)
    assert [s.date for s in segs] == [None, "2025-04-27", "2025-10-04"]
    assert segs[1].text == f"{ADD1}"
    assert segs[2].text == ADD2


def test_separators_stacked_back_to_back_keep_every_date_with_an_empty_addition():
    # an append of empty text followed by another append: two separators with nothing between them
    body = build_appended_body(build_appended_body(ORIGINAL, "", date(2026, 1, 1)), ADD1, date(2026, 1, 2))
    assert "_\n\n\n---\n_[merged 2026-01-02]" in body
    segs = split_segments(body)
    assert [(s.date, s.text) for s in segs] == [(None, ORIGINAL), ("2026-01-01", ""), ("2026-01-02", ADD1)]


def test_separator_at_the_very_start_and_at_the_very_end():
    body = build_appended_body("", ADD1, date(2026, 2, 3))  # original body was empty
    assert [(s.date, s.text) for s in split_segments(body)] == [(None, ""), ("2026-02-03", ADD1)]
    cut = ORIGINAL + "\n\n---\n_[merged 2026-02-03]_"  # a trailing separator without its newline
    assert [(s.date, s.text) for s in split_segments(cut)] == [(None, ORIGINAL), ("2026-02-03", "")]


def test_text_that_only_mentions_merged_is_not_split():
    body = "We discussed `_[merged 2025-01-01]_` markers inline and a --- rule.\n---\nnot a separator"
    assert not has_separators(body)
    assert [s.text for s in split_segments(body)] == [body]
    assert split_segments(None)[0].text == ""


def test_history_of_append_document_names_its_dates():
    h = history_of(doc(build_appended_body(ORIGINAL, ADD1, date(2025, 4, 27))))
    assert h.recoverable and len(h.additions) == 1 and h.original.text == ORIGINAL
    assert "2025-04-27" in h.message
    assert h.as_dict()["segments"] == [{"date": None, "text": ORIGINAL}, {"date": "2025-04-27", "text": ADD1}]


def test_merge_document_without_history_says_plainly_the_earlier_body_is_gone():
    h = history_of(doc("A body that was merged in place.", semantics="merge-document"))
    assert not h.recoverable
    assert "cannot be recovered from the store" in h.message
    assert UNRECOVERABLE_MESSAGE in h.message


def test_append_document_without_separator_is_flagged():
    h = history_of(doc("no separators here"))
    assert not h.recoverable and "no `_[merged YYYY-MM-DD]_` separator" in h.message


@pytest.fixture
def store_with_histories(empty_store):
    store = empty_store
    store.writes.ensure_anchor("home-network")
    appended = store.writes.upsert_document(doc(build_appended_body(ORIGINAL, ADD1, date(2025, 4, 27))))
    merged = store.writes.upsert_document(doc("merged in place", semantics="merge-document"))
    dead = store.writes.upsert_document(doc(build_appended_body("old", "older", date(2024, 1, 1)), semantics="merge-document"))
    store.writes.tombstone_document(dead.document_id)
    return store, appended, merged, dead


def test_appended_histories_from_a_real_store(store_with_histories):
    store, appended, _merged, dead = store_with_histories
    found = {h.document_id: h for h in appended_histories(store)}
    assert set(found) == {appended.document_id, dead.document_id}  # the plain merge-document doc has no history
    assert found[dead.document_id].tombstoned and found[dead.document_id].additions[0].date == "2024-01-01"
    assert [h.document_id for h in appended_histories(store, document_ids=[appended.document_id])] == [appended.document_id]
    assert [h.document_id for h in appended_histories(store, include_tombstoned=False)] == [appended.document_id]


def test_demo_store_histories_match_the_corpus(tmp_path):
    from memgui.core.store import open_store
    from memgui.core.store.demo import build_demo_store, demo_labels

    with open_store(build_demo_store(tmp_path / "netclaw.db"), read_only=True) as store:
        histories = appended_histories(store)
    assert {h.document_id for h in histories} == set(demo_labels()["append_documents"])
    ip_plan = next(h for h in histories if h.title == "Homelab IP plan")
    assert [s.date for s in ip_plan.segments] == [None, "2025-04-27", "2025-10-04", "2026-01-12"]
    assert ip_plan.segments[-1].text == "Added .3 fallback Pi-hole on hearth."
