"""Installed (non-editable) copies must carry every resource file, the desktop entry and the icon."""
import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _data_file_patterns():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [pattern for patterns in config["tool"]["setuptools"]["data-files"].values() for pattern in patterns]


def test_every_resource_file_is_shipped_as_data():
    patterns = _data_file_patterns()
    resources = [p.relative_to(ROOT).as_posix() for p in (ROOT / "resources").rglob("*") if p.is_file()]
    unshipped = [r for r in resources if not any(fnmatch.fnmatch(r, pat) and r.count("/") == pat.count("/") for pat in patterns)]
    assert resources and unshipped == []


def test_desktop_entry_launches_memgui_with_its_icon():
    entry = (ROOT / "packaging" / "memgui.desktop").read_text(encoding="utf-8")
    assert "Exec=memgui" in entry and "Icon=memgui" in entry and "Type=Application" in entry
    assert (ROOT / "packaging" / "memgui.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_the_project_licence_is_the_one_pyproject_declares():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_desktop_entry_passes_the_file_it_opens():
    """`Exec=memgui %f` with the SQLite MIME type: "Open with memgui" runs `memgui PATH`, which opens that store."""
    entry = (ROOT / "packaging" / "memgui.desktop").read_text(encoding="utf-8")
    assert "Exec=memgui %f" in entry and "MimeType=application/vnd.sqlite3;" in entry
