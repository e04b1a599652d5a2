"""`memgui evaluate --store PATH --title T --content-file F [--anchor A] [--json]`.

Runs Netclaw's evaluator order (netclaw-compat §5) for one proposed memory against the store, read-only, and prints the
decision, its reason, the candidates it was judged against and the netclaw-compat §13 markers the run emitted.
The anchor defaults to the first space-separated word of the content, lower-cased (Netclaw's rules-first
extractor). Nothing is written.
"""
from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import load_curation_settings, memgui_command
from ..core.curation.evaluator import Evaluation, evaluate, extractor_anchor
from ..core.curation.types import Decider, NominatorUnavailable, Proposal
from ..core.netfx import net_trim
from ..core.store import Store, StoreError
from ..core.store.values import now_ms
from .common import EXIT_OK, CliError, int64_arg, open_store_or_fail, print_json, print_text, read_text

if TYPE_CHECKING:
    from ..core.vectors.nominate import IndexNominator


def default_nominator(store: Store) -> IndexNominator | None:
    """The embedding nominator over the store's persisted index (built/updated incrementally on first use).
    None = Netclaw's degraded lexical path (`curation_nominator_degraded reason=...`)."""
    from ..core.vectors.nominate import index_nominator

    try:
        return index_nominator(store)
    except NominatorUnavailable:
        return None


def default_decider(choice: str = "none") -> Decider | None:
    """The LLM tier: `none` (rules, auto-resolve and conservative create only), `default` (the bundled
    offline model, when installed) or a path to any GGUF file."""
    if choice == "none":
        return None
    from ..core.decide.llm import LlamaDecider
    from ..core.decide.model_files import default_model_path

    path = default_model_path() if choice == "default" else Path(os.path.expanduser(choice))
    if path is None:
        raise CliError(f"no default decider model installed (run `{memgui_command()} models install`) — or pass "
                       "--model PATH")
    if not path.is_file():
        raise CliError(f"{choice}: no such model file")
    return LlamaDecider(path)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "evaluate", help="show what Netclaw's curation evaluator would decide for a proposed memory (writes nothing)"
    )
    p.add_argument("--store", default=argparse.SUPPRESS,
                   help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    p.add_argument("--embedder", choices=["default", "none"], default="default",
                   help="nominate with the embedding index (default) or use Netclaw's degraded lexical path (none)")
    p.add_argument("--model", default="none", metavar="none|default|GGUF",
                   help="LLM tier: none (default; Netclaw's no-LLM behaviour), the bundled default model, or a GGUF path")
    p.add_argument("--title", required=True, help="the proposed memory's title")
    p.add_argument("--content-file", required=True, metavar="F", help="file with the proposed memory's content (UTF-8; - for stdin)")
    p.add_argument("--anchor", help="anchor canonical name (default: first word of the content, lower-cased)")
    p.add_argument("--freshness-ms", type=int64_arg, metavar="MS", help="the proposal's freshness_at in epoch ms (default: now)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _read_content(path: str) -> str:
    return read_text(path, "the proposed memory's content (UTF-8 text)")


def build_proposal(title: str, content: str, anchor: str | None, freshness_ms: int | None) -> Proposal:
    content = net_trim(content)
    if not content:
        raise CliError("the content file is empty; nothing to evaluate")
    if not net_trim(title):
        raise CliError("--title is empty")
    anchor_name = net_trim(anchor) if anchor is not None else extractor_anchor(content)
    if not anchor_name:
        raise CliError("--anchor is empty")
    return Proposal(title=title, content=content, anchor_name=anchor_name,
                    freshness_at=now_ms() if freshness_ms is None else freshness_ms)


def evaluation_as_dict(evaluation: Evaluation) -> dict[str, Any]:
    d = evaluation.decision
    return {
        "decision": d.kind.value,
        "target": d.target_document_id,
        "consolidation_ids": list(d.consolidation_target_ids),
        "reason": d.reason,
        "from_llm_tier": d.from_llm_tier,
        "candidates": [
            {"document_id": c.document_id, "anchor_id": c.anchor_id, "is_exact": c.is_exact, "cosine": c.cosine}
            for c in evaluation.candidates
        ],
        "events": [e.as_dict() for e in evaluation.events],
    }


def format_evaluation(proposal: Proposal, evaluation: Evaluation) -> str:
    d = evaluation.decision
    lines = [f"proposal:  anchor={proposal.anchor_name}  title={proposal.title}", f"decision:  {d.kind.value}"]
    if d.target_document_id:
        lines.append(f"target:    {d.target_document_id}")
    if d.consolidation_target_ids:
        lines.append(f"consolidate: {', '.join(d.consolidation_target_ids)}")
    if d.canonical_anchor_name:
        lines.append(f"canonical anchor: {d.canonical_anchor_name}")
    lines.append(f"reason:    {d.reason}")
    lines.append(f"tier:      {'LLM' if d.from_llm_tier else 'rules'} ({evaluation.llm_calls} LLM call(s))")
    lines.append(f"candidates ({len(evaluation.candidates)}):" if evaluation.candidates else "candidates: none")
    for c in evaluation.candidates:
        tags = ["exact" if c.is_exact else "fuzzy/lexical"]
        if c.cosine is not None:
            tags.append(f"cosine={c.cosine:.4f}")
        lines.append(f"  {c.document_id}  {c.anchor_id}  {' '.join(tags)}")
    lines.append("markers:" if evaluation.events else "markers: none")
    lines.extend(f"  {e.line}" for e in evaluation.events)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    content = _read_content(args.content_file)
    proposal = build_proposal(args.title, content, args.anchor, args.freshness_ms)
    settings = load_curation_settings()
    with open_store_or_fail(getattr(args, "store", None), read_only=True) as store:
        nominator = None
        try:
            nominator = default_nominator(store) if args.embedder == "default" else None
            threshold = getattr(nominator, "default_threshold", None)
            if threshold is not None:  # memgui's MiniLM floor differs from Netclaw's snowflake 0.86
                settings = replace(settings, nominator_similarity_threshold=threshold)
            evaluation = evaluate(store, proposal, nominator=nominator, decider=default_decider(args.model),
                                  settings=settings)
        except StoreError as exc:
            raise CliError(str(exc)) from None
        finally:
            if nominator is not None:
                nominator.close()  # the embedder's model is freed once the evaluation is done
    if args.json:
        print_json(evaluation_as_dict(evaluation))
    else:
        print_text(format_evaluation(proposal, evaluation))
    return EXIT_OK
