"""Test doubles for the window: a small review store, a scanner that returns known clusters, and a decider
that streams a scripted reply (optionally held at a gate so Cancel can be tested). The store, guard,
apply and audit are the real core ones."""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from factories import seed_document
from memgui.core.curation.types import CurationDecision, DeciderResult, DecisionKind
from memgui.core.store import create_store, open_store
from memgui.core.store.values import now_ms
from memgui.core.tasks import Cancelled, Progress

DOCS = {
    "pg-1": ("Production database", "postgres",
             "The production database is Postgres 14.2 on db-01.internal, port 5432. Backups run nightly at "
             "02:00 UTC to s3://backups/pg."),
    "pg-2": ("Prod DB host", "prod-db",
             "Prod DB: Postgres 14.2 running on db-01.internal (port 5432). Nightly backups at 02:00 UTC. "
             "The replica is db-02.internal."),
    "fl-1": ("Flight to Lisbon", "lisbon-trip",
             "Mira flies LH 1234 to Lisbon on 2025-06-14, departing 07:45 from gate B12."),
    "fl-2": ("Return flight from Lisbon", "lisbon-trip-return",
             "Mira flies LH 1243 back from Lisbon on 2025-06-21, departing 18:10 from gate 14."),
    "ed-1": ("Editor preference", "editor",
             "Mira prefers Neovim with the lazy.nvim plugin manager and a 2-space indent."),
    "ed-2": ("Preferred editor", "editor-pref",
             "Her editor is Neovim (lazy.nvim for plugins). Indent is 2 spaces; tabs are never used."),
    "ed-3": ("Neovim setup", "neovim",
             "Neovim config lives in ~/.config/nvim/init.lua and uses lazy.nvim."),
    "misc": ("Coffee", "coffee", "Mira drinks her coffee black, two cups before noon."),
}
CLUSTERS = (("pg-1", "pg-2", 0.962), ("ed-1", "ed-2", 0.941), ("fl-1", "fl-2", 0.915))


@dataclass
class ReviewStore:
    path: Path
    ids: dict[str, str]  # key -> document id


def _seed(path: Path, ids: dict[str, str], docs: dict[str, tuple[str, str, str]], base: int) -> None:
    """Seed `docs` (key -> (title, anchor, body)) through the shared factory, one millisecond apart from `base`."""
    with open_store(path) as store:
        for n, (key, (title, anchor, body)) in enumerate(docs.items()):
            ids[key] = seed_document(store, title, body, anchor=anchor, freshness_at=base + n * 1000,
                                     created_at=base + n * 1000).document_id


def build_review_store(path: Path) -> ReviewStore:
    create_store(path)
    ids: dict[str, str] = {}
    _seed(path, ids, DOCS, now_ms() - 86_400_000)
    return ReviewStore(path, ids)


def add_documents(review: ReviewStore, docs: dict[str, tuple[str, str, str]]) -> None:
    """More documents in the review store: key -> (title, anchor, body), newer than the others."""
    _seed(review.path, review.ids, docs, now_ms())


def until_cancelled(cancel) -> None:
    """A batch of work that lasts until its task is cancelled (a scan of a big store); bounded, so a test whose
    cancel never comes fails instead of hanging."""
    assert cancel is not None
    assert cancel._event.wait(120), "never cancelled"


