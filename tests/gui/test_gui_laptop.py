"""Issue 24, item 3 — a laptop layout that holds: at 1280×720 the target pane is scrolled into view (a big
cluster's default target, and a target moved with Shift+N), the queue's width is the person's and is
remembered, and a status message cut by the status bar's width can be read whole in the messages log."""
from __future__ import annotations

import contextlib
from itertools import pairwise

from PySide6.QtCore import Qt

from gui_fakes import FakeScanner, services_for
from memgui.gui.review.page import fit_window
from waits import LONG_MS, flush

THREE = (("ed-1", "ed-2", "ed-3", 0.95), ("pg-1", "pg-2", 0.93), ("fl-1", "fl-2", 0.91))
SEVEN = (("ed-1", "ed-2", "ed-3", "pg-1", "pg-2", "fl-1", "fl-2", 0.95),)


def _open(make_window, review_store, qtbot, size, clusters=SEVEN):
    w = make_window(services_for(review_store, scanner=FakeScanner(review_store.ids, clusters=clusters)))
    if size is not None:
        fit_window(w, w.page, size=size)
    with qtbot.waitSignal(w.ready, timeout=LONG_MS):
        w.open_located(str(review_store.path))
    return w


def test_at_1280x720_the_target_pane_of_a_seven_member_cluster_is_in_view(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720))
    panes = w.sources.panes()
    assert len(panes) == 7
    scroll = w.sources._scroll
    assert scroll.horizontalScrollBar().maximum() > 0  # seven panes do not fit: they scroll
    for number in (7, 1, 5):
        w.sources.set_target(panes[number - 1].doc.document_id)
        qtbot.waitUntil(w.sources.target_in_view, timeout=LONG_MS)
        assert w.sources.target_id() == panes[number - 1].doc.document_id
    # The next cluster shown: its target in view too, starting from the far right of the last one.
    w.sources.set_target(panes[-1].doc.document_id)
    qtbot.waitUntil(w.sources.target_in_view, timeout=LONG_MS)
    w.review.load(w.review.row)
    qtbot.waitUntil(w.sources.target_in_view, timeout=LONG_MS)


def test_shift_n_moves_the_target_into_view(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720))
    w.queue.setFocus()
    panes = w.sources.panes()
    qtbot.keyClick(w.queue, Qt.Key.Key_Ampersand, Qt.KeyboardModifier.ShiftModifier)  # Shift+7 on a US layout
    if w.sources.target_id() != panes[6].doc.document_id:
        qtbot.keyClick(w.queue, Qt.Key.Key_7, Qt.KeyboardModifier.ShiftModifier)
    assert w.sources.target_id() == panes[6].doc.document_id
    qtbot.waitUntil(w.sources.target_in_view, timeout=LONG_MS)


def test_the_queue_is_resizable_and_its_width_remembered(make_window, review_store, qtbot, qsettings):
    w = _open(make_window, review_store, qtbot, None, clusters=(("ed-1", "ed-2", "ed-3", 0.95),))
    splitter = w.page.main_splitter
    handle = splitter.handle(1)
    assert not splitter.childrenCollapsible() and handle.isVisible()  # a handle to drag
    default = splitter.sizes()[0]
    sizes = splitter.sizes()
    wanted = default + 90
    splitter.setSizes([wanted, sizes[1] - 90, sizes[2]])  # what a drag of the handle does
    qtbot.waitUntil(lambda: splitter.sizes()[0] == wanted, timeout=LONG_MS)
    w.close()
    again = _open(make_window, review_store, qtbot, None, clusters=(("ed-1", "ed-2", "ed-3", 0.95),))
    again.resize(1560, 940)  # offscreen's 800×600 screen shrinks a restored geometry: the size it had

    def remembered():
        assert abs(again.page.main_splitter.sizes()[0] - wanted) <= 2, (again.page.main_splitter.sizes(), wanted)
    qtbot.waitUntil(remembered, timeout=LONG_MS)


