"""GGUF models already on the machine: a user-given path, Ollama's store and LM Studio's models folder.

Only local files are read (no network, no model loading). The quantisation comes from the GGUF header
(`general.file_type`), read with a small header reader that stops as soon as it has what it needs, so
listing a 5 GB model reads a few kilobytes (plus the tokenizer arrays when they come first).
"""
from __future__ import annotations

import json
import os
import re
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

OLLAMA_MODEL_MEDIA_TYPE = "application/vnd.ollama.image.model"
GGUF_MAGIC = b"GGUF"

# llama.cpp's `llama_ftype` values (general.file_type) → the usual quantisation names.
FILE_TYPE_NAMES = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 4: "Q4_1_SOME_F16", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1",
    10: "Q2_K", 11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS", 23: "IQ3_XXS",
    24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S", 29: "IQ2_M", 30: "IQ4_XS",
    31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0", 38: "MXFP4_MOE",
}
_QUANT_IN_NAME = re.compile(
    r"(?<![A-Za-z0-9])(I?Q\d(?:_[A-Z0-9]+)*|F16|F32|BF16|MXFP4(?:_MOE)?)(?![A-Za-z0-9])", re.IGNORECASE
)

# GGUF value types → struct formats (little-endian); 8 = string, 9 = array.
_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_WANTED = ("general.file_type", "general.architecture", "general.name")


@dataclass(frozen=True)
class DiscoveredModel:
    path: Path
    name: str
    size_bytes: int
    quantization: str | None  # e.g. "Q4_K_M"; None when neither the header nor the file name says
    source: str  # "user" | "ollama" | "lmstudio" | "memgui"
    architecture: str | None = None  # general.architecture, e.g. "qwen2", "llama", "bert", "clip"


@dataclass(frozen=True)
class GgufHeaderInfo:
    version: int
    file_type: int | None
    architecture: str | None
    name: str | None


class GgufHeaderError(ValueError):
    """Not a GGUF file, or a header this reader does not understand."""


def _read(f: BinaryIO, fmt: str) -> Any:  # one value unpacked by `fmt` (an int, float or bool)
    size = struct.calcsize(fmt)
    data = f.read(size)
    if len(data) != size:
        raise GgufHeaderError("truncated GGUF header")
    return struct.unpack(fmt, data)[0]


def _read_string(f: BinaryIO) -> bytes:
    length = _read(f, "<Q")
    if length > 1 << 30:
        raise GgufHeaderError("implausible string length in GGUF header")
    data = f.read(length)
    if len(data) != length:
        raise GgufHeaderError("truncated GGUF header")
    return data


def _skip_value(f: BinaryIO, vtype: int) -> None:
    if vtype in _SCALAR:
        f.seek(struct.calcsize(_SCALAR[vtype]), os.SEEK_CUR)
    elif vtype == _STRING:
        f.seek(_read(f, "<Q"), os.SEEK_CUR)
    elif vtype == _ARRAY:
        item_type, count = _read(f, "<I"), _read(f, "<Q")
        if item_type in _SCALAR:
            f.seek(struct.calcsize(_SCALAR[item_type]) * count, os.SEEK_CUR)
        else:
            for _ in range(count):
                _skip_value(f, item_type)
    else:
        raise GgufHeaderError(f"unknown GGUF value type {vtype}")


def read_gguf_header(path: Path) -> GgufHeaderInfo:
    """general.file_type / architecture / name from a GGUF v2/v3 header (little-endian)."""
    found: dict[str, object] = {}
    with open(path, "rb", buffering=1 << 16) as f:
        if f.read(4) != GGUF_MAGIC:
            raise GgufHeaderError(f"{path.name} is not a GGUF file")
        version = _read(f, "<I")
        if version not in (2, 3):
            raise GgufHeaderError(f"unsupported GGUF version {version}")
        _read(f, "<Q")  # tensor count
        kv_count = _read(f, "<Q")
        for _ in range(kv_count):
            key = _read_string(f).decode("utf-8", "replace")
            vtype = _read(f, "<I")
            if key in _WANTED and (vtype in _SCALAR or vtype == _STRING):
                found[key] = _read_string(f).decode("utf-8", "replace") if vtype == _STRING else _read(f, _SCALAR[vtype])
                if all(k in found for k in _WANTED):
                    break
            else:
                _skip_value(f, vtype)
    file_type = found.get("general.file_type")
    return GgufHeaderInfo(
        version=version,
        file_type=int(file_type) if isinstance(file_type, (int, float)) else None,
        architecture=architecture if isinstance(architecture := found.get("general.architecture"), str) else None,
        name=name if isinstance(name := found.get("general.name"), str) else None,
    )


