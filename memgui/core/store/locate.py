"""Which store to open: --store PATH, else $NETCLAW_HOME/netclaw.db, else ~/.netclaw/netclaw.db,
else the demo store (built on first use into the user data dir) — Netclaw's own order, where ~/.netclaw is the
home only while $NETCLAW_HOME is unset. A $NETCLAW_HOME that names no folder is refused (StoreError): the user
named a home, so neither ~/.netclaw nor the demo stands in for it; one that holds no store yet opens the demo.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import StoreError


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
        home = Path(os.path.expanduser(env)).absolute()
        if not home.is_dir():  # a home the user named that is not there: never someone else's store, nor the demo
            what = "is not a folder" if os.path.lexists(home) else "does not exist"
            raise StoreError(f"$NETCLAW_HOME ({env}) {what}: no store was opened; correct it, unset it (to use "
                             "~/.netclaw/netclaw.db or the demo store) or pass --store PATH")
        candidate = home / "netclaw.db"
        if os.path.lexists(candidate):  # a file, or something that is not one (the opener says what is wrong)
            return LocatedStore(candidate, "NETCLAW_HOME")
    # Netclaw's own home is $NETCLAW_HOME when it is set, ~/.netclaw only when it is not (spec: PATHS): a home
    # with no store yet is the demo's case, never another agent's ~/.netclaw
    home_candidate = Path("~/.netclaw").expanduser().absolute() / "netclaw.db"
    if not env and home_candidate.is_file():
        return LocatedStore(home_candidate, "home")
    if demo_path is None:
        from ...config import user_data_dir

        demo_path = user_data_dir() / "demo" / "netclaw.db"
    return LocatedStore(demo_path, "demo")
