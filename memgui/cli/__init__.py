"""Headless subcommands. Each module registers its own subparser; `__main__` is the only wiring point.

Exit codes: 0 success, 1 a negative answer (e.g. the guard failed), 2 bad input (bad store, bad file).
"""
from __future__ import annotations

import argparse
import importlib
from typing import Any

# One module per command group; each defines `register(subparsers)` and sets `func` on its parsers.
COMMAND_MODULES = ("info", "demo", "models", "guard", "diff", "evaluate", "merge", "scan", "decide", "accept", "audit",
                   "evaluate_model", "rules", "supersede",
                   "history")


def register_all(subparsers: argparse._SubParsersAction[Any]) -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(subparsers)
