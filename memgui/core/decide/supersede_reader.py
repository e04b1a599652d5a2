"""The supersede reading (issue 38): the local model asked whether a NEWER note is the newer state of what an
OLDER note says (UPDATE), a separate dated observation of one series (SERIES), or neither (OTHER).

One forward pass per ordered pair, after a system prompt and few-shot turns (`resources/prompts/supersede_*`;
the 1.5B default model only behaves with shots): the first-token logits of the three answers are compared
(`Engine.score_words`, as the classifier and the second reader do) and softmaxed. Nothing is generated. The
model only reads; the order, the dated-series veto and the proof of the draft are deterministic
(core/merge/supersede.py, core/decide/supersession.py).
"""
from __future__ import annotations

import contextlib
import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..store.reader_cache import ReaderCache
from ..tasks import Cancelled, CancelToken, Progress, Step, Work
from .prompts import ChatMessage, StablePrefix, clip, few_shot_chat, prompt_path, prompt_text
from .reader import reader_model_key

UPDATE, SERIES, OTHER = "UPDATE", "SERIES", "OTHER"
ANSWERS = (UPDATE, SERIES, OTHER)
MAX_CHARS = 1500  # per note in the question; a longer note is not read (a person decides)
STAGE = Step.SUPERSEDE_READING


@dataclass(frozen=True)
class PairShot:
    older: str
    older_day: str
    newer: str
    newer_day: str
    answer: str


@functools.cache
def system_prompt() -> str:
    return prompt_text("supersede_system.txt")


@functools.cache
def shots() -> tuple[PairShot, ...]:
    data = json.loads(prompt_path("supersede_shots.json").read_text(encoding="utf-8"))
    out = tuple(PairShot(s["older"], s["older_day"], s["newer"], s["newer_day"], s["answer"]) for s in data["shots"])
    if not out or any(s.answer not in ANSWERS for s in out):
        raise ValueError(f"supersede_shots.json: every shot needs an answer among {', '.join(ANSWERS)}")
    return out


def question(older: str, older_day: str, newer: str, newer_day: str) -> str:
    return f"OLDER (written {older_day}): {clip(older, MAX_CHARS).text}\nNEWER (written {newer_day}): " \
           f"{clip(newer, MAX_CHARS).text}"


def messages(older: str, older_day: str, newer: str, newer_day: str) -> list[ChatMessage]:
    return few_shot_chat(system_prompt(), ((question(s.older, s.older_day, s.newer, s.newer_day), s.answer)
                                           for s in shots()), question(older, older_day, newer, newer_day))


def softmax(logits: Mapping[str, float]) -> dict[str, float]:
    top = max(logits.values())
    exp = {w: math.exp(v - top) for w, v in logits.items()}
    total = sum(exp.values())
    return {w: exp[w] / total for w in logits}


@dataclass(frozen=True)
class PairReading:
    answer: str  # UPDATE | SERIES | OTHER | "" (not read)
    p: Mapping[str, float]
    why_unread: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"answer": self.answer, "p": {k: round(v, 4) for k, v in self.p.items()}, "why_unread": self.why_unread}


class SupersedeReader:
    """Reads ordered pairs with an engine that can score answer words (the decider's own engine). With a `cache`
    (the second reader's file), each answer's p is kept per (model file, whole prompt): a pair read once, by the
    window or a command, costs nothing the next time."""

    def __init__(self, engine: Any, *, cache: ReaderCache | None = None):
        if not hasattr(engine, "score_words"):
            raise ValueError(f"{getattr(engine, 'model_id', 'the model')} cannot score answers")
        self.engine = engine
        self.model_id = str(getattr(engine, "model_id", ""))
        self._prefix = StablePrefix()
        path = getattr(engine, "model_path", None)
        self.cache = cache if path is not None else None  # an engine with no model file (a fake): nothing kept
        self.model_key = f"supersede|{reader_model_key(path, self.model_id)}"

    def _cached(self, prompt: str) -> dict[str, float] | None:
        if self.cache is None:
            return None
        p = {w: self.cache.get(self.model_key, prompt, w) for w in ANSWERS}
        return {w: v for w, v in p.items() if v is not None} if all(v is not None for v in p.values()) else None

    def _keep(self, prompt: str, p: Mapping[str, float]) -> None:
        if self.cache is not None:
            for w, v in p.items():
                self.cache.put(self.model_key, prompt, w, v)

    def read(self, older: str, older_day: str, newer: str, newer_day: str, *,
             cancel: CancelToken | None = None) -> Work[PairReading]:
        if len(older) > MAX_CHARS or len(newer) > MAX_CHARS:
            return PairReading("", {}, f"a note is longer than the reading reads ({MAX_CHARS} characters)")
        engine = self.engine
        lock = getattr(engine, "lock", None)
        with lock if lock is not None else contextlib.nullcontext():
            chat = messages(older, older_day, newer, newer_day)
            prompt = engine.render(chat)
            kept = self._cached(prompt)
            if kept is not None:
                return PairReading(max(ANSWERS, key=lambda w: kept[w]), kept)
            tokens = engine.tokenize(prompt)
            if engine.n_ctx - len(tokens) < 2:
                return PairReading("", {}, f"{len(tokens)} tokens do not fit the model's context ({engine.n_ctx})")
            work = engine.score_words(tokens, stable_prefix=self._prefix(engine, STAGE, chat, tokens), words=ANSWERS)
            while True:
                try:
                    next(work)
                except StopIteration as stop:
                    logits = stop.value
                    break
                if cancel is not None and cancel.cancelled:
                    work.close()
                    raise Cancelled()
                yield Progress(STAGE, 0, 1, "reading")
        p = softmax(logits)
        self._keep(prompt, p)
        return PairReading(max(ANSWERS, key=lambda w: p[w]), p)


__all__ = ["ANSWERS", "OTHER", "SERIES", "UPDATE", "PairReading", "SupersedeReader", "messages", "shots",
           "softmax", "system_prompt"]
