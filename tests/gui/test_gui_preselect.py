"""Issue 24 item 4: before any decision the window never pre-selects a whole cluster whose members disagree, nor
a whole cluster above three members, and it warns whenever conflicts exist. The pre-selection and its note are
the panels' (`ReviewBench`, fake services); the actions it enables are the window's (the first test)."""
from __future__ import annotations

from gui_fakes import FakeDecider, FakeScanner, add_documents, services_for
from waits import LONG_MS

PACKAGES = {f"pkg-{n}": (f"{name} pin", "dependency-pins", f"Pin {name} to {version} in svc-{n}.")
            for n, (name, version) in enumerate((("requests", "2.32.3"), ("urllib3", "2.2.2"), ("idna", "3.7"),
                                                 ("certifi", "2024.7.4"), ("jinja2", "3.1.4"), ("zipp", "3.19.1"),
                                                 ("tqdm", "4.66.3")))}
POSTGRES = {
    "pg-3": ("Database", "postgres-3", "The production database is Postgres 14.2 on db-01.internal."),
    "pg-4": ("DB engine", "postgres-4", "Production runs Postgres 14.2, host db-01.internal."),
}


def _open(make_window, review_store, qtbot, clusters):
    decider = FakeDecider()
    w = make_window(services_for(review_store, decider=decider,
                                 scanner=FakeScanner(review_store.ids, clusters=clusters)))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w, decider


def test_seven_different_packages_are_not_pre_selected_whole_and_the_conflicts_are_warned(make_window, review_store,
                                                                                          qtbot):
    """Would fail without it: all seven were checked, an unrelated package the target, and no warning."""
    add_documents(review_store, PACKAGES)
    w, decider = _open(make_window, review_store, qtbot, ((*PACKAGES, 0.93),))
    assert w.review.row.size == 7
    mark = w.decision_panel.mark_label
    # at once: never all seven, even before the evidence is in (three, or one when the evidence came in first)
    assert 1 <= len(w.sources.included_ids()) <= 3
    qtbot.waitUntil(lambda: w.page.evidence_panel.pairs != [], timeout=LONG_MS)
    assert "Pre-selected" in mark.text()
    included = w.sources.included_ids()
    assert len(included) == 1  # every pair names another package at another version
    assert w.sources.target_id() in included
    assert "disagree" in mark.text() and mark.isVisibleTo(w)
    assert not w.actions_by_key["accept"].isEnabled() and not w.actions_by_key["append"].isEnabled()
    assert w.actions_by_key["keep"].isEnabled()  # C keeps the others apart from the one checked
    assert decider.calls == [] and decider.judged == []


def _bench(review_bench, *keys, cosine=0.95):
    w = review_bench(decider=FakeDecider())
    w.show(*keys, cosine=cosine)
    return w


def test_four_members_without_conflicts_are_never_pre_selected_whole(review_bench, review_store, qtbot):
    add_documents(review_store, POSTGRES)
    w = _bench(review_bench, "pg-1", "pg-2", "pg-3", "pg-4", cosine=0.96)
    assert w.review.row.size == 4
    # at once, before the evidence is in (or just after it, when it came in first): never all four
    assert 2 <= len(w.sources.included_ids()) <= 3
    mark = w.decision_panel.mark_label
    qtbot.waitUntil(lambda: w.page.evidence_panel.pairs != [], timeout=LONG_MS)
    assert 2 <= len(w.sources.included_ids()) <= 3
    assert ("Pre-selected" in mark.text() and "of 4" in mark.text()) or "disagree" in mark.text()
    assert mark.isVisibleTo(w.page)
    assert w.sources.target_id() in w.sources.included_ids()


def test_three_members_that_only_word_things_differently_stay_checked_with_a_note(review_bench, qtbot):
    """Conflicts in the Conflicts tab are always said: here only wording (a word, a "never" one note has), so
    the three stay checked and the note is a hint, not a warning."""
    w = _bench(review_bench, "ed-1", "ed-2", "ed-3")
    qtbot.waitUntil(lambda: w.page.evidence_panel.pairs != [], timeout=LONG_MS)
    assert len(w.sources.included_ids()) == 3
    n = w.page.evidence_panel.conflict_count()
    assert n > 0 and f"Note: {n} differences in wording" in w.decision_panel.mark_label.text()
    assert "Pre-selected" not in w.decision_panel.mark_label.text()
