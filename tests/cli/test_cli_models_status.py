"""`memgui models status` ends with the line that installs what is missing; the bundled app (sys.frozen), which
cannot pip-install, gets the line that installs them from the models folder beside it (no network, POSIX sh;
tests/core/decide/test_models_folder.py runs it, `make bundle-test` runs it for real)."""
import sys
from types import SimpleNamespace

from memgui.cli import models as models_cli
from memgui.config import models_install_hint


def test_the_install_line_depends_on_the_kind_of_install(monkeypatch):
    assert "memgui models install" in models_install_hint() and "--target" not in models_install_hint()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/memgui/memgui")
    line = models_install_hint()
    assert line.startswith("/opt/memgui/memgui models install --from /opt/memgui-models")
    assert "{" not in line and "pip" not in line


def test_models_status_prints_the_install_line_when_a_model_is_missing(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "empty"))
    assert models_cli.run(SimpleNamespace(action="status", json=False)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"to install the missing models: {models_install_hint()}"
    assert any(line.startswith("embedder: missing") for line in out)
    assert any(line.startswith("decider: missing") for line in out)


def test_every_printed_memgui_command_names_the_bundled_app_by_its_path(monkeypatch, tmp_path):
    """The bundled app need not be on PATH (install.sh not run yet): its messages say how to run it from where it is."""
    import pytest

    from memgui.cli import evaluate_model
    from memgui.cli.common import CliError
    from memgui.config import memgui_command

    assert memgui_command() == "memgui"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/my apps/memgui/memgui")
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "empty"))
    assert memgui_command() == "'/opt/my apps/memgui/memgui'"
    with pytest.raises(CliError, match=r"run `'/opt/my apps/memgui/memgui' models install`"):
        evaluate_model._model_path(SimpleNamespace(model=None))


def test_models_status_says_where_the_lens_lexicon_is_and_when_it_is_missing(monkeypatch, tmp_path, capsys):
    """WordNet's data files ship with memgui, not with `models install`: a bundle that left them out ran the fact
    lens with no synonyms or antonyms and said nothing (the lens then passes `renews` → `was renewed`)."""
    import json
    import logging

    from memgui.core.merge.facts import wordnet

    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "empty"))
    assert models_cli.run(SimpleNamespace(action="status", json=False)) == 0
    found = [line for line in capsys.readouterr().out.splitlines() if line.startswith("lexicon: ")]
    assert found and (wordnet.data_folder() / "data.noun").exists() and str(wordnet.data_folder()) in found[0]

    monkeypatch.setattr(wordnet, "_data_dir", lambda: None)
    assert models_cli.run(SimpleNamespace(action="status", json=True)) == 0
    lexicon = json.loads(capsys.readouterr().out)["lexicon"]
    assert lexicon["present"] is False and "reinstall memgui" in lexicon["error"]
    assert models_cli.run(SimpleNamespace(action="status", json=False)) == 0
    assert any(line.startswith("lexicon: missing  (WordNet's data files") for line in capsys.readouterr().out.splitlines())

    wordnet.tables.cache_clear()  # the lens reading with no lexicon leaves a warning in memgui's log
    try:
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        logging.getLogger("memgui.facts").addHandler(handler)
        assert wordnet.tables().synsets == {}
        assert any("WordNet's data files were not found" in r.getMessage() for r in records)
    finally:
        logging.getLogger("memgui.facts").removeHandler(handler)
        monkeypatch.undo()
        wordnet.tables.cache_clear()
        assert wordnet.tables().synsets  # the real tables back for the tests after this one
