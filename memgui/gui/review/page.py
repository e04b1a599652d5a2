"""The Review tab's widgets: cluster queue, filter and the decision (left), sources + merged body + word diff
(middle), MergeGuard report (right), the action buttons in a row under them. Holds no behaviour: the window fills the queue, the
`Review` controller drives the panels.

Laid out for a laptop first (1366×768; the window's minimum stays under 1280×720): the decision sits under the
queue, which needs less height than it has, so the MergeGuard column keeps its token table readable; every
splitter keeps its panes from collapsing, and `fit` shares a width out between the three columns."""
from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QColor, QFontDatabase, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .alignment_view import AlignmentView
from .cluster_model import BADGES, ClusterFilterProxy, ClusterTableModel
from .decision_panel import DecisionPanel, action_button
from .diff_view import DiffView
from .evidence_panel import EvidencePanel
from .guard_panel import GuardPanel
from .queue_view import QueueView
from .sources_view import CLOSE_COSINE, STRONG_COSINE, SourcesView, cosine_color
from .supersede_panel import SupersedePanel

DEFAULT_SIZE = (1560, 940)
TOKEN_ROWS = 5  # the MergeGuard token table shows at least this many rows
EDITOR_MIN_WIDTH = 180
# The outer columns' share of the width, and their bounds (left: queue + decision; right: MergeGuard).
LEFT_SHARE, LEFT_MIN, LEFT_MAX = 0.28, 300, 560
# The sources' least room when the queue is widened: three panes side by side without a scroll bar.
MIDDLE_ROOM = 600
RIGHT_SHARE, RIGHT_MIN, RIGHT_MAX = 0.27, 340, 440
# The decision's share of the left column's height, and its bounds: a short window (720 px) gives the queue's
# two-line rows the room, a tall one keeps the decision's 300 px.
DECISION_SHARE, DECISION_MIN, DECISION_MAX = 0.42, 210, 300
# Where the person's column widths are kept between runs (QSettings keys).
QUEUE_WIDTH_KEY, GUARD_WIDTH_KEY, LEFT_SPLIT_KEY = "review/queueWidth", "review/guardWidth", "review/queueDecision"


def queue_legend_html() -> str:
    """One line under the queue: what the badges and the pane colours mean."""
    glyphs = " ".join(f"<span style='color:{colour}; font-weight:700'>{'○' if key == 'pending' else glyph}</span> "
                      f"{ {'pending': 'queued', 'same': 'same', 'different': 'different', 'mixed': 'mixed'}[key]}"
                      for key, (glyph, colour, _hint) in BADGES.items())
    bands = (f"<span style='background:{cosine_color(1.0)}; color:white'>&nbsp;≥&nbsp;{STRONG_COSINE:.2f}&nbsp;</span> "
             f"<span style='background:{cosine_color(CLOSE_COSINE)}; color:white'>&nbsp;≥&nbsp;{CLOSE_COSINE:.2f}&nbsp;</span> "
             f"<span style='background:{cosine_color(0.0)}; color:white'>&nbsp;lower&nbsp;</span>")
    return f"<span style='color:#57606a'>Model: {glyphs} · cosine&nbsp;{bands}</span>"


def banner(name: str, fg: str, bg: str) -> QLabel:
    label = QLabel("")
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet(f"QLabel {{ color:{fg}; background:{bg}; padding:5px 8px; font-weight:600; }}")
    label.hide()
    return label


def fit_window(window: QWidget, page: ReviewPage, geometry: object = None, size: tuple[int, int] | None = None,
               settings: QSettings | None = None) -> None:
    """The window's size: `size` if given, else the saved geometry (QSettings' value: a QByteArray, or None when
    none was saved), else 1560×940 within the screen; the Review tab's columns are then shared out for that width,
    or (no `size`) set as `settings` remember them."""
    if size is not None:
        window.resize(*size)
    elif not isinstance(geometry, QByteArray | bytes) or not window.restoreGeometry(geometry):
        width, height = DEFAULT_SIZE
        if QGuiApplication.platformName() != "offscreen":  # offscreen has no real screen to fit
            room = window.screen().availableGeometry()
            width, height = min(width, room.width()), min(height, room.height())
        window.resize(width, height)
    page.fit(window.width())
    if size is None and settings is not None:
        page.restore_layout(settings)  # the queue's width as the person left it


