"""The Review tab's keyboard: 1–9 include / exclude source #n, Shift+1–9 make #n the target, E enters the
merged-body editor and Esc leaves it, and focus goes back to the cluster queue after every dialog and every
click on a button or check box.

The merged-body editor takes typed text only after E (or the Edit button): otherwise it is read-only, so
single-key actions (U, A, …) reach their QActions wherever the focus is and never type into the body.

Shift+digit is read from the key event, not from a QKeySequence: on most layouts Shift+1 arrives as "!" (on
AZERTY the unshifted digit row gives "&", "é", …), so the digit is taken from the key when it is one, else from
the physical digit-row key (the native scan code, or macOS's virtual key code), else from the US symbol row."""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QFocusEvent, QGuiApplication, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QWidget,
)
from shiboken6 import isValid

from .sources_view import SourcesView

KM = Qt.KeyboardModifier
_DIGIT_KEYS = {int(Qt.Key.Key_0) + n: n for n in range(1, 10)}
# What Shift+1..9 gives on a US keyboard (the last resort, when the event carries no native key code).
_US_SHIFTED = {int(k): n for n, k in enumerate((Qt.Key.Key_Exclam, Qt.Key.Key_At, Qt.Key.Key_NumberSign,
                                                Qt.Key.Key_Dollar, Qt.Key.Key_Percent, Qt.Key.Key_AsciiCircum,
                                                Qt.Key.Key_Ampersand, Qt.Key.Key_Asterisk, Qt.Key.Key_ParenLeft),
                                               start=1)}
# The physical digit-row keys 1..9, by platform: X11 / Wayland key codes (evdev + 8), Windows scan codes,
# macOS virtual key codes (kVK_ANSI_1 … kVK_ANSI_9; read from nativeVirtualKey there).
_XKB_ROW = {10 + i: i + 1 for i in range(9)}
_WIN_ROW = {2 + i: i + 1 for i in range(9)}
_MAC_ROW = {0x12: 1, 0x13: 2, 0x14: 3, 0x15: 4, 0x17: 5, 0x16: 6, 0x1A: 7, 0x1C: 8, 0x19: 9}
_OTHER_MODIFIERS = KM.ControlModifier | KM.AltModifier | KM.MetaModifier


def source_digit(key: int, modifiers: Qt.KeyboardModifier, scan_code: int = 0, virtual_key: int = 0,
                 platform: str = "") -> tuple[int, bool] | None:
    """(n, shifted) for a key that means source #n (1..9) — plain, or with Shift — else None. Pure, so every
    layout and platform can be tested without its keyboard."""
    mods = KM(modifiers)
    if mods & _OTHER_MODIFIERS:
        return None
    shifted = bool(mods & KM.ShiftModifier)
    if key in _DIGIT_KEYS:
        return _DIGIT_KEYS[key], shifted
    row = {"xcb": (_XKB_ROW, scan_code), "wayland": (_XKB_ROW, scan_code), "windows": (_WIN_ROW, scan_code),
           "cocoa": (_MAC_ROW, virtual_key)}.get(platform)
    if row is not None and row[1] in row[0] and not mods & KM.KeypadModifier:
        return row[0][row[1]], shifted
    if shifted and key in _US_SHIFTED and (row is None or not row[1]):
        return _US_SHIFTED[key], True
    return None


def takes_text(widget: QWidget | None) -> bool:
    """Whether typed characters belong to `widget` (a line edit, an editable text edit, a spin box …)."""
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return not widget.isReadOnly()
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    return isinstance(widget, (QLineEdit, QAbstractSpinBox))


