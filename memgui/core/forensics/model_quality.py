"""How good is the decider where the decision is made: measured on the bundled labelled demo store, and
compared with what this reviewer decided.

On the demo labels (`resources/demo/labels.json`: duplicate clusters, look-alike sibling pairs):
- **same-fact recall**: of the labelled duplicate pairs the model judged, the share it called the same fact;
- **sibling rejection**: of the labelled sibling pairs (same topic, different fact) it judged, the share it
  called different;
- **false merges per 100 clusters**: over the nominee clusters the reviewer would see (the demo store's scan,
  in queue order), the clusters whose pre-selected group (the largest same-fact group) joins two documents that
  are not a labelled duplicate pair — what accepting every proposal would get wrong.
`memgui evaluate-model` runs it (all clusters, or the first N with `--limit`) and caches the result per model
file; `tests/perf/test_false_merges.py` uses the same counting.

Agreement with the reviewer reads the audit log: a merge says its sources are one fact, a keep-separate says its
recorded pairs are not; a decision counts when the model had judged every pair it covers.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ...config import user_cache_dir
from ..decide.groups import DIFFERENT, SAME, Judgement, judge_pairs
from ..decide.review import ClusterReview
from ..netfx import format_timestamp
from ..store import open_store
from ..store.audit_log import OP_KEEP_SEPARATE, OP_MERGE, STATE_APPLIED, list_entries
from ..store.demo import build_demo_store, demo_labels
from ..store.seams import read_cache
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work

if TYPE_CHECKING:
    from ..store import Store
    from ..vectors.embed import VectorSource


CACHE_FILE = "model_quality.json"
MIN_AGREEMENT_DECISIONS = 20  # below this many judged decisions an agreement rate says little


# ---- the labels -----------------------------------------------------------------------------------------

def duplicate_pairs(labels: Mapping[str, Any], live: Iterable[str] | None = None) -> set[frozenset[str]]:
    """Every pair inside one labelled duplicate cluster (of the live documents, when given)."""
    keep = set(live) if live is not None else None
    out: set[frozenset[str]] = set()
    for cluster in labels["duplicate_clusters"]:
        ids = [d for d in cluster if keep is None or d in keep]
        out |= {frozenset(p) for p in itertools.combinations(ids, 2)}
    return out


def sibling_pairs(labels: Mapping[str, Any], live: Iterable[str] | None = None) -> set[frozenset[str]]:
    keep = set(live) if live is not None else None
    return {frozenset(p) for p in labels["sibling_pairs"] if keep is None or set(p) <= keep}


def wrong_merge(selected: Sequence[str], truth: set[frozenset[str]]) -> bool:
    """A merge of `selected` joins two documents that are not a labelled duplicate pair."""
    return any(frozenset(p) not in truth for p in itertools.combinations(selected, 2))


def labels_version(labels: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(labels, sort_keys=True).encode("utf-8")).hexdigest()[:12]


# ---- counting over clusters -----------------------------------------------------------------------------

@dataclass
class MergeStats:
    """What accepting every pre-selected group (the largest same-fact group) would do on labelled clusters."""

    clusters: int = 0
    merges: int = 0  # clusters whose largest group has two or more members
    wrong: int = 0  # ... of which join a non-duplicate pair
    duplicates_apart: int = 0  # labelled duplicate pairs put in different groups
    mixed: int = 0  # clusters holding a labelled duplicate pair and a labelled sibling pair
    mixed_split: int = 0  # ... whose pre-selected group leaves the sibling out
    verdicts: dict[frozenset[Any], Judgement | None] = field(default_factory=dict)  # every judged pair
    mixed_misses: list[Any] = field(default_factory=list)  # (members, groups) of mixed clusters not split

    @property
    def wrong_per_100(self) -> float:
        return 100.0 * self.wrong / self.clusters if self.clusters else 0.0


def merge_stats(clusters: Sequence[Sequence[str]], docs: Mapping[str, Any], judge: Callable[..., Work[Any]],
                truth: set[frozenset[str]], siblings: set[frozenset[str]], *,
                cancel: CancelToken = NEVER_CANCELLED) -> Work[MergeStats]:
    """Judge every pair of every cluster with `judge(existing, new, cancel=…)` (a decider's `judge_pair`) and
    count what the pre-selected groups would merge."""
    stats = MergeStats()
    for n, members in enumerate(clusters):
        cancel.raise_if_cancelled()
        yield Progress(Step.JUDGING_CLUSTERS, n, len(clusters), f"cluster {n + 1} of {len(clusters)}")
        groups = yield from judge_pairs([docs[m] for m in members], judge, cancel=cancel)
        stats.clusters += 1
        for v in groups.verdicts:
            stats.verdicts[frozenset((v.a, v.b))] = v.verdict
        if len(groups.largest) >= 2:
            stats.merges += 1
            stats.wrong += wrong_merge(groups.largest, truth)
        stats.duplicates_apart += sum(frozenset(p) in truth for p in groups.apart_pairs())
        pairs = {frozenset(p) for p in itertools.combinations(members, 2)}
        if pairs & siblings and pairs & truth:
            stats.mixed += 1
            chosen = {frozenset(p) for p in itertools.combinations(groups.largest, 2)}
            stats.mixed_split += not (chosen & siblings)
            if chosen & siblings:
                stats.mixed_misses.append((tuple(members), groups.groups))
    yield Progress(Step.JUDGING_CLUSTERS, len(clusters), len(clusters), "done")
    return stats


# ---- the measurement ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ModelQuality:
    model_id: str
    clusters_measured: int
    clusters_total: int
    limit: int | None  # None: every nominee cluster of the demo store (and every labelled pair)
    embedder: str  # what found the clusters ("lexical overlap" on the degraded path)
    pairs_judged: int
    duplicate_pairs: int  # labelled duplicate pairs judged
    duplicate_pairs_same: int
    sibling_pairs: int  # labelled sibling pairs judged
    sibling_pairs_different: int
    merges_proposed: int
    false_merges: int
    mixed_clusters: int
    mixed_split: int
    seconds: float
    labels_version: str = ""
    measured_at: str = ""
    selftest: dict[str, Any] | None = None

    @property
    def subset(self) -> str:
        if self.limit is None:
            return (f"all {self.clusters_total} nominee clusters of the demo store, plus every labelled duplicate "
                    "and sibling pair")
        return f"the first {self.clusters_measured} of {self.clusters_total} nominee clusters (queue order)"

    @property
    def same_fact_recall(self) -> float | None:
        return self.duplicate_pairs_same / self.duplicate_pairs if self.duplicate_pairs else None

    @property
    def sibling_rejection(self) -> float | None:
        return self.sibling_pairs_different / self.sibling_pairs if self.sibling_pairs else None

    @property
    def false_merges_per_100(self) -> float | None:
        return 100.0 * self.false_merges / self.clusters_measured if self.clusters_measured else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(subset=self.subset, same_fact_recall=_round(self.same_fact_recall),
                    sibling_rejection=_round(self.sibling_rejection),
                    false_merges_per_100=_round(self.false_merges_per_100, 2))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModelQuality:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def _round(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def fixture_clusters(store: Store, *, source: VectorSource | None = None,
                     cancel: CancelToken = NEVER_CANCELLED) -> Work[tuple[list[Any], str]]:
    """The demo store's nominee clusters in queue order (top cosine first, as the window sorts them), and what
    found them."""
    from ..vectors.nominate import scan_store

    result = yield from scan_store(store, source=source, cancel=cancel)
    clusters = sorted(result.clusters, key=lambda c: -(c.top_cosine if c.top_cosine is not None else -1.0))
    how = result.embedder.model_id if result.embedder is not None else "lexical overlap"
    return [tuple(c.member_ids) for c in clusters], how


class _MemoJudge:
    """One verdict per pair of texts: a pair met in two clusters (or again as a labelled pair) is judged once."""

    def __init__(self, judge: Callable[..., Work[Any]]):
        self.judge = judge
        self.memo: dict[tuple[str, str], Any] = {}

    def __call__(self, existing: str, new: str, cancel: CancelToken | None = None) -> Work[Any]:
        key = (existing, new)
        if key not in self.memo:
            self.memo[key] = yield from self.judge(existing, new, cancel=cancel)
        return self.memo[key]


def evaluate_model(decider: Any, *, limit: int | None = None, source: VectorSource | None = None, workdir: Path | None = None,
                   cancel: CancelToken = NEVER_CANCELLED) -> Work[ModelQuality]:
    """Measure `decider` (its `judge_pair`) on a fresh demo store: the first `limit` nominee clusters (None:
    all of them, plus every labelled duplicate and sibling pair). Nothing of the user's is read or written."""
    started = time.monotonic()
    labels = demo_labels()
    yield Progress(Step.BUILDING_THE_DEMO_STORE, 0, None, "")
    # a fresh copy in the cache dir each time (a fixed path, so the vector index built for it is reused)
    path = build_demo_store((workdir or user_cache_dir() / "evaluate-model") / "netclaw.db", force=True)
    with open_store(path, read_only=True) as store:
        docs = {d.document_id: d for d in store.documents() if not d.is_tombstoned}
        clusters, how = yield from fixture_clusters(store, source=source, cancel=cancel)
    truth, siblings = duplicate_pairs(labels, docs), sibling_pairs(labels, docs)
    chosen = clusters if limit is None else clusters[:max(0, limit)]
    judge = _MemoJudge(lambda existing, new, cancel=None: decider.judge_pair(existing, new, cancel=cancel))
    stats = yield from merge_stats(chosen, docs, judge, truth, siblings, cancel=cancel)
    verdicts = dict(stats.verdicts)
    if limit is None:  # the labelled pairs no cluster holds, judged on their own
        extra = sorted(tuple(sorted(p)) for p in (truth | siblings) if p not in verdicts)
        for n, (a, b) in enumerate(extra):
            cancel.raise_if_cancelled()
            yield Progress(Step.JUDGING_LABELLED_PAIRS, n, len(extra), f"{a} vs {b}")
            older, newer = sorted((docs[a], docs[b]), key=lambda d: (d.updated_at, d.created_at, d.document_id))
            verdicts[frozenset((a, b))] = Judgement.of_reply((yield from judge(older.markdown_body, newer.markdown_body,
                                                                     cancel=cancel)))
    dup = [v for p, v in verdicts.items() if p in truth and v is not None]
    sib = [v for p, v in verdicts.items() if p in siblings and v is not None]
    return ModelQuality(
        model_id=getattr(decider, "model_id", ""), clusters_measured=stats.clusters, clusters_total=len(clusters),
        limit=limit, embedder=how, pairs_judged=len(verdicts), duplicate_pairs=len(dup),
        duplicate_pairs_same=sum(v == SAME for v in dup), sibling_pairs=len(sib),
        sibling_pairs_different=sum(v == DIFFERENT for v in sib), merges_proposed=stats.merges,
        false_merges=stats.wrong, mixed_clusters=stats.mixed, mixed_split=stats.mixed_split,
        seconds=round(time.monotonic() - started, 1), labels_version=labels_version(labels),
        measured_at=format_timestamp(int(time.time() * 1000)),
    )


# ---- the cache (per model file, like the self-test's) --------------------------------------------------------

def _cache_path() -> Path:
    return user_cache_dir() / CACHE_FILE


def _load() -> dict[str, Any]:
    return read_cache(_cache_path())  # bounded; a malformed or 100k-deep cache is an empty one


def _subset_key(limit: int | None) -> str:
    return "all" if limit is None else f"first-{int(limit)}"


def save_quality(model_key: str, quality: ModelQuality) -> None:
    data = _load()
    data.setdefault(model_key, {})[_subset_key(quality.limit)] = quality.to_dict()
    path = _cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache costs the reuse, not the measurement


def cached_quality(model_key: str | None, limit: int | EllipsisType | None = ..., *,
                   labels: Mapping[str, Any] | None = None) -> ModelQuality | None:
    """The measured record of this model file: for `limit` exactly, or (left out) the widest one measured.
    Records measured on other labels are not this fixture's."""
    if not model_key:
        return None
    entries = _load().get(model_key, {})
    if not isinstance(entries, dict):
        return None
    version = labels_version(labels or demo_labels())
    found = []
    for key, data in entries.items():
        try:
            quality = ModelQuality.from_dict(data)
        except TypeError:
            continue
        if quality.labels_version == version and (isinstance(limit, EllipsisType) or key == _subset_key(limit)):
            found.append(quality)
    if not found:
        return None
    return max(found, key=lambda q: (q.limit is None, q.clusters_measured))


# ---- agreement with the reviewer -------------------------------------------------------------------------

@dataclass(frozen=True)
class Agreement:
    decisions: int  # the reviewer's applied merges and keep-separates
    judged: int  # ... on pairs the model had judged
    agreed: int
    merges_judged: int
    merges_agreed: int
    kept_judged: int
    kept_agreed: int

    @property
    def enough(self) -> bool:
        return self.judged >= MIN_AGREEMENT_DECISIONS

    @property
    def rate(self) -> float | None:
        return self.agreed / self.judged if self.judged else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "enough": self.enough, "rate": _round(self.rate)}