class FakeScanner:
    """scan_store's shape: yields Progress, returns a ScanResult with the known clusters."""

    def __init__(self, ids: dict[str, str], clusters=CLUSTERS, pace=None, anchor_only=()):
        # pace(cancel), before each batch: how long a batch takes (until_cancelled: a scan that runs until it is
        # cancelled; test_gui_stall.py's workload, which is what that test measures). anchor_only: the first keys
        # of clusters only a shared anchor joined (no cosine nominee edge)
        self.ids, self.clusters, self.pace, self.anchor_only = ids, clusters, pace, set(anchor_only)
        self.calls = 0

    def __call__(self, store, *, embedder_choice="auto", k=None, threshold=None, cancel=None):
        from memgui.core.vectors.embed import EmbedderInfo
        from memgui.core.vectors.nominate import Cluster, Pair, ScanResult

        self.calls += 1
        live = {d.document_id for d in store.documents()}
        out = []
        steps = 4
        for step in range(steps):
            if self.pace is not None:
                self.pace(cancel)
            if cancel is not None:  # like a real embedder: the cancel token is checked between batches
                cancel.raise_if_cancelled()
            yield Progress("embedding", step + 1, steps, f"embedding batch {step + 1}/{steps}")
        for spec in self.clusters:
            *keys, cosine = spec
            members = tuple(self.ids[k] for k in keys)
            if not all(m in live for m in members):
                continue
            by_anchor = keys[0] in self.anchor_only
            pairs = tuple(Pair(members[i], members[j], cosine - 0.01 * (i + j - 1), nominee=not by_anchor,
                               same_anchor=by_anchor)
                          for i in range(len(members)) for j in range(i + 1, len(members)))
            out.append(Cluster("c-" + "-".join(keys), members, pairs, max(p.cosine for p in pairs)))
        return ScanResult(EmbedderInfo("fake-embedder", 8, "default"), k or 5, threshold or 0.8, False, None,
                          tuple(out), documents=len(live))


@dataclass(frozen=True)
class JudgeCall:
    """What `LlamaDecider.judge_pair` returns (a StageCall's fields the groups read)."""
    reply: str
    margin: float | None = 1.0
    seconds: float | None = 0.01


class FakeDecider:
    """Streams `reply` word by word. With `gate` set, it waits at the gate after the first piece (and checks
    the cancel token while waiting), so a test can press Cancel mid-stream.

    `judge_pair` answers "same fact?" per pair: `verdicts` maps frozenset({body, body}) to "SAME" or
    "DIFFERENT" (unlisted pairs: `default_verdict`). With `judge_gate` set, every judgement waits at it."""

    model_id = "fake-decider-q4"

    def __init__(self, merged_body: str | None = None, kind=DecisionKind.UPDATE, gate: threading.Event | None = None,
                 pace=None, verdicts: dict | None = None, default_verdict: str = "SAME",
                 judge_gate: threading.Event | None = None):
        self.merged_body, self.kind, self.gate = merged_body, kind, gate
        self.pace = pace  # pace(cancel) after each streamed piece: a slow model, as a condition (FakeScanner's)
        self.verdicts, self.default_verdict, self.judge_gate = dict(verdicts or {}), default_verdict, judge_gate
        self.calls = []
        self.judged: list[tuple[str, str]] = []
        self.cancelled = False
        self.cancellations = 0  # calls that stopped on a cancelled token

    def _stop(self):
        self.cancelled = True
        self.cancellations += 1
        raise Cancelled()

    def judge_pair(self, existing, new, *, cancel=None, timeout_s=None):
        self.judged.append((existing, new))
        yield Progress("classifying", 0, None, payload="")
        while self.judge_gate is not None and not self.judge_gate.wait(0.01):
            if cancel is not None and cancel.cancelled:
                self._stop()
        if cancel is not None and cancel.cancelled:
            self._stop()
        word = self.verdicts.get(frozenset((existing, new)), self.default_verdict)
        return JudgeCall(f"{word}\nREASON: scripted")

    def decide(self, proposal, candidates, *, full_candidate_content, cancel=None, timeout_s=None):
        self.calls.append((proposal, tuple(candidates), full_candidate_content))
        target = candidates[0].document_id
        body = self.merged_body if self.merged_body is not None else (
            candidates[0].markdown_body + "\n\n" + proposal.content)
        reply = f"{self.kind.value} {target}\nREASON: both describe the same fact\n---\n{body}"
        started = time.monotonic()
        for n, piece in enumerate(reply.split(" ")):
            if cancel is not None and cancel.cancelled:
                self._stop()
            yield Progress("deciding", n + 1, None, payload=piece + " ")
            if self.pace is not None:
                self.pace(cancel)
            if n == 0 and self.gate is not None:
                while not self.gate.wait(0.01):
                    if cancel is not None and cancel.cancelled:
                        self._stop()
        decision = CurationDecision(self.kind, target_document_id=target, merged_body=body, from_llm_tier=True,
                                    rationale="both describe the same fact", reason="llm")
        return DeciderResult(decision, raw_reply=reply, rationale="both describe the same fact",
                             model_id=self.model_id, prompt_hash="ph-test", completion_tokens=len(reply.split()),
                             seconds=time.monotonic() - started)


