"""Netclaw's curation telemetry markers (netclaw-compat §13) as structured events.

`emit(log, marker, **fields)` builds a `MarkerEvent`, hands it to `log` (a list it is appended to, or a callable,
or None) and writes one line to the stdlib logger `memgui.curation` in Netclaw's template shape:

    curation_guard_fallthrough anchor=widget-specs rejectedTarget=doc-widget
    curation_nominee_no_llm_decision anchor=the llm_available=False — conservative create

Field order and any fixed suffix follow Netclaw's message templates (so the same grep and the same parser work on
a Netclaw daemon.log and on memgui's log). Values render as .NET would: booleans `True`/`False`, id lists
`[a,b]`, `topCosine` with 4 decimals. `reason` is always the last field, unquoted, to the end of the line (or up
to the template's suffix). Fields a template does not know are appended before `reason`.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LOGGER_NAME = "memgui.curation"
logger = logging.getLogger(LOGGER_NAME)
logger.addHandler(logging.NullHandler())  # the application decides where markers go

DEBUG, INFO, WARNING = "debug", "info", "warning"

# marker -> (level, template field order, fixed suffix after the fields)
TEMPLATES: dict[str, tuple[str, tuple[str, ...], str]] = {
    # evaluator (EVAL)
    "curation_dual_search": (DEBUG, ("anchor", "anchor_hits", "content_hits", "merged"), ""),
    "curation_nominated": (INFO, ("anchor", "count", "topCosine"), ""),
    "curation_nominator_degraded": (DEBUG, ("anchor", "reason"), ""),
    "curation_nominee_no_llm_decision": (WARNING, ("anchor", "llm_available"), " — conservative create"),
    "curation_llm_decision": (INFO, ("anchor", "decision", "reason"), ""),
    "curation_llm_no_decision": (WARNING, ("anchor", "responseLength"), " — using deterministic fallback"),
    "curation_llm_timeout": (WARNING, ("anchor", "timeoutSeconds"), ""),
    "curation_llm_error": (WARNING, ("anchor",), ""),
    "curation_ambiguous_auto_resolved": (INFO, ("anchor", "decision", "reason"), ""),
    "curation_ambiguous_create_fallback": (WARNING, ("anchor", "llm_available"), ""),
    "curation_guard_fallthrough": (WARNING, ("anchor", "rejectedTarget"), ""),
    # apply (EVAL ApplyDecisionAsync)
    "curation_skip": (INFO, ("anchor", "reason"), ""),
    "curation_update": (INFO, ("anchor", "targetDoc", "reason"), ""),
    "curation_consolidate": (INFO, ("anchor", "canonicalAnchor", "targetIds", "reason"), ""),
    "curation_create": (INFO, ("anchor", "reason"), ""),
    "curation_update_target_unknown": (WARNING, ("anchor", "targetId"), " — creating instead"),
    "curation_unexpected_ambiguous": (WARNING, ("anchor",), ", defaulting to create"),
    "curation_merge_guard_passed": (INFO, ("anchor", "targetDoc", "reason"), ""),
    "curation_merge_guard_failed": (WARNING, ("anchor", "targetDoc", "missingTokens", "reason"), ""),
    "curation_append_fallback": (INFO, ("anchor", "targetDoc", "hadMergedBody"), ""),
    "curation_reanchor": (INFO, ("docId", "newAnchor"), ""),
    "curation_tombstone_anchor": (INFO, ("anchorId", "canonicalName"), ""),
    # store (STORE)
    "curation_dedup_duplicate_skipped": (INFO, ("anchor", "targetDoc"), ""),
    "curation_dedup_append": (INFO, ("anchor", "targetDoc"), ""),
}

# The evaluator's own markers (what `memgui evaluate` can emit).
EVALUATOR_MARKERS = (
    "curation_dual_search", "curation_nominated", "curation_nominator_degraded", "curation_nominee_no_llm_decision",
    "curation_llm_decision", "curation_llm_no_decision", "curation_llm_timeout", "curation_llm_error",
    "curation_ambiguous_auto_resolved", "curation_ambiguous_create_fallback", "curation_guard_fallthrough",
)

_LEVELS = {DEBUG: logging.DEBUG, INFO: logging.INFO, WARNING: logging.WARNING}


@dataclass(frozen=True)
class MarkerEvent:
    marker: str
    fields: dict[str, Any] = field(default_factory=dict)
    level: str = INFO

    @property
    def line(self) -> str:
        return format_marker(self.marker, self.fields)

    def as_dict(self) -> dict[str, Any]:
        return {"marker": self.marker, "fields": dict(self.fields)}


MarkerLog = list[Any] | Callable[[MarkerEvent], Any] | None


def format_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(str(v) for v in value) + "]"
    if key == "topCosine" and isinstance(value, (int, float)):
        return f"{value:.4f}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def format_marker(marker: str, fields: dict[str, Any]) -> str:
    """One log line in Netclaw's `marker key=value …` shape."""
    _level, order, suffix = TEMPLATES.get(marker, (INFO, (), ""))
    keys = [k for k in order if k in fields and k != "reason"]
    keys += [k for k in fields if k not in order and k != "reason"]
    if "reason" in fields:
        keys.append("reason")
    parts = [marker] + [f"{k}={format_value(k, fields[k])}" for k in keys]
    return " ".join(parts) + suffix


def level_of(marker: str) -> str:
    return TEMPLATES.get(marker, (INFO, (), ""))[0]


def emit(log: MarkerLog, marker: str, **fields: Any) -> MarkerEvent:
    """Record a marker event on `log` and write its line to the `memgui.curation` logger."""
    event = MarkerEvent(marker, dict(fields), level_of(marker))
    if isinstance(log, list):
        log.append(event)
    elif log is not None:
        log(event)
    logger.log(_LEVELS[event.level], event.line)
    return event


def decision_label(kind: Any) -> str:
    """A decision kind as .NET prints the enum (`Skip`, `Update`, `Consolidate`, `Create`, `Ambiguous`)."""
    value = getattr(kind, "value", kind)
    return str(value).capitalize()


def emit_decision_applied(log: MarkerLog, anchor: str, decision: Any) -> MarkerEvent:
    """The marker Netclaw's ApplyDecisionAsync logs for a decision's kind (for the apply owner):
    curation_skip / curation_update / curation_consolidate / curation_create / curation_unexpected_ambiguous."""
    kind = decision_label(decision.kind)
    if kind == "Skip":
        return emit(log, "curation_skip", anchor=anchor, reason=decision.reason)
    if kind == "Update":
        return emit(log, "curation_update", anchor=anchor, targetDoc=decision.target_document_id, reason=decision.reason)
    if kind == "Consolidate":
        return emit(
            log, "curation_consolidate", anchor=anchor, canonicalAnchor=decision.canonical_anchor_name,
            targetIds=list(decision.consolidation_target_ids or ()), reason=decision.reason,
        )
    if kind == "Create":
        return emit(log, "curation_create", anchor=anchor, reason=decision.reason)
    return emit(log, "curation_unexpected_ambiguous", anchor=anchor)
