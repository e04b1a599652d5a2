"""Loading a llama.cpp model on a worker must not take the process's output away from the other threads."""
import sys
import threading

import pytest

from memgui.core.vectors.embed import LlamaEmbedder


@pytest.mark.realmodel
def test_a_message_printed_while_a_model_loads_on_a_worker_is_not_lost(capfd):
    loading = threading.Thread(target=LlamaEmbedder)  # the model loads in the constructor
    loading.start()
    printed = 0
    while loading.is_alive():
        print("the window is still talking", file=sys.stderr, flush=True)
        printed += 1
    loading.join()
    err = capfd.readouterr().err
    assert printed > 0 and err.count("the window is still talking") == printed


def test_llama_cpp_log_lines_go_to_memguis_log_whole_and_at_their_level(caplog):
    """The callback's own logic, without a model: CONT pieces joined into one line, WARN as a warning."""
    import logging

    from memgui.core.vectors import llama_streams

    with caplog.at_level(logging.DEBUG, logger="memgui.llama"):
        llama_streams._log(3, b"llama_context: n_ctx_per_seq (256) ")  # ggml.h: WARN = 3
        llama_streams._log(5, b"< n_ctx_train (512)\n")
        llama_streams._log(2, b"loaded meta data\n")  # INFO: every tensor of a model, so debug here
    records = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "memgui.llama"]
    assert records == [(logging.WARNING, "llama_context: n_ctx_per_seq (256) < n_ctx_train (512)"),
                       (logging.DEBUG, "loaded meta data")]


@pytest.mark.realmodel
def test_loading_a_model_prints_nothing_on_the_terminal_and_logs_to_memgui(capfd, caplog):
    """Issue 24 item 6: llama.cpp printed a warning line to stderr on every model load."""
    import logging

    with caplog.at_level(logging.DEBUG, logger="memgui.llama"):
        LlamaEmbedder()
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""
    assert any(r.name == "memgui.llama" for r in caplog.records)


@pytest.mark.realmodel
def test_the_decider_models_load_warning_is_in_memguis_log_not_on_the_terminal(capfd, caplog):
    """Qwen's load warns ("control-looking token … was not control-type"): it was printed on stderr."""
    import logging

    from memgui.core.decide.engine import LlamaEngine
    from memgui.core.decide.model_files import default_model_path

    path = default_model_path()
    if path is None or not path.is_file():
        pytest.skip("the default decider model is not installed")
    with caplog.at_level(logging.DEBUG, logger="memgui.llama"):
        LlamaEngine(path, n_ctx=256, n_threads=1).load()
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""
    assert any(r.name == "memgui.llama" and r.levelno == logging.WARNING for r in caplog.records)
