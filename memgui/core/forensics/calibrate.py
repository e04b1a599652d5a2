"""Threshold calibration from a person's own decisions (Splink's threshold tool, for embedding cosine).

Every pair a person merged is an *accepted* pair; every pair they kept separate is a *kept_separate* pair.
With the demo store, its ground-truth labels (`resources/demo/labels.json`: duplicate clusters and look-alike
siblings) can be added. `suggest_threshold` returns the highest cosine floor that still nominates at least
95 % of the accepted pairs, with precision and recall at that floor, so "use this threshold" loses at most one
merge in twenty of the kind the person accepts.

A caveat shown to the person: pairs decided in memgui were nominated at the floor in force then, so the
audit alone cannot show how many duplicates lie below it; the demo labels (every pair, nominated or not)
can.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work, run_to_end

if TYPE_CHECKING:
    from ..store import Store
    from ..vectors.embed import VectorSource


class PairLabel(StrEnum):
    """What a person decided of a nominated pair."""

    ACCEPTED = "accepted"  # merged
    KEPT_SEPARATE = "kept_separate"


class PairSource(StrEnum):
    """Where a labelled pair's decision comes from."""

    AUDIT = "audit"  # a reviewer's write or keep-separate, from memgui's audit
    DEMO = "demo"  # the demo store's labels


ACCEPTED, KEPT_SEPARATE = PairLabel.ACCEPTED, PairLabel.KEPT_SEPARATE
LABELS = tuple(PairLabel)
SOURCE_AUDIT, SOURCE_DEMO = PairSource.AUDIT, PairSource.DEMO
TARGET_RECALL = 0.95
DECIMALS = 3  # the suggested floor is rounded DOWN to this many decimals (never loses an accepted pair)

CosineLookup = Callable[[str, str], "float | None"]


@dataclass(frozen=True)
class LabelledPair:
    cosine: float
    label: PairLabel
    source: PairSource = PairSource.AUDIT
    a: str = ""
    b: str = ""
    audit_id: int | None = None


MIN_DECISIONS = 20  # decisions (merges + kept-separate pairs) before a suggested floor is offered to use


@dataclass(frozen=True)
class Calibration:
    threshold: float | None  # None when it cannot be suggested (no accepted pairs)
    target_recall: float
    recall: float | None  # share of accepted pairs with cosine ≥ threshold
    precision: float | None  # share of pairs ≥ threshold that were accepted (None if none are ≥ threshold)
    accepted: int
    kept_separate: int
    nominated_accepted: int  # true positives at the threshold
    nominated_kept_separate: int  # false positives at the threshold
    ignored: int  # pairs with no usable cosine or an unknown label
    message: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @property
    def decisions(self) -> int:
        return self.accepted + self.kept_separate

    @property
    def enough(self) -> bool:
        """Enough decisions (MIN_DECISIONS) for the floor to be offered as the threshold to use."""
        return self.threshold is not None and self.decisions >= MIN_DECISIONS


def _valid(p: LabelledPair) -> bool:
    c = p.cosine
    return p.label in LABELS and isinstance(c, (int, float)) and math.isfinite(c) and -1.0001 <= c <= 1.0001


def _floor(value: float, decimals: int = DECIMALS) -> float:
    scale = 10 ** decimals
    return float(math.floor(value * scale) / scale)


class Counts(NamedTuple):
    """The labelled pairs counted at one threshold t."""

    accepted_above: int  # accepted (merged) pairs with cosine ≥ t: true positives
    separate_above: int  # kept-separate pairs with cosine ≥ t: false positives
    accepted: int
    separate: int


def metrics_at(pairs: Sequence[LabelledPair], threshold: float) -> Counts:
    """(accepted ≥ t, kept_separate ≥ t, accepted, kept_separate) over the valid pairs."""
    tp = fp = pos = neg = 0
    for p in pairs:
        if not _valid(p):
            continue
        hit = p.cosine >= threshold
        if p.label == ACCEPTED:
            pos += 1
            tp += hit
        else:
            neg += 1
            fp += hit
    return Counts(tp, fp, pos, neg)


