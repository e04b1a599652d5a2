"""The core services the review window uses, injected so tests can swap in fakes.

`real_services()` imports the real core modules directly: a missing core module is an error at start, never a
feature that silently goes away. Only members that tests legitimately leave out are optional."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from .ahead import AheadServices, ahead_services
from .alignment import AlignmentServices, alignment_services
from .audit import AuditServices, audit_services
from .bulk import BulkServices, bulk_services
from .supersede import SupersedeServices, supersede_services
from .types import (
    CancelToken,
    Candidate,
    Cluster,
    Decider,
    DifferentFactsMark,
    DiscoveredModel,
    Document,
    EmbedderChoice,
    FactGroups,
    LocatedStore,
    MergeGuardReport,
    MergePlan,
    PairEvidence,
    Preselection,
    Proposal,
    ReaderReport,
    ReviewMark,
    ScanResult,
    SelfTestReport,
    SourceStamp,
    Store,
    Work,
    Written,
)
from .writes import WriteServices, write_services

if TYPE_CHECKING:
    from ..settings_dialog import GuiSettings

StorePath = str | PathLike[str]


class LocateStore(Protocol):
    def __call__(self, explicit: StorePath | None = None, *, demo_path: Path | None = None) -> LocatedStore: ...


class OpenStore(Protocol):
    def __call__(self, path: StorePath, *, read_only: bool = False) -> Store: ...


class Scan(Protocol):
    """Nomination: the clusters of the store (yields Progress)."""

    def __call__(self, store: Store, *, embedder_choice: EmbedderChoice = EmbedderChoice.AUTO, k: int | None = None,
                 threshold: float | None = None, cancel: CancelToken | None = None) -> Work[ScanResult]: ...


class JudgePairs(Protocol):
    """Every pair of documents judged "same fact?" by `judge` (the decider's `judge_pair`): the partition."""

    def __call__(self, documents: Sequence[Document], judge: Callable[..., Work[object]], *,
                 cancel: CancelToken | None = None) -> Work[FactGroups]: ...


class PairEvidenceOf(Protocol):
    def __call__(self, a: str | None, b: str | None, *, a_title: str = "", b_title: str = "",
                 with_diff: bool = True) -> PairEvidence: ...


class LikelyDifferent(Protocol):
    def __call__(self, bodies: Sequence[str | None], titles: Sequence[str | None] = ()) -> DifferentFactsMark: ...


class MissingSpans(Protocol):
    def __call__(self, source_text: str | None, report: MergeGuardReport, *,
                 utf16: bool = False) -> list[tuple[int, int]]: ...


class KeepSeparate(Protocol):
    def __call__(self, store: Store, doc_ids: Iterable[str], note: str | None = None,
                 pairs: Iterable[tuple[str, str]] | None = None) -> Written: ...


class UndoRedo(Protocol):
    def __call__(self, store: Store, audit_id: int, *, note: str | None = None) -> Written: ...


class SelfTest(Protocol):
    """The decider's capability self-test (cached per model file)."""

    def __call__(self, decider: Decider, *,
                 cancel: CancelToken | None = None) -> Work[SelfTestReport] | SelfTestReport: ...  # or at once


class ReadMerge(Protocol):
    """The second reader: the model asked per source whether the body keeps every fact of it (cached per
    model, source and body)."""

    def __call__(self, decider: Decider, sources: Sequence[str], body: str, *, document_ids: Sequence[str] = (),
                 cancel: CancelToken | None = None) -> Work[ReaderReport]: ...


@dataclass
class Services:
    # store: the located store (path, origin, is_demo); the opened Store
    locate_store: LocateStore
    open_store: OpenStore
    scan: Scan
    # decider: (settings) -> Decider (not loaded yet; the worker runs its `load()`)
    make_decider: Callable[[GuiSettings], Decider]
    # (store, documents, cosines) -> (Proposal, [Candidate]): the one builder the CLI uses too
    decider_input: Callable[[Store, Sequence[Document], Mapping[frozenset[str], float]],
                            tuple[Proposal, list[Candidate]]]
    # (cluster, member ids) -> the Cluster on those members (its pairs, top cosine, the scan's id for them)
    sub_cluster: Callable[[Cluster, Iterable[str]], Cluster]
    # (documents) -> the id a merge keeps by default (Netclaw's consolidation primary)
    default_target: Callable[[Sequence[Document]], str | None]
    discover_models: Callable[[], Sequence[DiscoveredModel]]
    judge_pairs: JudgePairs
    # guard and drafts (pure)
    check_merge: Callable[[Sequence[str | None], str | None], MergeGuardReport]
    # (source text, tokens) -> [(start, end)] UTF-16 ranges of those tokens in the source (the strict lens's
    # at-risk facts, highlighted like the missing tokens)
    token_spans: Callable[[str, Sequence[str]], list[tuple[int, int]]]
    # conflicts and what only one source states
    pair_evidence: PairEvidenceOf
    # the whole cluster names different things (before any model call)
    likely_different: LikelyDifferent
    # (documents) -> (groups, [(a, b, what they disagree on)]): no two members of a group disagree on a value
    conflict_partition: Callable[[Sequence[Document]],
                                 tuple[tuple[tuple[str, ...], ...], list[tuple[str, str, str]]]]
    # (member ids, disagreeing pairs, cosines) -> Preselection: before any decision, the largest group with no
    # disagreeing pair, never a whole cluster above three members
    preselect: Callable[[Sequence[str], Sequence[tuple[str, str]], Mapping[frozenset[str], float]], Preselection]
    # (value conflicts, [(a, b, PairEvidence)]) -> the pairs that disagree on a value (wording differences aside)
    disagreeing_pairs: Callable[[Sequence[tuple[str, str, str]], Sequence[tuple[str, str, object]]],
                                list[tuple[str, str]]]
    missing_spans: MissingSpans
    build_appended_body: Callable[[str, str, date | str], str]  # (existing, addition, when: the UTC date)
    sentence_union: Callable[[str | None, Sequence[str | None]], str]
    warm_up: Callable[[], None]  # precompiles the guard's Unicode patterns (on a worker)
    # writes, undo / redo
    source_stamp: Callable[[Document], SourceStamp]  # the optimistic-concurrency stamp
    merge_plan: type[MergePlan]
    merge_cluster: Callable[[Store, MergePlan], Written]  # the write's audit entry with its `changes`
    keep_separate: KeepSeparate
    undo: UndoRedo
    redo: UndoRedo
    stale_source_error: type[BaseException]
    audit_error: type[BaseException]
    # the queue's lasting marks: (member ids, {id: Document}) -> key (members + content stamps);
    # (store, keys) -> {key: ReviewMark}; (store, [ReviewMark]) -> None, one transaction; ReviewMark(...)
    cluster_key: Callable[[Iterable[str], Mapping[str, Document]], str]
    read_marks: Callable[[Store, Iterable[str]], dict[str, ReviewMark]]
    write_marks: Callable[[Store, Sequence[ReviewMark]], None]
    review_mark: type[ReviewMark]
    audit: AuditServices = field(default_factory=audit_services)
    bulk: BulkServices = field(default_factory=bulk_services)  # Accept all safe: cached reviews, plan, batch
    ahead: AheadServices = field(default_factory=ahead_services)  # decisions ahead and the model's record
    writes: WriteServices = field(default_factory=write_services)  # the undo / redo history, the merge policy
    # memgui's verdict beside Netclaw's, the alignment view, the union draft with confirmed restatements left out
    alignment: AlignmentServices = field(default_factory=alignment_services)
    # a cluster read as a supersession (the newest state, the older as dated history): plan, write, marks
    supersede: SupersedeServices = field(default_factory=supersede_services)
    # optional: tests leave these out
    build_demo_store: Callable[[Path], Path] | None = None
    selftest: SelfTest | None = None
    # (chosen decider GGUF or None) -> one line when memgui's offline default models are missing, else None
    missing_models: Callable[[str | None], str | None] | None = None
    read_merge: ReadMerge | None = None


def decider_input(store: Store, documents: Sequence[Document],
                  cosines: Mapping[frozenset[str], float]) -> tuple[Proposal, list[Candidate]]:
    """`core.decide.inputs.cluster_inputs` with the store's anchor canonical names, exactly as `memgui decide`
    builds it, plus the cluster's cosines."""
    from ...core.decide.inputs import anchor_names, cluster_inputs

    return cluster_inputs(documents, anchor_names(store, documents), dict(cosines))


def default_target(documents: Sequence[Document]) -> str | None:
    """Netclaw's consolidation primary (highest confidence, then freshest) by the core's rule, which reads only
    `confidence` and `freshness_at` (stored documents carry both)."""
    from ...core.curation.rules import best_by_confidence

    # the rule reads only the two fields a stored Document shares with a Candidate
    return best_by_confidence(cast("Sequence[Candidate]", documents)).document_id if documents else None


def token_spans(text: str, tokens: Sequence[str]) -> list[tuple[int, int]]:
    """Where `tokens` occur in `text` (UTF-16 ranges), by MergeGuard's own matcher (`missing_spans`) applied
    to the tokens as if they were missing."""
    from ...core.merge.guard import MergeGuardReport, missing_spans

    as_missing = MergeGuardReport(False, 0.0, 1.0, "", missing=tuple(tokens))
    return missing_spans(text, as_missing, utf16=True)


def read_merge(decider: Decider, sources: Sequence[str], body: str, *, document_ids: Sequence[str] = (),
               cancel: CancelToken | None = None) -> Work[ReaderReport]:
    """The core's second reader on the loaded decider's model (core/decide/reader.py): Work[ReaderReport]."""
    from ...core.decide.reader import FactReader
    from ...core.store.reader_cache import ReaderCache

    reader = FactReader.for_decider(decider, cache=ReaderCache())
    return reader.read(sources, body, document_ids=document_ids, cancel=cancel)


def missing_models(decider_model: str | None) -> str | None:
    """What the window cannot do without the offline default models and the line that installs them; None when
    nothing is missing. Cheap (stamp files and one import), so it runs on the GUI thread."""
    from ...config import models_install_hint
    from ...core.decide import model_files
    from ...core.vectors import embedder_model

    missing, lost = [], []
    try:
        if embedder_model.default_model_path() is None:
            try:
                embedder_model.source_files()  # the weights are there: the first scan converts them
            except embedder_model.EmbedderModelError:
                missing.append("embedder")
                lost.append("clusters come from the daemon's stored vectors or from word overlap")
        if not decider_model and model_files.default_model_path() is None:
            missing.append("decider")
            lost.append("Ask model needs a GGUF chosen in Settings")
    except OSError as exc:  # the models folder cannot be made: say so rather than fail to open the window
        return str(exc)
    if not missing:
        return None
    return (f"Offline models not installed ({', '.join(missing)}): {'; '.join(lost)}. Union drafts and review "
            f"still work. To install them: {models_install_hint()}")


def real_services() -> Services:
    from ...config import memgui_command
    from ...core import netfx
    from ...core.decide import discovery, groups, llm, model_files, selftest
    from ...core.merge import conflicts, guard, union
    from ...core.ops import apply, undo
    from ...core.store import open_store, review_marks
    from ...core.store.demo import build_demo_store
    from ...core.store.locate import locate_store
    from ...core.vectors.nominate import scan_store, sub_cluster

    def make_decider(settings: GuiSettings) -> Decider:
        """The llama.cpp decider on the chosen GGUF (else the bundled default). Not loaded yet: the worker
        runs its `load()` generator, so the window shows "loading the model" with Cancel."""
        path = settings.decider_model or model_files.default_model_path()
        if path is None:
            raise RuntimeError(f"no decider model is installed: run `{memgui_command()} models install`, or choose a "
                               "GGUF file in Settings (Ctrl+,)")
        if not Path(path).is_file():
            raise RuntimeError(f"{path}: decider model file not found; choose another in Settings (Ctrl+,)")
        return llm.LlamaDecider(path, n_threads=settings.llm_threads, n_ctx=settings.llm_context,
                                timeout_s=settings.llm_timeout_s)

    return Services(
        locate_store=locate_store, open_store=open_store, scan=scan_store, sub_cluster=sub_cluster,
        make_decider=make_decider,
        decider_input=decider_input, default_target=default_target,
        discover_models=discovery.discover_gguf_models,
        judge_pairs=groups.judge_pairs, token_spans=token_spans,
        pair_evidence=conflicts.pair_evidence, likely_different=conflicts.likely_different,
        conflict_partition=groups.conflict_partition, preselect=groups.preselect,
        disagreeing_pairs=groups.disagreeing_pairs,
        check_merge=guard.check_merge, missing_spans=guard.missing_spans,
        build_appended_body=netfx.build_appended_body, sentence_union=union.sentence_union, warm_up=guard.warm_up,
        source_stamp=apply.SourceStamp.of, merge_plan=apply.MergePlan, merge_cluster=apply.merge_cluster,
        keep_separate=apply.keep_separate, undo=undo.undo, redo=undo.redo,
        stale_source_error=apply.StaleSourceError, audit_error=undo.AuditError,
        cluster_key=review_marks.cluster_key, read_marks=review_marks.read_marks,
        write_marks=review_marks.write_marks, review_mark=review_marks.ReviewMark,
        build_demo_store=build_demo_store, selftest=selftest.selftest_work, missing_models=missing_models,
        read_merge=read_merge,
    )
