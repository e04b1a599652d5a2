"""`memgui decide --store PATH --docs ID,ID[,ID…] [--model GGUF | --draft union] [--json]`

Decide a cluster of existing documents: the newest is the proposal, the others are candidates with their full
content. With a model (the installed default, or `--model`), the model must pass the capability self-test
(cached per model file); a model that fails it, or no model at all, is reported and the deterministic
sentence-union draft is shown instead. `--draft union` asks for that draft directly. Nothing is written.

With a capable model, every pair of the cluster is judged first ("same fact?") and the cluster is split into
same-fact groups (`groups`, largest first); the decision and the merged body are drafted for the largest group
only, into `target` (its most complete, then newest, member).

Output (JSON): {decision, targets, rationale, merged_body, guard, model_id, seconds, prompt_tokens,
completion_tokens, groups, groups_judged, target, pairs, stamps, …}. `stamps` are each source's updated_at and
content hash at draft time: `memgui merge --draft FILE` refuses when any source changed since. Exit 0 with a
decision, 1 when the model gave none (timeout, unparseable), 2 on bad input.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import memgui_command
from .common import (
    EXIT_BAD_INPUT,
    EXIT_NEGATIVE,
    EXIT_OK,
    CliError,
    decider_model_path,
    document_ids_arg,
    open_store_or_fail,
    print_json,
    print_text,
    seconds_arg,
    small_count_arg,
    store_errors_as_cli_errors,
)

if TYPE_CHECKING:
    from ..core.store import Document, Store
    from ..core.tasks import Progress



def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "decide",
        help="let the local model (or the sentence-union draft) decide a cluster of documents",
        description="The newest document is the proposal, the others are candidates. Nothing is written.",
    )
    p.add_argument("--store", default=argparse.SUPPRESS, help="path to netclaw.db (default: located as Netclaw does)")
    p.add_argument("--docs", required=True, metavar="ID,ID[,ID…]", help="the documents of one cluster (two or more)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--model", metavar="GGUF", help="a GGUF model file (default: the installed default model)")
    source.add_argument("--draft", choices=["union"], help="the deterministic sentence-union draft, no model")
    p.add_argument("--timeout", type=seconds_arg, default=None, metavar="SECONDS",
                   help="limit for the model's answer (default: the interactive limit, 120 s)")
    p.add_argument("--threads", type=small_count_arg, default=None, help="CPU threads for llama.cpp")
    p.add_argument("--ctx", type=small_count_arg, default=None, help="model context size in tokens (default 4096)")
    p.add_argument("--pipeline", choices=["two-stage", "single"], default="two-stage",
                   help="two-stage: classifier + editor prompts (default); single: Netclaw's curator prompt")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _ids(text: str) -> list[str]:
    ids = document_ids_arg(text, "--docs")
    if len(ids) < 2:
        raise CliError("--docs needs at least two distinct document ids, separated by commas")
    return ids


def _load_cluster(store: Store, ids: list[str]) -> tuple[list[Document], dict[str, str]]:
    """The cluster's documents (in --docs order) and their anchors' canonical names."""
    by_id = {d.document_id: d for d in store.documents_by_ids(ids)}
    docs = [by_id[i] for i in ids if i in by_id]
    found = {d.document_id for d in docs}
    missing = [i for i in ids if i not in found]
    if missing:
        raise CliError(f"no such document in {store.path.name}: {', '.join(missing)}")
    dead = [d.document_id for d in docs if d.is_tombstoned]
    if dead:
        raise CliError(f"tombstoned document(s) cannot be decided: {', '.join(dead)}")
    from ..core.decide.inputs import anchor_names

    return docs, anchor_names(store, docs)


class _Stream:
    """Model text to stderr as it is generated (one line per stage)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.key: tuple[str, str] | None = None

    def __call__(self, progress: Progress) -> None:
        if not self.enabled:
            return
        key = (progress.stage, progress.message)
        if key != self.key:
            sys.stderr.write(("\n" if self.key else "") + f"{progress.stage} {progress.message}: ".replace(" :", ":"))
            self.key = key
        if progress.payload:
            sys.stderr.write(str(progress.payload))
        sys.stderr.flush()

    def end(self) -> None:
        if self.enabled and self.key:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _model_path(args: argparse.Namespace) -> tuple[Path | None, str | None]:
    """(model path, why there is none)."""
    path = decider_model_path(args.model)
    if path is None:
        return None, (f"the default decider model is not installed (run `{memgui_command()} models install`, or pass "
                      "--model GGUF)")
    return path, None


