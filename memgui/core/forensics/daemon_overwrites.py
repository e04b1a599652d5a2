"""What the daemon's log events say about the store: which documents the daemon overwrote in place
(`merge-document`), so their earlier bodies cannot be recovered from the store (netclaw-compat §15)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .daemon_logs import EMPTY_IDS, DaemonEvent, sort_key


@dataclass(frozen=True)
class DaemonOverwrite:
    """A daemon write that replaced a document's body in place (`merge-document`): the earlier body is gone."""

    document_id: str
    event: DaemonEvent
    how: str


DECISION_MARKERS = ("curation_skip", "curation_update", "curation_consolidate", "curation_create",
                    "curation_unexpected_ambiguous")
_RESOLVES_UPDATE = ("curation_merge_guard_passed", "curation_merge_guard_failed", "curation_append_fallback",
                    "curation_update_target_unknown")


def daemon_overwrites(events: Sequence[DaemonEvent]) -> list[DaemonOverwrite]:
    """Guard-passed merges (`curation_merge_guard_passed`), and Updates the daemon applied without any guard
    marker after them (the deterministic exact-anchor overwrite, netclaw-compat §9), in log order per file."""
    out: list[DaemonOverwrite] = []
    pending: dict[tuple[str, str], DaemonEvent] = {}  # (file, target) -> curation_update awaiting its outcome

    def settle(key: tuple[str, str]) -> None:
        event = pending.pop(key, None)
        if event is not None:
            out.append(DaemonOverwrite(key[1], event, "deterministic update (no guard marker followed): raw overwrite"))

    for e in sorted(events, key=lambda e: (e.file, e.line_no)):
        target = e.fields.get("targetDoc") if isinstance(e.fields.get("targetDoc"), str) else None
        target = target or (e.fields.get("targetId") if isinstance(e.fields.get("targetId"), str) else None)
        key = (e.file, target or "")
        if e.marker in _RESOLVES_UPDATE and target:
            pending.pop(key, None)
            if e.marker == "curation_merge_guard_passed":
                out.append(DaemonOverwrite(target, e, "guard-passed merge: body replaced"))
        elif e.marker in DECISION_MARKERS:
            if target:
                settle(key)
            if e.marker == "curation_update" and target and target.lower() not in EMPTY_IDS:
                pending[key] = e
    for key in list(pending):
        settle(key)
    out.sort(key=lambda o: (sort_key(o.event), o.event.file, o.event.line_no))
    return out
