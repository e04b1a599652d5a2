"""The Audit tab's "Re-check merges" page (gui/audit/recheck.py) on a real store: the click runs the core's re-check on
a worker and the lossy merge appears; Undo (while possible) and "Append lost fact back" (once it is not) act
through the core after a confirmation; the list follows the writes; the page renders offscreen."""
from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from factories import seed_document, update_document
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
from memgui.core.store import create_store, open_store
from memgui.core.store.audit_log import get_entry
from memgui.gui.audit.recheck import RecheckModel
from memgui.gui.audit.view import AuditView
from waits import LONG_MS

A_BODY = "The backup job runs nightly at 02:30 and keeps 14 snapshots."
B_BODY = "Backups go to s3://backups/pg. Restores are tested every Friday."
LOSSY = "The backup job runs nightly at 02:30 and keeps 14 snapshots. Backups go to s3://backups/pg."


@pytest.fixture
def lossy(tmp_path):
    store = open_store(create_store(tmp_path / "netclaw.db"))
    a = seed_document(store, "Backups", A_BODY, anchor="backups")
    b = seed_document(store, "Backup target", B_BODY, anchor="backup-target")
    ids = (a.document_id, b.document_id)
    merge = merge_cluster(store, MergePlan(a.document_id, ids, merged_body=LOSSY, drafted=draft_stamps(store, ids),
                                           guard_override=True))
    yield store, merge, a.document_id
    store.close()


class Answers:
    """Answers the page's confirmations (records them); `ok` False clicks Cancel."""

    def __init__(self, ok=True):
        self.ok, self.seen = ok, []

    def __call__(self, box: QMessageBox):
        self.seen.append((box.windowTitle(), box.text(), box.informativeText()))
        wanted = QMessageBox.ButtonRole.AcceptRole if self.ok else QMessageBox.ButtonRole.RejectRole
        return next(b for b in box.buttons() if box.buttonRole(b) == wanted)


@pytest.fixture
def view(qtbot):
    made = []

    def make(store):
        v = AuditView()
        qtbot.addWidget(v)
        v.resize(1100, 700)
        v.show()
        with qtbot.waitSignal(v.loaded, timeout=LONG_MS):
            v.set_store(store)
        v.recheck_page.prompter.exec_box = v.answers = Answers()
        made.append(v)
        return v

    yield make
    for v in made:
        v.shutdown()


def _recheck(qtbot, v):
    page = v.recheck_page
    v.tabs.setCurrentWidget(page)
    with qtbot.waitSignal(page.rechecked, timeout=LONG_MS):
        qtbot.mouseClick(page.recheck_button, Qt.MouseButton.LeftButton)
    return page


def test_model_passes_modeltester(lossy, qtbot, view, qtmodeltester):
    v = view(lossy[0])
    page = _recheck(qtbot, v)
    qtmodeltester.check(page.model)
    qtmodeltester.check(RecheckModel())


def test_click_recheck_lists_the_lossy_merge_and_undo_acts(lossy, qtbot, view):
    store, merge, _target = lossy
    v = view(store)
    page = _recheck(qtbot, v)
    assert page.model.rowCount() == 1
    assert page.model.index(0, RecheckModel.ID).data() == str(merge.audit_id)
    assert "dropped" in page.model.index(0, RecheckModel.FACTS).data()
    assert "Friday" in page.model.index(0, RecheckModel.FACTS).data()
    assert page.model.index(0, RecheckModel.ACTION).data() == "Undo"
    assert "Restores are tested every Friday." in page.detail.toPlainText()
    assert page.undo_button.isEnabled() and not page.append_button.isEnabled()
    assert "1 of 1 merge(s) now show a fact at risk" in page.status.text()

    v.answers.ok = False  # Cancel writes nothing
    page.undo_button.click()
    assert v.answers.seen[-1][0] == "Undo" and get_entry(store, merge.audit_id).state == "applied"

    v.answers.ok = True
    with (qtbot.waitSignal(page.rechecked, timeout=LONG_MS),  # the list is re-checked after the write
          qtbot.waitSignal(v.actionFinished, timeout=LONG_MS) as done):
        qtbot.mouseClick(page.undo_button, Qt.MouseButton.LeftButton)
    assert f"Undid #{merge.audit_id}" in done.args[0]
    assert get_entry(store, merge.audit_id).state == "undone"
    assert page.model.rowCount() == 0 and "keep their facts" in page.status.text()


def test_append_lost_fact_back_when_undo_is_no_longer_possible(lossy, qtbot, view, tmp_path):
    store, _merge, target = lossy
    update_document(store, store.document(target), markdown_body=LOSSY + " Checked in June.")
    v = view(store)
    page = _recheck(qtbot, v)
    assert page.model.index(0, RecheckModel.ACTION).data() == "Append lost fact back"
    assert page.append_button.isEnabled() and not page.undo_button.isEnabled()
    if os.environ.get("MEMGUI_SHOTS"):
        v.grab().save(os.path.join(os.environ["MEMGUI_SHOTS"], "audit-recheck.png"))
    with qtbot.waitSignal(page.rechecked, timeout=LONG_MS), qtbot.waitSignal(v.actionFinished, timeout=LONG_MS) as done:
        qtbot.mouseClick(page.append_button, Qt.MouseButton.LeftButton)
    title, _text, info = v.answers.seen[-1]
    assert title == "Append lost fact back" and "Restores are tested every Friday." in info
    assert "Appended the facts" in done.args[0]
    body = store.document(target).markdown_body
    assert body.startswith(LOSSY + " Checked in June.") and body.endswith("Restores are tested every Friday.")
    assert "_[merged " in body
    assert page.model.rowCount() == 0 and "1 repaired by an append-back" in page.status.text()
    # the write is in the audit list, selected, and undoable from the main page
    fix = v.selected_entry()
    assert fix.operation == "append-back" and v.undo_button.isEnabled()


def test_read_only_store_offers_no_write(lossy, qtbot, view, tmp_path):
    store, _merge, _target = lossy
    ro = open_store(store.path, read_only=True)
    try:
        v = view(ro)
        page = _recheck(qtbot, v)
        assert page.model.rowCount() == 1
        assert not page.undo_button.isEnabled() and not page.append_button.isEnabled()
    finally:
        v.shutdown()
        ro.close()
