"""Test-wide set-up. QT_QPA_PLATFORM must be set before Qt is imported anywhere."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Keep tests away from the real user data/cache dirs and any real Netclaw home.
    Models assembled by `make test` are shared through MEMGUI_MODELS_DIR (see memgui.core.models)."""
    base = tmp_path_factory.mktemp("userdirs")
    monkeypatch.setenv("MEMGUI_CACHE_DIR", str(base / "cache"))
    (base / "netclaw-home").mkdir()  # a Netclaw home with no store yet (a home that is not there is refused)
    monkeypatch.setenv("NETCLAW_HOME", str(base / "netclaw-home"))
    if "MEMGUI_DATA_DIR" not in os.environ:
        monkeypatch.setenv("MEMGUI_DATA_DIR", str(base / "data"))
    yield


@pytest.fixture
def empty_store(tmp_path):
    from memgui.core.store import create_store, open_store

    store = open_store(create_store(tmp_path / "netclaw.db"))
    yield store
    store.close()
