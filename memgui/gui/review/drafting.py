"""Drafting the merged body of the cluster under review: the decider call (streamed, cancellable, one loaded
model at a time), the sentence-union draft, the debounced MergeGuard and word-diff (`BodyDiff`) jobs, and the
second reader when asked (all off the GUI thread, stale results dropped). Works on the cluster under review, with
the tools it is handed and the controller's signals."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator
from datetime import datetime, timezone

from PySide6.QtCore import QObject, SignalInstance

from ..services.types import (
    DeciderResult,
    DecisionKind,
    Document,
    FactGroups,
    ProvedDraft,
    ReaderReport,
    SelfTestReport,
    Step,
    Work,
)
from ..services.values import CancelToken, Progress
from ..workers import one_line
from .aligning import Aligning
from .body_diff import BodyDiff, single_shot
from .cluster_model import ClusterRow
from .decider_slot import DeciderKey, DeciderSlot
from .draft_origin import DraftSource
from .state import GuardKey, GuardResult, ReviewTools, Spans
from .under_review import ClusterUnderReview

# the model's answer: its same-fact groups, its decision, and the self-test verdict it failed (then nothing was asked)
ModelAnswer = tuple[FactGroups | None, DeciderResult | None, SelfTestReport | None]


class Drafting:
    def __init__(self, cluster: ClusterUnderReview, tools: ReviewTools, *, set_body: Callable[[str, DraftSource], None],
                 show_groups: Callable[[FactGroups], None], timers: QObject, changed: SignalInstance,
                 decided: SignalInstance, guarded: SignalInstance, diffed: SignalInstance):
        self.cluster = cluster
        self.services, self.runner, self.prompter = tools.services, tools.runner, tools.prompter
        self.panels, self.host = tools.panels, tools.host
        self.set_body, self.show_groups = set_body, show_groups  # the editor's text and the groups: the controller's
        self.changed, self.decisionFinished, self.guardUpdated = changed, decided, guarded
        self.diff = BodyDiff(cluster, tools.services.audit.word_diff_work, tools.runner, tools.panels.diff_view,
                             timers=timers, diffed=diffed)
        ahead = getattr(tools.services, "ahead", None)
        self.slot = DeciderSlot(ahead.turns() if ahead is not None else None)
        self.selftests = self.slot.selftests  # decider key -> the core's self-test verdict (shared with the queue)
        self._after_guard: Callable[[], None] | None = None
        self._judging = False  # pairs are being judged: their stream goes on each pair's "same fact?" line
        self._asked_for: ClusterRow | None = None  # the queue row the running model call is for
        self._guard_timer = single_shot(timers, self._run_guard)
        self._reader_key: GuardKey | None = None  # the (body, included ids) the reader's verdict shown is about
        tools.panels.guard_panel.reader.requested.connect(self.read_body)
        # memgui's verdict and the alignment view, after each guard run; R's confirmations
        self.aligning = Aligning(cluster, tools, changed=changed, draft_union=self._draft_union)
        # the body memgui's lens reads: a supersession's history phrases read as the statements they keep
        self.lens_body: Callable[[str], str] = lambda body: body

    def schedule(self, *, guard_ms: int | None = None, diff_ms: int | None = None) -> None:
        if guard_ms is not None:
            self._guard_timer.start(guard_ms)
        if diff_ms is not None:
            self.diff.schedule(diff_ms)

    def forget_pending(self) -> None:
        self._after_guard = None

    def close(self) -> None:
        self.slot.close()

    # ---- union draft -------------------------------------------------------------------------------------

    def union_draft(self) -> None:
        c = self.cluster
        docs = c.ordered_included()
        if not docs:
            return
        if c.body().strip() and c.origin.by_hand and not self.prompter.confirm(
                "Replace your edit", "Replace the merged body you edited with the union draft?",
                "Your edits go (Ctrl+Z in the editor brings them back).", "Replace"):
            return
        self._draft_union(docs)

    def _draft_union(self, docs: list[Document], then: Callable[[], None] | None = None) -> None:
        """The union draft of `docs` (the first kept whole) on a worker, the restatements the reviewer confirmed
        left out (core keep_draft.prove_or_keep, as the sentence union); the draft is remembered with its ids so
        its kept-back sentences can be shown."""
        c, prove = self.cluster, self.services.alignment.prove_or_keep
        sources, ids = [d.markdown_body or "" for d in docs], tuple(d.document_id for d in docs)
        confirmed = c.confirmed_keys(docs)

        def job(cancel: CancelToken) -> tuple[str, ProvedDraft | None]:
            if not any(s.strip() for s in sources[1:]):
                return sources[0], None  # nothing to add to the note kept whole
            draft = prove(sources, confirmed, 0)
            return draft.body, draft

        def done(result: tuple[str, ProvedDraft | None]) -> None:
            body, draft = result
            c.draft = (ids, draft) if draft is not None else None
            self.set_body(body, DraftSource.UNION)
            if then is not None:
                then()

        self.runner.start("union", job, label="Union draft", on_done=done,
                          on_error=lambda exc: self.prompter.error("Union draft failed", one_line(exc)))

    # ---- guard (debounced, off the GUI thread) ---------------------------------------------------------

    def _run_guard(self) -> None:
        c, panel = self.cluster, self.panels.guard_panel
        docs = c.ordered_included()
        if not docs:
            panel.clear()
            self.aligning.show()
            return
        key = c.guard_key()
        body = key[0]
        bodies = [d.markdown_body for d in docs]
        texts = {d.document_id: d.markdown_body for d in c.docs}
        titles, kept_title = [d.title or "" for d in docs], docs[0].title or ""
        included = {d.document_id for d in docs}
        s = self.services
        check, spans_of, appended = s.check_merge, s.missing_spans, s.build_appended_body
        judge, token_spans = s.alignment.judge, s.token_spans
        today = datetime.now(timezone.utc).date()
        lens_body = self.lens_body(body)

        def job(cancel: CancelToken) -> GuardResult:
            report = check(bodies, body)
            # memgui's verdict beside Netclaw's (which alone decides), judged as accept-safe judges it: every source
            # sentence aligned to the body, the strict lens reading only what the alignment did not prove
            strict, alignment = (judge(bodies, lens_body, titles=titles, kept_title=kept_title) if body.strip()
                                 else (None, None))
            at_risk = [a.token for a in strict.at_risk] if strict is not None else []
            spans: dict[str, Spans] = {}
            risky: dict[str, Spans] = {}
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
            return GuardResult(report, strict, spans, risky, preview, alignment)

        panel.set_pending(True)
        self.runner.start("guard", job, label="MergeGuard", on_done=lambda res: self._guard_done(key, docs, res),
                          on_error=lambda exc: panel.set_unavailable(f"MergeGuard failed to run: {one_line(exc)}"))

    def _guard_done(self, key: GuardKey, docs: list[Document], result: GuardResult) -> None:
        c, p = self.cluster, self.panels
        if key != c.guard_key():
            return  # the body or the selection changed meanwhile; a newer run is scheduled
        report, strict, spans, risky, preview, alignment = result
        c.report, c.report_key, c.strict, c.alignment = report, key, strict, alignment
        labels = [f"#{p.sources.number_of(d.document_id)}" for d in docs]
        if key != self._reader_key:  # the reader's verdict (or its running read) is about another body
            self._reader_key = None
            self.runner.cancel("reader")
        if not key[0].strip():
            p.guard_panel.clear()
            p.guard_panel.show_fallback(preview)
            p.sources.set_missing({})
        else:
            if self._reader_key is None:
                p.guard_panel.reader.clear(can_ask=self.services.read_merge is not None)
            p.guard_panel.set_report(report, labels, strict)
            p.guard_panel.show_fallback(preview)
            p.sources.set_missing(spans, risky)
        self.aligning.show()
        self.guardUpdated.emit(report)
        self.changed.emit()
        pending, self._after_guard = self._after_guard, None
        if pending is not None:
            pending()

    def with_fresh_guard(self, then: Callable[[], None]) -> None:
        if self.cluster.guard_is_current():
            then()
        else:
            self._after_guard = then
            self._guard_timer.start(0)

    # ---- the second reader (asked by the button; on a worker, with the one loaded model) ------------------

    def read_body(self) -> None:
        """Ask the model, for each included source, whether the merged body keeps every fact of it (the
        question accept-safe asks before a write); the verdicts go on the guard panel's reader line."""
        c, box = self.cluster, self.panels.guard_panel.reader
        read = self.services.read_merge
        docs, body = c.ordered_included(), c.body()
        if read is None:
            box.set_unavailable("this window has no reader service")
            return
        if not docs or not body.strip():
            return
        key, ids = c.guard_key(), [d.document_id for d in docs]
        sources = [d.markdown_body for d in docs]
        labels = [f"#{self.panels.sources.number_of(i)}" for i in ids]
        settings, dkey, slot, make = self.host.settings, self._key(), self.slot, self.services.make_decider

        def job(cancel: CancelToken) -> Work[ReaderReport]:
            with (slot.turns.reviewer() if slot.turns is not None else contextlib.nullcontext()):
                decider = yield from slot.acquire(dkey, lambda: make(settings), cancel)
                return (yield from read(decider, sources, body, document_ids=ids, cancel=cancel))

        def progress(p: Progress) -> None:
            if key == self._reader_key and p.total:
                box.set_pending(f"reading {labels[min(p.done, len(labels) - 1)]} ({min(p.done + 1, p.total)}/{p.total})…")
            elif key == self._reader_key and p.stage == Step.LOADING_MODEL:
                box.set_pending("loading the model…")

        self._reader_key = key
        box.set_pending()
        self.runner.start("reader", job, label="Second reader", show_in_status=True, on_progress=progress,
                          on_done=lambda report: self._reader_done(key, labels, report),
                          on_error=lambda exc: self._reader_failed(key, exc),
                          on_cancelled=lambda: self._reader_failed(key, None))

    def _reader_done(self, key: GuardKey, labels: list[str], report: ReaderReport) -> None:
        if key == self._reader_key == self.cluster.guard_key():
            self.panels.guard_panel.reader.set_report(report, labels)

    def _reader_failed(self, key: GuardKey, exc: BaseException | None) -> None:
        if key != self._reader_key:
            return
        self._reader_key = None
        box = self.panels.guard_panel.reader
        box.clear() if exc is None else box.set_unavailable(one_line(exc))

    # ---- the decider ------------------------------------------------------------------------------------

    def decider_key(self) -> DeciderKey:
        """The model settings the loaded decider belongs to (the decisions-ahead queue uses the same one)."""
        return self._key()

    def _key(self) -> DeciderKey:
        settings = self.host.settings
        return (settings.decider_model, settings.llm_threads, settings.llm_context)

    def ask_model(self) -> None:
        """Judge every pair of the cluster ("same fact?") on the worker, then draft the merged body for the
        largest same-fact group only (the decider on that group's documents), as `memgui decide` does."""
        c, s = self.cluster, self.services
        if not c.reviewable():
            return
        members = [d for d in c.docs if not d.is_tombstoned]
        included = self.panels.sources.included_ids()
        docs = [d for d in c.docs if d.document_id in included]
        if len(docs) < 2:
            return
        store, cosines, inputs, judge_pairs = self.host.store, dict(c.cosines), s.decider_input, s.judge_pairs
        if store is None:  # reviewable: a cluster of the open store is on show
            return
        settings, key, slot = self.host.settings, self._key(), self.slot
        make, selftest, selftests = s.make_decider, s.selftest, self.selftests
        row = c.row

        def job(cancel: CancelToken) -> Work[ModelAnswer]:
            # The reviewer's call goes first: the decisions-ahead queue gives up the model while this runs.
            with (slot.turns.reviewer() if slot.turns is not None else contextlib.nullcontext()):
                return (yield from run(cancel))

        def run(cancel: CancelToken) -> Work[ModelAnswer]:
            decider = yield from slot.acquire(key, lambda: make(settings), cancel)
            if selftest is not None and key not in selftests:
                yield Progress(Step.LOADING_MODEL, 0, None, "running the capability self-test")
                test = selftest(decider, cancel=cancel)
                selftests[key] = (yield from test) if isinstance(test, Generator) else test
            verdict = selftests.get(key)
            if verdict is not None and not verdict.capable:
                return None, None, verdict  # its "same fact?" answers would pick the members: not trusted
            groups, drafted = None, docs
            judge = getattr(decider, "judge_pair", None)  # a decider without it answers for the whole cluster
            if judge is not None and len(members) >= 2:
                def one_pair(existing: str, new: str, cancel: CancelToken | None = None) -> Work[object]:
                    call: Work[object] = judge(existing, new, cancel=cancel, timeout_s=settings.llm_timeout_s)
                    return call

                groups = yield from judge_pairs(members, one_pair, cancel=cancel)
                yield Progress(Step.FACT_GROUPS, 0, None, payload=groups)  # the partition: shown now, not after the draft
                drafted = [d for d in members if d.document_id in set(groups.largest)]
            if len(drafted) < 2:
                return groups, None, None  # every pair judged different: nothing to draft
            proposal, candidates = inputs(store, drafted, cosines)
            yield Progress(Step.DECIDING, 0, None, f"asking {decider.model_id}")
            result = yield from decider.decide(proposal, candidates, full_candidate_content=True, cancel=cancel,
                                               timeout_s=settings.llm_timeout_s)
            return groups, result, None

        self.panels.decision_panel.begin_stream()
        self._judging = False
        self._asked_for = row
        self.runner.start("decide", job, label="Asking the model", show_in_status=True,
                       on_progress=self._on_model_progress,
                       on_done=lambda result: self._model_done(row, result),
                       on_error=self._model_failed, on_cancelled=self._model_cancelled)
        self.changed.emit()

    def cancel_model(self) -> None:
        self.runner.cancel("decide")  # its on_cancelled (`_model_cancelled`) runs once, from there

    def _on_model_progress(self, progress: Progress) -> None:
        c, panel = self.cluster, self.panels.decision_panel
        if progress.stage == Step.FACT_GROUPS:
            if self._asked_for is c.row:
                self.show_groups(progress.payload)
            return
        if progress.stage == Step.JUDGING_PAIRS:
            total = progress.total or 0
            step = min(progress.done + 1, total)
            panel.set_model_text(f"judging pairs {step}/{total}" if progress.done < total
                                 else f"judged {total} pair{'s' if total != 1 else ''}")
            self._judging = progress.done < total
            if progress.done < total:
                pair = " vs ".join(c.label(i) if c.doc(i) else i for i in (progress.message or "").split(" vs "))
                panel.begin_call(f"same fact? {pair} ({step}/{total})")
        elif progress.payload is not None:
            panel.append_stream(str(progress.payload))
        elif self._judging:
            pass  # the judge's own call header ("classifying"): the pair's "same fact?" line already says it
        elif progress.stage in (Step.LOADING_MODEL, Step.DECIDING) and progress.message and not c.doc(progress.message):
            panel.set_model_text(f"{progress.stage}: {progress.message}…")
        else:
            # A new model call starts (e.g. "classifying" against one candidate, then "merging"): one line each.
            about = f" {c.label(progress.message)}" if c.doc(progress.message) else ""
            count = f" ({progress.done + 1}/{progress.total})" if progress.total and progress.done < progress.total else ""
            panel.begin_call(f"{progress.stage}{about}{count}")

    def _model_cancelled(self) -> None:
        self.panels.decision_panel.show_cancelled()
        self.host.show_status("Model call cancelled", 4000, about=self.cluster.row)
        self.decisionFinished.emit(None)
        self.changed.emit()

    def _model_failed(self, exc: BaseException) -> None:
        self.panels.decision_panel.show_error(one_line(exc))
        self.decisionFinished.emit(None)
        self.changed.emit()

    def _model_done(self, row: ClusterRow | None, answer: ModelAnswer) -> None:
        if row is not self.cluster.row:
            return
        groups, result, failed_selftest = answer
        if failed_selftest is not None:
            why = failed_selftest.summary or "see `memgui models`"
            self.panels.decision_panel.warn(
                f"This model failed the capability self-test ({why}), so it judged nothing here. Use the union "
                "draft (U), or choose another model in Settings (Ctrl+,).")
            self.decisionFinished.emit(None)
            self.changed.emit()
            return
        self.show_answer(groups, result, DraftSource.MODEL)

    def show_answer(self, groups: FactGroups | None, result: DeciderResult | None, origin: DraftSource) -> None:
        """The model's same-fact groups and decision on the panels, its merged body in the editor (also for a
        review the decisions-ahead queue computed before the reviewer got here)."""
        c, p = self.cluster, self.panels
        if groups is not None:
            self.show_groups(groups)
        if result is None:
            p.decision_panel.show_all_different()
            self.host.show_status("The model judged every pair a different fact. Keep separate (C) if you agree.",
                               8000, about=c.row)
            self.decisionFinished.emit(None)
            self.changed.emit()
            return
        c.decider_result = result
        p.decision_panel.show_result(result, c.label, c.ids_to_labels)
        verdict = self.selftests.get(self._key())
        if verdict is not None and not verdict.capable:
            why = verdict.summary or "see `memgui models`"
            p.decision_panel.warn(f"This model failed the capability self-test ({why}): treat its decision "
                                  "as a hint; MergeGuard and your review decide.")
        decision = result.decision
        if decision is not None:
            ids = [d.document_id for d in c.docs]
            targets = [t for t in ([decision.target_document_id] + list(decision.consolidation_target_ids or ()))
                       if t in ids]
            if groups is not None and groups.target:
                # never a member judged different from the group the body is drafted for
                p.sources.set_target(groups.target)
            elif targets:
                p.sources.set_target(targets[0])
            if decision.merged_body and decision.merged_body.strip():
                self.set_body(decision.merged_body, origin)
            elif decision.kind in (DecisionKind.CREATE, DecisionKind.SKIP):
                self.host.show_status(
                    f"The model answered {decision.kind}: it sees different facts. Keep separate (C) if you agree.", 8000,
                    about=c.row)
        self.decisionFinished.emit(result)
        self.changed.emit()
