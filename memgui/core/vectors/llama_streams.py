"""Loading a llama.cpp model without taking the process's output away (used by the embedder and the decider)."""
from __future__ import annotations


class _NoRedirect:
    def __init__(self, disable: bool = True):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False


def keep_output_streams() -> None:
    """llama-cpp-python hides llama.cpp's chatter by pointing the whole process's stdout and stderr at
    /dev/null while a model loads. A model loads on a worker thread here, so every other thread's output in
    that time was lost (the window's "screenshot saved", a CLI's progress). Its log callback already drops
    all but errors when not verbose, so that redirection is turned off."""
    import llama_cpp._internals as internals
    import llama_cpp.llama as llama_module

    internals.suppress_stdout_stderr = _NoRedirect
    llama_module.suppress_stdout_stderr = _NoRedirect


__all__ = ["keep_output_streams"]
