"""The second reader on the real default model: a verbatim merge keeps every source's facts, a clearly lossy one
(a time changed, a room and a person dropped) does not, and a second read is served by the cache."""
from __future__ import annotations

import pytest

from memgui.core.decide import model_files
from memgui.core.decide.llm import LlamaDecider
from memgui.core.decide.reader import FactReader
from memgui.core.store.reader_cache import ReaderCache
from memgui.core.tasks import run_to_end

pytestmark = [pytest.mark.realmodel,
              pytest.mark.skipif(model_files.default_model_path() is None,
                                 reason="the default decider model is not installed")]

SOURCES = ["The team standup is at 09:30 on weekdays in room B12.",
           "Priya runs the standup and keeps the notes in the ops wiki."]
VERBATIM = " ".join(SOURCES)
LOSSY = "The team standup is at 11:00 on weekdays."


def test_the_real_model_keeps_a_verbatim_merge_and_rejects_a_lossy_one(tmp_path):
    decider = LlamaDecider(model_files.default_model_path(), n_threads=2)
    try:
        reader = FactReader.for_decider(decider, cache=ReaderCache(tmp_path / "reader.sqlite3"))
        kept = run_to_end(reader.read(SOURCES, VERBATIM))
        lossy = run_to_end(reader.read(SOURCES, LOSSY))
        again = run_to_end(reader.read(SOURCES, LOSSY))
    finally:
        decider.close()
    assert kept.passed, kept.to_dict()
    assert not lossy.passed, lossy.to_dict()
    assert min(v.p_yes for v in lossy.verdicts) < min(v.p_yes for v in kept.verdicts)
    assert again.model_calls == 0 and [v.keeps for v in again.verdicts] == [v.keeps for v in lossy.verdicts]
