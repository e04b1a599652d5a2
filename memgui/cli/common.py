"""Helpers shared by the subcommands: opening the store with a one-line error, JSON output, progress."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from ..core.store import Store, StoreError, open_store
from ..core.store.locate import locate_store
from ..core.tasks import Progress

T = TypeVar("T")

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2


class CliError(Exception):
    """A user-facing failure: printed as one line, exit code 2."""


def open_store_or_fail(path: str | None, *, read_only: bool = False) -> Store:
    """The store named by --store, else Netclaw's own (NETCLAW_HOME, ~/.netclaw), else the demo store
    (built on first use). Any reason it cannot be opened becomes a one-line CliError (exit 2)."""
    if path:
        _check_path(path)
    try:
        located = locate_store(path)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if located.is_demo and not located.path.exists():
        _build_demo(located.path)
    try:
        return open_store(located.path, read_only=read_only)
    except StoreError as exc:
        raise CliError(str(exc)) from None


def _check_path(path: str) -> None:
    from ..core.store.seams import SeamError, check_path

    try:
        check_path(path)
    except SeamError as exc:
        raise CliError(str(exc)) from None


def read_seam(reader: Callable[[str], T], path: str) -> T:
    """`reader(path)` (a core.store.seams reader), with its one-line SeamError as a CliError (exit 2)."""
    from ..core.store.seams import SeamError

    _check_path(path)
    try:
        return reader(path)
    except SeamError as exc:
        raise CliError(str(exc)) from None


def read_input(name: str, what: str) -> bytes:
    """The bytes of file `name` (or of standard input for '-'), bounded as every seam file is: a folder, a pipe
    nobody writes to, an endless device (/dev/zero) or a file beyond the limit is a one-line CliError (exit 2)."""
    from ..core.store.seams import MAX_FILE_BYTES, read_bytes

    if name != "-":
        return read_seam(lambda p: read_bytes(p, what), name)
    if sys.stdin is None:
        raise CliError(f"standard input is closed; give {what} as a file")
    try:
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CliError(f"standard input: cannot be read ({exc.strerror or type(exc).__name__})") from None
    if len(data) > MAX_FILE_BYTES:
        raise CliError(f"standard input: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; not {what}")
    return data


def read_text(name: str, what: str) -> str:
    """The text of file `name` (or standard input for '-'), read as every text file a user hands memgui is
    (core/store/seams.text_file: UTF-8, a BOM dropped, no NUL, bounded); else a one-line CliError (exit 2)."""
    from ..core.store.seams import SeamError, text_file

    data = read_input(name, what)
    try:
        return text_file(data, "standard input" if name == "-" else name, what)
    except SeamError as exc:
        raise CliError(str(exc)) from None


def int64_arg(text: str) -> int:
    """argparse `type=`: an integer in SQLite's range (an audit id, a limit)."""
    from ..core.store.seams import SeamError, int64

    try:
        return int64(text)
    except SeamError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def count_arg(text: str) -> int:
    """argparse `type=`: a count, 1 … SQLite's largest integer."""
    value = int64_arg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of at least 1")
    return value


def small_count_arg(text: str) -> int:
    """argparse `type=`: a small count (threads, tokens of context, nominees), 1 … 1,000,000."""
    value = count_arg(text)
    if value > 1_000_000:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number from 1 to 1000000")
    return value


