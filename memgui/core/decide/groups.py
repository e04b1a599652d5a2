"""Same-fact groups: the decider judges every pair of a cluster, and the cluster is split into groups whose
members are all judged the same fact as each other.

Comparing only the newest document with the rest answers for the whole cluster at once: a duplicate pair
plus a sibling (prod vs staging) came back as one answer, and "keep separate" would also have exempted the
true duplicates. Judging every pair (≤ 8 members → ≤ 28 pairs) gives a partition instead. A member joins a
group only when it is judged the same fact as *every* member already there (no chaining through one
"same" answer). A pair whose notes disagree on a value — an amount of the same unit (`€1,150/month` vs
`€1,173/month`) or a calendar date — is kept apart whatever the model answers: those are two facts (another
month, plan or host), or one supersedes the other, and the reviewer decides that. Groups are listed largest
first; the merge is drafted for the largest group only, into its target: the most complete member (most facts,
then the longest body), then the newest.

`partition` and `choose_target` are pure; `judge_pairs` runs the judge (a generator, cancellable).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, NamedTuple

from ..merge.conflicts import ConflictClass, FactClass, value_conflicts
from ..merge.facts.lexicon import MARKER_CLASSES
from ..merge.facts.report import FactKind
from ..merge.strict import facts
from ..netfx import StrEnum
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work


class Judgement(StrEnum):
    """The judge's answer on one pair (`PairVerdict.verdict`), as `to_dict` and the JSON output write it."""

    SAME = "same"
    DIFFERENT = "different"

    @classmethod
    def of_reply(cls, call: Any) -> Judgement | None:
        """The answer of a StageCall-like reply (its first line SAME or DIFFERENT); None for none (timeout)."""
        word = call.reply.split("\n", 1)[0].strip().upper() if call is not None else ""
        return cls.SAME if word == "SAME" else cls.DIFFERENT if word == "DIFFERENT" else None


SAME, DIFFERENT = Judgement.SAME, Judgement.DIFFERENT
MAX_PRESELECTED = 3  # without a decision, a cluster above this many members is never pre-selected whole
# Evidence conflicts that are wording, not values (a different word, "never" in one note only, an identifier only
# one note names — `WAL` vs `db-02`): they do not keep two members apart before a decision; versions, numbers,
# amounts, dates, times, hosts, URLs … do.
WORDING_CLASSES: frozenset[FactClass] = frozenset({
    FactKind.TERM, ConflictClass.IDENTIFIER, ConflictClass.WORDING, *(FactKind(c) for c in MARKER_CLASSES)})


@dataclass(frozen=True)
class PairVerdict:
    a: str  # the older document (the "existing" side of the judge's prompt)
    b: str
    verdict: Judgement | None  # None: no answer (timeout)
    margin: float | None = None
    seconds: float | None = None
    conflict: str | None = None  # values the two disagree on (amounts, dates): kept apart whatever the verdict

    @property
    def same(self) -> bool:
        """Judged the same fact, with no amount the two notes disagree on."""
        return self.verdict == SAME and not self.conflict

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "verdict": self.verdict, "margin": self.margin, "seconds": self.seconds,
                "conflict": self.conflict}


@dataclass(frozen=True)
class FactGroups:
    groups: tuple[tuple[str, ...], ...]  # the same-fact partition, largest first
    target: str | None  # the most complete, then newest, member of the largest group
    verdicts: tuple[PairVerdict, ...]

    @property
    def largest(self) -> tuple[str, ...]:
        return self.groups[0] if self.groups else ()

    def apart_pairs(self) -> list[tuple[str, str]]:
        """Pairs judged to be different facts (in different groups): the only pairs "keep separate" may
        record as not duplicates."""
        group_of = {m: i for i, g in enumerate(self.groups) for m in g}
        return [(v.a, v.b) for v in self.verdicts if group_of.get(v.a) != group_of.get(v.b)]

    def to_dict(self) -> dict[str, Any]:
        return {"groups": [list(g) for g in self.groups], "target": self.target,
                "pairs": [v.to_dict() for v in self.verdicts]}


def partition(member_ids: Sequence[str], verdicts: Sequence[PairVerdict]) -> tuple[tuple[str, ...], ...]:
    """Pure: groups in which every two members were judged SAME. Members are placed in `member_ids` order,
    each into the largest group it is the same fact as entirely; groups largest first (ties: first member)."""
    same = {frozenset((v.a, v.b)) for v in verdicts if v.same}
    groups: list[list[str]] = []
    for member in member_ids:
        fits = [g for g in groups if all(frozenset((member, other)) in same for other in g)]
        if fits:
            max(fits, key=len).append(member)
        else:
            groups.append([member])
    order = {m: i for i, m in enumerate(member_ids)}
    groups.sort(key=lambda g: (-len(g), order[g[0]]))
    return tuple(tuple(g) for g in groups)


def completeness(body: str | None) -> tuple[int, int]:
    """How complete a note is: the facts it states (strict lens), then its length."""
    return len(facts(body or "")), len(body or "")


def choose_target(documents: Sequence[Any]) -> str | None:
    """The most complete document (most facts, then the longest body), then the newest (updated_at)."""
    if not documents:
        return None
    return str(max(documents, key=lambda d: (completeness(d.markdown_body), d.updated_at, d.document_id)).document_id)


def conflict_between(a: str | None, b: str | None) -> str | None:
    """The values two notes disagree on, as one line ("€1,150/month vs €1,173/month"), or None."""
    found = value_conflicts(a, b)
    return "; ".join(f"{', '.join(c.a)} vs {', '.join(c.b)}" for c in found) or None


