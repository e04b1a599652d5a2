"""The sources of the selected cluster, side by side (an N-pane view): title, id, anchor, updated,
update_semantics, pairwise cosine badges, the body with MergeGuard's missing tokens highlighted, and per
member "include" / "target" choices."""
from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QResizeEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..services.types import Document
from ..services.values import format_timestamp
from ..style import MUTED, set_colors

MISSING_BG = QColor("#ffc9c9")
MISSING_FG = QColor("#7d0a0a")
# The strict lens's at-risk facts (MergeGuard passed them or does not look for them): amber, not red.
AT_RISK_BG = QColor("#ffe08a")
AT_RISK_FG = QColor("#5c3b00")
# Same-fact groups (judged by the model): one colour per group, largest first; members alone are grey.
GROUP_COLORS = ("#0969da", "#8250df", "#bf3989", "#1b7c83", "#9a6700", "#cf222e", "#116329")
ALONE_COLOR = "#6e7781"
PANE_MIN_WIDTH = 190
# Badge colour bands of a pair's cosine (display only: not MergeGuard's retention bar, not the nominee threshold).
STRONG_COSINE, CLOSE_COSINE = 0.95, 0.9


BADGE_LEGEND = (f"Badge colours: green ≥ {STRONG_COSINE:.2f} (very close), blue ≥ {CLOSE_COSINE:.2f} (close), grey "
                "below. Display bands only: not MergeGuard's bar and not the nominee threshold.")
GROUP_TIP = ("The model judged every pair of members “same fact?”. A group (A, B, …) holds members judged the same "
             "fact as each other — A, the largest, is the one the merge is drafted for; “apart” is a member judged "
             "a different fact from every other one.")


def format_ms(ms: int | None) -> str:
    """A time stamp as the whole window shows it (netfx N10: local time with its UTC offset); "—" for none."""
    return format_timestamp(ms, empty="—")


SAME_ANCHOR = "&nbsp;·&nbsp;same&nbsp;anchor"  # beside a badge's cosine: both documents sit under one anchor (nominated together)


def cosine_color(value: float) -> str:
    if value >= STRONG_COSINE:
        return "#1a7f37"
    if value >= CLOSE_COSINE:
        return "#2f6f9f"
    return "#6e7781"


