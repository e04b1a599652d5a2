"""The writes of the cluster under review — accept (merged body), append, keep separate, skip — and this
session's undo / redo. Each write is one core call on a worker after a confirmation that says what changes;
the core refuses stale sources, and its message is shown. Works on the cluster under review, with the tools it
is handed and the controller's signals."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import SignalInstance

from ..services.types import AuditEntry, MergePlan
from ..services.values import MODE_APPEND, MODE_MERGED_BODY
from ..workers import one_line
from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow
from .guard_panel import facts_at_risk
from .state import LoadCluster, ReviewTools
from .under_review import ClusterUnderReview

YOU = "you (memgui reviewer)"


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
        self.undo_stack: list[int] = []
        self.redo_stack: list[int] = []
        self._history: dict[int, tuple[str, str, str]] = {}  # audit id -> (cluster id, status, description)

    def _plan(self, mode: str, *, guard_override: bool = False) -> MergePlan:
        c = self.cluster
        docs = c.ordered_included()
        ids = tuple(d.document_id for d in docs)
        result = c.decider_result if "model" in c.origin else None
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
            note=f"memgui review; draft: {c.origin or 'none'}",
            confirmed=tuple(c.confirmed(docs)) if mode == MODE_MERGED_BODY else (),
        )

    def _impact(self, mode: str) -> str:
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

    def _risks(self, mode: str, n: int) -> list[str]:
        """Why this write is risky (empty: it is not): the confirmation then says so and defaults to Cancel."""
        c = self.cluster
        risks = []
        if n > 2:
            risks.append(f"{n} documents are written at once (more than 2).")
        merged = mode != MODE_APPEND
        if merged and c.report is not None and float(c.report.length_ratio) > 2.0:
            risks.append(f"The merged body is {float(c.report.length_ratio):.0%} of the longest source's length "
                         "(over 200 %): it may carry more than one fact.")
        threshold = getattr(self.host.scan_result, "threshold", None)
        ids = set(self.panels.sources.included_ids())
        if threshold is not None:
            number = self.panels.sources.number_of
            low = sorted((cosine, tuple(sorted(k, key=number))) for k, cosine in c.cosines.items()
                         if set(k) <= ids and cosine < float(threshold))
            if low:
                cosine, (a, b) = low[0]
                risks.append(f"#{number(a)} and #{number(b)} are only {cosine:.3f} alike, below the scan's threshold "
                             f"{float(threshold):.3f}.")
        if merged and c.strict is not None and c.strict.at_risk:
            shown = ", ".join(a.describe() for a in c.strict.at_risk[:8])
            more = len(c.strict.at_risk) - 8
            risks.append(f"The strict lens finds {facts_at_risk(c.strict)} fact(s) of the sources not kept whole: "
                         f"{shown}{f' … (+{more})' if more > 0 else ''}.")
        if c.mark is not None and c.mark.likely_different:
            risks.append(f"The sources are marked likely different facts: {c.mark.reason}.")
        return risks

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
        if choice == "append":
            self.append()
        elif choice == "override":
            self._confirm_merge(MODE_MERGED_BODY, override=True)

    def append(self) -> None:
        if not self.host.can_write() or not self.cluster.reviewable() or len(self.cluster.ordered_included()) < 2:
            return
        self._confirm_merge(MODE_APPEND, override=False)

    def _confirm_merge(self, mode: str, *, override: bool) -> None:
        c = self.cluster
        plan = self._plan(mode, guard_override=override)
        appending = mode == MODE_APPEND
        title = "Append instead" if appending else ("Override MergeGuard and merge" if override else "Accept merge")
        n = len(plan.cluster_ids)
        if not self.prompter.confirm(title, f"{title}: {n} documents into one?", self._impact(mode),
                                     "Append" if appending else "Merge", risks=self._risks(mode, n)):
            return
        status = APPENDED if appending else MERGED
        desc = f"{'append' if appending else 'merge'} of {n} documents into {c.label(plan.target_id)}"
        store, merge = self.host.store, self.services.merge_cluster
        if store is None:  # can_write() said yes: a store is open
            return
        self._write(title, lambda: merge(store, plan), status, desc)

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
                    KEPT_SEPARATE, f"keep-separate of {len(pairs)} pair(s) of {len(ids)} documents",
                    still_to_merge=tuple(group) if len(group) >= 2 else ())

    def skip(self) -> None:
        c = self.cluster
        if c.row is not None and c.row.status == NEW:
            c.decided_by[c.row.cluster_id] = YOU
            self.panels.cluster_model.set_status(c.row.cluster_id, SKIPPED)
        self.host.next_cluster(prefer_new=True)

    def _write(self, label: str, fn: Callable[[], AuditEntry], status: str, desc: str, *,
               still_to_merge: tuple[str, ...] = ()) -> None:
        row = self.cluster.row
        if row is None:  # a write needs the cluster on screen (the actions are disabled without one)
            return
        self.runner.start("write", lambda cancel: fn(), label=label, show_in_status=True,
                          on_done=lambda entry: self._written(row, entry, status, desc, still_to_merge),
                          on_error=self._write_error)
        self.changed.emit()

    def _written(self, row: ClusterRow, entry: AuditEntry, status: str, desc: str,
                 still_to_merge: tuple[str, ...] = ()) -> None:
        c = self.cluster
        audit_id = int(entry.audit_id)
        c.decided_by[row.cluster_id] = YOU
        self.panels.cluster_model.set_status(row.cluster_id, status, audit_id)
        cluster_id = row.cluster_id
        if still_to_merge:
            group_id, rest_id = self.host.split_off(row.cluster_id, still_to_merge)
            cluster_id = rest_id or cluster_id
            self._history[audit_id] = (cluster_id, status, desc)
            self.undo_stack.append(audit_id)
            self.redo_stack.clear()
            self.host.show_status(f"Done: {desc} (audit #{audit_id}); the same-fact group stays in the queue as its "
                                  "own entry. Ctrl+Z undoes the keep-separate.", 8000)
            self.writeFinished.emit(entry)
            self.host.store_written()
            self.changed.emit()
            if group_id is not None:
                self.host.select_cluster(group_id)
            return
        self._history[audit_id] = (cluster_id, status, desc)
        self.undo_stack.append(audit_id)
        self.redo_stack.clear()
        self.host.show_status(f"Done: {desc} (audit #{audit_id}). Ctrl+Z undoes it.", 8000)
        self.writeFinished.emit(entry)
        self.host.store_written()
        self.changed.emit()
        if c.row is row:
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

    # ---- undo / redo ------------------------------------------------------------------------------------

    def revert(self, action: str) -> None:
        stack = self.undo_stack if action == "undo" else self.redo_stack
        if not stack:
            self.host.show_status(f"Nothing to {action} in this session", 4000)
            return
        if not self.host.can_write():
            return
        audit_id = stack[-1]
        cluster_id, status, desc = self._history.get(audit_id, (None, NEW, f"audit #{audit_id}"))
        if not self.prompter.confirm_revert(action, desc, audit_id):
            return
        store, fn = self.host.store, (self.services.undo if action == "undo" else self.services.redo)
        if store is None:
            return
        self.runner.start("write", lambda cancel: fn(store, audit_id), label=action.capitalize(), show_in_status=True,
                          on_done=lambda entry: self._reverted(action, audit_id, cluster_id, status, desc),
                          on_error=self._write_error)
        self.changed.emit()

    def _reverted(self, action: str, audit_id: int, cluster_id: str | None, status: str, desc: str) -> None:
        c, model = self.cluster, self.panels.cluster_model
        if action == "undo":
            self.undo_stack.remove(audit_id)
            self.redo_stack.append(audit_id)
        else:
            self.redo_stack.remove(audit_id)
            self.undo_stack.append(audit_id)
        if cluster_id is not None:  # None: a write this session did not make (its cluster is not known)
            if action == "undo":
                model.set_status(cluster_id, NEW, None)
                c.decided_by.pop(cluster_id, None)
            else:
                c.decided_by[cluster_id] = YOU
                model.set_status(cluster_id, status, audit_id)
        self.host.show_status(f"{action.capitalize()} done: {desc} (audit #{audit_id})", 8000)
        self.host.store_written()
        if cluster_id is not None:
            self.host.select_cluster(cluster_id)
        if c.row is not None and c.row.cluster_id == cluster_id:
            self.load(model.row_at(model.row_of(cluster_id)))
        self.changed.emit()
