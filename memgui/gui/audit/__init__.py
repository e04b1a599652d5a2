"""The Audit tab: memgui's writes (detail, diff, undo / redo), past daemon merges, kept-separate pairs,
threshold calibration and exports."""
from .tab import audit_tab
from .view import AuditView

__all__ = ["AuditView", "audit_tab"]
