"""Helpers shared by the subcommands: opening the store with a one-line error, JSON output, progress."""
from __future__ import annotations

import json
import sys
from typing import Any

from ..core.store import Store, StoreError, open_store
from ..core.store.locate import locate_store
from ..core.tasks import Progress

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2


class CliError(Exception):
    """A user-facing failure: printed as one line, exit code 2."""


def open_store_or_fail(path: str | None, *, read_only: bool = False) -> Store:
    located = locate_store(path)
    if located.is_demo and not located.path.exists():
        from ..core.demo import build_demo_store

        build_demo_store(located.path)
    try:
        return open_store(located.path, read_only=read_only)
    except StoreError as exc:
        raise CliError(str(exc)) from None


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False, default=str)
    sys.stdout.write("\n")


def progress_to_stderr(progress: Progress) -> None:
    if progress.total:
        sys.stderr.write(f"\r{progress.stage}: {progress.done}/{progress.total} {progress.message}".ljust(60))
        if progress.done >= progress.total:
            sys.stderr.write("\n")
    elif progress.message:
        sys.stderr.write(f"{progress.stage}: {progress.message}\n")
    sys.stderr.flush()