def test_a_status_message_cut_at_1280_is_read_whole_in_the_messages_log(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=(("ed-1", "ed-2", "ed-3", 0.95),))
    text = ("Merged 3 documents into #2 “Backblaze B2 backup bucket”; #1 and #3 tombstoned — Ctrl+Z undoes it, "
            "the Audit tab (Ctrl+2) has the entry with its before and after images and the guard's report in full; "
            "the next cluster to review is selected")
    w.show_status(text, 2000)
    bar = w.statusBar()
    assert bar.fontMetrics().horizontalAdvance(text) > bar.width()  # the bar alone cuts it
    assert bar.toolTip() == text
    button = w.message_log
    assert button.isVisible() and w.rect().contains(button.mapTo(w, button.rect().bottomRight()))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(button.view.isVisible, timeout=LONG_MS)
    assert text in button.log_text.toPlainText()
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=LONG_MS)  # gone from the bar, still in the log
    assert button.entries()[-1] == text
    button.view.close()


def test_the_queue_widens_with_the_window_and_keeps_three_panes_whole(make_window, review_store, qtbot):
    from memgui.gui.review.cluster_model import ClusterTableModel as Columns

    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=(("ed-1", "ed-2", "ed-3", 0.95),))
    for size, least in (((1280, 720), 120), ((1366, 768), 175), ((1920, 1080), 240)):
        fit_window(w, w.page, size=size)

        def laid_out(size=size, least=least):
            assert w.sources._scroll.horizontalScrollBar().maximum() == 0, size  # three panes, no scrolling
            assert w.queue.horizontalHeader().sectionSize(Columns.TITLES) >= least, size
        qtbot.waitUntil(laid_out, timeout=LONG_MS)


def test_at_1280x720_the_guard_token_table_shows_every_column_and_the_token(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=(("ed-1", "ed-2", "ed-3", 0.95),))
    w.actions_by_key["union"].trigger()
    qtbot.waitUntil(lambda: w.review.guard_is_current() and w.guard_panel.token_model.rowCount() > 0,
                    timeout=LONG_MS)
    table = w.guard_panel.table

    def every_column_in_view():
        header, room = table.horizontalHeader(), table.viewport().width()
        for col in range(4):
            left = header.sectionViewportPosition(col)
            assert left >= 0 and left + header.sectionSize(col) <= room, (col, left, header.sectionSize(col), room)
        assert header.sectionSize(0) >= 64  # a token such as `castell-restic-offsite` starts readable
        text = table.model().headerData(3, header.orientation())
        assert header.sectionSize(3) >= header.fontMetrics().horizontalAdvance(text) + 8  # its title whole
    qtbot.waitUntil(every_column_in_view, timeout=LONG_MS)


def test_at_laptop_sizes_the_decision_panel_scrolls_rather_than_clips(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=THREE)
    with qtbot.waitSignal(w.review.decisionFinished, timeout=LONG_MS):
        w.actions_by_key["ask"].trigger()
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)
    panel, scroll = w.decision_panel, w.page.decision_scroll
    for size in ((1280, 720), (1366, 768)):
        fit_window(w, w.page, size=size)

        def whole(size=size):
            assert panel.height() >= panel.minimumSizeHint().height(), size  # never squeezed below what it needs
            for label in (panel.rationale_label,):
                assert label.height() >= label.heightForWidth(label.width()), size  # every line of it
        qtbot.waitUntil(whole, timeout=LONG_MS)

        def last_line_in_view(size=size):
            bar = scroll.verticalScrollBar()
            bar.setValue(bar.maximum())  # scrolled to its end, its last line is in view
            bottom = panel.rationale_label.mapTo(scroll.viewport(), panel.rationale_label.rect().bottomLeft())
            assert bottom.y() <= scroll.viewport().height(), (size, bottom.y(), scroll.viewport().height())
        qtbot.waitUntil(last_line_in_view, timeout=LONG_MS)


