"""Glue for the Audit tab: an `AuditView` on the window's task runner, told about the store and the scan, and
heard when it writes (undo / redo / exemptions / append back: the documents written) or picks a threshold."""
from __future__ import annotations

from collections.abc import Callable

from ..services import AuditServices
from ..services.types import Changes, Operation
from ..workers import TaskRunner
from .view import AuditView


def audit_tab(services: AuditServices, runner: TaskRunner, *, cosine_lookup: Callable[[str, str], float | None],
              store_changed: Callable[[Changes], None], threshold_chosen: Callable[[float], None],
              confirm_revert: Callable[[Operation, str, int], bool] | None = None) -> AuditView:
    view = AuditView(services=services, runner=runner, cosine_lookup=cosine_lookup)
    view.writes.confirm_revert = confirm_revert  # undo / redo there ask as Ctrl+Z asks
    view.storeChanged.connect(store_changed)
    view.thresholdChosen.connect(threshold_chosen)
    return view
