"""The window's system libraries are checked before Qt starts, so a missing one (libxcb-icccm4) is named instead of
Qt's abort that blames xcb-cursor0 (memgui/system_libraries.py; `make bundle-test` proves it in the bundle)."""
import importlib.util
from pathlib import Path

import pytest

from memgui import __main__ as entry, system_libraries as syslibs

PYSIDE = Path(next(iter(importlib.util.find_spec("PySide6").submodule_search_locations)))
XCB_PLUGIN = PYSIDE / "Qt" / "plugins" / "platforms" / "libqxcb.so"


def _loader_without(*gone):
    def load(name):
        return f"{name}: cannot open shared object file: No such file or directory" if name in gone else None
    return load


def test_the_elf_reader_finds_what_the_xcb_plugin_needs():
    deps = syslibs.read_elf_deps(XCB_PLUGIN)
    assert "libxcb-icccm.so.4" in deps.needed and "libQt6XcbQpa.so.6" in deps.needed
    assert str(XCB_PLUGIN.resolve().parent / "../../lib") in deps.search  # $ORIGIN/../../lib, expanded


def test_a_file_that_is_not_elf_is_refused(tmp_path):
    (tmp_path / "x.so").write_text("hello")
    with pytest.raises(ValueError):
        syslibs.read_elf_deps(tmp_path / "x.so")


@pytest.mark.parametrize("soname, package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"), ("libEGL.so.1", "libegl1"), ("libdbus-1.so.3", "libdbus-1-3"),
])
def test_the_debian_package_of_a_library(soname, package):
    assert syslibs.debian_package(soname) == package


def test_a_missing_library_of_the_xcb_plugin_is_named_with_its_package():
    message = syslibs.window_problem({"QT_QPA_PLATFORM": "xcb"}, loader=_loader_without("libxcb-icccm.so.4"))
    assert message is not None
    assert "libxcb-icccm.so.4" in message and "apt-get install libxcb-icccm4" in message
    assert "cursor" not in message and "keysyms" not in message  # only what is missing
    assert syslibs.window_problem({"QT_QPA_PLATFORM": "xcb"}, loader=_loader_without()) is None


def test_a_library_missing_behind_a_present_one_is_named_as_the_loader_names_it():
    def load(name):  # libxkbcommon-x11 is there but needs libxcb-xkb, which is not
        return "libxcb-xkb.so.1: cannot open shared object file: No such file or directory" \
            if name == "libxkbcommon-x11.so.0" else None
    missing = syslibs.missing_libraries([XCB_PLUGIN], [PYSIDE / "Qt" / "lib"], load)
    assert [m.name for m in missing] == ["libxcb-xkb.so.1"]


def test_a_platform_qt_would_fall_back_from_is_no_problem():
    env = {"QT_QPA_PLATFORM": "wayland;xcb"}
    assert syslibs.window_problem(env, loader=_loader_without("libwayland-cursor.so.0")) is None
    session = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"}
    assert syslibs.qt_platforms(session) == ["wayland", "xcb"]
    assert syslibs.qt_platforms({}) == []
    assert syslibs.window_problem({"QT_QPA_PLATFORM": "offscreen"}, loader=_loader_without("libxcb-icccm.so.4")) is None


def test_the_entry_point_says_so_before_qt_starts(monkeypatch, capsys):
    from memgui.gui import app as gui_app

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(syslibs, "_default_loader", _loader_without("libxcb-icccm.so.4"))
    monkeypatch.setattr(gui_app, "run_gui", lambda **_: pytest.fail("Qt must not start"))
    monkeypatch.setattr(syslibs, "tell_the_desktop", lambda *_: True)  # no notification from a test run
    assert entry.main([]) == entry.EXIT_MISSING_LIBRARY
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "libxcb-icccm.so.4" in err and "libxcb-icccm4" in err


def test_started_with_no_terminal_the_message_goes_to_the_desktop_too(monkeypatch, tmp_path, capsys):
    """From the desktop entry stderr goes nowhere: the message is also sent with notify-send when there is one."""
    from memgui.gui import app as gui_app

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    said = tmp_path / "said.txt"
    fake = bin_dir / "notify-send"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{said}"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(syslibs, "_default_loader", _loader_without("libxcb-icccm.so.4"))
    monkeypatch.setattr(gui_app, "run_gui", lambda **_: pytest.fail("Qt must not start"))
    assert entry.main([]) == entry.EXIT_MISSING_LIBRARY  # capsys: stderr is not a terminal
    lines = said.read_text().splitlines()
    assert "memgui cannot open its window" in lines and any("libxcb-icccm4" in line for line in lines)
