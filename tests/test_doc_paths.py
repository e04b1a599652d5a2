"""Docstrings and comments name modules that exist: a path such as `memgui/core/ops/apply.py`, `core/ops/apply.py`
(relative to memgui/) or `tests/test_layering.py` left behind by a move fails here, with the line that names it."""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A repository path (memgui/…, tests/…) or a module path inside the package (core/…py, gui/…py, cli/…py).
PATH = re.compile(r"(?<![\w./-])((?:memgui|tests)/\w[\w/]*(?:\.\w+)?|(?:core|gui|cli)/[\w/]+\.py)")


def _prose(source: str):
    """(line, text) of every comment and string literal (docstrings included)."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            yield tok.start[0], tok.string


def missing_paths(source: str, where: str, root: Path = ROOT) -> list[str]:
    out = []
    for line, text in _prose(source):
        for match in PATH.finditer(text):
            path = match.group(1).rstrip("/")
            if not any((base / path).exists() for base in (root, root / "memgui")):
                out.append(f"{where}:{line} names {path}, which does not exist")
    return out


def test_every_module_path_named_in_a_docstring_or_comment_exists():
    files = sorted(p for p in [*ROOT.glob("memgui/**/*.py"), *ROOT.glob("tests/**/*.py")]
                   if p != Path(__file__).resolve())  # this file's probe names stale paths on purpose
    stale = [hit for p in files for hit in missing_paths(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert stale == []


def test_a_stale_path_is_caught_and_a_live_one_is_not():
    source = (
        '"""Undo lives in core/audit.py; the guard in memgui/core/merge/guard.py."""\n'
        "# see tests/test_layering.py and core/ops/apply.py; memgui/.NET is prose, not a path\n"
        'x = "memgui/core/nowhere"\n'
    )
    assert missing_paths(source, "probe.py") == [
        "probe.py:1 names core/audit.py, which does not exist",
        "probe.py:3 names memgui/core/nowhere, which does not exist",
    ]
