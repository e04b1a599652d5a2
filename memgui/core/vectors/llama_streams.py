"""Loading a llama.cpp model without taking the process's output away (used by the embedder and the decider),
and llama.cpp's own log in memgui's log (logger `memgui.llama`), never on the terminal."""
from __future__ import annotations

import logging

LOGGER = logging.getLogger("memgui.llama")
# Never Python's last-resort handler (which writes WARNING and up to stderr): the lines reach memgui's log
# when the app has one (the window's log file), and nothing else.
LOGGER.addHandler(logging.NullHandler())
# ggml.h's ggml_log_level: NONE 0, DEBUG 1, INFO 2, WARN 3, ERROR 4, CONT 5 (continues the previous line).
# llama-cpp-python 0.3's own callback still reads the older order (WARN as ERROR), so it printed every load's
# warnings on stderr even with verbose=False.
_LEVELS = {0: logging.CRITICAL, 1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}
_callback: object | None = None  # the ctypes callback llama.cpp holds: kept alive here
_pending: list[str] = []
_pending_level = logging.DEBUG


def _log(level: int, text: bytes) -> None:
    """llama.cpp's log lines, whole (its CONT pieces joined), at their levels (llama.cpp's INFO as DEBUG: it
    says a model's every tensor)."""
    global _pending_level
    piece = text.decode("utf-8", "replace") if text else ""
    if level != 5:
        _pending_level = _LEVELS.get(level, logging.DEBUG)
    _pending.append(piece)
    if piece.endswith("\n"):
        line = "".join(_pending).rstrip()
        _pending.clear()
        if line:
            LOGGER.log(logging.DEBUG if _pending_level == logging.INFO else _pending_level, "%s", line)


def route_llama_log() -> None:
    """Send llama.cpp's (and ggml's) log to `memgui.llama` instead of stderr. Idempotent."""
    global _callback
    if _callback is not None:
        return
    import ctypes

    import llama_cpp

    @llama_cpp.llama_log_callback  # type: ignore[untyped-decorator]  # a ctypes CFUNCTYPE: llama-cpp-python leaves it untyped
    def callback(level: int, text: bytes, _user: ctypes.c_void_p) -> None:
        try:
            _log(int(level), text)
        except Exception:  # a log line must never raise into llama.cpp
            pass

    _callback = callback
    llama_cpp.llama_log_set(callback, ctypes.c_void_p(0))


class _NoRedirect:
    def __init__(self, disable: bool = True):
        pass

    def __enter__(self) -> _NoRedirect:
        return self

    def __exit__(self, *_: object) -> None:
        return None


def keep_output_streams() -> None:
    """llama-cpp-python hides llama.cpp's chatter by pointing the whole process's stdout and stderr at
    /dev/null while a model loads. A model loads on a worker thread here, so every other thread's output in
    that time was lost (the window's "screenshot saved", a CLI's progress). Its log callback already drops
    all but errors when not verbose, so that redirection is turned off."""
    import llama_cpp._internals as internals
    import llama_cpp.llama as llama_module

    internals.suppress_stdout_stderr = _NoRedirect  # type: ignore[misc, assignment]  # a stand-in class, on purpose
    llama_module.suppress_stdout_stderr = _NoRedirect  # type: ignore[misc, assignment]  # a stand-in class, on purpose
    route_llama_log()


__all__ = ["LOGGER", "keep_output_streams", "route_llama_log"]
