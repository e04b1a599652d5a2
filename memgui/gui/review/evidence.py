"""What the sources of the cluster under review say against each other, computed on the worker when the
cluster loads (before any model call): the core's "likely different facts" mark on the whole cluster and the
conflict evidence of every pair. Works on the `Review` controller's state and panels."""
from __future__ import annotations

from itertools import combinations

from ..services.values import Preselection
from ..workers import one_line
from .cluster_model import ClusterRow
from .state import EvidenceResult, ReviewState

MAX_PAIR_LINES = 4  # disagreeing pairs listed one per line; the rest are counted


class Evidence:
    def __init__(self, review: ReviewState):
        self.r = review
        self.mark_lines: list[str] = []  # the likely-different mark and the value conflicts, one line each
        self.preselected = ""  # what the conflicts pre-selected, until the model's groups decide instead
        self.loaded_selection: tuple[str, ...] | None = None  # the members included as the cluster loaded

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
        partition_of, preselect = r.services.conflict_partition, r.services.preselect
        disagreeing_of = r.services.disagreeing_pairs
        cosines = dict(r.cosines)

        def job(cancel):
            mark = mark_of(bodies, titles)
            pairs = []
            for i, j in combinations(range(len(ids)), 2):
                cancel.raise_if_cancelled()
                pairs.append((ids[i], ids[j], evidence_of(bodies[i], bodies[j], a_title=titles[i],
                                                          b_title=titles[j], with_diff=False)))
            _groups, conflicts = partition_of(docs)
            # a pair disagrees when it differs on an amount or date, or the evidence finds a conflicting value
            disagreeing = disagreeing_of(conflicts, pairs)
            return mark, pairs, conflicts, disagreeing, preselect(ids, disagreeing, cosines)

        row = r.row
        panel.set_pending()
        r.runner.start("evidence", job, label="Conflict evidence", on_done=lambda res: self._done(row, res),
                       on_error=lambda exc: panel.text.setPlainText(f"Comparing the sources failed: {one_line(exc)}"))

    def _done(self, row: ClusterRow | None, result: EvidenceResult) -> None:
        r, p = self.r, self.r.panels
        if row is not r.row:
            return
        mark, pairs, conflicts, disagreeing, chosen = result
        r.mark = mark
        number = p.sources.number_of
        lines = [f"⚠ Likely different facts: {mark.reason}. Check the conflicts before merging."] \
            if mark.likely_different else []
        lines += [f"⚠ #{number(a)} and #{number(b)} disagree on {note}" for a, b, note in conflicts[:MAX_PAIR_LINES]]
        if len(conflicts) > MAX_PAIR_LINES:
            lines.append(f"⚠ … and {len(conflicts) - MAX_PAIR_LINES} more pair(s) that disagree on a value")
        values = sum(len(ev.conflicts) for _a, _b, ev in pairs)
        if values and len(disagreeing) > len(conflicts):
            lines.append(f"⚠ {len(disagreeing)} pair{'s' if len(disagreeing) != 1 else ''} disagree on a value "
                         f"({values} in the Conflicts tab)")
        elif values and not disagreeing:  # words only one note uses: worth a look, not a reason to keep apart
            lines.append(f"Note: {values} difference{'s' if values != 1 else ''} in wording between the sources "
                         "(Conflicts tab)")
        self.preselected = ""
        untouched = tuple(p.sources.included_ids()) == self.loaded_selection  # the reviewer's own choice stays
        if r.groups is None and untouched:  # the model's partition, once there, decides instead
            self.preselected = self._preselect(chosen)
        self.mark_lines = lines
        self.show_mark()
        p.evidence_panel.show_pairs(pairs, p.sources.number_of)
        p.evidence_changed()
        r.changed.emit()

    def _preselect(self, chosen: Preselection) -> str:
        """Include only the pre-selected members (the target moves onto one of them); the line that says so."""
        r, sources = self.r, self.r.panels.sources
        if chosen.whole:
            return ""
        members = list(chosen.members)
        sources.set_included(members)
        if sources.target_id() not in members:
            target = r.services.default_target([d for d in r.members() if d.document_id in set(members)])
            if target:
                sources.set_target(target)
        shown = " ".join(f"#{n}" for n in sorted(sources.number_of(m) for m in members))
        if len(members) < 2:
            return f"Pre-selected: {shown} only — the others disagree with it (1–9 to check one anyway)"
        if chosen.capped:
            return (f"Pre-selected: {shown} of {chosen.of}, the closest (never all of a big cluster; 1–9 to "
                    "change)")
        return f"Pre-selected: {shown} (no two of them disagree on a value)"

    def preselect_on_load(self) -> None:
        """Before the evidence is in: a cluster above three members is not left checked whole."""
        r = self.r
        live = [d.document_id for d in r.members()]
        chosen = r.services.preselect(live, [], dict(r.cosines))
        if not chosen.whole:
            self.preselected = self._preselect(chosen)
            self.show_mark()
        self.loaded_selection = tuple(r.panels.sources.included_ids())
