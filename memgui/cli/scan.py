"""`memgui scan --store PATH [--k K] [--threshold T] [--embedder auto|default|stored|onnx] [--json]`:
the store's nominee clusters with their cosines. Opens the store read-only; progress goes to stderr."""
from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from ..core.vectors.embedder_choice import EmbedderChoice
from .common import (
    EXIT_OK,
    CliError,
    int64_arg,
    open_store_or_fail,
    print_json,
    print_text,
    progress_to_stderr,
    store_errors_as_cli_errors,
)

if TYPE_CHECKING:
    from ..core.tasks import Progress
    from ..core.vectors.nominate import ScanResult



def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("scan", help="find near-duplicate memory documents (nominee clusters)")
    p.add_argument("--store", default=argparse.SUPPRESS, help="path to netclaw.db (default: located as Netclaw does)")
    p.add_argument("--k", type=int64_arg, default=None, help="nominees per document (default: Netclaw's NominatorK, 5)")
    p.add_argument("--threshold", type=float, default=None,
                   help="cosine floor (default: per embedding model; 0.86 for Netclaw's vectors)")
    p.add_argument("--embedder", choices=list(EmbedderChoice), type=EmbedderChoice, default=EmbedderChoice.AUTO,
                   help="auto (default): the daemon's vectors when complete, else memgui's MiniLM; default: memgui's "
                        "MiniLM; stored: the daemon's memory_embeddings; onnx: Netclaw's ONNX model run here")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


class ThrottledProgress:
    """Progress on stderr at most every half second per stage (plus each stage's end)."""

    def __init__(self) -> None:
        self._last: dict[str, float] = {}

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        final = progress.total is not None and progress.total > 0 and progress.done >= progress.total
        if final or now - self._last.get(progress.stage, 0.0) >= 0.5:
            self._last[progress.stage] = now
            progress_to_stderr(progress)


def result_to_json(result: ScanResult, titles: dict[str, str]) -> dict[str, Any]:
    embedder = result.embedder
    return {
        "embedder": None if embedder is None else {"model_id": embedder.model_id, "dims": embedder.dims, "source": embedder.source},
        "k": result.k,
        "threshold": result.threshold,
        "degraded": result.degraded,
        "degraded_reason": result.degraded_reason,
        "documents": result.documents,
        "notices": list(result.notices),
        "clusters": [
            {
                "id": c.id,
                "top_cosine": None if c.top_cosine is None else round(c.top_cosine, 6),
                "members": [{"document_id": m, "title": titles.get(m, "")} for m in c.member_ids],
                "pairs": [
                    {
                        "a": p.a,
                        "b": p.b,
                        "cosine": None if p.cosine is None else round(p.cosine, 6),
                        "nominee": p.nominee,
                        "same_anchor": p.same_anchor,
                        **({"lexical_overlap": round(p.lexical_overlap, 6)} if p.lexical_overlap is not None else {}),
                    }
                    for p in c.pairs
                ],
            }
            for c in result.clusters
        ],
    }


def format_text(result: ScanResult, titles: dict[str, str]) -> str:
    e = result.embedder
    head = (
        f"embedder: {e.model_id} ({e.dims} dims, {e.source})" if e else f"embedder: none — degraded ({result.degraded_reason})"
    )
    lines = [head, f"k={result.k} threshold={result.threshold:g} documents={result.documents} clusters={len(result.clusters)}"]
    lines += [f"note: {n}" for n in result.notices]
    for c in result.clusters:
        top = f"{c.top_cosine:.3f}" if c.top_cosine is not None else "lexical"
        lines.append(f"\n{c.id}  {len(c.member_ids)} documents  top {top}")
        for m in c.member_ids:
            lines.append(f"  {m}  {titles.get(m, '')}")
        for p in c.pairs:
            score = f"{p.cosine:.3f}" if p.cosine is not None else f"overlap {p.lexical_overlap or 0:.2f}"
            mark = "  same anchor" if p.same_anchor else ""
            lines.append(f"    {score}  {p.a} ~ {p.b}{mark}" + ("" if p.nominee or p.same_anchor else "  (same cluster)"))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..core.tasks import run_to_end
    from ..core.vectors.embed import EmbedderUnavailable
    from ..core.vectors.nominate import scan_store

    if args.k is not None and not 1 <= args.k <= 10_000:
        raise CliError("--k must be at least 1 (and at most 10000)")
    if args.threshold is not None and not -1.0 <= args.threshold <= 1.0:
        raise CliError("--threshold must be a cosine between -1 and 1")
    with open_store_or_fail(getattr(args, "store", None), read_only=True) as store, store_errors_as_cli_errors():
        try:
            result = run_to_end(
                scan_store(store, embedder_choice=args.embedder, k=args.k, threshold=args.threshold), ThrottledProgress()
            )
        except EmbedderUnavailable as exc:
            raise CliError(exc.reason) from None
        ids = [m for c in result.clusters for m in c.member_ids]
        titles = {d.document_id: d.title for d in store.documents_by_ids(ids)}
    if args.json:
        print_json(result_to_json(result, titles))
    else:
        print_text(format_text(result, titles))
    return EXIT_OK
