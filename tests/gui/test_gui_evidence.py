"""What the sources say against each other, shown before any model call: the "likely different facts" mark,
the conflicts and what only one source states (Conflicts tab), and a word diff of one source against another.
Each test builds the Review tab's panels on fake services (`ReviewBench`), not the window."""
from __future__ import annotations

from gui_fakes import DOCS, FakeDecider, add_documents
from waits import LONG_MS

# Two pins of two different packages in two services: wording alike, every identifier their own.
PINS = {
    "pin-a": ("requests pin", "dependency-pins", "Pin requests to 2.32.3 in svc-a (CVE-2024-35195)."),
    "pin-b": ("urllib3 pin", "dependency-pins", "Pin urllib3 to 2.2.2 in svc-b (CVE-2024-37891)."),
}


def _open(review_bench, *keys, decider=None):
    bench = review_bench(decider=decider)
    bench.show(*keys)
    return bench


def test_likely_different_mark_shows_on_load_before_any_model_call(review_bench, review_store, qtbot):
    """Would fail without the mark in the window: nothing said the two pins are about different packages."""
    add_documents(review_store, PINS)
    decider = FakeDecider()
    w = _open(review_bench, "pin-a", "pin-b", decider=decider)
    assert set(w.review.row.member_ids) == {review_store.ids["pin-a"], review_store.ids["pin-b"]}
    mark = w.page.decision_panel.mark_label
    qtbot.waitUntil(lambda: mark.isVisibleTo(w.page), timeout=LONG_MS)
    assert "Likely different facts" in mark.text() and "identifiers" in mark.text()
    assert decider.calls == [] and decider.judged == []  # before any model call
    assert w.review.cluster.mark.likely_different
    # the next cluster (one fact) is not marked (a line may still point at its wording differences)
    w.show("pg-1", "pg-2")
    qtbot.waitUntil(lambda: w.review.row.cluster_id == "c-pg-1-pg-2" and w.review.cluster.mark is not None, timeout=LONG_MS)
    assert not w.review.cluster.mark.likely_different and "Likely different" not in mark.text()


def test_conflicts_tab_lists_values_that_differ_and_what_only_one_states(review_bench, qtbot):
    """Would fail without the evidence panel: the dates, flight numbers and times that tell the two flights
    apart were only visible by reading both panes."""
    w = _open(review_bench, "fl-1", "fl-2")
    panel = w.page.evidence_panel
    qtbot.waitUntil(lambda: bool(panel.pairs), timeout=LONG_MS)
    text = panel.plain_text()
    assert "#1 vs #2" in text
    assert "≠ date: 2025-06-14 in #1 vs 2025-06-21 in #2" in text or "≠ date: 2025-06-21 in #1 vs 2025-06-14 in #2" in text
    assert "≠ time" in text and "only in #1" in text
    assert panel.conflict_count() == 3
    assert w.page.compare_tabs.tabText(1) == "Conflicts (3)"


def test_word_diff_of_one_source_against_another_runs_without_a_merged_body(review_bench, review_store, qtbot):
    """Would fail without the source-vs-source choice: the combo only offered the merged body against a source,
    and with no merged body there was no diff at all."""
    w = _open(review_bench, "pg-1", "pg-2")
    pg1, pg2 = review_store.ids["pg-1"], review_store.ids["pg-2"]
    assert w.page.editor.toPlainText() == ""
    diff_view = w.page.diff_view
    labels = [diff_view.combo.itemText(i) for i in range(diff_view.combo.count())]
    assert any(t.startswith("merged vs #1") for t in labels) and "source #1 vs source #2" in labels
    with qtbot.waitSignal(w.review.diffUpdated, timeout=LONG_MS) as updated:
        diff_view.choose_pair(pg1, pg2)
    diff = updated.args[0]
    assert diff.deleted_words > 0 and diff.inserted_words > 0
    assert diff_view.current_pair() is not None and diff_view.current_source() is None
    assert "only in source #1" in diff_view.legend.text() and "only in source #2" in diff_view.legend.text()
    first = next(d for d in w.review.cluster.docs if w.page.sources.number_of(d.document_id) == 1)
    assert first.markdown_body.split()[0] in diff_view.text.toPlainText()
    assert DOCS["pg-2"][2].split()[-1] in diff_view.text.toPlainText() or DOCS["pg-1"][2].split()[-1] in \
        diff_view.text.toPlainText()
    # back to the merged body vs a source: the old message again (no merged body yet)
    diff_view.choose(pg1)
    qtbot.waitUntil(lambda: "No merged body yet" in diff_view.text.toPlainText(), timeout=LONG_MS)


RENT = {
    "rent-1": ("Rent", "flat", "Rent for the flat is €1,150/month, paid on the 1st to Alberto Pinto."),
    "rent-2": ("Flat: rent details", "flat", "Flat rent: €1,150/month (landlord Alberto Pinto, paid on the 1st)."),
    "rent-new": ("New rent from May 2026", "flat", "From 2026-05-01 the rent is €1,173/month, paid to Alberto Pinto."),
}


def test_a_member_that_disagrees_on_a_value_is_not_pre_selected_before_any_model_call(review_bench, review_store,
                                                                                      qtbot):
    """Would fail without value conflicts: the new rent was pre-selected with the two notes of the old rent,
    and one Return merged a superseded amount into the current one."""
    add_documents(review_store, RENT)
    decider = FakeDecider()
    ids = review_store.ids
    w = _open(review_bench, "rent-1", "rent-2", "rent-new", decider=decider)
    assert set(w.review.row.member_ids) == {ids["rent-1"], ids["rent-2"], ids["rent-new"]}
    mark = w.page.decision_panel.mark_label
    qtbot.waitUntil(lambda: mark.isVisibleTo(w.page), timeout=LONG_MS)
    assert "disagree on €1,150/month vs €1,173/month" in mark.text()
    assert set(w.page.sources.included_ids()) == {ids["rent-1"], ids["rent-2"]}
    assert decider.calls == [] and decider.judged == []


def test_the_conflicts_pre_selection_line_goes_once_the_model_judged(review_bench, review_store, qtbot):
    add_documents(review_store, RENT)
    ids = review_store.ids
    decider = FakeDecider(verdicts={frozenset((RENT["rent-1"][2], RENT["rent-new"][2])): "DIFFERENT",
                                    frozenset((RENT["rent-2"][2], RENT["rent-new"][2])): "DIFFERENT"})
    w = _open(review_bench, "rent-1", "rent-2", "rent-new", decider=decider)
    mark = w.page.decision_panel.mark_label
    qtbot.waitUntil(lambda: "Pre-selected" in mark.text(), timeout=LONG_MS)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions["ask"].trigger()
    assert "Pre-selected" not in mark.text() and "disagree on €1,150/month" in mark.text()
    assert set(w.page.sources.included_ids()) == {ids["rent-1"], ids["rent-2"]}