class ReviewKeys(QObject):
    """Installed by the window. `sources` is the SourcesView, `queue` the cluster queue, `editor` the merged
    body; `active()` says whether the Review tab is the one in view; `reviewable()` whether the cluster under
    review can still be decided; `status(text)` shows a line in the status bar."""

    def __init__(self, window: QWidget, *, queue: QWidget, editor: QPlainTextEdit, sources: SourcesView,
                 buttons_in: QWidget, edit: QAction, active: Callable[[], bool], reviewable: Callable[[], bool],
                 status: Callable[[str], None]):
        super().__init__(window)
        self.window, self.queue, self.editor, self.sources = window, queue, editor, sources
        self.active, self.reviewable, self.status = active, reviewable, status
        self.editing = False  # the editor was entered with E and not left since
        self._allowed = False  # the cluster under review can take a merged body
        self._from_dialog = False  # the focus is in a dialog of this window
        self._watched: QWidget | None = None  # the focus widget, while it is not one of the permanent ones
        self._platform = QGuiApplication.platformName()
        editor.setReadOnly(True)
        # The window: key events when nothing in it has the focus.
        self._permanent = (editor, queue, window)
        for widget in self._permanent:
            widget.installEventFilter(self)
        sources.choiceClicked.connect(self._clicked)  # its panes come and go: it tells of their clicks
        for button in buttons_in.findChildren(QAbstractButton):
            if not sources.isAncestorOf(button):
                button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # Tab still reaches it
                if not (isinstance(button, QToolButton) and button.defaultAction() is edit):  # Edit: the editor
                    button.clicked.connect(self._clicked)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)  # cut when this object goes

    # ---- the editor ---------------------------------------------------------------------------------

    def allow_editing(self, allowed: bool) -> None:
        """Whether the cluster under review takes a merged body (the window's enabled state for E)."""
        self._allowed = allowed
        if not allowed:
            self.editing = False
        self.editor.setReadOnly(not (allowed and self.editing))

    def enter_editor(self) -> None:
        if not self._allowed:
            return
        self.editing = True
        self.editor.setReadOnly(False)
        if self.editor.textCursor().position() == 0 and not self.editor.textCursor().hasSelection():
            # a fresh draft (its caret at the start): go on writing at its end; a caret placed stays
            self.editor.moveCursor(QTextCursor.MoveOperation.End)
            self.editor.ensureCursorVisible()
        self.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_queue(self) -> None:
        self._stop_editing()
        self.queue.setFocus(Qt.FocusReason.OtherFocusReason)

    def _stop_editing(self) -> None:
        self.editing = False
        self.editor.setReadOnly(True)

    # ---- buttons and dialogs leave the focus on the queue ------------------------------------------

    def _clicked(self, *_args: object) -> None:
        QTimer.singleShot(0, self, self.focus_queue)  # after the click's own work (a dialog it opened, …)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self._watched is not None and isValid(self._watched):
            self._watched.removeEventFilter(self)
        self._watched = None
        if new is None:
            return
        if new.window() is not self.window:
            self._from_dialog = self._from_dialog or isinstance(new.window(), QDialog)
            return
        if self._from_dialog:  # back from a dialog: to the queue
            self._from_dialog = False
            QTimer.singleShot(0, self, self.focus_queue)
        if new not in self._permanent:
            new.installEventFilter(self)
            self._watched = new

    # ---- key events ---------------------------------------------------------------------------------

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        key_event = cast(QKeyEvent, event)  # read as one only for the key event types tested below
        if obj is self.editor:
            if kind == QEvent.Type.FocusOut and self.editing and cast(QFocusEvent, event).reason() not in (
                    Qt.FocusReason.PopupFocusReason, Qt.FocusReason.ActiveWindowFocusReason):
                self._stop_editing()
            elif kind == QEvent.Type.MouseButtonPress and not self.editing and self._allowed:
                self.status("The merged body is read-only until you press E (Esc goes back to the queue)")
            if self.editing and kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) \
                    and key_event.key() == Qt.Key.Key_Escape:
                event.accept()
                if kind == QEvent.Type.KeyPress:
                    self.focus_queue()  # Esc leaves the editor
                return True
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        digit = self._digit(obj, key_event)
        if digit is None:
            return False
        event.accept()
        if kind == QEvent.Type.KeyPress and not key_event.isAutoRepeat():
            self.source_key(*digit)
        return True

    def _digit(self, obj: QObject, event: QKeyEvent) -> tuple[int, bool] | None:
        if not isinstance(obj, QWidget) or obj.window() is not self.window or takes_text(obj) or not self.active():
            return None
        return source_digit(int(event.key()), event.modifiers(), event.nativeScanCode(), event.nativeVirtualKey(),
                            self._platform)

    def source_key(self, n: int, shifted: bool) -> None:
        """Key n: include / exclude source #n; Shift+n: source #n becomes the target."""
        panes = self.sources.panes()
        if not self.reviewable():
            self.status("This cluster has been reviewed: nothing to include or target")
            return
        if not 1 <= n <= len(panes):
            self.status(f"No source #{n} in this cluster (it has {len(panes)})")
            return
        pane = panes[n - 1]
        if shifted:
            self.sources.set_target(pane.doc_id)
        else:
            pane.include_box.toggle()

