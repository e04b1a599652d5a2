"""Every Qt item model in memgui/gui passes pytest-qt's `qtmodeltester` (issue 37, item 7), holding realistic data.

The models are found, not listed: every QAbstractItemModel subclass defined under memgui.gui. The data is the
app's own: the window opened on the review store with a union draft (queue, proxy, guard tokens, alignment) and
the Audit tab on a demo store with a merge, a kept-separate pair, a daemon log and a lossy merge re-checked (audit
rows, exemptions, daemon events, history, timeline, re-check). Every model the widgets hold is checked; a model
class that no widget holds with rows fails the test, so a new model is covered as soon as it is added."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from PySide6.QtCore import QAbstractItemModel, Qt

from test_audit_recheck import lossy  # noqa: F401 - a fixture: a store with a lossy merge
from test_audit_view import trail  # noqa: F401 - a fixture: a demo store with an audit trail and a daemon log
from waits import LONG_MS


def gui_model_classes() -> set[type]:
    import memgui.gui

    found = set()
    for info in pkgutil.walk_packages(memgui.gui.__path__, "memgui.gui."):
        for obj in vars(importlib.import_module(info.name)).values():
            if inspect.isclass(obj) and issubclass(obj, QAbstractItemModel) and obj.__module__.startswith("memgui.gui"):
                found.add(obj)
    return found


def _models(*widgets) -> list[QAbstractItemModel]:
    out = []
    for widget in widgets:
        out += [m for m in widget.findChildren(QAbstractItemModel) if type(m).__module__.startswith("memgui.gui")]
    return out


def test_the_models_are_found():
    names = {c.__name__ for c in gui_model_classes()}
    assert {"AuditTableModel", "GuardTokenModel", "AlignmentModel", "RecheckModel"} <= names, names


@pytest.fixture
def audit_views(qtbot, trail, lossy):  # noqa: F811 - the fixtures imported above
    from memgui.gui.audit.view import AuditView

    made = []
    for store, logs in ((trail[0], True), (lossy[0], False)):
        v = AuditView()
        qtbot.addWidget(v)
        v.resize(1100, 700)
        v.show()
        with qtbot.waitSignals([v.loaded, v.logsLoaded] if logs else [v.loaded], timeout=LONG_MS):
            v.set_store(store)
        made.append(v)
    yield made
    for v in made:
        v.shutdown()


def test_every_gui_model_passes_qtmodeltester_with_real_rows(opened, audit_views, trail, qtbot,  # noqa: F811
                                                              qtmodeltester):
    w = opened
    w.answerer.answer("Replace")
    w.actions_by_key["union"].trigger()  # a body, its guard report and its alignment
    qtbot.waitUntil(lambda: w.review.guard_is_current() and w.guard_panel.token_model.rowCount() > 0,
                    timeout=LONG_MS)
    trail_view, lossy_view = audit_views
    trail_view.tabs.setCurrentIndex(1)  # the daemon log
    trail_view.daemon_page.event_table.selectRow(0)  # its document's history
    with qtbot.waitSignal(trail_view.history_page.shown, timeout=LONG_MS):  # a document's timeline
        trail_view.history_page.show_subject("document", trail[3])
    page = lossy_view.recheck_page
    lossy_view.tabs.setCurrentWidget(page)
    with qtbot.waitSignal(page.rechecked, timeout=LONG_MS):
        qtbot.mouseClick(page.recheck_button, Qt.MouseButton.LeftButton)

    models = _models(w, *audit_views)
    with_rows = set()
    for model in models:
        qtmodeltester.check(model)
        if model.rowCount() > 0:
            with_rows.update(type(model).__mro__)  # a base model (TableModel) is covered by its subclasses
    missing = sorted(c.__qualname__ for c in gui_model_classes() - with_rows)
    assert not missing, f"models no widget holds with rows here (add them to this test's world): {missing}"
