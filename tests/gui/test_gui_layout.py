"""The window fits a laptop: its minimum size is at most 1280×720, and at 1366×768 the source panes' choices
are whole, the MergeGuard token table shows several rows, the rationale has room and the queue keeps its
Status / Cosine / Size / Titles (the status under the cosine when the queue is compact) — also after restoring a narrow saved geometry."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect

from gui_fakes import FakeScanner, services_for
from memgui.gui.review.cluster_model import ClusterTableModel as Columns
from memgui.gui.review.page import TOKEN_ROWS, fit_window
from waits import LONG_MS, flush

THREE = (("ed-1", "ed-2", "ed-3", 0.95), ("pg-1", "pg-2", 0.93), ("fl-1", "fl-2", 0.91))
QUEUE_COLUMNS = (Columns.STATUS, Columns.COSINE, Columns.SIZE, Columns.TITLES)


def _open(make_window, review_store, qtbot, size=None, clusters=THREE):
    w = make_window(services_for(review_store, scanner=FakeScanner(review_store.ids, clusters=clusters)))
    if size is not None:
        fit_window(w, w.page, size=size)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def _with_a_decision(w, qtbot):
    """The model's decision on the cluster: body, guard report (tokens, strict lens), rationale."""
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions_by_key["ask"].trigger()
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)


def _queue_columns_in_view(w) -> None:
    """Status, Cosine, Size and Titles in view: as columns, or (a compact, narrow queue) the status drawn under
    the cosine in the Cosine cell."""
    header, room = w.queue.horizontalHeader(), w.queue.viewport().width()
    for col in QUEUE_COLUMNS:
        if col == Columns.STATUS and w.queue.compact:
            assert header.isSectionHidden(col)
            assert w.queue.itemDelegateForColumn(Columns.COSINE) is not None
            assert w.queue.verticalHeader().defaultSectionSize() >= 2 * w.queue.fontMetrics().lineSpacing()
            continue
        assert not header.isSectionHidden(col)
        left = header.sectionViewportPosition(col)
        assert left >= 0 and left + header.sectionSize(col) <= room, (col, left, header.sectionSize(col), room)
    assert header.sectionSize(Columns.TITLES) >= 100  # a title's first words, not a sliver


def test_the_minimum_size_fits_a_1280x720_screen(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot)
    _with_a_decision(w, qtbot)
    flush()  # the layout the decision asked for

    def fits():
        for size in (w.minimumSizeHint(), w.minimumSize()):
            assert size.width() <= 1280 and size.height() <= 720, size
    qtbot.waitUntil(fits, timeout=LONG_MS)


def test_at_1366x768_choices_token_rows_rationale_and_queue_columns_are_in_view(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, size=(1366, 768))
    _with_a_decision(w, qtbot)
    assert (w.width(), w.height()) == (1366, 768)

    def in_view():
        panes = w.sources.panes()
        assert len(panes) == 3
        viewport = w.sources._scroll.viewport()
        for pane in panes:
            for button in (pane.include_box, pane.target_radio):
                assert pane.rect().contains(button.geometry()), (pane.number, button.text(), button.geometry(),
                                                                 pane.rect())
                assert button.width() >= button.sizeHint().width()  # not squeezed
                corner = button.mapTo(viewport, QPoint(0, 0))
                assert viewport.rect().contains(QRect(corner, button.size())), (pane.number, button.text())
        table = w.guard_panel.table
        assert table.viewport().height() >= TOKEN_ROWS * table.verticalHeader().defaultSectionSize()
        assert table.isVisibleTo(w)
        rationale = w.decision_panel.rationale_label
        assert rationale.isVisibleTo(w) and rationale.text() != "—" and rationale.width() >= 200
        assert rationale.height() >= rationale.heightForWidth(rationale.width())  # every line of it shows
        _queue_columns_in_view(w)
    qtbot.waitUntil(in_view, timeout=LONG_MS)


def test_four_sources_at_1366_keep_their_choices_whole(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, size=(1366, 768), clusters=(("ed-1", "ed-2", "ed-3", "pg-1", 0.95),))
    for pane in w.sources.panes():
        assert pane.rect().contains(pane.include_box.geometry()) and pane.rect().contains(pane.target_radio.geometry())


def test_a_narrow_saved_geometry_keeps_the_queue_columns(make_window, review_store, qtbot, qsettings):
    w = _open(make_window, review_store, qtbot)
    w.resize(700, 500)  # narrower than the minimum: held at it
    flush()  # the resize done before the geometry is saved
    w.close()
    assert qsettings.value("window/geometry") is not None
    again = _open(make_window, review_store, qtbot)
    assert again.width() <= 1280
    assert again.page.main_splitter.sizes()[0] >= again.queue.minimumWidth()
    qtbot.waitUntil(lambda: _queue_columns_in_view(again), timeout=LONG_MS)


def test_size_option_sets_the_window_and_screenshot_size():
    from memgui.__main__ import build_parser

    assert build_parser().parse_args(["--size", "1366x768"]).size == (1366, 768)
