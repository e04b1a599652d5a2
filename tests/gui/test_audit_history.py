"""The Audit tab's "History" page (gui/audit/history.py, issue 38 item 8), built alone with the fake services of
gui_fakes.FakeHistory: the subjects and the timeline are read on a worker (never the GUI thread), the entries are
shown oldest first with their dates, sources and texts, an undone write muted, a tombstoned note marked, an
unknown subject a red one-line message; one test through the real AuditView on a real store."""
from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from factories import seed_document
from gui_fakes import FakeHistory
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.ops.undo import undo
from memgui.core.store import create_store, open_store
from memgui.gui.audit.history import HistoryPage, TimelineModel
from memgui.gui.audit.models import FAILED_COLOR, MUTED_COLOR, WARN_COLOR
from memgui.gui.audit.view import AuditView
from waits import LONG_MS

STORE = object()  # the fake services never read it


@pytest.fixture
def page(qtbot):
    made = []

    def make(fake: FakeHistory) -> HistoryPage:
        p = HistoryPage(fake.services())
        qtbot.addWidget(p)
        p.resize(1100, 640)
        p.show()
        with qtbot.waitSignal(p.subjectsLoaded, timeout=LONG_MS):
            p.set_store(STORE)
        made.append(p)
        return p

    yield make
    for p in made:
        p.shutdown()
        p.runner.wait(LONG_MS)


def _show(qtbot, p: HistoryPage, kind: str, text: str) -> None:
    p.kind_combo.setCurrentIndex(p.kind_combo.findData(kind))
    p.subject_combo.setEditText(text)
    with qtbot.waitSignals([p.shown], raising=True, timeout=LONG_MS):
        qtbot.mouseClick(p.show_button, Qt.MouseButton.LeftButton)


def _column(p: HistoryPage, col: int) -> list[str]:
    return [p.model.index(r, col).data() for r in range(p.model.rowCount())]


def test_an_anchors_timeline_is_read_on_a_worker_and_listed_oldest_first(qtbot, page, qtmodeltester):
    fake = FakeHistory()
    p = page(fake)
    assert [p.subject_combo.itemText(i) for i in range(p.subject_combo.count())] == ["car (2 notes)"]
    p.subject_combo.setCurrentIndex(0)
    with qtbot.waitSignal(p.shown, timeout=LONG_MS):
        qtbot.mouseClick(p.show_button, Qt.MouseButton.LeftButton)
    assert fake.calls == [("timeline", None, "anchor:car")]
    assert fake.threads and all(t is not threading.main_thread() for t in fake.threads)
    qtmodeltester.check(p.model)
    assert _column(p, TimelineModel.WHAT) == ["previously", "created", "appended", "created", "merge #7 (undone)",
                                              "undo #8", "updated (tombstoned)"]
    assert _column(p, TimelineModel.SOURCE)[:4] == ["history phrase", "document", "append history", "document"]
    assert _column(p, TimelineModel.WHEN)[0] == "2025-03-01"
    assert _column(p, TimelineModel.TEXT)[0] == "booked for 08:00"
    assert _column(p, TimelineModel.NOTE)[-1] == "Car service cost"
    muted = p.model.index(4, TimelineModel.TEXT).data(Qt.ItemDataRole.ForegroundRole).color()
    assert muted == QColor(MUTED_COLOR)
    tomb = p.model.index(6, TimelineModel.WHAT).data(Qt.ItemDataRole.ForegroundRole).color()
    assert tomb == QColor(WARN_COLOR)
    assert p.status.text().startswith("Anchor “car” (anchor:car): 2 notes, 7 entries, oldest first.")
    assert "tombstoned" in p.status.text()
    # the newest entry is selected: what the memory says now; a memgui write shows its text before and after
    assert p.selected() is not None and p.selected().kind == "updated"
    p.table.selectRow(4)
    html = p.detail.toPlainText()
    assert "Text after this write:" in html and "The service is done (240 EUR)." in html
    assert "Text before it:" in html and "Car service booked for 08:00." in html and "undone since" in html


