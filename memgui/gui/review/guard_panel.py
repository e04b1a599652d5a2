"""MergeGuard's report on the merged body: verdict, retention against the 95% bar, length against 60%,
the load-bearing tokens by class (retained / missing), and the append-fallback preview when it fails.
Beside Netclaw's verdict (never instead of it), memgui's strict lens: the facts of the sources the body does
not keep whole, and the second reader's verdict per source when asked (`reader_box`). Displays the core's
`MergeGuardReport` and `StrictReport`; computes nothing itself."""
from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..ratio_bar import RatioBar
from ..services.types import GuardToken, MergeGuardReport, Verdict
from ..services.values import (
    LENGTH_COLLAPSE_THRESHOLD as LENGTH_BAR,
    RETENTION_THRESHOLD as RETENTION_BAR,
    StrictReport,
    facts_at_risk as facts_at_risk,  # counted by the core's merge policy; re-exported for the panels
)
from ..style import MUTED, set_bold, set_colors
from .reader_box import ReaderBox

RETAINED_BG, MISSING_BG = QColor("#dafbe1"), QColor("#ffc9c9")
RETAINED_FG, MISSING_FG = QColor("#116329"), QColor("#7d0a0a")
AT_RISK_FG, AT_RISK_BG = "#5c3b00", "#ffe08a"
PROOF_COLOURS = {Verdict.PROVED: ("#116329", "#dafbe1"), Verdict.READ: ("#5c3b00", "#ffe08a"),
                 Verdict.LOSS: ("#7d0a0a", "#ffe1e1")}
PROOF_MARKS = {Verdict.PROVED: "✔", Verdict.LOSS: "✘", Verdict.READ: "◐"}
MAX_AT_RISK_SHOWN = 3  # inline; the tooltip lists every one


def strict_headline(strict: StrictReport | None) -> str:
    if strict is None:
        return ""
    n = facts_at_risk(strict)
    return "strict: clean" if not n else f"strict: {n} fact{'s' if n != 1 else ''} at risk"


def failed_headline(report: MergeGuardReport, missing: int, total: int) -> str:
    """What a failed report failed on, for the verdict line: the tokens, the length, or both."""
    failed_on = report.failed_on
    length = f"{float(report.length_ratio):.0%} of the longest source, needs ≥ {LENGTH_BAR:.0%}"
    if "retention" not in failed_on:
        return f"failed on length — {length}"
    tokens = f"failed — {missing} of {total} tokens missing"
    return f"{tokens}, and on length ({length})" if "length" in failed_on else tokens


def _short(token: str, width: int = 28) -> str:
    return token if len(token) <= width else token[: width - 1] + "…"


def strict_text(strict: StrictReport | None, limit: int = MAX_AT_RISK_SHOWN) -> str:
    """The at-risk facts, token and kind, for the strict lens line: the first `limit`, long tokens shortened,
    the rest counted (the line's tooltip lists every one in full)."""
    if strict is None or not strict.at_risk:
        return ""
    shown = [a.describe() for a in strict.at_risk[:limit]]
    more = len(strict.at_risk) - len(shown)
    return ("Fact lens — dropped, added or changed: " + ", ".join(shown)
            + (f" … +{more} more (hover)" if more > 0 else ""))


def _sources_text(sources: Sequence[int] | None, labels: Sequence[str]) -> str:
    out = []
    for s in sources or ():
        if isinstance(s, int) and 0 <= s < len(labels):
            out.append(labels[s])
        else:
            out.append(str(s))
    return ", ".join(sorted(out, key=lambda t: (len(t), t)))


class GuardTokenModel(QAbstractTableModel):
    COLUMNS = ("Token", "Class", "Sources", "In body")  # short: a laptop's column leaves the token room
    TIPS = ("the load-bearing token MergeGuard looks for", "its class", "the sources that hold it",
            "in the merged body: retained or missing")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tokens: list[GuardToken] = []
        self._labels: Sequence[str] = ()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._tokens)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < 4:
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.TIPS[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return self.COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not (0 <= index.row() < len(self._tokens)):
            return None
        tok, col = self._tokens[index.row()], index.column()
        retained = bool(getattr(tok, "retained", False))
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                str(tok.token),
                str(getattr(tok.kind, "value", tok.kind)),
                _sources_text(getattr(tok, "sources", ()), self._labels),
                "retained" if retained else "MISSING",
            )[col]
        if role == Qt.ItemDataRole.UserRole:  # sort key: missing first, then class, then token
            return (
                str(tok.token).lower(),
                str(getattr(tok.kind, "value", tok.kind)),
                _sources_text(getattr(tok, "sources", ()), self._labels),
                int(retained),
            )[col]
        if role == Qt.ItemDataRole.BackgroundRole and col == 3:
            return QBrush(RETAINED_BG if retained else MISSING_BG)
        if role == Qt.ItemDataRole.ForegroundRole and col == 3:
            return QBrush(RETAINED_FG if retained else MISSING_FG)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{tok.token} ({getattr(tok.kind, 'value', tok.kind)}): {'retained' if retained else 'missing'}"
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def set_tokens(self, tokens: Sequence[GuardToken], labels: Sequence[str]) -> None:
        self.beginResetModel()
        # Grouped by class, missing first inside each class.
        self._tokens = sorted(tokens, key=lambda t: (str(getattr(t.kind, "value", t.kind)), bool(t.retained), str(t.token).lower()))
        self._labels = tuple(labels)
        self.endResetModel()

    def tokens(self) -> list[GuardToken]:
        return list(self._tokens)


