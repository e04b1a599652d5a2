"""The cluster under review, as state of its own: its queue row and documents as loaded, each document's stamp a
write is checked against, the cosines of its pairs, where the merged body came from, the decider's answer, the
guard's report and the body it is about, the strict lens, the model's same-fact groups, the likely-different mark,
and who reviewed which cluster in this session.

The questions asked of it read the two panels that hold the reviewer's choices — the sources view (which members
are included, the target, the pane numbers) and the editor (the merged body) — and nothing else. The `Review`
controller loads it; its helpers (`Drafting`, `Evidence`, `Writes`) each get it with the few tools they use."""
from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

from ..services.types import (
    Alignment,
    ConfirmedRestatement,
    DeciderResult,
    DifferentFactsMark,
    Document,
    FactGroups,
    MergeGuardReport,
    ProvedDraft,
    SourceStamp,
    StrictReport,
)
from .cluster_model import NEW, SKIPPED, ClusterRow
from .draft_origin import DraftOrigin, DraftSource
from .fact_groups import pairs_kept_apart
from .outcome import outcome_text
from .sources_view import SourcesView
from .state import GuardKey

REVIEWABLE = (NEW, SKIPPED)


class ClusterUnderReview:
    def __init__(self, sources: SourcesView, editor: QPlainTextEdit):
        self.sources, self.editor = sources, editor
        self.row: ClusterRow | None = None  # the cluster on screen
        self.docs: list[Document] = []  # its documents as loaded
        self.stamps: dict[str, SourceStamp] = {}  # each document's stamp as it was drafted against
        self.cosines: dict[frozenset[str], float] = {}
        self.origin = DraftOrigin()  # where the merged body came from, and whether the reviewer edited it
        self.decider_result: DeciderResult | None = None
        self.report: MergeGuardReport | None = None  # the guard's report on `report_key`
        self.report_key: GuardKey | None = None
        self.strict: StrictReport | None = None  # the strict lens on the same body as `report`
        self.groups: FactGroups | None = None  # the model's same-fact partition, once every pair is judged
        self.mark: DifferentFactsMark | None = None  # the cluster's likely-different mark (computed on load)
        self.decided_by: dict[str, str] = {}  # cluster id -> who reviewed it in this session
        self.alignment: Alignment | None = None  # memgui's alignment of the sources to the same body as `report`
        self.draft: tuple[tuple[str, ...], ProvedDraft] | None = None  # the union draft and the ids it was drafted on
        # cluster id -> (document id, sentence) -> the restatement the reviewer confirmed, and the document's
        # content hash then (a document changed since: its confirmations no longer apply)
        self.confirmations: dict[str, dict[tuple[str, int], tuple[ConfirmedRestatement, str]]] = {}

    def forget_findings(self) -> None:
        """Another cluster (or the same one again): the guard's, the lens's, the model's and the mark's findings go."""
        self.report, self.report_key, self.strict, self.groups, self.mark = None, None, None, None, None
        self.alignment, self.draft = None, None

    # ---- the restatements the reviewer confirmed (remembered per cluster for the session) ------------------

    def _confirmed(self) -> dict[tuple[str, int], tuple[ConfirmedRestatement, str]]:
        return self.confirmations.setdefault(self.row.cluster_id, {}) if self.row is not None else {}

    def confirm(self, restatement: ConfirmedRestatement) -> None:
        stamp = self.stamps.get(restatement.document_id)
        self._confirmed()[(restatement.document_id, restatement.sentence)] = (
            restatement, stamp.content_hash if stamp is not None else "")

    def withdraw(self, document_id: str, sentence: int) -> None:
        self._confirmed().pop((document_id, sentence), None)

    def confirmed(self, docs: list[Document] | None = None) -> list[ConfirmedRestatement]:
        """The confirmations that still hold for `docs` (default: the included members), in their order."""
        order = {d.document_id: i for i, d in enumerate(self.ordered_included() if docs is None else docs)}
        live = [c for c, content in self._confirmed().values() if c.document_id in order and (
            (stamp := self.stamps.get(c.document_id)) is None or stamp.content_hash == content)]
        return sorted(live, key=lambda c: (order[c.document_id], c.sentence))

    def confirmed_keys(self, docs: list[Document]) -> frozenset[tuple[int, int]]:
        """The confirmations as (source, sentence) of `docs` in that order, as the core's draft and rows take them."""
        order = {d.document_id: i for i, d in enumerate(docs)}
        return frozenset((order[c.document_id], c.sentence) for c in self.confirmed(docs))

    def current_draft(self) -> ProvedDraft | None:
        """The union draft when it is the merged body, unedited, of the members included now."""
        if self.draft is None or self.origin != DraftOrigin(DraftSource.UNION):
            return None
        ids, draft = self.draft
        current = tuple(d.document_id for d in self.ordered_included())
        return draft if ids == current and draft.body == self.body() else None

    def set_documents(self, docs: list[Document], stamps: dict[str, SourceStamp],
                      cosines: dict[frozenset[str], float]) -> None:
        self.docs, self.stamps, self.cosines = docs, stamps, cosines

    # ---- questions ---------------------------------------------------------------------------------------

    def body(self) -> str:
        return self.editor.toPlainText()

    def doc(self, doc_id: str) -> Document | None:
        return next((d for d in self.docs if d.document_id == doc_id), None)

    def label(self, doc_id: str) -> str:
        doc = self.doc(doc_id)
        n = self.sources.number_of(doc_id)
        return f"#{n} “{doc.title}”" if doc is not None else doc_id

    def ids_to_labels(self, text: str) -> str:
        """Document ids in model text shown as the pane numbers the person sees (#1, #2, …)."""
        for doc in self.docs:
            text = text.replace(doc.document_id, f"#{self.sources.number_of(doc.document_id)}")
        return text

    def ordered_included(self) -> list[Document]:
        """Target first, then the other included members (the order the core's merge uses)."""
        ids = self.sources.included_ids()
        target = self.sources.target_id()
        ordered = ([target] if target in ids else []) + [i for i in ids if i != target]
        return [d for d in map(self.doc, ordered) if d is not None]

    def members(self) -> list[Document]:
        """The cluster's live documents (tombstoned ones take no part)."""
        return [d for d in self.docs if not d.is_tombstoned]

    def pairs_kept_apart(self) -> list[tuple[str, str]]:
        return pairs_kept_apart(self.groups, [d.document_id for d in self.members()], self.sources.included_ids())

    def reviewable(self) -> bool:
        return self.row is not None and bool(self.docs) and self.row.status in REVIEWABLE

    def guard_key(self) -> GuardKey:
        return (self.body(), tuple(d.document_id for d in self.ordered_included()))

    def guard_is_current(self) -> bool:
        return self.report is not None and self.report_key == self.guard_key()

    def outcome(self) -> str:
        """What was done to the cluster on screen and by whom ("" while it is still to decide, untouched)."""
        return outcome_text(self.row, self.docs, self.decided_by, self.label)


__all__ = ["REVIEWABLE", "ClusterUnderReview"]
