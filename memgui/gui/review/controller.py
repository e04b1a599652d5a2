"""The review of one cluster at a time: loading a queue row onto the panels, the merged body in the editor and the
line that says where it came from, and the actions the keys and buttons call. The cluster's state and the
questions asked of it are `ClusterUnderReview` (under_review.py); the drafting side (decider, union, guard, diff)
is `Drafting`, the conflict evidence `Evidence`, the writes and undo / redo `Writes` — each handed the cluster,
the tools it uses and the signals it emits, none of them the controller. This class owns the signals tests and
the window listen to. Every decision is the core's; the controller gathers inputs, asks, and shows.

It receives what it works on — the services, the task runner, the prompter, the review panels and a small
`ReviewHost` (the window's store, settings and queue moves) — and never reaches into the window."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextCursor

from ..dialogs import Prompter
from ..services import Services
from ..services.types import Changes, DifferentFactsMark, Document, FactGroups, Operation, StrictReport
from ..workers import TaskRunner
from .cluster_model import ClusterRow
from .draft_origin import DraftOrigin, DraftSource
from .drafting import Drafting
from .evidence import Evidence
from .fact_groups import group_labels, groups_html
from .host import ReviewHost
from .page import ReviewPage
from .state import ReviewTools
from .superseding import Superseding
from .under_review import ClusterUnderReview
from .writes import Writes


class Review(QObject):
    clusterLoaded = Signal(object)  # ClusterRow
    guardUpdated = Signal(object)  # MergeGuardReport | None
    diffUpdated = Signal(object)  # WordDiff
    decisionFinished = Signal(object)  # DeciderResult | None (cancelled / failed)
    writeFinished = Signal(object)  # AuditEntry
    writeFailed = Signal(str)
    supersessionRead = Signal(object)  # SupersessionPlan | None (cancelled / failed)
    changed = Signal()  # anything that affects which actions are enabled

    def __init__(self, services: Services, runner: TaskRunner, prompter: Prompter, panels: ReviewPage,
                 host: ReviewHost, parent: QObject | None = None):
        super().__init__(parent)
        self.services, self.runner, self.prompter, self.panels, self.host = services, runner, prompter, panels, host
        self.cluster = ClusterUnderReview(panels.sources, panels.editor)
        self._setting_body = False
        tools = ReviewTools(services, runner, prompter, panels, host)
        self.drafting = Drafting(self.cluster, tools, set_body=self.set_body, show_groups=self.show_groups,
                                 timers=self, changed=self.changed, decided=self.decisionFinished,
                                 guarded=self.guardUpdated, diffed=self.diffUpdated)
        self.evidence = Evidence(self.cluster, tools, changed=self.changed)
        self.writes = Writes(self.cluster, tools, load=self.load, with_fresh_guard=self.drafting.with_fresh_guard,
                             changed=self.changed, written=self.writeFinished, failed=self.writeFailed)
        self.superseding = Superseding(self.cluster, tools, slot=self.drafting.slot,
                                       decider_key=self.drafting.decider_key, set_body=self.set_body,
                                       writes=self.writes, evidence=self.evidence, changed=self.changed,
                                       read=self.supersessionRead)
        self.diffUpdated.connect(self.superseding.mark_diff)
        self.drafting.aligning.supersession_check = self.superseding.check_line
        self.drafting.lens_body = self.superseding.lens_body
        panels.editor.textChanged.connect(self._on_body_edited)
        panels.sources.selectionChanged.connect(self._on_selection_changed)

    # ---- the cluster under review (its state and questions: `self.cluster`) ------------------------------

    @property
    def row(self) -> ClusterRow | None:
        """The cluster on screen."""
        return self.cluster.row

    def reviewable(self) -> bool:
        return self.cluster.reviewable()

    def guard_is_current(self) -> bool:
        """The guard's report is about the merged body and the members included now."""
        return self.cluster.guard_is_current()

    # read by docs/screenshots/capture.py as before the state moved (reading `cluster` is the way in)
    @property
    def docs(self) -> list[Document]:
        return self.cluster.docs

    @property
    def origin(self) -> DraftOrigin:
        return self.cluster.origin

    @property
    def mark(self) -> DifferentFactsMark | None:
        return self.cluster.mark

    @property
    def strict(self) -> StrictReport | None:
        return self.cluster.strict

    def show_groups(self, groups: FactGroups) -> None:
        """The model's same-fact partition: labels on the panes, one line in the decision panel, the largest
        group pre-selected (its members included, the others unchecked) with the group's target."""
        self.cluster.groups = groups
        p = self.panels
        p.sources.set_groups(group_labels(groups))
        if len(groups.largest) >= 2:
            p.sources.set_included(groups.largest)
            if groups.target:
                p.sources.set_target(groups.target)
        p.decision_panel.set_groups(groups_html(groups, p.sources.number_of))
        self.evidence.show_mark()  # the conflicts' own pre-selection no longer applies

    @property
    def can_undo(self) -> bool:
        return self.writes.can_undo

    @property
    def can_redo(self) -> bool:
        return self.writes.can_redo

    # ---- the actions (keys and buttons) -------------------------------------------------------------

    def ask_model(self) -> None:
        self.drafting.ask_model()

    def cancel_model(self) -> None:
        self.drafting.cancel_model()
        self.superseding.cancel()

    def supersede(self) -> None:
        """Read the cluster as a supersession (the newest state wins, the older kept as dated history)."""
        self.superseding.read()

    def union_draft(self) -> None:
        self.drafting.union_draft()

    def confirm_restatement(self) -> None:
        self.drafting.aligning.confirm()

    def accept(self) -> None:
        """The supersession's draft as it was read: written as a supersession; any other body: a plain merge."""
        if self.superseding.current():
            self.superseding.accept()
        else:
            self.writes.accept()

    def append(self) -> None:
        self.writes.append()

    def keep_separate(self) -> None:
        self.writes.keep_separate()

    def skip(self) -> None:
        self.writes.skip()

    def undo(self) -> None:
        self.writes.revert(Operation.UNDO)

    def redo(self) -> None:
        self.writes.revert(Operation.REDO)

    def forget_history(self) -> None:
        """Another store was opened: its undo / redo history starts now."""
        self.writes.new_session()

    def show_changes(self, changes: Changes) -> None:
        """The store was written elsewhere (the Audit tab): shown from the write's change descriptor, as every write."""
        self.writes.show_changes(changes)

    def close(self) -> None:
        """The window closes: free the loaded decider model."""
        self.drafting.close()

    # ---- loading a cluster ---------------------------------------------------------------------------

    def load(self, row: ClusterRow | None, *, keep_body: bool = False) -> None:
        p, store, c = self.panels, self.host.store, self.cluster
        self.runner.cancel("decide")
        self.runner.cancel("union")
        self.superseding.forget()
        c.row = row
        c.forget_findings()
        self.drafting.forget_pending()
        p.decision_panel.set_mark("")
        p.decision_panel.set_groups("")
        if row is None or store is None:
            c.set_documents([], {}, {})
            p.sources.clear()
            self.set_body("", DraftSource.NONE)
            c.decider_result = None
            p.decision_panel.clear()
            p.guard_panel.clear()
            p.diff_view.set_sources([])
            p.diff_view.show_message("")
            p.alignment_view.show_message("")
            p.alignment_changed()
            self.evidence.clear()
            self._show_origin()
            self.changed.emit()
            return
        docs = sorted(store.documents_by_ids(row.member_ids), key=lambda d: (d.updated_at, d.document_id))
        c.set_documents(docs, {d.document_id: self.services.source_stamp(d) for d in docs},
                        {frozenset((p_.a, p_.b)): float(p_.cosine) for p_ in row.cluster.pairs if p_.cosine is not None})
        live = c.members()
        target = self.services.default_target(live or docs)
        p.sources.set_documents(docs, c.cosines, target)
        p.diff_view.set_sources([(d.document_id, f"#{i + 1} {d.title}") for i, d in enumerate(docs)])
        if not keep_body:
            c.decider_result = None
            p.decision_panel.clear()
            self.set_body("", DraftSource.NONE)
        p.guard_panel.clear()
        p.alignment_view.show_message("Checking the body…" if keep_body else "No merged body yet.")
        p.alignment_changed()
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

    def set_body(self, text: str, origin: DraftSource) -> None:
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
        self.cluster.origin = DraftOrigin(DraftSource(origin))
        self._show_origin()
        self.drafting.schedule(guard_ms=0, diff_ms=0)
        self.changed.emit()

    def _show_origin(self) -> None:
        p, c = self.panels, self.cluster
        target = p.sources.target_id()
        done = c.outcome()
        p.decision_panel.show_target(c.label(target) if target else "")
        p.decision_panel.set_outcome(done)
        reviewed = bool(done) and not self.reviewable()
        p.editor.setPlaceholderText(
            f"Nothing to draft: {done[:1].lower() + done[1:]}." if reviewed else
            "The merged body goes here: U for the union draft, M to ask the model, or E to write it (Esc goes back "
            "to the queue).")
        if reviewed:
            p.editor_title.setText(f"Merged body   ({done})")
            return
        where = f" → target {c.label(target)}" if target else ""
        origin = "empty — U union draft · M ask the model · E write it" if c.origin.empty else f"draft: {c.origin}"
        lead = f"{done} · " if done else ""
        p.editor_title.setText(f"{lead}Merged body{where}   ({origin})")

    def _on_body_edited(self) -> None:
        if self._setting_body:
            return
        c = self.cluster
        c.origin = c.origin.after_edit()
        self._show_origin()
        debounce = self.host.settings.guard_debounce_ms
        self.drafting.schedule(guard_ms=debounce, diff_ms=debounce + 50)
        self.changed.emit()

    def _on_selection_changed(self) -> None:
        self._show_origin()
        self.drafting.schedule(guard_ms=0)
        self.changed.emit()
