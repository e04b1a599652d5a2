"""Capability self-test: is this model able to tell "same fact" from "different fact"?

Measured: small models (Qwen2.5-0.5B, gemma3-270m, SmolLM2-135M) give one constant answer for every pair, and a
constant answer looks like a working decider. So before a model is trusted (the default one or one the user
picks) six canary pairs — two paraphrases, two one-fact near misses, two unrelated pairs
(`resources/prompts/decider_canaries.json`) — go through the exact production classifier prompt. A model that
misses any of them is "not capable": the UI and CLI say so and the reviewer falls back to the deterministic
path (sentence-union draft).

The verdict is cached per model file (path + size + mtime) and prompt version in the user cache dir, so it is
not re-run on every start.
"""
from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...config import resources_dir, user_cache_dir
from ..curation.types import Candidate, DecisionKind, Proposal
from ..netfx import StrEnum
from ..store.seams import read_cache
from ..tasks import Cancelled, CancelToken, Progress, Step, Work, run_to_end
from . import prompts as dp

CACHE_FILE = "decider_selftest.json"
_SAME_KINDS = {DecisionKind.SKIP, DecisionKind.UPDATE, DecisionKind.CONSOLIDATE}  # judged "same fact"


class CanaryKind(StrEnum):
    """What a canary pair tests (`decider_canaries.json`)."""

    PARAPHRASE = "paraphrase"  # one fact said twice: SAME
    NEAR_MISS = "near-miss"  # one fact apart: DIFFERENT
    UNRELATED = "unrelated"  # nothing shared: DIFFERENT


class Answer(StrEnum):
    """The classifier's two answers (prompts.SAME / prompts.DIFFERENT): what a canary expects."""

    SAME = dp.SAME
    DIFFERENT = dp.DIFFERENT


@dataclass(frozen=True)
class Canary:
    kind: CanaryKind
    existing: str
    new: str
    expected: Answer

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Canary:
        """A canary from plain values (the resource file, a cached outcome): ValueError for a kind or an
        expected answer this memgui does not know."""
        return cls(CanaryKind(data["kind"]), data["existing"], data["new"], Answer(data["expected"]))


@dataclass(frozen=True)
class CanaryOutcome:
    kind: CanaryKind
    existing: str
    new: str
    expected: Answer
    answer: str | None  # the model's reply as given (None: no answer — timeout, error); right when it is `expected`
    ok: bool

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CanaryOutcome:
        """An outcome from a cached report: ValueError for a kind or an expected answer this memgui does not know
        (the cached verdict is then not used), TypeError for a missing or extra field."""
        if not isinstance(data, dict):
            raise TypeError(f"a canary outcome is an object, not {type(data).__name__}")
        return cls(**{**data, "kind": CanaryKind(data.get("kind")), "expected": Answer(data.get("expected"))})


@dataclass(frozen=True)
class SelfTestReport:
    capable: bool
    passed: int
    total: int
    details: tuple[CanaryOutcome, ...] = ()
    model_id: str = ""
    seconds: float = 0.0
    cached: bool = False
    error: str | None = None
    prompt_version: str = ""

    @property
    def summary(self) -> str:
        verdict = "capable" if self.capable else "not capable"
        text = f"{self.model_id or 'model'}: {verdict} ({self.passed}/{self.total} canary pairs right)"
        return text + (f" — {self.error}" if self.error else "")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["details"] = [asdict(d) for d in self.details]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelfTestReport:
        details = tuple(CanaryOutcome.from_dict(d) for d in data.get("details", ()))
        fields = {k: data[k] for k in ("capable", "passed", "total", "model_id", "seconds", "error", "prompt_version")
                  if k in data}
        return cls(details=details, **fields)


@functools.cache
def canaries() -> tuple[Canary, ...]:
    data = json.loads((resources_dir() / "prompts" / "decider_canaries.json").read_text(encoding="utf-8"))
    return tuple(Canary.from_dict(c) for c in data["canaries"])


def _version() -> str:
    parts = [dp.prompt_version()] + [f"{c.existing}\x1f{c.new}\x1f{c.expected}" for c in canaries()]
    import hashlib

    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:16]


