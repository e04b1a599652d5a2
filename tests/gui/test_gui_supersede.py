"""The supersession in the window (issue 38, item 4): N reads the cluster under review as a supersession on the
worker (the loaded model's reading, else the reviewer's), the panel shows the reading and the notes on a timeline
(older → newer, each with its date, title and first words), the draft goes in the editor, the diff marks the
statements kept as dated history, A writes it through `write_supersession` (audited), Ctrl+Z undoes it byte for
byte; U then A is a plain merge instead."""
from __future__ import annotations

import datetime as dt
import sqlite3
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from factories import seed_document
from gui_fakes import CLUSTERS, FakeScanner, FakeSupersedeEngine, LoadedDecider, build_review_store, services_for
from memgui.core.store import open_store
from memgui.core.store.audit_log import list_entries
from waits import LONG_MS

ORDERED = "Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 weeks."
ARRIVED = "The KIVIK sofa arrived on 18 March 2025 and is in the living room."
SHOT_2024 = "Flu shot on 2024-10-03 at the Croix-Rousse pharmacy, left arm."
SHOT_2025 = "Flu shot on 2025-10-10 at the Croix-Rousse pharmacy, left arm."
HISTORY = "(previously: Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 weeks, as of 2025-03-04)"


def ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso + "+00:00").timestamp() * 1000)


@pytest.fixture
def review_store(tmp_path):
    review = build_review_store(tmp_path / "store" / "netclaw.db")
    with open_store(review.path) as store:
        for key, title, body, anchor, when in (
                ("ordered", "Sofa order", ORDERED, "sofa", "2025-03-04T09:00:00"),
                ("arrived", "Sofa", ARRIVED, "sofa-delivery", "2025-03-18T17:00:00"),
                ("shot24", "Flu shot", SHOT_2024, "flu-2024", "2024-10-03T18:00:00"),
                ("shot25", "Flu shot", SHOT_2025, "flu-2025", "2025-10-10T18:00:00")):
            review.ids[key] = seed_document(store, title, body, anchor=anchor, freshness_at=ms(when)).document_id
    return review


def _services(review, decider=None):
    clusters = (("arrived", "ordered", 0.97), ("shot24", "shot25", 0.965), *CLUSTERS)
    return services_for(review, decider=decider, scanner=FakeScanner(review.ids, clusters=clusters))


@pytest.fixture
def window(make_window, review_store, qtbot):
    w = make_window(_services(review_store))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def _rows(path) -> list[tuple]:
    """Every stored byte of the documents (all columns, tombstoned ones too)."""
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT * FROM memory_documents ORDER BY document_id").fetchall()
    finally:
        con.close()