def test_at_1280x720_no_pane_line_runs_past_its_edge(make_window, review_store, qtbot):
    """Every line of a pane's header wraps inside the pane, with room to spare for a font a little larger than
    the test's (the app's own font cut "updated 2025-02-09 12:00 UT" at a pane's edge at 1280×720): its
    widest unbreakable run is checked, not only its layout at this width."""
    from PySide6.QtGui import QTextDocument, QTextOption

    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=THREE)

    def every_line_inside():
        for pane in w.sources.panes():
            for label in (pane.title_label, pane.meta_label, pane.badges):
                doc = QTextDocument()
                option = doc.defaultTextOption()
                option.setWrapMode(QTextOption.WrapMode.WordWrap)  # as a QLabel wraps: at word boundaries only
                doc.setDefaultTextOption(option)
                doc.setDefaultFont(label.font())
                doc.setHtml(label.text())
                doc.setDocumentMargin(0)
                doc.setTextWidth(label.width())
                assert doc.idealWidth() <= label.width() + 1, (pane.number, label.text(), doc.idealWidth(),
                                                               label.width())
                doc.setTextWidth(1)  # every run on a line of its own: the widest one
                assert doc.idealWidth() <= label.width() - 20, (pane.number, label.text(), doc.idealWidth(),
                                                                label.width())
    qtbot.waitUntil(every_line_inside, timeout=LONG_MS)


def test_the_decision_panels_room_goes_to_the_reply_box_not_to_blank_bands(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1366, 768), clusters=THREE)
    panel = w.decision_panel
    panel.set_mark("Note: 4 differences in wording between the sources (Conflicts tab)")
    mark = panel.mark_label

    def no_blank_bands():
        assert mark.height() <= mark.heightForWidth(mark.width()) + 8, (mark.height(),
                                                                        mark.heightForWidth(mark.width()))
        if not panel.model_label.text():
            assert panel.model_label.height() <= panel.model_label.fontMetrics().height() + 4
        assert panel.stream.height() > panel.stream.minimumHeight()  # the room left is the reply box's
    qtbot.waitUntil(no_blank_bands, timeout=LONG_MS)


def test_at_1280x720_a_long_note_and_the_models_groups_are_never_drawn_over_or_cut(make_window, review_store,
                                                                                   qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=THREE)
    # the cluster's own conflicts run first (it sets the note when it ends): the notes below are the last word
    qtbot.waitUntil(lambda: not w.review.runner.busy("evidence"), timeout=LONG_MS)
    panel = w.decision_panel
    panel.set_mark("⚠ Likely different facts: notes 1 and 2 state the same thing differently: number 27 vs 33. "
                   "Check the conflicts before merging.\n⚠ #1 and #2 disagree on $340/month vs $410/month; "
                   "2026-03-01 vs 2026-09-01")
    panel.set_groups("<b>Every pair judged a different fact</b> · apart: #1 #2<br>judged by the model, pair by pair "
                     "(1 pair)<br>#1 and #2 kept apart: they disagree on $340/month vs $410/month; 2026-03-01 vs "
                     "2026-09-01")
    panel.set_model_text("qwen2.5-coder-1.5b-instruct-q4_k_m · decided ahead · M asks again")
    shown = [x for x in (panel.mark_label, panel.groups_label, panel.model_label, panel.stream) if x.isVisible()]

    def laid_out() -> bool:
        return all(upper.geometry().bottom() < lower.geometry().top() for upper, lower in pairwise(shown)) and all(
            label.height() >= label.heightForWidth(label.width()) for label in shown[:-1])
    with contextlib.suppress(Exception):  # the layout settles on the event loop: on a busy machine, later
        qtbot.waitUntil(laid_out, timeout=LONG_MS)
    for upper, lower in pairwise(shown):
        assert upper.geometry().bottom() < lower.geometry().top(), (upper.objectName(), lower.objectName())
    for label in shown[:-1]:
        assert label.height() >= label.heightForWidth(label.width()), (label.objectName(), label.height())
    assert w.page.decision_scroll.verticalScrollBar().maximum() > 0  # it scrolls instead


