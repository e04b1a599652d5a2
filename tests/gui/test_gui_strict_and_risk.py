"""The strict lens beside Netclaw's MergeGuard (headline, listed and highlighted at-risk facts), and an accept
confirmation that fits the risk: it says why, and its default button is Cancel (Return does not merge). The
Review tab's panels on fake services (`ReviewBench`), not the window; A and U are their actions."""
from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import DOCS, add_documents
from memgui.core.store import open_store
from test_gui_evidence import PINS
from waits import LONG_MS, flush


def _open(review_bench, keys=("pg-1", "pg-2"), cosine=0.96):
    w = review_bench()
    w.host.scan_result = SimpleNamespace(threshold=0.8)  # the scan's threshold the confirmation compares with
    w.show(*keys, cosine=cosine)
    return w


def _union(w, qtbot) -> str:
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None and r.passed):
        w.actions["union"].trigger()
    return w.editor.toPlainText()


def _set_body(w, qtbot, body: str) -> None:
    w.editor.setPlainText(body)
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)


def _body_of(path, doc_id) -> str:
    store = open_store(path, read_only=True)
    try:
        return store.document(doc_id).markdown_body
    finally:
        store.close()


def _strict_risk_body(w, qtbot) -> str:
    """Netclaw's MergeGuard passes it (every load-bearing token kept); the fact lens does not: the database is
    now another one ("MySQL 14.2")."""
    body = _union(w, qtbot).replace("Postgres 14.2", "MySQL 14.2")
    _set_body(w, qtbot, body)
    return body


def test_strict_lens_headline_lists_and_highlights_at_risk_facts_beside_netclaws_verdict(review_bench, qtbot):
    """Would fail without the strict lens in the window: the headline only gave Netclaw's verdict (passed)."""
    w = _open(review_bench)
    _union(w, qtbot)
    panel = w.guard_panel
    assert "Netclaw: passed" in panel.verdict.text() and "strict: clean" in panel.verdict.text()
    assert not panel.strict_label.isVisibleTo(w.page)
    _strict_risk_body(w, qtbot)
    assert w.review.cluster.report.passed  # Netclaw's verdict is untouched
    assert "Netclaw: passed" in panel.verdict.text() and "strict: 1 fact at risk" in panel.verdict.text()
    assert panel.strict_label.isVisibleTo(w.page) and "Postgres → MySQL (term)" in panel.strict_label.text()
    for pane in w.sources.panes():
        assert pane.at_risk > 0 and pane.missing_count() == 0  # amber, not MergeGuard's red
        assert "at risk, strict lens" in pane.missing_label.text()
    # Netclaw's append fallback preview stays as it is
    assert DOCS["pg-1"][2] in panel.fallback.toPlainText() and DOCS["pg-2"][2] in panel.fallback.toPlainText()


def test_accept_with_strict_risk_defaults_to_cancel_and_return_does_not_merge(review_bench, review_store, qtbot):
    """Would fail with the old confirmation: its default button was Merge, so Return wrote the risky body."""
    w = _open(review_bench)
    _strict_risk_body(w, qtbot)
    target = w.sources.target_id()
    seen = []

    def press_return(box):
        seen.append({"default": box.defaultButton().text().replace("&", ""), "info": box.informativeText(),
                     "text": box.text()})
        box.show()
        QTest.keyClick(box, Qt.Key.Key_Return)
        return box.clickedButton()

    w.prompter.exec_box = press_return
    w.actions["accept"].trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=LONG_MS)
    flush()  # what Return chose has run: a write would have started
    assert seen[0]["default"] == "Cancel" and seen[0]["text"].startswith("Risky")
    assert "strict lens" in seen[0]["info"] and "Postgres → MySQL (term)" in seen[0]["info"]
    assert not w.runner.busy("write") and _body_of(review_store.path, target) != w.editor.toPlainText()
    # clicking Merge explicitly writes it
    w.prompter.exec_box = w.answerer
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS):
        w.actions["accept"].trigger()
    assert "MySQL 14.2" in _body_of(review_store.path, target)


def test_a_plain_two_document_accept_keeps_merge_as_the_default(review_bench, review_store, qtbot):
    w = _open(review_bench)
    w.sources.set_target(review_store.ids["pg-1"])  # its union draft stays under twice the longest source
    _union(w, qtbot)
    assert w.review.cluster.report.length_ratio <= 2 and w.review.cluster.strict.passed
    w.answerer.answer("Cancel")
    w.actions["accept"].trigger()
    qtbot.waitUntil(lambda: bool(w.answerer.seen), timeout=LONG_MS)
    assert w.answerer.seen[-1]["default"] == "Merge" and "Risky" not in w.answerer.seen[-1]["text"], w.answerer.seen[-1]


def test_three_documents_and_a_low_cosine_make_the_accept_risky(review_bench, qtbot):
    """Three members, two of them below the scan's threshold (0.8) to each other."""
    w = _open(review_bench, ("ed-1", "ed-2", "ed-3"), 0.805)
    _union(w, qtbot)
    w.answerer.answer("Cancel")
    w.actions["accept"].trigger()
    qtbot.waitUntil(lambda: bool(w.answerer.seen), timeout=LONG_MS)
    box = w.answerer.seen[-1]
    assert box["default"] == "Cancel"
    assert "3 documents are written" in box["info"] and "below the scan's threshold 0.800" in box["info"]


def test_a_body_over_twice_the_longest_source_makes_the_accept_risky(review_bench, qtbot):
    w = _open(review_bench)
    body = _union(w, qtbot)
    _set_body(w, qtbot, body + "\n\n" + " ".join(["Extra notes about the weekly maintenance window."] * 8))
    assert w.review.cluster.report.passed and w.review.cluster.report.length_ratio > 2
    w.answerer.answer("Cancel")
    w.actions["accept"].trigger()
    qtbot.waitUntil(lambda: bool(w.answerer.seen), timeout=LONG_MS)
    assert w.answerer.seen[-1]["default"] == "Cancel" and "over 200 %" in w.answerer.seen[-1]["info"]


def test_likely_different_facts_make_the_accept_risky(review_bench, review_store, qtbot):
    add_documents(review_store, PINS)
    w = _open(review_bench, ("pin-a", "pin-b"), 0.93)
    qtbot.waitUntil(lambda: w.review.cluster.mark is not None, timeout=LONG_MS)
    assert len(w.sources.included_ids()) == 1  # two versions: not pre-selected together (issue 24 item 4)
    left_out = next(p.number for p in w.sources.panes() if not p.include_box.isChecked())
    next(p for p in w.sources.panes() if p.number == left_out).include_box.click()  # the reviewer includes it
    _union(w, qtbot)
    w.answerer.answer("Cancel")
    w.actions["accept"].trigger()
    qtbot.waitUntil(lambda: bool(w.answerer.seen), timeout=LONG_MS)
    assert w.answerer.seen[-1]["default"] == "Cancel" and "likely different facts" in w.answerer.seen[-1]["info"]
