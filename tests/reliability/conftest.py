"""Shared by the reliability tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from memgui.core.store.demo import build_demo_store


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo store, built once per module. build_demo_store checkpoints and closes it: no -wal or -shm beside it,
    so a test's copy holds every row in the file itself."""
    path = build_demo_store(tmp_path_factory.mktemp("demo") / "netclaw.db")
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    return path
