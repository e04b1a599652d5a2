"""Every question the window asks the person, in one place (so tests can answer them).

`Prompter.exec_box` runs a message box modally; tests replace it with a function that inspects the box
and returns the button it would click. Messages are one line plus details — never a traceback."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from .services.types import Operation

ButtonRole = QMessageBox.ButtonRole


class GuardFailedAnswer(StrEnum):
    """What a reviewer chose when Accept met a failing MergeGuard (None: cancel)."""

    APPEND = "append"  # keep every source verbatim
    OVERRIDE = "override"  # write the body as it is, the override audited


class Prompter:
    def __init__(self, parent: QWidget | None = None):
        self.parent = parent
        # (box) -> the clicked QAbstractButton, or None for Escape/close
        self.exec_box: Callable[[QMessageBox], object] = self._exec
        self.last_box_text: str = ""

    @staticmethod
    def _exec(box: QMessageBox) -> QAbstractButton | None:
        box.exec()
        return box.clickedButton()

    def _box(self, icon: QMessageBox.Icon, title: str, text: str, info: str = "", details: str = "") -> QMessageBox:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, self.parent)
        box.setObjectName("memguiPrompt")
        if info:
            box.setInformativeText(info)
        if details:
            box.setDetailedText(details)
        return box

    def _run(self, box: QMessageBox) -> object:
        self.last_box_text = "\n".join(t for t in (box.text(), box.informativeText(), box.detailedText()) if t)
        try:
            return self.exec_box(box)
        finally:
            box.deleteLater()

    # ---- questions ----------------------------------------------------------------------------------

    def confirm(self, title: str, text: str, impact: str, ok_label: str, risks: Sequence[str] = ()) -> bool:
        """The impact of a write, shown before it happens. True = go ahead. With `risks` (why this write is
        risky), the box says so first and its default button is Cancel: Return does not write."""
        if risks:
            why = "\n".join(f"• {risk}" for risk in risks)
            box = self._box(QMessageBox.Icon.Warning, title, f"Risky: {text}",
                            f"Why this is risky:\n{why}\n\n{impact}\n\nReturn cancels; click {ok_label} to go ahead.")
        else:
            box = self._box(QMessageBox.Icon.Question, title, text, impact)
        ok = box.addButton(ok_label, ButtonRole.AcceptRole)
        cancel = box.addButton("Cancel", ButtonRole.RejectRole)
        box.setDefaultButton(cancel if risks else ok)
        box.setEscapeButton(cancel)
        return self._run(box) is ok

    def confirm_revert(self, action: Operation, desc: str, audit_id: int) -> bool:
        """Undo / redo of one audited write, asked the same way from Ctrl+Z and from the Audit tab."""
        verb = action.capitalize()
        impact = (f"{verb} the {desc} (audit #{audit_id}): every document it touched gets back the text it had "
                  f"{'before' if action == Operation.UNDO else 'after'} it. The core refuses if any of them changed since. "
                  f"The {action} itself is recorded in the audit.")
        return self.confirm(verb, f"{verb} the {desc}?", impact, verb)

    def guard_failed(self, reason: str, missing: list[str]) -> GuardFailedAnswer | None:
        """Accept pressed while the guard fails: append, override or None (cancel)."""
        shown = ", ".join(missing[:30]) + (f" … (+{len(missing) - 30})" if len(missing) > 30 else "")
        box = self._box(
            QMessageBox.Icon.Warning, "MergeGuard failed",
            "MergeGuard failed on this merged body. Accepting it anyway could lose facts.",
            f"{reason}\n\nMissing: {shown or 'none'}\n\nAppend keeps every source verbatim. "
            "Override writes your body as it is and records the override in the audit.",
        )
        append = box.addButton("Append instead", ButtonRole.AcceptRole)
        override = box.addButton("Override and merge", ButtonRole.DestructiveRole)
        cancel = box.addButton("Cancel", ButtonRole.RejectRole)
        box.setDefaultButton(append)
        box.setEscapeButton(cancel)
        clicked = self._run(box)
        if clicked is append:
            return GuardFailedAnswer.APPEND
        if clicked is override:
            return GuardFailedAnswer.OVERRIDE
        return None

    def stale_source(self, message: str) -> bool:
        """A source changed since the draft; True = reload the cluster (the merged body is kept)."""
        box = self._box(
            QMessageBox.Icon.Warning, "A source changed",
            "A source document changed after you drafted this merge, so nothing was written.",
            f"{message}\n\nReload the cluster to see the current text (your merged body stays in the editor), "
            "then check the guard and diff again.",
        )
        reload_ = box.addButton("Reload cluster", ButtonRole.AcceptRole)
        cancel = box.addButton("Cancel", ButtonRole.RejectRole)
        box.setDefaultButton(reload_)
        box.setEscapeButton(cancel)
        return self._run(box) is reload_

    def error(self, title: str, message: str, info: str = "") -> None:
        box = self._box(QMessageBox.Icon.Critical, title, message, info)
        box.addButton(QMessageBox.StandardButton.Ok)
        self._run(box)

    def info(self, title: str, message: str, info: str = "") -> None:
        box = self._box(QMessageBox.Icon.Information, title, message, info)
        box.addButton(QMessageBox.StandardButton.Ok)
        self._run(box)