def suggest_threshold(pairs: Iterable[LabelledPair], *, target_recall: float = TARGET_RECALL,
                      decimals: int = DECIMALS) -> Calibration:
    """The highest floor (rounded down to `decimals`) that keeps ≥ `target_recall` of accepted pairs nominated."""
    if not 0.0 < target_recall <= 1.0:
        raise ValueError(f"target recall must be in (0, 1], not {target_recall}")
    pairs = list(pairs)
    valid = [p for p in pairs if _valid(p)]
    ignored = len(pairs) - len(valid)
    accepted = sorted((p.cosine for p in valid if p.label == ACCEPTED), reverse=True)
    kept = sum(1 for p in valid if p.label == KEPT_SEPARATE)
    if not accepted:
        why = ("no decisions yet: merge or keep separate a few clusters (or open the demo store) to calibrate"
               if not kept else
               f"{kept} kept-separate pair(s) but no accepted merge: a floor that keeps merges cannot be suggested yet")
        return Calibration(None, target_recall, None, None, 0, kept, 0, 0, ignored, why)
    need = math.ceil(target_recall * len(accepted) - 1e-9)  # accepted pairs that must stay nominated
    threshold = _floor(accepted[need - 1], decimals)
    tp, fp, pos, neg = metrics_at(valid, threshold)
    recall = tp / pos
    precision = tp / (tp + fp) if tp + fp else None
    parts = [f"floor {threshold:.{decimals}f} keeps {tp} of {pos} accepted merge(s) nominated ({recall:.0%})"]
    if neg:
        parts.append(f"and {fp} of {neg} kept-separate pair(s) (precision {precision:.0%})")
    else:
        parts.append("— no kept-separate decisions yet, so precision is not measured")
    if pos < 20:
        parts.append(f"(only {pos} accepted pair(s): treat it as a first estimate)")
    return Calibration(threshold, target_recall, recall, precision if neg else None, pos, neg, tp, fp, ignored,
                       " ".join(parts))


# ---- where labelled pairs come from -------------------------------------------------------------------


def _pairs_of(ids: Sequence[str]) -> list[tuple[str, str]]:
    ids = list(dict.fromkeys(ids))
    return [(ids[i], ids[j]) for i in range(len(ids)) for j in range(i + 1, len(ids))]


def audit_label_requests(entries: Iterable[Any]) -> list[tuple[str, str, PairLabel, float | None, int]]:
    """(a, b, label, recorded cosine or None, audit id) for every pair the person decided in memgui and did not
    undo: each pair of a merged cluster is accepted; each pair kept separate is kept_separate."""
    from ..store.audit_log import OP_KEEP_SEPARATE, OP_MERGE, STATE_APPLIED

    out = []
    for e in entries:
        if e.state != STATE_APPLIED or e.operation not in (OP_MERGE, OP_KEEP_SEPARATE):
            continue
        recorded = {frozenset((a, b)): float(c) for a, b, c in (e.details.get("cosines") or []) if a != b}
        if e.operation == OP_MERGE:
            label, pairs = ACCEPTED, _pairs_of(e.source_ids)
        else:
            label = KEPT_SEPARATE
            pairs = [tuple(p) for p in e.details.get("pairs") or []] or _pairs_of(e.source_ids)
        for a, b in pairs:
            out.append((a, b, label, recorded.get(frozenset((a, b))), e.audit_id))
    return out