class _MissingOnlyProxy(QSortFilterProxyModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.missing_only = False
        self.setSortRole(Qt.ItemDataRole.UserRole)

    def set_missing_only(self, value: bool) -> None:
        self.beginFilterChange()
        self.missing_only = value
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self.missing_only:
            return True
        model = self.sourceModel()
        return bool(model.data(model.index(source_row, 3), Qt.ItemDataRole.DisplayRole) == "MISSING")


def _bar(name: str, floor: float) -> RatioBar:
    bar = RatioBar(floor=floor)
    bar.setObjectName(name)
    bar.setToolTip(f"the black mark is the {floor:.0%} floor")
    return bar


class GuardPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("guardPanel")
        self.report: MergeGuardReport | None = None
        self.strict: StrictReport | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._add_verdicts(layout)
        self._add_ratios(layout)
        self._add_token_table(layout)
        self._add_fallback(layout)
        self.set_pending(False)
        self.show_fallback(None)

    def _add_verdicts(self, layout: QVBoxLayout) -> None:
        """Netclaw's MergeGuard verdict and its reason, memgui's verdict, the strict lens's line, the reader."""
        self.verdict = QLabel("MergeGuard: no merged body yet")
        self.verdict.setObjectName("guardVerdict")
        self.verdict.setWordWrap(True)
        self.verdict.setMargin(6)
        set_bold(self.verdict)
        layout.addWidget(self.verdict)
        # memgui's own verdict (proved / read / loss) and the sentences by fate, beside Netclaw's, never instead
        self.proof = QLabel("")
        self.proof.setObjectName("memguiVerdict")
        self.proof.setWordWrap(True)
        self.proof.setMargin(4)
        self.proof.setToolTip("memgui's verdict from the alignment of every source sentence to the body: proved (every "
                              "sentence kept or restated, nothing added), read (a person compares some pairs: see the "
                              "Alignment tab) or loss (a rule that earned the word names a fact gone). Netclaw's "
                              "MergeGuard verdict above is the one Netclaw applies.")
        self.proof.hide()
        layout.addWidget(self.proof)
        self.reason = QLabel("")
        self.reason.setWordWrap(True)
        set_colors(self.reason, MUTED)
        layout.addWidget(self.reason)
        self.strict_label = QLabel("")
        self.strict_label.setObjectName("strictLens")
        self.strict_label.setWordWrap(True)
        self.strict_label.setMargin(4)
        set_colors(self.strict_label, AT_RISK_FG, AT_RISK_BG)
        # two lines always fit: a squeezed guard box must not lay the line over its neighbours
        self.strict_label.setMinimumHeight(2 * self.strict_label.fontMetrics().lineSpacing() + 10)
        self.strict_label.hide()
        layout.addWidget(self.strict_label)
        self.reader = ReaderBox()
        layout.addWidget(self.reader)

    def _add_ratios(self, layout: QVBoxLayout) -> None:
        """Token retention and length, each a bar with its floor."""
        self.retention_label = QLabel("Token retention (needs ≥ 95%)")
        self.retention_bar = _bar("retentionBar", RETENTION_BAR)
        self.length_label = QLabel("Length vs longest source (needs ≥ 60%)")
        self.length_bar = _bar("lengthBar", LENGTH_BAR)
        for w in (self.retention_label, self.retention_bar, self.length_label, self.length_bar):
            layout.addWidget(w)

    def _add_token_table(self, layout: QVBoxLayout) -> None:
        """The guard's tokens (all, or only the missing ones)."""
        self.missing_only = QCheckBox("show missing tokens only")
        layout.addWidget(self.missing_only)
        self.token_model = GuardTokenModel(self)
        self._proxy = _MissingOnlyProxy(self)
        self._proxy.setSourceModel(self.token_model)
        self.table = QTableView()
        self.table.setObjectName("guardTokens")
        self.table.setModel(self._proxy)
        self.table.setSortingEnabled(False)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # fixed (measuring contents on every report is slow), narrow enough that at 1280×720 the token reads
        for col, width in ((1, 90), (2, 62), (3, 70)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        self.table.verticalHeader().setDefaultSectionSize(20)
        layout.addWidget(self.table, 3)
        self.missing_only.toggled.connect(self._proxy.set_missing_only)

    def _add_fallback(self, layout: QVBoxLayout) -> None:
        """What the target reads if the reviewer appends instead."""
        self.fallback_label = QLabel("If you choose Append (P), the target will read:")
        set_bold(self.fallback_label)
        self.fallback = QPlainTextEdit()
        self.fallback.setObjectName("appendPreview")
        self.fallback.setReadOnly(True)
        layout.addWidget(self.fallback_label)
        self.fallback.setMaximumHeight(110)
        layout.addWidget(self.fallback, 1)

    # ---- display ------------------------------------------------------------------------------------

    def _set_verdict(self, text: str, fg: str, bg: str) -> None:
        self.verdict.setText(text)
        set_colors(self.verdict, fg, bg)

    def set_unavailable(self, why: str) -> None:
        self.report = None
        self._set_verdict("MergeGuard unavailable", "#57606a", "#eaeef2")
        self.reason.setText(why)

    def set_pending(self, running: bool) -> None:
        if self.report is None:
            self._set_verdict("MergeGuard: checking…" if running else "MergeGuard: no merged body yet",
                              "#57606a", "#eaeef2")
        elif running:
            self.reason.setText("re-checking the edited body…")

    def clear(self) -> None:
        self.report = None
        self.strict = None
        self.strict_label.hide()
        self.set_proof(None)
        self.reader.clear(can_ask=False)
        self.token_model.set_tokens([], [])
        self.retention_bar.set_ratio(None)
        self.length_bar.set_ratio(None)
        self.retention_label.setText(f"Token retention (needs ≥ {RETENTION_BAR:.0%})")
        self.length_label.setText(f"Length vs longest source (needs ≥ {LENGTH_BAR:.0%})")
        self.reason.setText("")
        self.set_pending(False)
        self.show_fallback(None)

    def set_report(self, report: MergeGuardReport, source_labels: Sequence[str],
                   strict: StrictReport | None = None) -> None:
        self.report, self.strict = report, strict
        tokens = list(report.tokens or ())
        self.token_model.set_tokens(tokens, source_labels)
        missing = [t for t in tokens if not t.retained]
        retention = float(report.retention)
        length = float(report.length_ratio)
        lens = f" · {strict_headline(strict)}" if strict is not None else ""
        if report.passed:
            self._set_verdict(f"✔ Netclaw: passed — {len(tokens) - len(missing)}/{len(tokens)} tokens kept{lens}",
                              "#116329", "#dafbe1")
        else:
            self._set_verdict(f"✘ Netclaw: {failed_headline(report, len(missing), len(tokens))}{lens}",
                              "#7d0a0a", "#ffe1e1")
        self.verdict.setToolTip("Netclaw's MergeGuard verdict (it decides); the strict lens is memgui's stricter "
                                "check, reported beside it")
        self.strict_label.setText(strict_text(strict))
        self.strict_label.setToolTip("memgui's strict lens, stricter than Netclaw's MergeGuard (which alone decides), "
                                     "on what the alignment did not prove; amber in the sources. Not kept whole by "
                                     "the merged body:\n" + "\n".join(
            f"{a.token} ({a.kind})" for a in strict.at_risk) if strict is not None and strict.at_risk else "")
        self.strict_label.setVisible(bool(strict_text(strict)))
        self.reason.setText(str(report.reason or ""))
        self._fill(self.retention_bar, retention, RETENTION_BAR)
        self._fill(self.length_bar, length, LENGTH_BAR)
        self.retention_label.setText(f"Token retention {retention:.0%} (needs ≥ {RETENTION_BAR:.0%})")
        self.length_label.setText(f"Length vs longest source {length:.0%} (needs ≥ {LENGTH_BAR:.0%})")

    def set_proof(self, verdict: Verdict | None, detail: str = "") -> None:
        """memgui's verdict line (None: hidden): `verdict` is proved / read / loss, `detail` the fates counted."""
        if verdict is None:
            self.proof.hide()
            self.proof.setText("")
            return
        fg, bg = PROOF_COLOURS[verdict]
        self.proof.setText(f"{PROOF_MARKS[verdict]} memgui: {verdict.value}" + (f" — {detail}" if detail else ""))
        set_colors(self.proof, fg, bg)
        self.proof.show()

    def set_supersession(self, passed: bool, detail: str) -> None:
        """memgui's line for a supersession's own draft: its check (the newest state kept as present, every older
        statement kept or inside a dated history phrase) stands in for the alignment's verdict, which reads the
        history phrases' dates and `previously` as words the body adds."""
        verdict = Verdict.PROVED if passed else Verdict.LOSS
        fg, bg = PROOF_COLOURS[verdict]
        self.proof.setText(f"{PROOF_MARKS[verdict]} memgui: supersession {'checked' if passed else 'FAILS its check'}"
                           f" — {detail}")
        set_colors(self.proof, fg, bg)
        self.proof.show()

    def _fill(self, bar: RatioBar, value: float, floor: float) -> None:
        bar.set_ratio(value, f"{value:.0%}")

    def show_fallback(self, text: str | None) -> None:
        """The append preview stays in place (no show/hide: that would re-lay out the whole window)."""
        if text is None:
            self.fallback.setPlainText("")
            self.fallback.setPlaceholderText("Select a cluster with at least two included documents.")
        elif self.fallback.toPlainText() != text:
            self.fallback.setPlainText(text)
