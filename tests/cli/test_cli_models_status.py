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