def demo_label_requests(labels: Mapping[str, Any], present: set[str] | None = None) -> list[tuple[str, str, PairLabel]]:
    """(a, b, label) from the demo label file: every pair inside a duplicate cluster is accepted, every
    sibling pair kept_separate. `present` keeps only pairs whose documents are both in the store."""
    out = []
    for cluster in labels.get("duplicate_clusters") or []:
        out += [(a, b, ACCEPTED) for a, b in _pairs_of(cluster)]
    for pair in labels.get("sibling_pairs") or []:
        if len(pair) == 2:
            out.append((pair[0], pair[1], KEPT_SEPARATE))
    if present is not None:
        out = [t for t in out if t[0] in present and t[1] in present]
    return out


def labelled_pairs_work(
    store: Store,
    *,
    source: VectorSource | None = None,
    cosine_of: CosineLookup | None = None,
    include_demo: bool = True,
    labels: Mapping[str, Any] | None = None,
    cancel: CancelToken | None = None,
) -> Work[list[LabelledPair]]:
    """Labelled pairs for `store`: the audit trail's decisions, plus the demo labels when the store holds the
    demo documents. Cosines come from `cosine_of(a, b)` when given (e.g. the current scan's pairs), else the
    cosine recorded in the audit entry, else from `source` (a core.embed VectorSource: the vectors of just the
    documents involved). Pairs whose cosine cannot be had are left out."""
    from ..store.audit_log import list_entries

    cancel = cancel or NEVER_CANCELLED
    yield Progress(Step.CALIBRATING, 0, None, "reading decisions")
    requests: list[tuple[str, str, PairLabel, float | None, int | None, PairSource]] = [
        (a, b, lab, rec, aid, SOURCE_AUDIT) for a, b, lab, rec, aid in audit_label_requests(list_entries(store))]
    if include_demo:
        if labels is None:
            try:
                from ..store.demo import demo_labels

                labels = demo_labels()
            except (ImportError, OSError, ValueError):
                labels = {}
        wanted = {i for t in demo_label_requests(labels) for i in t[:2]}
        present = {d.document_id for d in store.documents_by_ids(wanted) if not d.is_tombstoned}
        requests += [(a, b, lab, None, None, SOURCE_DEMO) for a, b, lab in demo_label_requests(labels, present)]
    cosines: dict[frozenset[Any], float] = {}
    if cosine_of is not None:
        for a, b, *_ in requests:
            value = cosine_of(a, b)
            if value is not None:
                cosines[frozenset((a, b))] = float(value)
    missing_ids = sorted({i for a, b, _l, rec, _id, _s in requests
                          if rec is None and frozenset((a, b)) not in cosines for i in (a, b)})
    if missing_ids and source is not None:
        cancel.raise_if_cancelled()
        docs = [d for d in store.documents_by_ids(missing_ids)]
        vectors = yield from source.vectors_for(docs, cancel)
        by_id = {}
        for d, v in zip(docs, vectors):
            norm = float((v @ v) ** 0.5)
            if norm > 0:
                by_id[d.document_id] = v / norm
        for a, b, _l, rec, _id, _s in requests:
            key = frozenset((a, b))
            if rec is None and key not in cosines and a in by_id and b in by_id:
                cosines[key] = float(by_id[a] @ by_id[b])
    out = []
    for a, b, label, rec, aid, src in requests:
        key = frozenset((a, b))
        value = cosines.get(key, rec)
        if value is not None:
            out.append(LabelledPair(float(value), label, src, a, b, aid))
    yield Progress(Step.CALIBRATING, 1, 1, f"{len(out)} labelled pair(s)")
    return out


def labelled_pairs(store: Store, **kw: Any) -> list[LabelledPair]:
    return run_to_end(labelled_pairs_work(store, **kw))


__all__ = [
    "ACCEPTED",
    "KEPT_SEPARATE",
    "MIN_DECISIONS",
    "TARGET_RECALL",
    "Calibration",
    "Counts",
    "LabelledPair",
    "audit_label_requests",
    "demo_label_requests",
    "labelled_pairs",
    "labelled_pairs_work",
    "metrics_at",
    "suggest_threshold",
]