def model_verdicts(reviews: Iterable[ClusterReview]) -> dict[frozenset[Any], str]:
    """Every pair verdict the model gave in these reviews (a later review of the same pair wins)."""
    out: dict[frozenset[Any], str] = {}
    for review in reviews:
        for pair in review.pairs:
            if pair.get("verdict") in (SAME, DIFFERENT):
                out[frozenset((pair["a"], pair["b"]))] = pair["verdict"]
    return out


def reviewer_agreement(store: Store, reviews: Iterable[ClusterReview]) -> Agreement:
    """How often the model's pair verdicts matched this reviewer's applied decisions (merges: every pair the
    same fact; keep separate: every recorded pair a different fact). Bulk or CLI writes are not the reviewer's."""
    verdicts = model_verdicts(reviews)
    counts = {"merge": [0, 0], "keep": [0, 0]}
    decisions = 0
    for entry in list_entries(store, operation=[OP_MERGE, OP_KEEP_SEPARATE], state=STATE_APPLIED):
        if entry.decided_by not in (None, "reviewer"):
            continue
        decisions += 1
        if entry.operation == OP_MERGE:
            kind, expected = "merge", SAME
            pairs = [frozenset(p) for p in itertools.combinations(entry.source_ids, 2)]
        else:
            kind, expected = "keep", DIFFERENT
            pairs = [frozenset(p) for p in entry.details.get("pairs") or ()]
        if not pairs or any(p not in verdicts for p in pairs):
            continue
        counts[kind][0] += 1
        counts[kind][1] += all(verdicts[p] == expected for p in pairs)
    (mj, ma), (kj, ka) = counts["merge"], counts["keep"]
    return Agreement(decisions, mj + kj, ma + ka, mj, ma, kj, ka)


__all__ = [
    "MIN_AGREEMENT_DECISIONS",
    "Agreement",
    "MergeStats",
    "ModelQuality",
    "cached_quality",
    "duplicate_pairs",
    "evaluate_model",
    "fixture_clusters",
    "labels_version",
    "merge_stats",
    "model_verdicts",
    "reviewer_agreement",
    "save_quality",
    "sibling_pairs",
    "wrong_merge",
]