def services_for(review: ReviewStore, *, decider: FakeDecider | None = None, scanner: FakeScanner | None = None):
    """Real store/guard/apply/audit; fake scanner and decider."""
    from memgui.gui.services import real_services

    s = real_services()
    s.scan = scanner or FakeScanner(review.ids)
    the_decider = decider or FakeDecider()
    s.make_decider = lambda settings: the_decider
    s.build_demo_store = None
    s.discover_models = lambda: []
    s.selftest = None  # the capability self-test needs a real model; tests that want it set their own
    return s


def edit_document_behind_the_back(path: Path, doc_id: str, body: str) -> None:
    """Another writer (e.g. the daemon) changes a document while the window has it open."""
    store = open_store(path)
    try:
        doc = store.document(doc_id)
        store.writes.upsert_document(replace(doc, markdown_body=body))
    finally:
        store.close()


def wait_until(qtbot, predicate, timeout: int = 10000) -> None:
    qtbot.waitUntil(predicate, timeout=timeout)


def wait_for_guard(qtbot, window, passed: bool | None = None, timeout: int = 20000) -> None:
    """Until the guard's report on screen is about the body as it is now and, when `passed` is given, the body
    passed (True) or failed (False). Typing runs the guard on the keystrokes' bodies: the first report that fails
    may be about half a sentence, and Accept waits for the report on the body it writes."""
    def current() -> bool:
        c = window.review.cluster
        return c.guard_is_current() and (passed is None or c.report.passed is passed)

    qtbot.waitUntil(current, timeout=timeout)


def texts(items: Sequence) -> list[str]:
    return [str(i) for i in items]


class Answerer:
    """Stands in for QMessageBox.exec: clicks the button whose text matches the next queued answer."""

    def __init__(self):
        self.queue: list[str] = []
        self.seen: list[dict] = []

    def answer(self, *labels: str) -> Answerer:
        self.queue.extend(labels)
        return self

    def __call__(self, box):
        buttons = {b.text().replace("&", ""): b for b in box.buttons()}
        default = box.defaultButton()
        record = {"title": box.windowTitle(), "text": box.text(), "info": box.informativeText(),
                  "buttons": list(buttons), "default": default.text().replace("&", "") if default else None}
        self.seen.append(record)
        if not self.queue:
            raise AssertionError(f"unexpected dialog: {record}")
        wanted = self.queue.pop(0)
        if wanted not in buttons:
            raise AssertionError(f"dialog has no button {wanted!r}: {record}")
        return buttons[wanted]

    def titles(self) -> list[str]:
        return [s["title"] for s in self.seen]


