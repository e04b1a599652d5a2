"""The Audit tab on a real demo store with a real audit trail: models (qtmodeltester), filters, undo/redo from
the view through core.audit (with the core's conflict message), removing a kept-separate pair, the daemon-log
timeline linked to documents, exports, calibration → "Use this threshold", and no leaked widgets."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from memgui.core.forensics.export import read_jsonl
from memgui.core.ops.apply import MODE_APPEND, MergePlan, draft_stamps, keep_separate, merge_cluster
from memgui.core.store import open_store
from memgui.core.store.audit_log import list_entries
from memgui.core.store.demo import build_demo_store, demo_labels
from memgui.core.store.exemptions import exempt_pairs
from memgui.gui.audit.models import AuditFilterProxy, AuditTableModel, DaemonEventModel, ExemptionModel, HistoryModel
from memgui.gui.audit.view import AuditView
from waits import LONG_MS

LOG = ("2026-06-01 09:00:02.341 +00:00 [INF] curation_update anchor=atlas targetDoc={d} reason=LLM decision: UPDATE {d}\n"
       "2026-06-01 09:00:02.360 +00:00 [INF] curation_merge_guard_passed anchor=atlas targetDoc={d} reason=retention 1.00\n"
       "2026-06-01 09:00:03.000 +00:00 [WRN] curation_merge_guard_failed anchor=atlas targetDoc={d} missingTokens=[1.5.\n"
       "2026-06-02 10:00:00.000 +00:00 [INF] curation_skip anchor=tidepool reason=high content overlap\n")


@pytest.fixture
def trail(tmp_path):
    """A demo store (in {home}/netclaw.db with {home}/logs/daemon.log) with a merge and a kept-separate pair."""
    home = tmp_path / "home"
    store = open_store(build_demo_store(home / "netclaw.db"))
    labels = demo_labels()
    cluster = labels["duplicate_clusters"][1]
    merge = merge_cluster(store, MergePlan(cluster[0], tuple(cluster), mode=MODE_APPEND,
                                           drafted=draft_stamps(store, cluster),
                                           cosines=((cluster[0], cluster[1], 0.93),), note="same fact"))
    kept = keep_separate(store, labels["sibling_pairs"][0], note="different releases")
    gone = labels["duplicate_clusters"][5][0]
    (home / "logs").mkdir()
    (home / "logs" / "daemon.log").write_text(LOG.format(d=gone), encoding="utf-8")
    yield store, merge, kept, gone
    store.close()


@pytest.fixture
def view(qtbot):
    made = []

    def make(store, **kw):
        v = AuditView(**kw)
        qtbot.addWidget(v)
        v.resize(1100, 700)
        v.show()
        with qtbot.waitSignals([v.loaded, v.logsLoaded], timeout=LONG_MS):
            v.set_store(store)
        made.append(v)
        return v

    yield make
    for v in made:
        v.shutdown()


def _wait_finished(qtbot, v, click):
    with qtbot.waitSignal(v.loaded, timeout=LONG_MS), qtbot.waitSignal(v.actionFinished, timeout=LONG_MS) as blocker:
        click()
    return blocker.args[0]


def test_models_pass_modeltester(trail, qtmodeltester, qtbot, view):
    store = trail[0]
    v = view(store)
    for model in (v.audit_model, v.audit_proxy, v.daemon_page.event_model, v.daemon_page.history_model, v.exemption_model):
        qtmodeltester.check(model)
    assert v.audit_model.rowCount() == 2 and v.exemption_model.rowCount() == 1
    assert v.daemon_page.history_model.rowCount() == len(demo_labels()["append_documents"]) + 1  # + memgui's append merge
    standalone = [AuditTableModel(), AuditFilterProxy(), DaemonEventModel(), HistoryModel(), ExemptionModel()]
    standalone[1].setSourceModel(standalone[0])
    for model in standalone:  # empty models too
        qtmodeltester.check(model)


def test_list_and_detail_show_what_decided_the_write(trail, view):
    store, merge, _kept, _ = trail
    v = view(store)
    shown = [v.audit_proxy.index(r, AuditTableModel.OPERATION).data() for r in range(v.audit_proxy.rowCount())]
    assert shown == ["keep-separate", "append"]  # newest first; the merge was written as an append
    assert v.select_entry(merge.audit_id)
    html = v.entry_text.toPlainText()
    assert "A reviewer appended the other members to the target" in html and "0.930" in html and "same fact" in html
    assert "passed" in html
    assert v.doc_combo.count() == len(merge.source_ids)
    target_title = store.document(merge.target_id).title
    assert v.doc_combo.currentText() == target_title


def test_filters_by_operation_guard_and_document(trail, view):
    store, merge, kept, _ = trail
    v = view(store)
    v.op_filter.setCurrentIndex(v.op_filter.findData("append"))
    assert [e.audit_id for e in v.shown_entries()] == [merge.audit_id]
    v.op_filter.setCurrentIndex(0)
    v.guard_filter.setCurrentIndex(v.guard_filter.findData("none"))
    assert [e.audit_id for e in v.shown_entries()] == [kept.audit_id]
    v.guard_filter.setCurrentIndex(0)
    title = store.document(kept.source_ids[0]).title
    v.doc_filter.setText(title[:12])
    assert kept.audit_id in [e.audit_id for e in v.shown_entries()]
    v.doc_filter.setText("no such document anywhere")
    assert v.shown_entries() == [] and v.count_label.text() == "0 of 2 writes"


def test_undo_and_redo_from_the_view_write_through_the_core(trail, qtbot, view):
    store, merge, _kept, _ = trail
    v = view(store)
    others = [i for i in merge.source_ids if i != merge.target_id]
    assert all(store.document(i).is_tombstoned for i in others)
    assert v.select_entry(merge.audit_id) and v.undo_button.isEnabled() and not v.redo_button.isEnabled()
    changed = []
    v.storeChanged.connect(lambda: changed.append(True))
    text = _wait_finished(qtbot, v, lambda: QTest.mouseClick(v.undo_button, Qt.MouseButton.LeftButton))
    assert text.startswith(f"Undid #{merge.audit_id}") and changed
    assert not any(store.document(i).is_tombstoned for i in others)  # the merge is really undone in the store
    assert v.audit_model.rowCount() == 3 and v.selected_entry().audit_id == merge.audit_id
    assert v.selected_entry().state == "undone" and v.redo_button.isEnabled() and not v.undo_button.isEnabled()
    text = _wait_finished(qtbot, v, lambda: QTest.mouseClick(v.redo_button, Qt.MouseButton.LeftButton))
    assert text.startswith(f"Redid #{merge.audit_id}")
    assert all(store.document(i).is_tombstoned for i in others)
    assert [e.operation for e in list_entries(store)][:2] == ["redo", "undo"]


def test_undo_conflict_shows_the_core_message_and_writes_nothing(trail, qtbot, view):
    store, merge, _kept, _ = trail
    v = view(store)
    target = store.document(merge.target_id)
    store.writes.upsert_document(replace(target, markdown_body=target.markdown_body + " Edited by the daemon."))
    before = list_entries(store)
    v.select_entry(merge.audit_id)
    text = _wait_finished(qtbot, v, v.undo_selected)
    assert text == f"cannot undo audit {merge.audit_id}: document {merge.target_id} changed since; nothing was written"
    assert v.banner.isVisible() and v.banner.text() == text
    assert list_entries(store) == before
    assert store.document(merge.target_id).markdown_body.endswith("Edited by the daemon.")


def test_read_only_store_disables_every_write(trail, view, tmp_path):
    path = trail[0].path
    with open_store(path, read_only=True) as ro:
        v = view(ro)
        v.select_entry(trail[1].audit_id)
        v.exemption_table.selectRow(0)
        assert not v.undo_button.isEnabled() and not v.remove_button.isEnabled()
        assert "read-only" in v.undo_button.toolTip()
        v.shutdown()


def test_remove_a_kept_separate_pair_is_audited(trail, qtbot, view):
    store, _merge, _kept, _ = trail
    v = view(store)
    assert exempt_pairs(store)
    v.tabs.setCurrentIndex(2)
    v.exemption_table.selectRow(0)
    assert v.remove_button.isEnabled()
    text = _wait_finished(qtbot, v, lambda: QTest.mouseClick(v.remove_button, Qt.MouseButton.LeftButton))
    assert "Removed 1 kept-separate pair" in text
    assert exempt_pairs(store) == set() and v.exemption_model.rowCount() == 0
    assert list_entries(store)[0].operation == "allow-nomination"


def test_daemon_timeline_links_events_to_documents(trail, qtbot, view):
    store, merge, _kept, gone = trail
    v = view(store)
    assert [e.marker for e in v.daemon_page.event_model.rows()] == ["curation_update", "curation_merge_guard_passed", "curation_skip"]
    assert "1 malformed line(s) skipped" in v.daemon_page.logs_label.text()
    assert v.unrecoverable and v.unrecoverable[0]["document_id"] == gone
    v.tabs.setCurrentIndex(1)
    v.daemon_page.event_table.selectRow(1)
    text = v.daemon_page.history_text.toPlainText()
    assert store.document(gone).title in text
    assert "Earlier body not recoverable" in text and "cannot be recovered from the store" in text
    assert v.daemon_page.event_model.index(1, DaemonEventModel.DOCUMENTS).data() == store.document(gone).title
    # choosing an append history shows its dated segments
    row = v.daemon_page.history_model.row_of(merge.target_id)
    v.daemon_page.history_table.selectRow(row)
    assert "Appended " in v.daemon_page.history_text.toPlainText()


def test_exports_write_the_shown_entries(trail, view, tmp_path):
    store = trail[0]
    v = view(store)
    assert v.export_to(tmp_path / "audit.jsonl", "jsonl")
    assert read_jsonl(tmp_path / "audit.jsonl") == [e.to_dict(images=True) for e in v.shown_entries()]
    assert v.export_to(tmp_path / "audit.md", "md")
    md = (tmp_path / "audit.md").read_text(encoding="utf-8")
    assert "# memgui audit report" in md and "# Daemon log timeline" in md and "curation_merge_guard_passed" in md
    assert not v.export_to(tmp_path / "missing" / "x.md", "md")
    assert "Export failed" in v.banner.text()


def test_calibration_tab_suggests_and_uses_a_threshold(trail, qtbot, view):
    store = trail[0]
    v = view(store, cosine_lookup=lambda a, b: 0.9, current_threshold=0.8)
    with qtbot.waitSignal(v.calibrated, timeout=LONG_MS):
        v.tabs.setCurrentWidget(v.calibration_panel)
    assert v.calibration.threshold == pytest.approx(0.9)
    assert {p.source for p in v.pairs} == {"audit", "demo"}
    button = v.calibration_panel.use_button
    assert button.isEnabled() and "0.900" in button.text()
    with qtbot.waitSignal(v.thresholdChosen, timeout=LONG_MS) as blocker:
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert blocker.args == [pytest.approx(0.9)]


def test_no_widgets_leak(trail, qtbot):
    QApplication.sendPostedEvents(None, 0)
    baseline = len(QApplication.allWidgets())
    v = AuditView()
    with qtbot.waitSignals([v.loaded, v.logsLoaded], timeout=LONG_MS):
        v.set_store(trail[0])
    v.select_entry(trail[1].audit_id)
    v.tabs.setCurrentIndex(1)
    v.daemon_page.event_table.selectRow(0)
    v.shutdown()
    v.set_store(None)
    v.deleteLater()
    qtbot.waitUntil(lambda: len(QApplication.allWidgets()) <= baseline, timeout=LONG_MS)


def test_calibration_without_an_embedder_uses_the_cosines_it_has_and_says_so(trail, qtbot, view):
    store, merge = trail[0], trail[1]

    def no_embedder(_store):
        raise RuntimeError("no embedder in this test")

    v = view(store, source_factory=no_embedder)
    with qtbot.waitSignal(v.calibrated, timeout=LONG_MS):
        v.tabs.setCurrentWidget(v.calibration_panel)
    assert [(p.label, p.cosine, p.audit_id) for p in v.pairs] == [("accepted", pytest.approx(0.93), merge.audit_id)]
    assert "no embedder in this test" in v.calibration_panel.message.text()
