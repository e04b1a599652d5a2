"""The curator protocol of the LLM tier (netclaw-compat §8): system prompt, user message, reply parser.

Pure functions over the shared curation values. The user message has Netclaw's exact line shapes
(`PROPOSED:` / `EXISTING CANDIDATES:`, 700-unit previews, `(empty)`), and the parser follows Netclaw's
`ParseResponse` rule for rule, so a reply judged here is judged the same by the daemon. memgui adds one
compatible extension: an optional `REASON: <one line>` right after the keyword line (and before `---`),
which fills `CurationDecision.rationale`; Netclaw's parser never looks past the keyword line for it.

Text handling mirrors .NET where it matters: white space is `char.IsWhiteSpace`, lengths are UTF-16 code
units, `StartsWith(..., OrdinalIgnoreCase)` is per-character simple upper-casing, and the regexes match
the keywords case-insensitively in ASCII only.
"""
from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence

from ...config import resources_dir
from ..netfx import NET_WS_CLASS, fold_case, is_blank, net_trim, utf16_len
from .types import Candidate, CurationDecision, DecisionKind, Proposal

CONTENT_PREVIEW_MAX_CHARS = 700  # UTF-16 code units, as Netclaw counts them
EMPTY_CONTENT = "(empty)"
SYSTEM_PROMPT_RESOURCE = "prompts/curator_system.md"

_WS = f"[{NET_WS_CLASS}]"
_NON_WS = f"[^{NET_WS_CLASS}]"
_UPDATE = re.compile(f"[Uu][Pp][Dd][Aa][Tt][Ee]{_WS}+({_NON_WS}+)")
_CONSOLIDATE = re.compile(f"[Cc][Oo][Nn][Ss][Oo][Ll][Ii][Dd][Aa][Tt][Ee]{_WS}+([^\\r\\n]+)")
_SEPARATOR = re.compile(f"^-{{3,}}{_WS}*$", re.MULTILINE)
_REASON = re.compile(f"{_WS}*[Rr][Ee][Aa][Ss][Oo][Nn]{_WS}*:(.*)")


# --------------------------------------------------------------------------------------------------
# System prompt


@functools.lru_cache(maxsize=1)
def curator_system_prompt() -> str:
    """The fixed curator system prompt (resources/prompts/curator_system.md), trailing white space cut."""
    path = resources_dir() / SYSTEM_PROMPT_RESOURCE
    return path.read_text(encoding="utf-8").rstrip()


# --------------------------------------------------------------------------------------------------
# User message


def truncate_content(content: str | None, limit: int = CONTENT_PREVIEW_MAX_CHARS) -> str:
    """Netclaw's preview: `(empty)` for blank text, else the first `limit` UTF-16 units plus `...` when
    longer. A cut that would split a surrogate pair drops that character (no lone surrogate)."""
    if is_blank(content):
        return EMPTY_CONTENT
    assert content is not None
    if utf16_len(content) <= limit:
        return content
    if content.isascii():
        return content[:limit] + "..."
    units = 0
    for index, ch in enumerate(content):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return content[:index] + "..."
    return content  # unreachable: the length check above


def _timestamp(ms: int | float | None) -> str:
    return "" if ms is None else str(int(ms))


def _s(value: object) -> str:
    """.NET string interpolation: null renders as nothing."""
    return "" if value is None else str(value)


def build_user_message(
    proposal: Proposal, candidates: Sequence[Candidate], *, full_candidate_content: bool
) -> str:
    """The user message, line for line as Netclaw renders it (netclaw-compat §8.3). The proposal's content is
    always a preview; candidates are shown in full only on the nominee path (`full_candidate_content`)."""
    lines = [
        "PROPOSED:",
        f"  anchor: {_s(proposal.anchor_name)}",
        f"  title: {_s(proposal.title)}",
        f"  content: {truncate_content(proposal.content)}",
        f"  timestamp: {_timestamp(proposal.freshness_at)}",
        "",
    ]
    if not candidates:
        lines.append("EXISTING CANDIDATES: none")
    else:
        lines.append("EXISTING CANDIDATES:")
        for i, candidate in enumerate(candidates, start=1):
            body = candidate.markdown_body
            content = _s(body) if full_candidate_content else truncate_content(body)
            lines.append(f"[{i}] id={_s(candidate.document_id)} anchor={_s(candidate.canonical_name)}")
            lines.append(f"    content: {content}")
            lines.append(f"    timestamp: {_timestamp(candidate.freshness_at)}")
    return "\n".join(lines) + "\n"


