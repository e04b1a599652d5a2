"""memgui's verdict beside Netclaw's and the alignment view of the cluster under review (issue 36, item 9): after
each guard run, the pairs a person reads are computed on a worker (the core's read_pairs: read first, the differing
words marked, a union draft's kept-back sentences beside what they were compared with, the reviewer's confirmations
counted) and shown; R confirms the selected read pair as a restatement — remembered for the cluster, recorded with
the merge (writes.py), and a union draft is drafted again at once without that sentence."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import SignalInstance

from ..services.types import Alignment, ConfirmedRestatement, Document, Fate, PairRow
from ..services.values import CancelToken
from ..workers import one_line
from .alignment_view import CONFIRM_KEY, fate_summary
from .state import ReviewTools
from .under_review import ClusterUnderReview


class Aligning:
    def __init__(self, cluster: ClusterUnderReview, tools: ReviewTools, *, changed: SignalInstance,
                 draft_union: Callable[[list[Document]], None]):
        self.cluster = cluster
        self.services, self.runner, self.panels, self.host = tools.services, tools.runner, tools.panels, tools.host
        self.changed = changed
        self.draft_union = draft_union  # the union draft of these documents, confirmations left out (Drafting's)
        # (passed, detail) while the body is a supersession's own draft, else None (set by the controller)
        self.supersession_check: Callable[[], tuple[bool, str] | None] | None = None

    def show(self, keep: tuple[int, int] | None = None) -> None:
        """memgui's verdict on the guard panel and the pairs in the alignment view, for the alignment of the body
        as it is, the reviewer's confirmations counted; `keep` (source, sentence) stays selected if still to read."""
        c, p, a = self.cluster, self.panels, self.services.alignment
        alignment, key = c.alignment, c.report_key
        if alignment is None or key is None or not c.guard_is_current():
            self.runner.cancel("pairs")
            p.guard_panel.set_proof(None)
            p.alignment_view.show_message("No source included." if not c.ordered_included() else
                                          "No merged body yet." if not c.body().strip() else "Checking the body…")
            p.alignment_changed()
            return
        docs = c.ordered_included()
        sources = [d.markdown_body for d in docs]
        labels = [f"#{p.sources.number_of(d.document_id)}" for d in docs]
        confirmed = c.confirmed_keys(docs)
        draft = c.current_draft()
        kept_back = draft.kept_back if draft is not None else ()
        primary = draft.primary if draft is not None else 0

        def job(cancel: CancelToken) -> tuple[Alignment, dict[Fate, int], list[PairRow]]:
            before = a.kept_back_alignment(sources, primary) if kept_back else None
            shown = a.confirmed_alignment(alignment, confirmed)
            return shown, a.fate_counts(shown), a.pair_rows(alignment, kept_back, confirmed, before)

        def done(result: tuple[Alignment, dict[Fate, int], list[PairRow]]) -> None:
            if key != c.guard_key():
                return  # the body or the selection changed meanwhile: a newer run follows
            shown, counts, rows = result
            detail = fate_summary(counts)
            if kept_back:
                detail += f" · {len(kept_back)} kept back ({CONFIRM_KEY} confirms a restatement)"
            if confirmed:
                detail += f" · {len(confirmed)} confirmed by you"
            p.guard_panel.set_proof(shown.verdict, detail)
            superseded = self.supersession_check() if self.supersession_check is not None else None
            if superseded is not None:  # the body is a supersession's own draft: its check speaks for memgui
                p.guard_panel.set_supersession(*superseded)
            p.alignment_view.set_rows(rows, labels, keep)
            p.alignment_changed()
            self.changed.emit()

        self.runner.start("pairs", job, label="Alignment", on_done=done,
                          on_error=lambda exc: p.alignment_view.show_message(f"Alignment failed: {one_line(exc)}"))

    def confirm(self) -> None:
        """The selected read pair (else the first) confirmed as a restatement, remembered for the cluster and
        recorded with the merge; a union draft is drafted again at once without that sentence. On a pair already
        confirmed, the confirmation is withdrawn."""
        c, view = self.cluster, self.panels.alignment_view
        if not c.reviewable():
            return
        if not c.guard_is_current() or self.runner.busy("pairs"):
            self.host.show_status("The body is being checked: confirm once its alignment is shown", 4000)
            return
        docs = c.ordered_included()
        selected = view.current_row()
        row = selected if selected is not None and selected.confirmed else view.confirmable_row()
        if row is None or not 0 <= row.source < len(docs):
            self.host.show_status("Nothing to confirm: no pair left to read", 4000)
            return
        doc = docs[row.source]
        where = f"{c.label(doc.document_id)} sentence {row.index + 1}"
        if row.confirmed:
            c.withdraw(doc.document_id, row.index)
            said = f"Confirmation withdrawn: {where}"
        else:
            c.confirm(ConfirmedRestatement(doc.document_id, row.index, row.source_text.text,
                                           (row.body_text.text,) if row.body_text.text else ()))
            said = f"Confirmed: {where} is restated by the body (recorded with the merge)"
        if c.current_draft() is not None:
            self.host.show_status(f"{said}; the union draft is drafted again", 6000)
            self.draft_union(docs)
        else:
            self.host.show_status(said, 6000)
            self.show(keep=row.key)
