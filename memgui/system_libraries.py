"""Before the window opens: are the system libraries Qt needs for this display there? No Qt import here.

Qt loads its platform plugin (xcb for X11, wayland, offscreen) when the application starts, and when one of the
plugin's system libraries is missing it aborts with a message that blames `xcb-cursor0` whatever is missing
(e.g. libxcb-icccm4). So the entry point asks first: it reads the ELF dependencies (DT_NEEDED) of PySide6's
modules and of the plugin Qt will load, follows those that ship with memgui (PySide6/Qt/lib, the bundle's own
folder), and loads each of the others with `ctypes.CDLL`, as the dynamic loader would. Whatever cannot be
loaded is named, with the Debian/Ubuntu package that usually provides it.
"""
from __future__ import annotations

import _ctypes
import ctypes
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

# ELF dynamic-section tags
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 15, 29
_PT_LOAD, _PT_DYNAMIC = 1, 2


@dataclass(frozen=True)
class ElfDeps:
    needed: tuple[str, ...]
    search: tuple[str, ...]  # RPATH/RUNPATH entries, $ORIGIN expanded


@dataclass(frozen=True)
class MissingLibrary:
    name: str  # the soname that cannot be loaded (the deepest one the loader named)
    needed_by: str  # the file that needs it (a Qt library or plugin)

    @property
    def debian_package(self) -> str:
        return debian_package(self.name)


def read_elf_deps(path: Path) -> ElfDeps:
    """DT_NEEDED and RPATH/RUNPATH of a 64- or 32-bit little- or big-endian ELF file. Raises ValueError when the
    file is not ELF or is damaged."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF":
        raise ValueError(f"{path}: not an ELF file")
    is64, order = data[4] == 2, "<" if data[5] == 1 else ">"
    try:
        if is64:
            phoff, = struct.unpack_from(order + "Q", data, 0x20)
            phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
            ph_fmt, dyn_fmt = order + "IIQQQQQQ", order + "qQ"
        else:
            phoff, = struct.unpack_from(order + "I", data, 0x1C)
            phentsize, phnum = struct.unpack_from(order + "HH", data, 0x2A)
            ph_fmt, dyn_fmt = order + "IIIIIIII", order + "iI"
        loads, dynamic = [], None
        for i in range(phnum):
            fields = struct.unpack_from(ph_fmt, data, phoff + i * phentsize)
            if is64:
                p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz, _memsz, _align = fields
            else:
                p_type, p_offset, p_vaddr, _paddr, p_filesz, _memsz, _flags, _align = fields
            if p_type == _PT_LOAD:
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == _PT_DYNAMIC:
                dynamic = (p_offset, p_filesz)
        if dynamic is None:
            return ElfDeps((), ())
        entries, size = [], struct.calcsize(dyn_fmt)
        for off in range(dynamic[0], dynamic[0] + dynamic[1], size):
            tag, value = struct.unpack_from(dyn_fmt, data, off)
            if tag == _DT_NULL:
                break
            entries.append((tag, value))
        strtab_addr = next(v for t, v in entries if t == _DT_STRTAB)
        strtab = next(off + strtab_addr - vaddr for vaddr, off, size_ in loads if vaddr <= strtab_addr < vaddr + size_)
    except (struct.error, StopIteration):
        raise ValueError(f"{path}: damaged ELF file") from None

    def text(offset: int) -> str:
        end = data.index(b"\0", strtab + offset)
        return data[strtab + offset:end].decode("utf-8", "replace")

    origin = str(path.resolve().parent)
    search = [p.replace("$ORIGIN", origin).replace("${ORIGIN}", origin)
              for t, v in entries if t in (_DT_RPATH, _DT_RUNPATH) for p in text(v).split(":") if p]
    return ElfDeps(tuple(text(v) for t, v in entries if t == _DT_NEEDED), tuple(search))


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that usually provides a library: libxcb-icccm.so.4 → libxcb-icccm4,
    libxkbcommon-x11.so.0 → libxkbcommon-x11-0, libEGL.so.1 → libegl1 (Debian's naming rule for libraries)."""
    match = re.fullmatch(r"(.+?)\.so\.(\d+)(?:\..*)?", soname)
    if not match:
        return soname.removesuffix(".so").lower()
    stem, major = match.group(1).lower(), match.group(2)
    return f"{stem}-{major}" if stem[-1].isdigit() else f"{stem}{major}"


def _default_loader(name: str) -> str | None:
    """Load a system library as the dynamic loader would; None when it loads, else the loader's message."""
    mode = getattr(os, "RTLD_LAZY", 1) | getattr(os, "RTLD_LOCAL", 0)
    try:
        # _ctypes.dlopen gives dlerror()'s own text; in the bundle PyInstaller wraps ctypes.CDLL and replaces it
        dlopen = getattr(_ctypes, "dlopen", None)
        dlopen(name, mode) if dlopen is not None else ctypes.CDLL(name, mode=mode)
    except OSError as exc:
        return str(exc)
    return None


