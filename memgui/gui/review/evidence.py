"""What the sources of the cluster under review say against each other, computed on the worker when the
cluster loads (before any model call): the core's "likely different facts" mark on the whole cluster and the
conflict evidence of every pair. Works on the cluster under review, with the services, runner and panels."""
from __future__ import annotations

from itertools import combinations

from PySide6.QtCore import SignalInstance

from ..services.values import CancelToken, Preselection
from ..workers import one_line
from .cluster_model import ClusterRow
from .state import EvidenceResult, ReviewTools
from .under_review import ClusterUnderReview

MAX_PAIR_LINES = 4  # disagreeing pairs listed one per line; the rest are counted


class Evidence:
    def __init__(self, cluster: ClusterUnderReview, tools: ReviewTools, *, changed: SignalInstance):
        self.cluster, self.services, self.runner, self.panels = cluster, tools.services, tools.runner, tools.panels
        self.changed = changed  # the actions' state may differ once the evidence is in
        self.mark_lines: list[str] = []  # the likely-different mark and the value conflicts, one line each
        self.preselected = ""  # what the conflicts pre-selected, until the model's groups decide instead
        self.loaded_selection: tuple[str, ...] | None = None  # the members included as the cluster loaded

    def show_mark(self) -> None:
        lines = self.mark_lines + ([self.preselected] if self.preselected and self.cluster.groups is None else [])
        self.panels.decision_panel.set_mark("\n".join(lines))

    def clear(self) -> None:
        self.runner.cancel("evidence")
        self.panels.evidence_panel.clear()
        self.panels.evidence_changed()

    def start(self) -> None:
        c, panel = self.cluster, self.panels.evidence_panel
        self.mark_lines, self.preselected = [], ""  # a new cluster: nothing said about it yet
        docs = c.members()
        if len(docs) < 2:
            self.clear()
            return
        ids = [d.document_id for d in docs]
        bodies = [d.markdown_body for d in docs]
        titles = [d.title or "" for d in docs]
        mark_of, evidence_of = self.services.likely_different, self.services.pair_evidence
        partition_of, preselect = self.services.conflict_partition, self.services.preselect
        disagreeing_of = self.services.disagreeing_pairs
        cosines = dict(c.cosines)

        def job(cancel: CancelToken) -> EvidenceResult:
            mark = mark_of(bodies, titles)
            pairs = []
            for i, j in combinations(range(len(ids)), 2):
                cancel.raise_if_cancelled()
                pairs.append((ids[i], ids[j], evidence_of(bodies[i], bodies[j], a_title=titles[i],
                                                          b_title=titles[j], with_diff=False)))
            _groups, conflicts = partition_of(docs)
            # a pair disagrees when it differs on an amount or date, or the evidence finds a conflicting value
            disagreeing = disagreeing_of(conflicts, pairs)
            return EvidenceResult(mark, pairs, conflicts, disagreeing, preselect(ids, disagreeing, cosines))

        row = c.row
        panel.set_pending()
        self.runner.start("evidence", job, label="Conflict evidence", on_done=lambda res: self._done(row, res),
                          on_error=lambda exc: panel.text.setPlainText(f"Comparing the sources failed: "
                                                                       f"{one_line(exc)}"))

    def _done(self, row: ClusterRow | None, result: EvidenceResult) -> None:
        c, p = self.cluster, self.panels
        if row is not c.row:
            return
        mark, pairs, conflicts, disagreeing, chosen = result
        c.mark = mark
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
        if c.groups is None and untouched:  # the model's partition, once there, decides instead
            self.preselected = self._preselect(chosen)
        self.mark_lines = lines
        self.show_mark()
        p.evidence_panel.show_pairs(pairs, p.sources.number_of)
        p.evidence_changed()
        self.changed.emit()

    def _preselect(self, chosen: Preselection) -> str:
        """Include only the pre-selected members (the target moves onto one of them); the line that says so."""
        c, sources = self.cluster, self.panels.sources
        if chosen.whole:
            return ""
        members = list(chosen.members)
        sources.set_included(members)
        if sources.target_id() not in members:
            target = self.services.default_target([d for d in c.members() if d.document_id in set(members)])
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
        c = self.cluster
        live = [d.document_id for d in c.members()]
        chosen = self.services.preselect(live, [], dict(c.cosines))
        if not chosen.whole:
            self.preselected = self._preselect(chosen)
            self.show_mark()
        self.loaded_selection = tuple(self.panels.sources.included_ids())