def test_the_gui_thread_stays_free_while_the_timeline_is_read(qtbot, page):
    gate = threading.Event()
    fake = FakeHistory(gate)
    p = page(fake)
    p.kind_combo.setCurrentIndex(p.kind_combo.findData("document"))
    p.subject_combo.setCurrentIndex(0)
    qtbot.mouseClick(p.show_button, Qt.MouseButton.LeftButton)  # returns at once: the read waits at the gate
    qtbot.waitUntil(lambda: len(fake.calls) == 1, timeout=LONG_MS)
    assert p.status.text() == "Reading the history…" and p.model.rowCount() == 0
    with qtbot.waitSignal(p.shown, timeout=LONG_MS):
        gate.set()
    assert fake.calls == [("timeline", "doc-service", None)]
    assert p.model.rowCount() == 5 and p.timeline is not None and not p.timeline.tombstoned


def test_a_tombstoned_document_is_shown_marked_and_repaired_text_said(qtbot, page):
    p = page(FakeHistory())
    _show(qtbot, p, "document", "Car service cost · doc-cost [tombstoned]")
    assert p.timeline is not None and p.timeline.tombstoned
    assert "Tombstoned." in p.status.text() and "is tombstoned" in p.status.text()
    assert _column(p, TimelineModel.WHAT) == ["created", "updated (tombstoned)"]
    assert "not valid UTF-8" in p.detail.toPlainText()


def test_an_unknown_subject_is_a_red_one_line_message_and_clears_the_list(qtbot, page):
    p = page(FakeHistory())
    _show(qtbot, p, "anchor", "car")
    assert p.model.rowCount() == 7
    p.subject_combo.setEditText("nowhere")
    with qtbot.waitSignal(p.failed, timeout=LONG_MS) as blocker:
        qtbot.mouseClick(p.show_button, Qt.MouseButton.LeftButton)
    assert "'nowhere': no such anchor" in blocker.args[0]
    assert p.status.text() == blocker.args[0] and FAILED_COLOR in p.status.styleSheet()
    assert p.model.rowCount() == 0 and p.detail.toPlainText() == ""


def test_the_audit_view_has_a_history_tab_that_follows_a_write(qtbot, tmp_path):
    """Real store, real services: the History tab of the AuditView lists the anchor, shows a merge and its undo, and
    reads the timeline again when the view reloads after a write."""
    store = open_store(create_store(tmp_path / "netclaw.db"))
    a = seed_document(store, "Backups", "The backup job runs nightly at 02:30.", anchor="backups")
    b = seed_document(store, "Backup target", "Backups go to s3://backups/pg.", anchor="backups")
    ids = (a.document_id, b.document_id)
    merge = merge_cluster(store, MergePlan(a.document_id, ids, merged_body="The backup job runs nightly at 02:30 "
                                           "to s3://backups/pg.", drafted=draft_stamps(store, ids), guard_override=True))
    v = AuditView()
    qtbot.addWidget(v)
    v.resize(1100, 700)
    v.show()
    try:
        page = v.history_page
        with qtbot.waitSignal(page.subjectsLoaded, timeout=LONG_MS):
            v.set_store(store)
        assert v.tabs.tabText(v.tabs.indexOf(page)) == "History"
        v.tabs.setCurrentWidget(page)
        page.subject_combo.setCurrentIndex(page.subject_combo.findText("backups (2 notes)"))
        with qtbot.waitSignal(page.shown, timeout=LONG_MS):
            qtbot.mouseClick(page.show_button, Qt.MouseButton.LeftButton)
        assert [w for w in _column(page, TimelineModel.WHAT) if w.startswith("merge")] == [
            f"merge #{merge.audit_id}", f"merge #{merge.audit_id} (tombstoned)"]
        undo(store, merge.audit_id)
        with qtbot.waitSignal(page.shown, timeout=LONG_MS):
            v.reload()  # as after a write made in the window
        whats = _column(page, TimelineModel.WHAT)
        assert f"merge #{merge.audit_id} (undone)" in whats and "undo #2" in whats
    finally:
        v.shutdown()
        store.close()
