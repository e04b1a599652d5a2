"""The offline models folder `make bundle` writes beside the app, and `memgui models install --from DIR|ARCHIVE`:
copied and verified into the models dir, no network, no model packages needed; `models status` agrees with what
`models install` can do. Small stand-in model files (the real ones are proven by `make bundle-test`)."""
import hashlib
import json
import shlex
import subprocess
import sys
import tarfile
from types import SimpleNamespace

import pytest

from memgui.cli import models as models_cli
from memgui.config import models_install_hint
from memgui.core.decide import model_files, models_folder
from memgui.core.vectors import embedder_model

DECIDER_BYTES = b"GGUF decider " * 1000
EMBEDDER_BYTES = b"GGUF embedder " * 700


@pytest.fixture
def no_packages(monkeypatch, tmp_path):
    """A user with nothing but the app: an empty models dir, no weights package, no decider parts; the decider
    memgui pins is the stand-in."""
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setattr(embedder_model, "SOURCE_PACKAGE", "memgui_test_no_such_weights")
    monkeypatch.setattr(model_files, "PART_PACKAGE", "memgui_test_no_such_part{n}")
    monkeypatch.setattr(model_files, "EXPECTED_SIZE", len(DECIDER_BYTES))
    monkeypatch.setattr(model_files, "EXPECTED_SHA256", hashlib.sha256(DECIDER_BYTES).hexdigest())


@pytest.fixture
def folder(tmp_path, no_packages):
    made = tmp_path / "made"
    made.mkdir()
    decider = made / model_files.MODEL_FILENAME
    decider.write_bytes(DECIDER_BYTES)
    embedder = made / embedder_model.GGUF_NAME
    embedder.write_bytes(EMBEDDER_BYTES)
    licenses = tmp_path / "licenses"
    licenses.mkdir()
    (licenses / "all-MiniLM-L6-v2.txt").write_text("Apache-2.0")
    out = tmp_path / "dist" / "memgui-models"
    models_folder.write_models_folder(out, licenses=licenses, files={
        "embedder": (embedder, hashlib.sha256(EMBEDDER_BYTES).hexdigest()),
        "decider": (decider, model_files.EXPECTED_SHA256)})
    return out


def _run(action, source=None):
    return models_cli.run(SimpleNamespace(action=action, json=True, source=str(source) if source else None))


def _status(capsys):
    return json.loads(capsys.readouterr().out)


def test_the_folder_holds_the_models_a_manifest_and_their_licences(folder):
    manifest = models_folder.read_manifest(folder)
    assert set(manifest) == {"embedder", "decider"}
    assert (folder / manifest["decider"].file).read_bytes() == DECIDER_BYTES
    assert (folder / "licenses" / "all-MiniLM-L6-v2.txt").is_file()


def test_install_from_the_folder_with_no_packages_then_status_and_install_agree(folder, capsys):
    assert _run("status") == 0
    before = _status(capsys)
    assert not before["embedder"]["present"] and before["decider"]["install_from"] is None  # not bundled: no folder
    assert _run("install", folder) == 0
    status = _status(capsys)
    assert status["embedder"]["present"] and status["decider"]["present"]
    assert embedder_model.default_model_path().read_bytes() == EMBEDDER_BYTES
    assert model_files.default_model_path().read_bytes() == DECIDER_BYTES
    # the packages are still not there: `models install` keeps what `models status` reports, it does not fail
    assert _run("status") == 0 and all(m["present"] for m in _status(capsys).values())
    assert _run("install") == 0 and all(m["present"] for m in _status(capsys).values())


def test_install_from_an_archive_of_the_folder(folder, tmp_path, capsys):
    archive = tmp_path / "memgui-models.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname="memgui-models")
    assert _run("install", archive) == 0
    assert all(m["present"] for m in _status(capsys).values())
    assert [p.name for p in (tmp_path / "models").iterdir() if p.name.startswith(".unpack-")] == []


def test_a_damaged_copy_is_refused_and_nothing_is_installed(folder, capsys):
    target = folder / model_files.MODEL_FILENAME
    target.unlink()  # a hard link to the source: replace, not rewrite
    target.write_bytes(DECIDER_BYTES[:-1] + b"!")
    with pytest.raises(models_cli.CliError, match="SHA-256"):
        _run("install", folder)
    assert model_files.default_model_path() is None


@pytest.mark.parametrize("make", ["missing", "not-a-folder", "bad-manifest", "escape"])
def test_what_is_not_a_models_folder_is_one_clear_error(tmp_path, no_packages, make):
    source = tmp_path / "source"
    if make == "not-a-folder":
        source.write_text("x")
    elif make == "bad-manifest":
        source.mkdir()
        (source / "MANIFEST.json").write_text(json.dumps(
            {"format": 1, "embedder_converter_version": embedder_model.CONVERTER_VERSION,
             "models": {"decider": {"file": "../etc/passwd", "size": 1, "sha256": "0" * 64}}}))
    elif make == "escape":
        source = tmp_path / "evil.tar"
        with tarfile.open(source, "w") as tar:
            info = tarfile.TarInfo("../outside.txt")
            tar.addfile(info)
    with pytest.raises(models_cli.CliError) as exc:
        _run("install", source)
    assert str(source) in str(exc.value)
    assert not (tmp_path / "outside.txt").exists()


def test_the_bundle_finds_the_folder_beside_it_and_prints_a_posix_line_that_works(folder, monkeypatch, capsys):
    app = folder.parent / "memgui" / "memgui"
    app.parent.mkdir()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(app))
    hint = models_install_hint()
    assert hint == f"{app} models install --from {folder}"
    assert "{" not in hint and "pip" not in hint
    assert subprocess.run(["sh", "-n", "-c", hint]).returncode == 0  # POSIX sh syntax (dash here)
    argv = shlex.split(hint)
    assert argv[1:4] == ["models", "install", "--from"]
    assert _run("status") == 0
    status = _status(capsys)
    assert status["embedder"]["install_from"] == status["decider"]["install_from"] == str(folder)
    # plain `models install` in the bundle takes what is missing from the folder beside it
    assert _run("install") == 0 and all(m["present"] for m in _status(capsys).values())


def test_without_the_folder_the_bundle_says_where_to_put_it(tmp_path, no_packages, monkeypatch):
    app = tmp_path / "dist" / "memgui" / "memgui"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(app))
    hint = models_install_hint()
    assert hint.startswith(f"{app} models install --from {tmp_path / 'dist' / 'memgui-models'}  # copy the")
    assert "pip" not in hint and subprocess.run(["sh", "-n", "-c", hint]).returncode == 0
