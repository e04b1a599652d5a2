"""A reviewer's day end to end (issue 13, "Done when"): open → decisions ahead fill the next clusters while the
reviewer stays on the first → J/K never cancels them → "Accept all safe" writes only same-fact, strict-clean
clusters (no sibling pair merged, even where the model wrongly said "same") → "Undo this batch" restores every
row. Real store, guard, strict lens, cache, plan and writes; a scripted decider."""
from __future__ import annotations

from itertools import combinations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import FakeScanner, add_documents, services_for
from test_gui_ahead import FOUR, TZ, CountingSelfTest, _decider
from waits import LONG_MS

# A wrong model: it calls the new rent the same fact as the old one. Only the amounts tell them apart.
RENT = {
    "rent-1": ("Rent", "flat", "Rent for the flat is €1,150/month, paid on the 1st to Alberto Pinto."),
    "rent-new": ("New rent from May 2026", "flat", "From 2026-05-01 the rent is €1,173/month, paid to Alberto Pinto."),
}
CLUSTERS = FOUR + (("rent-1", "rent-new", 0.89),)
DUPLICATES = [("pg-1", "pg-2"), ("ed-1", "ed-2"), ("tz-1", "tz-2")]  # what a person would call one fact


def _rows(path) -> list:
    from memgui.core.store import open_store

    with open_store(path, read_only=True) as s:
        return [s.execute(f"SELECT * FROM {t} ORDER BY document_id").fetchall()
                for t in ("memory_documents", "memory_documents_fts")]


def _tombstoned(path, ids) -> set[str]:
    from memgui.core.store import open_store

    with open_store(path, read_only=True) as s:
        return {d.document_id for d in s.documents_by_ids(list(ids.values())) if d.is_tombstoned}


def test_decisions_ahead_then_accept_all_safe_then_undo_the_batch(make_window, qsettings, review_store, qtbot):
    add_documents(review_store, TZ)
    add_documents(review_store, RENT)
    ids = review_store.ids
    decider = _decider()  # same for rent-1/rent-new too (its default answer)
    services = services_for(review_store, decider=decider, scanner=FakeScanner(ids, clusters=CLUSTERS))
    services.selftest = CountingSelfTest()
    services.bulk.cache_for = lambda store_path, model_path: services.ahead.cache(
        store_path, services.ahead.model_key(decider))  # the cache the queue fills
    qsettings.setValue("decider/ahead", "true")
    w = make_window(services)
    before = _rows(review_store.path)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    first = w.review.row

    for key in (Qt.Key.Key_J, Qt.Key.Key_K, Qt.Key.Key_J, Qt.Key.Key_K):  # the reviewer looks around meanwhile
        with qtbot.waitSignal(w.review.clusterLoaded, timeout=20000):
            QTest.keyClick(w.queue, key)
    qtbot.waitUntil(lambda: w.review.row is first, timeout=LONG_MS)
    everything = [frozenset(r.member_ids) for r in w.cluster_model.rows()]
    qtbot.waitUntil(lambda: sum(k in w.ahead.reviews for k in everything) >= len(everything) - 1, timeout=20000)
    assert decider.cancellations == 0

    seen = {}

    def answer(dialog):
        seen["default_is_cancel"] = dialog.cancel_button.isDefault()
        return True

    w.bulk.exec_preview = answer
    with qtbot.waitSignal(w.bulk.applied, timeout=20000) as applied:
        w.bulk.actions["accept_safe"].trigger()
    result = applied.args[0]
    assert seen["default_is_cancel"] and result.refused == []
    dead = _tombstoned(review_store.path, ids)
    assert result.written, "nothing was accepted"
    truth = {frozenset((ids[a], ids[b])) for a, b in DUPLICATES}
    for write in result.written:
        row = w.cluster_model.row_at(w.cluster_model.row_of(write.cluster_id))
        merged = {write.target_id} | (set(row.member_ids) & dead)
        assert len(merged) >= 2 and all(frozenset(p) in truth for p in combinations(merged, 2)), merged
    assert {ids["rent-1"], ids["rent-new"], ids["tz-3"], ids["fl-1"], ids["fl-2"]}.isdisjoint(dead)
    assert len(dead) == len(result.written)  # pairs: one tombstone per write

    qtbot.waitUntil(lambda: w.bulk.actions["undo_batch"].isEnabled(), timeout=LONG_MS)
    w.answerer.answer("Undo batch")
    with qtbot.waitSignal(w.bulk.undone, timeout=LONG_MS) as undone:
        w.bulk.actions["undo_batch"].trigger()
    assert len(undone.args[0].undone) == len(result.written) and undone.args[0].refused == []
    assert _rows(review_store.path) == before
