"""The window's actions (single keys, as in git-cola / dedupe) and its menus. Buttons elsewhere are bound to
these same QActions, so a key and its button always share one enabled state."""
from __future__ import annotations

import html
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLineEdit, QMenu, QMenuBar, QWidget

from .dialogs import Prompter

Shortcut = str | QKeySequence | QKeySequence.StandardKey | None  # what QAction.setShortcut takes (None: no key)


class KeyFocus(Protocol):
    def enter_editor(self) -> None: ...

    def focus_queue(self) -> None: ...


class ActionsHost(Protocol):
    """What the actions and menus call on the window (the MainWindow), and the menu they make there."""

    recent_menu: QMenu  # made here

    @property
    def actions_by_key(self) -> dict[str, QAction]: ...

    @property
    def filter_edit(self) -> QLineEdit: ...

    @property
    def prompter(self) -> Prompter: ...

    @property
    def keys(self) -> KeyFocus: ...

    @property
    def review(self) -> object: ...  # made after the actions: its slots are looked up by name when one fires

    def window(self) -> QWidget: ...  # the actions' parent

    def addAction(self, action: QAction, /) -> None: ...

    def menuBar(self) -> QMenuBar: ...

    def close(self) -> bool: ...

    def choose_store(self) -> None: ...

    def open_located(self, explicit: str | None, *, demo: bool = False) -> None: ...

    def start_scan(self) -> None: ...

    def show_settings(self) -> None: ...

    def next_cluster(self, prefer_new: bool = False) -> None: ...

    def previous_cluster(self) -> None: ...

    def split_checked(self) -> None: ...

    def show_tab(self, index: int) -> None: ...

    def show_about(self) -> None: ...

    def _fill_recent(self) -> None: ...

# Keys that are no QAction of their own (the source panes' digits, the editor's Esc, the filter's Enter).
OTHER_KEYS = (("1–9", "include / exclude source #n"), ("Shift+1–9", "make source #n the target"),
              ("Esc (in the editor)", "leave the merged body, back to the queue"),
              ("Enter (in the filter)", "filter now and go back to the queue"))


def keys_help(actions: dict[str, QAction]) -> list[tuple[str, str]]:
    """(key, what) for every action of the window (one without a key says where it is), then the other keys:
    built from the actions themselves, so the list cannot miss one."""
    rows = []
    for action in actions.values():
        name = action.text().replace("&", "").rstrip("…").strip()
        name = name.split(" (")[0] if name.endswith(")") else name
        key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        rows.append((key or "menu / button", name))
    return rows + list(OTHER_KEYS)


def keys_help_html(actions: dict[str, QAction]) -> str:
    """The F1 list as a two-column table (it fits a 720-pixel-high screen)."""
    rows = keys_help(actions)
    half = (len(rows) + 1) // 2
    cells = []
    for i in range(half):
        pair = [rows[i]] + ([rows[i + half]] if i + half < len(rows) else [])
        cells.append("<tr>" + "".join(f"<td style='padding-right:6px'><b>{html.escape(k)}</b></td>"
                                      f"<td style='padding-right:18px'>{html.escape(v)}</td>" for k, v in pair) + "</tr>")
    return "<table>" + "".join(cells) + "</table>"


