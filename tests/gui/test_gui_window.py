"""Opening stores (errors, read-only, recent), the model call with Cancel, the FTS filter, settings,
the diff view's stale-result rule, and no leaked widgets."""
import os
import stat
import threading

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui_fakes import DOCS, Answerer, FakeDecider, services_for
from memgui.core.curation.types import DecisionKind
from memgui.core.merge.diff import word_diff
from memgui.core.vectors.embedder_choice import EmbedderChoice
from memgui.gui.review.sources_view import SourcePane
from memgui.gui.settings_dialog import GuiSettings, SettingsDialog, load_settings, save_settings
from waits import LONG_MS


def test_open_errors_show_a_one_line_dialog_not_a_traceback(make_window, tmp_path, qtbot):
    w = make_window()
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("just text, not a database")
    other_sqlite = tmp_path / "other.db"
    import sqlite3

    with sqlite3.connect(other_sqlite) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    cases = [(tmp_path / "missing.db", "no such file"), (tmp_path, "is a directory"),
             (not_sqlite, "not an SQLite database"), (other_sqlite, "not a Netclaw memory store")]
    for path, phrase in cases:
        w.answerer.answer("OK")
        with qtbot.waitSignal(w.storeFailed, timeout=LONG_MS) as failed:
            w.open_located(str(path))
        message = failed.args[0]
        assert phrase in message and "\n" not in message and "Traceback" not in message
        assert w.answerer.seen[-1]["title"] == "Cannot open the store"
        assert w.answerer.seen[-1]["text"] == message
    assert w.store is None and w.cluster_model.rowCount() == 0


def test_read_only_store_shows_banner_and_disables_writes(make_window, review_store, qtbot):
    os.chmod(review_store.path, stat.S_IRUSR | stat.S_IRGRP)
    try:
        w = make_window()
        with qtbot.waitSignal(w.ready, timeout=LONG_MS):
            w.open_located(str(review_store.path))
        assert w.readonly_banner.isVisibleTo(w) and "Read-only" in w.readonly_banner.text()
        with qtbot.waitSignal(w.review.guardUpdated, timeout=LONG_MS):
            QTest.keyClick(w.queue, Qt.Key.Key_U)
        k = w.actions_by_key
        assert not k["accept"].isEnabled() and not k["append"].isEnabled() and not k["keep"].isEnabled()
        assert k["union"].isEnabled() and k["ask"].isEnabled()  # reviewing still works
        QTest.keyClick(w.queue, Qt.Key.Key_A)
        assert w.answerer.seen == []  # no confirmation, no write
    finally:
        os.chmod(review_store.path, stat.S_IRUSR | stat.S_IWUSR)


def test_recent_stores_are_remembered(opened, review_store, qsettings):
    assert load_settings(qsettings).recent_stores[0] == str(review_store.path)
    opened._fill_recent()
    assert [a.text() for a in opened.recent_menu.actions()] == [str(review_store.path)]


def test_ask_model_streams_then_cancel_stops_it(make_window, review_store, qtbot):
    gate = threading.Event()
    decider = FakeDecider(gate=gate)
    w = make_window(services_for(review_store, decider=decider))
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    QTest.keyClick(w.queue, Qt.Key.Key_M)
    qtbot.waitUntil(lambda: w.decision_panel.stream.toPlainText().strip() != "", timeout=LONG_MS)
    assert w.runner.busy("decide")
    assert w.actions_by_key["cancel_model"].isEnabled() and not w.actions_by_key["ask"].isEnabled()
    assert w.task_status.isVisibleTo(w) and "model" in w.task_status.label.text().lower()
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS) as finished:
        QTest.keyClick(w.queue, Qt.Key.Key_Escape)
    assert finished.args[0] is None
    qtbot.waitUntil(lambda: decider.cancelled, timeout=LONG_MS)  # the worker really stopped
    assert w.decision_panel.kind_label.text() == "cancelled"
    assert w.editor.toPlainText() == "" and not w.runner.busy("decide")
    gate.set()


