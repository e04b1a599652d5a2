"""memgui's log file: llama.cpp's own lines (logger memgui.llama) land there, not on the terminal."""
from __future__ import annotations

import logging


def test_llama_lines_go_to_the_log_file_and_not_to_stderr(tmp_path, monkeypatch, capfd):
    import memgui.config as config
    from memgui.core.vectors import llama_streams
    from memgui.gui.log import setup_log

    monkeypatch.setenv(config._CACHE_ENV, str(tmp_path / "cache"))
    root = logging.getLogger("memgui")
    before = list(root.handlers)
    try:
        path = setup_log()
        assert path is not None and path.parent == tmp_path / "cache"
        llama_streams._log(3, b"load: control-looking token: 128247 '</s>' was not control-type\n")  # WARN
        for handler in root.handlers:
            handler.flush()
        assert "control-looking token" in path.read_text(encoding="utf-8")
        assert "control-looking" not in capfd.readouterr().err
    finally:
        for handler in root.handlers:
            if handler not in before:
                root.removeHandler(handler)
                handler.close()