def build_actions(w: ActionsHost) -> dict[str, QAction]:
    """Create every action on window `w` (a MainWindow) and its menus; returns them by key."""
    actions: dict[str, QAction] = {}

    def a(key: str, text: str, shortcut: Shortcut, slot: Callable[[], object], tip: str = "") -> QAction:
        action = QAction(text, w.window())
        action.setObjectName(f"action_{key}")
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        w.addAction(action)
        actions[key] = action
        return action

    def r(name: str) -> Callable[[], object]:  # the review controller is built after the actions
        return lambda: getattr(w.review, name)()

    a("open", "&Open store…", QKeySequence.StandardKey.Open, w.choose_store)
    a("demo", "Open the &demo store", None, lambda: w.open_located(None, demo=True))
    a("rescan", "&Rescan", "F5", w.start_scan, "Find nominee clusters again")
    a("settings", "&Settings…", "Ctrl+,", w.show_settings)
    a("quit", "&Quit", QKeySequence.StandardKey.Quit, w.close)
    a("next", "Next cluster", "J", lambda: w.next_cluster(), "Next cluster (J)")
    a("prev", "Previous cluster", "K", w.previous_cluster, "Previous cluster (K)")
    a("ask", "Ask model (M)", "M", r("ask_model"), "Stream the local model's decision for this cluster")
    a("cancel_model", "Cancel the model", "Esc", r("cancel_model"), "Stop the running model call (Esc)")
    a("union", "Union draft (U)", "U", r("union_draft"), "Insert the deterministic sentence-union draft")
    a("edit", "Edit (E)", "E", lambda: w.keys.enter_editor(), "Edit the merged body (Esc goes back to the queue)")
    a("confirm", "Confirm restatement (R)", "R", r("confirm_restatement"),
      "The selected read pair of the Alignment tab is a restatement: the union draft drops that sentence, and the "
      "merge's audit records it (R on a confirmed pair withdraws it)")
    a("supersede", "Read as a supersession (N)", "N", r("supersede"),
      "The newer note is the newer state: read the notes' order and dates, draft the newest state with the older kept "
      "as dated history (A accepts it)")
    a("accept", "Accept merge (A)", "A", r("accept"), "Merge with this body (needs a passing guard or an override)")
    a("append", "Append instead (P)", "P", r("append"), "Keep every source verbatim: append them to the target")
    a("keep", "Keep separate (C)", "C", r("keep_separate"), "Not duplicates: never nominate them together again")
    a("skip", "Skip for now (S)", "S", r("skip"), "Leave this cluster for later")
    a("split", "Split off the checked (X)", "X", w.split_checked,
      "The checked members become a cluster of their own in the queue (1–9 check / uncheck source #n)")
    a("undo", "Undo (Ctrl+Z)", QKeySequence.StandardKey.Undo, r("undo"), "Undo the last write of this session")
    a("redo", "Redo (Ctrl+Shift+Z)", "Ctrl+Shift+Z", r("redo"), "Redo what was undone")

    def focus_filter() -> None:
        w.filter_edit.setFocus()
        w.filter_edit.selectAll()

    a("filter", "Filter…", QKeySequence.StandardKey.Find, focus_filter)
    a("queue", "Go to the queue", "Ctrl+L", lambda: w.keys.focus_queue())
    a("tab_review", "Review tab", "Ctrl+1", lambda: w.show_tab(0), "Show the Review tab (Ctrl+1)")
    a("tab_audit", "Audit tab", "Ctrl+2", lambda: w.show_tab(1), "Show the Audit tab: memgui's writes, undo, "
      "daemon merges, calibration (Ctrl+2)")
    a("keys", "&Keyboard shortcuts", "F1", lambda: w.prompter.info(
        "Keyboard shortcuts", "Every action and its key:", keys_help_html(w.actions_by_key)))
    a("about", "&About memgui", None, w.show_about)

    for key, short in (("skip", "Skip (S)"), ("split", "Split (X)"), ("undo", "Undo"), ("redo", "Redo"),
                       ("cancel_model", "Cancel")):
        actions[key].setIconText(short)  # the buttons' text (the menus keep the long one)
    _build_menus(w, actions)
    return actions


def _build_menus(w: ActionsHost, actions: dict[str, QAction]) -> None:
    """The menu bar: File, Review, View, Help, each with its actions in order."""
    menu = w.menuBar().addMenu("&File")
    for key in ("open", "demo"):
        menu.addAction(actions[key])
    w.recent_menu = menu.addMenu("Open &recent")
    w.recent_menu.aboutToShow.connect(w._fill_recent)
    menu.addSeparator()
    for key in ("rescan", "settings"):
        menu.addAction(actions[key])
    menu.addSeparator()
    menu.addAction(actions["quit"])
    menu = w.menuBar().addMenu("&Review")
    for entry in ("next", "prev", None, "ask", "cancel_model", "union", "supersede", "edit", "confirm", None, "accept", "append", "keep",
                  "skip", "split", None, "undo", "redo", None, "filter", "queue"):
        if entry is None:
            menu.addSeparator()
        else:
            menu.addAction(actions[entry])
    menu = w.menuBar().addMenu("&View")
    for key in ("tab_review", "tab_audit"):
        menu.addAction(actions[key])
    menu = w.menuBar().addMenu("&Help")
    menu.addAction(actions["keys"])
    menu.addAction(actions["about"])
