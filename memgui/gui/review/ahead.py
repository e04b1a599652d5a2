"""Decisions ahead of the reviewer: a background queue that runs the model on the cluster on screen (unless the
reviewer works on it), then the ones after it (queue order, one at a time, on its own low-priority worker),
caches each review per store and model file, and badges the queue. The cached reviews are shown as soon as the
model file is known (its path, size and mtime key the cache), before the model loads. Reaching a cluster whose
review is cached shows its groups, target and merged body at once.

It shares the one loaded model with the reviewer's own calls (`DeciderSlot`): the reviewer goes first, and the
queue pauses while the reviewer's call runs (`ModelTurns`). Moving in the queue never cancels it, nor does the
Cancel of the reviewer's call; only its own Stop (status bar), the setting, another store or new model settings
do. At start-up (after the store opens) it runs the model's capability self-test, cached per model file, and the
status line says which canary it is on."""
from __future__ import annotations

from collections.abc import Generator

from PySide6.QtCore import QObject, QThread, QThreadPool, QTimer, Signal

from ..services.types import Badge, CancelToken, ClusterReview, ModelTurns, SelfTestReport, Step, Work, YieldingToken
from ..services.values import Progress
from ..settings_dialog import GuiSettings
from ..workers import TaskRunner, one_line
from .ahead_jobs import ModelRecord, cached_reviews, lower_priority, no_time_limit, stages, step_note, summary_of
from .ahead_status import AheadStatus, record_html, startup_note
from .cluster_model import CLUSTER_ROLE, NEW, SKIPPED, ClusterRow
from .draft_origin import DraftSource
from .window_parts import ReviewWindow

REVIEWABLE = (NEW, SKIPPED)
ORIGIN = DraftSource.AHEAD


START_AFTER_SCAN_MS = 300  # the first cluster is on show by then
MODEL_KNOWN = Step.MODEL_KNOWN  # start-up's Progress stage carrying (model key, model id, cached self-test)


class ModelUnavailable(Exception):
    """No decider could be made (none installed, the file is gone): the queue cannot run at all."""


