"""Issue 24 item 6, the small traps closed, driven from the keyboard and read off the window: E keeps the caret
(a fresh draft: at its end), U asks before replacing a hand edit, Enter in the filter goes back to the queue,
Ctrl+1 / Ctrl+2 reach the tabs, F1 lists every action, the Audit tab's undo asks as Ctrl+Z asks, About, the
first-run hint, and tooltips and a legend for the badges, group labels and the queued ring."""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui_fakes import DOCS, FakeScanner, services_for
from waits import LONG_MS

KM = Qt.KeyboardModifier


def _key(w, key, modifier=KM.NoModifier):
    QTest.keyClick(QApplication.focusWidget() or w, key, modifier)


def _union(w, qtbot):
    qtbot.waitUntil(lambda: w.isActiveWindow() and w.actions_by_key["union"].isEnabled(), timeout=LONG_MS)
    QTest.keyClick(w.queue, Qt.Key.Key_U)  # the first window of a test run also warms the guard up: allow for it
    qtbot.waitUntil(lambda: str(w.review.cluster.origin) == "union" and w.review.guard_is_current(), timeout=30000)
    return w.editor.toPlainText()


def test_e_puts_the_caret_at_the_end_of_a_fresh_draft_and_keeps_a_placed_one(opened, qtbot):
    """Would fail without it: E put the caret at the start of the body."""
    w = opened
    text = _union(w, qtbot)
    QTest.keyClick(w.queue, Qt.Key.Key_E)
    assert w.editor.hasFocus() and w.editor.textCursor().position() == len(text)
    cursor = w.editor.textCursor()
    cursor.setPosition(5)
    w.editor.setTextCursor(cursor)
    _key(w, Qt.Key.Key_Escape)
    assert w.queue.hasFocus()
    QTest.keyClick(w.queue, Qt.Key.Key_E)
    assert w.editor.textCursor().position() == 5


def test_u_asks_before_replacing_a_hand_edit(opened, qtbot):
    """Would fail without it: U replaced the reviewer's edit without a word."""
    w = opened
    _union(w, qtbot)
    QTest.keyClick(w.queue, Qt.Key.Key_E)
    QTest.keyClicks(w.editor, " Checked by hand.")
    edited = w.editor.toPlainText()
    _key(w, Qt.Key.Key_Escape)
    w.answerer.answer("Cancel")
    QTest.keyClick(w.queue, Qt.Key.Key_U)
    assert w.answerer.seen[-1]["title"] == "Replace your edit" and w.editor.toPlainText() == edited
    w.answerer.answer("Replace")
    with qtbot.waitSignal(w.review.guardUpdated, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_U)
    assert "Checked by hand." not in w.editor.toPlainText()


def test_enter_in_the_filter_filters_now_and_returns_to_the_queue(opened, qtbot):
    w = opened
    QTest.keyClick(w.queue, Qt.Key.Key_F, KM.ControlModifier)
    assert w.filter_edit.hasFocus()
    QTest.keyClicks(w.filter_edit, "Lisbon")
    QTest.keyClick(w.filter_edit, Qt.Key.Key_Return)
    assert w.queue.hasFocus()  # J/K work again at once
    qtbot.waitUntil(lambda: w.proxy.rowCount() == 1, timeout=LONG_MS)


def test_ctrl_2_shows_the_audit_tab_and_ctrl_1_the_review(opened, qtbot):
    w = opened
    _key(w, Qt.Key.Key_2, KM.ControlModifier)
    assert w.tabs.currentWidget() is w.audit_view
    _key(w, Qt.Key.Key_1, KM.ControlModifier)
    assert w.tabs.currentWidget() is w.page and w.queue.hasFocus()


def test_f1_lists_every_action_with_accept_all_safe_and_undo_this_batch(opened):
    """Would fail without it: F1's fixed text left out Accept all safe and Undo this batch."""
    w = opened
    w.answerer.answer("OK")
    QTest.keyClick(w.queue, Qt.Key.Key_F1)
    shown = w.answerer.seen[-1]
    assert shown["title"] == "Keyboard shortcuts"
    for name in ("Accept all safe", "Undo this batch", "Accept merge", "Union draft", "Audit tab", "Keep separate",
                 "Split off the checked", "Go to the queue", "include / exclude source #n"):
        assert name in shown["info"], name
    for action in w.actions_by_key.values():
        assert action.text().replace("&", "").rstrip("…").split(" (")[0] in shown["info"]


