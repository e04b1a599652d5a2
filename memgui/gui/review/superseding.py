"""The cluster under review read as a supersession (issue 38): one note is the newer state of what the other(s)
say. The reading, the order and the draft are the core's (`plan_supersession`, on the worker, with Cancel): with
the decider's model when one is loaded, else the reviewer's own reading (a person pressing the key reads it). The
panel shows the reading and the notes on a timeline; the draft goes in the editor like any merged body; the diff
marks the statements kept as dated history. Accepting the unedited draft writes it through `write_supersession`
(audited, undoable: the core history); the reviewer can still turn it into a plain merge (U, then A) or keep the
notes separate (C)."""
from __future__ import annotations

import contextlib
from collections.abc import Callable

from PySide6.QtCore import SignalInstance

from ..services.types import Reading, SupersedeReader, SupersessionPlan, WordDiff, Work
from ..services.values import CancelToken, Progress
from ..workers import one_line
from .cluster_model import ClusterRow
from .decider_slot import DeciderKey, DeciderSlot
from .draft_origin import DraftSource
from .evidence import Evidence
from .history_marks import HistoryMark, mark_history
from .state import ReviewTools
from .supersede_panel import HINTS, TimelineState
from .under_review import ClusterUnderReview
from .writes import Writes

MAX_NOTES = 3  # a supersession is read on two or three notes
ORIGIN = DraftSource.SUPERSESSION


