"""Without the offline default models the window still opens, with a banner that says what is missing, what
that costs and the line that installs them (`make bundle-test` checks it in the bundled app too)."""
from gui_fakes import services_for
from memgui.config import models_install_hint
from memgui.gui.services.window import missing_models
from waits import LONG_MS


def test_nothing_missing_no_message(monkeypatch, tmp_path):
    from memgui.core.decide import model_files
    from memgui.core.vectors import embedder_model

    monkeypatch.setattr(embedder_model, "default_model_path", lambda: tmp_path / "e.gguf")
    monkeypatch.setattr(model_files, "default_model_path", lambda: tmp_path / "d.gguf")
    assert missing_models(None) is None


def test_missing_models_say_what_is_lost_and_how_to_install(monkeypatch, tmp_path):
    from memgui.core.decide import model_files
    from memgui.core.vectors import embedder_model

    def no_weights():
        raise embedder_model.EmbedderModelError("not installed")

    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(embedder_model, "source_files", no_weights)
    text = missing_models(None)
    assert text.startswith("Offline models not installed (embedder, decider)")
    assert "word overlap" in text and "Ask model" in text and text.endswith(models_install_hint())
    # a GGUF chosen in Settings is the decider: only the embedder is missing
    assert missing_models("/models/mine.gguf").startswith("Offline models not installed (embedder)")
    assert model_files.default_model_path() is None


def test_the_window_shows_the_banner_and_still_opens_the_store(make_window, review_store, qtbot):
    services = services_for(review_store)
    services.missing_models = lambda decider: "Offline models not installed (decider): … To install them: X"
    window = make_window(services)
    assert window.models_banner.isVisible() and window.models_banner.text().endswith("To install them: X")
    with qtbot.waitSignal(window.ready, timeout=LONG_MS):
        window.open_located(str(review_store.path))
    assert window.cluster_model.rowCount() > 0 and window.actions_by_key["union"].isEnabled()


def test_no_banner_when_nothing_is_missing(make_window, review_store):
    services = services_for(review_store)
    services.missing_models = lambda decider: None
    assert not make_window(services).models_banner.isVisible()
