"""memgui entry point: argument parsing → CLI subcommand or GUI. The only wiring point."""
from __future__ import annotations

import argparse
import sys

from . import __version__
from .cli import register_all
from .cli.common import EXIT_BAD_INPUT, CliError
from .config import UnusableFolderError


def window_size(text: str) -> tuple[int, int]:
    """ "1366x768" -> (1366, 768)."""
    try:
        width, height = (int(part) for part in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1366x768") from None
    if not (200 <= width <= 10000 and 200 <= height <= 10000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 200 to 10000 pixels")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memgui", description="Review, merge and audit an AI agent's memory store.")
    parser.add_argument("--version", action="version", version=f"memgui {__version__}")
    parser.add_argument("--store", help="path to netclaw.db (default: $NETCLAW_HOME, ~/.netclaw, else the demo store)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="open the window, save a screenshot once loaded, exit")
    parser.add_argument("--size", metavar="WxH", type=window_size,
                        help="the window's size, e.g. 1366x768 (default: the saved one); sets a screenshot's size too")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    register_all(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if getattr(args, "func", None) is not None:
            return int(args.func(args) or 0)
        return run_main_job(args)
    except (CliError, UnusableFolderError) as exc:
        print(f"memgui: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def run_main_job(args) -> int:
    """The reviewer window on the located store (or the demo); a store summary when Qt is unavailable."""
    try:
        from .gui.app import run_gui
    except ImportError:
        run_gui = None
    if run_gui is None:
        from .cli.common import open_store_or_fail
        from .cli.info import format_summary

        with open_store_or_fail(args.store, read_only=True) as store:
            print(format_summary(store.summary().as_dict()))
        return 0
    return run_gui(store_path=args.store, screenshot=args.screenshot, size=args.size)


if __name__ == "__main__":
    sys.exit(main())
