"""`memgui demo [--out PATH] [--force]`: build the demo store from the corpus in resources/demo/."""
from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from .common import EXIT_OK, CliError, print_text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "demo",
        help="build the demo memory store (a fictional person's memory with labelled near-duplicates)",
        description="Build a Netclaw memory store from memgui's hand-written demo corpus. "
        "Without --out it goes where memgui looks for the demo (the user data dir).",
    )
    p.add_argument("--out", metavar="PATH", help="where to write netclaw.db (default: <user data dir>/demo/netclaw.db)")
    p.add_argument("--force", action="store_true", help="rebuild even if the file already exists (replaces it)")
    p.set_defaults(func=run)


def summary_line(path: Path) -> str:
    """One line: what is in the demo store and how much of it is labelled."""
    from ..core.store import StoreError, open_store
    from ..core.store.demo import demo_labels

    try:
        with open_store(path, read_only=True) as store:
            s = store.summary()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    counts = demo_labels().get("counts", {})
    return (
        f"{s.live_documents} live + {s.tombstoned_documents} tombstoned documents, {s.anchors} anchors, "
        f"{s.records} records, {sum(s.checkpoints_by_status.values())} checkpoints; "
        f"labels: {counts.get('duplicate_clusters', 0)} duplicate clusters, {counts.get('sibling_pairs', 0)} sibling pairs"
    )


def run(args: argparse.Namespace) -> int:
    from ..core.store import StoreError
    from ..core.store.demo import DemoCorpusError, build_demo_store, default_demo_path

    target = Path(args.out).expanduser().absolute() if args.out else default_demo_path()
    if target.is_dir():
        raise CliError(f"{target}: is a directory; give the path of the netclaw.db file to write")
    existed = target.exists()
    try:
        path = build_demo_store(target, force=args.force)
    except DemoCorpusError as exc:
        raise CliError(f"demo corpus is broken: {exc}") from None
    except StoreError as exc:  # a full disk, a file-size limit: the half-built file is gone
        raise CliError(str(exc)) from None
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise CliError(f"{target}: cannot write the demo store ({reason}); nothing was written") from None
    line = summary_line(path)  # refuses (exit 2) a kept file that is not a Netclaw store
    if existed and not args.force:
        print_text(f"demo store already exists (kept; use --force to rebuild): {path}")
    else:
        print_text(f"demo store built: {path}")
    print_text(line)
    return EXIT_OK