def test_a_note_that_gets_shorter_gives_its_room_back(make_window, review_store, qtbot):
    w = _open(make_window, review_store, qtbot, (1280, 720), clusters=THREE)
    panel = w.decision_panel
    long = ("⚠ Likely different facts: notes 1 and 2 state the same thing differently: number 27 vs 33.\n"
            "⚠ #1 and #2 disagree on $340/month vs $410/month; 2026-03-01 vs 2026-09-01\n"
            "Pre-selected: #1 only — the others disagree with it (1–9 to check one anyway)")
    panel.set_mark(long)
    mark = panel.mark_label
    qtbot.waitUntil(lambda: mark.height() >= max(mark.heightForWidth(mark.width()),  # every line of it shows
                                                 3 * mark.fontMetrics().lineSpacing()), timeout=LONG_MS)
    tall = mark.height()
    panel.set_mark("⚠ #1 and #2 disagree on $340/month")

    def room_given_back():
        assert mark.height() < tall
        assert mark.height() <= mark.fontMetrics().lineSpacing() * 2 + 2 * mark.margin() + 4, mark.height()
    qtbot.waitUntil(room_given_back, timeout=LONG_MS)


def test_widths_remembered_on_a_wide_screen_give_way_on_a_laptop(make_window, review_store, qtbot, qsettings):
    from memgui.gui.review.page import GUARD_WIDTH_KEY, LEFT_MIN, QUEUE_WIDTH_KEY, RIGHT_MIN

    qsettings.setValue(QUEUE_WIDTH_KEY, 560)
    qsettings.setValue(GUARD_WIDTH_KEY, 440)
    w = _open(make_window, review_store, qtbot, None, clusters=THREE)
    w.resize(1280, 720)

    def given_way():
        queue, _middle, guard = w.page.main_splitter.sizes()
        assert queue >= LEFT_MIN and guard >= RIGHT_MIN
        assert w.sources._scroll.horizontalScrollBar().maximum() == 0  # the three panes side by side
    qtbot.waitUntil(given_way, timeout=LONG_MS)
    w.resize(1920, 1080)
    qtbot.waitUntil(lambda: w.page.main_splitter.sizes()[0] == 560, timeout=LONG_MS)  # the person's width again


# ---- queue titles and the word-diff picker read whole at laptop sizes (the demo's own titles) ------------------

DEMO_TITLES = {
    "jp-1": ("Jun Park — atlas-sync co-maintainer", "jun-park", "Jun Park co-maintains atlas-sync since 2024."),
    "jp-2": ("Who co-maintains atlas-sync", "atlas-sync", "atlas-sync is co-maintained by Jun Park."),
    "rw-1": ("Routewise price plans", "routewise", "Routewise costs €29 a month on the Team plan."),
    "rw-2": ("Routewise pricing tiers", "routewise-pricing", "Routewise: Team plan €29/month, Pro €79/month."),
    "rw-3": ("How much Routewise costs", "routewise-cost", "Routewise is €29 per month (Team)."),
    "ob-1": ("Offsite backups with restic", "backups", "Offsite backups: restic to the B2 bucket at 03:30."),
    "ob-2": ("Backblaze B2 backup bucket", "backblaze-b2", "The B2 bucket holds the restic repo (03:30)."),
    "in-1": ("Incident 2025-07-14: dispatch backlog", "incident", "Dispatch backlog on 2025-07-14, 40 min."),
    "in-2": ("July dispatch-worker outage", "incident-july", "The dispatch worker stalled on 2025-07-14."),
}
DEMO_CLUSTERS = (("jp-1", "jp-2", 0.908), ("rw-1", "rw-2", "rw-3", 0.898), ("ob-1", "ob-2", 0.887),
                 ("in-1", "in-2", 0.891), *THREE)


def _open_demo_titles(make_window, review_store, qtbot, size):
    from gui_fakes import add_documents

    add_documents(review_store, DEMO_TITLES)
    return _open(make_window, review_store, qtbot, size, clusters=DEMO_CLUSTERS)