class ConflictPartition(NamedTuple):
    groups: tuple[tuple[str, ...], ...]  # no two members of a group disagree on a value; the largest first
    conflicts: list[tuple[str, str, str]]  # (older id, newer id, what they disagree on) of each pair that does


def conflict_partition(documents: Sequence[Any]) -> ConflictPartition:
    """Without a model: the groups in which no two members disagree on a value (an amount, a date), largest
    first, and the disagreeing pairs (a, b, what they disagree on). A cluster without conflicts is one group."""
    ordered = sorted(documents, key=lambda d: (d.updated_at, d.created_at, d.document_id))
    conflicts = []
    agree = []
    for older, newer in combinations(ordered, 2):
        note = conflict_between(older.markdown_body, newer.markdown_body)
        if note:
            conflicts.append((older.document_id, newer.document_id, note))
        agree.append(PairVerdict(older.document_id, newer.document_id, SAME if not note else DIFFERENT))
    return ConflictPartition(partition([d.document_id for d in ordered], agree), conflicts)


@dataclass(frozen=True)
class Preselection:
    """What the window includes before any decision: `members` (no two of them disagree), out of `of`."""
    members: tuple[str, ...]
    of: int  # members in the cluster
    disagreeing: int  # pairs of the cluster that disagree on a value
    capped: bool  # the conflict-free group had more than MAX_PRESELECTED members: the closest were kept

    @property
    def whole(self) -> bool:
        return len(self.members) == self.of


def disagreeing_pairs(value_pairs: Iterable[tuple[str, str, str]],
                      evidence: Iterable[tuple[str, str, object]]) -> list[tuple[str, str]]:
    """The pairs that disagree on a value: `value_pairs` from `conflict_partition`, and every evidence pair
    (a, b, PairEvidence) with a conflict of a value class (not a wording one)."""
    pairs = [(a, b) for a, b, _note in value_pairs]
    for a, b, ev in evidence:
        if any(c.fact_class not in WORDING_CLASSES for c in getattr(ev, "conflicts", ())):
            pairs.append((a, b))
    return list(dict.fromkeys(pairs))


def preselect(member_ids: Sequence[str], disagreeing: Iterable[tuple[str, str]],
              cosines: Mapping[frozenset[str], float] | None = None, *, limit: int = MAX_PRESELECTED) -> Preselection:
    """Pure. Without a model decision: the largest group in which no two members disagree (`disagreeing`:
    pairs with a conflicting value), cut to `limit` members when larger — the closest pair by cosine, then
    the member closest to all chosen so far — so a cluster above `limit` members is never pre-selected whole."""
    ids = list(dict.fromkeys(member_ids))
    bad = {frozenset(p) for p in disagreeing if len(set(p)) == 2 and set(p) <= set(ids)}
    verdicts = [PairVerdict(a, b, DIFFERENT if frozenset((a, b)) in bad else SAME) for a, b in combinations(ids, 2)]
    group = list(partition(ids, verdicts)[0]) if ids else []
    capped = len(group) > limit
    if capped:
        cos = cosines or {}
        order = {m: i for i, m in enumerate(ids)}

        def c(a: str, b: str) -> float:
            return float(cos.get(frozenset((a, b)), 0.0))

        first = max(combinations(group, 2), key=lambda p: (c(*p), -order[p[0]], -order[p[1]]))
        chosen = list(first)
        while len(chosen) < limit:
            rest = [m for m in group if m not in chosen]
            chosen.append(max(rest, key=lambda m: (min(c(m, x) for x in chosen), -order[m])))
        group = sorted(chosen, key=order.__getitem__)
    return Preselection(tuple(group), len(ids), len(bad), capped)


def judge_pairs(documents: Sequence[Any], judge: Callable[..., Work[Any]], *,
                cancel: CancelToken | None = None) -> Work[FactGroups]:
    """Judge every pair (older document as "existing", newer as "new") with `judge(existing, new, cancel=…)`,
    a generator returning a StageCall-like value (`.reply` starting with SAME/DIFFERENT, `.margin`,
    `.seconds`) or None. Yields Progress per pair; returns the groups of the documents."""
    cancel = cancel or NEVER_CANCELLED
    ordered = sorted(documents, key=lambda d: (d.updated_at, d.created_at, d.document_id))
    pairs = list(combinations(ordered, 2))
    verdicts: list[PairVerdict] = []
    for done, (older, newer) in enumerate(pairs):
        cancel.raise_if_cancelled()
        yield Progress(Step.JUDGING_PAIRS, done, len(pairs), f"{older.document_id} vs {newer.document_id}")
        call = yield from judge(older.markdown_body, newer.markdown_body, cancel=cancel)
        verdicts.append(PairVerdict(older.document_id, newer.document_id, Judgement.of_reply(call),
                                    getattr(call, "margin", None), getattr(call, "seconds", None),
                                    conflict_between(older.markdown_body, newer.markdown_body)))
    yield Progress(Step.JUDGING_PAIRS, len(pairs), len(pairs), "done")
    groups = partition([d.document_id for d in ordered], verdicts)
    by_id = {d.document_id: d for d in ordered}
    target = choose_target([by_id[m] for m in groups[0]]) if groups else None
    return FactGroups(groups, target, tuple(verdicts))


__all__ = [
    "DIFFERENT",
    "MAX_PRESELECTED",
    "SAME",
    "ConflictPartition",
    "FactGroups",
    "Judgement",
    "PairVerdict",
    "Preselection",
    "choose_target",
    "completeness",
    "conflict_between",
    "conflict_partition",
    "disagreeing_pairs",
    "judge_pairs",
    "partition",
    "preselect",
]
