"""`memgui diff --docs A,B`: conflict evidence between two stored documents, read-only."""
import hashlib
import json

import pytest

from memgui.__main__ import main
from memgui.core.store.demo import build_demo_store, demo_labels

SIBLINGS = demo_labels()["sibling_pairs"][0]  # atlas-sync 3.2.1 vs 3.2.2 patch releases


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return build_demo_store(tmp_path_factory.mktemp("diff") / "netclaw.db")


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_json_names_conflicts_only_in_and_spans(demo, capsys):
    before = _digest(demo)
    a, b = SIBLINGS
    assert main(["diff", "--store", str(demo), "--docs", f"{a},{b}", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"only_in", "conflicts", "spans", "likely_different", "reason"}
    versions = [c for c in data["conflicts"] if c["class"] == "version"]
    assert versions and "3.2.1" in versions[0][a] and "3.2.2" in versions[0][b]
    assert "3.2.1" in data["only_in"][a] and "3.2.2" in data["only_in"][b]
    assert any(s["a_text"] == "v3.2.1" and s["b_text"] == "v3.2.2" for s in data["spans"])
    assert _digest(demo) == before  # nothing written


def test_text_output_shows_the_word_diff(demo, capsys):
    a, b = SIBLINGS
    assert main(["diff", "--store", str(demo), "--docs", f"{a},{b}"]) == 0
    out = capsys.readouterr().out
    assert "conflict  version" in out and "[-v3.2.1-]{+v3.2.2+}" in out


@pytest.mark.parametrize("docs, message", [
    ("doc-only-one", "exactly two"),
    ("doc-x,doc-x", "exactly two"),
    ("doc-missing-1,doc-missing-2", "no such document"),
])
def test_bad_ids_are_one_line_refusals(demo, capsys, docs, message):
    assert main(["diff", "--store", str(demo), "--docs", docs]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