def _titles_shown(queue, text: str) -> str:
    """The part of `text` the Titles cell shows whole: the words on the lines the row's height holds, laid out
    at the cell's width as the view's delegate lays them out (word wrap; one line when the queue does not wrap)."""
    from PySide6.QtGui import QTextLayout, QTextOption
    from PySide6.QtWidgets import QStyle

    from memgui.gui.review.cluster_model import ClusterTableModel as Columns

    margin = queue.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, queue) + 1
    width = queue.horizontalHeader().sectionSize(Columns.TITLES) - 2 * margin
    lines = queue.verticalHeader().defaultSectionSize() // queue.fontMetrics().lineSpacing() if queue.wordWrap() else 1
    layout = QTextLayout(text, queue.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    shown = 0
    for _ in range(lines):
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        if line.naturalTextWidth() <= width:
            shown = line.textStart() + line.textLength()
    layout.endLayout()
    return text[:shown]


def test_at_laptop_sizes_every_cluster_s_first_title_reads_whole_in_the_queue(make_window, review_store, qtbot):
    from memgui.gui.review.cluster_model import ClusterTableModel as Columns

    w = _open_demo_titles(make_window, review_store, qtbot, (1280, 720))
    queue = w.queue
    for size in ((1280, 720), (1366, 768)):
        fit_window(w, w.page, size=size)

        def whole(size=size):
            for row in w.cluster_model.rows():
                shown = _titles_shown(queue, row.titles_text)
                assert shown.startswith(row.titles[0]), (size, row.titles_text, shown)
                if len(row.titles_text) > 40:
                    assert len(shown.strip()) >= 40, (size, row.titles_text, shown)  # more than the first title
                tip = w.cluster_model.data(w.cluster_model.index(w.cluster_model.row_of(row.cluster_id),
                                                                 Columns.TITLES), Qt.ItemDataRole.ToolTipRole)
                assert all(t in tip for t in row.titles)  # the rest, whole, on hover
            # the four values stay in view: status (under the cosine, the compact queue), cosine, size and titles
            header = queue.horizontalHeader()
            for col in (Columns.COSINE, Columns.SIZE, Columns.TITLES):
                left = header.sectionViewportPosition(col)
                assert not header.isSectionHidden(col) and left >= 0
                assert left + header.sectionSize(col) <= queue.viewport().width()
            assert queue.compact and header.isSectionHidden(Columns.STATUS)
        qtbot.waitUntil(whole, timeout=LONG_MS)
    fit_window(w, w.page, size=(1920, 1080))  # room for one-line titles: every column, one line a row

    def one_line_a_row():
        assert not w.queue.compact and not w.queue.horizontalHeader().isSectionHidden(Columns.STATUS)
        assert w.queue.verticalHeader().defaultSectionSize() < 2 * w.queue.fontMetrics().lineSpacing()
    qtbot.waitUntil(one_line_a_row, timeout=LONG_MS)


def test_the_compact_queue_shows_each_cluster_s_status_under_its_cosine(make_window, review_store, qtbot):
    """The status column folds into the Cosine cell: the model's badge on the first line, the status drawn in its
    colour on the second."""
    from PySide6.QtGui import QColor

    from memgui.gui.review.cluster_model import BADGES, STATUS_COLORS, ClusterTableModel as Columns

    w = _open_demo_titles(make_window, review_store, qtbot, (1280, 720))
    queue = w.queue
    assert queue.compact
    target = next(r for r in w.cluster_model.rows() if r.titles[0].startswith("Routewise"))
    w.cluster_model.set_status(target.cluster_id, "skipped")
    queue.setFocus()
    w.select_cluster(w.cluster_model.rows()[0].cluster_id)  # another row is selected: this one is not highlighted
    qtbot.waitUntil(lambda: w.review.row is w.cluster_model.rows()[0], timeout=LONG_MS)

    def cell():
        row = queue.model().mapFromSource(w.cluster_model.index(w.cluster_model.row_of(target.cluster_id), 0)).row()
        return queue.visualRect(queue.model().index(row, Columns.COSINE))
    qtbot.waitUntil(lambda: queue.viewport().rect().contains(cell()), timeout=LONG_MS)
    flush()  # the selection's repaint done before the cell is grabbed
    rect = cell()
    w.cluster_model.set_badges({frozenset(target.member_ids): "same"})  # the model's verdict, decided ahead
    image = queue.viewport().grab(rect).toImage()  # painted now (the window's own queue may reset the badges later)
    line = queue.fontMetrics().lineSpacing()
    skipped, same = QColor(STATUS_COLORS["skipped"]), QColor(BADGES["same"][1])

    def near(wanted: QColor):
        return lambda c: abs(c.red() - wanted.red()) + abs(c.green() - wanted.green()) + abs(
            c.blue() - wanted.blue()) < 60

    lower = [image.pixelColor(x, y) for x in range(image.width()) for y in range(line + 2, image.height())]
    upper = [image.pixelColor(x, y) for x in range(image.width()) for y in range(0, line)]
    assert sum(map(near(skipped), lower)) >= 10 and sum(map(near(skipped), upper)) == 0  # the status, second line
    assert sum(map(near(same), upper)) >= 20  # the badge, first line


def test_j_keeps_the_current_cluster_in_view_in_the_compact_queue(make_window, review_store, qtbot):
    w = _open_demo_titles(make_window, review_store, qtbot, (1280, 720))
    queue = w.queue
    queue.setFocus()
    for step in range(len(DEMO_CLUSTERS) - 1):
        qtbot.keyClick(queue, Qt.Key.Key_J)

        def current_in_view(step=step):
            current = queue.currentIndex()
            assert current.row() == step + 1
            rect = queue.visualRect(current.siblingAtColumn(1))
            assert queue.viewport().rect().contains(rect), (current.row(), rect, queue.viewport().rect())
        qtbot.waitUntil(current_in_view, timeout=LONG_MS)
    assert queue.currentIndex().row() == len(DEMO_CLUSTERS) - 1


def test_at_1280x720_the_word_diff_picker_shows_its_choice_whole(make_window, review_store, qtbot):
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    w = _open_demo_titles(make_window, review_store, qtbot, (1280, 720))
    row = next(r for r in w.cluster_model.rows() if r.titles[0] == "Offsite backups with restic")
    w.select_cluster(row.cluster_id)
    qtbot.waitUntil(lambda: w.review.row is row, timeout=LONG_MS)
    w.actions_by_key["union"].trigger()
    qtbot.waitUntil(lambda: w.review.guard_is_current(), timeout=LONG_MS)
    combo = w.diff_view.combo
    for i in range(combo.count()):
        combo.setCurrentIndex(i)

        def whole():
            option = QStyleOptionComboBox()
            combo.initStyleOption(option)
            field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                                 QStyle.SubControl.SC_ComboBoxEditField, combo)
            text = combo.currentText()
            assert combo.fontMetrics().horizontalAdvance(text) <= field.width(), (text, field.width())
            assert text in combo.toolTip()
        qtbot.waitUntil(whole, timeout=LONG_MS)
    assert any("Offsite backups with restic" in combo.itemText(i) for i in range(combo.count()))