class ReviewPage(QWidget):
    """The panels the `Review` controller works on (its `ReviewPanels`), laid out as the Review tab."""

    def __init__(self, actions: dict[str, QAction], parent: QWidget | None = None):
        super().__init__(parent)
        self.notice_banner = banner("noticeBanner", "#0b4a8b", "#ddf4ff")
        self.cluster_model = ClusterTableModel(self)
        self.proxy = ClusterFilterProxy(self)
        self.proxy.setSourceModel(self.cluster_model)
        self.queue = QueueView(self.proxy)
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("filterEdit")
        self.filter_edit.setPlaceholderText("Filter clusters: full-text search of the store (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.queue_label = QLabel("No store open")
        self.queue_label.setObjectName("queueLabel")
        self.queue_label.setStyleSheet("color:#57606a")
        self.queue_label.setWordWrap(True)
        self.queue_legend = QLabel(queue_legend_html())
        self.queue_legend.setObjectName("queueLegend")
        self.queue_legend.setWordWrap(True)
        self.queue_legend.setTextFormat(Qt.TextFormat.RichText)
        self.queue_legend.setToolTip("The badge before a cluster's status is the model's verdict, decided ahead in "
                                     "the background; the cosine colours are those of the badges on the source "
                                     "panes (display bands, not the nominee threshold).")
        self.sources = SourcesView()
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("mergedEditor")
        self.editor.setPlaceholderText("The merged body goes here: U for the union draft, M to ask the model, or E to "
                                       "write it (Esc goes back to the queue).")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
        self.editor_title = QLabel("Merged body")
        self.editor_title.setObjectName("editorTitle")
        self.editor_title.setStyleSheet("font-weight:600")
        self.editor_title.setWordWrap(True)
        self.diff_view = DiffView()
        self.supersede_panel = SupersedePanel()  # a supersession's reading and timeline (hidden until read)
        self.evidence_panel = EvidencePanel()
        self.compare_tabs = QTabWidget()
        self.compare_tabs.setObjectName("compareTabs")
        self.compare_tabs.setDocumentMode(True)
        self.compare_tabs.addTab(self.diff_view, "Word diff")
        self.compare_tabs.addTab(self.evidence_panel, "Conflicts")
        self.alignment_view = AlignmentView()  # each source sentence beside its body sentence(s), with its fate
        self.compare_tabs.addTab(self.alignment_view, "Alignment")
        self.compare_tabs.setTabToolTip(2, "Each source sentence beside the body sentence(s) it aligns to, with its "
                                           "fate; the pairs to read first (R confirms a restatement)")
        self.guard_panel = GuardPanel()
        self.decision_panel = DecisionPanel(actions["ask"], actions["cancel_model"], actions["union"])
        self._remembered: tuple[int, int] | None = None  # the queue's and MergeGuard's widths from the settings
        self._left_split_own = False  # the queue / decision split is the person's (dragged or restored)
        self._lay_out(actions)
        self.main_splitter.splitterMoved.connect(self._forget_remembered)  # a drag: the person's sizes now
        self.left_splitter.splitterMoved.connect(self._own_left_split)

    def fit(self, width: int) -> None:
        """Share `width` out: the queue and MergeGuard columns get their part (within bounds), the sources the
        rest. Only at start and on an explicit size: later the person's own splitter sizes are kept."""
        self._remembered = None
        self._share_out(width)

    def _share_out(self, width: int) -> None:
        right = int(min(RIGHT_MAX, max(RIGHT_MIN, RIGHT_SHARE * width)))
        # The queue widens with the window (its titles read), but not into the sources' three panes.
        left = int(max(LEFT_MIN, min(LEFT_MAX, LEFT_SHARE * width, width - right - MIDDLE_ROOM)))
        self.main_splitter.setSizes([left, max(1, width - left - right), right])

    def save_layout(self, settings: QSettings) -> None:
        """The person's outer column widths (the queue's, MergeGuard's) and the queue / decision split, kept
        for the next start."""
        sizes = self.main_splitter.sizes()
        settings.setValue(QUEUE_WIDTH_KEY, sizes[0])
        settings.setValue(GUARD_WIDTH_KEY, sizes[2])
        settings.setValue(LEFT_SPLIT_KEY, self.left_splitter.saveState())

    def restore_layout(self, settings: QSettings) -> bool:
        """The widths saved by `save_layout` (True when there were some): held as the window takes its size
        (the sources take the rest), until the person drags a column's edge."""
        left = settings.value(LEFT_SPLIT_KEY)
        if isinstance(left, (bytes, QByteArray)):  # an ini file gives bytes back
            self._left_split_own = self.left_splitter.restoreState(QByteArray(left)) or self._left_split_own
        try:
            queue, guard = int(settings.value(QUEUE_WIDTH_KEY)), int(settings.value(GUARD_WIDTH_KEY))
        except (TypeError, ValueError):
            return False
        self._remembered = (queue, guard)
        self._hold_remembered()
        return True

    def _hold_remembered(self) -> None:
        if self._remembered is not None:
            queue, guard = self._remembered
            width = self.main_splitter.width()
            room = width - 2 * self.main_splitter.handleWidth()
            if room - queue - guard < MIDDLE_ROOM:  # set on a wider screen: the shares of this width, for now
                self._share_out(width)
                return
            self.main_splitter.setSizes([queue, room - queue - guard, guard])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._hold_remembered()  # the splitter has its new width already (the layout goes first)
        self._share_height()

    def _share_height(self) -> None:
        """The queue / decision split for this height, until the person drags it or a saved one is restored."""
        if self._left_split_own:
            return
        total = sum(self.left_splitter.sizes())
        if total > 0:
            decision = int(max(DECISION_MIN, min(DECISION_MAX, DECISION_SHARE * total)))
            self.left_splitter.setSizes([max(1, total - decision), decision])

    def _own_left_split(self, *_args: object) -> None:
        self._left_split_own = True

    def _forget_remembered(self, *_args: object) -> None:
        self._remembered = None

    def evidence_changed(self) -> None:
        """The Conflicts tab's title counts the conflicting values found between the sources."""
        n = self.evidence_panel.conflict_count()
        self.compare_tabs.setTabText(1, f"Conflicts ({n})" if n else "Conflicts")
        self.compare_tabs.tabBar().setTabTextColor(1, QColor("#9a3412" if n else "#24292f"))

    def alignment_changed(self) -> None:
        """The Alignment tab's title counts the pairs left for the reviewer to read."""
        at = self.compare_tabs.indexOf(self.alignment_view)
        n = self.alignment_view.to_read()
        self.compare_tabs.setTabText(at, f"Alignment ({n} to read)" if n else "Alignment")
        self.compare_tabs.tabBar().setTabTextColor(at, QColor("#9a6700" if n else "#24292f"))

    def _lay_out(self, k: dict[str, QAction]) -> None:
        self._lay_out_left()
        self._lay_out_middle()
        right = self._lay_out_right()
        self.main_splitter = _splitter(Qt.Orientation.Horizontal, self.left_splitter, self.middle_splitter, right)
        self.main_splitter.setStretchFactor(1, 1)
        self.fit(DEFAULT_SIZE[0])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.notice_banner)
        lay.addWidget(self.main_splitter, 1)
        lay.addWidget(self._action_bar(k))

    def _lay_out_left(self) -> None:
        """The left column: the queue above the decision (which scrolls when short of height)."""
        queue = QWidget()
        lay = QVBoxLayout(queue)
        lay.setContentsMargins(4, 4, 2, 0)
        lay.addWidget(self.filter_edit)
        lay.addWidget(self.queue, 1)
        lay.addWidget(self.queue_label)
        lay.addWidget(self.queue_legend)
        self.queue.setMinimumHeight(5 * self.queue.verticalHeader().defaultSectionSize())
        # Under the queue the decision has height to spare: the model's reply takes it.
        self.decision_panel.stream.setMaximumHeight(16777215)
        # its preferred height is not asked for: the reply box takes what is left (at least its minimum)
        self.decision_panel.stream.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        # ... all of it: the labels above keep their own height (no blank band under a note or an empty line)
        panel_layout = self.decision_panel.layout()
        if isinstance(panel_layout, QBoxLayout):
            panel_layout.setStretchFactor(self.decision_panel.stream, 1)
        # Never clipped or drawn over: short of height (a laptop, a long warning), the decision scrolls.
        self.decision_scroll = QScrollArea()
        self.decision_scroll.setObjectName("decisionScroll")
        self.decision_scroll.setWidgetResizable(True)
        self.decision_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.decision_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.decision_scroll.setWidget(self.decision_panel)
        self.left_splitter = _splitter(Qt.Orientation.Vertical, queue, self.decision_scroll)
        self.left_splitter.setStretchFactor(0, 1)
        self.left_splitter.setSizes([560, 300])

    def _lay_out_middle(self) -> None:
        """The middle column: the sources above the merged body beside the comparison tabs (and a supersession's
        timeline above both while one is read)."""
        self.editor.setMinimumWidth(EDITOR_MIN_WIDTH)  # the narrowest window still leaves room to write
        merged = QWidget()
        lay = QVBoxLayout(merged)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.editor_title)
        lay.addWidget(self.editor, 1)
        bottom = _splitter(Qt.Orientation.Horizontal, merged, self.compare_tabs)
        bottom.setSizes([500, 500])
        lower = QWidget()  # the supersession's timeline above the body and the diff, while one is read
        lay = QVBoxLayout(lower)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.supersede_panel)
        lay.addWidget(bottom, 1)
        self.middle_splitter = _splitter(Qt.Orientation.Vertical, self.sources, lower)
        self.middle_splitter.setSizes([440, 440])

    def _lay_out_right(self) -> QWidget:
        """The right column: MergeGuard and the strict lens."""
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(2, 4, 4, 4)
        guard_box = QGroupBox("MergeGuard · strict lens")
        QVBoxLayout(guard_box).addWidget(self.guard_panel)
        self.guard_panel.fallback_label.setWordWrap(True)  # a narrow column wraps it rather than widening
        table = self.guard_panel.table
        table.setMinimumHeight(table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
                               + TOKEN_ROWS * table.verticalHeader().defaultSectionSize())
        lay.addWidget(guard_box, 1)
        return right

    @staticmethod
    def _action_bar(k: dict[str, QAction]) -> QWidget:
        """One row under the three columns: undo / redo on the left, the decisions on the right, the primary
        one (Accept) last, in the corner."""
        bar = QWidget()
        bar.setObjectName("actionBar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(4, 2, 4, 4)
        for key in ("undo", "redo", None, "skip", "split", "edit", "keep", "append", "accept"):
            if key is None:
                row.addStretch(1)
                continue
            button = action_button(k[key], primary=key == "accept")
            button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
            button.setMinimumWidth(button.sizeHint().width() + 16)
            row.addWidget(button)
        return bar


def _splitter(orientation: Qt.Orientation, *widgets: QWidget) -> QSplitter:
    """A splitter whose panes never collapse to nothing (a narrow window squeezes them to their minimum)."""
    splitter = QSplitter(orientation)
    for widget in widgets:
        splitter.addWidget(widget)
    splitter.setChildrenCollapsible(False)
    return splitter
