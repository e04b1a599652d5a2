"""Glue for the Audit tab (issue 7's `AuditView`): created with the window's task runner, told about the
store and the scan, and heard when it writes (undo / redo / exemptions) or picks a threshold."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget


def attach_audit_tab(w: Any) -> QWidget | None:
    """An AuditView wired to window `w`, or None (and a note in `services.unavailable`) when it cannot load."""
    try:
        from .audit_view import AuditView

        view = AuditView(runner=w.runner, cosine_lookup=w.cosine_of)
    except Exception as exc:  # noqa: BLE001 - the review tab works without it
        w.services.unavailable["memgui.gui.audit_view"] = f"{type(exc).__name__}: {exc}"
        return None
    view.storeChanged.connect(w.store_changed_elsewhere)
    view.thresholdChosen.connect(w.threshold_chosen)
    return view
