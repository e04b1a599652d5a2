"""memgui's log file: warnings and up from every `memgui.*` logger, llama.cpp's own lines among them
(`memgui.llama`), in the cache dir — never the terminal."""
from __future__ import annotations

from pathlib import Path

LOG_NAME = "memgui.log"


def log_path() -> Path:
    from ..config import user_cache_dir

    return user_cache_dir() / LOG_NAME


def setup_log() -> Path | None:
    """memgui's log file (warnings and up, llama.cpp's own among them): one handler on the `memgui` logger,
    rotated at 1 MB. None when it cannot be written (the window runs without it)."""
    import logging
    from logging.handlers import RotatingFileHandler

    root = logging.getLogger("memgui")
    if any(isinstance(h, RotatingFileHandler) for h in root.handlers):
        return log_path()
    try:
        path = log_path()
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.setLevel(logging.WARNING)
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    return path
