"""The cluster under review: its documents and drafted stamps, the merged body and where it came from. The
drafting side (decider, union, guard, diff) is `Drafting`, the writes and undo / redo are `Writes`; this class
holds the state they share and the signals tests and the window listen to. Every decision is the core's; the
controller gathers inputs, asks, and shows.

It receives what it works on — the services, the task runner, the prompter, the review panels and a small
`ReviewHost` (the window's store, settings and queue moves) — and never reaches into the window."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextCursor

from ..dialogs import Prompter
from ..services import Services
from ..services.types import (
    DeciderResult,
    DifferentFactsMark,
    Document,
    FactGroups,
    MergeGuardReport,
    SourceStamp,
    StrictReport,
)
from ..workers import TaskRunner
from .cluster_model import NEW, SKIPPED, ClusterRow
from .drafting import Drafting
from .evidence import Evidence
from .fact_groups import group_labels, groups_html, pairs_kept_apart
from .host import ReviewHost
from .outcome import outcome_text
from .page import ReviewPage
from .state import GuardKey
from .writes import Writes

REVIEWABLE = (NEW, SKIPPED)


class Review(QObject):
    clusterLoaded = Signal(object)  # ClusterRow
    guardUpdated = Signal(object)  # MergeGuardReport | None
    diffUpdated = Signal(object)  # WordDiff
    decisionFinished = Signal(object)  # DeciderResult | None (cancelled / failed)
    writeFinished = Signal(object)  # AuditEntry
    writeFailed = Signal(str)
    changed = Signal()  # anything that affects which actions are enabled

    def __init__(self, services: Services, runner: TaskRunner, prompter: Prompter, panels: ReviewPage,
                 host: ReviewHost, parent: QObject | None = None):
        super().__init__(parent)
        self.services, self.runner, self.prompter, self.panels, self.host = services, runner, prompter, panels, host
        self.row: ClusterRow | None = None
        self.docs: list[Document] = []
        self.stamps: dict[str, SourceStamp] = {}
        self.cosines: dict[frozenset[str], float] = {}
        self.origin = ""
        self.decider_result: DeciderResult | None = None
        self.report: MergeGuardReport | None = None
        self.report_key: GuardKey | None = None
        self.strict: StrictReport | None = None  # the strict lens on the same body as `report`
        self.groups: FactGroups | None = None  # once the model judged every pair; None until then
        self.mark: DifferentFactsMark | None = None  # the cluster's likely-different mark (computed on load)
        self.decided_by: dict[str, str] = {}  # cluster id -> who reviewed it in this session
        self._setting_body = False
        self.drafting = Drafting(self)
        self.evidence = Evidence(self)
        self.writes = Writes(self)
        panels.editor.textChanged.connect(self._on_body_edited)
        panels.sources.selectionChanged.connect(self._on_selection_changed)

    def timer(self, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.timeout.connect(slot)
        return timer

    # ---- small views of the state -------------------------------------------------------------------

    def body(self) -> str:
        return self.panels.editor.toPlainText()

    def doc(self, doc_id: str) -> Document | None:
        return next((d for d in self.docs if d.document_id == doc_id), None)

    def label(self, doc_id: str) -> str:
        doc = self.doc(doc_id)
        n = self.panels.sources.number_of(doc_id)
        return f"#{n} “{doc.title}”" if doc is not None else doc_id

    def ids_to_labels(self, text: str) -> str:
        """Document ids in model text shown as the pane numbers the person sees (#1, #2, …)."""
        for doc in self.docs:
            text = text.replace(doc.document_id, f"#{self.panels.sources.number_of(doc.document_id)}")
        return text

    def ordered_included(self) -> list[Document]:
        """Target first, then the other included members (the order the core's merge uses)."""
        ids = self.panels.sources.included_ids()
        target = self.panels.sources.target_id()
        ordered = ([target] if target in ids else []) + [i for i in ids if i != target]
        return [d for d in map(self.doc, ordered) if d is not None]

    def members(self) -> list[Document]:
        """The cluster's live documents (tombstoned ones take no part)."""
        return [d for d in self.docs if not d.is_tombstoned]

    def pairs_kept_apart(self) -> list[tuple[str, str]]:
        return pairs_kept_apart(self.groups, [d.document_id for d in self.members()],
                                self.panels.sources.included_ids())

    def show_groups(self, groups: FactGroups) -> None:
        """The model's same-fact partition: labels on the panes, one line in the decision panel, the largest
        group pre-selected (its members included, the others unchecked) with the group's target."""
        self.groups = groups
        p = self.panels
        p.sources.set_groups(group_labels(groups))
        if len(groups.largest) >= 2:
            p.sources.set_included(groups.largest)
            if groups.target:
                p.sources.set_target(groups.target)
        p.decision_panel.set_groups(groups_html(groups, p.sources.number_of))
        self.evidence.show_mark()  # the conflicts' own pre-selection no longer applies

    def reviewable(self) -> bool:
        return self.row is not None and bool(self.docs) and self.row.status in REVIEWABLE

    def guard_key(self) -> GuardKey:
        return (self.body(), tuple(d.document_id for d in self.ordered_included()))

    def guard_is_current(self) -> bool:
        return self.report is not None and self.report_key == self.guard_key()

    @property
    def undo_stack(self) -> list[int]:
        return self.writes.undo_stack

    @property
    def redo_stack(self) -> list[int]:
        return self.writes.redo_stack

    # ---- the actions (keys and buttons) -------------------------------------------------------------

    def ask_model(self) -> None:
        self.drafting.ask_model()

    def cancel_model(self) -> None:
        self.drafting.cancel_model()

    def union_draft(self) -> None:
        self.drafting.union_draft()

    def with_fresh_guard(self, then: Callable[[], None]) -> None:
        self.drafting.with_fresh_guard(then)

    def accept(self) -> None:
        self.writes.accept()

    def append(self) -> None:
        self.writes.append()

    def keep_separate(self) -> None:
        self.writes.keep_separate()

    def skip(self) -> None:
        self.writes.skip()

    def undo(self) -> None:
        self.writes.revert("undo")

    def redo(self) -> None:
        self.writes.revert("redo")

    def forget_history(self) -> None:
        """Another store was opened: this session's undo / redo stacks no longer apply."""
        self.writes.undo_stack.clear()
        self.writes.redo_stack.clear()

    def close(self) -> None:
        """The window closes: free the loaded decider model."""
        self.drafting.close()

    # ---- loading a cluster ---------------------------------------------------------------------------

    def load(self, row: ClusterRow | None, *, keep_body: bool = False) -> None:
        p, store = self.panels, self.host.store
        self.runner.cancel("decide")
        self.runner.cancel("union")
        self.row = row
        self.report, self.report_key, self.strict, self.groups, self.mark = None, None, None, None, None
        self.drafting.forget_pending()
        p.decision_panel.set_mark("")
        p.decision_panel.set_groups("")
        if row is None or store is None:
            self.docs, self.stamps, self.cosines = [], {}, {}
            p.sources.clear()
            self.set_body("", "")
            self.decider_result = None
            p.decision_panel.clear()
            p.guard_panel.clear()
            p.diff_view.set_sources([])
            p.diff_view.show_message("")
            self.evidence.clear()
            self._show_origin()
            self.changed.emit()
            return
        docs = store.documents_by_ids(row.member_ids)
        self.docs = sorted(docs, key=lambda d: (d.updated_at, d.document_id))
        self.stamps = {d.document_id: self.services.source_stamp(d) for d in self.docs}
        self.cosines = {frozenset((p_.a, p_.b)): float(p_.cosine) for p_ in row.cluster.pairs if p_.cosine is not None}
        live = [d for d in self.docs if not d.is_tombstoned]
        target = self.services.default_target(live or self.docs)
        p.sources.set_documents(self.docs, self.cosines, target)
        p.diff_view.set_sources([(d.document_id, f"#{i + 1} {d.title}") for i, d in enumerate(self.docs)])
        if not keep_body:
            self.decider_result = None
            p.decision_panel.clear()
            self.set_body("", "")
        p.guard_panel.clear()
        self.evidence.start()
        if self.reviewable() and not keep_body:
            self.evidence.preselect_on_load()
        else:
            self.evidence.loaded_selection = tuple(p.sources.included_ids())
        self.drafting.schedule(guard_ms=0, diff_ms=0)
        self._show_origin()
        self.clusterLoaded.emit(row)
        self.changed.emit()

    # ---- the merged body ---------------------------------------------------------------------------

    def set_body(self, text: str, origin: str) -> None:
        """Replace the editor text as one undoable edit (Ctrl+Z inside the editor brings the old text back)."""
        editor = self.panels.editor
        self._setting_body = True
        try:
            if editor.toPlainText() or text:
                cursor = editor.textCursor()
                cursor.select(QTextCursor.SelectionType.Document)
                cursor.insertText(text)
                editor.moveCursor(QTextCursor.MoveOperation.Start)
        finally:
            self._setting_body = False
        self.origin = origin
        self._show_origin()
        self.drafting.schedule(guard_ms=0, diff_ms=0)
        self.changed.emit()

    def outcome(self) -> str:
        """What was done to the cluster on screen and by whom ("" while it is still to decide, untouched)."""
        return outcome_text(self.row, self.docs, self.decided_by, self.label)

    def _show_origin(self) -> None:
        p = self.panels
        target = p.sources.target_id()
        done = self.outcome()
        p.decision_panel.show_target(self.label(target) if target else "")
        p.decision_panel.set_outcome(done)
        reviewed = bool(done) and not self.reviewable()
        p.editor.setPlaceholderText(
            f"Nothing to draft: {done[:1].lower() + done[1:]}." if reviewed else
            "The merged body goes here: U for the union draft, M to ask the model, or E to write it (Esc goes back "
            "to the queue).")
        if reviewed:
            p.editor_title.setText(f"Merged body   ({done})")
            return
        where = f" → target {self.label(target)}" if target else ""
        origin = {"": "empty — U union draft · M ask the model · E write it"}.get(self.origin, f"draft: {self.origin}")
        lead = f"{done} · " if done else ""
        p.editor_title.setText(f"{lead}Merged body{where}   ({origin})")

    def _on_body_edited(self) -> None:
        if self._setting_body:
            return
        if self.origin and "edited" not in self.origin:
            self.origin = f"{self.origin} · edited"
        elif not self.origin:
            self.origin = "typed"
        self._show_origin()
        debounce = self.host.settings.guard_debounce_ms
        self.drafting.schedule(guard_ms=debounce, diff_ms=debounce + 50)
        self.changed.emit()

    def _on_selection_changed(self) -> None:
        self._show_origin()
        self.drafting.schedule(guard_ms=0)
        self.changed.emit()
