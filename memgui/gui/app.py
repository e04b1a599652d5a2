"""Start the reviewer window: `run_gui(store_path, screenshot)` (called by `memgui/__main__.py`)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from .log import setup_log
from .main_window import MainWindow
from .review.page import fit_window
from .services import Services, real_services

SCREENSHOT_TIMEOUT_MS = 180_000


def application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else [sys.argv[0]])
        app.setApplicationName("memgui")
        app.setOrganizationName("memgui")
        app.setApplicationDisplayName("memgui")
    return app  # type: ignore[return-value]


def screenshot_problem(out: str | os.PathLike[str]) -> str | None:
    """Why a screenshot cannot be written to `out` (checked before the window opens), or None."""
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot write the screenshot to {out}: its folder cannot be created ({exc.strerror or exc})"
    if out.is_dir():
        return f"cannot write the screenshot to {out}: it is a folder"
    if not os.access(out.parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        return f"cannot write the screenshot to {out}: not writable"
    return None


def save_screenshot(window: MainWindow, out: str | os.PathLike[str]) -> bool:
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return window.grab().save(str(out))


def run_gui(store_path: str | None, screenshot: str | None, *, services: Services | None = None,
            qsettings: QSettings | None = None, size: tuple[int, int] | None = None) -> int:
    """Open the window on `store_path` (else the located store or the demo). With `screenshot`, wait until
    the cluster queue is filled and the first cluster selected and checked, save the whole window to that
    PNG and exit (0 saved, 1 not saved, 2 bad input: a store that cannot be opened or a screenshot path that
    cannot be written — then no screenshot is taken). Works with QT_QPA_PLATFORM=offscreen. `size` (width,
    height) replaces the saved window size."""
    if screenshot:
        problem = screenshot_problem(screenshot)
        if problem is not None:
            print(f"memgui: {problem}", file=sys.stderr)
            return 2
    app = application()
    setup_log()
    window = MainWindow(services or real_services(), qsettings=qsettings)
    if size is not None:
        fit_window(window, window.page, size=size)
    window.show()
    status = {"code": 0}
    probe = None
    if os.environ.get("MEMGUI_STALL_PROBE"):
        from .status import StallProbe

        probe = StallProbe(5, window)
        probe.start()

    if screenshot:
        def shoot() -> None:
            app.processEvents()
            ok = save_screenshot(window, screenshot)
            print(f"memgui: screenshot {'saved to' if ok else 'could not be saved to'} {screenshot}",
                  file=sys.stderr)
            if not ok:
                status["code"] = 1
            window.close()

        def failed(message: str) -> None:
            print(f"memgui: {message}", file=sys.stderr)
            status["code"] = 1
            QTimer.singleShot(0, window, shoot)

        def refused(message: str) -> None:  # the store cannot be opened: bad input, nothing to show
            print(f"memgui: {message}", file=sys.stderr)
            status["code"] = 2
            QTimer.singleShot(0, window.close)

        window.ready.connect(lambda: QTimer.singleShot(250, window, shoot))  # the window's timers die with it
        window.storeFailed.connect(refused)
        window.scanFailed.connect(failed)
        window.prompter.exec_box = lambda box: None  # never block on a dialog in screenshot mode
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, window, lambda: failed("timed out waiting for the cluster queue"))

    QTimer.singleShot(0, lambda: window.open_located(store_path))
    code = app.exec()
    if probe is not None:
        print(f"memgui: longest event-loop stall {probe.stop():.1f} ms", file=sys.stderr)
    return status["code"] if screenshot else int(code)
