"""Re-create the screenshots in this folder: the reviewer window on a fresh demo store, with the real core
(MiniLM scan, MergeGuard, union draft, llama.cpp decider, apply/audit), rendered offscreen.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/capture.py [OUT_DIR]

Uses a throw-away data/cache dir, so the user's own store and settings are never touched. Actions are
triggered as the keys would trigger them (the same QActions).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_TMP = Path(tempfile.mkdtemp(prefix="memgui-shots-"))
os.environ["MEMGUI_DATA_DIR"] = str(_TMP / "data")
os.environ["MEMGUI_CACHE_DIR"] = str(_TMP / "cache")
os.environ["NETCLAW_HOME"] = str(_TMP / "netclaw-home")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop, QSettings  # noqa: E402

from memgui.core.store.demo import build_demo_store  # noqa: E402
from memgui.gui.app import application  # noqa: E402
from memgui.gui.main_window import MainWindow  # noqa: E402
from memgui.gui.services import real_services  # noqa: E402
from memgui.gui.settings_dialog import SettingsDialog  # noqa: E402

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent


def wait(app, predicate, timeout_s: float = 600.0) -> None:
    end = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("the window did not reach the expected state")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)


def settle(app, ms: int = 400) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.01)


def main() -> int:
    app = application()
    store = build_demo_store(_TMP / "demo" / "netclaw.db")
    window = MainWindow(real_services(), qsettings=QSettings(str(_TMP / "settings.ini"), QSettings.Format.IniFormat))
    shots: list[str] = []

    def shoot(name: str, widget=None) -> None:
        settle(app)
        (widget or window).grab().save(str(OUT / f"{name}.png"))
        shots.append(name)
        print("saved", name, flush=True)

    def answer(box):
        name = {"Accept merge": "03-confirm-impact", "MergeGuard failed": "06-guard-failed-dialog"}.get(box.windowTitle())
        if name:
            box.show()
            settle(app, 200)
            box.grab().save(str(OUT / f"{name}.png"))
            box.hide()
            shots.append(name)
        buttons = {b.text().replace("&", ""): b for b in box.buttons()}
        for wanted in ("Merge", "Cancel", "OK"):
            if wanted in buttons:
                return buttons[wanted]
        return None

    window.prompter.exec_box = answer
    window.show()
    ready = []
    window.ready.connect(lambda: ready.append(True))
    window.open_located(str(store))
    wait(app, lambda: ready)
    wait(app, lambda: window.review.guard_is_current() or window.guard_panel.report is None)
    shoot("01-queue")

    def select(title: str) -> None:
        for row in window.cluster_model.rows():
            if title in row.titles:
                window.select_cluster(row.cluster_id)
                wait(app, lambda: window.review.row is row)
                return
        raise LookupError(title)

    select("Home Assistant")
    window.actions_by_key["union"].trigger()
    wait(app, lambda: window.review.origin == "union" and window.review.guard_is_current())
    wait(app, lambda: window.diff_view.shown_request == window.diff_view.request)
    shoot("02-union-guard-passed")
    written = []
    window.review.writeFinished.connect(written.append)
    window.actions_by_key["accept"].trigger()
    wait(app, lambda: written)
    shoot("04-after-accept")

    # The first cluster on which the model drafts a merged body (it may also answer CREATE: different facts).
    for title in ("Penicillin allergy", "Editor of choice", "Gym membership"):
        select(title)
        finished = []
        window.review.decisionFinished.connect(finished.append)
        window.actions_by_key["ask"].trigger()
        wait(app, lambda: "merging" in window.decision_panel.stream.toPlainText() or finished)
        if not finished:
            settle(app, 3000)
            shoot("07-model-streaming")
        wait(app, lambda: finished)
        window.review.decisionFinished.disconnect()
        wait(app, lambda: window.review.guard_is_current() or window.guard_panel.report is None)
        others = [d.document_id for d in window.review.docs if d.document_id != window.sources.target_id()]
        if others and window.editor.toPlainText():
            request = window.diff_view.request
            window.diff_view.choose(others[0])  # the diff against a source the draft did not start from
            wait(app, lambda: window.diff_view.shown_request > request)
        shoot("08-model-decision")
        decision = getattr(finished[0], "decision", None)
        if decision is not None and decision.merged_body:
            break

    select("routewise-api repository and deploy")
    window.editor.setFocus()
    window.editor.setPlainText("routewise-api is deployed from GitHub to the prod cluster.")
    wait(app, lambda: window.review.guard_is_current())
    window.queue.setFocus()
    shoot("05-guard-failed")
    window.actions_by_key["accept"].trigger()  # the guard-failed dialog (answered Cancel)

    window.tabs.setCurrentWidget(window.audit_view)
    settle(app, 2500)
    shoot("09-audit-tab")
    window.tabs.setCurrentIndex(0)

    models = window.services.discover_models()
    dialog = SettingsDialog(window.settings, models, window)
    dialog.show()
    shoot("10-settings", dialog)
    dialog.close()
    window.close()
    print(f"{len(shots)} screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