class FakeHistory:
    """HistoryServices for the Audit tab's History page (gui/audit/history.py): one anchor of two notes, one memgui
    merge undone, a tombstoned note, a text that was not UTF-8. Records the thread each call ran on; `gate` (an Event)
    holds `timeline` until it is set."""

    T0 = 1_740_787_200_000  # 2025-03-01 UTC

    def __init__(self, gate: threading.Event | None = None):
        self.gate = gate
        self.calls: list[tuple[str, str | None, str | None]] = []
        self.threads: list[threading.Thread] = []

    def services(self):
        from memgui.gui.services.history import HistoryServices

        return HistoryServices(subjects=self.subjects, timeline=self.timeline)

    def subjects(self, store):
        from memgui.gui.services.history import HistorySubject

        self.threads.append(threading.current_thread())
        return [HistorySubject("anchor", "anchor:car", "car (2 notes)"),
                HistorySubject("document", "doc-service", "Car service · doc-service"),
                HistorySubject("document", "doc-cost", "Car service cost · doc-cost [tombstoned]", True)]

    def timeline(self, store, *, document_id=None, anchor=None):
        from memgui.gui.services.history import Timeline, TimelineDocument, TimelineEntry, UnknownSubjectError

        self.threads.append(threading.current_thread())
        self.calls.append(("timeline", document_id, anchor))
        if self.gate is not None:
            self.gate.wait(30)
        day = 86_400_000
        service = TimelineDocument("doc-service", "Car service", False)
        cost = TimelineDocument("doc-cost", "Car service cost", True)
        entries = {
            "doc-service": [
                TimelineEntry("2025-03-01", None, "inline-history", "previously", "doc-service", "Car service",
                              "booked for 08:00"),
                TimelineEntry("2025-03-01", self.T0 + 9 * 3_600_000, "document", "created", "doc-service",
                              "Car service", "Car service booked for 08:00."),
                TimelineEntry("2025-03-04", None, "append-history", "appended", "doc-service", "Car service",
                              "The service is done; it cost 240 EUR.", note="the day the append was written"),
                TimelineEntry("2025-03-05", self.T0 + 4 * day, "memgui-audit", "merge", "doc-service", "Car service",
                              "The service is done (240 EUR).", before="Car service booked for 08:00.", audit_id=7,
                              state="undone", note="undone since"),
                TimelineEntry("2025-03-05", self.T0 + 4 * day + 60_000, "memgui-audit", "undo", "doc-service",
                              "Car service", "Car service booked for 08:00.", before="The service is done (240 EUR).",
                              audit_id=8, state="applied", note="undo of #7"),
            ],
            "doc-cost": [
                TimelineEntry("2025-03-04", self.T0 + 3 * day, "document", "created", "doc-cost", "Car service cost",
                              "It cost 240 \ufffd.", repaired=True),
                TimelineEntry("2025-03-06", self.T0 + 5 * day, "document", "updated", "doc-cost", "Car service cost",
                              "It cost 240 \ufffd.", tombstoned=True, repaired=True, note="last write: tombstone"),
            ],
        }
        if document_id in entries:
            doc = service if document_id == "doc-service" else cost
            notes = ("“Car service cost” is tombstoned.",) if doc.tombstoned else ()
            return Timeline("document", doc.document_id, doc.title, "anchor:car", (doc,),
                            tuple(entries[document_id]), notes)
        if anchor in ("anchor:car", "car"):
            merged = sorted(entries["doc-service"] + entries["doc-cost"],
                            key=lambda e: (e.date or "", -1 if e.time_ms is None else e.time_ms))
            return Timeline("anchor", "anchor:car", "car", "anchor:car", (service, cost), tuple(merged),
                            ("“Car service cost” is tombstoned.",))
        raise UnknownSubjectError(f"{document_id or anchor!r}: no such {'document' if document_id else 'anchor'} "
                                  "in this store")


class FakeSupersedeEngine:
    """An engine the supersede reader can score answers with (issue 38): `answer` ("UPDATE", "SERIES" or "OTHER")
    wins by a wide margin. With `gate` set, each scoring waits at it (checking the cancel the reader passes on by
    closing the work), so a test can press Cancel mid-reading; `scored` counts the pairs read to the end."""

    model_id = "fake-supersede-q4"
    n_ctx = 8192
    lock = None

    def __init__(self, answer: str = "UPDATE", gate: threading.Event | None = None):
        self.answer, self.gate = answer, gate
        self.scored = 0
        self.started = threading.Event()

    def render(self, messages) -> str:
        return "\n".join(f"{m['role']}: {m['content']}" for m in messages)

    def tokenize(self, text: str) -> list[int]:
        return [ord(ch) % 997 for ch in text[:4000]]

    def score_words(self, tokens, *, stable_prefix=0, words=()):
        self.started.set()
        yield Progress("supersede reading", 0, 1, "scoring")
        while self.gate is not None and not self.gate.wait(0.01):
            yield Progress("supersede reading", 0, 1, "scoring")  # the reader checks its cancel between yields
        self.scored += 1
        return {w: (8.0 if w == self.answer else 0.0) for w in words}


class LoadedDecider(FakeDecider):
    """A FakeDecider whose model is loaded and whose engine scores supersede answers."""

    loaded = True

    def __init__(self, engine: FakeSupersedeEngine, **kwargs):
        super().__init__(**kwargs)
        self.engine = engine


# ---- the Review tab without the window (issue 37, item 7) ------------------------------------------------------

REVIEW_ACTIONS = {"ask": "ask_model", "cancel_model": "cancel_model", "union": "union_draft",
                  "confirm": "confirm_restatement", "supersede": "supersede", "accept": "accept", "append": "append",
                  "keep": "keep_separate", "skip": "skip", "undo": "undo", "redo": "redo", "edit": None, "split": None}


