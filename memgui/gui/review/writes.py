"""The writes of the cluster under review — accept (merged body), append, keep separate, skip — and this
session's undo / redo. Each write is one core call on a worker after a confirmation that says what changes;
the core refuses stale sources, and its message is shown. Works on the `Review` controller's state."""
from __future__ import annotations

from typing import Any, Callable

from ..services.values import MODE_APPEND, MODE_MERGED_BODY
from ..workers import one_line
from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow


class Writes:
    def __init__(self, review: Any):
        self.r = review
        self.undo_stack: list[int] = []
        self.redo_stack: list[int] = []
        self._history: dict[int, tuple[Any, str, str]] = {}  # audit id -> (cluster id, status, description)

    def _plan(self, mode: str, *, guard_override: bool = False) -> Any:
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
                                  "Append" if appending else "Merge"):
            return
        status = APPENDED if appending else MERGED
        desc = f"{'append' if appending else 'merge'} of {n} documents into {r.label(plan.target_id)}"
        store, merge = r.host.store, r.services.merge_cluster
        self._write(title, lambda: merge(store, plan), status, desc)

    def keep_separate(self) -> None:
        r = self.r
        ids = r.panels.sources.included_ids()
        if not self._can_write():
            return
        names = "; ".join(r.label(i) for i in ids)
        impact = (f"No document changes. These {len(ids)} documents are remembered as not duplicates, so they are "
                  f"not nominated together again: {names}.\nRecorded in the audit; Ctrl+Z undoes it.")
        if not r.prompter.confirm("Keep separate", "Keep these documents separate?", impact, "Keep separate"):
            return
        store, keep = r.host.store, r.services.keep_separate
        self._write("Keep separate", lambda: keep(store, ids, "kept separate in memgui review"), KEPT_SEPARATE,
                    f"keep-separate of {len(ids)} documents")

    def skip(self) -> None:
        r = self.r
        if r.row is not None and r.row.status == NEW:
            r.panels.cluster_model.set_status(r.row.cluster_id, SKIPPED)
        r.host.next_cluster(prefer_new=True)

    def _write(self, label: str, fn: Callable[[], Any], status: str, desc: str) -> None:
        row = self.r.row
        self.r.runner.start("write", lambda cancel: fn(), label=label, show_in_status=True,
                            on_done=lambda entry: self._written(row, entry, status, desc),
                            on_error=self._write_error)
        self.r.changed.emit()

    def _written(self, row: ClusterRow, entry: Any, status: str, desc: str) -> None:
        r = self.r
        audit_id = int(entry.audit_id)
        r.panels.cluster_model.set_status(row.cluster_id, status, audit_id)
        self._history[audit_id] = (row.cluster_id, status, desc)
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
        impact = (f"{action.capitalize()} the {desc} (audit #{audit_id}): every document it touched gets back the "
                  f"text it had {'before' if action == 'undo' else 'after'} it. The core refuses if any of them "
                  f"changed since. The {action} itself is recorded in the audit.")
        if not r.prompter.confirm(action.capitalize(), f"{action.capitalize()} the {desc}?", impact,
                                  action.capitalize()):
            return
        store, fn = r.host.store, (r.services.undo if action == "undo" else r.services.redo)
        r.runner.start("write", lambda cancel: fn(store, audit_id), label=action.capitalize(), show_in_status=True,
                       on_done=lambda entry: self._reverted(action, audit_id, cluster_id, status, desc),
                       on_error=self._write_error)
        r.changed.emit()

    def _reverted(self, action: str, audit_id: int, cluster_id: Any, status: str, desc: str) -> None:
        r, model = self.r, self.r.panels.cluster_model
        if action == "undo":
            self.undo_stack.remove(audit_id)
            self.redo_stack.append(audit_id)
            model.set_status(cluster_id, NEW, None)
        else:
            self.redo_stack.remove(audit_id)
            self.undo_stack.append(audit_id)
            model.set_status(cluster_id, status, audit_id)
        r.host.show_status(f"{action.capitalize()} done: {desc} (audit #{audit_id})", 8000)
        r.host.store_written()
        r.host.select_cluster(cluster_id)
        if r.row is not None and r.row.cluster_id == cluster_id:
            r.load(model.row_at(model.row_of(cluster_id)))
        r.changed.emit()
