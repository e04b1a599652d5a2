"""Help → About memgui, and the hint a first run shows above the tabs until it is dismissed."""
from __future__ import annotations

import platform
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

from .. import __version__
from ..config import models_dir, user_cache_dir, user_data_dir
from .log import log_path

FIRST_RUN_KEY = "hints/firstRunSeen"
FIRST_RUN_TEXT = (
    "<b>First time here?</b> The queue on the left lists clusters of memories that look like duplicates. "
    "<b>J/K</b> move · <b>U</b> drafts a merge, <b>M</b> asks the model · <b>A</b> accepts (nothing is written "
    "before you confirm) · <b>C</b> keeps them separate · <b>Ctrl+Z</b> undoes · <b>Ctrl+2</b> the audit · "
    "<b>F1</b> every key. &nbsp;<a href='dismiss'>Got it</a>")


def about_text() -> str:
    return f"memgui {__version__} — review and merge an AI agent's memory (Netclaw)"


def about_details(store_path: str | Path | None = None) -> str:
    return (
        "memgui finds near-duplicate memories in a Netclaw store, drafts a merged body (sentence union or a local "
        "model), checks it with MergeGuard and the strict lens, and writes nothing until you accept. Every write "
        "is one audited transaction, and undoable.\n\n"
        f"Store: {store_path or 'none open'}\n"
        f"Log: {log_path()}\n"
        f"Models: {models_dir()}\n"
        f"Data: {user_data_dir()} · cache: {user_cache_dir()}\n"
        f"Python {platform.python_version()} · PySide6 {pyside_version}")


def first_run_hint(qsettings: QSettings) -> QLabel:
    """A banner with the few keys to start; shown until "Got it" (remembered in `qsettings`)."""
    label = QLabel(FIRST_RUN_TEXT)
    label.setObjectName("firstRunHint")
    label.setWordWrap(True)
    label.setStyleSheet("QLabel { color:#0b4a8b; background:#ddf4ff; padding:5px 8px; }")
    label.setOpenExternalLinks(False)

    def dismiss(_link: str) -> None:
        qsettings.setValue(FIRST_RUN_KEY, "true")
        label.hide()

    label.linkActivated.connect(dismiss)
    if str(qsettings.value(FIRST_RUN_KEY, "false")).lower() == "true":
        label.hide()
    return label
