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
