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


# ---- the docs (README, docs/, resources/) and the versions they name (issue 37, item 8) ------------------------

DOCS = sorted({ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("resources/**/*.md")})
# In a document a path is code: `memgui/core/ops/apply.py`, `core/merge/guard.py`, `docs/seams.md`, or a module
# file named from its package (`curation/markers.py`, `facts/lens.py`, `guard.py`), which must exist somewhere in
# the repository with that ending; `resources/prompts/decider_*` matches a file. Fenced blocks are commands run
# elsewhere (`memgui/memgui` in an unpacked bundle), not paths of this tree. A history may name a file that is gone
# in a section (heading to heading) that says it was retired (`union_cover.py`, retired in 98d5a45).
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
DOC_PATH = re.compile(r"(?<![\w./-])((?:memgui|tests|docs|resources|packaging|scripts)/[\w.-][\w/.*-]*[\w*]"
                      r"|(?:[\w-]+/)*\w+\.py)(?!\w)")
MODULE_FILE = re.compile(r"(?<![\w./-])((?:[\w-]+/)*\w+\.py)\b")
RUN_MODULE = re.compile(r"-m\s+(memgui(?:\.\w+)*)")


def _repository_files() -> list[str]:
    skip = {".venv", ".git", "build", "dist", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if not skip.intersection(p.relative_to(ROOT).parts)]


def _found(path: str, files: list[str], root: Path = ROOT) -> bool:
    """A path exists from the root or from memgui/; a module file (`x.py`, `pkg/x.py`) anywhere with that ending."""
    if "*" in path:
        return any(next(iter(base.glob(path)), None) is not None for base in (root, root / "memgui"))
    if any((base / path).exists() for base in (root, root / "memgui")):
        return True
    return path.endswith(".py") and any(f.endswith("/" + path) for f in files)


def _code_spans(text: str):
    """(line, code, whether its section says something was retired) of every inline code span of a markdown
    text, fenced blocks left out."""
    fenced, number = False, 1
    for section in re.split(r"(?m)^(?=#+ )", text):
        retired = re.search(r"\bretired\b", section) is not None
        for line in section.splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced:
                for m in _INLINE_CODE.finditer(line):
                    yield number, m.group(1), retired
            number += 1


def missing_in_doc(text: str, where: str, files: list[str], root: Path = ROOT) -> list[str]:
    out = []
    for line, code, retired in _code_spans(text):
        for m in DOC_PATH.finditer(code):
            path = m.group(1).rstrip("/.")
            if not retired and not _found(path, files, root):
                out.append(f"{where}:{line} names {path}, which does not exist")
        for m in RUN_MODULE.finditer(code):
            out += _missing_module(m.group(1), f"{where}:{line}", root)
    return out


def _missing_module(dotted: str, where: str, root: Path = ROOT) -> list[str]:
    base = root / dotted.replace(".", "/")
    if base.with_suffix(".py").exists() or (base / "__init__.py").exists() or (base / "__main__.py").exists():
        return []
    return [f"{where} runs the module {dotted}, which does not exist"]


def test_every_path_and_module_named_in_the_docs_exists():
    files = _repository_files()
    stale = [hit for p in DOCS for hit in missing_in_doc(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)),
                                                         files)]
    assert stale == []


def missing_module_files(source: str, where: str, files: list[str], root: Path = ROOT) -> list[str]:
    """A module file a docstring or comment names by its name (`see words.py`), its package (`facts/lens.py`)
    or `python -m memgui.…`, that exists nowhere in the repository."""
    out = []
    for line, text in _prose(source):
        for m in MODULE_FILE.finditer(text):
            if not _found(m.group(1), files, root):
                out.append(f"{where}:{line} names {m.group(1)}, which does not exist")
        for m in RUN_MODULE.finditer(text):
            out += _missing_module(m.group(1), f"{where}:{line}", root)
    return out


def test_every_module_file_named_in_the_package_exists():
    files = _repository_files()
    stale = [hit for p in sorted(ROOT.glob("memgui/**/*.py"))
             for hit in missing_module_files(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)), files)]
    assert stale == []


def test_a_stale_doc_path_or_module_is_caught_and_a_live_one_is_not():
    doc = ("See `memgui/core/demo.py`, `core/merge/guard.py`, `facts/lens.py`, `docs/seams.md` and `words.py`.\n"
           "Run `python -m memgui.core.store.demo` or `python -m memgui.core.nowhere`; memgui/core/x.py is prose.\n"
           "```sh\nmemgui/memgui models install\n```\n"
           "Prompts: `resources/prompts/decider_*`, `resources/prompts/nothing_*`.\n"
           "## History\n\n`union_cover.py` held it.\n\n`union_reading.py` too (both retired since).\n")
    assert missing_in_doc(doc, "probe.md", _repository_files()) == [
        "probe.md:1 names memgui/core/demo.py, which does not exist",
        "probe.md:1 names words.py, which does not exist",
        "probe.md:2 runs the module memgui.core.nowhere, which does not exist",
        "probe.md:6 names resources/prompts/nothing_*, which does not exist",
    ]
    source = '"""Open-class words are weighed in `words.py`; closed ones here (lexicon.py, facts/lens.py)."""\n'
    assert missing_module_files(source, "probe.py", _repository_files()) == [
        "probe.py:1 names words.py, which does not exist"]