def seconds_arg(text: str) -> float:
    """argparse `type=`: a finite, positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (0 < value < 10 ** 9):
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds above 0 (and below 10^9)")
    return value


# Arguments that are text (ids, notes, names), not paths: a path may hold any bytes its file system allows, but
# an id or a note with a byte that is not UTF-8 (Python's surrogate escape) can be neither looked up nor stored.
TEXT_ARGUMENTS = ("target", "sources", "docs", "note", "document", "batch_id", "operation", "title", "anchor",
                  "anchor_type", "memory_class", "pipeline")


def refuse_non_utf8_arguments(args: argparse.Namespace) -> None:
    """CliError (one line, exit 2) when a text argument is not valid UTF-8 (`audit --model` is a model id)."""
    names = TEXT_ARGUMENTS + (("model",) if getattr(args, "command", None) == "audit" else ())
    for name in names:
        value = getattr(args, name, None)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and not _is_utf8(item):
                raise CliError(f"--{name.replace('_', '-')}: not valid UTF-8 text; nothing was done")


def document_id_arg(text: str | None, option: str) -> str:
    """One document id, exactly as given. Netclaw's ids are exact strings (the storage key is matched as it
    is), so an id with whitespace around it, or an empty one, is refused naming it — on every command that takes
    ids (merge, diff, decide, audit) — rather than trimmed on some and looked up as typed on others."""
    from ..core.netfx import is_blank, net_trim

    if text is None or is_blank(text):
        raise CliError(f"{option}: an empty document id; nothing was done")
    if net_trim(text) != text:
        raise CliError(f"{option}: {text!r} has whitespace around it; a document id is matched exactly as "
                       f"given (no spaces, also not after a comma); nothing was done")
    return text


def document_ids_arg(text: str | None, option: str) -> list[str]:
    """Comma-separated document ids, each exactly as given (`document_id_arg`): an empty one (`A,,B`, a trailing
    comma) is refused too; an id given twice counts once."""
    return list(dict.fromkeys(document_id_arg(part, option) for part in (text or "").split(",")))


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _build_demo(target: Path) -> None:
    try:
        from ..core.store.demo import build_demo_store
    except ImportError:
        raise CliError(
            "no Netclaw store found ($NETCLAW_HOME/netclaw.db, ~/.netclaw/netclaw.db) and the demo store "
            "is not available in this install; pass --store PATH"
        ) from None
    try:
        build_demo_store(target)
    except (StoreError, OSError, ValueError) as exc:
        raise CliError(f"could not build the demo store at {target}: {exc}") from None


@contextmanager
def store_errors_as_cli_errors() -> Iterator[None]:
    """Turn a StoreError raised while working with an open store (a lock, damage found mid-read) into
    the one-line CliError the entry point prints with exit code 2."""
    try:
        yield
    except StoreError as exc:
        raise CliError(str(exc)) from None


def decider_model_path(model: str | None) -> Path | None:
    """`--model FILE` (refused when there is no such file), else the installed default decider; None when no
    default is installed (each command says what that means for it)."""
    if model:
        _check_path(model)
        path = Path(os.path.expanduser(model))  # `~nobody/…` stays as it is: "no such model file"
        if not path.is_file():
            raise CliError(f"{model}: no such model file")
        _require_gguf(path)
        return path
    from ..core.decide.model_files import default_model_path

    return default_model_path()


def _require_gguf(path: Path) -> None:
    """A model file must be a GGUF file (it starts with the GGUF magic): anything else (a text file, an empty
    file, another format) is an error, never a silent fallback to the model-free draft."""
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise CliError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    if magic != b"GGUF":
        raise CliError(f"{path}: not a GGUF model file (it does not start with the GGUF magic); nothing was done")


# Control characters a terminal acts on (ESC starts a sequence that can retitle the window, clear the screen or set
# the clipboard; C1 0x9b is CSI on some terminals; a lone CR rewrites the line): a title or body holding them (text
# an agent copied from a web page) is shown, never obeyed. Newlines, tabs and CRLF line ends stay as they are.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


def shown(text: str) -> str:
    """`text` with its terminal control characters written out (`\\x1b`), fit for a terminal."""
    return _TERMINAL_CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def print_json(value: Any) -> None:
    """JSON on stdout; the control characters json.dumps leaves raw (DEL, C1) as \\u escapes: the same value."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    print_text(_TERMINAL_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def print_text(text: str) -> None:
    """Write a line to stdout, its terminal control characters shown as `\\x1b` (`_TERMINAL_CONTROLS`); a reader
    that went away (`memgui info | head`) is not an error. Output that cannot be written (stdout closed,
    `> /dev/full`, a full disk) is a one-line CliError: never exit 0 with it lost."""
    text = shown(text)
    if sys.stdout is None:
        raise CliError("standard output is closed: the answer could not be printed")
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    except (OSError, ValueError) as exc:
        _quiet_stdout()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "it is closed"
        raise CliError(f"standard output: cannot be written ({reason}); the answer was not printed") from None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush of what it still buffers stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def progress_to_stderr(progress: Progress) -> None:
    if progress.total:
        sys.stderr.write(f"\r{progress.stage}: {progress.done}/{progress.total} {progress.message}".ljust(60))
        if progress.done >= progress.total:
            sys.stderr.write("\n")
    elif progress.message:
        sys.stderr.write(f"{progress.stage}: {progress.message}\n")
    sys.stderr.flush()