class SourcePane(QFrame):
    """One document of the cluster. Panes are reused from cluster to cluster (`set_doc`), so moving through
    the queue creates no widgets."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.number = 0
        self._missing = 0  # MergeGuard's missing-token occurrences highlighted
        self.at_risk = 0  # the strict lens's at-risk occurrences highlighted
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(3)
        layout.addLayout(self._choices())
        self._add_labels(layout)
        self.body = QPlainTextEdit()
        self.body.setReadOnly(True)
        self.body.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout.addWidget(self.body, 1)
        self.missing_label = QLabel("")
        set_colors(self.missing_label, "#7d0a0a")
        self.missing_label.setWordWrap(True)
        layout.addWidget(self.missing_label)
        self.include_box.toggled.connect(self._dim)
        self.setMinimumWidth(max(PANE_MIN_WIDTH, layout.minimumSize().width()))

    def _choices(self) -> QHBoxLayout:
        """The pane's number, include and target. The choices on a row of their own: a narrow pane wraps its
        title, never clips "include"."""
        top = QHBoxLayout()
        top.setSpacing(8)
        self.number_label = QLabel()
        self.include_box = QCheckBox("include")
        self.target_radio = QRadioButton("target")
        for button in (self.include_box, self.target_radio):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click leaves the focus on the queue
        top.addWidget(self.number_label)
        top.addWidget(self.include_box)
        top.addWidget(self.target_radio)
        top.addStretch(1)
        return top

    def _add_labels(self, layout: QVBoxLayout) -> None:
        """The title, the same-fact group, the id, the metadata and the cosine badges."""
        self.title_label = QLabel()
        self.title_label.setWordWrap(True)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title_label)
        self.group_label = QLabel("")
        self.group_label.setObjectName("factGroupLabel")
        self.group_label.hide()
        layout.addWidget(self.group_label)
        # The id on a line of its own, shortened in the middle when the pane is narrower (the tooltip has it
        # whole): a 36-character id cannot wrap, and wrapped with the rest it hid the lines after it.
        self.id_label = QLabel()
        self.id_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.id_label.setMinimumWidth(1)
        set_colors(self.id_label, MUTED)
        layout.addWidget(self.id_label)
        self.meta_label = QLabel()
        self.meta_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta_label.setWordWrap(True)
        layout.addWidget(self.meta_label)
        self.badges = QLabel()
        self.badges.setObjectName("cosineBadges")
        self.badges.setTextFormat(Qt.TextFormat.RichText)
        self.badges.setWordWrap(True)  # many members: the badges wrap instead of widening the pane
        layout.addWidget(self.badges)

    @property
    def doc_id(self) -> str:
        """The id of the document on show ("" before the first `set_doc`)."""
        return self.doc.document_id if self.doc is not None else ""

    def set_doc(self, number: int, doc: Document, badges: Sequence[tuple[int, float]],
                same: Set[int] = frozenset()) -> None:
        self.doc, self.number = doc, number
        self.setObjectName(f"sourcePane{number}")
        self.body.setObjectName(f"sourceBody{number}")
        tomb = " <span style='color:#cf222e'>(tombstoned)</span>" if doc.is_tombstoned else ""
        self.number_label.setText(f"<b>#{number}</b>")
        self.title_label.setText(f"<b>{_esc(doc.title) or '<i>(untitled)</i>'}</b>{tomb}")
        self.include_box.setToolTip(f"Take part in this merge (unchecked members are left untouched) — key {number}")
        self.target_radio.setToolTip(f"Keep this document's id; the other included members are tombstoned "
                                     f"— Shift+{number}")
        self.id_label.setToolTip(doc.document_id)
        self._elide_id()
        # The time stays whole on its line; "updated" may end the line before it (a narrow pane at 1280×720
        # cut "updated 2025-02-09 12:00 UT" at its edge, the whole of it being one unbreakable word).
        updated = format_ms(doc.updated_at).replace(" ", "&nbsp;")
        self.meta_label.setText(f"<span style='color:{MUTED}'>{_esc(doc.anchor_id)} · {_esc(doc.update_semantics)} · "
                                f"updated {updated}</span>")
        self.badges.setText("&nbsp;".join(
            f"<span style='background-color:{cosine_color(c)}; color:white'>&nbsp;↔ #{other} {c:.3f}"
            f"{SAME_ANCHOR if other in same else ''}&nbsp;</span>"
            for other, c in badges))
        self.badges.setToolTip("\n".join(f"cosine similarity of #{number} and #{o}: {c:.3f}"
                                         + (" — same anchor: nominated together whatever the cosine" if o in same else "")
                                         for o, c in badges) + f"\n\n{BADGE_LEGEND}")
        self.badges.setVisible(bool(badges))
        self.body.setPlainText(doc.markdown_body)
        self.body.setExtraSelections([])
        self.missing_label.setText("")
        self._missing = self.at_risk = 0
        self.set_group("", "")
        self.include_box.blockSignals(True)
        self.include_box.setChecked(not doc.is_tombstoned)
        self.include_box.blockSignals(False)
        self._dim(self.include_box.isChecked())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide_id()

    def _elide_id(self) -> None:
        if self.doc is not None:
            self.id_label.setText(self.id_label.fontMetrics().elidedText(
                self.doc.document_id, Qt.TextElideMode.ElideMiddle, max(40, self.contentsRect().width() - 12)))

    def _dim(self, included: bool) -> None:
        self.body.setEnabled(included)
        self.target_radio.setEnabled(included)

    def set_group(self, text: str, color: str) -> None:
        """The same-fact group this member was judged into ("" hides the label)."""
        self.group_label.setText(text)
        self.group_label.setStyleSheet(
            f"QLabel {{ color:white; background:{color}; padding:1px 6px; font-weight:600; }}" if text else "")
        self.group_label.setToolTip(GROUP_TIP if text else "")
        self.group_label.setVisible(bool(text))

    def _selections(self, spans: Sequence[tuple[int, int]], bg: QColor, fg: QColor) -> list[QTextEdit.ExtraSelection]:
        fmt = QTextCharFormat()
        fmt.setBackground(bg)
        fmt.setForeground(fg)
        fmt.setFontWeight(QFont.Weight.Bold)
        length = self.body.document().characterCount() - 1
        selections = []
        for start, end in spans:
            start, end = max(0, start), min(length, end)
            if end <= start:
                continue
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.body.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format = fmt
            selections.append(sel)
        return selections

    def set_missing(self, spans: Sequence[tuple[int, int]], at_risk: Sequence[tuple[int, int]] = ()) -> None:
        """MergeGuard's missing tokens (red) and the strict lens's at-risk facts (amber) in this body."""
        missing = self._selections(spans, MISSING_BG, MISSING_FG)
        risky = self._selections(at_risk, AT_RISK_BG, AT_RISK_FG)
        self._missing = len(missing)
        self.at_risk = runs([(c.cursor.selectionStart(), c.cursor.selectionEnd()) for c in risky])
        self.body.setExtraSelections(risky + missing)  # missing drawn last: red wins where both apply
        parts = []
        if missing:
            parts.append(f"{len(missing)} missing token occurrence(s) (red)")
        if risky:
            parts.append(f"{self.at_risk} at risk, strict lens (amber)")
        self.missing_label.setText(" · ".join(parts))
        set_colors(self.missing_label, "#7d0a0a" if missing else "#5c3b00")

    def missing_count(self) -> int:
        return self._missing


def runs(spans: Sequence[tuple[int, int]]) -> int:
    """Highlights as the eye counts them: spans that touch or overlap (`02:00` and `UTC`) are one."""
    count, end = 0, -2
    for start, stop in sorted(spans):
        if start > end + 1:
            count += 1
        end = max(end, stop)
    return count


def _esc(text: str) -> str:
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class SourcesView(QWidget):
    """Holds one SourcePane per document of the selected cluster."""

    selectionChanged = Signal()  # include boxes or the target changed
    choiceClicked = Signal()  # the person clicked an include box or a target button

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sourcesView")
        self._panes: list[SourcePane] = []  # shown, in order
        self._pool: list[SourcePane] = []  # every pane made so far (reused)
        self._group = QButtonGroup(self)
        self._group.setExclusive(True)
        self._group.buttonToggled.connect(lambda *_: self.selectionChanged.emit())
        self._group.buttonToggled.connect(lambda _b, on: on and self._follow.start())
        # The target pane is kept in view (a narrow window or a big cluster scrolls the panes): after the
        # layout has settled, so the pane's place is known.
        self._follow: QTimer = QTimer(self)
        self._follow.setSingleShot(True)
        self._follow.setInterval(0)
        self._follow.timeout.connect(self.show_target)
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._splitter = QSplitter(Qt.Orientation.Horizontal)
        self._splitter.setChildrenCollapsible(False)
        self._scroll.setWidget(self._splitter)
        self._empty = QLabel("Select a cluster on the left (J / K to move).")
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        set_colors(self._empty, "#57606a")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._empty)
        layout.addWidget(self._scroll)
        self._scroll.hide()
        self.prepare(3)

    def prepare(self, count: int) -> None:
        """Make `count` panes ahead of time (hidden), so the first cluster shows without building widgets."""
        while len(self._pool) < count:
            pane = SourcePane()
            self._group.addButton(pane.target_radio)
            pane.include_box.toggled.connect(self._on_include)
            pane.include_box.clicked.connect(self.choiceClicked)
            pane.target_radio.clicked.connect(self.choiceClicked)
            pane.hide()
            self._splitter.addWidget(pane)
            self._pool.append(pane)

    def clear(self) -> None:
        for pane in self._panes:
            pane.hide()
        self._panes = []
        self._scroll.hide()
        self._empty.show()

    def set_documents(self, docs: Sequence[Document], cosines: Mapping[frozenset[str], float],
                      target_id: str | None) -> None:
        self.clear()
        self.prepare(len(docs))
        numbers = {doc.document_id: i + 1 for i, doc in enumerate(docs)}
        for pane, doc in zip(self._pool, docs):
            badges = []
            for other in docs:
                if other.document_id == doc.document_id:
                    continue
                cosine = cosines.get(frozenset((doc.document_id, other.document_id)))
                if cosine is not None:
                    badges.append((numbers[other.document_id], cosine))
            same = {numbers[o.document_id] for o in docs if o is not doc and o.anchor_id == doc.anchor_id}
            pane.set_doc(numbers[doc.document_id], doc, badges, same)
            pane.show()
            self._panes.append(pane)
        self._group.setExclusive(False)
        for pane in self._pool:
            pane.target_radio.setChecked(pane in self._panes and pane.doc_id == target_id)
        self._group.setExclusive(True)
        self._splitter.setSizes([1000 if p in self._panes else 0 for p in self._pool])
        self._empty.hide()
        self._scroll.show()
        self._scroll.horizontalScrollBar().setValue(0)
        self._follow.start()

    def show_target(self) -> None:
        """Scroll the panes so the target's is in view (whole when it fits the viewport)."""
        pane = next((p for p in self._panes if p.target_radio.isChecked()), None)
        if pane is None or not self._scroll.isVisible():
            return
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the panes' places, now
        self._scroll.ensureWidgetVisible(pane, 0, 0)

    def target_in_view(self) -> bool:
        """The target pane lies whole inside the visible part of the panes (what a test asks)."""
        pane = next((p for p in self._panes if p.target_radio.isChecked()), None)
        if pane is None:
            return False
        viewport = self._scroll.viewport()
        corner = pane.mapTo(viewport, pane.rect().topLeft())
        return viewport.rect().contains(pane.rect().translated(corner))

    def _on_include(self, checked: bool) -> None:
        # The target must be included; moving the target off an excluded pane keeps the plan valid.
        target = self.target_id()
        included = self.included_ids()
        if target not in included and included:
            for pane in self._panes:
                if pane.doc_id in included:
                    pane.target_radio.setChecked(True)
                    break
        self.selectionChanged.emit()

    # ---- queries ------------------------------------------------------------------------------------

    def panes(self) -> list[SourcePane]:
        return list(self._panes)

    def pane_for(self, document_id: str) -> SourcePane | None:
        return next((p for p in self._panes if p.doc_id == document_id), None)

    def included_ids(self) -> list[str]:
        return [p.doc_id for p in self._panes if p.include_box.isChecked()]

    def target_id(self) -> str | None:
        return next((p.doc_id for p in self._panes if p.target_radio.isChecked()), None)

    def set_target(self, document_id: str) -> None:
        pane = self.pane_for(document_id)
        if pane is not None:
            pane.include_box.setChecked(True)
            pane.target_radio.setChecked(True)

    def number_of(self, document_id: str) -> int:
        pane = self.pane_for(document_id)
        return pane.number if pane else 0

    def set_missing(self, spans_by_doc: Mapping[str, Sequence[tuple[int, int]]],
                    at_risk_by_doc: Mapping[str, Sequence[tuple[int, int]]] | None = None) -> None:
        for pane in self._panes:
            pane.set_missing(spans_by_doc.get(pane.doc_id, ()),
                             (at_risk_by_doc or {}).get(pane.doc_id, ()))

    def set_groups(self, labels: dict[str, tuple[str, str]]) -> None:
        """doc id -> (group label, colour); members not listed lose their label."""
        for pane in self._panes:
            pane.set_group(*labels.get(pane.doc_id, ("", "")))

    def set_included(self, ids: Sequence[str]) -> None:
        """Include exactly `ids` (the other members unchecked); the target moves onto an included member."""
        wanted = set(ids)
        for pane in self._panes:
            pane.include_box.setChecked(pane.doc_id in wanted)
