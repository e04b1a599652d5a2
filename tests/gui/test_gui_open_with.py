"""`memgui PATH` opens that store in the window (the desktop entry's `%f`, "Open with memgui"); a path that is not
a store gets the same one-line message as `--store` does."""
import functools
import os
import subprocess
import sys
from pathlib import Path

from gui_fakes import services_for
from memgui import __main__ as entry
from memgui.gui import app as gui_app

ROOT = Path(__file__).resolve().parents[2]


def test_a_positional_store_path_opens_in_the_window(review_store, tmp_path, qapp, monkeypatch, run_gui_windows):
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    monkeypatch.setattr(gui_app, "run_gui", functools.partial(gui_app.run_gui, services=services_for(review_store),
                                                              qsettings=settings))
    out = tmp_path / "open-with.png"
    assert entry.main([str(review_store.path), "--screenshot", str(out)]) == 0
    assert out.is_file()
    assert settings.value("store/path") == str(review_store.path)  # the window opened that store


def test_a_positional_path_that_is_not_a_store_is_refused_with_the_usual_message(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    out = tmp_path / "bad.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, "-m", "memgui", str(bad), "--screenshot", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "not an SQLite database" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()
