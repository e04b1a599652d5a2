"""Every Netclaw rule the code cites (`netclaw-compat §9`, `netclaw-compat §5 step 3b`, `N4`) resolves to a
heading of docs/netclaw-compat.md, inside the repository."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "netclaw-compat.md"
REF = re.compile(r"netclaw-compat (?:(§\d+(?:\.\d+)?)|(N\d))")
NETFX_SECTION = re.compile(r"^# ---- (N\d) ", re.MULTILINE)


def _headings() -> set[str]:
    found = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^#+ (§\d+(?:\.\d+)?|N\d)\b", line)
        if m:
            found.add(m.group(1))
    return found


def _sources():
    for folder in ("memgui", "tests", "docs", "resources"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md", ".json", ".txt") and path != DOC:
                yield path, path.read_text(encoding="utf-8", errors="replace")


def test_every_cited_section_exists():
    headings = _headings()
    cited = {}
    for path, text in _sources():
        for m in REF.finditer(text):
            cited.setdefault(m.group(1) or m.group(2), path.relative_to(ROOT))
    assert len(cited) >= 15
    assert {ref: str(path) for ref, path in cited.items() if ref not in headings} == {}


def test_no_reference_points_outside_the_repository():
    stale = [str(path.relative_to(ROOT)) for path, text in _sources() if re.search(r"\bspec §\d", text)]
    assert stale == []


def test_each_netfx_section_has_its_rule_in_the_document():
    text = (ROOT / "memgui" / "core" / "netfx.py").read_text(encoding="utf-8")
    sections = set(NETFX_SECTION.findall(text))
    assert sections == {f"N{i}" for i in range(1, 10)}
    assert sections <= _headings()
