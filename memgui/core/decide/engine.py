"""The text-generation engine under the decider: one long-lived llama.cpp model (llama-cpp-python).

`LlamaEngine` keeps one `Llama` object so the fixed part of a prompt (system prompt + few-shot turns) stays in
llama.cpp's KV cache between decisions. It evaluates prompts itself, in fixed chunks, so that
- the prompt is cancellable between chunks (the engine yields "" after each chunk; the caller checks its cancel
  token and deadline between pieces, exactly as between generated tokens), and
- a decision does not depend on what was decided before: the cache is only reused up to the prompt's
  *stable prefix* (the part every prompt of that kind shares), and the rest is always evaluated in the same
  chunk layout. (Measured: the same pair evaluated in one batch or token by token can flip a borderline
  SKIP/CREATE, so cache-dependent chunking would make verdicts depend on history.)

Generation is greedy (temperature 0) under an optional GBNF grammar; pieces are streamed.
"""
from __future__ import annotations

import threading
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..vectors.llama_streams import keep_output_streams
from .prompts import PLAIN_TEMPLATE_STOP, render_plain

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

PROMPT_CHUNK = 128  # tokens evaluated per llama_decode while reading a prompt (cancel granularity)


class Engine(Protocol):
    """What the decider needs from a model. `generate` yields text pieces ("" while reading the prompt)."""

    model_id: str
    n_ctx: int

    def render(self, messages: Sequence[dict[str, Any]]) -> str: ...

    def tokenize(self, prompt: str) -> list[int]: ...

    def count_tokens(self, text: str) -> int: ...

    def generate(self, prompt_tokens: Sequence[int], *, stable_prefix: int, grammar: str | None,
                 max_tokens: int) -> Iterator[str]: ...

    # optional: def score_words(prompt_tokens, *, stable_prefix, words) -> Generator[str, None, dict[str, float]]


