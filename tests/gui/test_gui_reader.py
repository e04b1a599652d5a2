"""The second reader in the guard panel: asked by its button, it runs on a worker (never the GUI thread) with
the one loaded decider, and shows its verdict per source; editing the body makes the verdict stale (cleared). On
the Review tab's panels with fake services (`ReviewBench`), not the window."""
from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from gui_fakes import services_for
from memgui.core.decide.reader import ReaderReport, ReaderVerdict, verdict_line
from memgui.core.tasks import Progress
from waits import LONG_MS


def _fake_reader(calls, lost_index=2, p_lost=0.12):
    def read_merge(decider, sources, body, *, document_ids=(), cancel=None):
        calls.append((threading.current_thread() is threading.main_thread(), decider, list(sources), body,
                      list(document_ids)))
        verdicts = []
        for i, _source in enumerate(sources, 1):
            yield Progress("second reader", i - 1, len(sources), f"source {i}")
            p = p_lost if i == lost_index else 0.91
            verdicts.append(ReaderVerdict(i, p >= 0.5, p, verdict_line(i, p, p >= 0.5), document_ids[i - 1]))
        return ReaderReport(tuple(verdicts), "fake-decider-q4", 0.5, 0.01, len(sources))
    return read_merge


def _open(review_bench, qtbot, services):
    w = review_bench(services)
    w.show("pg-1", "pg-2", cosine=0.96)
    with qtbot.waitSignal(w.review.guardUpdated, timeout=10000, check_params_cb=lambda r: r is not None):
        w.actions["union"].trigger()  # the union draft: a body to read
    return w


def test_the_reader_button_shows_each_sources_verdict_from_a_worker(review_bench, review_store, qtbot, tmp_path):
    calls = []
    services = services_for(review_store)
    services.read_merge = _fake_reader(calls)
    w = _open(review_bench, qtbot, services)
    box = w.guard_panel.reader
    assert box.report is None and box.button.isEnabled() and "not asked" in box.headline.text()
    qtbot.mouseClick(box.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: box.report is not None, timeout=LONG_MS)
    (on_gui_thread, _decider, sources, body, ids), = calls
    assert on_gui_thread is False  # the model work ran on a worker
    assert body == w.editor.toPlainText() and len(sources) == 2
    assert ids == [d.document_id for d in w.review.cluster.ordered_included()]
    assert "✘ Second reader: #" in box.headline.text() and "not kept whole" in box.headline.text()
    lines = box.details.text().splitlines()
    assert lines[0].startswith("✔ #") and "every fact kept (p(yes) 0.91)" in lines[0]
    assert lines[1].startswith("✘ #") and "a fact changed or was dropped (p(yes) 0.12)" in lines[1]
    assert box.details.isVisibleTo(w.page)
    w.page.grab().save(str(tmp_path / "reader.png"))
    # the verdict is about that body: an edit clears it
    w.editor.setPlainText(w.editor.toPlainText() + " Extra.")
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)
    assert box.report is None and "not asked" in box.headline.text()


def test_a_reader_that_keeps_every_source_says_so(review_bench, review_store, qtbot):
    calls = []
    services = services_for(review_store)
    services.read_merge = _fake_reader(calls, lost_index=0)
    w = _open(review_bench, qtbot, services)
    box = w.guard_panel.reader
    qtbot.mouseClick(box.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: box.report is not None, timeout=LONG_MS)
    assert box.headline.text() == "✔ Second reader: every fact of the 2 sources kept"
