"""Architecture rule: memgui/core never imports Qt, and core never imports the GUI or the CLI."""
import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "memgui" / "core"
FORBIDDEN = ("PySide6", "shiboken6", "pytestqt", "memgui.gui", "memgui.cli")


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package path
                rel = path.relative_to(CORE.parent.parent).with_suffix("").parts[: -node.level]
                yield ".".join(rel + ((node.module,) if node.module else ()))
            elif node.module:
                yield node.module


def test_core_never_imports_qt_gui_or_cli():
    offenders = []
    for path in CORE.rglob("*.py"):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(CORE)} imports {name}")
    assert offenders == []
