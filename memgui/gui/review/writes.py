"""The writes of the cluster under review — accept (merged body), append, keep separate, skip — and this
session's undo / redo. Each write is one core call on a worker after a confirmation that says what changes;
the core refuses stale sources, and its message is shown. Works on the `Review` controller's state."""
from __future__ import annotations

from collections.abc import Callable

from ..services.types import AuditEntry, MergePlan
from ..services.values import MODE_APPEND, MODE_MERGED_BODY
from ..workers import one_line
from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow
from .guard_panel import facts_at_risk
from .state import ReviewState

YOU = "you (memgui reviewer)"


class Writes:
    def __init__(self, review: ReviewState):
        self.r = review
        self.undo_stack: list[int] = []
        self.redo_stack: list[int] = []
        self._history: dict[int, tuple[str, str, str]] = {}  # audit id -> (cluster id, status, description)

    def _plan(self, mode: str, *, guard_override: bool = False) -> MergePlan:
        r = self.r
        docs = r.ordered_included()
        ids = tuple(d.document_id for d in docs)
        result = r.decider_result if "model" in r.origin else None
        extra = (result.extra or {}) if result is not None else {}
        pairs = tuple((a, b, c) for (a, b), c in ((tuple(sorted(k)), v) for k, v in r.cosines.items())
                      if a in ids and b in ids)
        return r.services.merge_plan(
            target_id=ids[0], source_ids=ids, mode=mode,
            merged_body=r.body() if mode == MODE_MERGED_BODY else None,
            drafted={i: r.stamps[i] for i in ids},
            model_id=(result.model_id or None) if result is not None else None,
            prompt_hash=(result.prompt_hash or None) if result is not None else None,
            prompt=extra.get("prompt"),
            raw_reply=(result.raw_reply or None) if result is not None else None,
            rationale=(result.rationale or None) if result is not None else None,
            cosines=pairs, guard_override=guard_override,
            note=f"memgui review; draft: {r.origin or 'none'}",
        )

    def _impact(self, mode: str) -> str:
        r = self.r
        docs = r.ordered_included()
        excluded = [d for d in r.docs if d.document_id not in {x.document_id for x in docs}]
        target, others = docs[0], docs[1:]
        what = "gets the merged body (merge-document)" if mode != MODE_APPEND else \
            "keeps its body with every other source appended under a dated separator (append-document)"
        lines = [f"Changes: {r.label(target.document_id)} ({target.document_id}) {what}."]
        lines.append("Tombstoned: " + "; ".join(f"{r.label(d.document_id)} ({d.document_id})" for d in others) + ".")
        if excluded:
            lines.append("Untouched: " + "; ".join(r.label(d.document_id) for d in excluded) + ".")
        if mode != MODE_APPEND and r.report is not None:
            kept = sum(1 for t in r.report.tokens if t.retained)
            verdict = "passed" if r.report.passed else "FAILED — your override is recorded in the audit"
            lines.append(f"MergeGuard {verdict}: {kept}/{len(r.report.tokens)} tokens, "
                         f"length {r.report.length_ratio:.0%}.")
        lines.append("The write is one transaction with its audit row; Ctrl+Z undoes it.")
        return "\n".join(lines)

    def _risks(self, mode: str, n: int) -> list[str]:
        """Why this write is risky (empty: it is not): the confirmation then says so and defaults to Cancel."""
        r = self.r
        risks = []
        if n > 2:
            risks.append(f"{n} documents are written at once (more than 2).")
        merged = mode != MODE_APPEND
        if merged and r.report is not None and float(r.report.length_ratio) > 2.0:
            risks.append(f"The merged body is {float(r.report.length_ratio):.0%} of the longest source's length "
                         "(over 200 %): it may carry more than one fact.")
        threshold = getattr(r.host.scan_result, "threshold", None)
        ids = set(r.panels.sources.included_ids())
        if threshold is not None:
            low = sorted((c, tuple(sorted(k, key=r.panels.sources.number_of))) for k, c in r.cosines.items()
                         if set(k) <= ids and c < float(threshold))
            if low:
                c, (a, b) = low[0]
                risks.append(f"#{r.panels.sources.number_of(a)} and #{r.panels.sources.number_of(b)} are only "
                             f"{c:.3f} alike, below the scan's threshold {float(threshold):.3f}.")
        if merged and r.strict is not None and r.strict.at_risk:
            shown = ", ".join(a.describe() for a in r.strict.at_risk[:8])
            more = len(r.strict.at_risk) - 8
            risks.append(f"The strict lens finds {facts_at_risk(r.strict)} fact(s) of the sources not kept whole: "
                         f"{shown}{f' … (+{more})' if more > 0 else ''}.")
        if r.mark is not None and r.mark.likely_different:
            risks.append(f"The sources are marked likely different facts: {r.mark.reason}.")
        return risks

    def _can_write(self, at_least: int = 2) -> bool:
        r = self.r
        return r.host.can_write() and r.reviewable() and len(r.panels.sources.included_ids()) >= at_least

    def accept(self) -> None:
        if not self._can_write(at_least=0) or not self.r.body().strip():
            return
        self.r.with_fresh_guard(self._accept_checked)

    def _accept_checked(self) -> None:
        report = self.r.report
        if report is not None and report.passed:
            self._confirm_merge(MODE_MERGED_BODY, override=False)
            return
        reason, missing = (report.reason, list(report.missing)) if report is not None else ("no report", [])
        choice = self.r.prompter.guard_failed(reason, missing)
        if choice == "append":
            self.append()
        elif choice == "override":
            self._confirm_merge(MODE_MERGED_BODY, override=True)

    def append(self) -> None:
        if not self.r.host.can_write() or not self.r.reviewable() or len(self.r.ordered_included()) < 2:
            return
        self._confirm_merge(MODE_APPEND, override=False)

    def _confirm_merge(self, mode: str, *, override: bool) -> None:
        r = self.r
        plan = self._plan(mode, guard_override=override)
        appending = mode == MODE_APPEND
        title = "Append instead" if appending else ("Override MergeGuard and merge" if override else "Accept merge")
        n = len(plan.cluster_ids)
        if not r.prompter.confirm(title, f"{title}: {n} documents into one?", self._impact(mode),
                                  "Append" if appending else "Merge", risks=self._risks(mode, n)):
            return
        status = APPENDED if appending else MERGED
        desc = f"{'append' if appending else 'merge'} of {n} documents into {r.label(plan.target_id)}"
        store, merge = r.host.store, r.services.merge_cluster
        if store is None:  # can_write() said yes: a store is open
            return
        self._write(title, lambda: merge(store, plan), status, desc)

    def keep_separate(self) -> None:
        """Records as "not duplicates" only the pairs that are apart (across the model's same-fact groups, else
        between the unchecked and the included members, else every pair): never a pair of an accepted group."""
        r = self.r
        if not (r.host.can_write() and r.reviewable()):
            return
        pairs = r.pairs_kept_apart()
        if not pairs:
            return
        ids = list(dict.fromkeys(x for pair in pairs for x in pair))
        n_of = r.panels.sources.number_of
        shown = "; ".join(f"#{n_of(a)} ↔ #{n_of(b)}" for a, b in sorted(pairs, key=lambda p: (n_of(p[0]), n_of(p[1]))))
        if r.groups is not None and len(r.groups.groups) >= 2:
            why = "the pairs the model judged different facts"
        elif len(r.panels.sources.included_ids()) < len(r.members()):
            why = "each unchecked member against each included one"
        else:
            why = "every pair"
        impact = (f"No document changes. {len(pairs)} pair(s) — {why} — are remembered as not duplicates, so "
                  f"they are not nominated together again: {shown}.\n"
                  + "; ".join(r.label(i) for i in ids) + "\nRecorded in the audit; Ctrl+Z undoes it.")
        if not r.prompter.confirm("Keep separate", "Keep these documents separate?", impact, "Keep separate"):
            return
        store, keep = r.host.store, r.services.keep_separate
        if store is None:
            return
        # a mixed cluster: its same-fact group is still to merge, so it stays in the queue as its own entry
        group = r.groups.largest if r.groups is not None and len(r.groups.groups) >= 2 else ()
        self._write("Keep separate", lambda: keep(store, ids, "kept separate in memgui review", pairs=pairs),
                    KEPT_SEPARATE, f"keep-separate of {len(pairs)} pair(s) of {len(ids)} documents",
                    still_to_merge=tuple(group) if len(group) >= 2 else ())

    def skip(self) -> None:
        r = self.r
        if r.row is not None and r.row.status == NEW:
            r.decided_by[r.row.cluster_id] = YOU
            r.panels.cluster_model.set_status(r.row.cluster_id, SKIPPED)
        r.host.next_cluster(prefer_new=True)

    def _write(self, label: str, fn: Callable[[], AuditEntry], status: str, desc: str, *,
               still_to_merge: tuple[str, ...] = ()) -> None:
        row = self.r.row
        if row is None:  # a write needs the cluster on screen (the actions are disabled without one)
            return
        self.r.runner.start("write", lambda cancel: fn(), label=label, show_in_status=True,
                            on_done=lambda entry: self._written(row, entry, status, desc, still_to_merge),
                            on_error=self._write_error)
        self.r.changed.emit()

    def _written(self, row: ClusterRow, entry: AuditEntry, status: str, desc: str,
                 still_to_merge: tuple[str, ...] = ()) -> None:
        r = self.r
        audit_id = int(entry.audit_id)
        r.decided_by[row.cluster_id] = YOU
        r.panels.cluster_model.set_status(row.cluster_id, status, audit_id)
        cluster_id = row.cluster_id
        if still_to_merge:
            group_id, rest_id = r.host.split_off(row.cluster_id, still_to_merge)
            cluster_id = rest_id or cluster_id
            self._history[audit_id] = (cluster_id, status, desc)
            self.undo_stack.append(audit_id)
            self.redo_stack.clear()
            r.host.show_status(f"Done: {desc} (audit #{audit_id}); the same-fact group stays in the queue as its "
                               "own entry. Ctrl+Z undoes the keep-separate.", 8000)
            r.writeFinished.emit(entry)
            r.host.store_written()
            r.changed.emit()
            if group_id is not None:
                r.host.select_cluster(group_id)
            return
        self._history[audit_id] = (cluster_id, status, desc)
        self.undo_stack.append(audit_id)
        self.redo_stack.clear()
        r.host.show_status(f"Done: {desc} (audit #{audit_id}). Ctrl+Z undoes it.", 8000)
        r.writeFinished.emit(entry)
        r.host.store_written()
        r.changed.emit()
        if r.row is row:
            r.host.next_cluster(prefer_new=True)

    def _write_error(self, exc: BaseException) -> None:
        r, s = self.r, self.r.services
        r.writeFailed.emit(one_line(exc))
        r.changed.emit()
        if isinstance(exc, s.stale_source_error):
            if r.prompter.stale_source(one_line(exc)):
                r.load(r.row, keep_body=True)
            return
        r.prompter.error("Cannot undo" if isinstance(exc, s.audit_error) else "Nothing was written", one_line(exc))

    # ---- undo / redo ------------------------------------------------------------------------------------

    def revert(self, action: str) -> None:
        r = self.r
        stack = self.undo_stack if action == "undo" else self.redo_stack
        if not stack:
            r.host.show_status(f"Nothing to {action} in this session", 4000)
            return
        if not r.host.can_write():
            return
        audit_id = stack[-1]
        cluster_id, status, desc = self._history.get(audit_id, (None, NEW, f"audit #{audit_id}"))
        if not r.prompter.confirm_revert(action, desc, audit_id):
            return
        store, fn = r.host.store, (r.services.undo if action == "undo" else r.services.redo)
        if store is None:
            return
        r.runner.start("write", lambda cancel: fn(store, audit_id), label=action.capitalize(), show_in_status=True,
                       on_done=lambda entry: self._reverted(action, audit_id, cluster_id, status, desc),
                       on_error=self._write_error)
        r.changed.emit()

    def _reverted(self, action: str, audit_id: int, cluster_id: str | None, status: str, desc: str) -> None:
        r, model = self.r, self.r.panels.cluster_model
        if action == "undo":
            self.undo_stack.remove(audit_id)
            self.redo_stack.append(audit_id)
        else:
            self.redo_stack.remove(audit_id)
            self.undo_stack.append(audit_id)
        if cluster_id is not None:  # None: a write this session did not make (its cluster is not known)
            if action == "undo":
                model.set_status(cluster_id, NEW, None)
                r.decided_by.pop(cluster_id, None)
            else:
                r.decided_by[cluster_id] = YOU
                model.set_status(cluster_id, status, audit_id)
        r.host.show_status(f"{action.capitalize()} done: {desc} (audit #{audit_id})", 8000)
        r.host.store_written()
        if cluster_id is not None:
            r.host.select_cluster(cluster_id)
        if r.row is not None and r.row.cluster_id == cluster_id:
            r.load(model.row_at(model.row_of(cluster_id)))
        r.changed.emit()