def test_undo_from_the_audit_tab_asks_as_ctrl_z_does(opened, qtbot):
    """Would fail without it: the Audit tab's Undo wrote at once while Ctrl+Z confirmed."""
    w = opened
    _union(w, qtbot)
    w.answerer.answer("Merge")
    with qtbot.waitSignal(w.review.writeFinished, timeout=LONG_MS) as written:
        QTest.keyClick(w.queue, Qt.Key.Key_A)
    audit_id = written.args[0].audit_id
    w.answerer.answer("Cancel")  # Ctrl+Z, answered Cancel
    QTest.keyClick(w.queue, Qt.Key.Key_Z, KM.ControlModifier)
    ctrl_z = w.answerer.seen[-1]
    _key(w, Qt.Key.Key_2, KM.ControlModifier)
    v = w.audit_view
    qtbot.waitUntil(lambda: v.select_entry(audit_id), timeout=LONG_MS)
    qtbot.waitUntil(v.undo_button.isEnabled, timeout=LONG_MS)
    w.answerer.answer("Cancel")
    QTest.mouseClick(v.undo_button, Qt.MouseButton.LeftButton)
    audit = w.answerer.seen[-1]
    assert audit["title"] == ctrl_z["title"] == "Undo" and audit["buttons"] == ctrl_z["buttons"] == ["Undo", "Cancel"]
    assert f"(audit #{audit_id})" in audit["info"] and "every document it touched gets back" in audit["info"]
    assert v.selected_entry().state == "applied"  # Cancel: nothing undone
    w.answerer.answer("Undo")
    with qtbot.waitSignal(v.actionFinished, timeout=LONG_MS):
        QTest.mouseClick(v.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: v.select_entry(audit_id) and v.selected_entry().state == "undone", timeout=LONG_MS)


def test_about_names_the_version_and_where_things_are(opened):
    from memgui import __version__

    w = opened
    w.answerer.answer("OK")
    w.actions_by_key["about"].trigger()
    shown = w.answerer.seen[-1]
    assert shown["title"] == "About memgui" and __version__ in shown["text"]
    assert "Log:" in shown["info"] and "Store:" in shown["info"]


def test_the_first_run_hint_shows_until_dismissed(make_window, tmp_path, review_store, qtbot):
    from memgui.gui.main_window import MainWindow

    qs = QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat)
    qs.setValue("decider/ahead", "false")
    w = MainWindow(services_for(review_store), qsettings=qs)
    qtbot.addWidget(w)
    w.show()
    hint = w.first_run_hint
    assert hint.isVisible() and "F1" in hint.text() and "J/K" in hint.text()
    hint.linkActivated.emit("dismiss")  # "Got it"
    assert not hint.isVisible()
    w.close()
    again = MainWindow(services_for(review_store), qsettings=qs)
    qtbot.addWidget(again)
    again.show()
    assert not again.first_run_hint.isVisible()
    again.close()


def test_tooltips_and_a_legend_explain_badges_group_labels_and_the_queued_ring(make_window, review_store, qtbot):
    from gui_fakes import FakeDecider

    decider = FakeDecider(verdicts={frozenset((DOCS["ed-1"][2], DOCS["ed-2"][2])): "SAME"}, default_verdict="DIFFERENT")
    w = make_window(services_for(review_store, decider=decider,
                                 scanner=FakeScanner(review_store.ids, clusters=(("ed-1", "ed-2", "ed-3", 0.95),))))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    legend = w.page.queue_legend
    assert legend.isVisibleTo(w)
    text = legend.text()
    assert "queued" in text and "same" in text and "different" in text and "mixed" in text and "0.95" in text
    pane = w.sources.panes()[0]
    assert "Badge colours" in pane.badges.toolTip() and "nominee threshold" in pane.badges.toolTip()
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        QTest.keyClick(w.queue, Qt.Key.Key_M)
    assert all("same fact" in p.group_label.toolTip() for p in w.sources.panes())
    header_tip = w.cluster_model.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "… queued" in header_tip