class FakeReviewHost:
    """The `ReviewHost` a `Review` controller needs (gui/review/host.py), with no window: the open store, the
    settings, and a record of the queue moves, statuses and written-store notices it was asked for."""

    def __init__(self, store, settings=None):
        from memgui.gui.settings_dialog import GuiSettings

        self.store = store
        self.settings = settings or GuiSettings(decide_ahead=False)
        self.scan_result = None
        self.writable = True
        self.statuses: list[str] = []
        self.moves: list[tuple[str, object]] = []
        self.written = 0

    def can_write(self) -> bool:
        return self.writable and self.store is not None and not self.store.read_only

    def next_cluster(self, prefer_new: bool = False) -> None:
        self.moves.append(("next", prefer_new))

    def select_cluster(self, cluster_id: str) -> None:
        self.moves.append(("select", cluster_id))

    def store_written(self, documents: frozenset[str], marked: frozenset[str]) -> None:
        self.written += 1

    def split_off(self, cluster_id, member_ids):
        self.moves.append(("split", tuple(member_ids)))
        return None, None

    def show_status(self, text: str, msecs: int = 0, *, about=None) -> None:
        self.statuses.append(text)


class ReviewBench:
    """The Review tab's panels (`ReviewPage`) and their `Review` controller on a `FakeReviewHost`, with the fake
    services (`services_for`): what a panel's test builds instead of the MainWindow. `show(*keys)` loads the
    cluster of those documents of the review store; `actions` are the page's buttons, wired to the controller as
    the window wires them (enabled: the window's enabling is the window's test)."""

    def __init__(self, qtbot, review: ReviewStore, services=None, *, decider: FakeDecider | None = None):
        from PySide6.QtGui import QAction

        from memgui.gui.dialogs import Prompter
        from memgui.gui.review import Review, ReviewPage
        from memgui.gui.workers import TaskRunner

        self.ids = review.ids
        self.services = services or services_for(review, decider=decider)
        self.actions = {key: QAction(key) for key in REVIEW_ACTIONS}
        self.page = ReviewPage(self.actions)
        qtbot.addWidget(self.page)
        self.page.resize(1400, 800)
        self.runner = TaskRunner(self.page)
        self.answerer = Answerer()
        self.prompter = Prompter(self.page)
        self.prompter.exec_box = self.answerer
        self.host = FakeReviewHost(self.services.open_store(review.path))
        self.review = Review(self.services, self.runner, self.prompter, self.page, self.host, parent=self.page)
        for key, slot in REVIEW_ACTIONS.items():
            if slot is not None:
                self.actions[key].triggered.connect(getattr(self.review, slot))
        self.page.show()

    def show(self, *keys: str, cosine: float = 0.95, cluster_id: str | None = None):
        """Load the cluster of the review store's documents `keys` (as the queue would on selecting its row)."""
        from memgui.core.vectors.nominate import Cluster, Pair
        from memgui.gui.review.cluster_model import ClusterRow

        members = tuple(self.ids[k] for k in keys)
        pairs = tuple(Pair(members[i], members[j], cosine - 0.01 * (i + j - 1))  # FakeScanner's cosines
                      for i in range(len(members)) for j in range(i + 1, len(members)))
        cluster = Cluster(cluster_id or "c-" + "-".join(keys), members, pairs, max(p.cosine for p in pairs))
        docs = {d.document_id: d for d in self.host.store.documents_by_ids(list(members))}
        row = ClusterRow.of(cluster, docs)
        self.review.load(row)
        return row

    # the panels, by the names the window gives them
    @property
    def editor(self):
        return self.page.editor

    @property
    def sources(self):
        return self.page.sources

    @property
    def guard_panel(self):
        return self.page.guard_panel

    @property
    def decision_panel(self):
        return self.page.decision_panel

    @property
    def diff_view(self):
        return self.page.diff_view

    def evidence_done(self) -> bool:
        return self.review.row is not None and not self.runner.busy("evidence")

    def close(self) -> None:
        self.runner.shutdown(15000)
        self.review.close()
        self.host.store.close()
        self.page.close()