def prompt_hash(system: str, user: str) -> str:
    """SHA-256 (hex) of the exact prompt: UTF-8 of `system`, a NUL byte, UTF-8 of `user`."""
    digest = hashlib.sha256()
    digest.update(system.encode("utf-8", "surrogatepass"))
    digest.update(b"\x00")
    digest.update(user.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# --------------------------------------------------------------------------------------------------
# Reply parser


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def strip_think_blocks(text: str) -> str:
    """Remove every `<think>…</think>` span (ASCII case-insensitive, shortest span first, as the regex
    `<think>.*?</think>` does); cut everything from an unclosed `<think>` onward. Linear: a regex would
    rescan the rest of the text from every unclosed `<think>` (100 KB of them took seconds)."""
    lowered = text.translate(_ASCII_LOWER)  # same length, so indices carry over
    kept: list[str] = []
    pos = 0
    while True:
        start = lowered.find("<think>", pos)
        end = lowered.find("</think>", start + 7) if start >= 0 else -1
        if end < 0:  # no further closed block: the rest stays (an unclosed tag is cut below)
            kept.append(text[pos:])
            break
        kept.append(text[pos:start])
        pos = end + 8
    stripped = "".join(kept)
    open_index = fold_case(stripped).find("<THINK>")
    return stripped[:open_index] if open_index >= 0 else stripped


def _merged_body(trimmed: str) -> str | None:
    separator = _SEPARATOR.search(trimmed)
    if separator is None:
        return None
    body = net_trim(trimmed[separator.end():])
    return body or None


def _rationale(trimmed: str) -> str | None:
    """memgui's `REASON:` line: the first non-blank line after the keyword line, before any `---`."""
    for line in trimmed.split("\n")[1:]:
        if is_blank(line):
            continue
        if _SEPARATOR.fullmatch(line.rstrip("\r")):
            return None
        match = _REASON.match(line)
        if match is None:
            return None
        return net_trim(match.group(1)) or None
    return None


def parse_reply(text: str | None) -> CurationDecision | None:
    """A reply → a decision, or None when it cannot be used (netclaw-compat §8.4; then the caller falls back)."""
    if is_blank(text):
        return None
    assert text is not None
    trimmed = net_trim(strip_think_blocks(text))
    if not trimmed:
        return None
    rationale = _rationale(trimmed)
    head = fold_case(trimmed[:11])
    if head.startswith(DecisionKind.SKIP):
        return CurationDecision(DecisionKind.SKIP, reason="LLM decision: SKIP", from_llm_tier=True, rationale=rationale)
    if head.startswith(DecisionKind.CREATE):
        return CurationDecision(
            DecisionKind.CREATE, reason="LLM decision: CREATE", from_llm_tier=True, rationale=rationale
        )
    update = _UPDATE.match(trimmed)
    if update is not None:
        target = update.group(1)
        return CurationDecision(
            DecisionKind.UPDATE,
            target_document_id=target,
            reason=f"LLM decision: UPDATE {target}",
            merged_body=_merged_body(trimmed),
            from_llm_tier=True,
            rationale=rationale,
        )
    consolidate = _CONSOLIDATE.match(trimmed)
    if consolidate is not None:
        ids = tuple(i for i in (net_trim(part) for part in consolidate.group(1).split(" ")) if i)
        if ids:
            return CurationDecision(
                DecisionKind.CONSOLIDATE,
                target_document_id=ids[0],
                consolidation_target_ids=ids,
                reason=f"LLM decision: CONSOLIDATE {' '.join(ids)}",
                merged_body=_merged_body(trimmed),
                from_llm_tier=True,
                rationale=rationale,
            )
    return None


__all__ = [
    "CONTENT_PREVIEW_MAX_CHARS",
    "build_user_message",
    "curator_system_prompt",
    "parse_reply",
    "prompt_hash",
    "strip_think_blocks",
    "truncate_content",
]
