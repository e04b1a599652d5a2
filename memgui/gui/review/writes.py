"""The writes of the cluster under review — accept (merged body), append, keep separate, skip — and this
session's undo / redo. Each write is one core call on a worker after a confirmation that says what changes (the
warnings are the core's merge policy); the core refuses stale sources, and its message is shown. What the window
shows after a write comes from the write's change descriptor alone (`show_changes`); what Undo and Redo would
revert comes from the core's history (core/ops/history.py), read again after every write. Works on the cluster
under review, with the tools it is handed and the controller's signals."""
from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import SignalInstance

from ..dialogs import GuardFailedAnswer
from ..services.types import (
    Changes,
    Effect,
    History,
    HistoryScope,
    HistoryStep,
    MergePlan,
    Operation,
    Store,
    Written,
)
from ..services.values import MODE_APPEND, MODE_MERGED_BODY, MergeMode
from ..workers import one_line
from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow
from .state import LoadCluster, ReviewTools
from .under_review import ClusterUnderReview

YOU = "you (memgui reviewer)"
STATUS_OF_EFFECT = {Effect.MERGED: MERGED, Effect.APPENDED: APPENDED, Effect.KEPT_SEPARATE: KEPT_SEPARATE}


class Writes:
    def __init__(self, cluster: ClusterUnderReview, tools: ReviewTools, *, load: LoadCluster,
                 with_fresh_guard: Callable[[Callable[[], None]], None], changed: SignalInstance,
                 written: SignalInstance, failed: SignalInstance):
        self.cluster = cluster
        self.services, self.runner, self.prompter = tools.services, tools.runner, tools.prompter
        self.panels, self.host = tools.panels, tools.host
        self.load = load  # a cluster shown again: after a stale source, or the one an undo / redo wrote
        self.with_fresh_guard = with_fresh_guard  # accept waits for the guard's report on the body as it is
        self.changed, self.writeFinished, self.writeFailed = changed, written, failed
        self.session: HistoryScope = self.services.writes.session(int(time.time() * 1000))
        self.history = History(scope=self.session)  # what Undo / Redo would revert, as the core last said
        self.rows_of_audit: dict[int, str] = {}  # audit id -> the queue row that write reviewed (cluster id)

    def new_session(self) -> None:
        """Another store was opened: its history starts now."""
        self.session = self.services.writes.session(int(time.time() * 1000))
        self.history = History(scope=self.session)
        self.rows_of_audit.clear()

    def _with_history(self, store: Store, written: Written) -> tuple[Written, History]:
        """The write, and what Undo / Redo would revert after it (read on the worker, after the write)."""
        return written, self.services.writes.history(store, self.session)

    def refresh_history(self) -> None:
        """Read what Undo / Redo would revert again (after a write elsewhere: the Audit tab, a refused undo)."""
        store, read, scope = self.host.store, self.services.writes.history, self.session
        if store is None:
            return
        self.runner.start("history", lambda cancel: read(store, scope), on_done=self._history_read)

    def _history_read(self, history: History) -> None:
        if history.scope == self.session:  # not from a store closed since
            self.history = history
            self.changed.emit()

    def show_changes(self, changes: Changes, history: History | None = None, *,
                     move: Callable[[], None] | None = None) -> None:
        """Everything the window shows after a write, whichever tab or command made it, from its descriptor alone:
        each write that stands marks the row it reviewed with its effect and each write undone leaves its row
        unreviewed; Undo / Redo show `history` (read again when not given); the Audit tab reads its lists again;
        then, after `move` (the caller's step in the queue, once the rows show their status), the cluster on show is
        loaded again if this write set its status, and the other rows that hold a written document are read again."""
        marked = self._mark_rows(changes)
        if history is not None:
            self.history = history
        else:
            self.refresh_history()
        if move is not None:
            move()
        shown, model = self.cluster.row, self.panels.cluster_model
        if shown is not None and shown.cluster_id in marked and model.row_of(shown.cluster_id) >= 0:
            self.load(model.row_at(model.row_of(shown.cluster_id)))  # shown as it is now: written, or back to review
        if changes.audit_ids or changes.documents:
            self.host.store_written(changes.documents, frozenset(marked))

    def _mark_rows(self, changes: Changes) -> set[str]:
        """The queue rows whose status this change sets (their cluster ids)."""
        c, model, marked = self.cluster, self.panels.cluster_model, set()
        for audit_id in changes.undone:
            cluster_id = self.rows_of_audit.get(audit_id)
            if cluster_id is not None:
                model.set_status(cluster_id, NEW, None)
                c.decided_by.pop(cluster_id, None)
                marked.add(cluster_id)
        for audit_id, effect in changes.standing:
            cluster_id, status = self.rows_of_audit.get(audit_id), STATUS_OF_EFFECT.get(effect)
            if cluster_id is not None and status is not None:
                c.decided_by.setdefault(cluster_id, YOU)
                model.set_status(cluster_id, status, audit_id)
                marked.add(cluster_id)
        return marked

    @property
    def can_undo(self) -> bool:
        return self.history.undo is not None

    @property
    def can_redo(self) -> bool:
        return self.history.redo is not None

    def _plan(self, mode: MergeMode, *, guard_override: bool = False) -> MergePlan:
        c = self.cluster
        docs = c.ordered_included()
        ids = tuple(d.document_id for d in docs)
        result = c.decider_result if c.origin.from_model else None
        extra = (result.extra or {}) if result is not None else {}
        pairs = tuple((a, b, c) for (a, b), c in ((tuple(sorted(k)), v) for k, v in c.cosines.items())
                      if a in ids and b in ids)
        return self.services.merge_plan(
            target_id=ids[0], source_ids=ids, mode=mode,
            merged_body=c.body() if mode == MODE_MERGED_BODY else None,
            drafted={i: c.stamps[i] for i in ids},
            model_id=(result.model_id or None) if result is not None else None,
            prompt_hash=(result.prompt_hash or None) if result is not None else None,
            prompt=extra.get("prompt"),
            raw_reply=(result.raw_reply or None) if result is not None else None,
            rationale=(result.rationale or None) if result is not None else None,
            cosines=pairs, guard_override=guard_override,
            note=f"memgui review; draft: {'none' if c.origin.empty else c.origin}",
            confirmed=tuple(c.confirmed(docs)) if mode == MODE_MERGED_BODY else (),
        )

    def _impact(self, mode: MergeMode) -> str:
        c = self.cluster
        docs = c.ordered_included()
        excluded = [d for d in c.docs if d.document_id not in {x.document_id for x in docs}]
        target, others = docs[0], docs[1:]
        what = "gets the merged body (merge-document)" if mode != MODE_APPEND else \
            "keeps its body with every other source appended under a dated separator (append-document)"
        lines = [f"Changes: {c.label(target.document_id)} ({target.document_id}) {what}."]
        lines.append("Tombstoned: " + "; ".join(f"{c.label(d.document_id)} ({d.document_id})" for d in others) + ".")
        if excluded:
            lines.append("Untouched: " + "; ".join(c.label(d.document_id) for d in excluded) + ".")
        if mode != MODE_APPEND and c.report is not None:
            kept = sum(1 for t in c.report.tokens if t.retained)
            verdict = "passed" if c.report.passed else "FAILED — your override is recorded in the audit"
            lines.append(f"MergeGuard {verdict}: {kept}/{len(c.report.tokens)} tokens, "
                         f"length {c.report.length_ratio:.0%}.")
        confirmed = c.confirmed(docs) if mode != MODE_APPEND else []
        if confirmed:
            lines.append(f"{len(confirmed)} restatement(s) you confirmed are recorded with the merge.")
        lines.append("The write is one transaction with its audit row; Ctrl+Z undoes it.")
        return "\n".join(lines)

    def _risks(self, mode: MergeMode, n: int) -> list[str]:
        """Why this write is risky (empty: it is not), by the core's merge policy: the confirmation then says so and
        defaults to Cancel."""
        c = self.cluster
        return self.services.writes.merge_risks(
            mode=mode, documents=n, length_ratio=None if c.report is None else float(c.report.length_ratio),
            strict=c.strict, mark=c.mark, cosines=c.cosines, included=self.panels.sources.included_ids(),
            threshold=getattr(self.host.scan_result, "threshold", None), number_of=self.panels.sources.number_of)

    def _can_write(self, at_least: int = 2) -> bool:
        c = self.cluster
        return self.host.can_write() and c.reviewable() and len(self.panels.sources.included_ids()) >= at_least

    def accept(self) -> None:
        if not self._can_write(at_least=0) or not self.cluster.body().strip():
            return
        self.with_fresh_guard(self._accept_checked)

    def _accept_checked(self) -> None:
        report = self.cluster.report
        if report is not None and report.passed:
            self._confirm_merge(MODE_MERGED_BODY, override=False)
            return
        reason, missing = (report.reason, list(report.missing)) if report is not None else ("no report", [])
        choice = self.prompter.guard_failed(reason, missing)
        if choice is GuardFailedAnswer.APPEND:
            self.append()
        elif choice is GuardFailedAnswer.OVERRIDE:
            self._confirm_merge(MODE_MERGED_BODY, override=True)

    def append(self) -> None:
        if not self.host.can_write() or not self.cluster.reviewable() or len(self.cluster.ordered_included()) < 2:
            return
        self._confirm_merge(MODE_APPEND, override=False)

    def _confirm_merge(self, mode: MergeMode, *, override: bool) -> None:
        c = self.cluster
        plan = self._plan(mode, guard_override=override)
        appending = mode == MODE_APPEND
        title = "Append instead" if appending else ("Override MergeGuard and merge" if override else "Accept merge")
        n = len(plan.cluster_ids)
        if not self.prompter.confirm(title, f"{title}: {n} documents into one?", self._impact(mode),
                                     "Append" if appending else "Merge", risks=self._risks(mode, n)):
            return
        desc = f"{'append' if appending else 'merge'} of {n} documents into {c.label(plan.target_id)}"
        store, merge = self.host.store, self.services.merge_cluster
        if store is None:  # can_write() said yes: a store is open
            return
        self._write(title, lambda: merge(store, plan), desc)

    def keep_separate(self) -> None:
        """Records as "not duplicates" only the pairs that are apart (across the model's same-fact groups, else
        between the unchecked and the included members, else every pair): never a pair of an accepted group."""
        c = self.cluster
        if not (self.host.can_write() and c.reviewable()):
            return
        pairs = c.pairs_kept_apart()
        if not pairs:
            return
        ids = list(dict.fromkeys(x for pair in pairs for x in pair))
        n_of = self.panels.sources.number_of
        shown = "; ".join(f"#{n_of(a)} ↔ #{n_of(b)}" for a, b in sorted(pairs, key=lambda p: (n_of(p[0]), n_of(p[1]))))
        if c.groups is not None and len(c.groups.groups) >= 2:
            why = "the pairs the model judged different facts"
        elif len(self.panels.sources.included_ids()) < len(c.members()):
            why = "each unchecked member against each included one"
        else:
            why = "every pair"
        impact = (f"No document changes. {len(pairs)} pair(s) — {why} — are remembered as not duplicates, so "
                  f"they are not nominated together again: {shown}.\n"
                  + "; ".join(c.label(i) for i in ids) + "\nRecorded in the audit; Ctrl+Z undoes it.")
        if not self.prompter.confirm("Keep separate", "Keep these documents separate?", impact, "Keep separate"):
            return
        store, keep = self.host.store, self.services.keep_separate
        if store is None:
            return
        # a mixed cluster: its same-fact group is still to merge, so it stays in the queue as its own entry
        group = c.groups.largest if c.groups is not None and len(c.groups.groups) >= 2 else ()
        self._write("Keep separate", lambda: keep(store, ids, "kept separate in memgui review", pairs=pairs),
                    f"keep-separate of {len(pairs)} pair(s) of {len(ids)} documents",
                    still_to_merge=tuple(group) if len(group) >= 2 else ())

    def skip(self) -> None:
        c = self.cluster
        if c.row is not None and c.row.status == NEW:
            c.decided_by[c.row.cluster_id] = YOU
            self.panels.cluster_model.set_status(c.row.cluster_id, SKIPPED)
        self.host.next_cluster(prefer_new=True)

    def write(self, label: str, fn: Callable[[], Written], desc: str) -> None:
        """A write another helper confirmed (the supersession): on the worker, then shown like every write."""
        self._write(label, fn, desc)

    def _write(self, label: str, fn: Callable[[], Written], desc: str, *, still_to_merge: tuple[str, ...] = ()) -> None:
        row, store = self.cluster.row, self.host.store
        if row is None or store is None:  # a write needs the cluster on screen (the actions are disabled without one)
            return
        self.runner.start("write", lambda cancel: self._with_history(store, fn()), label=label, show_in_status=True,
                          on_done=lambda done: self._written(row, done[0], done[1], desc, still_to_merge),
                          on_error=self._write_error)
        self.changed.emit()

    def _written(self, row: ClusterRow, entry: Written, history: History, desc: str,
                 still_to_merge: tuple[str, ...] = ()) -> None:
        c = self.cluster
        audit_id = int(entry.audit_id)
        cluster_id, group_id = row.cluster_id, None
        if still_to_merge:  # a mixed cluster: its same-fact group stays in the queue as its own entry
            group_id, rest_id = self.host.split_off(row.cluster_id, still_to_merge)
            cluster_id = rest_id or cluster_id
        c.decided_by[cluster_id] = YOU
        self.rows_of_audit[audit_id] = cluster_id
        if still_to_merge:
            self.host.show_status(f"Done: {desc} (audit #{audit_id}); the same-fact group stays in the queue as its "
                                  "own entry. Ctrl+Z undoes the keep-separate.", 8000)
        else:
            self.host.show_status(f"Done: {desc} (audit #{audit_id}). Ctrl+Z undoes it.", 8000)
        self.show_changes(entry.changes, history, move=lambda: self._move_on(row, group_id, bool(still_to_merge)))
        self.writeFinished.emit(entry)
        self.changed.emit()

    def _move_on(self, row: ClusterRow, group_id: str | None, split: bool) -> None:
        """After a write: the same-fact group split off, else the next cluster to review (if this one is on show)."""
        if group_id is not None:
            self.host.select_cluster(group_id)
        elif not split and self.cluster.row is row:
            self.host.next_cluster(prefer_new=True)

    def _write_error(self, exc: BaseException) -> None:
        c, s = self.cluster, self.services
        self.writeFailed.emit(one_line(exc))
        self.changed.emit()
        if isinstance(exc, s.stale_source_error):
            if self.prompter.stale_source(one_line(exc)):
                self.load(c.row, keep_body=True)
            return
        self.prompter.error("Cannot undo" if isinstance(exc, s.audit_error) else "Nothing was written", one_line(exc))
        if isinstance(exc, s.audit_error):  # the history moved or the rows changed: say what it offers now
            self.refresh_history()

    # ---- undo / redo ------------------------------------------------------------------------------------

    def revert(self, action: Operation) -> None:
        step = self.history.undo if action == Operation.UNDO else self.history.redo
        if step is None:
            self.host.show_status(f"Nothing to {action} in this session", 4000)
            return
        if not self.host.can_write():
            return
        if not self.prompter.confirm_revert(action, step.description, step.audit_id):
            return
        store, scope = self.host.store, self.session
        fn = self.services.writes.undo_last if action == Operation.UNDO else self.services.writes.redo_last
        if store is None:
            return
        self.runner.start("write", lambda cancel: self._with_history(store, fn(store, scope, expected=step.audit_id)),
                          label=action.capitalize(), show_in_status=True,
                          on_done=lambda done: self._reverted(action, step, done[0], done[1]),
                          on_error=self._write_error)
        self.changed.emit()

    def _reverted(self, action: Operation, step: HistoryStep, entry: Written, history: History) -> None:
        cluster_id = self.rows_of_audit.get(step.audit_id)  # None: a write this session's queue does not show
        self.host.show_status(f"{action.capitalize()} done: {step.description} (audit #{step.audit_id})", 8000)
        self.show_changes(entry.changes, history,
                          move=None if cluster_id is None else lambda: self.host.select_cluster(cluster_id))
        self.changed.emit()