def test_model_decision_fills_body_targets_and_rationale(review_bench, review_store, qtbot):
    """The decision panel and the editor, on the Review tab's panels alone (ReviewBench)."""
    body = DOCS["pg-1"][2] + " " + DOCS["pg-2"][2]
    decider = FakeDecider(merged_body=body, kind=DecisionKind.UPDATE)
    w = review_bench(decider=decider)
    w.show("pg-1", "pg-2", cosine=0.962)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions["ask"].trigger()
    proposal, candidates, full = decider.calls[0]
    assert full is True and proposal.content == DOCS["pg-2"][2]  # newest document is the proposal
    assert [c.document_id for c in candidates] == [review_store.ids["pg-1"]] and candidates[0].cosine is not None
    assert w.editor.toPlainText() == body
    assert w.decision_panel.kind_label.text() == "UPDATE"
    assert "both describe the same fact" in w.decision_panel.rationale_label.text()
    assert w.sources.target_id() == review_store.ids["pg-1"]  # the model's target
    assert "fake-decider-q4" in w.decision_panel.model_label.text()
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)
    assert w.guard_panel.report.passed


def test_filter_box_searches_the_store(opened, qtbot):
    w = opened
    assert w.proxy.rowCount() == 3
    QTest.keyClicks(w.filter_edit, "Lisbon")
    qtbot.waitUntil(lambda: w.proxy.rowCount() == 1, timeout=LONG_MS)
    row = w.proxy.data(w.proxy.index(0, 3))
    assert "Lisbon" in row
    w.filter_edit.clear()
    qtbot.waitUntil(lambda: w.proxy.rowCount() == 3, timeout=LONG_MS)


def test_sorting_by_size_and_cosine(opened):
    w = opened
    w.queue.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    assert [w.proxy.data(w.proxy.index(r, 1)) for r in range(3)] == ["0.915", "0.941", "0.962"]


def test_word_diff_switches_source_and_drops_stale_results(review_bench, qtbot):
    """The diff view, on the Review tab's panels alone (ReviewBench)."""
    w = review_bench()
    w.show("pg-1", "pg-2")
    pg1, pg2 = w.ids["pg-1"], w.ids["pg-2"]
    with qtbot.waitSignal(w.review.diffUpdated, timeout=LONG_MS):
        w.editor.setPlainText(DOCS["pg-1"][2] + " Extra fact: port 6432 for pgbouncer.")
    assert w.diff_view.current_source() == pg1
    assert "+6" in w.diff_view.stats.text()
    with qtbot.waitSignal(w.review.diffUpdated, timeout=LONG_MS) as updated:
        w.diff_view.choose(pg2)
    assert updated.args[0].deleted_words > 0
    stale_request = w.diff_view.request
    w.diff_view.next_request()
    assert w.diff_view.show_diff(stale_request, word_diff("a", "b")) is False  # an old answer is dropped
    assert w.diff_view.shown_request < w.diff_view.request


def test_settings_dialog_round_trip(qtbot, qsettings):
    class Model:
        path, name, source, size_bytes = "/models/qwen.gguf", "qwen.gguf", "ollama", 1_100_000_000

    dialog = SettingsDialog(GuiSettings(), [Model()])
    qtbot.addWidget(dialog)
    assert dialog.model_combo.count() == 2 and "ollama" in dialog.model_combo.itemText(1)
    dialog.model_combo.setCurrentIndex(1)
    dialog.k_spin.setValue(7)
    dialog.threshold_spin.setValue(0.9)
    dialog.embedder_combo.setCurrentIndex(dialog.embedder_combo.findData("stored"))
    dialog.threads_spin.setValue(3)
    chosen = dialog.result_settings()
    assert (chosen.decider_model, chosen.k, chosen.threshold, chosen.embedder, chosen.llm_threads) == \
        ("/models/qwen.gguf", 7, 0.9, "stored", 3)
    save_settings(qsettings, chosen)
    assert load_settings(qsettings) == chosen and load_settings(qsettings).embedder is EmbedderChoice.STORED
    assert chosen.scan_kwargs() == {"embedder_choice": "stored", "k": 7, "threshold": 0.9}
    qsettings.setValue("scan/embedder", "a newer memgui's embedder")  # read back as automatic, not passed on
    assert load_settings(qsettings).embedder is EmbedderChoice.AUTO
    defaults = SettingsDialog(GuiSettings(), [])
    qtbot.addWidget(defaults)
    assert defaults.result_settings().k is None and defaults.k_spin.text() == "default"


