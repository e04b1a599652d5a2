"""`memgui info --store PATH [--json]`: what is in a store."""
from __future__ import annotations

from .common import EXIT_OK, open_store_or_fail, print_json


def register(subparsers) -> None:
    p = subparsers.add_parser("info", help="summarise a Netclaw memory store")
    p.add_argument("--store", help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def format_summary(d: dict) -> str:
    lines = [
        f"store:       {d['path']}{'  (read-only)' if d['read_only'] else ''}",
        f"documents:   {d['documents']['live']} live, {d['documents']['tombstoned']} tombstoned",
        f"anchors:     {d['anchors']}",
        f"records:     {d['records']}",
        "checkpoints: " + (", ".join(f"{k} {v}" for k, v in d["checkpoints"].items()) or "none"),
        "embeddings:  " + (", ".join(f"{k} {v}" for k, v in d["embeddings"].items()) or "none"),
        f"memgui schema version: {d['memgui_schema_version']}",
    ]
    if d["legacy_columns"]:
        lines.append("legacy columns: " + ", ".join(d["legacy_columns"]))
    return "\n".join(lines)


def run(args) -> int:
    with open_store_or_fail(args.store, read_only=True) as store:
        summary = store.summary().as_dict()
    if args.json:
        print_json(summary)
    else:
        print(format_summary(summary))
    return EXIT_OK