class Superseding:
    def __init__(self, cluster: ClusterUnderReview, tools: ReviewTools, *, slot: DeciderSlot,
                 decider_key: Callable[[], DeciderKey], set_body: Callable[[str, DraftSource], None], writes: Writes,
                 evidence: Evidence, changed: SignalInstance, read: SignalInstance):
        self.cluster, self.services, self.runner = cluster, tools.services, tools.runner
        self.prompter, self.panels, self.host = tools.prompter, tools.panels, tools.host
        self.slot, self.decider_key, self.set_body, self.writes = slot, decider_key, set_body, writes
        self.changed, self.supersessionRead, self.evidence = changed, read, evidence
        self.plan: SupersessionPlan | None = None
        self.row: ClusterRow | None = None  # the queue row the plan (or the running read) is for
        panel = self.panels.supersede_panel
        panel.cancelRequested.connect(self.cancel)
        panel.readAsNewerRequested.connect(lambda: self.read(reviewer=True))
        self.panels.editor.textChanged.connect(self._body_changed)

    # ---- reading ------------------------------------------------------------------------------------

    def read(self, *, reviewer: bool = False) -> None:
        """Read the included members (two or three) as a supersession, on the worker. `reviewer`: the person's
        reading, whatever a loaded model would say."""
        c, p = self.cluster, self.panels
        store = self.host.store
        if not c.reviewable() or store is None:
            return
        ids = self.notes()
        if not 2 <= len(ids) <= MAX_NOTES:
            self.host.show_status(f"A supersession is read on two or three notes: {len(ids)} are checked "
                                  "(1–9 check / uncheck a source)", 6000)
            return
        plan, reader_of, slot, key = self.services.supersede.plan, self.services.supersede.reader_of, self.slot, \
            self.decider_key()

        def job(cancel: CancelToken) -> Work[SupersessionPlan]:
            reader: SupersedeReader | None = None
            if not reviewer:  # the model only when one is loaded: a key press does not load 1 GB
                decider = slot.get(key)
                if decider is not None and getattr(decider, "loaded", True):
                    reader = reader_of(getattr(decider, "engine", None))
            turn = slot.turns.reviewer() if reader is not None and slot.turns is not None else contextlib.nullcontext()
            with turn:
                return (yield from plan(store, ids, reader, reviewer_reads_supersedes=reader is None, cancel=cancel))

        row = self.row = c.row
        self.plan = None
        p.supersede_panel.show_pending("reading the notes' order and dates…")
        self.runner.start("supersede", job, label="Reading as a supersession", show_in_status=True,
                          on_progress=self._progress, on_done=lambda result: self._read(row, result),
                          on_error=self._failed, on_cancelled=self._cancelled)
        self.changed.emit()

    def notes(self) -> list[str]:
        """The notes N reads: every live member of a cluster of two or three (the conflicts' pre-selection
        unchecks the notes that disagree on a value, and an older state is exactly such a note), else the included
        members."""
        c = self.cluster
        members = [d.document_id for d in c.members()]
        if len(members) <= MAX_NOTES:
            return members
        return [i for i in self.panels.sources.included_ids() if i in members]

    def cancel(self) -> None:
        self.runner.cancel("supersede")

    def busy(self) -> bool:
        return self.runner.busy("supersede")

    def _progress(self, progress: Progress) -> None:
        detail = f" ({progress.message})" if progress.message else ""
        self.panels.supersede_panel.show_pending(f"{progress.stage}{detail}…")

    def _cancelled(self) -> None:
        self.panels.supersede_panel.clear()
        if self.row is not None:  # the reviewer's Cancel, not another cluster shown
            self.host.show_status("Supersession reading cancelled", 4000)
        self.supersessionRead.emit(None)
        self.changed.emit()

    def _failed(self, exc: BaseException) -> None:
        self.panels.supersede_panel.show_reading(Reading.UNDECIDED, f"Could not read it: {one_line(exc)}", [])
        self.supersessionRead.emit(None)
        self.changed.emit()

    def _read(self, row: ClusterRow | None, plan: SupersessionPlan) -> None:
        c, p = self.cluster, self.panels
        if row is not c.row:
            return  # another cluster is on show
        self.plan = plan
        reading = plan.reading
        model = f" ({reading.model_id})" if reading.model_id else ""
        unsure = (reading.reading is Reading.UNDECIDED and reading.order.ordered and bool(reading.model_id))
        p.supersede_panel.show_reading(reading.reading, reading.reason[:1].upper() + reading.reason[1:] + model,
                                       self.timeline(plan), can_read_as_newer=unsure)
        if plan.draft is not None and plan.newest_id is not None:
            p.sources.set_included([d.document_id for d in plan.documents])
            self.evidence.loaded_selection = None  # the reviewer's choice now: the conflicts' pre-selection waits
            self.evidence.preselected = ""  # its line no longer describes what is included
            self.evidence.show_mark()
            p.sources.set_target(plan.newest_id)
            self.set_body(plan.draft.body, ORIGIN)
            if plan.check is not None and not plan.check.passed:
                p.supersede_panel.set_hint("The draft fails the supersede check: "
                                           + "; ".join(f"{f.problem}: {f.text}" for f in plan.check.findings))
            self.host.show_status(f"Read as a supersession: {len(plan.draft.history)} statement(s) kept as dated "
                                  "history. A accepts it.", 8000, about=c.row)
        self.supersessionRead.emit(plan)
        self.changed.emit()

    def timeline(self, plan: SupersessionPlan) -> list[TimelineState]:
        """The notes oldest first (by the times they were read as when they could not be ordered)."""
        order, docs, day_of = plan.reading.order, plan.documents, self.services.supersede.day_of
        times = list(order.times) + [None] * (len(docs) - len(order.times))
        at = list(order.oldest_first) if order.oldest_first else sorted(
            range(len(docs)), key=lambda i: (times[i] is None, times[i] or 0, i))
        out = []
        for i in at:
            d, t = docs[i], times[i]
            out.append(TimelineState(d.document_id, f"#{self.panels.sources.number_of(d.document_id)}",
                                     day_of(t) if t is not None else "", d.title or "", d.markdown_body or ""))
        return out

    # ---- the draft on show ----------------------------------------------------------------------------

    def current(self) -> bool:
        """The supersession's draft is what the reviewer would accept now: same cluster, same members, the draft
        unedited."""
        plan, c = self.plan, self.cluster
        if plan is None or plan.draft is None or plan.reading.reading is not Reading.SUPERSEDES:
            return False
        ids = {d.document_id for d in plan.documents}
        return self.row is c.row and set(self.panels.sources.included_ids()) == ids and c.body() == plan.draft.body

    def lens_body(self, body: str) -> str:
        """What memgui's lens reads of the supersession's draft: each history phrase as the older statement it keeps
        word for word; its day and its "previously" are the supersession check's to prove, not new facts."""
        if not self.current():
            return body
        out, at = [], 0
        for span in self.services.supersede.history_spans(body):
            statement = span.statement.rstrip()
            out += [body[at:span.start], statement if statement.endswith((".", "!", "?")) else statement + "."]
            at = span.end
        return "".join(out) + body[at:]

    def check_line(self) -> tuple[bool, str] | None:
        """(the draft passes the supersede check, what it kept) while the body is the supersession's own draft."""
        plan = self.plan
        if not self.current() or plan is None or plan.check is None or plan.draft is None:
            return None
        if not plan.check.passed:
            return False, "; ".join(f"{f.problem}: {f.text}" for f in plan.check.findings[:3])
        return True, (f"{len(plan.draft.history)} older statement(s) kept as dated history, the newest state as the "
                      "present fact")

    def forget(self) -> None:
        """Another cluster is shown (or this one again, from the store)."""
        self.plan, self.row = None, None
        self.runner.cancel("supersede")
        self.panels.supersede_panel.clear()

    def _body_changed(self) -> None:
        plan, panel = self.plan, self.panels.supersede_panel
        if plan is None or plan.draft is None or panel.reading is not Reading.SUPERSEDES:
            return
        if self.cluster.body() == plan.draft.body:
            panel.set_hint(HINTS[Reading.SUPERSEDES])
        else:
            panel.set_hint("The body is no longer the supersession's draft: A writes it as a plain merge, checked by "
                           "MergeGuard (N reads it again)")

    def mark_diff(self, _diff: WordDiff) -> None:
        """The diff on show: its history phrases marked, each with the note and the day it was kept from."""
        from .history_marks import merged_text

        view = self.panels.diff_view
        body = merged_text(view)
        if "previously" not in body.lower():
            return
        spans = self.services.supersede.history_spans(body)
        marks = [HistoryMark(s.start, s.end, self._tooltip(body[s.start:s.end], s.day)) for s in spans]
        mark_history(view, marks)

    def _tooltip(self, phrase: str, day: str) -> str:
        plan = self.plan
        if plan is not None and plan.draft is not None:
            for h in plan.draft.history:
                if h.phrase.strip() == phrase.strip():
                    doc = plan.documents[h.note]
                    return f"kept as dated history from {self.cluster.label(doc.document_id)} of {day}"
        return f"kept as dated history as of {day}"

    # ---- the write ------------------------------------------------------------------------------------

    def accept(self) -> None:
        plan, c, store = self.plan, self.cluster, self.host.store
        if plan is None or plan.draft is None or plan.newest_id is None or store is None or not self.current():
            return
        if not (self.host.can_write() and c.reviewable()):
            return
        newest = plan.newest_id
        older = [d.document_id for d in plan.documents if d.document_id != newest]
        history = plan.draft.history
        lines = [f"Changes: {c.label(newest)} ({newest}) gets the newest state, the older kept as dated history "
                 "(merge-document).",
                 "Tombstoned: " + "; ".join(f"{c.label(i)} ({i})" for i in older) + ".",
                 f"Kept as dated history: {len(history)} statement(s)"
                 + (": " + "; ".join(h.phrase for h in history[:3]) if history else "") + ("; …" if len(history) > 3
                                                                                          else "") + ".",
                 f"Reading: {plan.reading.reading.value} — {plan.reading.reason}.",
                 "The write is one transaction with its audit row (the reading and the order recorded); Ctrl+Z "
                 "undoes it."]
        n = len(plan.documents)
        if not self.prompter.confirm("Accept supersession", f"Supersede: {n} notes into {c.label(newest)}, the "
                                     "newest state first?", "\n".join(lines), "Supersede"):
            return
        write = self.services.supersede.write
        self.writes.write("Supersede", lambda: write(store, plan, note="memgui review: supersession",
                                                     decided_by="reviewer"),
                          f"supersession of {n} notes into {c.label(newest)}")


__all__ = ["MAX_NOTES", "ORIGIN", "Superseding"]