def _print_text(out: dict[str, Any], note: str | None) -> None:
    decision = out["decision"] or "no decision"
    lines = [f"decision: {decision} {' '.join(out['targets'])}".rstrip()]
    if out["seconds"] is not None:
        lines.append(f"model:    {out['model_id']} ({out['seconds']:.1f} s, {out['prompt_tokens']} prompt + "
                     f"{out['completion_tokens']} completion tokens)")
    if out["groups_judged"]:
        lines.append("groups:   " + " | ".join(", ".join(g) for g in out["groups"]) + "  (same-fact, largest first)")
    lines.append(f"target:   {out['target']}")
    if note:
        lines.append(f"note:     {note}")
    if out.get("error"):
        lines.append(f"error:    {out['error']}")
    if out["rationale"]:
        lines.append(f"reason:   {out['rationale']}")
    if out["guard"]:
        g = out["guard"]
        lines.append(f"guard:    {'PASS' if g['passed'] else 'FAIL'}: {g['reason']}")
    if out["merged_body"]:
        lines += ["--- merged body ---", out["merged_body"]]
    union = out.get("union_draft")
    if union and union.get("merged_body") and union["merged_body"] != out["merged_body"]:
        lines += ["--- sentence-union draft ---", union["merged_body"]]
    print_text("\n".join(lines))


def run(args: argparse.Namespace) -> int:
    from ..config import load_curation_settings
    from ..core.decide.llm import LlamaDecider
    from ..core.decide.review import review_cluster
    from ..core.tasks import run_to_end

    ids = _ids(args.docs)
    with open_store_or_fail(getattr(args, "store", None), read_only=True) as store, store_errors_as_cli_errors():
        docs, names = _load_cluster(store, ids)
    review = None
    if args.draft != "union":
        path, why_not = _model_path(args)
        if path is not None:
            from ..core.decide.selftest import run_selftest

            settings = load_curation_settings()
            decider = LlamaDecider(
                path, n_threads=args.threads or settings.llm_threads, n_ctx=args.ctx or settings.llm_context,
                timeout_s=args.timeout if args.timeout is not None else settings.interactive_llm_timeout_seconds,
                pipeline=args.pipeline, settings=settings,
            )
            stream = _Stream(enabled=sys.stderr.isatty() or not args.json)
            try:
                report = run_selftest(decider)
                if report.capable:
                    selftest = {"capable": True, "passed": report.passed, "total": report.total}
                    review = run_to_end(review_cluster(docs, names, decider, selftest=selftest), stream)
                elif args.model and report.error and "load" in report.error.lower():
                    # the file the user named is not a model llama.cpp can load: an error, not a fallback
                    raise CliError(f"{path}: not a model llama.cpp can load ({' '.join(report.error.split())}); "
                                   "nothing was done")
                else:
                    why_not = (f"{decider.model_id} is not capable ({report.passed}/{report.total} canary pairs right"
                               f"{'; ' + report.error if report.error else ''})")
            finally:
                stream.end()
                decider.close()
        if review is None:
            note = f"no capable model: {why_not}; showing the sentence-union draft"
            print(f"memgui: {note}", file=sys.stderr)
            review = run_to_end(review_cluster(docs, names, note=note))
    else:
        review = run_to_end(review_cluster(docs, names))
    out = review.to_dict()
    out.pop("extra", None)
    from ..core.ops.stamps import body_digest

    for doc in docs:  # the body's own digest: a refused merge can say whether the content or the title changed
        if doc.document_id in (out.get("stamps") or {}):
            out["stamps"][doc.document_id] = {**out["stamps"][doc.document_id],
                                              "body_hash": body_digest(doc.markdown_body)}
    if out["union_draft"] is None:
        out.pop("union_draft")
    if out["selftest"] is None:
        out.pop("selftest")
    # --draft union asked for the deterministic draft: no decider was missing
    out["decider_available"] = review.decider_available or args.draft == "union"
    if args.json:
        print_json(out)
    else:
        _print_text(out, review.note)
    return EXIT_NEGATIVE if review.decider_available and review.decision is None else EXIT_OK


__all__ = ["EXIT_BAD_INPUT", "register", "run"]