def quantization_from_name(name: str) -> str | None:
    match = _QUANT_IN_NAME.search(name)
    return match.group(1).upper() if match else None


def describe_gguf(path: Path, *, name: str | None = None, source: str = "user") -> DiscoveredModel | None:
    """A DiscoveredModel for one file, or None when it is not a readable GGUF file."""
    try:
        info = read_gguf_header(path)
        size = path.stat().st_size
    except (OSError, GgufHeaderError):
        return None
    quant = FILE_TYPE_NAMES.get(info.file_type) if info.file_type is not None else None
    quant = quant or quantization_from_name(name or path.name)
    return DiscoveredModel(path=path, name=name or path.stem, size_bytes=size, quantization=quant,
                           source=source, architecture=info.architecture)


def _gguf_files_under(root: Path, max_depth: int = 6) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    if not root.is_dir():
        return
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        if len(Path(dirpath).parts) - base_depth >= max_depth:
            dirnames[:] = []
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for fn in sorted(filenames):
            if fn.lower().endswith(".gguf"):
                yield Path(dirpath) / fn


def ollama_roots(home: Path) -> list[Path]:
    roots = []
    env = os.environ.get("OLLAMA_MODELS")
    if env:
        roots.append(Path(env).expanduser())
    roots += [home / ".ollama" / "models", Path("/usr/share/ollama/.ollama/models")]
    return roots


def lmstudio_roots(home: Path) -> list[Path]:
    return [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"]


def _ollama_models(root: Path) -> Iterator[DiscoveredModel]:
    manifests = root / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):  # a 100k-deep manifest is skipped too
            continue
        layers = data.get("layers") if isinstance(data, dict) else None
        for layer in layers or []:
            if not isinstance(layer, dict) or layer.get("mediaType") != OLLAMA_MODEL_MEDIA_TYPE:
                continue
            digest = str(layer.get("digest", ""))
            blob = root / "blobs" / digest.replace(":", "-")
            rel = manifest.relative_to(manifests).parts  # registry/namespace/model/tag
            model, tag = (rel[-2], rel[-1]) if len(rel) >= 2 else (rel[-1], "latest")
            namespace = rel[-3] if len(rel) >= 3 else "library"
            name = f"{model}:{tag}" if namespace == "library" else f"{namespace}/{model}:{tag}"
            found = describe_gguf(blob, name=name, source="ollama")
            if found is not None:
                yield found


def discover_gguf_models(
    extra_paths: Iterable[str | os.PathLike[str]] = (),
    *,
    home: Path | None = None,
    include_default: bool = True,
) -> list[DiscoveredModel]:
    """GGUF models from `extra_paths` (files or folders), Ollama, LM Studio and memgui's own models folder.
    Each file is listed once (first source wins), in that order."""
    home = home or Path.home()
    results: list[DiscoveredModel] = []
    seen: set[Path] = set()

    def add(model: DiscoveredModel | None) -> None:
        if model is None:
            return
        key = model.path.resolve()
        if key not in seen:
            seen.add(key)
            results.append(model)

    for raw in extra_paths:
        for f in _gguf_files_under(Path(raw).expanduser()):
            add(describe_gguf(f, source="user"))
    for root in ollama_roots(home):
        for m in _ollama_models(root):
            add(m)
    for root in lmstudio_roots(home):
        for f in _gguf_files_under(root):
            rel = f.relative_to(root).with_suffix("")
            add(describe_gguf(f, name=rel.as_posix(), source="lmstudio"))
    if include_default:
        from ...config import models_dir

        for f in _gguf_files_under(models_dir(), max_depth=1):
            add(describe_gguf(f, source="memgui"))
    return results
