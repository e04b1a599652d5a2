"""Architecture rules, enforced on the import graph:

- memgui/core never imports Qt, the GUI or the CLI;
- core's stage packages import only from their own stage or an earlier one (the flow, in order):
  netfx/tasks → store → curation → vectors → merge → decide → ops → forensics
  (merge proof is pure and sits below decide because the decider drafts against the guard);
- the GUI reaches the core only through its service layer (memgui/gui/services*), and no GUI module
  imports another in a cycle.
"""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "memgui"
CORE = PKG / "core"
GUI = PKG / "gui"
QT = ("PySide6", "shiboken6", "pytestqt")
STAGES = ("netfx", "tasks", "store", "curation", "vectors", "merge", "decide", "ops", "forensics")
RANK = {"netfx": 0, "tasks": 0, "store": 1, "curation": 2, "vectors": 3, "merge": 4, "decide": 5, "ops": 6,
        "forensics": 7}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path):
    """Absolute names of every module `path` imports (relative imports resolved), with `from X import y`
    also yielding X.y (y may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path).split(".") if path.name == "__init__.py" else _module(path).split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod
            for alias in node.names:
                yield f"{mod}.{alias.name}"


def _stage(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["memgui", "core"] or len(parts) < 3:
        return None
    return parts[2]


def test_core_never_imports_qt_gui_or_cli():
    offenders = [
        f"{p.relative_to(PKG)} imports {name}"
        for p in CORE.rglob("*.py")
        for name in _imports(p)
        if name.split(".")[0] in QT or name.startswith(("memgui.gui", "memgui.cli"))
    ]
    assert offenders == []


def test_core_is_only_stage_packages():
    found = {p.stem if p.is_file() else p.name for p in CORE.iterdir()
             if p.name != "__pycache__" and p.name != "__init__.py"}
    assert found == set(STAGES)


def test_no_stage_imports_a_later_stage():
    offenders = []
    for path in CORE.rglob("*.py"):
        own = _stage(_module(path))
        if own is None:
            continue
        for name in _imports(path):
            other = _stage(name)
            if other in RANK and RANK[other] > RANK[own]:
                offenders.append(f"{path.relative_to(CORE)} ({own}) imports {name} ({other})")
    assert offenders == []


def test_gui_reaches_core_only_through_the_service_layer():
    offenders = []
    for path in GUI.rglob("*.py"):
        if path.stem.startswith("services") or "services" in path.relative_to(GUI).parts[:-1]:
            continue
        for name in _imports(path):
            if name.startswith("memgui.core"):
                offenders.append(f"{path.relative_to(PKG)} imports {name}")
    assert sorted(set(offenders)) == []


def test_gui_modules_import_no_cycle():
    graph: dict[str, set[str]] = {}
    modules = {_module(p): p for p in GUI.rglob("*.py")}
    for mod, path in modules.items():
        graph[mod] = {n for n in _imports(path) if n in modules and n != mod}
    seen, on_path, cycles = set(), [], []

    def visit(node):
        if node in on_path:
            cycles.append(on_path[on_path.index(node):] + [node])
            return
        if node in seen:
            return
        seen.add(node)
        on_path.append(node)
        for nxt in sorted(graph[node]):
            visit(nxt)
        on_path.pop()

    for mod in sorted(graph):
        visit(mod)
    assert cycles == []


def test_no_gui_file_past_400_lines():
    long = {str(p.relative_to(PKG)): n for p in GUI.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def test_readme_layout_names_every_package_and_core_stage():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Layout", 1)[1].split("```", 2)[1]
    listed = {line.split()[0].rstrip("/") for line in block.splitlines() if line.strip() and not line.startswith("  " * 12)}
    packages = {p.parent.name for p in PKG.rglob("__init__.py") if p.parent != PKG}
    assert packages - listed == set()
    assert {s for s in STAGES if s in ("netfx", "tasks")} <= {x.removesuffix(".py") for x in listed}
    assert {x for x in listed if x not in packages and not x.endswith(".py")} <= {
        "memgui", "resources", "packaging", "tests", "docs"}


# ---- Netclaw's formats are written once, in core/netfx.py -------------------------------------------------------

NETFX = CORE / "netfx.py"
# What a re-typed Netclaw format looks like in a string literal: the append separator (its rule line, or its marker
# about to take a date; a message may still name `_[merged YYYY-MM-DD]_`), or the bare `anchor:` prefix of an id.
_MARKER_WRITTEN = re.compile(r"_\[merged (?:\{|\d|$)")
RETYPED_FORMATS = (("append separator", lambda s: "\n---\n" in s or _MARKER_WRITTEN.search(s) is not None),
                   ("anchor prefix", lambda s: s == "anchor:"))


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the Constant nodes that are docstrings (prose may describe a format; code may not write one)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _retyped_formats(source: str, where: str) -> list[str]:
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            found += [f"{where}:{node.lineno} re-types the {name}" for name, test in RETYPED_FORMATS if test(node.value)]
    return found


def test_netclaw_formats_are_written_only_in_netfx():
    offenders = [hit for p in PKG.rglob("*.py") if p != NETFX
                 for hit in _retyped_formats(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert offenders == []


def test_the_format_check_catches_a_retyped_separator():
    probe = (
        '"""Appends `\\n\\n---\\n_[merged YYYY-MM-DD]_\\n` (a docstring may say so)."""\n'
        "def append(body, date, text):\n"
        '    return f"{body}\\n\\n---\\n_[merged {date}]_\\n{text}"\n'
        'def name(anchor_id):\n'
        '    return anchor_id.removeprefix("anchor:")\n'
    )
    assert _retyped_formats(probe, "probe.py") == ["probe.py:3 re-types the append separator",
                                                   "probe.py:5 re-types the anchor prefix"]


# ---- no private names across modules ------------------------------------------------------------------------


def _private_imports(source: str, where: str) -> list[str]:
    """`from x import _name` (a leading underscore says "this module's own"): another module may not take it."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            module = "." * node.level + (node.module or "")
            out += [f"{where}:{node.lineno} imports {alias.name} from {module}" for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")]
    return out


def test_no_module_imports_another_modules_private_names():
    offenders = [hit for p in PKG.rglob("*.py")
                 for hit in _private_imports(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert offenders == []


def test_the_private_import_check_catches_one():
    probe = "from __future__ import annotations\nfrom .guard_tokens import _source_scan, units\nfrom . import __version__\n"
    assert _private_imports(probe, "probe.py") == ["probe.py:2 imports _source_scan from .guard_tokens"]


# ---- no function over 80 lines (issue 37, "Done when") ------------------------------------------------------

MAX_FUNCTION_LINES = 80


def _long_functions(source: str, where: str) -> list[str]:
    """`where:line name (n lines)` for every function (nested ones and methods too) over MAX_FUNCTION_LINES, counted
    from its `def` line to its last line."""
    return [f"{where}:{node.lineno} {node.name} ({length} lines)" for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES]


def test_no_function_is_over_80_lines():
    offenders = [hit for folder in (PKG, ROOT / "tests") for p in sorted(folder.rglob("*.py"))
                 for hit in _long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert offenders == [], "split these along their seams:\n  " + "\n  ".join(offenders)


def test_the_length_check_catches_one():
    probe = "def short():\n    return 1\n\n\nclass K:\n    async def long(self):\n" + "        x = 1\n" * 80
    assert _long_functions(probe, "probe.py") == ["probe.py:6 long (81 lines)"]
