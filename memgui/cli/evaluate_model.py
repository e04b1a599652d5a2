"""`memgui evaluate-model [--model GGUF] [--limit N] [--refresh] [--json]`

Measure the decider model on the bundled labelled demo store: its capability self-test, same-fact recall
(labelled duplicate pairs judged the same fact), sibling rejection (labelled look-alike pairs judged different)
and false merges per 100 nominee clusters (clusters whose pre-selected same-fact group joins two documents that
are not duplicates). `--limit N` measures only the first N clusters of the demo queue (the output says which
subset was measured). The result is cached per model file; the review window's decision panel shows it. A
cached result is printed again unless `--refresh`. Nothing of the user's store is read or written.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..config import memgui_command
from .common import (
    EXIT_OK,
    CliError,
    decider_model_path,
    int64_arg,
    print_json,
    print_text,
    progress_to_stderr,
    small_count_arg,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "evaluate-model",
        help="measure the decider model on the labelled demo store (recall, sibling rejection, false merges)",
        description="Judge the demo store's nominee clusters with the model and compare with the demo labels.",
    )
    p.add_argument("--model", metavar="GGUF", help="a GGUF model file (default: the installed default model)")
    p.add_argument("--limit", type=int64_arg, default=None, metavar="N",
                   help="measure only the first N nominee clusters of the demo queue (default: all, plus every "
                        "labelled pair)")
    p.add_argument("--refresh", action="store_true", help="measure again even when a result is cached")
    p.add_argument("--threads", type=small_count_arg, default=None, help="CPU threads for llama.cpp")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _model_path(args: argparse.Namespace) -> Path:
    path = decider_model_path(args.model)
    if path is None:
        raise CliError(f"the default decider model is not installed (run `{memgui_command()} models install`, or "
                       "pass --model GGUF)")
    return path


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _text(out: dict[str, Any]) -> str:
    selftest = out.get("selftest") or {}
    lines = [
        f"model:              {out['model_id']}{'  (cached result)' if out.get('cached') else ''}",
        f"self-test:          {'capable' if selftest.get('capable') else 'NOT capable'} "
        f"({selftest.get('passed')}/{selftest.get('total')} canary pairs right)",
        f"measured on:        {out['subset']} (clusters found by {out['embedder']})",
        f"same-fact recall:   {_percent(out['same_fact_recall'])} of {out['duplicate_pairs']} labelled duplicate pairs",
        f"sibling rejection:  {_percent(out['sibling_rejection'])} of {out['sibling_pairs']} labelled sibling pairs",
        f"false merges:       {out['false_merges_per_100']} per 100 clusters ({out['false_merges']} of "
        f"{out['clusters_measured']}; {out['merges_proposed']} merges proposed)",
        f"mixed clusters:     sibling kept out of the pre-selected group in {out['mixed_split']} of "
        f"{out['mixed_clusters']}",
        f"time:               {out['seconds']} s",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..config import load_curation_settings
    from ..core.decide import llm
    from ..core.decide.ahead import model_key
    from ..core.decide.selftest import run_selftest
    from ..core.forensics.model_quality import cached_quality, evaluate_model, save_quality
    from ..core.tasks import run_to_end

    if args.limit is not None and args.limit < 1:
        raise CliError("--limit must be at least 1")
    path = _model_path(args)
    settings = load_curation_settings()
    decider = llm.LlamaDecider(path, n_threads=args.threads or settings.llm_threads, n_ctx=settings.llm_context,
                               timeout_s=0, settings=settings)
    key = model_key(decider)
    quality = None if args.refresh else cached_quality(key, args.limit)
    cached = quality is not None
    show = progress_to_stderr if sys.stderr.isatty() else None
    if quality is None:
        try:
            report = run_selftest(decider, on_progress=show)
            quality = run_to_end(evaluate_model(decider, limit=args.limit), show)
        finally:
            decider.close()
        from dataclasses import replace

        quality = replace(quality, selftest={"capable": report.capable, "passed": report.passed,
                                             "total": report.total})
        save_quality(key, quality)
    out = {**quality.to_dict(), "model_path": str(path), "cached": cached}
    if args.json:
        print_json(out)
    else:
        print_text(_text(out))
    return EXIT_OK


__all__ = ["register", "run"]