class DecisionsAhead(QObject):
    reviewReady = Signal(object)  # ClusterReview: computed ahead or found in the cache
    startedUp = Signal(object)  # the self-test verdict (SelfTestReport) or None
    stateChanged = Signal(str)  # the status line

    def __init__(self, window: ReviewWindow, parent: QObject | None = None):
        super().__init__(parent)
        self.w, self.review = window, window.review
        self.s = window.services.ahead
        self.slot = window.review.drafting.slot
        if self.slot.turns is None:  # the reviewer's calls and these take turns on the one model
            self.slot.turns = self.s.turns()
        self.turns: ModelTurns = self.slot.turns
        pool = QThreadPool(self)
        pool.setThreadPriority(QThread.Priority.LowestPriority)
        self.runner = TaskRunner(self, pool)
        self.reviews: dict[frozenset[str], ClusterReview] = {}  # member ids -> a review valid at the last check
        self.failed: dict[frozenset[str], str] = {}
        self.running: frozenset[str] | None = None
        self.model_key: str | None = None
        self.model_id = ""
        self.verdict: SelfTestReport | None = None
        self.problem = ""  # why the queue cannot run ("" = it can)
        self.stopped = False  # the reviewer pressed Stop
        self.ready = self.primed = False
        self.paused = False
        self.step = self.running_title = ""  # the running background review: its cluster's title, its step
        self.startup_note = "starting…"  # what the start-up is doing (the model's load, the self-test's canary)
        self.status = AheadStatus(self.stop, self.resume)
        window.statusBar().addPermanentWidget(self.status)
        # The model loads once the store's first scan is shown, not while the window opens it: loading it then
        # stalled the GUI thread ≈ 90 ms (P4) in the middle of the first paint of the queue.
        self._start_after_scan = False
        window.storeOpened.connect(self._store_opened)
        window.scanFinished.connect(self._scanned)
        self.review.clusterLoaded.connect(self._on_cluster_loaded)
        self.review.writeFinished.connect(lambda _entry: self.refresh())
        self.review.writeFinished.connect(lambda _entry: self.update_record())  # after refresh: slots run in order

    # ---- state -----------------------------------------------------------------------------------------

    def enabled(self) -> bool:
        return bool(getattr(self.w.settings, "decide_ahead", True))

    def active(self) -> bool:
        capable = self.verdict is None or self.verdict.capable  # no self-test service (tests): trusted
        return (self.ready and self.primed and not self.stopped and not self.problem and capable
                and self.enabled() and self.w.store is not None)

    def stop(self) -> None:
        """The explicit Stop: cancels the running background review; queued clusters stay queued."""
        self.stopped = True
        self.runner.cancel("ahead")
        self.running = None
        self.refresh()

    def resume(self) -> None:
        self.stopped = False
        self.refresh()

    def shutdown(self) -> None:
        self.runner.shutdown(15000)

    def settings_changed(self, old: GuiSettings, new: GuiSettings) -> None:
        model = (old.decider_model, old.llm_threads, old.llm_context) != (new.decider_model, new.llm_threads,
                                                                          new.llm_context)
        if model and self.w.store is not None:
            self.start_up()
            if self.w.scan_result is not None:
                self._prime()
        elif not new.decide_ahead:
            self.runner.cancel("ahead")
            self.running = None
        self.refresh()

    # ---- start-up: the model and its self-test (background) ---------------------------------------------

    def _store_opened(self, *_args: object) -> None:
        self.runner.cancel_all()  # the old store's work; this store's starts after its first scan
        self._start_after_scan = True

    def _scanned(self, _result: object) -> None:
        if self._start_after_scan:
            self._start_after_scan = False
            QTimer.singleShot(START_AFTER_SCAN_MS, self, self.start_up)
        else:
            self._prime()

    def start_up(self, *_args: object) -> None:
        self.runner.cancel_all()  # another store or model: not navigation
        self.reviews, self.failed, self.running = {}, {}, None
        self.ready = self.primed = False
        self.problem, self.model_key, self.verdict = "", None, None
        w, s, slot = self.w, self.s, self.slot
        settings, key, make = w.settings, self.review.drafting.decider_key(), w.services.make_decider
        selftest, warm, turns = w.services.selftest, self.enabled(), self.turns

        def job(cancel: CancelToken) -> Work[tuple[str, str, SelfTestReport | None]]:
            lower_priority()
            try:
                decider = yield from slot.acquire(key, lambda: make(settings), cancel, load=False)
            except Exception as exc:  # noqa: BLE001 - no model installed, a missing file
                raise ModelUnavailable(one_line(exc)) from exc
            verdict = slot.selftests.get(key) or s.cached_selftest(decider)
            # The decision cache's key needs only the model file (path, size, mtime): its cached decisions
            # are shown now, before the model loads.
            yield Progress(MODEL_KNOWN, 0, None, "", payload=(s.model_key(decider), getattr(decider, "model_id", ""),
                                                               verdict))
            if (verdict is None and selftest is not None) or warm:
                decider = yield from slot.acquire(key, lambda: make(settings), cancel)  # loads, on this worker
            if verdict is None and selftest is not None:
                def run(token: YieldingToken) -> Work[SelfTestReport]:
                    out = selftest(decider, cancel=token, **no_time_limit(selftest))
                    return (yield from out) if isinstance(out, Generator) else out

                verdict = yield from s.taking_turns(run, turns, cancel)
            if verdict is not None:
                slot.selftests.setdefault(key, verdict)
            return s.model_key(decider), getattr(decider, "model_id", ""), verdict

        self.startup_note = "loading the model…"
        self._show("Decisions ahead: loading the model…")
        self.runner.start("start-up", job, label="Model self-test", on_done=self._started,
                          on_error=self._start_failed, on_progress=self._start_progress)

    def _start_progress(self, progress: Progress) -> None:
        """Start-up's steps as they come: the model's key (cached decisions shown at once), the load, each
        canary of the self-test (n of 6)."""
        if progress.stage == MODEL_KNOWN:
            self.model_key, self.model_id, verdict = progress.payload
            self.verdict = verdict
            self.startup_note = ("loading the model…" if verdict is not None else
                                 "loading the model for its self-test…")
            if self.w.scan_result is not None:
                self._prime()
        elif progress.stage == Step.LOADING_MODEL and self.verdict is None and self.model_key is not None:
            self.startup_note = "loading the model for its self-test…"
        elif startup_note(progress):
            self.startup_note = startup_note(progress)
        else:
            return
        self._show_state(0)

    def _started(self, value: tuple[str, str, SelfTestReport | None]) -> None:
        self.model_key, self.model_id, self.verdict = value
        self.ready = True
        self.startedUp.emit(self.verdict)
        if self.w.scan_result is not None and not self.primed:
            self._prime()
        self.update_record()
        self.refresh()

    def _start_failed(self, exc: BaseException) -> None:
        self.ready, self.problem = True, one_line(exc)
        self.startedUp.emit(None)
        self.review.panels.decision_panel.set_record(f"<b>Model</b>: {self.problem}")
        self.refresh()

    # ---- the queue ---------------------------------------------------------------------------------------

    def _rows(self) -> list[ClusterRow]:
        proxy = self.w.proxy
        rows = (proxy.data(proxy.index(r, 0), CLUSTER_ROLE) for r in range(proxy.rowCount()))
        return [row for row in rows if isinstance(row, ClusterRow)]

    def _prime(self) -> None:
        """After a scan: the cached reviews of every cluster in the queue, checked against its sources now (as
        soon as the model file is known: no model needs to be loaded for it)."""
        if self.model_key is None or self.w.store is None:
            return
        store, cache, mkey = self.w.store, self.s.cache, self.model_key
        clusters = [tuple(r.member_ids) for r in self.w.cluster_model.rows()]

        def job(cancel: CancelToken) -> dict[frozenset[str], ClusterReview]:
            return cached_reviews(cache(store.path, mkey), store, clusters, cancel)

        self.primed = False  # a running review goes on: its cluster may well still be in the queue
        self.runner.start("prime", job, label="Reading decisions made ahead", on_done=self._primed,
                          on_error=lambda exc: self._primed({}))

    def _primed(self, found: dict[frozenset[str], ClusterReview]) -> None:
        self.reviews, self.failed, self.primed = dict(found), {}, True
        row = self.review.row
        if row is not None:
            self._on_cluster_loaded(row)
        self.refresh()

    def refresh(self) -> None:
        """Badges, the status line, and the next cluster started when none runs."""
        rows = [r for r in self._rows() if r is not None]
        index = self.w.queue.currentIndex()  # the selected row (its panes may load a moment later)
        selected = self.w.proxy.data(index.siblingAtColumn(0), CLUSTER_ROLE) if index.isValid() else self.review.row
        current = frozenset(selected.member_ids) if selected is not None else None
        keys = [frozenset(r.member_ids) for r in rows]
        skip = set(self.reviews) | set(self.failed) | {k for k, r in zip(keys, rows) if r.status not in REVIEWABLE}
        on_show = self.review.row
        if current is not None and on_show is not None and frozenset(on_show.member_ids) == current \
                and not self._idle():
            skip.add(current)  # the reviewer's own call or body: the queue does not decide it twice
            if self.running == current:
                self.runner.cancel("ahead")  # nor goes on deciding it (its model time is the next cluster's)
                self.running = None
        order = self.s.ahead_order(keys, current, skip)
        badges = {k: v.verdict for k, v in self.reviews.items()}
        if self.active():  # not decided yet: queued, or the cluster the reviewer is on
            badges.update({k: Badge.PENDING for k, r in zip(keys, rows)
                           if r.status in REVIEWABLE and k not in badges and k not in self.failed})
        self.w.cluster_model.set_badges(badges)
        if self.active() and self.running is None and order:
            self._start(rows[keys.index(order[0])])
        self._show_state(len(order))

    def _start(self, row: ClusterRow) -> None:
        w, s, slot = self.w, self.s, self.slot
        key, ids = frozenset(row.member_ids), list(row.member_ids)
        store, mkey, settings, make = w.store, self.model_key, w.settings, w.services.make_decider
        dkey, summary, turns = self.review.drafting.decider_key(), summary_of(self.verdict), self.turns
        if store is None or mkey is None:  # no store, or the model file not known yet: nothing to decide with
            return

        def job(cancel: CancelToken) -> Work[ClusterReview | None]:
            lower_priority()
            docs = store.documents_by_ids(ids)
            live = [d for d in docs if not d.is_tombstoned]
            if len(live) != len(ids) or len(live) < 2:
                return None  # a member is gone: the next scan drops the cluster
            cache = s.cache(store.path, mkey)
            hit = cache.get(live)
            if hit is not None:
                return hit
            try:
                decider = yield from slot.acquire(dkey, lambda: make(settings), cancel)
            except Exception as exc:  # noqa: BLE001
                raise ModelUnavailable(one_line(exc)) from exc
            review = yield from stages(s.review_ahead(live, s.anchor_names(store, live), decider, turns,
                                                       cancel=cancel, selftest=summary))
            if review.error is None:
                cache.put(review)
            return review

        self.running, self.paused, self.step, self.running_title = key, False, "", row.titles[0] if row.titles else ""
        self.runner.start("ahead", job, label=f"Deciding ahead: {row.titles_text}",
                          on_progress=self._progress, on_done=lambda review: self._done(key, review),
                          on_error=lambda exc: self._failed(key, exc),
                          on_cancelled=lambda: self._ended(key))

    def _ended(self, key: frozenset[str]) -> None:
        if self.running == key:
            self.running, self.paused = None, False

    def _progress(self, progress: Progress) -> None:
        paused = progress.stage == self.s.paused_stage
        note = step_note(progress)
        if paused != self.paused or (note is not None and note != self.step):
            self.paused, self.step = paused, (note if note is not None else self.step)
            self.refresh()

    def _done(self, key: frozenset[str], review: ClusterReview | None) -> None:
        self._ended(key)
        if review is not None:
            if review.error is not None:
                self.failed[key] = review.error
            else:
                self.reviews[key] = review
                self.reviewReady.emit(review)
                row = self.review.row
                if row is not None and frozenset(row.member_ids) == key and self._idle():
                    self._apply(review)
        self.refresh()

    def _failed(self, key: frozenset[str], exc: BaseException) -> None:
        self._ended(key)
        if isinstance(exc, ModelUnavailable):
            self.problem = str(exc)
        else:
            self.failed[key] = one_line(exc)
        self.refresh()

    # ---- the cluster under review --------------------------------------------------------------------

    def _idle(self) -> bool:
        """The reviewer has not started on this cluster yet (no call of theirs, no body)."""
        r, c = self.review, self.review.cluster
        return c.reviewable() and not r.runner.busy("decide") and c.origin.empty and not c.body().strip()

    def _on_cluster_loaded(self, row: ClusterRow) -> None:
        key = frozenset(row.member_ids)
        review = self.reviews.get(key)
        if review is not None:
            live = self.review.cluster.members()
            if self.s.stamps_of(live) != review.stamps:
                del self.reviews[key]  # a source changed since: decided again, in its turn
            elif self._idle():
                self._apply(review)
        self.refresh()

    def _apply(self, review: ClusterReview) -> None:
        r = self.review
        r.drafting.show_answer(self.s.fact_groups_of(review), self.s.decider_result_of(review), ORIGIN)
        seconds = f" in {review.seconds:.1f} s" if review.seconds else ""
        r.panels.decision_panel.set_model_text(f"{review.model_id} · decided ahead{seconds} · M asks again")

    # ---- the status line and the model's record ------------------------------------------------------------

    def _show(self, text: str, button: str = "") -> None:
        self.status.show_state(text, button)
        self.stateChanged.emit(text)

    def _show_state(self, queued: int) -> None:
        ready = len(self.reviews)
        if self.problem:
            self._show(f"Decisions ahead: off — {self.problem}")
        elif self.ready and self.verdict is not None and not self.verdict.capable:
            self._show("Decisions ahead: off — the model failed its self-test"
                       + (f" ({self.verdict.summary})" if getattr(self.verdict, "summary", "") else ""))
        elif not self.enabled() or self.w.store is None:
            self._show("")
        elif self.stopped:
            self._show(f"Decisions ahead stopped · {ready} ready", "Resume")
        elif not self.ready:
            cached = f" · {ready} cached" if ready else ""
            self._show(f"Decisions ahead: {self.startup_note}{cached}")
        elif not self.primed:
            self._show("Decisions ahead: starting…")
        elif self.running is not None and self.paused:
            self._show(f"Decisions ahead paused while your model call runs · {ready} ready", "Stop")
        elif self.running is not None:
            step = f" ({self.running_title[:40]}{'…' if len(self.running_title) > 40 else ''}"
            step += f", {self.step})" if self.step else ")"
            self._show(f"Deciding ahead{step} · {ready} ready, {queued} to go", "Stop")
        else:
            self._show(f"Decisions ahead: {ready} ready" + (f", {len(self.failed)} failed" if self.failed else ""))

    def update_record(self) -> None:
        """The model's record in the decision panel: self-test, demo accuracy, agreement with this reviewer."""
        if self.model_key is None:
            return
        store, s, mkey = self.w.store, self.s, self.model_key
        model_id, verdict = self.model_id, self.verdict

        def job(cancel: CancelToken) -> ModelRecord:
            quality = s.cached_quality(mkey)
            agreement = None
            if store is not None and s.reviewer_agreement is not None:
                agreement = s.reviewer_agreement(store, s.cache(store.path, mkey).reviews())
            return quality, agreement

        def done(value: ModelRecord) -> None:
            text, tip = record_html(model_id, verdict, value[0], value[1], s.min_agreement)
            self.review.panels.decision_panel.set_record(text, tip)

        self.runner.start("record", job, label="The model's record", on_done=done,
                          on_error=lambda exc: self.review.panels.decision_panel.set_record(
                              f"<b>Model</b> {model_id}: its record could not be read ({one_line(exc)})"))


__all__ = ["DecisionsAhead", "ModelUnavailable"]
