"""Anchor-name and content similarity exactly as Netclaw's AnchorNameMatcher (netclaw-compat §6). Pure functions.

- Anchor tokens: trim, lower-case, split on `-` only (each piece trimmed, empties dropped).
- Two tokens match when equal (case-insensitive) or when the shorter (at least MIN_PREFIX_LENGTH UTF-16 code
  units long) is a prefix of the longer (`repo` ~ `repository`; `in` never prefix-matches).
- Soft Jaccard over de-duplicated token sets: intersection = min(#A tokens matching something in B, |A|, |B|),
  union = |A| + |B| - intersection.
- Fuzzy match: Jaccard >= JACCARD_THRESHOLD and (every token of the smaller set prefix-matches something in the
  larger set, or union - intersection <= MAX_TOKEN_DIFFERENCE).
- Content overlap: set Jaccard of lower-cased words split on whitespace and , . ; : ! ? ( ) [ ] { } " '.

The .NET primitives (white space, Trim, ToLowerInvariant, UTF-16 length) come from `core/netfx.py`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..netfx import fold_case, is_blank, lower_invariant, net_split, net_trim, utf16_len

JACCARD_THRESHOLD = 0.6
MAX_TOKEN_DIFFERENCE = 2
MIN_PREFIX_LENGTH = 3

# ComputeContentOverlap's separators (AnchorNameMatcher.TokenizeContent).
_CONTENT_SEPARATORS = re.compile("[" + re.escape(" \t\n\r,.;:!?()[]{}\"'") + "]")


# ---- anchor names ---------------------------------------------------------------------------------

def tokenize(anchor_name: str | None) -> list[str]:
    """Anchor tokens: trimmed, lower-cased, split on `-`, each piece trimmed, empty pieces dropped.
    Spaces are not separators (`"user color"` is one token)."""
    if is_blank(anchor_name):
        return []
    return [p for p in (net_trim(piece) for piece in lower_invariant(net_trim(anchor_name or "")).split("-")) if p]


def is_prefix_match(a: str, b: str) -> bool:
    """Equal ignoring case, or the shorter (>= MIN_PREFIX_LENGTH code units) starts the longer
    (both OrdinalIgnoreCase)."""
    a_l, b_l = fold_case(a), fold_case(b)
    if a_l == b_l:
        return True
    shorter, longer = (a_l, b_l) if utf16_len(a) <= utf16_len(b) else (b_l, a_l)
    return utf16_len(shorter) >= MIN_PREFIX_LENGTH and longer.startswith(shorter)


def _token_set(tokens: Iterable[str]) -> list[str]:
    """An OrdinalIgnoreCase HashSet, kept in first-seen order (order never changes a result)."""
    seen: dict[str, str] = {}
    for t in tokens:
        seen.setdefault(fold_case(t), t)
    return list(seen.values())


class SoftJaccard(NamedTuple):
    jaccard: float  # intersection / union (0 when both are empty)
    intersection: int  # tokens of the first set with a prefix match in the second (at most either set's size)
    union: int


def soft_jaccard_detail(tokens_a: Sequence[str], tokens_b: Sequence[str]) -> SoftJaccard:
    """(jaccard, soft_intersection, soft_union) over the de-duplicated token sets."""
    set_a, set_b = _token_set(tokens_a), _token_set(tokens_b)
    raw = sum(1 for a in set_a if any(is_prefix_match(a, b) for b in set_b))
    intersection = min(raw, len(set_a), len(set_b))
    union = len(set_a) + len(set_b) - intersection
    return SoftJaccard(0.0 if union == 0 else intersection / union, intersection, union)


def anchor_jaccard(tokens_a: Sequence[str], tokens_b: Sequence[str]) -> float:
    """ComputeAnchorJaccard: the soft Jaccard; 0 when either side has no tokens."""
    if not tokens_a or not tokens_b:
        return 0.0
    return soft_jaccard_detail(tokens_a, tokens_b).jaccard


def is_fuzzy_match(tokens_a: Sequence[str], tokens_b: Sequence[str]) -> bool:
    if not tokens_a or not tokens_b:
        return False
    jaccard, intersection, union = soft_jaccard_detail(tokens_a, tokens_b)
    if jaccard < JACCARD_THRESHOLD:
        return False
    set_a, set_b = _token_set(tokens_a), _token_set(tokens_b)
    shorter, longer = (set_a, set_b) if len(set_a) <= len(set_b) else (set_b, set_a)
    if all(any(is_prefix_match(t, other) for other in longer) for t in shorter):
        return True
    return union - intersection <= MAX_TOKEN_DIFFERENCE


def find_fuzzy_matches(proposed_name: str, existing_names: Iterable[str]) -> list[str]:
    """Every existing name that fuzzy-matches the proposed one, in the given order."""
    proposed = tokenize(proposed_name)
    if not proposed:
        return []
    return [name for name in existing_names if is_fuzzy_match(proposed, tokenize(name))]


# ---- content --------------------------------------------------------------------------------------

def content_tokens(content: str) -> set[str]:
    return {lower_invariant(w) for w in net_split(content, _CONTENT_SEPARATORS)}


def content_overlap(content_a: str | None, content_b: str | None) -> float:
    """Word-set Jaccard (netclaw-compat §6); 0 when either side is blank. `.` splits versions and URLs into pieces."""
    if is_blank(content_a) or is_blank(content_b):
        return 0.0
    a, b = content_tokens(content_a or ""), content_tokens(content_b or "")
    if not a or not b:
        return 0.0
    union = a | b
    return len(a & b) / len(union) if union else 0.0