def missing_libraries(roots: list[Path], shipped: list[Path],
                      loader: Callable[[str], str | None] | None = None) -> list[MissingLibrary]:
    """The system libraries that `roots` need, directly or through libraries that ship with memgui, and that
    cannot be loaded. A library is "shipped" when a file of that name is in one of `shipped` folders or in the
    needing file's own RPATH/RUNPATH; every other one is loaded with `loader`."""
    load = loader or _default_loader
    index: dict[str, Path] = {}
    for folder in shipped:
        if folder.is_dir():
            for entry in folder.iterdir():
                index.setdefault(entry.name, entry)
    missing: dict[str, MissingLibrary] = {}
    checked: set[str] = set()
    seen: set[Path] = set()
    todo = [p for p in roots if p.is_file()]
    while todo:
        path = todo.pop()
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        try:
            deps = read_elf_deps(real)
        except (OSError, ValueError):
            continue
        for name in deps.needed:
            local = next((Path(d) / name for d in deps.search if (Path(d) / name).exists()), None) or index.get(name)
            if local is not None:
                todo.append(local)
                continue
            if name in checked:
                continue
            checked.add(name)
            error = load(name)
            if error is not None:
                # "libxcb-icccm.so.4: cannot open shared object file": the library itself, or one it needs
                deepest = error.split(":", 1)[0].strip()
                deepest = os.path.basename(deepest) if ".so" in deepest else name
                missing.setdefault(deepest, MissingLibrary(deepest, path.name))
    return sorted(missing.values(), key=lambda m: m.name)


def qt_platforms(environ: Mapping[str, str] | None = None) -> list[str]:
    """The platform plugins Qt will try, in order: QT_QPA_PLATFORM's entries (`wayland;xcb`), else wayland then
    xcb in a Wayland session, else xcb when there is an X display; none when there is no display at all (Qt's own
    message is clear then)."""
    env = os.environ if environ is None else environ
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return [name.split(":", 1)[0].strip().lower() for name in chosen.split(";") if name.strip()]
    found = []
    if env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        found.append("wayland")
    if env.get("DISPLAY"):
        found.append("xcb")
    return found


def _pyside_folder() -> Path | None:
    spec = importlib.util.find_spec("PySide6")  # finds the package without loading Qt
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None


_PLATFORM_PLUGINS = {"xcb": "libqxcb.so", "wayland": "libqwayland.so", "offscreen": "libqoffscreen.so",
                     "minimal": "libqminimal.so"}


def window_problem(environ: Mapping[str, str] | None = None,
                   loader: Callable[[str], str | None] | None = None) -> str | None:
    """One message naming the system libraries the window cannot start without, with the packages to install;
    None when everything loads (for one of the platforms Qt would try), or when there is nothing to check (no
    PySide6, not Linux, MEMGUI_NO_LIBRARY_CHECK=1)."""
    env = os.environ if environ is None else environ
    pyside = _pyside_folder()
    if pyside is None or sys.platform != "linux" or env.get("MEMGUI_NO_LIBRARY_CHECK") == "1":
        return None
    qt = pyside / "Qt"
    shipped = [pyside, qt / "lib", pyside.parent / "shiboken6"]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        shipped.append(Path(bundle))
    modules = [pyside / name for name in ("QtCore.abi3.so", "QtGui.abi3.so", "QtWidgets.abi3.so")]
    platforms = [p for p in qt_platforms(env) if p in _PLATFORM_PLUGINS] or [""]
    first: tuple[str, list[MissingLibrary]] | None = None
    for platform in platforms:
        plugin = [qt / "plugins" / "platforms" / _PLATFORM_PLUGINS[platform]] if platform else []
        missing = missing_libraries(modules + plugin, shipped, loader)
        if not missing:
            return None
        first = first or (platform, missing)
    assert first is not None
    platform, missing = first
    what = f"Qt's {platform} platform plugin" if platform else "Qt"
    names = ", ".join(m.name for m in missing)
    packages = " ".join(dict.fromkeys(m.debian_package for m in missing))
    other = {"xcb": "wayland", "wayland": "xcb"}.get(platform)
    return (f"the window cannot start: {what} needs the system "
            f"{'library' if len(missing) == 1 else 'libraries'} {names}, not found on this system. "
            f"Install {'it' if len(missing) == 1 else 'them'} (on Debian or Ubuntu: sudo apt-get install {packages})"
            + (f", or try QT_QPA_PLATFORM={other}" if other else "")
            + ". The command-line tools work without it: memgui --help")


def tell_the_desktop(title: str, message: str) -> bool:
    """Show `message` as a desktop notification (notify-send, from libnotify) when the app was started with no
    terminal to read stderr, e.g. from its desktop entry. True when a notifier took it; never raises."""
    notifier = shutil.which("notify-send")
    if notifier is None:
        return False
    try:
        return subprocess.run([notifier, "--app-name=memgui", "--urgency=critical", title, message],
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
