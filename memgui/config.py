"""Settings and paths. No Qt.

Curation defaults are Netclaw's own (`Memory.Curation` in `{NETCLAW_HOME}/config/netclaw.json`); when
that file exists its values win, so memgui judges with the user's own settings. memgui's overrides
(from the GUI settings or CLI flags) are applied on top with `dataclasses.replace`.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

APP_NAME = "memgui"

# Environment overrides keep tests and portable installs away from the real user dirs.
_DATA_ENV = "MEMGUI_DATA_DIR"
_CACHE_ENV = "MEMGUI_CACHE_DIR"


def user_data_dir() -> Path:
    """Where the demo store and assembled models live (never inside the installed package)."""
    override = os.environ.get(_DATA_ENV)
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_cache_dir() -> Path:
    """Where computed vectors and hnswlib index files live, keyed by store and model."""
    override = os.environ.get(_CACHE_ENV)
    path = Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def models_dir() -> Path:
    """Assembled/converted model files. Separate from user_data_dir so tests that isolate the data dir
    still share the models `make test` installed (MEMGUI_MODELS_DIR overrides)."""
    override = os.environ.get("MEMGUI_MODELS_DIR")
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


def netclaw_home() -> Path:
    """Netclaw's BasePath: $NETCLAW_HOME (home-expanded) else ~/.netclaw (spec §1)."""
    env = os.environ.get("NETCLAW_HOME")
    return Path(env).expanduser().absolute() if env else Path("~/.netclaw").expanduser().absolute()


def resources_dir() -> Path:
    """`resources/` of a source checkout (editable install) or of an installed wheel's data files."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "resources", Path(os.sys.prefix) / "share" / "memgui" / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("memgui resources/ folder not found; reinstall memgui")


@dataclass(frozen=True)
class CurationSettings:
    """Netclaw `Memory.Curation` keys (spec §12) plus memgui's own knobs."""

    nominator_similarity_threshold: float = 0.86
    nominator_k: int = 5
    llm_max_output_tokens: int = 4096
    llm_timeout_seconds: float = 10.0
    # memgui-only: the interactive window's own, longer, visible and cancellable limit.
    interactive_llm_timeout_seconds: float = 120.0
    llm_threads: int = max(1, min(4, os.cpu_count() or 2))
    llm_context: int = 4096
    embedding_model_id: str | None = None  # Netclaw's Memory.Embeddings.ModelId when configured
    source: str = "defaults"  # "defaults" or the path of the netclaw.json they came from


_CURATION_KEYS = {
    "NominatorSimilarityThreshold": ("nominator_similarity_threshold", float),
    "NominatorK": ("nominator_k", int),
    "LlmMaxOutputTokens": ("llm_max_output_tokens", int),
    "LlmTimeoutSeconds": ("llm_timeout_seconds", float),
}


def _get_ci(mapping: dict, key: str):
    """Case-insensitive dict lookup (System.Text.Json config binding is case-insensitive)."""
    if not isinstance(mapping, dict):
        return None
    for k, v in mapping.items():
        if isinstance(k, str) and k.lower() == key.lower():
            return v
    return None


def load_curation_settings(home: Path | None = None) -> CurationSettings:
    """Defaults, overridden by `{home}/config/netclaw.json` Memory.Curation when present and valid."""
    path = (home or netclaw_home()) / "config" / "netclaw.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return CurationSettings()
    memory = _get_ci(data, "Memory") or {}
    curation = _get_ci(memory, "Curation") or {}
    values: dict = {"source": str(path)}
    for key, (attr, cast) in _CURATION_KEYS.items():
        raw = _get_ci(curation, key)
        if raw is None:
            continue
        try:
            values[attr] = cast(raw)
        except (TypeError, ValueError):
            continue
    model_id = _get_ci(_get_ci(memory, "Embeddings") or {}, "ModelId")
    if isinstance(model_id, str) and model_id.strip():
        values["embedding_model_id"] = model_id.strip()
    return CurationSettings(**values)
