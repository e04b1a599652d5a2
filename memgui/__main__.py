"""memgui entry point: argument parsing → CLI subcommand or GUI. The only wiring point."""
from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from . import __version__

EXIT_MISSING_LIBRARY = 3  # the window cannot start: a system library is missing (the message names it)
EXIT_INTERRUPTED = 130  # Ctrl+C (SIGINT): what a shell reports for it


def window_size(text: str) -> tuple[int, int]:
    """ "1366x768" -> (1366, 768)."""
    try:
        width, height = (int(part) for part in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1366x768") from None
    if not (200 <= width <= 10000 and 200 <= height <= 10000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 200 to 10000 pixels")
    return width, height


# Options of the top-level parser that take a value (the value is not a store path or a command).
_VALUE_OPTIONS = ("--store", "--screenshot", "--size")


class OneLineParser(argparse.ArgumentParser):
    """A bad argument is one line on stderr and exit 2 (argparse's own adds the usage block)."""

    def error(self, message: str) -> NoReturn:
        words = self.prog.split()  # a subcommand's prog carries the top-level usage: keep "memgui undo"
        name = " ".join(words[:1] + words[-1:]) if len(words) > 1 else self.prog
        where = f"{words[-1]}: " if len(words) > 1 else ""
        from .cli.common import EXIT_BAD_INPUT

        self.exit(EXIT_BAD_INPUT, f"memgui: {where}{' '.join(message.split())} (see {name} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="memgui", usage="%(prog)s [-h] [--version] [--store PATH] [--screenshot OUT.png] [--size WxH] "
                             "[STORE | COMMAND ...]",
        description="Review, merge and audit an AI agent's memory store.",
        epilog="STORE: open this netclaw.db (or the folder holding it) in the window, as a file manager's "
               "\"Open with memgui\" does; the same as --store STORE.")
    parser.add_argument("--version", action="version", version=f"memgui {__version__}")
    parser.add_argument("--store", help="path to netclaw.db (default: $NETCLAW_HOME, ~/.netclaw, else the demo store)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="open the window, save a screenshot once loaded, exit")
    parser.add_argument("--size", metavar="WxH", type=window_size,
                        help="the window's size, e.g. 1366x768 (default: the saved one); sets a screenshot's size too")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    from .cli import register_all

    register_all(subparsers)
    return parser


def split_store_argument(argv: list[str], commands: set[str]) -> tuple[list[str], str | None]:
    """`memgui PATH` (no command): the first positional argument, when it is not a command name, is a store to
    open in the window (the desktop entry's `Exec=memgui %f`). Returns argv without it, and the path. A word that
    names no file and has no `/` or `.` in it stays in argv, so a misspelt command is still argparse's error."""
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            rest = argv[i + 1:]
            return (argv[:i], rest[0]) if len(rest) == 1 and rest[0] not in commands else (argv, None)
        if token.startswith("-") and token != "-":
            i += 2 if token in _VALUE_OPTIONS else 1
            continue
        if token in commands:
            return argv, None
        if not os.path.lexists(token) and "/" not in token and "." not in token:
            return argv, None  # `memgui scna`: argparse says "invalid choice" and lists the commands
        return argv[:i] + argv[i + 1:], token
    return argv, None


def store_from_argument(path: str) -> str:
    """A folder holding netclaw.db (a Netclaw home) opens that store; any other path is opened as it is, and the
    store opener says what is wrong with it (no such file, not an SQLite database, not a Netclaw store)."""
    folder_store = os.path.join(path, "netclaw.db")
    return folder_store if os.path.isdir(path) and os.path.isfile(folder_store) else path


def main(argv: list[str] | None = None) -> int:
    """The command's exit code. Ctrl+C at any moment — while the modules load too (most of a short command's
    time), not only while it works — is exit 130 with no traceback; a write it cut short was rolled back whole."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None) -> int:
    from .cli.common import EXIT_BAD_INPUT, CliError, refuse_non_utf8_arguments, shown
    from .config import UnusableFolderError

    if sys.stderr is None:  # started with stderr closed (`2>&-`): messages and progress go nowhere, not to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115  # the process's stderr, open until it exits
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = set(next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices)
    argv, store = split_store_argument(argv, commands)
    args = parser.parse_args(argv)
    if args.store == "":  # `--store "$STORE"` with $STORE unset: a store was named, never the located one (window too)
        parser.error("--store: an empty path; give the path of a netclaw.db (or leave --store out)")
    if store is not None:
        if args.store and os.path.abspath(args.store) != os.path.abspath(store):
            parser.error(f"two stores given: --store {args.store} and {store}")
        args.store = store_from_argument(store)
    try:
        refuse_non_utf8_arguments(args)
        if getattr(args, "func", None) is not None:
            return int(args.func(args) or 0)
        return run_main_job(args)
    except (CliError, UnusableFolderError) as exc:
        print(f"memgui: {shown(' '.join(str(exc).split()))}", file=sys.stderr)  # one line, whatever the input held
        return EXIT_BAD_INPUT
    except UnicodeEncodeError as exc:  # text that is not UTF-8 (a surrogate escape) reached the store: refused
        print(f"memgui: an argument or file holds text that is not valid UTF-8 ({exc.reason}); nothing was written",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        if exc.errno not in (errno.ENAMETOOLONG, errno.ELOOP):
            raise
        name = str(exc.filename or "")
        name = name if len(name) <= 120 else f"{name[:60]}…{name[-60:]}"
        too_long = "a path component is longer than the file system allows"
        print(f"memgui: {name}: {too_long if exc.errno == errno.ENAMETOOLONG else exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT


def run_main_job(args) -> int:
    """The reviewer window on the located store (or the demo); a store summary when Qt is unavailable. A system
    library the window needs that is missing is named before Qt starts (Qt's own abort blames xcb-cursor0)."""
    from .system_libraries import tell_the_desktop, window_problem

    problem = window_problem()
    if problem is not None:
        print(f"memgui: {problem}", file=sys.stderr)
        if not (sys.stderr and sys.stderr.isatty()):  # started from the desktop entry: no terminal shows stderr
            tell_the_desktop("memgui cannot open its window", problem)
        return EXIT_MISSING_LIBRARY
    run_gui: Callable[..., int] | None
    try:
        from .gui.app import run_gui
    except ImportError:
        run_gui = None
    if run_gui is None:
        from .cli.common import open_store_or_fail, print_text
        from .cli.info import format_summary

        with open_store_or_fail(args.store, read_only=True) as store:
            print_text(format_summary(store.summary().as_dict()))
        return 0
    return run_gui(store_path=args.store, screenshot=args.screenshot, size=args.size)


if __name__ == "__main__":
    sys.exit(main())
