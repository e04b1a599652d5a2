"""The alignment view and memgui's verdict beside Netclaw's (issue 36, item 9): the model passes qtmodeltester, read
rows come first with their differing words marked, R confirms a read pair (the union draft drops that sentence and
the merge's audit row records it), and the verdict line says proved / read / loss for real texts."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui_fakes import FakeScanner, add_documents, services_for
from memgui.core.merge.align import Fate, judge
from memgui.core.merge.keep_draft import prove_or_keep
from memgui.core.merge.read_pairs import kept_back_alignment, pair_rows
from memgui.gui.review.alignment_view import MARKED_ROLE, ROW_ROLE, AlignmentView
from waits import LONG_MS

CARS = {"car-1": ("Ana's car", "ana-car", "Ana bought a car. She lives in Porto."),
        "car-2": ("Ana's new car", "ana-new-car", "Ana purchased a new car. Her flat is in Porto.")}


def _rows(sources, body):
    _, alignment = judge(sources, body)
    return pair_rows(alignment)


@pytest.fixture
def view(qtbot):
    v = AlignmentView()
    qtbot.addWidget(v)
    return v


def test_alignment_model_passes_modeltester(view, qtmodeltester):
    qtmodeltester.check(view.model)
    view.set_rows(_rows(["Ana bought a car.", "The office opens at 9."], "The office opens at 9. Ana purchased a bike."),
                  ["#1", "#2"])
    qtmodeltester.check(view.model)
    view.show_message("No merged body yet.")
    qtmodeltester.check(view.model)


def test_read_rows_come_first_with_the_differing_words_marked(view):
    view.set_rows(_rows(["The office opens at 9.", "Ana bought a car."], "The office opens at 9. Ana purchased a bike."),
                  ["#1", "#2"])
    model = view.model
    fates = [model.index(r, 1).data() for r in range(model.rowCount())]
    assert fates == ["read", "kept"]
    assert model.index(0, 0).data() == "#2·1"
    marked = model.index(0, 2).data(MARKED_ROLE)
    assert "<span" in marked and ">car</span>" in marked and ">Ana</span>" not in marked
    assert ">bike</span>" in model.index(0, 3).data(MARKED_ROLE)
    assert model.index(1, 2).data(MARKED_ROLE).count("<span") == 0  # a kept sentence: nothing marked
    assert view.current_row() is model.index(0, 0).data(ROW_ROLE) and view.to_read() == 1
    assert "bike" in view.detail.toPlainText() and "R confirms" in view.detail.toPlainText()


def test_kept_back_sentences_say_so_and_why(view):
    sources = [CARS["car-2"][2], CARS["car-1"][2]]
    draft = prove_or_keep(sources, primary=0)
    _, alignment = judge(sources, draft.body)
    view.set_rows(pair_rows(alignment, draft.kept_back, before_kept_back=kept_back_alignment(sources, 0)),
                  ["#2", "#1"])
    first = view.model.index(0, 1)
    assert first.data() == "kept back" and "read · kept back" in view.detail.toPlainText()
    assert "kept it back word for word" in first.data(Qt.ItemDataRole.ToolTipRole)
    assert view.confirmable_row() is not None and view.confirmable_row().fate is Fate.READ


# ---- on the Review tab's panels (ReviewBench: fake services, no window) -----------------------------------------

@pytest.fixture
def cars(review_bench, review_store, qtbot):
    add_documents(review_store, CARS)
    bench = review_bench()
    bench.show("car-1", "car-2")
    qtbot.waitUntil(bench.evidence_done, timeout=LONG_MS)
    bench.page.sources.set_included([review_store.ids["car-1"], review_store.ids["car-2"]])  # both, whatever the evidence
    return bench


# ---- in the window -----------------------------------------------------------------------------------------------

@pytest.fixture
def cars_window(make_window, review_store, qtbot):
    add_documents(review_store, CARS)
    scanner = FakeScanner(review_store.ids, clusters=(("car-1", "car-2", 0.95),))
    w = make_window(services_for(review_store, scanner=scanner))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    qtbot.waitUntil(lambda: w.review.row is not None and not w.runner.busy("evidence"), timeout=LONG_MS)
    w.sources.set_included([review_store.ids["car-1"], review_store.ids["car-2"]])  # both, whatever the evidence
    return w


def _proof(w) -> str:
    label = w.page.guard_panel.proof
    return label.text() if label.isVisible() else ""


def test_memguis_verdict_sits_beside_netclaws_and_goes_with_the_body(cars, qtbot):
    w = cars
    w.review.set_body("Ana purchased a new car. She lives in Porto.", "typed")
    qtbot.waitUntil(lambda: "memgui:" in _proof(w), timeout=LONG_MS)
    assert "Netclaw" in w.page.guard_panel.verdict.text()  # Netclaw's verdict stays, memgui's is beside it
    w.review.set_body("", "")
    qtbot.waitUntil(lambda: _proof(w) == "" and w.page.alignment_view.rows() == [], timeout=LONG_MS)


@pytest.mark.parametrize(("sources", "body", "verdict"), [
    (("Ana bought a car.", "Ana purchased an automobile."), "Ana purchased an automobile.", "proved"),
    (("Ana bought a car.", "Ana purchased an automobile."), "Ana purchased a bike.", "read"),
    (("The meeting is on 2025-06-14 in Lisbon.", "Meeting in Lisbon on 2025-06-14."), "The meeting is in Lisbon.",
     "loss"),
])
def test_memguis_verdict_for_real_texts(review_bench, review_store, qtbot, sources, body, verdict):
    add_documents(review_store, {"a": ("One", "one", sources[0]), "b": ("Two", "two", sources[1])})
    w = review_bench()
    w.show("a", "b")
    qtbot.waitUntil(w.evidence_done, timeout=LONG_MS)
    w.page.sources.set_included([review_store.ids["a"], review_store.ids["b"]])
    w.review.set_body(body, "typed")
    qtbot.waitUntil(lambda: f"memgui: {verdict}" in _proof(w), timeout=LONG_MS)
    assert w.page.guard_panel.verdict.text().startswith(("✔ Netclaw", "✘ Netclaw"))
    counted = _proof(w).split("—", 1)[1]
    assert any(f" {fate}" in counted for fate in ("kept", "restated", "read", "lost"))


def test_r_confirms_a_read_pair_and_the_union_draft_drops_it_and_the_audit_records_it(cars_window, qtbot):
    w = cars_window
    view = w.page.alignment_view
    QTest.keyClick(w.queue, Qt.Key.Key_U)
    qtbot.waitUntil(lambda: view.to_read() > 0, timeout=LONG_MS)
    assert "kept back" in _proof(w) and "memgui: proved" in _proof(w)
    assert w.page.compare_tabs.tabText(2).startswith("Alignment (")
    assert w.actions_by_key["confirm"].isEnabled()
    to_read = view.to_read()
    row = view.confirmable_row()
    sentence = row.source_text.text
    assert sentence in w.editor.toPlainText()

    QTest.keyClick(w.queue, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: sentence not in w.editor.toPlainText() and view.to_read() == to_read - 1, timeout=LONG_MS)
    assert str(w.review.origin) == "union"
    confirmed = next(r for r in view.rows() if r.confirmed)
    assert confirmed.source_text.text == sentence and view.model.index(
        view.rows().index(confirmed), 1).data() == "confirmed"
    qtbot.waitUntil(lambda: "1 confirmed by you" in _proof(w), timeout=LONG_MS)

    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    assert "1 restatement(s) you confirmed" in w.answerer.seen[-1]["info"]
    entry = written.args[0]
    recorded = entry.details["confirmed_restatements"]
    assert [c["text"] for c in recorded] == [sentence]
    assert recorded[0]["document_id"] in entry.source_ids and recorded[0]["body"]


def test_r_on_a_confirmed_pair_withdraws_it(cars, qtbot):
    """R's action on the panels (the key itself is the window's: test_r_confirms_… and the F1 list below)."""
    w = cars
    view, editor, confirm = w.page.alignment_view, w.page.editor, w.actions["confirm"]
    w.actions["union"].trigger()
    qtbot.waitUntil(lambda: view.to_read() > 0, timeout=LONG_MS)
    sentence = view.confirmable_row().source_text.text
    confirm.trigger()
    qtbot.waitUntil(lambda: sentence not in editor.toPlainText() and any(r.confirmed for r in view.rows()),
                    timeout=LONG_MS)
    view.select(next(r for r in view.rows() if r.confirmed).key)
    confirm.trigger()
    qtbot.waitUntil(lambda: sentence in editor.toPlainText() and not any(r.confirmed for r in view.rows()),
                    timeout=LONG_MS)


def test_the_key_is_in_the_f1_list(make_window):
    from memgui.gui.actions import keys_help

    assert ("R", "Confirm restatement") in keys_help(make_window().actions_by_key)
