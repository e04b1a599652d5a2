"""Which store to open: --store PATH, else $NETCLAW_HOME/netclaw.db, else ~/.netclaw/netclaw.db,
else the demo store (built on first use into the user data dir)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LocatedStore:
    path: Path
    origin: str  # "argument" | "NETCLAW_HOME" | "home" | "demo"

    @property
    def is_demo(self) -> bool:
        return self.origin == "demo"


def locate_store(explicit: str | os.PathLike[str] | None = None, *, demo_path: Path | None = None) -> LocatedStore:
    if explicit:
        # os.path.expanduser leaves `~nobody/…` as it is (pathlib raises): the opener then says "no such file"
        return LocatedStore(Path(os.path.expanduser(explicit)).absolute(), "argument")
    env = os.environ.get("NETCLAW_HOME")
    if env:
        candidate = Path(os.path.expanduser(env)).absolute() / "netclaw.db"
        if candidate.is_file():
            return LocatedStore(candidate, "NETCLAW_HOME")
    home_candidate = Path("~/.netclaw").expanduser().absolute() / "netclaw.db"
    if home_candidate.is_file():
        return LocatedStore(home_candidate, "home")
    if demo_path is None:
        from ...config import user_data_dir

        demo_path = user_data_dir() / "demo" / "netclaw.db"
    return LocatedStore(demo_path, "demo")
