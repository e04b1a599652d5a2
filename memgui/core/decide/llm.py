"""The local decider (netclaw-compat §8): a llama.cpp model judges a proposal against candidates and drafts the merge.

`LlamaDecider` implements the `Decider` protocol of `core/curation/types.py`. Its output is always a Netclaw protocol
reply (keyword line, optional `REASON:` line, `---` + merged body for UPDATE/CONSOLIDATE) that
`protocol.parse_reply` reads; nothing else ever reaches the caller.

Two pipelines (docs/decider.md has the measurements behind the default):
- **two-stage** (default). Measured on the 1.5B default model: it judges "same fact?" reliably only with the
  few-shot same/different classifier prompt, and merges well only with the "editor" prompt; asked for the whole
  protocol at once it does neither well. So stage 1 asks the classifier, under a two-word grammar, about the
  proposal against each candidate; stage 2 runs only when some candidate states the same facts, and has the
  editor prompt write the merged body of the proposal and those candidates. The two are assembled into one
  protocol reply: no same-fact candidate → `CREATE`; one same-fact candidate under the proposal's own anchor →
  `UPDATE <id>`; otherwise → `CONSOLIDATE <id> …`; both followed by `---` and the editor's body. (SKIP is never
  produced: "same fact" includes one side adding details, and a SKIP would drop them; MergeGuard checks the body.)
  The raw replies of every stage are kept in `DeciderResult.extra["calls"]`.
- **single**: Netclaw's own curator prompt and user message, under a grammar that only admits the protocol
  with the candidate ids that exist (for larger models that follow the curator prompt).

Streaming: every generated piece is yielded as `Progress(payload=piece)`; the cancel token and the deadline
are checked between pieces (and between prompt chunks). Timeout → `DeciderResult(None, error="timeout")`,
cancel → `error="cancelled"` (no marker: a cancel is no timeout), unparseable → `error="unparseable"`, any other
failure → `error=<text>`; the matching netclaw-compat §13 marker (`curation_llm_timeout`, `curation_llm_no_decision`, `curation_llm_error`,
`curation_llm_decision`) is logged on the `memgui.decide` logger and named in `extra["marker"]` (the evaluator
emits the curation-log markers itself from `error`, so they are not written twice).
"""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...config import CurationSettings, load_curation_settings
from ..curation.types import Candidate, CurationDecision, DeciderResult, DecisionKind, Proposal
from ..merge.keep_draft import repair
from ..netfx import StrEnum
from ..tasks import CancelToken, Progress, Step, Work
from . import prompts as dp
from .engine import Engine, LlamaEngine
from .inputs import merge_keyword
from .prompts import Pipeline

log = logging.getLogger("memgui.decide")

PIPELINE_TWO_STAGE, PIPELINE_SINGLE = Pipeline.TWO_STAGE, Pipeline.SINGLE
PIPELINES = tuple(Pipeline)
# The classifier answers SAME only when SAME's first-token logit beats DIFFERENT's by this much (nats); a
# near tie is DIFFERENT. Merging is destructive, so "genuinely unsure" means CREATE (netclaw-compat §8.2 bias), and a
# near tie flips with the batch layout of the prompt (measured), so it must not decide a merge.
DEFAULT_SAME_MARGIN = 0.3  # chosen on the dev set (resources/prompts/decider_devset.json), docs/decider.md


class Stage(StrEnum):
    """Which prompt a model call ran (`StageCall.stage`, kept as its value in `DeciderResult.extra["calls"]`)."""

    CLASSIFY = "classify"  # stage 1: SAME / DIFFERENT of one pair
    MERGE = "merge"  # stage 2: the merged body
    PROTOCOL = "protocol"  # the single-prompt pipeline: Netclaw's whole decision protocol


_PROGRESS_LABEL = {Stage.CLASSIFY: Step.CLASSIFYING, Stage.MERGE: Step.MERGING, Stage.PROTOCOL: Step.DECIDING}


@dataclass(frozen=True)
class StageCall:
    """One model call of a decision, as it happened."""

    stage: Stage
    candidate_id: str | None
    reply: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    margin: float | None = None  # classifier: logit(SAME) − logit(DIFFERENT) of the first answer token