class LlamaEngine:
    """llama-cpp-python behind the Engine interface. Not thread-safe by itself; `lock` serialises callers."""

    def __init__(self, model_path: str | Path, *, n_threads: int, n_ctx: int, n_batch: int = 512,
                 verbose: bool = False):
        self.model_path = Path(model_path)
        self.model_id = self.model_path.stem
        self.n_threads = n_threads
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        self.verbose = verbose
        self.lock = threading.RLock()
        self._llm: Llama | None = None
        self._formatter: Jinja2ChatFormatter | None = None
        self._stop: list[str] = []
        self.has_chat_template = False
        self._valid_grammars: set[str] = set()
        self._word_tokens: dict[str, list[int]] = {}

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    @property
    def llm(self) -> Llama:
        if self._llm is None:
            self.load()
        assert self._llm is not None  # load() sets it or raises
        return self._llm

    def load(self) -> None:
        if self._llm is not None:
            return
        if not self.model_path.is_file():
            raise FileNotFoundError(f"model file not found: {self.model_path}")
        from llama_cpp import Llama  # heavy import, only when a model is really used

        keep_output_streams()
        llm = Llama(
            model_path=str(self.model_path), n_ctx=self.n_ctx, n_threads=self.n_threads,
            n_threads_batch=self.n_threads, n_batch=self.n_batch, verbose=self.verbose,
        )
        template = llm.metadata.get("tokenizer.chat_template")
        if template:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            eos = self._token_text(llm, llm.token_eos())
            bos = self._token_text(llm, llm.token_bos())
            self._formatter = Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)
            self._stop = [eos] if eos else []
            self.has_chat_template = True
        else:
            self._formatter = None
            self._stop = list(PLAIN_TEMPLATE_STOP)
        self._bos_text = self._token_text(llm, llm.token_bos())
        self._llm = llm

    @staticmethod
    def _token_text(llm: Llama, token: int | None) -> str:
        if token is None or token < 0:
            return ""
        return str(llm.detokenize([token], special=True).decode("utf-8", "replace"))

    def grammar_is_valid(self, grammar: str) -> bool:
        """Whether llama.cpp accepts this GBNF for this model's vocabulary. (An invalid grammar would hand
        llama-cpp-python a NULL sampler and crash the process, so every grammar is checked once.)"""
        if grammar in self._valid_grammars:
            return True
        import llama_cpp

        sampler = llama_cpp.llama_sampler_init_grammar(self.llm._model.vocab, grammar.encode("utf-8"), b"root")
        if not sampler:
            return False
        llama_cpp.llama_sampler_free(sampler)
        if len(self._valid_grammars) > 256:  # one per candidate-id set in the single pipeline
            self._valid_grammars.clear()
        self._valid_grammars.add(grammar)
        return True

    def close(self) -> None:
        with self.lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None

    # -- Engine interface -------------------------------------------------------------------------------
    def render(self, messages: Sequence[dict[str, Any]]) -> str:
        _ = self.llm  # loads; the template comes from the file
        if self._formatter is None:
            return render_plain(messages)
        chat: Any = list(messages)  # role/content dicts: llama-cpp-python types each role as its own TypedDict
        return self._formatter(messages=chat).prompt

    def tokenize(self, prompt: str) -> list[int]:
        add_bos = not (self._bos_text and prompt.startswith(self._bos_text))
        return list(self.llm.tokenize(prompt.encode("utf-8"), add_bos=add_bos, special=True))

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)) if text else 0

    def _read_prompt(self, tokens: list[int], stable_prefix: int) -> Iterator[str]:
        """Evaluate the whole prompt, reusing the cache only up to `stable_prefix`; yields "" per chunk."""
        llm = self.llm
        n = len(tokens)
        if n == 0:
            raise ValueError("empty prompt")
        cached = 0
        for a, b in zip(llm.input_ids[: llm.n_tokens].tolist(), tokens):
            if a != b:
                break
            cached += 1
        stable = max(0, min(stable_prefix, n - 1))
        # Keep the cache up to a chunk boundary of the stable part (or the whole stable part), so the KV
        # values of every position come from the same batch layout on every call.
        start = stable if cached >= stable else (cached // PROMPT_CHUNK) * PROMPT_CHUNK
        llm.n_tokens = start  # eval() drops the KV cells from here on
        for lo, hi in _chunks(start, stable, n):
            llm.eval(tokens[lo:hi])
            yield ""

    def generate(self, prompt_tokens: Sequence[int], *, stable_prefix: int, grammar: str | None,
                 max_tokens: int) -> Iterator[str]:
        """Evaluate the prompt (reusing the cache only up to `stable_prefix`), then stream the completion."""
        llm = self.llm
        tokens = list(prompt_tokens)
        yield from self._read_prompt(tokens, stable_prefix)
        # The whole prompt is now in the cache with fresh logits: create_completion samples at once.
        grammar_obj = None
        if grammar:
            from llama_cpp import LlamaGrammar

            if not self.grammar_is_valid(grammar):
                raise ValueError("invalid GBNF grammar")
            grammar_obj = LlamaGrammar.from_string(grammar, verbose=self.verbose)
        stream: Any = llm.create_completion(  # stream=True: chunks, and close(); the stub unions both modes
            tokens, max_tokens=max_tokens, temperature=0.0, grammar=grammar_obj, stream=True,
            stop=self._stop or None,
        )
        try:
            for chunk in stream:
                yield chunk["choices"][0]["text"]
        finally:
            stream.close()

    def score_words(self, prompt_tokens: Sequence[int], *, stable_prefix: int,
                    words: Sequence[str]) -> Generator[str, None, dict[str, float]]:
        """Read the prompt, then score each answer word by the best next-token logit among the tokens that
        spell a prefix of it (what a grammar allowing only these words would choose between, greedily).
        Yields "" per prompt chunk; returns {word: logit}."""
        import numpy as np

        llm = self.llm
        yield from self._read_prompt(list(prompt_tokens), stable_prefix)
        ptr = llm._ctx.get_logits_ith(-1)
        logits = np.ctypeslib.as_array(ptr, shape=(llm.n_vocab(),))
        return {w: float(max(logits[t] for t in self._prefix_tokens(w))) for w in words}

    def _prefix_tokens(self, word: str) -> list[int]:
        cached = self._word_tokens.get(word)
        if cached is None:
            found = set()
            for i in range(1, len(word) + 1):
                toks = self.llm.tokenize(word[:i].encode("utf-8"), add_bos=False, special=False)
                if len(toks) == 1:
                    found.add(toks[0])
            cached = self._word_tokens[word] = sorted(found)
        return cached


def _chunks(start: int, stable: int, end: int) -> Iterator[tuple[int, int]]:
    """Chunk bounds from `start` to `end`: PROMPT_CHUNK-aligned up to `stable`, then from `stable` on."""
    pos = start
    for boundary in (stable, end):
        while pos < boundary:
            base = 0 if boundary == stable else stable
            nxt = min(boundary, base + ((pos - base) // PROMPT_CHUNK + 1) * PROMPT_CHUNK)
            yield pos, nxt
            pos = nxt