def test_no_widgets_leak_across_clusters_and_close(review_store, qsettings, qtbot):
    from memgui.gui.main_window import MainWindow

    def panes():
        return [wd for wd in QApplication.allWidgets() if isinstance(wd, SourcePane) and wd not in before]

    QApplication.sendPostedEvents(None, 0)
    before = set(QApplication.allWidgets())
    w = MainWindow(services_for(review_store), qsettings=qsettings)
    w.prompter.exec_box = Answerer()
    w.show()
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    made = len(panes())
    for _ in range(6):
        with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
            QTest.keyClick(w.queue, Qt.Key.Key_J)
        with qtbot.waitSignal(w.review.clusterLoaded, timeout=LONG_MS):
            QTest.keyClick(w.queue, Qt.Key.Key_K)
    QApplication.sendPostedEvents(None, 0)
    assert len(panes()) == made  # panes are reused, not rebuilt per cluster
    assert len(w.sources.panes()) == 2
    w.close()
    w.deleteLater()

    def leaked():
        QApplication.sendPostedEvents(None, 0)
        return [type(wd).__name__ + ":" + wd.objectName() for wd in set(QApplication.allWidgets()) - before]

    try:
        qtbot.waitUntil(lambda: not leaked(), timeout=LONG_MS)
    except Exception:
        raise AssertionError(f"widgets outlived the window: {sorted(leaked())}") from None


def test_scan_progress_shows_in_the_status_bar_and_cancels(make_window, review_store, qtbot):
    from gui_fakes import FakeScanner, until_cancelled

    scanner = FakeScanner(review_store.ids, pace=until_cancelled)
    w = make_window(services_for(review_store, scanner=scanner))
    w.open_located(str(review_store.path))
    qtbot.waitUntil(lambda: w.runner.busy("scan"), timeout=LONG_MS)
    qtbot.waitUntil(lambda: w.task_status.isVisibleTo(w), timeout=LONG_MS)
    assert "Finding nominee clusters" in w.task_status.label.text()
    QTest.mouseClick(w.task_status.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "cancelled" in w.queue_label.text(), timeout=LONG_MS)
    assert not w.runner.busy("scan") and not w.task_status.isVisibleTo(w)
    assert w.cluster_model.rowCount() == 0


def test_changed_scan_settings_rescan_with_them(opened, review_store, qtbot):
    from dataclasses import replace

    w = opened
    calls = []
    original = w.services.scan

    def recording(store, **kwargs):
        calls.append(kwargs)
        return (yield from original(store, **kwargs))

    w.services.scan = recording
    with qtbot.waitSignal(w.scanFinished, timeout=LONG_MS):
        w.apply_settings(replace(w.settings, k=3, threshold=0.91, embedder="stored"))
    assert calls[-1]["k"] == 3 and calls[-1]["threshold"] == 0.91 and calls[-1]["embedder_choice"] == "stored"
    assert "K 3" in w.queue_label.text() and "0.910" in w.queue_label.text()


def test_open_the_demo_store_from_the_menu(make_window, review_store, qtbot):
    from memgui.core.store.demo import build_demo_store

    services = services_for(review_store)
    services.build_demo_store = build_demo_store
    w = make_window(services)
    with qtbot.waitSignal(w.storeOpened, timeout=60000):
        w.actions_by_key["demo"].trigger()
    assert "(demo store)" in w.windowTitle()
    assert w.store.summary().live_documents > 50  # the bundled demo corpus, built on first use


def test_a_model_that_failed_its_self_test_is_flagged(make_window, review_store, qtbot):
    class Verdict:
        capable, summary = False, "fake-decider-q4: not capable (3/6 canary pairs right)"

    decider = FakeDecider()
    services = services_for(review_store, decider=decider)
    seen = []
    services.selftest = lambda decider, cancel=None: seen.append(decider.model_id) or Verdict()
    w = make_window(services)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    for _ in range(2):
        with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
            QTest.keyClick(w.queue, Qt.Key.Key_M)
        assert "failed the capability self-test" in w.decision_panel.warning_label.text()
        assert "3/6 canary pairs" in w.decision_panel.warning_label.text()
    assert seen == ["fake-decider-q4"]  # run once per model, not per question
    # an incapable model's "same fact?" answers would pick the members: it is asked nothing
    assert decider.judged == [] and decider.calls == [] and w.editor.toPlainText() == ""
    assert "judged nothing here" in w.decision_panel.warning_label.text()