def _key(w, key, modifier=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(w.queue, key, modifier)


def _read(w, qtbot):
    with qtbot.waitSignal(w.review.supersessionRead, timeout=LONG_MS) as read:
        _key(w, Qt.Key.Key_N)
    return read.args[0]


def _history_marked(w) -> list[tuple[str, str]]:
    return _history_marked_in(w.page.diff_view)


def test_n_reads_the_cluster_as_a_supersession_with_its_timeline_and_the_diff_marks_the_history(window, review_store,
                                                                                               qtbot):
    w, ids = window, review_store.ids
    assert set(w.review.row.member_ids) == {ids["ordered"], ids["arrived"]}
    panel = w.page.supersede_panel
    assert not panel.isVisible()
    assert w.actions_by_key["supersede"].isEnabled()
    assert w.actions_by_key["supersede"].shortcut().toString() == "N"

    plan = _read(w, qtbot)
    assert plan is not None and plan.reading.reading.value == "supersedes"
    assert panel.isVisible() and panel.badge.text() == "Supersedes"
    assert "reviewer" in panel.reason.text()  # no model loaded: the person pressing N read it
    states = panel.states()
    assert [s.day for s in states] == ["2025-03-04", "2025-03-18"]  # older → newer
    assert [s.title for s in states] == ["Sofa order", "Sofa"]
    cards = [c.text() for c in panel.cards()]
    assert "2025-03-04" in cards[0] and "Ordered the KIVIK sofa" in cards[0] and "history" in cards[0]
    assert "2025-03-18" in cards[1] and "The KIVIK sofa arrived" in cards[1] and "current" in cards[1]
    first, second = panel.cards()
    qtbot.waitUntil(lambda: first.isVisible() and second.geometry().x() > first.geometry().right(), timeout=LONG_MS)

    body = w.editor.toPlainText()
    assert body.startswith(ARRIVED) and HISTORY in body
    assert w.sources.target_id() == ids["arrived"]  # the newest note gets the body
    # whatever the conflicts' pre-selection unchecked (the two disagree on a date), N read and includes both
    assert set(w.sources.included_ids()) == {ids["ordered"], ids["arrived"]}
    assert "Pre-selected" not in w.page.decision_panel.mark_label.text()
    # memgui's line beside Netclaw's is the supersession's own check, not the alignment's "read" of its phrases
    proof = w.page.guard_panel.proof
    qtbot.waitUntil(lambda: "supersession checked" in proof.text(), timeout=LONG_MS)
    assert "1 older statement(s) kept as dated history" in proof.text()
    # the fact lens reads each history phrase as the statement it keeps: its day and "previously" are no new facts
    strict = w.review.cluster.strict
    assert strict is not None and not {a.token for a in strict.at_risk} & {"2025-03-04", "previously"}
    assert w.actions_by_key["accept"].text() == "Accept supersession (A)"

    # the diff against the older note: its statement is now history, marked with the note and its day
    w.page.diff_view.choose(ids["ordered"])
    qtbot.waitUntil(lambda: bool(_history_marked(w)), timeout=LONG_MS)
    marked = _history_marked(w)
    text = "".join(t for t, _ in marked)
    assert "previously" in text and "2025-03-04" in text
    assert "ARRIVED" not in text and "living room" not in text  # the present state is not marked
    tooltips = {tip for _, tip in marked}
    assert tooltips == {f"kept as dated history from {w.review.cluster.label(ids['ordered'])} of 2025-03-04"}
    assert "dated history" in w.page.diff_view.legend.text()


def test_a_accepts_the_supersession_audited_and_ctrl_z_restores_every_byte(window, review_store, qtbot):
    w, ids = window, review_store.ids
    before = _rows(review_store.path)
    plan = _read(w, qtbot)
    draft = plan.draft.body

    w.answerer.answer("Supersede")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        _key(w, Qt.Key.Key_A)
    confirm = w.answerer.seen[-1]
    assert confirm["title"] == "Accept supersession"
    assert "Tombstoned" in confirm["info"] and ids["ordered"] in confirm["info"]
    assert "Kept as dated history: 1 statement(s)" in confirm["info"] and "as of 2025-03-04" in confirm["info"]
    entry = written.args[0]
    with open_store(review_store.path, read_only=True) as store:
        arrived, ordered = store.document(ids["arrived"]), store.document(ids["ordered"])
        audit = list_entries(store)[0]
    assert arrived.markdown_body == draft and ordered.is_tombstoned
    assert audit.audit_id == entry.audit_id and audit.operation == "merge"
    record = audit.details["supersede"]
    assert record["reading"] == "supersedes" and record["order"] == [ids["ordered"], ids["arrived"]]
    assert [h["document_id"] for h in record["history"]] == [ids["ordered"]]
    assert ids["arrived"] in entry.changes.documents_written

    qtbot.waitUntil(lambda: w.review.row is not None and ids["arrived"] not in w.review.row.member_ids,
                    timeout=LONG_MS)  # on to the next cluster (its load runs in the next event-loop turn)
    w.answerer.answer("Undo")
    _key(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _rows(review_store.path) == before, timeout=LONG_MS)
    qtbot.waitUntil(lambda: w.review.row is not None and ids["arrived"] in w.review.row.member_ids,
                    timeout=LONG_MS)  # the undone cluster back on show


def test_u_then_a_turns_it_into_a_plain_merge(window, review_store, qtbot):
    w = window
    _read(w, qtbot)
    assert w.review.superseding.current()
    _key(w, Qt.Key.Key_U)
    # the union draft is built on a worker; a guard update of the supersession's own draft may still be in flight,
    # so wait for the editor itself rather than for the next guard signal
    qtbot.waitUntil(lambda: "previously" not in w.editor.toPlainText() and w.editor.toPlainText().strip() != "",
                    timeout=LONG_MS)
    assert not w.review.superseding.current()
    assert "plain merge" in w.page.supersede_panel.hint.text()
    qtbot.waitUntil(lambda: w.actions_by_key["accept"].text() == "Accept merge (A)", timeout=LONG_MS)
    w.answerer.answer("Cancel")
    _key(w, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: bool(w.answerer.seen), timeout=LONG_MS)
    assert w.answerer.seen[-1]["title"] == "Accept merge"


def test_a_dated_series_is_never_drafted(window, review_store, qtbot):
    w, ids = window, review_store.ids
    second = w.proxy.index(1, 0)
    w.queue.setCurrentIndex(second)
    qtbot.waitUntil(lambda: set(w.review.row.member_ids) == {ids["shot24"], ids["shot25"]}, timeout=LONG_MS)
    plan = _read(w, qtbot)
    assert plan.reading.reading.value == "dated-series" and plan.draft is None
    panel = w.page.supersede_panel
    assert panel.badge.text().startswith("Dated series")
    assert [s.day for s in panel.states()] == ["2024-10-03", "2025-10-10"]
    assert "keeps them separate" in panel.hint.text()
    assert w.editor.toPlainText() == "" and not w.review.superseding.current()


def test_the_loaded_model_reads_it_on_the_worker_and_cancel_stops_it(make_window, review_store, qtbot):
    gate = threading.Event()
    engine = FakeSupersedeEngine("UPDATE", gate=gate)
    decider = LoadedDecider(engine)
    w = make_window(_services(review_store, decider=decider))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    slot = w.review.drafting.slot
    slot.put(w.review.drafting.decider_key(), decider)  # a model is loaded (as after M)
    panel = w.page.supersede_panel

    _key(w, Qt.Key.Key_N)
    qtbot.waitUntil(engine.started.is_set, timeout=LONG_MS)
    assert panel.isVisible() and panel.cancel.isVisible() and panel.badge.text() == "Reading…"
    assert w.actions_by_key["cancel_model"].isEnabled()
    with qtbot.waitSignal(w.review.supersessionRead, timeout=LONG_MS) as read:
        qtbot.mouseClick(panel.cancel, Qt.MouseButton.LeftButton)
    assert read.args[0] is None and not panel.isVisible() and engine.scored == 0
    assert w.editor.toPlainText() == ""

    gate.set()
    plan = _read(w, qtbot)
    assert plan.reading.reading.value == "supersedes" and plan.reading.model_id == engine.model_id
    assert engine.model_id in panel.reason.text() and "model" in panel.reason.text()


def test_the_model_unsure_leaves_it_to_the_reviewer_who_can_read_it_as_newer(make_window, review_store, qtbot):
    engine = FakeSupersedeEngine("OTHER")
    decider = LoadedDecider(engine)
    w = make_window(_services(review_store, decider=decider))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    w.review.drafting.slot.put(w.review.drafting.decider_key(), decider)
    panel = w.page.supersede_panel
    plan = _read(w, qtbot)
    assert plan.reading.reading.value == "undecided" and plan.draft is None
    assert panel.badge.text().startswith("Undecided") and panel.read_as_newer.isVisible()
    with qtbot.waitSignal(w.review.supersessionRead, timeout=LONG_MS) as read:
        qtbot.mouseClick(panel.read_as_newer, Qt.MouseButton.LeftButton)
    assert read.args[0].reading.reading.value == "supersedes"
    assert HISTORY in w.editor.toPlainText()


def test_history_marks_skip_the_struck_source_words_between_them(qtbot):
    """The mark lands on the merged body's characters only, also after non-BMP text (UTF-16 positions)."""
    from memgui.core.tasks import run_to_end
    from memgui.gui.review.diff_view import DiffView
    from memgui.gui.review.history_marks import HistoryMark, mark_history, merged_text
    from memgui.gui.services import real_services

    view = DiffView()
    qtbot.addWidget(view)
    view.set_sources([("a", "#1 old")])
    old = "Coffee 😀 is brewed at 07:00."
    body = "Coffee 😀 is brewed at 06:30. (previously: Coffee 😀 is brewed at 07:00, as of 2025-01-02)"
    diff = run_to_end(real_services().audit.word_diff_work(old, body))
    assert view.show_diff(view.next_request(), diff)
    assert merged_text(view) == body
    start = body.index("(previously")
    assert mark_history(view, [HistoryMark(start, len(body), "kept")]) > 0
    marked = "".join(t for t, _ in _history_marked_in(view))
    assert marked == body[start:]


def _history_marked_in(view) -> list[tuple[str, str]]:
    """(text, tooltip) of each italic run in the diff on show (the history marks)."""
    out, block = [], view.text.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.isValid() and frag.charFormat().fontItalic():
                out.append((frag.text(), frag.charFormat().toolTip()))
            it += 1
        block = block.next()
    return out
