"""The second reader: the local model asked, for each source note, whether the merged body keeps every fact of
that source unchanged (issue 23 item 7; docs/reader.md).

One question per source, `SOURCE: …\\nMERGED: …` after a system prompt and eight few-shot turns
(`resources/prompts/reader_*`; the 1.5B default model only behaves with few-shot turns), answered by one forward
pass: the logits of the first answer token of `YES` and `NO` are compared (`Engine.score_words`, the same
scoring the decider's classifier uses); nothing is generated. p(yes) = softmax over the two; the source is kept
when p(yes) ≥ the threshold (chosen on the tune half of the labelled cases, `tests/perf/test_reader_agreement.py`).
The fixed prefix (system prompt + shots) stays in llama.cpp's KV cache between questions.

Answers are cached per (model file, source text, body text) in the user cache dir (`reader_cache`), so reading a
cluster again costs nothing. A source too long for the model's context is not read: its verdict is "no"
(unverified), because the reader guards writes no person reads.

Pure of Qt; a generator that yields Progress and stops on the cancel token between prompt chunks.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..store.reader_cache import ReaderCache
from ..tasks import Cancelled, CancelToken, Progress, Step, Work
from .prompts import ChatMessage, StablePrefix, clip, few_shot_chat, prompt_path, prompt_text

YES, NO = "YES", "NO"
DEFAULT_THRESHOLD = 0.6  # p(yes) at or above keeps the source: picked on the tune half (0.599; docs/reader.md)
MAX_CHARS = 3000  # per text in the question; a longer text is cut and its verdict cannot be "yes"
STAGE = Step.SECOND_READER


class ReaderUnavailable(RuntimeError):
    """The model behind the reader cannot score answers (an engine without `score_words`)."""


@dataclass(frozen=True)
class ReaderShot:
    source: str
    merged: str
    answer: str


@functools.cache
def reader_system_prompt() -> str:
    return prompt_text("reader_system.txt")


@functools.cache
def reader_shots() -> tuple[ReaderShot, ...]:
    data = json.loads(prompt_path("reader_shots.json").read_text(encoding="utf-8"))
    shots = tuple(ReaderShot(s["source"], s["merged"], s["answer"]) for s in data["shots"])
    if not shots or any(s.answer not in (YES, NO) for s in shots):
        raise ValueError("reader_shots.json: every shot needs an answer of YES or NO")
    return shots


@functools.cache
def reader_prompt_version() -> str:
    """A short hash of the prompt, the shots and the clip limit: part of the cache key."""
    h = hashlib.sha256(reader_system_prompt().encode("utf-8") + b"\x00" + str(MAX_CHARS).encode())
    for s in reader_shots():
        h.update(f"{s.source}\x1f{s.merged}\x1f{s.answer}\x00".encode())
    return h.hexdigest()[:16]


def reader_model_key(model_path: str | os.PathLike[str] | None, model_id: str = "") -> str:
    """The model file (path, size, mtime) plus the prompt version; a model without a file: its id."""
    try:
        path = Path(model_path).resolve() if model_path is not None else None
        st = path.stat() if path is not None else None
    except OSError:
        path, st = None, None
    model = f"{path}|{st.st_size}|{st.st_mtime_ns}" if path is not None and st is not None else f"id:{model_id}"
    return f"{model}|reader {reader_prompt_version()}"


def question_text(source: str, body: str) -> str:
    return f"SOURCE: {clip(source, MAX_CHARS).text}\nMERGED: {clip(body, MAX_CHARS).text}"


def reader_messages(source: str, body: str) -> list[ChatMessage]:
    """System prompt, the shots as user/assistant turns, then the question about this source (the decider's
    chat shape, prompts.few_shot_chat)."""
    return few_shot_chat(reader_system_prompt(), ((question_text(s.source, s.merged), s.answer) for s in reader_shots()),
                         question_text(source, body))


def p_yes_of(logit_yes: float, logit_no: float) -> float:
    """Softmax over the two answers."""
    d = logit_no - logit_yes
    return 0.0 if d > 700 else 1.0 / (1.0 + math.exp(d))


# ---- results ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReaderVerdict:
    """The reader's answer about one source."""

    index: int  # 1-based, in the order the sources were given
    keeps: bool  # True: every fact of the source kept unchanged (p_yes ≥ threshold)
    p_yes: float | None  # None: not read (too long, no answer)
    reason: str  # one line, e.g. "source 2: the reader says a fact changed (p(yes)=0.12)"
    document_id: str = ""
    cached: bool = False


@dataclass(frozen=True)
class ReaderReport:
    """The reader's verdicts on every source of one merged body."""

    verdicts: tuple[ReaderVerdict, ...]
    model_id: str = ""
    threshold: float = DEFAULT_THRESHOLD
    seconds: float = 0.0
    model_calls: int = 0  # questions the model answered (the rest came from the cache)

    @property
    def passed(self) -> bool:
        return bool(self.verdicts) and all(v.keeps for v in self.verdicts)

    @property
    def reason(self) -> str:
        """The first source it does not keep, or the all-kept line."""
        for v in self.verdicts:
            if not v.keeps:
                return v.reason
        n = len(self.verdicts)
        return f"the reader says every fact of the {n} source{'s' if n != 1 else ''} is kept"

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "reason": self.reason, "model_id": self.model_id,
                "threshold": self.threshold, "seconds": self.seconds, "model_calls": self.model_calls,
                "verdicts": [asdict(v) for v in self.verdicts]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReaderReport:
        verdicts = tuple(ReaderVerdict(**v) for v in data.get("verdicts", ()))
        return cls(verdicts, str(data.get("model_id", "")), float(data.get("threshold", DEFAULT_THRESHOLD)),
                   float(data.get("seconds", 0.0)), int(data.get("model_calls", 0)))


