"""What a merge may do, in one place, beside the verdicts it reads: which merges are refused, which need a
person's confirmation (and why, in the words the confirmation shows), and which may be written unattended.

- **Refused** (`merge_refusal`, then MergeGuard): an unknown mode, no target, no source besides the target, a
  merged-body merge without a body; a body MergeGuard fails, unless the reviewer overrides it (recorded).
- **Confirmed with a warning** (`merge_risks`): more than two documents at once, a merged body over twice the
  longest source's length, a pair below the scan's threshold, facts of the sources the strict lens finds not kept
  whole, a "likely different facts" mark. The window shows each reason and defaults to Cancel.
- **Unattended** (`why_not_safe`): only a model same-fact group of 2–MAX_MERGED members merged whole, an
  UPDATE/CONSOLIDATE with a body MergeGuard passed and memgui's check proved, without a "likely different" mark;
  and (`why_not_linked`) documents the scan joined by their cosine, not by a shared anchor alone.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from ..curation.types import DecisionKind
from ..decide.review import ClusterReview
from ..merge.align import Verdict
from ..merge.conflicts import DifferentFactsMark
from ..merge.strict import StrictReport
from ..netfx import StrEnum, is_blank


class MergeMode(StrEnum):
    """How a merge writes its target (`apply.MergePlan.mode`, the audit details' "mode")."""

    MERGED_BODY = "merged_body"  # the reviewed merged body (merge-document)
    APPEND = "append"  # the sources appended below the target's body
    UNION = "union"  # the deterministic sentence-union draft


MODE_MERGED_BODY, MODE_APPEND, MODE_UNION = MergeMode.MERGED_BODY, MergeMode.APPEND, MergeMode.UNION
MODES = tuple(MergeMode)

RISKY_DOCUMENTS = 2  # more documents than this in one write is a risk
RISKY_LENGTH_RATIO = 2.0  # a merged body longer than this times the longest source may hold more than one fact
AT_RISK_SHOWN = 8  # facts at risk named in the confirmation; the rest counted
MAX_MERGED = 3  # more members than this is never accepted in bulk: a person reads big merges
MERGE_DECISIONS = (DecisionKind.UPDATE, DecisionKind.CONSOLIDATE)


# ---- refused --------------------------------------------------------------------------------------------

def merge_refusal(mode: MergeMode, target_id: str | None, other_ids: Sequence[str], merged_body: str | None) -> str | None:
    """Why a merge is refused before anything is read (one line), or None."""
    if mode not in MODES:
        return f"unknown merge mode {mode!r} (use one of: {', '.join(MODES)})"
    if not target_id:
        return "a merge needs a target document"
    if not other_ids:
        return "a merge needs at least one source besides the target"
    if mode == MODE_MERGED_BODY and is_blank(merged_body):
        return "merged_body mode needs a non-empty merged body"
    return None


def guard_refuses(passed: bool, override: bool) -> bool:
    """A body MergeGuard fails is written only when the reviewer overrides it."""
    return not passed and not override


# ---- confirmed with a warning ----------------------------------------------------------------------------

def facts_at_risk(strict: StrictReport | None) -> int:
    """The strict lens's findings counted as the reviewer sees them: findings on touching or overlapping words of
    one text (`02:00` and `UTC` of "02:00 UTC") are one highlighted fact, as in the source panes."""
    if strict is None:
        return 0
    runs: dict[tuple[str, int], list[tuple[int, int]]] = {}
    alone = 0
    for a in strict.at_risk:
        if a.sources and a.source_span:
            runs.setdefault(("source", a.sources[0]), []).append((a.source_span[0], a.source_span[1]))
        elif a.body_span:
            runs.setdefault(("body", -1), []).append((a.body_span[0], a.body_span[1]))
        else:
            alone += 1
    count = alone
    for spans in runs.values():
        end = -2
        for start, stop in sorted(spans):
            if start > end + 1:
                count += 1
            end = max(end, stop)
    return count


def _low_pair(cosines: Mapping[frozenset[str], float], included: Collection[str], threshold: float,
              number_of: Callable[[str], int]) -> str | None:
    low = sorted((cosine, tuple(sorted(k, key=number_of))) for k, cosine in cosines.items()
                 if set(k) <= set(included) and cosine < threshold)
    if not low:
        return None
    cosine, (a, b) = low[0]
    return (f"#{number_of(a)} and #{number_of(b)} are only {cosine:.3f} alike, below the scan's threshold "
            f"{threshold:.3f}.")


def merge_risks(*, mode: MergeMode, documents: int, length_ratio: float | None, strict: StrictReport | None,
                mark: DifferentFactsMark | None, cosines: Mapping[frozenset[str], float], included: Collection[str],
                threshold: float | None, number_of: Callable[[str], int]) -> list[str]:
    """Why this write needs a warned confirmation (empty: it does not). `length_ratio` is MergeGuard's on the body;
    `number_of` names a document as the reviewer sees it (#1, #2, …)."""
    risks = []
    merging = mode != MODE_APPEND
    if documents > RISKY_DOCUMENTS:
        risks.append(f"{documents} documents are written at once (more than {RISKY_DOCUMENTS}).")
    if merging and length_ratio is not None and float(length_ratio) > RISKY_LENGTH_RATIO:
        risks.append(f"The merged body is {float(length_ratio):.0%} of the longest source's length "
                     f"(over {RISKY_LENGTH_RATIO * 100:.0f} %): it may carry more than one fact.")
    low = _low_pair(cosines, included, float(threshold), number_of) if threshold is not None else None
    if low is not None:
        risks.append(low)
    if merging and strict is not None and strict.at_risk:
        shown = ", ".join(a.describe() for a in strict.at_risk[:AT_RISK_SHOWN])
        more = len(strict.at_risk) - AT_RISK_SHOWN
        risks.append(f"The strict lens finds {facts_at_risk(strict)} fact(s) of the sources not kept whole: "
                     f"{shown}{f' … (+{more})' if more > 0 else ''}.")
    if mark is not None and mark.likely_different:
        risks.append(f"The sources are marked likely different facts: {mark.reason}.")
    return risks


# ---- unattended ------------------------------------------------------------------------------------------

def proved(strict: Mapping[str, Any] | None) -> bool:
    """memgui's verdict on a body is `proved` (align.py): the only verdict an unattended write takes."""
    return (strict or {}).get("verdict") == Verdict.PROVED.value


def merged_ids(review: ClusterReview) -> list[str]:
    """The documents the review's merged body covers: the model's targets plus the proposal."""
    return list(dict.fromkeys([*review.targets, review.proposal_id]))


def _group_reason(review: ClusterReview) -> str | None:
    """Why the model's judgement does not make this cluster one merge, or None."""
    if not review.groups_judged:
        return "no model judged its pairs (only the sentence-union draft)"
    if review.error:
        return f"the model gave no decision ({review.error})"
    largest = list(review.groups[0]) if review.groups else []
    if len(largest) < 2:
        return "every pair was judged a different fact"
    if review.decision not in MERGE_DECISIONS:
        return f"the decision is {review.decision or 'none'}, not UPDATE/CONSOLIDATE"
    if is_blank(review.merged_body):
        return "the decision has no merged body"
    merged = merged_ids(review)
    if set(merged) != set(largest):
        return (f"the decision covers {len(set(merged) & set(largest))} of the same-fact group's {len(largest)} "
                "members, not the group")
    if len(merged) > MAX_MERGED:
        return f"{len(merged)} members merged (bulk accept takes at most {MAX_MERGED})"
    return None


def _proof_reason(review: ClusterReview) -> str | None:
    """Why the body is not proved safe, or None."""
    if not (review.guard or {}).get("passed"):
        return f"MergeGuard failed: {(review.guard or {}).get('reason') or 'not run'}"
    if not proved(review.strict):
        verdict = (review.strict or {}).get("verdict") or "not checked"
        why = "; ".join((review.strict or {}).get("reasons", [])[:2])
        return f"memgui's check says {verdict}, not proved" + (f" ({why})" if why else "")
    if (review.likely_different or {}).get("likely_different"):
        return f"marked likely different facts: {review.likely_different.get('reason') or 'see the cluster'}"
    return None


def why_not_safe(review: ClusterReview | None, member_ids: Sequence[str] | None = None) -> str | None:
    """None when the review may be accepted without a person reading it; else the first reason it may not."""
    if review is None:
        return "not reviewed yet"
    if member_ids is not None and set(review.stamps) != set(member_ids):
        return "the review is of other members than this cluster has now"
    reason = _group_reason(review) or _proof_reason(review)
    if reason is not None:
        return reason
    merged = merged_ids(review)
    if review.target not in merged:
        return "the review names no target inside the merged group"
    missing = [m for m in merged if m not in review.stamps]
    if missing:
        return f"no stamp recorded for {missing[0]}"
    return None


def why_not_linked(ids: Collection[str], links: Collection[frozenset[str]]) -> str | None:
    """Why a write of `ids` needs a person for want of cosine, or None. `links` are the scan's nominee edges (its
    TopK cosine pairs). Netclaw never merges on cosine alone; memgui never merges unattended on an anchor alone: a
    shared anchor nominates notes that each add a detail of one thing (issue 38, item 7), and the model's
    "same fact" on notes that share no words is the judgement that most often goes wrong."""
    ids = list(dict.fromkeys(ids))
    if len(ids) < 2:
        return None
    reached, frontier = {ids[0]}, [ids[0]]
    while frontier:
        here = frontier.pop()
        for link in links:
            if here in link:
                for other in link - reached:
                    if other in ids:
                        reached.add(other)
                        frontier.append(other)
    alone = [d for d in ids if d not in reached]
    if not alone:
        return None
    if not any(link <= set(ids) for link in links):
        return "only a shared anchor joins these notes, not the scan's cosine: a person reads them"
    return (f"{len(alone)} of {len(ids)} notes are joined to the others only by a shared anchor, not by the scan's "
            "cosine: a person reads them")


def rule_text() -> str:
    return (f"a model same-fact group of 2–{MAX_MERGED} members is the whole merge, the decision is "
            "UPDATE/CONSOLIDATE with a merged body, MergeGuard passed, memgui's check proved the body (every source "
            "sentence kept or restated, nothing added), "
            "no 'likely different facts' mark, the documents joined by the scan's cosine (not by a shared anchor "
            "alone), and (when it ran) the second reader says every source's facts are kept")


__all__ = [
    "AT_RISK_SHOWN",
    "MAX_MERGED",
    "MERGE_DECISIONS",
    "MODES",
    "RISKY_DOCUMENTS",
    "RISKY_LENGTH_RATIO",
    "MergeMode",
    "facts_at_risk",
    "guard_refuses",
    "merge_refusal",
    "merge_risks",
    "merged_ids",
    "proved",
    "rule_text",
    "why_not_linked",
    "why_not_safe",
]