class _Stop(Exception):
    def __init__(self, reason: str):  # "timeout" | "cancelled"
        super().__init__(reason)
        self.reason = reason


class PromptTooLong(ValueError):
    """The prompt does not fit the model's context."""


class LlamaDecider:
    """The local LLM tier: one long-lived llama.cpp model (any GGUF), grammar-constrained, streamed."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_threads: int | None = None,
        n_ctx: int | None = None,
        max_output_tokens: int | None = None,
        timeout_s: float | None = None,
        pipeline: Pipeline | str = PIPELINE_TWO_STAGE,  # a string (the CLI's --pipeline) is read here
        explain: bool = False,
        same_margin: float = DEFAULT_SAME_MARGIN,
        settings: CurationSettings | None = None,
        engine: Engine | None = None,
        verbose: bool = False,
    ):
        if pipeline not in PIPELINES:
            raise ValueError(f"unknown decider pipeline {pipeline!r}; choose one of {', '.join(PIPELINES)}")
        settings = settings or load_curation_settings()
        self.settings = settings
        self.max_output_tokens = max_output_tokens or settings.llm_max_output_tokens
        self.timeout_s = timeout_s if timeout_s is not None else settings.llm_timeout_seconds
        self.pipeline = Pipeline(pipeline)
        self.explain = explain
        self.same_margin = same_margin
        if engine is None:
            if model_path is None:
                raise ValueError("LlamaDecider needs a model path (a GGUF file) or an engine")
            engine = LlamaEngine(model_path, n_threads=n_threads or settings.llm_threads,
                                 n_ctx=n_ctx or settings.llm_context, verbose=verbose)
        self.engine = engine
        self.model_path = Path(model_path) if model_path is not None else getattr(engine, "model_path", None)
        self.model_id: str = engine.model_id
        self._stable = dp.StablePrefix()

    # -- lifecycle ------------------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return bool(getattr(self.engine, "loaded", True))

    def load(self) -> Work[float]:
        """Load the model (once). Yields one Progress; returns the seconds it took (0.0 when loaded)."""
        if self.loaded:
            return 0.0
        yield Progress(Step.LOADING_MODEL, 0, None, self.model_id)
        start = time.monotonic()
        loader = getattr(self.engine, "load", None)  # LlamaEngine loads lazily; a fake engine may not
        if loader is not None:
            loader()
        return time.monotonic() - start

    def close(self) -> None:
        closer = getattr(self.engine, "close", None)
        if closer is not None:
            closer()

    def _lock(self) -> contextlib.AbstractContextManager[Any]:
        lock = getattr(self.engine, "lock", None)
        return lock if lock is not None else contextlib.nullcontext()

    # -- the Decider protocol ---------------------------------------------------------------------------
    def decide(
        self,
        proposal: Proposal,
        candidates: Sequence[Candidate],
        *,
        full_candidate_content: bool,
        cancel: CancelToken | None = None,
        timeout_s: float | None = None,
    ) -> Work[DeciderResult]:
        timeout = self.timeout_s if timeout_s is None else timeout_s
        anchor = proposal.anchor_name
        calls: list[StageCall] = []
        extra: dict[str, Any] = {"pipeline": self.pipeline, "calls": calls}
        with self._lock():
            try:
                load_s = yield from self.load()
            except Exception as exc:  # a model that cannot load is "no decision"
                return self._failed(anchor, calls, extra, 0.0, str(exc) or type(exc).__name__)
            if load_s:
                extra["load_seconds"] = round(load_s, 3)
            start = time.monotonic()
            deadline = start + timeout if timeout and timeout > 0 else None
            try:
                if self.pipeline == PIPELINE_SINGLE:
                    raw, hash_ = yield from self._single(proposal, candidates, full_candidate_content,
                                                         calls, deadline, cancel, extra)
                else:
                    raw, hash_ = yield from self._two_stage(proposal, candidates, full_candidate_content,
                                                            calls, extra, deadline, cancel)
            except _Stop as stop:
                seconds = time.monotonic() - start
                if stop.reason == "timeout":  # a cancel (the person, the window closing) is no timeout
                    extra["marker"] = "curation_llm_timeout"
                    log.warning("curation_llm_timeout anchor=%s timeoutSeconds=%s", anchor, _num(timeout))
                else:
                    log.info("decider call cancelled anchor=%s", anchor)
                return self._result(None, "", calls, extra, seconds, error=stop.reason)
            except Exception as exc:  # any model failure falls back, as Netclaw's catch-all does
                return self._failed(anchor, calls, extra, time.monotonic() - start, str(exc) or type(exc).__name__)
        seconds = time.monotonic() - start
        from ..curation.protocol import parse_reply

        decision = parse_reply(raw)
        if decision is None:
            extra["marker"] = "curation_llm_no_decision"
            log.warning("curation_llm_no_decision anchor=%s responseLength=%d", anchor, len(raw.strip()))
            return self._result(None, raw, calls, extra, seconds, error="unparseable", prompt_hash=hash_)
        extra["marker"] = "curation_llm_decision"
        log.info("curation_llm_decision anchor=%s decision=%s reason=%s", anchor,
                 decision.kind.value.capitalize(), decision.reason)
        return self._result(decision, raw, calls, extra, seconds, prompt_hash=hash_)

    def classify_pair(self, existing: str, new: str, *, cancel: CancelToken | None = None,
                      timeout_s: float | None = None) -> Work[str | None]:
        """Stage 1 alone on two texts: "SAME" (same fact) or "DIFFERENT", None on timeout/cancel.
        This is the exact production prompt; the capability self-test uses it."""
        call = yield from self.judge_pair(existing, new, cancel=cancel, timeout_s=timeout_s)
        return call.reply.split("\n", 1)[0].strip() or None if call is not None else None

    def judge_pair(self, existing: str, new: str, *, cancel: CancelToken | None = None,
                   timeout_s: float | None = None) -> Work[StageCall | None]:
        """Stage 1 alone, with its details (reply, margin, tokens, seconds); None on timeout/cancel."""
        with self._lock():
            yield from self.load()
            deadline = time.monotonic() + timeout_s if timeout_s else None
            try:
                call: StageCall = yield from self._classify(existing, new, None, [], deadline, cancel)
                return call
            except _Stop:
                return None

    # -- pipelines --------------------------------------------------------------------------------------
    def _two_stage(self, proposal: Proposal, candidates: Sequence[Candidate], full_candidate_content: bool,
                   calls: list[StageCall], extra: dict[str, Any], deadline: float | None,
                   cancel: CancelToken | None) -> Work[tuple[str, str]]:
        same: list[Candidate] = []
        different: list[Candidate] = []
        reasons: dict[str, str] = {}
        user_texts: list[str] = []
        from ..curation.protocol import truncate_content

        for i, cand in enumerate(candidates):
            existing = cand.markdown_body if full_candidate_content else truncate_content(cand.markdown_body)
            call = yield from self._classify(existing, _proposal_text(proposal), cand.document_id, calls,
                                             deadline, cancel, done=i, total=len(candidates))
            user_texts.append(dp.pair_text(existing, _proposal_text(proposal)))
            word, _, reason = call.reply.partition("\n")
            if reason.startswith("REASON:"):
                reasons[cand.document_id] = reason[len("REASON:"):].strip()
            (same if word.strip() == dp.SAME else different).append(cand)
        extra["same_fact_ids"] = [c.document_id for c in same]
        extra["different_ids"] = [c.document_id for c in different]
        body = None
        if not same:
            keyword = str(DecisionKind.CREATE)
        else:
            keyword = merge_keyword(proposal, same)
            bodies = [proposal.content] + [c.markdown_body for c in same]
            messages = dp.editor_messages(bodies)
            user_texts.append(messages[-1]["content"])
            try:
                call = yield from self._call(Stage.MERGE, None, messages, None, self.max_output_tokens,
                                             calls, deadline, cancel, done=len(candidates), total=len(candidates))
                body = call.reply.strip() or None
            except PromptTooLong as exc:
                extra["merge_error"] = str(exc)  # keyword-only decision; the reviewer gets the union draft
            if body is not None:  # prove or keep: the model's sentences stay only where the alignment proves them
                fixed = repair(bodies, body)
                if fixed.kept_back or fixed.dropped:
                    body = fixed.body
                    extra["restored_sentences"] = [k.text for k in fixed.kept_back]
                    extra["dropped_sentences"] = list(fixed.dropped)
        reason = self._reason(keyword, same, different, reasons, len(extra.get("restored_sentences", ())),
                              len(extra.get("dropped_sentences", ())))
        raw = dp.assemble_reply(keyword, reason=reason, body=body)
        from ..curation.protocol import prompt_hash

        system, user = dp.classify_system_prompt(), "\n\x1e\n".join(user_texts)
        extra["prompt"] = f"{system}\n\n{user}"
        return raw, prompt_hash(system, user)

    def _single(self, proposal: Proposal, candidates: Sequence[Candidate], full_candidate_content: bool,
                calls: list[StageCall], deadline: float | None, cancel: CancelToken | None,
                extra: dict[str, Any] | None = None) -> Work[tuple[str, str]]:
        from ..curation.protocol import build_user_message, curator_system_prompt, prompt_hash

        system = curator_system_prompt()
        user = build_user_message(proposal, candidates, full_candidate_content=full_candidate_content)
        if extra is not None:
            extra["prompt"] = f"{system}\n\n{user}"
        grammar = dp.protocol_grammar([c.document_id for c in candidates])
        messages = dp.chat(system, user)
        call = yield from self._call(Stage.PROTOCOL, None, messages, grammar, self.max_output_tokens, calls,
                                     deadline, cancel)
        return call.reply, prompt_hash(system, user)

    def _classify(self, existing: str, new: str, candidate_id: str | None, calls: list[StageCall],
                  deadline: float | None, cancel: CancelToken | None, done: int = 0, total: int = 1) -> Work[StageCall]:
        messages = dp.classify_messages(existing, new)
        if self.explain or not hasattr(self.engine, "score_words"):
            grammar = dp.CLASSIFY_WITH_REASON_GRAMMAR if self.explain else dp.CLASSIFY_GRAMMAR
            max_tokens = 80 if self.explain else dp.CLASSIFY_MAX_TOKENS
            call: StageCall = yield from self._call(Stage.CLASSIFY, candidate_id, messages, grammar, max_tokens, calls,
                                                    deadline, cancel, done=done, total=total)
            return call
        # Score the two answers from the logits after the prompt: the same choice a two-word grammar makes
        # greedily, plus the margin, so a near tie can be judged DIFFERENT.
        _check(deadline, cancel)
        started = time.monotonic()
        tokens = self._fit(self.engine.tokenize(self.engine.render(messages)))
        yield Progress(Step.CLASSIFYING, done, total, candidate_id or "")
        work = self.engine.score_words(tokens, stable_prefix=self._stable_prefix(Stage.CLASSIFY, messages, tokens),
                                       words=(dp.SAME, dp.DIFFERENT))
        while True:
            try:
                next(work)
            except StopIteration as stop:
                scores = stop.value
                break
            _check(deadline, cancel)
        margin = scores[dp.SAME] - scores[dp.DIFFERENT]
        reply = dp.SAME if margin > self.same_margin else dp.DIFFERENT
        yield Progress(Step.CLASSIFYING, done, total, candidate_id or "", payload=reply)
        call = StageCall(Stage.CLASSIFY, candidate_id, reply, len(tokens), 1, round(time.monotonic() - started, 3),
                         margin=round(margin, 3))
        calls.append(call)
        return call

    def _fit(self, tokens: list[int]) -> list[int]:
        if self.engine.n_ctx - len(tokens) < 2:
            raise PromptTooLong(f"prompt of {len(tokens)} tokens does not fit the model context ({self.engine.n_ctx})")
        return tokens

    def _call(self, stage: Stage, candidate_id: str | None, messages: list[dict[str, Any]], grammar: str | None,
              max_tokens: int, calls: list[StageCall], deadline: float | None, cancel: CancelToken | None,
              done: int = 0, total: int = 1) -> Work[StageCall]:
        """One streamed, grammar-constrained model call; raises _Stop between pieces on cancel/timeout."""
        _check(deadline, cancel)
        started = time.monotonic()
        tokens = self._fit(self.engine.tokenize(self.engine.render(messages)))
        room = self.engine.n_ctx - len(tokens)
        label = _PROGRESS_LABEL[stage]
        yield Progress(label, done, total, candidate_id or "")
        pieces: list[str] = []
        stream = self.engine.generate(tokens, stable_prefix=self._stable_prefix(stage, messages, tokens),
                                      grammar=grammar, max_tokens=min(max_tokens, room - 1))
        try:
            for piece in stream:
                if piece:
                    pieces.append(piece)
                    yield Progress(label, done, total, candidate_id or "", payload=piece)
                _check(deadline, cancel)  # before the next token is computed
        finally:
            close = getattr(stream, "close", None)  # a generator's: stops llama.cpp mid-stream
            if close is not None:
                close()
        reply = "".join(pieces)
        call = StageCall(stage, candidate_id, reply, len(tokens), self.engine.count_tokens(reply),
                         round(time.monotonic() - started, 3))
        calls.append(call)
        return call

    def _stable_prefix(self, stage: Stage, messages: list[dict[str, Any]], tokens: list[int]) -> int:
        """Tokens every prompt of this kind shares (system prompt, shots): compare with a reference prompt
        whose last user turn differs; cached per kind and fixed part."""
        key = (stage, tuple((m["role"], m["content"]) for m in messages[:-1]))
        return self._stable(self.engine, key, messages, tokens)

    # -- results ----------------------------------------------------------------------------------------
    @staticmethod
    def _reason(keyword: str, same: list[Candidate], different: list[Candidate], reasons: dict[str, str],
                restored: int = 0, dropped: int = 0) -> str:
        model_reason = next((reasons[c.document_id] for c in (same or different) if c.document_id in reasons), "")
        if model_reason:
            return model_reason
        diff_ids = ", ".join(c.document_id for c in different)
        if not same:
            return f"differs in a fact or topic from every candidate ({diff_ids})" if diff_ids else "no candidates"
        text = "states the same fact as " + ", ".join(c.document_id for c in same)
        text += "; merged body drafted by the editor prompt"
        if dropped:
            text += f"; {dropped} of its sentence(s) dropped for stating what no source states"
        if restored:
            text += f"; {restored} source sentence(s) it does not provably state restored verbatim"
        return text + (f"; differs from {diff_ids}" if diff_ids else "")

    def _result(self, decision: CurationDecision | None, raw: str, calls: list[StageCall], extra: dict[str, Any],
                seconds: float, *, error: str | None = None, prompt_hash: str = "") -> DeciderResult:
        extra = dict(extra, calls=[asdict(c) for c in calls])
        return DeciderResult(
            decision=decision, raw_reply=raw, rationale=decision.rationale if decision else None,
            model_id=self.model_id, prompt_hash=prompt_hash,
            prompt_tokens=sum(c.prompt_tokens for c in calls),
            completion_tokens=sum(c.completion_tokens for c in calls),
            seconds=round(seconds, 3), error=error, extra=extra,
        )

    def _failed(self, anchor: str, calls: list[StageCall], extra: dict[str, Any], seconds: float,
                error: str) -> DeciderResult:
        extra["marker"] = "curation_llm_error"
        log.warning("curation_llm_error anchor=%s error=%s", anchor, error)
        return self._result(None, "", calls, extra, seconds, error=error)


# -- helpers -------------------------------------------------------------------------------------------
def _check(deadline: float | None, cancel: CancelToken | None) -> None:
    if cancel is not None and cancel.cancelled:
        raise _Stop("cancelled")
    if deadline is not None and time.monotonic() >= deadline:
        raise _Stop("timeout")


def _proposal_text(proposal: Proposal) -> str:
    return proposal.content


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


__all__ = ["PIPELINES", "PIPELINE_SINGLE", "PIPELINE_TWO_STAGE", "LlamaDecider", "Pipeline", "PromptTooLong", "StageCall"]
