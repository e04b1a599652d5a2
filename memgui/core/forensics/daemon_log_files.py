"""Where Netclaw's daemon logs are, and which files a person's paths name (daemon_logs.py reads them)."""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

LOG_GLOB = "daemon*.log"


class DaemonLogError(ValueError):
    """A log path a person named does not exist or cannot be read (one line, nothing parsed)."""


def default_log_dirs(store_path: str | os.PathLike[str] | None = None) -> list[Path]:
    """Where Netclaw writes its logs: `{BasePath}/logs` next to the store, else `$NETCLAW_HOME/logs`."""
    from ...config import netclaw_home

    dirs = []
    if store_path is not None:
        dirs.append(Path(store_path).absolute().parent / "logs")
    dirs.append(netclaw_home() / "logs")
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def _dir_logs(folder: Path) -> list[Path]:
    found = [p for p in folder.glob(LOG_GLOB) if p.is_file()]
    if not found:  # a folder of logs named some other way
        found = [p for p in folder.glob("*.log") if p.is_file()]
    # dated/rolled files first, the live `daemon.log` last
    return sorted(found, key=lambda p: (p.name == "daemon.log", p.name))


def find_daemon_logs(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files to read for the given files and folders (a folder gives its `daemon*.log`, else its `*.log`).
    Raises DaemonLogError naming the first path that does not exist."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            out.extend(_dir_logs(path))
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise DaemonLogError(f"{path}: not a regular file or folder")
        else:
            raise DaemonLogError(f"{path}: no such log file or folder")
    return list(dict.fromkeys(out))


__all__ = ["LOG_GLOB", "DaemonLogError", "default_log_dirs", "find_daemon_logs"]
