"""The reviewer window (PySide6). The only package that imports Qt; it holds no business logic."""
from __future__ import annotations

import ctypes
import sys


def _pin_singletons_for_pyside_6_12() -> bool:
    """PySide6 6.12.0 (abi3 wheel) drops one reference to None on every call of a C++ method returning
    void, and one to True/False on every Signal.emit, when run on CPython < 3.12 (where these objects are
    not immortal). After a few thousand calls CPython aborts with "Fatal Python error: none_dealloc".
    Measured here: 200 `QWidget.update()` calls → None's refcount −200; 6.11.3 loses nothing.

    The fix is to run 6.11.x (or Python ≥ 3.12); until then, give the three singletons a reference count
    no program can drain — the same thing CPython 3.12 does by making them immortal. Only applied on the
    affected combination. Returns True when applied."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    try:
        from importlib.metadata import version

        pyside = version("PySide6-Essentials")
    except Exception:  # noqa: BLE001 - not installed as a distribution: check the module itself
        try:
            import PySide6

            pyside = PySide6.__version__
        except Exception:  # noqa: BLE001
            return False
    if not pyside.startswith("6.12."):
        return False
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40
    return True


PYSIDE_REFCOUNT_WORKAROUND = _pin_singletons_for_pyside_6_12()
