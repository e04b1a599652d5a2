"""`memgui --store PATH --screenshot OUT.png`: waits for the filled queue and the first selected cluster,
saves the whole window, exits. Once on fakes (in process), once for real (subprocess, real embedder)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from gui_fakes import services_for
from memgui.gui.app import run_gui

ROOT = Path(__file__).resolve().parents[2]


def _looks_like_the_window(path: Path) -> QImage:
    image = QImage(str(path))
    assert not image.isNull() and image.width() >= 1000 and image.height() >= 600
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 23)}
    assert len(colours) > 8  # a rendered window, not a blank frame
    return image


def test_screenshot_mode_in_process(review_store, tmp_path, qapp, run_gui_windows):
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    out = tmp_path / "shots" / "window.png"
    code = run_gui(str(review_store.path), str(out), services=services_for(review_store), qsettings=settings)
    assert code == 0
    _looks_like_the_window(out)
    assert settings.value("store/path") == str(review_store.path)  # the store became a recent store


def _env(tmp_path):
    from memgui.config import models_dir

    # Keep the real user's settings untouched; share the installed models.
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
                MEMGUI_MODELS_DIR=str(models_dir()))


@pytest.mark.realmodel
def test_screenshot_of_the_demo_store_with_the_real_scan(tmp_path):
    from memgui.core.store.demo import build_demo_store

    store = build_demo_store(tmp_path / "demo" / "netclaw.db")
    out = tmp_path / "demo.png"
    env = _env(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "memgui", "--store", str(store), "--screenshot", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"screenshot saved to {out}" in proc.stderr
    _looks_like_the_window(out)


def test_screenshot_mode_reports_a_bad_store(tmp_path):
    bad = tmp_path / "not-a-store.db"
    bad.write_text("hello")
    out = tmp_path / "bad.png"
    env = _env(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "memgui", "--store", str(bad), "--screenshot", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2  # bad input, like every other command
    assert "not an SQLite database" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()  # no screenshot of an error state


def test_a_screenshot_path_that_cannot_be_written_is_refused_before_the_window_opens(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = blocker / "shots" / "window.png"  # a folder below a file cannot be made
    proc = subprocess.run([sys.executable, "-m", "memgui", "--store", str(tmp_path / "whatever.db"), "--screenshot",
                           str(out)], cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.startswith("memgui:")]
    assert len(lines) == 1 and "cannot write the screenshot" in lines[0] and "Traceback" not in proc.stderr
