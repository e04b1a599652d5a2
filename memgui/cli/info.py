"""`memgui info --store PATH [--json]`: what is in a store. Opens it read-only and changes nothing (memgui's
own tables are not created or migrated, so a store memgui never wrote reports schema version 0)."""
from __future__ import annotations

import argparse
from typing import Any

from .common import EXIT_OK, open_store_or_fail, print_json, print_text, store_errors_as_cli_errors


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("info", help="summarise a Netclaw memory store")
    # SUPPRESS: without --store here, `memgui --store PATH info` keeps the top-level value.
    p.add_argument("--store", default=argparse.SUPPRESS,
                   help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _counts(mapping: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items()) or "none"


def format_summary(d: dict[str, Any]) -> str:
    reason = f" ({d['read_only_reason']})" if d.get("read_only_reason") else ""
    access = f"read-only{reason}" if d["read_only"] else "writable"
    lines = [
        f"store:       {d['path']}",
        f"access:      {access}",
        f"documents:   {d['documents']['live']} live, {d['documents']['tombstoned']} tombstoned",
        f"anchors:     {d['anchors']}",
        f"records:     {d['records']}",
        "checkpoints: " + _counts(d["checkpoints"]),
        "embeddings:  " + _counts(d["embeddings"]),
        f"memgui schema version: {d['memgui_schema_version']}",
    ]
    if d["legacy_columns"]:
        lines.append("legacy columns: " + ", ".join(d["legacy_columns"]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    with store_errors_as_cli_errors(), open_store_or_fail(getattr(args, "store", None), read_only=True) as store:
        summary = store.summary().as_dict()
    if args.json:
        print_json(summary)
    else:
        print_text(format_summary(summary))
    return EXIT_OK
