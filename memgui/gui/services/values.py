"""Pure core values the widgets show or compare against (no store, no model): Progress and the cancel token,
the word-diff span codes, MergeGuard's bars, the apply modes, the re-check's actions, and the Netclaw display
formats (an anchor's slug, the one time-stamp rule). Widgets import them
from here, never from `memgui.core`."""
from __future__ import annotations

from ...core.decide.groups import Preselection
from ...core.forensics.calibrate import MIN_DECISIONS, PairLabel, PairSource
from ...core.forensics.recheck import ACTION_APPEND_BACK, ACTION_UNDO
from ...core.merge.diff import DELETE, EQUAL, INSERT, REPLACE
from ...core.merge.read_pairs import DIFFERS, OWED
from ...core.merge.strict import StrictReport
from ...core.netfx import LENGTH_COLLAPSE_THRESHOLD, RETENTION_THRESHOLD, anchor_slug, format_timestamp
from ...core.ops.apply import MODE_APPEND, MODE_MERGED_BODY, MergeMode, Outcome
from ...core.ops.batch import PlannedWrite, Unreviewed
from ...core.ops.changes import NO_CHANGES, combine
from ...core.ops.policy import facts_at_risk
from ...core.tasks import Cancelled, CancelToken, Progress, Step

__all__ = [
    "ACTION_APPEND_BACK",
    "ACTION_UNDO",
    "DELETE",
    "DIFFERS",
    "EQUAL",
    "INSERT",
    "LENGTH_COLLAPSE_THRESHOLD",
    "MIN_DECISIONS",
    "MODE_APPEND",
    "MODE_MERGED_BODY",
    "NO_CHANGES",
    "OWED",
    "REPLACE",
    "RETENTION_THRESHOLD",
    "CancelToken",
    "Cancelled",
    "MergeMode",
    "Outcome",
    "PairLabel",
    "PairSource",
    "PlannedWrite",
    "Preselection",
    "Progress",
    "Step",
    "StrictReport",
    "Unreviewed",
    "anchor_slug",
    "combine",
    "facts_at_risk",
    "format_timestamp",
]
