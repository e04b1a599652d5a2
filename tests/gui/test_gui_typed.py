"""Issue 25, item 1 — the GUI is typed with the core's types, not `Any`: fewer than 30 uses of `Any` in
memgui/gui, and each one says why on its line or the line above (a comment). A new `Any` without a reason, or a
return to `Callable[..., Any]` in the services, fails here."""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "memgui" / "gui"
LIMIT = 30


def _any_uses() -> list[tuple[str, int, str, str]]:
    """(file, line number, the line, the line above) of every `Any` name in code (not in strings or comments)."""
    out = []
    for path in sorted(GUI.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and tok.string == "Any":
                n = tok.start[0]
                line = lines[n - 1]
                if re.match(r"\s*(from\s+\S+\s+)?import\b", line):
                    continue
                out.append((str(path.relative_to(GUI)), n, line, lines[n - 2] if n >= 2 else ""))
    return out


def test_the_gui_uses_any_fewer_than_thirty_times():
    uses = _any_uses()
    assert len(uses) < LIMIT, [f"{f}:{n}" for f, n, _l, _a in uses]


def test_every_any_in_the_gui_says_why():
    unexplained = [f"{f}:{n}: {line.strip()}" for f, n, line, above in _any_uses()
                   if "#" not in line and not above.strip().startswith("#")]
    assert unexplained == []


def test_no_service_is_an_untyped_callable():
    services = "\n".join(p.read_text(encoding="utf-8") for p in (GUI / "services").glob("*.py"))
    assert "Callable[..., Any]" not in services


def test_no_helper_holds_a_back_reference_to_its_controller():
    """The review's helpers get the cluster under review and the tools they use, not the controller (`self.r`)."""
    holders = [f"{p.relative_to(GUI)}:{n}" for p in sorted(GUI.rglob("*.py"))
               for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"\bself\.r\b", line)]
    assert holders == []
