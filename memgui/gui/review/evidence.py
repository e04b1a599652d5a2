"""What the sources of the cluster under review say against each other, computed on the worker when the
cluster loads (before any model call): the core's "likely different facts" mark on the whole cluster and the
conflict evidence of every pair. Works on the `Review` controller's state and panels."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..workers import one_line


class Evidence:
    def __init__(self, review: Any):
        self.r = review
        self.mark_lines: list[str] = []  # the likely-different mark and the value conflicts, one line each
        self.preselected = ""  # what the conflicts pre-selected, until the model's groups decide instead

    def show_mark(self) -> None:
        lines = self.mark_lines + ([self.preselected] if self.preselected and self.r.groups is None else [])
        self.r.panels.decision_panel.set_mark("\n".join(lines))

    def clear(self) -> None:
        self.r.runner.cancel("evidence")
        self.r.panels.evidence_panel.clear()
        self.r.panels.evidence_changed()

    def start(self) -> None:
        r, panel = self.r, self.r.panels.evidence_panel
        self.mark_lines, self.preselected = [], ""  # a new cluster: nothing said about it yet
        docs = r.members()
        if len(docs) < 2:
            self.clear()
            return
        ids = [d.document_id for d in docs]
        bodies = [d.markdown_body for d in docs]
        titles = [d.title or "" for d in docs]
        mark_of, evidence_of = r.services.likely_different, r.services.pair_evidence
        partition_of = r.services.conflict_partition

        def job(cancel):
            mark = mark_of(bodies, titles)
            pairs = []
            for i, j in combinations(range(len(ids)), 2):
                cancel.raise_if_cancelled()
                pairs.append((ids[i], ids[j], evidence_of(bodies[i], bodies[j], a_title=titles[i],
                                                          b_title=titles[j], with_diff=False)))
            return mark, pairs, partition_of(docs)

        row = r.row
        panel.set_pending()
        r.runner.start("evidence", job, label="Conflict evidence", on_done=lambda res: self._done(row, res),
                       on_error=lambda exc: panel.text.setPlainText(f"Comparing the sources failed: {one_line(exc)}"))

    def _done(self, row: Any, result: tuple) -> None:
        r, p = self.r, self.r.panels
        if row is not r.row:
            return
        mark, pairs, (groups, conflicts) = result
        r.mark = mark
        lines = [f"⚠ Likely different facts: {mark.reason}. Check the conflicts before merging."] \
            if mark.likely_different else []
        self.preselected = ""
        if conflicts:
            number = p.sources.number_of
            lines += [f"⚠ #{number(a)} and #{number(b)} disagree on {note}" for a, b, note in conflicts]
            if r.groups is None and len(groups[0]) >= 2:  # the model's partition, once there, decides instead
                p.sources.set_included(groups[0])
                self.preselected = ("Pre-selected: " + " ".join(f"#{number(m)}" for m in sorted(groups[0], key=number))
                                    + " (no two of them disagree on a value)")
        self.mark_lines = lines
        self.show_mark()
        p.evidence_panel.show_pairs(pairs, p.sources.number_of)
        p.evidence_changed()
        r.changed.emit()