def test_the_compact_queue_stays_compact_while_its_width_holds(make_window, review_store, qtbot):
    """Folding the Status column away must not make the queue look wide enough to unfold it (a hidden column
    measures 0): at one width the queue keeps one form, however often it is laid out."""
    from memgui.gui.review.queue_view import FIXED, ONE_LINE_TITLE_CHARS

    w = _open_demo_titles(make_window, review_store, qtbot, (1560, 940))
    queue, splitter = w.queue, w.page.main_splitter
    one_line = sum(width for _, width in FIXED) + ONE_LINE_TITLE_CHARS * queue.fontMetrics().averageCharWidth()
    sizes = splitter.sizes()
    # a queue just short of one-line titles: narrower than Status + Cosine + Size + titles, wider than the rest
    wanted = sizes[0] + (one_line - 30) - queue.viewport().width()
    splitter.setSizes([wanted, sizes[1] + sizes[0] - wanted, sizes[2]])

    def just_short():
        assert one_line - 84 < queue.viewport().width() < one_line, (queue.viewport().width(), one_line)
        assert queue.compact
    qtbot.waitUntil(just_short, timeout=LONG_MS)
    for step in range(4):
        queue.resize(queue.width(), queue.height() + (1 if step % 2 else -1))  # laid out again, same width
        flush()  # every layout that resize asked for, done
        assert queue.compact, step
