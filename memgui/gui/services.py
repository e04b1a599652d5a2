"""The core services the window uses, injected so tests can swap in fakes.

`real_services()` wires the real core modules. Each is imported lazily and guarded: a core part that is
missing (or fails to import) leaves its service as None and its name in `Services.unavailable`, and the
window still opens and says which feature is off. The window never imports core modules beyond this file
(plus the pure values in `core.tasks`, `core.curation`, `core.diff`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core.curation.types import Candidate, Proposal


@dataclass
class Services:
    # store
    locate_store: Callable[..., Any]  # (explicit: str | None) -> LocatedStore(path, origin, is_demo)
    open_store: Callable[..., Any]  # (path, *, read_only=False) -> Store
    build_demo_store: Callable[[Path], Any] | None = None
    store_error: type[BaseException] = Exception
    # nomination: (store, *, embedder_choice, k, threshold, cancel) -> Work[ScanResult]
    scan: Callable[..., Any] | None = None
    # decider: (settings: GuiSettings) -> Decider (may be slow: loads a model; runs on a worker)
    make_decider: Callable[[Any], Any] | None = None
    selftest: Callable[..., Any] | None = None  # (decider, *, cancel) -> Work[SelfTestReport] (cached per model)
    discover_models: Callable[[], Sequence[Any]] | None = None
    default_model_path: Callable[[], Path | None] | None = None
    # guard and drafts (pure)
    check_merge: Callable[[Sequence[str], str], Any] | None = None
    missing_spans: Callable[[str, Any], Sequence[tuple[int, int]]] | None = None
    build_appended_body: Callable[..., str] | None = None
    sentence_union: Callable[[str, Sequence[str]], str] | None = None
    warm_up: Callable[[], Any] | None = None  # precompiles the guard's Unicode patterns (on a worker)
    # writes and audit
    apply: Any = None  # module-like: merge_cluster, keep_separate, MergePlan, SourceStamp, errors
    audit: Any = None  # module-like: undo, redo, list_entries, UndoConflictError
    unavailable: dict[str, str] = field(default_factory=dict)

    # ---- helpers the window calls (thin translation only) --------------------------------------

    def error_type(self, module: Any, name: str) -> type[BaseException]:
        value = getattr(module, name, None) if module is not None else None
        return value if isinstance(value, type) and issubclass(value, BaseException) else _NeverRaised


class _NeverRaised(Exception):
    """Stand-in for an error class of a core module that is not there (never raised)."""


def decider_inputs(documents: Sequence[Any], cosines: dict[frozenset, float]) -> tuple[Proposal, list[Candidate]]:
    """The decider's view of a cluster, as the issue defines it: the newest document is the proposal,
    the others are candidates with their full content and best cosine to the proposal."""
    ordered = sorted(documents, key=lambda d: (d.updated_at, d.document_id))
    newest, others = ordered[-1], ordered[:-1]
    proposal = Proposal(
        title=newest.title,
        content=newest.markdown_body,
        anchor_name=newest.anchor_id.removeprefix("anchor:").replace("-", " "),
        memory_class=newest.memory_class,
        memory_id=None,
        update_semantics=newest.update_semantics,
        boundary=newest.boundary,
        audience=newest.audience,
        sensitivity=newest.sensitivity,
        recall_mode=newest.recall_mode,
        confidence=newest.confidence,
        freshness_at=newest.freshness_at,
    )
    return proposal, candidates_of(others, cosines, newest.document_id)


def candidates_of(docs: Sequence[Any], cosines: dict[frozenset, float] | None = None,
                  against: str | None = None) -> list[Candidate]:
    cosines = cosines or {}
    return [
        Candidate(
            document_id=doc.document_id,
            anchor_id=doc.anchor_id,
            canonical_name=doc.title,
            markdown_body=doc.markdown_body,
            freshness_at=doc.freshness_at,
            confidence=doc.confidence,
            cosine=cosines.get(frozenset((doc.document_id, against))) if against else None,
        )
        for doc in docs
    ]


def default_target(docs: Sequence[Any]) -> str | None:
    """The document whose id a merge keeps by default: Netclaw's consolidation primary (highest confidence,
    then freshest), by the core's own rule; the first document when the rules module is missing."""
    if not docs:
        return None
    try:
        from ..core.curation.rules import best_by_confidence
    except Exception:  # noqa: BLE001
        return docs[0].document_id
    return best_by_confidence(candidates_of(docs)).document_id


def _try_import(name: str, unavailable: dict[str, str]) -> Any:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any failure means "feature off", shown to the user
        unavailable[name] = f"{type(exc).__name__}: {exc}"
        return None


def real_services() -> Services:
    from ..core import netfx
    from ..core import store as store_mod
    from ..core.store import locate as locate_mod

    missing: dict[str, str] = {}
    demo = _try_import("memgui.core.store.demo", missing)
    nominate = _try_import("memgui.core.vectors.nominate", missing)
    decide = _try_import("memgui.core.decide.llm", missing)
    decider_model = _try_import("memgui.core.decide.model_files", missing)
    selftest = _try_import("memgui.core.decide.selftest", missing)
    discovery = _try_import("memgui.core.decide.discovery", missing)
    guard = _try_import("memgui.core.merge.guard", missing)
    union = _try_import("memgui.core.merge.union", missing)
    apply = _try_import("memgui.core.ops.apply", missing)
    audit = _try_import("memgui.core.ops.undo", missing)

    def make_decider(settings: Any) -> Any:
        """The llama.cpp decider on the chosen GGUF (else the bundled default). Not loaded yet: the worker
        runs its `load()` generator, so the window shows "loading the model" with Cancel."""
        path = settings.decider_model or None
        if path is None and decider_model is not None:
            path = decider_model.default_model_path()
        if path is None:
            raise RuntimeError("no decider model is installed: run `memgui models install`, or choose a GGUF file "
                               "in Settings (Ctrl+,)")
        if not Path(path).is_file():
            raise RuntimeError(f"{path}: decider model file not found; choose another in Settings (Ctrl+,)")
        return decide.LlamaDecider(path, n_threads=settings.llm_threads, n_ctx=settings.llm_context,
                                   timeout_s=settings.llm_timeout_s)

    return Services(
        locate_store=locate_mod.locate_store,
        open_store=store_mod.open_store,
        build_demo_store=getattr(demo, "build_demo_store", None),
        store_error=store_mod.StoreError,
        scan=getattr(nominate, "scan_store", None),
        make_decider=make_decider if getattr(decide, "LlamaDecider", None) is not None else None,
        selftest=getattr(selftest, "selftest_work", None),
        discover_models=getattr(discovery, "discover_gguf_models", None),
        default_model_path=getattr(decider_model, "default_model_path", None),
        check_merge=getattr(guard, "check_merge", None),
        missing_spans=getattr(guard, "missing_spans", None),
        build_appended_body=netfx.build_appended_body,
        sentence_union=getattr(union, "sentence_union", None),
        warm_up=getattr(guard, "warm_up", None),
        apply=apply,
        audit=audit,
        unavailable=missing,
    )