def verdict_line(index: int, p_yes: float | None, keeps: bool, why_unread: str = "") -> str:
    if p_yes is None:
        return f"source {index}: not read by the reader ({why_unread or 'no answer'}); left for a person"
    if keeps:
        return f"source {index}: the reader says every fact is kept (p(yes)={p_yes:.2f})"
    return f"source {index}: the reader says a fact changed or was dropped (p(yes)={p_yes:.2f})"


# ---- the reader ----------------------------------------------------------------------------------------------

@dataclass
class FactReader:
    """Asks the model about each source. `engine` is the decider's engine (or `make_engine()` returns it on
    first need, so a fully cached read never loads the model). `model_key` keys the cache."""

    model_key: str
    engine: Any = None
    make_engine: Callable[[], Any] | None = None
    cache: ReaderCache | None = None
    threshold: float = DEFAULT_THRESHOLD
    model_id: str = ""
    _stable: StablePrefix = field(default_factory=StablePrefix, repr=False)

    @classmethod
    def for_decider(cls, decider: Any, *, cache: ReaderCache | None = None,
                    threshold: float = DEFAULT_THRESHOLD) -> FactReader:
        """The reader on a decider's loaded (or loadable) engine, sharing its model and its lock."""
        engine = decider.engine
        key = reader_model_key(getattr(decider, "model_path", None), getattr(decider, "model_id", ""))
        return cls(key, engine=engine, cache=cache, threshold=threshold, model_id=getattr(decider, "model_id", ""))

    def _engine(self) -> Any:
        if self.engine is None:
            if self.make_engine is None:
                raise ReaderUnavailable("no model for the second reader")
            self.engine = self.make_engine()
        if not hasattr(self.engine, "score_words"):
            raise ReaderUnavailable(f"{getattr(self.engine, 'model_id', 'the model')} cannot score answers")
        self.model_id = self.model_id or str(getattr(self.engine, "model_id", ""))
        return self.engine

    def read(self, sources: Sequence[str], body: str, *, document_ids: Sequence[str] = (),
             cancel: CancelToken | None = None) -> Work[ReaderReport]:
        """The verdict on each source of `body`. Yields Progress per source (and per prompt chunk)."""
        started = time.monotonic()
        verdicts: list[ReaderVerdict] = []
        calls = 0
        total = len(sources)
        for i, source in enumerate(sources):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            doc_id = document_ids[i] if i < len(document_ids) else ""
            label = f"source {i + 1}" + (f" ({doc_id})" if doc_id else "")
            yield Progress(STAGE, i, total, label)
            p = self.cache.get(self.model_key, source, body) if self.cache is not None else None
            cached, why = p is not None, ""
            if p is None:
                p, why = yield from self._ask(source, body, cancel, Progress(STAGE, i, total, label))
                calls += 1
            keeps = p is not None and p >= self.threshold and not why
            verdicts.append(ReaderVerdict(i + 1, keeps, None if p is None else round(p, 4),
                                          verdict_line(i + 1, p, keeps, why), doc_id, cached))
        yield Progress(STAGE, total, total, "done")
        return ReaderReport(tuple(verdicts), self.model_id, self.threshold, round(time.monotonic() - started, 3),
                            calls)

    def score(self, source: str, body: str, *, cancel: CancelToken | None = None) -> Work[float | None]:
        """p(yes) for one question, from the cache or the model (None when it cannot be read)."""
        p = self.cache.get(self.model_key, source, body) if self.cache is not None else None
        if p is None:
            p, _why = yield from self._ask(source, body, cancel, Progress(STAGE, 0, 1, "source"))
        return p

    def _ask(self, source: str, body: str, cancel: CancelToken | None,
             step: Progress) -> Work[tuple[float | None, str]]:
        """Score one question (yields `step` after each prompt chunk); (p(yes), "") or (None, why unread)."""
        if clip(source, MAX_CHARS).cut or clip(body, MAX_CHARS).cut:
            return None, f"longer than the reader reads ({MAX_CHARS} characters)"
        engine = self._engine()
        lock = getattr(engine, "lock", None)
        with lock if lock is not None else contextlib.nullcontext():
            started = time.monotonic()
            messages = reader_messages(source, body)
            tokens = engine.tokenize(engine.render(messages))
            if engine.n_ctx - len(tokens) < 2:
                return None, f"{len(tokens)} tokens do not fit the model's context ({engine.n_ctx})"
            work = engine.score_words(tokens, stable_prefix=self._stable_prefix(engine, messages, tokens),
                                      words=(YES, NO))
            while True:
                try:
                    next(work)
                except StopIteration as stop:
                    scores = stop.value
                    break
                if cancel is not None and cancel.cancelled:
                    work.close()
                    raise Cancelled()
                yield step
            seconds = round(time.monotonic() - started, 3)
        p = p_yes_of(scores[YES], scores[NO])
        if self.cache is not None:
            self.cache.put(self.model_key, source, body, p, seconds)
        return p, ""

    def _stable_prefix(self, engine: Any, messages: list[dict[str, Any]], tokens: list[int]) -> int:
        """Tokens every question shares (system prompt + shots), found once by comparing two renderings."""
        return self._stable(engine, id(engine), messages, tokens)


__all__ = [
    "DEFAULT_THRESHOLD",
    "MAX_CHARS",
    "NO",
    "YES",
    "FactReader",
    "ReaderCache",
    "ReaderReport",
    "ReaderUnavailable",
    "ReaderVerdict",
    "p_yes_of",
    "reader_messages",
    "reader_model_key",
    "reader_prompt_version",
    "verdict_line",
]
