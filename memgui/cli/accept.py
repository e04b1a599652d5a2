"""`memgui accept-safe --store PATH [--dry-run] [--json] [--model GGUF] [--limit N] [--plan FILE] [--no-reader]`
`memgui undo-batch --store PATH BATCH [--json]`

accept-safe scans the store (as `memgui scan` does), reviews each cluster with the model (the installed default
or `--model`; it must pass the capability self-test) and merges only the clusters every check calls safe: a
model same-fact group of 2–3 members is the whole merge, UPDATE/CONSOLIDATE with a merged body, MergeGuard and
the strict lens both passed, no "likely different facts" mark (see core/ops/batch.py). Reviews are cached per
store and model file (keyed by the members' stamps), so a second run over an unchanged store is fast.

Then the second reader (core/decide/reader.py, docs/reader.md): the same model is asked, for each source of each
otherwise safe cluster, whether the merged body keeps every fact of that source unchanged; a "no" (or a source it
could not read) leaves the cluster for a person, with the reader's reason. Its answers are cached per model file,
source and body. `--no-reader` skips it: then MergeGuard and the strict lens alone decide, and the plan says
"second reader: not run", as it does when the model cannot score answers. A reader that fails otherwise leaves
every cluster for a person (it did not read them).

The plan (every write: target, tombstones, length ratio, guard and strict results; every cluster left out and
why) is printed as Markdown, or as JSON with --json. `--dry-run` writes nothing. Otherwise each write is its
own audited transaction tagged with the batch id; a source changed since its review refuses that write and the
others go on. `--plan FILE` applies a plan saved by `--dry-run --json` (no scan, no model) — but a plan is a claim, not a
proof: the file is validated by its schema (core/store/seams.py), its shape by the rule (2–3 documents a
write, stamps for each, a new batch id), and at each write MergeGuard, the strict lens and the stamps are run
again on the documents as they are now; a write whose check fails now is refused.
`memgui undo-batch` undoes a batch's writes newest first.

Exit codes: 0 done (or a dry run); 1 some write (or undo) was refused, the rest went on; 2 bad input (no capable
model, bad store, unknown batch) with nothing written; 130 / 143 stopped by Ctrl+C / SIGTERM between two writes (what
was written, and how to undo it, is still printed; a second Ctrl+C stops at once, the write in progress rolled back).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.tasks import Step
from .common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    CliError,
    decider_model_path,
    int64_arg,
    open_store_or_fail,
    print_json,
    print_text,
    read_seam,
    seconds_arg,
    small_count_arg,
    store_errors_as_cli_errors,
)

if TYPE_CHECKING:
    from ..core.decide.llm import LlamaDecider
    from ..core.ops.batch import BatchPlan, BatchResult, ReaderRun
    from ..core.ops.batch_inputs import ReviewRow
    from ..core.store import Store
    from ..core.tasks import CancelToken, Progress


STORE_HELP = "path to netclaw.db (default: located as Netclaw does, else the demo store)"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("accept-safe", help="merge every cluster the model and both guards call safe",
                              description="Scan, review each cluster with the model, merge only the safe ones.")
    p.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
    p.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    p.add_argument("--json", action="store_true", help="machine-readable output (the plan is exportable as is)")
    p.add_argument("--model", metavar="GGUF", help="a GGUF decider model (default: the installed default model)")
    p.add_argument("--limit", type=int64_arg, default=None, metavar="N", help="review only the first N clusters")
    p.add_argument("--plan", metavar="FILE", help="apply this saved plan (`--dry-run --json` output) exactly")
    p.add_argument("--no-reader", action="store_true",
                   help="skip the second reader (the model asked per source whether the merge keeps its facts); "
                        "MergeGuard and the strict lens alone decide")
    p.add_argument("--no-supersede", action="store_true",
                   help="skip the supersede reading (a newer note as the newer state of an older one): merges only; "
                        "those clusters are left for a person")
    p.add_argument("--threads", type=small_count_arg, default=None, help="CPU threads for llama.cpp")
    p.add_argument("--timeout", type=seconds_arg, default=None, metavar="SECONDS",
                   help="limit for each model answer (default: the interactive limit, 120 s)")
    p.set_defaults(func=run_accept)

    q = subparsers.add_parser("undo-batch", help="undo every write of an accept-safe batch (newest first)")
    q.add_argument("--store", default=argparse.SUPPRESS, help=STORE_HELP)
    q.add_argument("batch_id", metavar="BATCH", help="the batch id accept-safe printed")
    q.add_argument("--json", action="store_true", help="machine-readable output")
    q.set_defaults(func=run_undo_batch)


def _model_path(args: argparse.Namespace) -> Path:
    path = decider_model_path(args.model)
    if path is None:
        raise CliError("accept-safe needs a capable decider model and none is installed (run `memgui models "
                       "install`, or pass --model GGUF); nothing was written")
    return path


class _Model:
    """The decider, loaded and self-tested on first need (a fully cached run never loads it)."""

    def __init__(self, path: Path, args: argparse.Namespace):
        from ..config import load_curation_settings

        self.path, self.args, self.settings = path, args, load_curation_settings()
        self.decider: LlamaDecider | None = None
        self.selftest: dict[str, Any] | None = None

    def _make(self) -> LlamaDecider:
        from ..core.decide.llm import LlamaDecider
        from ..core.decide.prompts import Pipeline

        s, a = self.settings, self.args
        return LlamaDecider(self.path, n_threads=a.threads or s.llm_threads, n_ctx=s.llm_context,
                            timeout_s=a.timeout if a.timeout is not None else s.interactive_llm_timeout_seconds,
                            pipeline=Pipeline.TWO_STAGE, settings=s)

    def check(self) -> None:
        """Refuse (exit 2) unless the model is capable: the cached self-test verdict, else run it now."""
        from ..core.decide.prompts import Pipeline
        from ..core.decide.selftest import cached_selftest, run_selftest

        report = cached_selftest(self.path, pipeline=Pipeline.TWO_STAGE)
        if report is None:
            print("memgui: self-testing the decider model (once per model file)…", file=sys.stderr)
            self.decider = self._make()
            report = run_selftest(self.decider)
        if not report.capable:
            self.close()
            raise CliError(f"{self.path.name} is not a capable decider ({report.passed}/{report.total} canary pairs "
                           f"right{'; ' + report.error if report.error else ''}); bulk accept needs one; nothing "
                           "was written")
        self.selftest = {"capable": True, "passed": report.passed, "total": report.total}

    def __call__(self) -> LlamaDecider:
        if self.decider is None:
            self.decider = self._make()
        return self.decider

    def close(self) -> None:
        if self.decider is not None:
            self.decider.close()
            self.decider = None


def _review_progress(progress: Progress) -> None:
    """One stderr line per cluster reviewed (the model's token stream is not echoed)."""
    if progress.stage == Step.REVIEWING:
        sys.stderr.write(f"reviewing {progress.done}/{progress.total}: {progress.message}\n")
        sys.stderr.flush()


def _writable(store_arg: str | None) -> None:
    """Refuse a read-only store before any model time is spent on it."""
    with open_store_or_fail(store_arg) as store:
        if store.read_only:
            raise CliError(f"{store.path} is read-only ({store.read_only_reason}); nothing was written")


def _reviews(args: argparse.Namespace, store: Store,
             model: _Model) -> tuple[list[ReviewRow], dict[str, str], dict[str, Any], dict[Any, Any]]:
    from ..core.decide.cache import DecisionCache
    from ..core.decide.prompts import Pipeline
    from ..core.decide.selftest import cache_key
    from ..core.ops.batch_inputs import cluster_reviews, cosine_links
    from ..core.tasks import run_to_end
    from ..core.vectors.embed import EmbedderUnavailable
    from ..core.vectors.nominate import scan_store
    from .scan import ThrottledProgress

    try:
        scan = run_to_end(scan_store(store), ThrottledProgress())
    except EmbedderUnavailable as exc:
        raise CliError(exc.reason) from None
    clusters = list(scan.clusters)[: args.limit] if args.limit is not None else list(scan.clusters)
    key = cache_key(model.path, pipeline=Pipeline.TWO_STAGE)
    cache = DecisionCache(store.path, key) if key is not None else None  # a model file gone since: no cache
    stats: dict[str, Any] = {}
    rows = run_to_end(cluster_reviews(store, clusters, cache, decider=model, selftest=model.selftest, stats=stats),
                      _review_progress)
    ids = [m for _c, members, _r in rows for m in members]
    titles = {d.document_id: d.title or "" for d in store.documents_by_ids(ids)}
    info = {"clusters_total": len(scan.clusters), "reviewed": len(clusters), **stats}
    return rows, titles, info, cosine_links(clusters)


def _reader_progress(progress: Progress) -> None:
    if progress.stage == Step.READING and progress.message != "done":
        sys.stderr.write(f"second reader {progress.done + 1}/{progress.total}: {progress.message}\n")
        sys.stderr.flush()


def _second_reader(args: argparse.Namespace, store: Store, rows: list[ReviewRow], model: _Model,
                   links: dict[Any, Any]) -> ReaderRun:
    """The reader's verdicts on the otherwise safe clusters (a ReaderRun for the plan)."""
    from ..core.decide.reader import FactReader, ReaderUnavailable, reader_model_key
    from ..core.ops.batch import ReaderRun
    from ..core.ops.batch_reader import read_safe_clusters
    from ..core.store.reader_cache import ReaderCache
    from ..core.tasks import run_to_end

    if args.no_reader:
        return ReaderRun(False, "--no-reader")
    reader = FactReader(reader_model_key(model.path), make_engine=lambda: model().engine, cache=ReaderCache(),
                        model_id=model.path.stem)
    try:
        return run_to_end(read_safe_clusters(store, rows, reader, links=links), _reader_progress)
    except ReaderUnavailable as exc:  # the model cannot answer yes/no by logits: as if there were none
        return ReaderRun(False, str(exc))
    except Exception as exc:  # a reader that fails reads nothing: every cluster is left for a person
        return ReaderRun(True, f"failed ({' '.join(str(exc).split()) or type(exc).__name__}); it read no cluster")


def _plan_with_the_model(args: argparse.Namespace, store_arg: str | None) -> tuple[BatchPlan, dict[str, Any]]:
    """Scan, review each cluster with the model, ask the second reader and read the supersessions; the plan."""
    from ..core.ops.batch import plan_batch

    model = _Model(_model_path(args), args)
    try:
        with open_store_or_fail(store_arg, read_only=True) as store, store_errors_as_cli_errors():
            model.check()
            rows, titles, info, links = _reviews(args, store, model)
            reader = _second_reader(args, store, rows, model, links)
            supersessions = {} if args.no_supersede else _supersessions(store, rows, model)
            store_path = store.path
    finally:
        model.close()
    info["store"] = str(store_path)
    return plan_batch(rows, titles=titles, reader=reader, supersessions=supersessions, links=links), info


def _supersessions(store: Store, rows: list[ReviewRow], model: _Model) -> dict[Any, Any]:
    """The supersede reading of the clusters no merge takes (core/ops/batch_supersede.py), on the decider's model."""
    from ..core.decide.supersede_reader import SupersedeReader
    from ..core.ops.batch_supersede import read_supersessions
    from ..core.store.reader_cache import ReaderCache
    from ..core.tasks import run_to_end

    def reader() -> SupersedeReader | None:  # a model that cannot score answers reads nothing: a person decides
        engine = model().engine
        return SupersedeReader(engine, cache=ReaderCache()) if hasattr(engine, "score_words") else None

    return run_to_end(read_supersessions(store, rows, reader))


def _read_plan(path: str) -> BatchPlan:
    """The plan file, read and validated by core/store/seams.py, then checked by the rule's shape
    (`validate_plan`); what it claims (MergeGuard, the lens) is run again when it is applied."""
    from ..core.ops.batch import BatchError, BatchPlan
    from ..core.store.seams import read_plan

    data = read_seam(read_plan, path)
    try:
        return BatchPlan.from_dict(data)
    except BatchError as exc:
        raise CliError(f"{path}: {exc}") from None


def _result_text(result: BatchResult, store_path: str | os.PathLike[str]) -> str:
    ids = [w.audit_id for w in result.written]
    lines = [f"## Result: batch {result.batch_id}", "",
             f"wrote {len(result.written)} merge(s)" + (f" (audit #{', #'.join(map(str, ids))})" if ids else "")]
    lines += [f"refused: cluster {r.cluster_id} into {r.target_id}: {r.error}" for r in result.refused]
    if result.written:
        lines.append(f"undo with: memgui undo-batch --store {store_path} {result.batch_id}")
    return "\n".join(lines)


def run_accept(args: argparse.Namespace) -> int:
    from ..core.ops.batch import BatchError, apply_batch
    from ..core.ops.changes import NO_CHANGES
    from ..core.tasks import run_to_end

    if args.limit is not None and args.limit < 1:
        raise CliError("--limit must be at least 1")
    store_arg = getattr(args, "store", None)
    info: dict[str, Any] = {}
    if not args.dry_run:
        _writable(store_arg)
    if args.plan:
        plan = _read_plan(args.plan)
    else:
        plan, info = _plan_with_the_model(args, store_arg)
    out: dict[str, Any] = {**info, "dry_run": bool(args.dry_run), **plan.to_dict()}
    result = None
    stopped_by: list[int] = []
    if not args.dry_run and plan.writes:
        with open_store_or_fail(store_arg) as store, store_errors_as_cli_errors():
            if store.read_only:
                raise CliError(f"{store.path} is read-only ({store.read_only_reason}); nothing was written")
            with _stop_between_writes() as (cancel, stopped_by):
                try:
                    result = run_to_end(apply_batch(store, plan, decided_by="cli", cancel=cancel))
                except BatchError as exc:
                    raise CliError(str(exc)) from None
            out["result"] = result.to_dict()
            store_path = store.path
            if stopped_by:
                print(f"memgui: stopped by {signal.Signals(stopped_by[0]).name} after {len(result.written)} of "
                      f"{len(plan.writes)} write(s) of batch {result.batch_id}; the rest were not tried", file=sys.stderr)
    # what was written, as one descriptor (empty for a dry run or a plan with no write)
    out["changes"] = (result.changes if result is not None else NO_CHANGES).to_dict()
    for refused in (result.refused if result is not None else ()):  # each refusal is also one stderr line
        print(f"memgui: cluster {refused.cluster_id} into {refused.target_id} refused: {refused.error}",
              file=sys.stderr)
    if args.json:
        print_json(out)
    else:
        head = "" if not info else (f"store: {info['store']} · reviewed {info['reviewed']} of {info['clusters_total']} "
                                    f"clusters ({info.get('cached', 0)} from the cache, {info.get('computed', 0)} by "
                                    "the model)\n\n")
        print_text(head + plan.to_markdown() + ("" if result is None else "\n" + _result_text(result, store_path)))
        if args.dry_run:
            print_text("(dry run: nothing was written)")
    if stopped_by:
        return 128 + stopped_by[0]  # what a shell reports for the signal: 130 Ctrl+C, 143 SIGTERM
    return EXIT_NEGATIVE if result is not None and result.refused else EXIT_OK


@contextmanager
def _stop_between_writes() -> Iterator[tuple[CancelToken, list[int]]]:
    """Ctrl+C or SIGTERM while a batch is written stops it between two writes (each its own transaction, so none is
    cut in half) and the result is still printed: which merges were written and how to undo them. The signals
    caught are listed; a second one acts at once (the write in progress rolls back)."""
    from ..core.tasks import CancelToken

    cancel, caught = CancelToken(), []
    previous: dict[int, Any] = {}

    def stop(signum: int, _frame: object) -> None:
        caught.append(signum)
        cancel.cancel()
        signal.signal(signum, previous[signum])

    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, stop)
    except ValueError:  # not the main thread (memgui's main called from a test's thread): signals stay as they are
        pass
    try:
        yield cancel, caught
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run_undo_batch(args: argparse.Namespace) -> int:
    from ..core.ops.batch import BatchError, check_batch_id, undo_batch

    try:
        check_batch_id(args.batch_id)
    except BatchError as exc:
        raise CliError(str(exc).replace("; nothing was written", "")) from None
    with open_store_or_fail(getattr(args, "store", None)) as store, store_errors_as_cli_errors():
        if store.read_only:
            raise CliError(f"{store.path} is read-only ({store.read_only_reason}); nothing was written")
        try:
            result = undo_batch(store, args.batch_id)
        except BatchError as exc:
            raise CliError(str(exc)) from None
    if args.json:
        print_json({"ok": not result.refused, **result.to_dict()})
    else:
        lines = [f"batch {result.batch_id}: undid {len(result.undone)} write(s)"
                 + (f" (audit #{', #'.join(str(a) for a, _u in result.undone)})" if result.undone else "")]
        if result.already_undone:
            lines.append("already undone: #" + ", #".join(map(str, result.already_undone)))
        lines += [f"refused: {error}" for _a, error in result.refused]
        print_text("\n".join(lines))
    for _a, error in result.refused:
        print(f"memgui: {error}", file=sys.stderr)
    return EXIT_NEGATIVE if result.refused else EXIT_OK
