"""Drafting the merged body of the cluster under review: the decider call (streamed, cancellable, one loaded
model at a time), the sentence-union draft, the debounced MergeGuard and word-diff jobs, and the second reader
when asked (all off the GUI thread, stale results dropped). Works on the `Review` controller's state and panels."""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime, timezone

from ..services.types import DeciderResult, Document, FactGroups, ReaderReport, SelfTestReport, WordDiff
from ..services.values import Progress
from ..workers import one_line
from .cluster_model import ClusterRow
from .decider_slot import DeciderKey, DeciderSlot
from .state import GuardKey, GuardResult, ReviewState

GROUPS_STAGE = "fact groups"  # the partition, as soon as every pair is judged
_INCAPABLE = object()  # the model failed its capability self-test: nothing was asked


class Drafting:
    def __init__(self, review: ReviewState):
        self.r = review
        ahead = getattr(review.services, "ahead", None)
        self.slot = DeciderSlot(ahead.turns() if ahead is not None else None)
        self.selftests = self.slot.selftests  # decider key -> the core's self-test verdict (shared with the queue)
        self._after_guard: Callable[[], None] | None = None
        self._judging = False  # pairs are being judged: their stream goes on each pair's "same fact?" line
        self._asked_for: ClusterRow | None = None  # the queue row the running model call is for
        self._guard_timer = review.timer(self._run_guard)
        self._diff_timer = review.timer(self._run_diff)
        review.panels.diff_view.sourceChosen.connect(lambda _id: self._diff_timer.start(0))
        self._reader_key: GuardKey | None = None  # the (body, included ids) the reader's verdict shown is about
        review.panels.guard_panel.reader.requested.connect(self.read_body)

    def schedule(self, *, guard_ms: int | None = None, diff_ms: int | None = None) -> None:
        if guard_ms is not None:
            self._guard_timer.start(guard_ms)
        if diff_ms is not None:
            self._diff_timer.start(diff_ms)

    def forget_pending(self) -> None:
        self._after_guard = None

    def close(self) -> None:
        self.slot.close()

    # ---- union draft -------------------------------------------------------------------------------------

    def union_draft(self) -> None:
        r, union = self.r, self.r.services.sentence_union
        docs = r.ordered_included()
        if not docs:
            return
        if r.body().strip() and (r.origin == "typed" or "edited" in r.origin) and not r.prompter.confirm(
                "Replace your edit", "Replace the merged body you edited with the union draft?",
                "Your edits go (Ctrl+Z in the editor brings them back).", "Replace"):
            return
        primary, others = docs[0].markdown_body, [d.markdown_body for d in docs[1:]]
        r.runner.start("union", lambda cancel: union(primary, others), label="Union draft",
                       on_done=lambda text: r.set_body(text, "union"),
                       on_error=lambda exc: r.prompter.error("Union draft failed", one_line(exc)))

    # ---- guard (debounced, off the GUI thread) ---------------------------------------------------------

    def _run_guard(self) -> None:
        r, panel = self.r, self.r.panels.guard_panel
        docs = r.ordered_included()
        if not docs:
            panel.clear()
            return
        key = r.guard_key()
        body = key[0]
        bodies = [d.markdown_body for d in docs]
        texts = {d.document_id: d.markdown_body for d in r.docs}
        titles, kept_title = [d.title or "" for d in docs], docs[0].title or ""
        included = {d.document_id for d in docs}
        s = r.services
        check, spans_of, appended = s.check_merge, s.missing_spans, s.build_appended_body
        check_strict, token_spans = s.check_strict, s.token_spans
        today = datetime.now(timezone.utc).date()

        def job(cancel):
            report = check(bodies, body)
            # memgui's stricter lens on the same body, beside Netclaw's verdict (which alone decides)
            strict = check_strict(bodies, body, titles=titles, kept_title=kept_title) if body.strip() else None
            at_risk = [a.token for a in strict.at_risk] if strict is not None else []
            spans, risky = {}, {}
            for doc_id, text in texts.items():
                cancel.raise_if_cancelled()
                spans[doc_id] = spans_of(text, report, utf16=True)
                # at-risk facts are the included sources' facts: an unchecked member is not highlighted
                risky[doc_id] = token_spans(text, at_risk) if at_risk and doc_id in included else []
            preview = None
            if len(bodies) > 1:
                preview = bodies[0]
                for other in bodies[1:]:
                    preview = appended(preview, other, today)
            return report, strict, spans, risky, preview

        panel.set_pending(True)
        r.runner.start("guard", job, label="MergeGuard", on_done=lambda res: self._guard_done(key, docs, res),
                       on_error=lambda exc: panel.set_unavailable(f"MergeGuard failed to run: {one_line(exc)}"))

    def _guard_done(self, key: GuardKey, docs: list[Document], result: GuardResult) -> None:
        r, p = self.r, self.r.panels
        if key != r.guard_key():
            return  # the body or the selection changed meanwhile; a newer run is scheduled
        report, strict, spans, risky, preview = result
        r.report, r.report_key, r.strict = report, key, strict
        labels = [f"#{p.sources.number_of(d.document_id)}" for d in docs]
        if key != self._reader_key:  # the reader's verdict (or its running read) is about another body
            self._reader_key = None
            r.runner.cancel("reader")
        if not key[0].strip():
            p.guard_panel.clear()
            p.guard_panel.show_fallback(preview)
            p.sources.set_missing({})
        else:
            if self._reader_key is None:
                p.guard_panel.reader.clear(can_ask=r.services.read_merge is not None)
            p.guard_panel.set_report(report, labels, strict)
            p.guard_panel.show_fallback(preview)
            p.sources.set_missing(spans, risky)
        r.guardUpdated.emit(report)
        r.changed.emit()
        pending, self._after_guard = self._after_guard, None
        if pending is not None:
            pending()

    def with_fresh_guard(self, then: Callable[[], None]) -> None:
        if self.r.guard_is_current():
            then()
        else:
            self._after_guard = then
            self._guard_timer.start(0)

    # ---- the second reader (asked by the button; on a worker, with the one loaded model) ------------------

    def read_body(self) -> None:
        """Ask the model, for each included source, whether the merged body keeps every fact of it (the
        question accept-safe asks before a write); the verdicts go on the guard panel's reader line."""
        r, box = self.r, self.r.panels.guard_panel.reader
        read = r.services.read_merge
        docs, body = r.ordered_included(), r.body()
        if read is None:
            box.set_unavailable("this window has no reader service")
            return
        if not docs or not body.strip():
            return
        key, ids = r.guard_key(), [d.document_id for d in docs]
        sources = [d.markdown_body for d in docs]
        labels = [f"#{r.panels.sources.number_of(i)}" for i in ids]
        settings, dkey, slot, make = r.host.settings, self._key(), self.slot, r.services.make_decider

        def job(cancel):
            with (slot.turns.reviewer() if slot.turns is not None else contextlib.nullcontext()):
                decider = yield from slot.acquire(dkey, lambda: make(settings), cancel)
                return (yield from read(decider, sources, body, document_ids=ids, cancel=cancel))

        def progress(p: Progress) -> None:
            if key == self._reader_key and p.total:
                box.set_pending(f"reading {labels[min(p.done, len(labels) - 1)]} ({min(p.done + 1, p.total)}/{p.total})…")
            elif key == self._reader_key and p.stage == "loading model":
                box.set_pending("loading the model…")

        self._reader_key = key
        box.set_pending()
        r.runner.start("reader", job, label="Second reader", show_in_status=True, on_progress=progress,
                       on_done=lambda report: self._reader_done(key, labels, report),
                       on_error=lambda exc: self._reader_failed(key, exc),
                       on_cancelled=lambda: self._reader_failed(key, None))

    def _reader_done(self, key: GuardKey, labels: list[str], report: ReaderReport) -> None:
        if key == self._reader_key == self.r.guard_key():
            self.r.panels.guard_panel.reader.set_report(report, labels)

    def _reader_failed(self, key: GuardKey, exc: BaseException | None) -> None:
        if key != self._reader_key:
            return
        self._reader_key = None
        box = self.r.panels.guard_panel.reader
        box.clear() if exc is None else box.set_unavailable(one_line(exc))

    # ---- diff (off the GUI thread, stale results dropped) -----------------------------------------------

    def _run_diff(self) -> None:
        r, view = self.r, self.r.panels.diff_view
        diff_work = r.services.audit.word_diff_work
        pair = view.current_pair()
        if pair is not None:  # source vs source: no merged body needed
            a, b = r.doc(pair[0]), r.doc(pair[1])
            if a is None or b is None:
                view.show_message("")
                return
            request = view.next_request()
            old, new = a.markdown_body, b.markdown_body
            r.runner.start("diff", lambda cancel: diff_work(old, new, cancel=cancel), label="Word diff",
                           on_done=lambda diff: self._diff_done(request, diff),
                           on_error=lambda exc: view.show_message(f"Diff failed: {one_line(exc)}"))
            return
        doc = r.doc(view.current_source() or "")
        body = r.body()
        if doc is None:
            view.show_message("")
            return
        if not body.strip() and not r.reviewable() and r.outcome():
            view.next_request()
            view.show_message(f"{r.outcome()}. Pick \"source #1 vs source #2\" above to compare the sources.")
            return
        if not body.strip():
            view.next_request()  # makes any running diff stale
            view.show_message("No merged body yet — press U for the union draft, M to ask the model, "
                              "or E to write it yourself. The diff against each source appears here; "
                              "pick \"source #1 vs source #2\" above to compare two sources now.")
            return
        request = view.next_request()
        source = doc.markdown_body
        r.runner.start("diff", lambda cancel: diff_work(source, body, cancel=cancel), label="Word diff",
                       on_done=lambda diff: self._diff_done(request, diff),
                       on_error=lambda exc: view.show_message(f"Diff failed: {one_line(exc)}"))

    def _diff_done(self, request: int, diff: WordDiff) -> None:
        if self.r.panels.diff_view.show_diff(request, diff):
            self.r.diffUpdated.emit(diff)

    # ---- the decider ------------------------------------------------------------------------------------

    def decider_key(self) -> DeciderKey:
        """The model settings the loaded decider belongs to (the decisions-ahead queue uses the same one)."""
        return self._key()

    def _key(self) -> DeciderKey:
        settings = self.r.host.settings
        return (settings.decider_model, settings.llm_threads, settings.llm_context)

    def ask_model(self) -> None:
        """Judge every pair of the cluster ("same fact?") on the worker, then draft the merged body for the
        largest same-fact group only (the decider on that group's documents), as `memgui decide` does."""
        r, s = self.r, self.r.services
        if not r.reviewable():
            return
        members = [d for d in r.docs if not d.is_tombstoned]
        included = r.panels.sources.included_ids()
        docs = [d for d in r.docs if d.document_id in included]
        if len(docs) < 2:
            return
        store, cosines, inputs, judge_pairs = r.host.store, dict(r.cosines), s.decider_input, s.judge_pairs
        if store is None:  # reviewable: a cluster of the open store is on show
            return
        settings, key, slot = r.host.settings, self._key(), self.slot
        make, selftest, selftests = s.make_decider, s.selftest, self.selftests
        row = r.row

        def job(cancel):
            # The reviewer's call goes first: the decisions-ahead queue gives up the model while this runs.
            with (slot.turns.reviewer() if slot.turns is not None else contextlib.nullcontext()):
                return (yield from run(cancel))

        def run(cancel):
            decider = yield from slot.acquire(key, lambda: make(settings), cancel)
            if selftest is not None and key not in selftests:
                yield Progress("loading model", 0, None, "running the capability self-test")
                test = selftest(decider, cancel=cancel)
                selftests[key] = test if isinstance(test, SelfTestReport) else (yield from test)
            verdict = selftests.get(key)
            if verdict is not None and not verdict.capable:
                return _INCAPABLE, verdict  # its "same fact?" answers would pick the members: not trusted
            groups, drafted = None, docs
            judge = getattr(decider, "judge_pair", None)  # a decider without it answers for the whole cluster
            if judge is not None and len(members) >= 2:
                def one_pair(existing, new, cancel=None):
                    return judge(existing, new, cancel=cancel, timeout_s=settings.llm_timeout_s)

                groups = yield from judge_pairs(members, one_pair, cancel=cancel)
                yield Progress(GROUPS_STAGE, 0, None, payload=groups)  # shown now, not after the draft
                drafted = [d for d in members if d.document_id in set(groups.largest)]
            if len(drafted) < 2:
                return groups, None  # every pair judged different: nothing to draft
            proposal, candidates = inputs(store, drafted, cosines)
            yield Progress("deciding", 0, None, f"asking {decider.model_id}")
            result = yield from decider.decide(proposal, candidates, full_candidate_content=True, cancel=cancel,
                                               timeout_s=settings.llm_timeout_s)
            return groups, result

        r.panels.decision_panel.begin_stream()
        self._judging = False
        self._asked_for = row
        r.runner.start("decide", job, label="Asking the model", show_in_status=True,
                       on_progress=self._on_model_progress,
                       on_done=lambda result: self._model_done(row, result),
                       on_error=self._model_failed, on_cancelled=self._model_cancelled)
        r.changed.emit()

    def cancel_model(self) -> None:
        self.r.runner.cancel("decide")  # its on_cancelled (`_model_cancelled`) runs once, from there

    def _on_model_progress(self, progress: Progress) -> None:
        r, panel = self.r, self.r.panels.decision_panel
        if progress.stage == GROUPS_STAGE:
            if self._asked_for is r.row:
                r.show_groups(progress.payload)
            return
        if progress.stage == "judging pairs":
            total = progress.total or 0
            step = min(progress.done + 1, total)
            panel.set_model_text(f"judging pairs {step}/{total}" if progress.done < total
                                 else f"judged {total} pair{'s' if total != 1 else ''}")
            self._judging = progress.done < total
            if progress.done < total:
                pair = " vs ".join(r.label(i) if r.doc(i) else i for i in (progress.message or "").split(" vs "))
                panel.begin_call(f"same fact? {pair} ({step}/{total})")
        elif progress.payload is not None:
            panel.append_stream(str(progress.payload))
        elif self._judging:
            pass  # the judge's own call header ("classifying"): the pair's "same fact?" line already says it
        elif progress.stage in ("loading model", "deciding") and progress.message and not r.doc(progress.message):
            panel.set_model_text(f"{progress.stage}: {progress.message}…")
        else:
            # A new model call starts (e.g. "classifying" against one candidate, then "merging"): one line each.
            about = f" {r.label(progress.message)}" if r.doc(progress.message) else ""
            count = f" ({progress.done + 1}/{progress.total})" if progress.total and progress.done < progress.total else ""
            panel.begin_call(f"{progress.stage}{about}{count}")

    def _model_cancelled(self) -> None:
        self.r.panels.decision_panel.show_cancelled()
        self.r.host.show_status("Model call cancelled", 4000, about=self.r.row)
        self.r.decisionFinished.emit(None)
        self.r.changed.emit()

    def _model_failed(self, exc: BaseException) -> None:
        self.r.panels.decision_panel.show_error(one_line(exc))
        self.r.decisionFinished.emit(None)
        self.r.changed.emit()

    def _model_done(self, row: ClusterRow | None, answer: tuple) -> None:
        if row is not self.r.row:
            return
        if answer[0] is _INCAPABLE:
            why = answer[1].summary or "see `memgui models`"
            self.r.panels.decision_panel.warn(
                f"This model failed the capability self-test ({why}), so it judged nothing here. Use the union "
                "draft (U), or choose another model in Settings (Ctrl+,).")
            self.r.decisionFinished.emit(None)
            self.r.changed.emit()
            return
        self.show_answer(*answer)

    def show_answer(self, groups: FactGroups | None, result: DeciderResult | None, origin: str = "model") -> None:
        """The model's same-fact groups and decision on the panels, its merged body in the editor (also for a
        review the decisions-ahead queue computed before the reviewer got here)."""
        r, p = self.r, self.r.panels
        if groups is not None:
            r.show_groups(groups)
        if result is None:
            p.decision_panel.show_all_different()
            r.host.show_status("The model judged every pair a different fact. Keep separate (C) if you agree.",
                               8000, about=r.row)
            r.decisionFinished.emit(None)
            r.changed.emit()
            return
        r.decider_result = result
        p.decision_panel.show_result(result, r.label, r.ids_to_labels)
        verdict = self.selftests.get(self._key())
        if verdict is not None and not verdict.capable:
            why = verdict.summary or "see `memgui models`"
            p.decision_panel.warn(f"This model failed the capability self-test ({why}): treat its decision "
                                  "as a hint; MergeGuard and your review decide.")
        decision = result.decision
        if decision is not None:
            ids = [d.document_id for d in r.docs]
            targets = [t for t in ([decision.target_document_id] + list(decision.consolidation_target_ids or ()))
                       if t in ids]
            if groups is not None and groups.target:
                # never a member judged different from the group the body is drafted for
                p.sources.set_target(groups.target)
            elif targets:
                p.sources.set_target(targets[0])
            kind = decision.kind.value
            if decision.merged_body and decision.merged_body.strip():
                r.set_body(decision.merged_body, origin)
            elif kind in ("CREATE", "SKIP"):
                r.host.show_status(
                    f"The model answered {kind}: it sees different facts. Keep separate (C) if you agree.", 8000,
                    about=r.row)
        r.decisionFinished.emit(result)
        r.changed.emit()
