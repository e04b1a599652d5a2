"""The cluster under review: its documents and drafted stamps, the merged body and where it came from, the
decider call, the debounced guard and diff jobs, and the writes (accept / append / keep separate / undo /
redo). Every decision is the core's; this class gathers inputs, asks, and shows."""
from __future__ import annotations

import inspect
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextCursor

from ..core.merge.diff import word_diff_work
from ..core.tasks import Progress
from .cluster_model import APPENDED, KEPT_SEPARATE, MERGED, NEW, SKIPPED, ClusterRow
from .services import decider_inputs, default_target
from .workers import one_line

if TYPE_CHECKING:  # pragma: no cover
    from .main_window import MainWindow

REVIEWABLE = (NEW, SKIPPED)


class Review(QObject):
    clusterLoaded = Signal(object)  # ClusterRow
    guardUpdated = Signal(object)  # MergeGuardReport | None
    diffUpdated = Signal(object)  # WordDiff
    decisionFinished = Signal(object)  # DeciderResult | None (cancelled / failed)
    writeFinished = Signal(object)  # AuditEntry
    writeFailed = Signal(str)
    changed = Signal()  # anything that affects which actions are enabled

    def __init__(self, window: "MainWindow"):
        super().__init__(window)
        self.w = window
        self.row: ClusterRow | None = None
        self.docs: list[Any] = []
        self.stamps: dict[str, Any] = {}
        self.cosines: dict[frozenset, float] = {}
        self.origin = ""
        self.decider_result: Any = None
        self.report: Any = None
        self._report_key: tuple | None = None
        self._after_guard: Callable[[], None] | None = None
        self._setting_body = False
        self._deciders: dict[tuple, Any] = {}
        self._selftests: dict[tuple, Any] = {}  # decider key -> the core's self-test verdict
        self.undo_stack: list[int] = []
        self.redo_stack: list[int] = []
        self._history: dict[int, tuple[Any, str, str]] = {}  # audit id -> (cluster id, status, description)
        self._guard_timer = self._timer(self._run_guard)
        self._diff_timer = self._timer(self._run_diff)
        w = window
        w.editor.textChanged.connect(self._on_body_edited)
        w.sources.selectionChanged.connect(self._on_selection_changed)
        w.diff_view.sourceChosen.connect(lambda _id: self._diff_timer.start(0))

    def _timer(self, slot) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.timeout.connect(slot)
        return timer

    # ---- small views of the state -------------------------------------------------------------------

    @property
    def services(self):
        return self.w.services

    def body(self) -> str:
        return self.w.editor.toPlainText()

    def doc(self, doc_id: str) -> Any:
        return next((d for d in self.docs if d.document_id == doc_id), None)

    def label(self, doc_id: str) -> str:
        doc = self.doc(doc_id)
        n = self.w.sources.number_of(doc_id)
        return f"#{n} “{doc.title}”" if doc is not None else doc_id

    def ids_to_labels(self, text: str) -> str:
        """Document ids in model text shown as the pane numbers the person sees (#1, #2, …)."""
        for doc in self.docs:
            text = text.replace(doc.document_id, f"#{self.w.sources.number_of(doc.document_id)}")
        return text

    def ordered_included(self) -> list[Any]:
        """Target first, then the other included members (the order the core's merge uses)."""
        ids = self.w.sources.included_ids()
        target = self.w.sources.target_id()
        ordered = ([target] if target in ids else []) + [i for i in ids if i != target]
        return [self.doc(i) for i in ordered if self.doc(i) is not None]

    def reviewable(self) -> bool:
        return self.row is not None and bool(self.docs) and self.row.status in REVIEWABLE

    def guard_is_current(self) -> bool:
        return self.report is not None and self._report_key == self._guard_key()

    def _guard_key(self) -> tuple:
        return (self.body(), tuple(d.document_id for d in self.ordered_included()))

    # ---- loading a cluster ---------------------------------------------------------------------------

    def load(self, row: ClusterRow | None, *, keep_body: bool = False) -> None:
        w = self.w
        w.runner.cancel("decide")
        w.runner.cancel("union")
        self.row = row
        self.report, self._report_key, self._after_guard = None, None, None
        if row is None or w.store is None:
            self.docs, self.stamps, self.cosines = [], {}, {}
            w.sources.clear()
            self._set_body("", "")
            self.decider_result = None
            w.decision_panel.clear()
            w.guard_panel.clear()
            w.diff_view.set_sources([])
            w.diff_view.show_message("")
            self.changed.emit()
            return
        docs = w.store.documents_by_ids(row.member_ids)
        self.docs = sorted(docs, key=lambda d: (d.updated_at, d.document_id))
        stamp = getattr(self.services.apply, "SourceStamp", None)
        self.stamps = {d.document_id: (stamp.of(d) if stamp else (d.content_hash, d.updated_at)) for d in self.docs}
        self.cosines = {frozenset((p.a, p.b)): float(p.cosine) for p in row.cluster.pairs if p.cosine is not None}
        live = [d for d in self.docs if not d.is_tombstoned]
        target = self._default_target(live or self.docs)
        w.sources.set_documents(self.docs, self.cosines, target)
        w.diff_view.set_sources([(d.document_id, f"#{i + 1} {d.title}") for i, d in enumerate(self.docs)])
        if not keep_body:
            self.decider_result = None
            w.decision_panel.clear()
            self._set_body("", "")
        w.guard_panel.clear()
        self._guard_timer.start(0)
        self._diff_timer.start(0)
        self.clusterLoaded.emit(row)
        self.changed.emit()

    def _default_target(self, docs: list[Any]) -> str | None:
        return default_target(docs)

    # ---- the merged body ---------------------------------------------------------------------------

    def _set_body(self, text: str, origin: str) -> None:
        """Replace the editor text as one undoable edit (Ctrl+Z inside the editor brings the old text back)."""
        editor = self.w.editor
        self._setting_body = True
        try:
            if not editor.toPlainText() and not text:
                pass
            else:
                cursor = editor.textCursor()
                cursor.select(QTextCursor.SelectionType.Document)
                cursor.insertText(text)
                editor.moveCursor(QTextCursor.MoveOperation.Start)
        finally:
            self._setting_body = False
        self.origin = origin
        self._show_origin()
        self._guard_timer.start(0)
        self._diff_timer.start(0)
        self.changed.emit()

    def _show_origin(self) -> None:
        target = self.w.sources.target_id()
        where = f" → target {self.label(target)}" if target else ""
        origin = {"": "empty — U union draft · M ask the model · E write it"}.get(self.origin, f"draft: {self.origin}")
        self.w.editor_title.setText(f"Merged body{where}   ({origin})")

    def _on_body_edited(self) -> None:
        if self._setting_body:
            return
        if self.origin and "edited" not in self.origin:
            self.origin = f"{self.origin} · edited"
        elif not self.origin:
            self.origin = "typed"
        self._show_origin()
        self._guard_timer.start(self.w.settings.guard_debounce_ms)
        self._diff_timer.start(self.w.settings.guard_debounce_ms + 50)
        self.changed.emit()

    def _on_selection_changed(self) -> None:
        self._show_origin()
        self._guard_timer.start(0)
        self.changed.emit()

    def union_draft(self) -> None:
        union = self.services.sentence_union
        docs = self.ordered_included()
        if union is None or len(docs) < 1:
            return
        primary, others = docs[0].markdown_body, [d.markdown_body for d in docs[1:]]
        self.w.runner.start("union", lambda cancel: union(primary, others), label="Union draft",
                            on_done=lambda text: self._set_body(text, "union"),
                            on_error=lambda exc: self.w.prompter.error("Union draft failed", one_line(exc)))

    # ---- guard (debounced, off the GUI thread) ---------------------------------------------------------

    def _run_guard(self) -> None:
        s, panel = self.services, self.w.guard_panel
        docs = self.ordered_included()
        if s.check_merge is None:
            panel.set_unavailable("memgui.core.guard is not available")
            return
        if not docs:
            panel.clear()
            return
        key = self._guard_key()
        body = key[0]
        bodies = [d.markdown_body for d in docs]
        texts = {d.document_id: d.markdown_body for d in self.docs}
        check, spans_of, appended = s.check_merge, s.missing_spans, s.build_appended_body
        today = datetime.now(timezone.utc).date()

        def job(cancel):
            report = check(bodies, body)
            spans = {}
            if spans_of is not None:
                for doc_id, text in texts.items():
                    cancel.raise_if_cancelled()
                    spans[doc_id] = spans_of(text, report, utf16=True)
            preview = None
            if appended is not None and len(bodies) > 1:
                preview = bodies[0]
                for other in bodies[1:]:
                    preview = appended(preview, other, today)
            return report, spans, preview

        panel.set_pending(True)
        self.w.runner.start("guard", job, label="MergeGuard", on_done=lambda res: self._guard_done(key, docs, res),
                            on_error=lambda exc: panel.set_unavailable(f"MergeGuard failed to run: {one_line(exc)}"))

    def _guard_done(self, key: tuple, docs: list[Any], result: tuple) -> None:
        if key != self._guard_key():
            return  # the body or the selection changed meanwhile; a newer run is scheduled
        report, spans, preview = result
        self.report, self._report_key = report, key
        labels = [f"#{self.w.sources.number_of(d.document_id)}" for d in docs]
        if not key[0].strip():
            self.w.guard_panel.clear()
            self.w.guard_panel.show_fallback(preview)
            self.w.sources.set_missing({})
        else:
            self.w.guard_panel.set_report(report, labels)
            self.w.guard_panel.show_fallback(preview)
            self.w.sources.set_missing(spans)
        self.guardUpdated.emit(report)
        self.changed.emit()
        pending, self._after_guard = self._after_guard, None
        if pending is not None:
            pending()

    def with_fresh_guard(self, then: Callable[[], None]) -> None:
        if self.guard_is_current():
            then()
        else:
            self._after_guard = then
            self._guard_timer.start(0)

    # ---- diff (off the GUI thread, stale results dropped) -----------------------------------------------

    def _run_diff(self) -> None:
        view = self.w.diff_view
        doc = self.doc(view.current_source() or "")
        body = self.body()
        if doc is None:
            view.show_message("")
            return
        if not body.strip():
            view.next_request()  # makes any running diff stale
            view.show_message("No merged body yet — press U for the union draft, M to ask the model, "
                              "or E to write it yourself. The diff against each source appears here.")
            return
        request = view.next_request()
        source = doc.markdown_body
        self.w.runner.start("diff", lambda cancel: word_diff_work(source, body, cancel=cancel), label="Word diff",
                            on_done=lambda diff: self._diff_done(request, diff),
                            on_error=lambda exc: view.show_message(f"Diff failed: {one_line(exc)}"))

    def _diff_done(self, request: int, diff: Any) -> None:
        if self.w.diff_view.show_diff(request, diff):
            self.diffUpdated.emit(diff)

    # ---- the decider ------------------------------------------------------------------------------------

    def ask_model(self) -> None:
        w, s = self.w, self.services
        if s.make_decider is None or not self.reviewable():
            return
        docs = [d for d in self.docs if d.document_id in w.sources.included_ids()]
        if len(docs) < 2:
            return
        proposal, candidates = decider_inputs(docs, self.cosines)
        settings = w.settings
        key = (settings.decider_model, settings.llm_threads, settings.llm_context)
        cache, make = self._deciders, s.make_decider
        selftest, selftests = s.selftest, self._selftests
        row = self.row

        def job(cancel):
            decider = cache.get(key)
            if decider is None:
                yield Progress("loading model", 0, None, "loading the decider model")
                decider = make(settings)
                load = getattr(decider, "load", None)
                if load is not None:
                    loading = load()
                    if inspect.isgenerator(loading):
                        yield from loading
                cache[key] = decider
            if selftest is not None and key not in selftests:
                yield Progress("loading model", 0, None, "running the capability self-test")
                verdict = selftest(decider, cancel=cancel)
                if inspect.isgenerator(verdict):
                    verdict = yield from verdict
                selftests[key] = verdict
            yield Progress("deciding", 0, None, f"asking {getattr(decider, 'model_id', 'the model')}")
            result = yield from decider.decide(proposal, candidates, full_candidate_content=True, cancel=cancel,
                                               timeout_s=settings.llm_timeout_s)
            return result

        w.decision_panel.begin_stream()
        w.runner.start("decide", job, label="Asking the model", show_in_status=True,
                       on_progress=self._on_model_progress,
                       on_done=lambda result: self._model_done(row, result),
                       on_error=self._model_failed, on_cancelled=self._model_cancelled)
        self.changed.emit()

    def cancel_model(self) -> None:
        if self.w.runner.cancel("decide"):
            self._model_cancelled()

    def _on_model_progress(self, progress: Progress) -> None:
        panel = self.w.decision_panel
        if progress.payload is not None:
            panel.append_stream(str(progress.payload))
        elif progress.stage in ("loading model", "deciding") and progress.message and not self.doc(progress.message):
            panel.set_model_text(f"{progress.stage}: {progress.message}…")
        else:
            # A new model call starts (e.g. "classifying" against one candidate, then "merging"): one line each.
            about = f" {self.label(progress.message)}" if self.doc(progress.message) else ""
            step = f" ({progress.done + 1}/{progress.total})" if progress.total and progress.done < progress.total else ""
            panel.begin_call(f"{progress.stage}{about}{step}")

    def _model_cancelled(self) -> None:
        self.w.decision_panel.show_cancelled()
        self.w.statusBar().showMessage("Model call cancelled", 4000)
        self.decisionFinished.emit(None)
        self.changed.emit()

    def _model_failed(self, exc: BaseException) -> None:
        self.w.decision_panel.show_error(one_line(exc))
        self.decisionFinished.emit(None)
        self.changed.emit()

    def _model_done(self, row: ClusterRow | None, result: Any) -> None:
        if row is not self.row:
            return
        self.decider_result = result
        self.w.decision_panel.show_result(result, self.label, self.ids_to_labels)
        settings = self.w.settings
        verdict = self._selftests.get((settings.decider_model, settings.llm_threads, settings.llm_context))
        if verdict is not None and not getattr(verdict, "capable", True):
            why = getattr(verdict, "summary", None) or "see `memgui models`"
            self.w.decision_panel.warn(f"This model failed the capability self-test ({why}): treat its decision "
                                       "as a hint; MergeGuard and your review decide.")
        decision = getattr(result, "decision", None)
        if decision is not None:
            ids = [d.document_id for d in self.docs]
            targets = [t for t in ([decision.target_document_id] + list(decision.consolidation_target_ids or ()))
                       if t in ids]
            if targets:
                self.w.sources.set_target(targets[0])
            kind = str(getattr(decision.kind, "value", decision.kind))
            if decision.merged_body and decision.merged_body.strip():
                self._set_body(decision.merged_body, "model")
            elif kind in ("CREATE", "SKIP"):
                self.w.statusBar().showMessage(
                    f"The model answered {kind}: it sees different facts. Keep separate (C) if you agree.", 8000)
        self.decisionFinished.emit(result)
        self.changed.emit()

    # ---- writes -------------------------------------------------------------------------------------------

    def _plan(self, mode: str, *, guard_override: bool = False) -> Any:
        A = self.services.apply
        docs = self.ordered_included()
        ids = tuple(d.document_id for d in docs)
        result = self.decider_result if "model" in self.origin else None
        pairs = tuple((a, b, c) for (a, b), c in ((tuple(sorted(k)), v) for k, v in self.cosines.items())
                      if a in ids and b in ids)
        return A.MergePlan(
            target_id=ids[0], source_ids=ids, mode=mode,
            merged_body=self.body() if mode == A.MODE_MERGED_BODY else None,
            drafted={i: self.stamps[i] for i in ids},
            model_id=getattr(result, "model_id", None) or None,
            prompt_hash=getattr(result, "prompt_hash", None) or None,
            prompt=(getattr(result, "extra", None) or {}).get("prompt"),
            raw_reply=getattr(result, "raw_reply", None) or None,
            rationale=getattr(result, "rationale", None) or None,
            cosines=pairs, guard_override=guard_override,
            note=f"memgui review; draft: {self.origin or 'none'}",
        )

    def _impact(self, mode: str, override: bool) -> str:
        docs = self.ordered_included()
        excluded = [d for d in self.docs if d.document_id not in {x.document_id for x in docs}]
        target, others = docs[0], docs[1:]
        what = "gets the merged body (merge-document)" if mode != "append" else \
            "keeps its body with every other source appended under a dated separator (append-document)"
        lines = [f"Changes: {self.label(target.document_id)} ({target.document_id}) {what}."]
        lines.append("Tombstoned: " + "; ".join(f"{self.label(d.document_id)} ({d.document_id})" for d in others) + ".")
        if excluded:
            lines.append("Untouched: " + "; ".join(self.label(d.document_id) for d in excluded) + ".")
        if mode != "append" and self.report is not None:
            kept = sum(1 for t in self.report.tokens if t.retained)
            verdict = "passed" if self.report.passed else "FAILED — your override is recorded in the audit"
            lines.append(f"MergeGuard {verdict}: {kept}/{len(self.report.tokens)} tokens, "
                         f"length {self.report.length_ratio:.0%}.")
        lines.append("The write is one transaction with its audit row; Ctrl+Z undoes it.")
        return "\n".join(lines)

    def accept(self) -> None:
        if not self.w.can_write() or not self.reviewable() or not self.body().strip():
            return
        self.with_fresh_guard(self._accept_checked)

    def _accept_checked(self) -> None:
        report = self.report
        if report is not None and report.passed:
            self._confirm_merge(self.services.apply.MODE_MERGED_BODY, override=False)
            return
        choice = self.w.prompter.guard_failed(getattr(report, "reason", "no report"), list(getattr(report, "missing", ())))
        if choice == "append":
            self.append()
        elif choice == "override":
            self._confirm_merge(self.services.apply.MODE_MERGED_BODY, override=True)

    def append(self) -> None:
        if not self.w.can_write() or not self.reviewable() or len(self.ordered_included()) < 2:
            return
        self._confirm_merge(self.services.apply.MODE_APPEND, override=False)

    def _confirm_merge(self, mode: str, *, override: bool) -> None:
        plan = self._plan(mode, guard_override=override)
        title = "Append instead" if mode == "append" else ("Override MergeGuard and merge" if override else "Accept merge")
        n = len(plan.cluster_ids)
        if not self.w.prompter.confirm(title, f"{title}: {n} documents into one?", self._impact(mode, override),
                                       "Append" if mode == "append" else "Merge"):
            return
        status = APPENDED if mode == "append" else MERGED
        desc = f"{'append' if mode == 'append' else 'merge'} of {n} documents into {self.label(plan.target_id)}"
        store, merge = self.w.store, self.services.apply.merge_cluster
        self._write(title, lambda: merge(store, plan), status, desc)

    def keep_separate(self) -> None:
        ids = self.w.sources.included_ids()
        if not self.w.can_write() or not self.reviewable() or len(ids) < 2:
            return
        names = "; ".join(self.label(i) for i in ids)
        impact = (f"No document changes. These {len(ids)} documents are remembered as not duplicates, so they are "
                  f"not nominated together again: {names}.\nRecorded in the audit; Ctrl+Z undoes it.")
        if not self.w.prompter.confirm("Keep separate", "Keep these documents separate?", impact, "Keep separate"):
            return
        store, keep = self.w.store, self.services.apply.keep_separate
        self._write("Keep separate", lambda: keep(store, ids, "kept separate in memgui review"), KEPT_SEPARATE,
                    f"keep-separate of {len(ids)} documents")

    def skip(self) -> None:
        if self.row is not None and self.row.status == NEW:
            self.w.cluster_model.set_status(self.row.cluster_id, SKIPPED)
        self.w.next_cluster(prefer_new=True)

    def _write(self, label: str, fn: Callable[[], Any], status: str, desc: str) -> None:
        row = self.row
        self.w.runner.start("write", lambda cancel: fn(), label=label, show_in_status=True,
                            on_done=lambda entry: self._written(row, entry, status, desc),
                            on_error=self._write_error)
        self.changed.emit()

    def _written(self, row: ClusterRow, entry: Any, status: str, desc: str) -> None:
        audit_id = int(entry.audit_id)
        self.w.cluster_model.set_status(row.cluster_id, status, audit_id)
        self._history[audit_id] = (row.cluster_id, status, desc)
        self.undo_stack.append(audit_id)
        self.redo_stack.clear()
        self.w.statusBar().showMessage(f"Done: {desc} (audit #{audit_id}). Ctrl+Z undoes it.", 8000)
        self.writeFinished.emit(entry)
        self.w.store_written()
        self.changed.emit()
        if self.row is row:
            self.w.next_cluster(prefer_new=True)

    def _write_error(self, exc: BaseException) -> None:
        A = self.services.apply
        self.writeFailed.emit(one_line(exc))
        self.changed.emit()
        if isinstance(exc, self.services.error_type(A, "StaleSourceError")):
            if self.w.prompter.stale_source(one_line(exc)):
                self.load(self.row, keep_body=True)
            return
        audit = self.services.audit
        title = "Cannot undo" if isinstance(exc, self.services.error_type(audit, "AuditError")) else "Nothing was written"
        self.w.prompter.error(title, one_line(exc))

    # ---- undo / redo ------------------------------------------------------------------------------------

    def undo(self) -> None:
        self._revert("undo")

    def redo(self) -> None:
        self._revert("redo")

    def _revert(self, action: str) -> None:
        stack = self.undo_stack if action == "undo" else self.redo_stack
        if not stack:
            self.w.statusBar().showMessage(f"Nothing to {action} in this session", 4000)
            return
        if not self.w.can_write():
            return
        audit_id = stack[-1]
        cluster_id, status, desc = self._history.get(audit_id, (None, NEW, f"audit #{audit_id}"))
        impact = (f"{action.capitalize()} the {desc} (audit #{audit_id}): every document it touched gets back the "
                  f"text it had {'before' if action == 'undo' else 'after'} it. The core refuses if any of them "
                  f"changed since. The {action} itself is recorded in the audit.")
        if not self.w.prompter.confirm(action.capitalize(), f"{action.capitalize()} the {desc}?", impact,
                                       action.capitalize()):
            return
        store, fn = self.w.store, getattr(self.services.audit, action)
        self.w.runner.start("write", lambda cancel: fn(store, audit_id), label=action.capitalize(), show_in_status=True,
                            on_done=lambda entry: self._reverted(action, audit_id, cluster_id, status, desc),
                            on_error=self._write_error)
        self.changed.emit()

    def _reverted(self, action: str, audit_id: int, cluster_id: Any, status: str, desc: str) -> None:
        if action == "undo":
            self.undo_stack.remove(audit_id)
            self.redo_stack.append(audit_id)
            self.w.cluster_model.set_status(cluster_id, NEW, None)
        else:
            self.redo_stack.remove(audit_id)
            self.undo_stack.append(audit_id)
            self.w.cluster_model.set_status(cluster_id, status, audit_id)
        self.w.statusBar().showMessage(f"{action.capitalize()} done: {desc} (audit #{audit_id})", 8000)
        self.w.store_written()
        self.w.select_cluster(cluster_id)
        if self.row is not None and self.row.cluster_id == cluster_id:
            self.load(self.w.cluster_model.row_at(self.w.cluster_model.row_of(cluster_id)))
        self.changed.emit()