def cache_key(model_path: str | os.PathLike[str], *, pipeline: str = "") -> str | None:
    """path + size + mtime of the model file, plus the prompt/canary version; None when the file is gone."""
    try:
        path = Path(model_path).resolve()
        st = path.stat()
    except OSError:
        return None
    return f"{path}|{st.st_size}|{st.st_mtime_ns}|{_version()}|{pipeline}"


def _cache_path() -> Path:
    return user_cache_dir() / CACHE_FILE


def _load_cache() -> dict[str, Any]:
    return read_cache(_cache_path())  # bounded; a malformed or 100k-deep cache is an empty one


def _save_cache(key: str, report: SelfTestReport) -> None:
    data = _load_cache()
    data[key] = report.to_dict()
    path = _cache_path()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def cached_selftest(model_path: str | os.PathLike[str], *,
                    pipeline: str = dp.Pipeline.TWO_STAGE) -> SelfTestReport | None:
    """The cached verdict for this exact model file, without loading the model; None when not tested yet."""
    key = cache_key(model_path, pipeline=pipeline)
    if key is None:
        return None
    data = _load_cache().get(key)
    if not isinstance(data, dict):
        return None
    try:
        report = SelfTestReport.from_dict(data)
    except (TypeError, ValueError):  # a verdict this memgui cannot read is made again
        return None
    return SelfTestReport(**{**asdict(report), "details": report.details, "cached": True})


def _answer(decider: Any, canary: Canary, cancel: CancelToken | None, timeout_s: float | None) -> Work[str | None]:
    """The decider's verdict on one canary: "SAME" or "DIFFERENT"; None when it gave none."""
    classify = getattr(decider, "classify_pair", None)
    if classify is not None:
        verdict: str | None = yield from classify(canary.existing, canary.new, cancel=cancel, timeout_s=timeout_s)
        return verdict
    proposal = Proposal(title="", content=canary.new, anchor_name="selftest")
    candidate = Candidate("doc-canary", "anchor:selftest", "selftest", canary.existing)
    result = yield from decider.decide(proposal, [candidate], full_candidate_content=True, cancel=cancel,
                                       timeout_s=timeout_s)
    if result is None or result.decision is None:
        return None
    return dp.SAME if result.decision.kind in _SAME_KINDS else dp.DIFFERENT


def selftest_work(decider: Any, *, cache: bool = True, cancel: CancelToken | None = None,
                  timeout_s: float | None = 60.0) -> Work[SelfTestReport]:
    """Run the canaries through `decider` (yields Progress per canary); the report is cached per model file."""
    model_path = getattr(decider, "model_path", None)
    pipeline = getattr(decider, "pipeline", "")
    key = cache_key(model_path, pipeline=pipeline) if (cache and model_path) else None
    if key is not None and model_path:
        hit = cached_selftest(model_path, pipeline=pipeline)
        if hit is not None:
            return hit
    model_id = getattr(decider, "model_id", "")
    items = canaries()
    outcomes: list[CanaryOutcome] = []
    error = None
    start = time.monotonic()
    for i, canary in enumerate(items):
        yield Progress(Step.SELF_TEST, i, len(items), f"{model_id}: {canary.kind}")
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        try:
            answer = yield from _answer(decider, canary, cancel, timeout_s)
        except Cancelled:
            raise
        except Exception as exc:  # a model that errors is not capable; say why
            answer, error = None, str(exc) or type(exc).__name__
        if answer is None and cancel is not None and cancel.cancelled:
            raise Cancelled()
        outcomes.append(CanaryOutcome(canary.kind, canary.existing, canary.new, canary.expected, answer,
                                      answer == canary.expected))
        if error:
            break
    yield Progress(Step.SELF_TEST, len(items), len(items), model_id)
    passed = sum(o.ok for o in outcomes)
    report = SelfTestReport(
        capable=passed == len(items), passed=passed, total=len(items), details=tuple(outcomes),
        model_id=model_id, seconds=round(time.monotonic() - start, 3), error=error, prompt_version=_version(),
    )
    if key is not None and error is None:
        _save_cache(key, report)
    return report


def run_selftest(decider: Any, *, cache: bool = True, cancel: CancelToken | None = None,
                 on_progress: Callable[[Progress], None] | None = None) -> SelfTestReport:
    return run_to_end(selftest_work(decider, cache=cache, cancel=cancel), on_progress)