# A version named beside a pinned package (`PySide6 6.12.0`, `msgspec==0.22.0`, `llama-cpp-python 0.3`) is the pin
# or a prefix of it, unless its paragraph names the pin as the pin (`pinned to 6.11.3: 6.12.0 leaks …`).
PIN = re.compile(r"^\s*([A-Za-z0-9][\w.-]*)\s*==\s*([\w.]+)")
ALIASES = {"pyside6": "pyside6-essentials"}  # what the docs call a package, when not its distribution name


def pins(pyproject: str | None = None) -> dict[str, str]:
    import tomllib

    project = tomllib.loads(pyproject if pyproject is not None else (ROOT / "pyproject.toml").read_text())["project"]
    found = {}
    for spec in [*project["dependencies"], *(d for group in project["optional-dependencies"].values() for d in group)]:
        m = PIN.match(spec)
        if m:
            found[m.group(1).lower()] = m.group(2)
    return found


def _version_pattern(pinned: dict[str, str]) -> re.Pattern[str]:
    names = sorted([*pinned, *(a for a, d in ALIASES.items() if d in pinned)], key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) +
                      r")(?:\s*==\s*|\s+v?|\s+is\s+pinned\s+to\s+|\s+pinned\s+(?:to|at)\s+)(\d+(?:\.(?:\d+|x))+)\b",
                      re.IGNORECASE)


def _matches_pin(named: str, pin: str) -> bool:
    """`6.11.3`, `6.11`, `6.11.x` match the pin 6.11.3; `6.12.0` does not."""
    parts, pinned = named.split("."), pin.split(".")
    return len(parts) <= len(pinned) and all(a in (b, "x") for a, b in zip(parts, pinned))


def versions_off_the_pin(text: str, where: str, pinned: dict[str, str], line: int = 1) -> list[str]:
    pattern, out = _version_pattern(pinned), []
    for paragraph in re.split(r"(\n\s*\n)", text):
        says_pin = re.search(r"\bpin(?:s|ned)?\b", paragraph, re.IGNORECASE) is not None
        named = re.findall(r"\d+(?:\.(?:\d+|x))+", paragraph)
        for m in pattern.finditer(paragraph):
            name = m.group(1).lower()
            pin = pinned[ALIASES.get(name, name)]
            says_why = says_pin and any(_matches_pin(v, pin) for v in named)  # `pins 6.11.x: 6.12.0 leaks`
            if not _matches_pin(m.group(2), pin) and not says_why:
                out.append(f"{where}:{line + paragraph.count(chr(10), 0, m.start())} names {m.group(0)!r}; "
                           f"pyproject.toml pins {pin}")
        line += paragraph.count("\n")
    return out


def test_every_version_named_is_the_pinned_one():
    pinned = pins()
    assert pinned["pyside6-essentials"]
    texts = [(p, 1, p.read_text(encoding="utf-8")) for p in DOCS]
    texts += [(p, line, prose) for p in sorted([*ROOT.glob("memgui/**/*.py"), *ROOT.glob("tests/**/*.py")])
              if p != Path(__file__).resolve() for line, prose in _prose(p.read_text(encoding="utf-8"))]
    off = [hit for p, line, text in texts
           for hit in versions_off_the_pin(text, str(p.relative_to(ROOT)), pinned, line)]
    assert off == []


def test_a_version_off_the_pin_is_caught_unless_said_to_be():
    pinned = pins('[project]\ndependencies = ["PySide6-Essentials==6.11.3", "msgspec==0.22.0"]\n'
                  "[project.optional-dependencies]\ndev = []\n")
    text = ("Runs on PySide6 6.12.0 and msgspec==0.22.0.\n\n"
            "PySide6-Essentials is pinned to 6.11.3: 6.12.0 leaks (PySide6 6.12.0 aborts long sessions).\n\n"
            "memgui pins PySide6 6.11.x; msgspec 0.21 is older.\n")
    assert versions_off_the_pin(text, "probe.md", pinned) == [
        "probe.md:1 names 'PySide6 6.12.0'; pyproject.toml pins 6.11.3",
        "probe.md:5 names 'msgspec 0.21'; pyproject.toml pins 0.22.0",
    ]
