"""The second reader on labelled merges (issue 23 item 7): its accuracy, its agreement with memgui's lens
(`check_strict(...).passed`) and the seconds per reader call on this machine, on the check half; the yes/no
threshold is picked on the tune half only (balanced accuracy), and printed beside the one the code ships.

Cases: `tests/data/facts/handwritten.json` when it exists (each case: label lossy/lossless, sources, body,
split tune/check); otherwise the union pairs of `data/union_pairs_*.json` (seen → tune, blind → check), each
giving one lossless merge (the sentence-union draft of the pair) and one lossy merge (a mutation of that draft:
a number changed, a sentence dropped, a meaning negated or two values swapped, in turn).

`make bench` only (the real model, minutes). READER_BENCH_LIMIT=N caps each label of each half."""
from __future__ import annotations

import itertools
import json
import os
import re
import statistics
import time
from pathlib import Path

import pytest

from memgui.core.decide import model_files
from memgui.core.decide.llm import LlamaDecider
from memgui.core.decide.reader import DEFAULT_THRESHOLD, FactReader
from memgui.core.merge.strict import check_strict
from memgui.core.merge.union import sentence_union
from memgui.core.tasks import run_to_end

ROOT = Path(__file__).resolve().parents[1]
HANDWRITTEN = ROOT / "data" / "facts" / "handwritten.json"
PAIRS = Path(__file__).parent / "data"
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`*])")
_VERB = re.compile(r"\b(is|are|was|were|runs|uses|has|can|will|should|must)\b")


# ---- the cases --------------------------------------------------------------------------------------------

def _bump(body: str) -> str | None:
    """A number of the body changed (the last one, +1 or ×2)."""
    found = list(_NUMBER.finditer(body))
    if not found:
        return None
    m = found[-1]
    value = m.group(0)
    new = str(int(value) + 1) if value.isdigit() else value.replace(value[-1], str((int(value[-1]) + 3) % 10), 1)
    return body[: m.start()] + new + body[m.end():]


def _drop(body: str) -> str | None:
    """The longest sentence dropped (when at least two remain a note)."""
    parts = _SENTENCE.split(body.strip())
    if len(parts) < 2:
        return None
    longest = max(range(len(parts)), key=lambda i: len(parts[i]))
    return " ".join(p for i, p in enumerate(parts) if i != longest)


def _negate(body: str) -> str | None:
    """The first auxiliary or verb negated ('is' → 'is not', 'runs' → 'never runs')."""
    m = _VERB.search(body)
    if not m:
        return None
    word = m.group(1)
    repl = f"{word} not" if word in ("is", "are", "was", "were", "can", "will", "should", "must") else f"never {word}"
    return body[: m.start()] + repl + body[m.end():]


def _swap(body: str) -> str | None:
    """Two different numbers of the body swapped (every token kept; the values re-attached)."""
    found = [m for m in _NUMBER.finditer(body)]
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if a.group(0) != b.group(0):
                return (body[: a.start()] + b.group(0) + body[a.end(): b.start()] + a.group(0) + body[b.end():])
    return None


MUTATIONS = (("number", _bump), ("drop", _drop), ("negate", _negate), ("swap", _swap))


def _pair_cases(path: Path, split: str) -> list[dict]:
    pairs = json.loads(path.read_text(encoding="utf-8"))["pairs"]
    cases = []
    for n, pair in enumerate(pairs):
        longest, other = sorted([pair["a"], pair["b"]], key=len, reverse=True)
        sources = [longest, other]
        body = sentence_union(longest, [other])
        cases.append({"id": f"{pair.get('topic', n)}/union", "label": "lossless", "kind": "union",
                      "sources": sources, "body": body, "split": split})
        for k in range(len(MUTATIONS)):  # the n-th pair's mutation in turn, the next that applies
            kind, mutate = MUTATIONS[(n + k) % len(MUTATIONS)]
            lossy = mutate(body)
            if lossy and lossy != body:
                cases.append({"id": f"{pair.get('topic', n)}/{kind}", "label": "lossy", "kind": kind,
                              "sources": sources, "body": lossy, "split": split})
                break
    return cases


def labelled_cases() -> tuple[str, list[dict]]:
    if HANDWRITTEN.is_file():
        data = json.loads(HANDWRITTEN.read_text(encoding="utf-8"))
        items = data["cases"] if isinstance(data, dict) else data
        return str(HANDWRITTEN.relative_to(ROOT.parent)), [
            {"id": str(c.get("id", i)), "label": c["label"], "kind": c.get("kind", ""), "sources": list(c["sources"]),
             "body": c["body"], "split": c.get("split", "check")} for i, c in enumerate(items)
            if c["label"] in ("lossy", "lossless")]  # a look-alike pair has no merged body to read
    cases = _pair_cases(PAIRS / "union_pairs_seen.json", "tune") + _pair_cases(PAIRS / "union_pairs_blind.json", "check")
    return "union pairs (seen → tune, blind → check) + one lossy mutation each", cases


# ---- scoring ----------------------------------------------------------------------------------------------

def _balanced(rows: list[tuple[float, bool]], threshold: float) -> float:
    """Balanced accuracy of 'lossless when min p(yes) ≥ threshold'."""
    pos = [p for p, lossless in rows if lossless]
    neg = [p for p, lossless in rows if not lossless]
    tpr = sum(p >= threshold for p in pos) / len(pos) if pos else 0.0
    tnr = sum(p < threshold for p in neg) / len(neg) if neg else 0.0
    return (tpr + tnr) / 2


def pick_threshold(rows: list[tuple[float, bool]]) -> float:
    """The threshold with the best balanced accuracy (ties: the higher, the stricter)."""
    values = sorted({round(p, 4) for p, _ in rows})
    candidates = [0.5] + [(a + b) / 2 for a, b in itertools.pairwise(values)]
    return max(candidates, key=lambda t: (round(_balanced(rows, t), 6), t))


@pytest.mark.skipif(model_files.default_model_path() is None, reason="the default decider model is not installed")
def test_reader_accuracy_and_agreement_with_the_lens():
    name, cases = labelled_cases()
    limit = int(os.environ.get("READER_BENCH_LIMIT", "0")) or None
    # READER_BENCH_LIMIT caps each label of each half, so a capped run still has both labels
    halves = {s: [c for label in ("lossy", "lossless") for c in [c for c in cases if c["split"] == s
                                                                and c["label"] == label][:limit]]
              for s in ("tune", "check")}
    decider = LlamaDecider(model_files.default_model_path(), n_threads=2)
    reader = FactReader.for_decider(decider)  # no cache: every question is a model call, so it is timed
    seconds: list[float] = []
    scored: dict[str, list[dict]] = {}
    try:
        run_to_end(reader.read(["warm-up note."], "warm-up note."))  # loads the model, fills the shots' KV cache
        for split, items in halves.items():
            for case in items:
                started = time.monotonic()
                report = run_to_end(reader.read(case["sources"], case["body"]))
                seconds.append((time.monotonic() - started) / max(1, report.model_calls))
                ps = [v.p_yes if v.p_yes is not None else 0.0 for v in report.verdicts]
                lens = check_strict(case["sources"], case["body"]).passed
                scored.setdefault(split, []).append({**case, "p": min(ps), "lens": lens})
    finally:
        decider.close()
    tune = [(c["p"], c["label"] == "lossless") for c in scored.get("tune", [])]
    threshold = pick_threshold(tune) if tune else DEFAULT_THRESHOLD
    print(f"\nsecond reader on {name}")
    print(f"  seconds per reader call (one source, warm prefix): median {statistics.median(seconds):.2f}, "
          f"max {max(seconds):.2f} over {len(seconds)} cases")
    print(f"  threshold picked on the tune half ({len(tune)} cases): p(yes) ≥ {threshold:.3f} "
          f"(balanced accuracy there {_balanced(tune, threshold):.1%}); shipped DEFAULT_THRESHOLD {DEFAULT_THRESHOLD}")
    for split in ("tune", "check"):
        rows = scored.get(split, [])
        if not rows:
            continue
        for t_name, t in (("picked", threshold), ("shipped", DEFAULT_THRESHOLD)):
            says_ok = [c["p"] >= t for c in rows]
            truth = [c["label"] == "lossless" for c in rows]
            acc = sum(a == b for a, b in zip(says_ok, truth)) / len(rows)
            bal = _balanced([(c["p"], c["label"] == "lossless") for c in rows], t)
            agree = sum(a == c["lens"] for a, c in zip(says_ok, rows)) / len(rows)
            caught = [not a for a, c in zip(says_ok, rows) if c["label"] == "lossy"]
            alarms = [not a for a, c in zip(says_ok, rows) if c["label"] == "lossless"]
            print(f"  {split} ({len(rows)} cases, threshold {t_name} {t:.3f}): accuracy {acc:.1%}, balanced "
                  f"{bal:.1%}; lossy caught {sum(caught)}/{len(caught)}, lossless flagged {sum(alarms)}/{len(alarms)}; "
                  f"agreement with the lens {agree:.1%}")
        lens_acc = sum(c["lens"] == (c["label"] == "lossless") for c in rows) / len(rows)
        either = sum((c["p"] >= threshold and c["lens"]) == (c["label"] == "lossless") for c in rows) / len(rows)
        print(f"  {split}: the lens alone {lens_acc:.1%}; lens AND reader (both must pass) {either:.1%}")
        by_kind: dict[str, list[bool]] = {}
        for c in rows:
            by_kind.setdefault(c["kind"] or c["label"], []).append((c["p"] >= threshold) == (c["label"] == "lossless"))
        print("    by kind: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_kind.items())))
    assert seconds and scored.get("check")
