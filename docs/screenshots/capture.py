"""Re-create the screenshots in this folder: the reviewer window on a fresh demo store, with the real core
(MiniLM scan, MergeGuard, union draft, llama.cpp decider, apply/audit), rendered offscreen.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/capture.py [OUT_DIR] [--only 11,12]

`--only` makes just the listed shots (by number); 01–10 are one sequence, so asking for any of them runs it whole.
Shots 11–12 (review by fact) use a second window whose decider is *scripted* (see `ScriptedDecider`): it judges
the demo's "Go version" pair the same fact and the sibling a different one, and drafts with the union draft.

Uses a throw-away data/cache dir, so the user's own store and settings are never touched. Actions are
triggered as the keys would trigger them (the same QActions).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_TMP = Path(tempfile.mkdtemp(prefix="memgui-shots-"))
os.environ["MEMGUI_DATA_DIR"] = str(_TMP / "data")
os.environ["MEMGUI_CACHE_DIR"] = str(_TMP / "cache")
os.environ["NETCLAW_HOME"] = str(_TMP / "netclaw-home")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop, QSettings  # noqa: E402

from memgui.core.decide.drafts import union_draft  # noqa: E402
from memgui.core.store.demo import build_demo_store  # noqa: E402
from memgui.core.tasks import Progress, run_to_end  # noqa: E402
from memgui.core.vectors.index import open_index  # noqa: E402
from memgui.core.vectors.nominate import Cluster, Pair, cluster_id, resolve_source  # noqa: E402
from memgui.gui.app import application  # noqa: E402
from memgui.gui.main_window import MainWindow  # noqa: E402
from memgui.gui.review.page import fit_window  # noqa: E402
from memgui.gui.services import real_services  # noqa: E402
from memgui.gui.settings_dialog import SettingsDialog  # noqa: E402

_ARGS = argparse.ArgumentParser(description=__doc__.split("\n")[0])
_ARGS.add_argument("out", nargs="?", default=str(Path(__file__).resolve().parent))
_ARGS.add_argument("--only", default="", help="comma-separated shot numbers, e.g. 11,12")
ARGS = _ARGS.parse_args()
OUT = Path(ARGS.out)
OUT.mkdir(parents=True, exist_ok=True)
ONLY = {n.strip().zfill(2) for n in ARGS.only.split(",") if n.strip()}

# The demo's mixed cluster: a duplicate pair ("Go version for Routewise services" / "Which Go the backend
# uses", both Go 1.23.4) and a sibling ("Routewise moved to Go 1.24": another fact about the same services).
MIXED = ("doc-41991d75fb0dce859b757ed92245ca27", "doc-703f5e7691b6ff37f7df261ea90f0d4a",
         "doc-0d79eb5fa1aedf766b21ea3d631f1f80")
# A hand edit of the pair's draft that Netclaw's MergeGuard passes (its two load-bearing tokens are kept)
# but the strict lens flags: the project name "Routewise" is gone.
STRICT_RISK_BODY = "All Go services are pinned to Go 1.23.4 in `.tool-versions`; CI reads the same file."


def wanted(name: str) -> bool:
    return not ONLY or name[:2] in ONLY


class ScriptedDecider:
    """Stands in for the llama.cpp decider in shots 11–12 (so they do not depend on what a small model
    answers): the first two MIXED documents are the same fact, every other pair different; the merged body is
    the core's sentence-union draft of the group."""

    model_id = "scripted decider (screenshot)"

    def __init__(self, bodies: dict[str, str]):
        self.same = frozenset((bodies[MIXED[0]], bodies[MIXED[1]]))

    def judge_pair(self, existing, new, *, cancel=None, timeout_s=None):
        yield Progress("classifying", 0, None, payload="")
        time.sleep(0.05)
        return SimpleNamespace(reply="SAME" if frozenset((existing, new)) == self.same else "DIFFERENT",
                               margin=None, seconds=0.05)

    def decide(self, proposal, candidates, *, full_candidate_content=True, cancel=None, timeout_s=None):
        yield Progress("deciding", 0, None, payload="")
        return replace(union_draft(proposal, candidates), model_id=self.model_id)


def mixed_cluster_services(store_path: Path):
    """Real services, except: the scan puts the three MIXED documents in one cluster (their real cosines from
    the scan's own index; the real scan keeps the sibling out of it) and the decider is scripted."""
    services = real_services()
    real_scan = services.scan

    def scan(store, **kw):
        result = yield from real_scan(store, **kw)
        source, _ = resolve_source(store, "auto")
        index = run_to_end(open_index(store, source))
        vectors = index.vectors(list(MIXED))
        pairs = tuple(Pair(MIXED[i], MIXED[j], float(vectors[i] @ vectors[j]))
                      for i, j in combinations(range(len(MIXED)), 2))
        mixed = Cluster(cluster_id(MIXED), MIXED, pairs, max(p.cosine for p in pairs))
        rest = tuple(c for c in result.clusters if not set(c.member_ids) & set(MIXED))
        return replace(result, clusters=(mixed, *rest))

    services.scan = scan
    from memgui.core.store import open_store

    reader = open_store(store_path, read_only=True)
    try:
        bodies = {d.document_id: d.markdown_body for d in reader.documents_by_ids(MIXED)}
    finally:
        reader.close()
    decider = ScriptedDecider(bodies)
    services.make_decider = lambda settings: decider
    services.selftest = None  # a scripted decider has nothing to self-test
    return services


def wait(app, predicate, timeout_s: float = 600.0) -> None:
    end = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("the window did not reach the expected state")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)


def show_and_open(app, window, store) -> None:
    """Show the window, open `store` in it and wait until its queue is filled and the first cluster checked."""
    window.show()
    ready = []
    window.ready.connect(lambda: ready.append(True))
    window.open_located(str(store))
    wait(app, lambda: ready)


def settle(app, ms: int = 400) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.01)


def history_page(app, shots) -> None:
    """Shot 20: the Audit tab's History page on a small store of its own (an anchor "car" of three notes: a
    daemon append, a "previously … as of" phrase, a memgui merge undone and a merge kept that tombstoned a note)."""
    import sqlite3

    from memgui.core.netfx import anchor_id_for
    from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster
    from memgui.core.ops.undo import undo
    from memgui.core.store import Document, create_store, new_document_id, open_store
    from memgui.gui.audit.history import HistoryPage

    day, hour, t0 = 86_400_000, 3_600_000, 1_740_787_200_000  # 2025-03-01 UTC
    path = create_store(_TMP / "history" / "netclaw.db")
    store = open_store(path)
    store.writes.ensure_anchor("car")

    def note(title: str, body: str, created: int, semantics: str = "merge-document") -> str:
        doc = Document(new_document_id(), anchor_id_for("car"), "durable_fact", title, body, None, None, None,
                       semantics, "boundary:trusted-instance", "personal", "normal", "auto", 0.8, created, None,
                       created, created)
        return store.writes.upsert_document(doc).document_id

    a = note("Car service", "Car service booked for 2025-03-04 08:00 at the Main St garage.\n\n---\n"
             "_[merged 2025-03-04]_\nThe service is done; it cost 240 EUR.", t0 + 9 * hour, "append-document")
    b = note("Tyres", "Winter tyres are stored at the garage (previously: in the basement, as of 2024-10-02).",
             t0 - 120 * day)
    c = note("Car service cost", "The March service cost 240 EUR, paid by card.", t0 + 3 * day + 16 * hour)
    store.close()
    with sqlite3.connect(path) as conn:  # the times the daemon would have written (an upsert stamps now)
        conn.execute("UPDATE memory_documents SET updated_at = created_at + ? WHERE document_id = ?", (20 * day, b))
        conn.execute("UPDATE memory_anchors SET created_at = ?", (t0 - 120 * day,))
    store = open_store(path)
    ids = (a, c)
    first = merge_cluster(store, MergePlan(a, ids, merged_body="The car service is done; it cost 240 EUR.",
                                           drafted=draft_stamps(store, ids), guard_override=True))
    undo(store, first.audit_id)
    merge_cluster(store, MergePlan(a, ids, merged_body="The car service is done; it cost 240 EUR, paid by card "
                                   "(previously: booked for 2025-03-04 08:00 at the Main St garage, as of 2025-03-01).",
                                   drafted=draft_stamps(store, ids), guard_override=True))
    page = HistoryPage()
    page.resize(1180, 680)
    page.show()
    done: list[bool] = []
    page.subjectsLoaded.connect(lambda: done.append(True))
    page.set_store(store)
    wait(app, lambda: done)
    page.shown.connect(lambda: done.append(True))
    page.show_subject("anchor", "car")
    wait(app, lambda: len(done) > 1)
    page.table.selectRow(page.model.rowCount() - 2)  # the kept merge: its text before and after
    settle(app)
    page.grab().save(str(OUT / "20-history.png"))
    shots.append("20-history")
    page.shutdown()
    page.runner.wait(10000)
    page.close()
    store.close()


def supersede_review(app, shots) -> None:
    """Shot 21: a supersession in the review, on a small store of its own (a sofa ordered, its delivery moved, then
    arrived; a car service booked, then done; two yearly flu shots). The scan is fixed (these clusters, no
    embedder needed); the rest is the real core. N reads the first cluster as a supersession (no model loaded:
    the reviewer's reading), the diff against the oldest note shows what became history."""
    import datetime as dt

    from memgui.core.netfx import anchor_id_for
    from memgui.core.store import Document, create_store, new_document_id, open_store
    from memgui.core.vectors.embed import EmbedderInfo
    from memgui.core.vectors.nominate import ScanResult

    def ms(iso: str) -> int:
        return int(dt.datetime.fromisoformat(iso + "+00:00").timestamp() * 1000)

    notes = (("sofa", "Sofa order", "Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 "
              "weeks.", "2025-03-04T09:00"),
             ("sofa", "Sofa delivery", "IKEA moved the KIVIK sofa delivery to 18 March 2025, between 08:00 and "
              "12:00.", "2025-03-10T12:00"),
             ("sofa", "Sofa", "The KIVIK sofa arrived on 18 March 2025 and is in the living room.", "2025-03-18T17:00"),
             ("car", "Car service", "Car service booked for 4 March 2025 at 08:00 at the Main St garage.",
              "2025-02-20T09:00"),
             ("car", "Car service done", "The car service at the Main St garage was done on 4 March 2025; it cost "
              "240 EUR.", "2025-03-04T17:00"),
             ("flu", "Flu shot", "Flu shot on 2024-10-03 at the Croix-Rousse pharmacy, left arm.", "2024-10-03T18:00"),
             ("flu", "Flu shot", "Flu shot on 2025-10-10 at the Croix-Rousse pharmacy, left arm.", "2025-10-10T18:00"))
    path = create_store(_TMP / "supersede" / "netclaw.db")
    ids: list[str] = []
    with open_store(path) as store:
        for anchor, title, body, when in notes:
            store.writes.ensure_anchor(anchor)
            t = ms(when)
            doc = Document(new_document_id(), anchor_id_for(anchor), "durable_fact", title, body, None, None, None,
                           "merge-document", "boundary:trusted-instance", "personal", "normal", "auto", 0.8, t, None,
                           t, t)
            ids.append(store.writes.upsert_document(doc).document_id)

    def cluster(members: tuple[str, ...], cosine: float) -> Cluster:
        pairs = tuple(Pair(a, b, cosine - 0.01 * n) for n, (a, b) in enumerate(combinations(members, 2)))
        return Cluster(cluster_id(members), members, pairs, max(p.cosine for p in pairs))

    def scan(store, **kw):
        yield Progress("embedding", 1, 1, "fixed clusters (screenshot)")
        clusters = (cluster(tuple(ids[0:3]), 0.93), cluster(tuple(ids[3:5]), 0.91), cluster(tuple(ids[5:7]), 0.97))
        return ScanResult(EmbedderInfo("fixed (screenshot)", 384, "default"), 5, 0.8, False, None,
                          tuple(sorted(clusters, key=lambda c: -c.top_cosine)), documents=len(ids))

    services = real_services()
    services.scan = scan
    settings = quiet_settings("settings-supersede.ini")
    settings.setValue("hints/firstRunSeen", "true")
    window = MainWindow(services, qsettings=settings)
    window.prompter.exec_box = lambda box: None
    fit_window(window, window.page, size=(1560, 940))
    show_and_open(app, window, path)
    row = next(r for r in window.cluster_model.rows() if set(r.member_ids) == set(ids[0:3]))
    window.select_cluster(row.cluster_id)
    wait(app, lambda: window.review.row is row)
    wait(app, lambda: not window.runner.busy("evidence"))
    read: list[object] = []
    window.review.supersessionRead.connect(read.append)
    window.actions_by_key["supersede"].trigger()
    wait(app, lambda: read)
    window.diff_view.choose(ids[0])  # against the oldest note: its statement is now dated history
    wait(app, lambda: window.review.guard_is_current() and window.diff_view.shown_request == window.diff_view.request)
    settle(app, 800)
    window.grab().save(str(OUT / "21-supersede.png"))
    shots.append("21-supersede")
    print("saved 21-supersede", flush=True)
    window.close()


def main() -> int:
    app = application()
    shots: list[str] = []
    if wanted("20"):
        history_page(app, shots)
    if wanted("21"):
        supersede_review(app, shots)
    if ONLY and not ONLY - {"20", "21"}:
        print(f"{len(shots)} screenshots in {OUT}")
        return 0
    store = build_demo_store(_TMP / "demo" / "netclaw.db")
    old = not ONLY or any(f"{n:02d}" in ONLY for n in range(1, 11))
    if old:
        first_sequence(app, store, shots)
    if wanted("11") or wanted("12"):
        fact_review(app, store, shots)
    if wanted("15"):
        decisions_ahead(app, store, shots)
    if wanted("16"):
        chained_cluster(app, store, shots)
    for name, size in (("13-laptop-1366x768", (1366, 768)), ("14-desktop-1920x1080", (1920, 1080)),
                       ("17-laptop-1280x720", (1280, 720))):
        if wanted(name):
            at_size(app, store, shots, name, size)
    if wanted("18"):
        at_size(app, store, shots, "18-laptop-1280x720-largest", (1280, 720), largest=True)
    print(f"{len(shots)} screenshots in {OUT}")
    return 0


def quiet_settings(name: str) -> QSettings:
    """Settings for shots 01–12: decisions ahead off, so the model runs only when a shot asks it to."""
    qs = QSettings(str(_TMP / name), QSettings.Format.IniFormat)
    qs.setValue("decider/ahead", "false")
    return qs


def first_sequence(app, store, shots) -> None:
    window = MainWindow(real_services(), qsettings=quiet_settings("settings.ini"))

    def shoot(name: str, widget=None) -> None:
        settle(app)
        (widget or window).grab().save(str(OUT / f"{name}.png"))
        shots.append(name)
        print("saved", name, flush=True)

    def answer(box):
        name = {"Accept merge": "03-confirm-impact", "MergeGuard failed": "06-guard-failed-dialog"}.get(box.windowTitle())
        if name:
            box.show()
            settle(app, 200)
            box.grab().save(str(OUT / f"{name}.png"))
            box.hide()
            shots.append(name)
        buttons = {b.text().replace("&", ""): b for b in box.buttons()}
        for label in ("Merge", "Cancel", "OK"):
            if label in buttons:
                return buttons[label]
        return None

    window.prompter.exec_box = answer
    show_and_open(app, window, store)
    wait(app, lambda: window.review.guard_is_current() or window.guard_panel.report is None)
    shoot("01-queue")

    def select(title: str) -> None:
        for row in window.cluster_model.rows():
            if title in row.titles:
                window.select_cluster(row.cluster_id)
                wait(app, lambda: window.review.row is row)
                return
        raise LookupError(title)

    select("Home Assistant")
    window.actions_by_key["union"].trigger()
    wait(app, lambda: window.review.origin == "union" and window.review.guard_is_current())
    wait(app, lambda: window.diff_view.shown_request == window.diff_view.request)
    shoot("02-union-guard-passed")
    written = []
    window.review.writeFinished.connect(written.append)
    window.actions_by_key["accept"].trigger()
    wait(app, lambda: written)
    shoot("04-after-accept")

    # The first cluster on which the model drafts a merged body (it may also answer CREATE: different facts).
    for title in ("Penicillin allergy", "Editor of choice", "Gym membership"):
        select(title)
        finished = []
        window.review.decisionFinished.connect(finished.append)
        window.actions_by_key["ask"].trigger()
        wait(app, lambda: "merging" in window.decision_panel.stream.toPlainText() or finished)
        if not finished:
            settle(app, 3000)
            shoot("07-model-streaming")
        wait(app, lambda: finished)
        window.review.decisionFinished.disconnect()
        wait(app, lambda: window.review.guard_is_current() or window.guard_panel.report is None)
        others = [d.document_id for d in window.review.docs if d.document_id != window.sources.target_id()]
        if others and window.editor.toPlainText():
            request = window.diff_view.request
            window.diff_view.choose(others[0])  # the diff against a source the draft did not start from
            wait(app, lambda: window.diff_view.shown_request > request)
        shoot("08-model-decision")
        decision = getattr(finished[0], "decision", None)
        if decision is not None and decision.merged_body:
            break

    select("routewise-api repository and deploy")
    window.editor.setFocus()
    window.editor.setPlainText("routewise-api is deployed from GitHub to the prod cluster.")
    wait(app, lambda: window.review.guard_is_current())
    window.queue.setFocus()
    shoot("05-guard-failed")
    window.actions_by_key["accept"].trigger()  # the guard-failed dialog (answered Cancel)

    window.tabs.setCurrentWidget(window.audit_view)
    settle(app, 2500)
    shoot("09-audit-tab")
    window.tabs.setCurrentIndex(0)

    models = window.services.discover_models()
    dialog = SettingsDialog(window.settings, models, window)
    dialog.show()
    shoot("10-settings", dialog)
    dialog.close()
    window.close()


def fact_review(app, store, shots) -> None:
    """11: the mixed cluster judged pair by pair (scripted decider): the partition, the pre-selected pair and
    the conflicts with the sibling. 12: a hand edit Netclaw passes and the strict lens flags."""
    window = MainWindow(mixed_cluster_services(store), qsettings=quiet_settings("settings-11.ini"))
    window.prompter.exec_box = lambda box: None
    show_and_open(app, window, store)

    def shoot(name: str) -> None:
        settle(app)
        if wanted(name):
            window.grab().save(str(OUT / f"{name}.png"))
            shots.append(name)
            print("saved", name, flush=True)

    row = next(r for r in window.cluster_model.rows() if set(r.member_ids) == set(MIXED))
    window.select_cluster(row.cluster_id)
    wait(app, lambda: window.review.row is row and window.review.mark is not None)
    finished = []
    window.review.decisionFinished.connect(finished.append)
    window.actions_by_key["ask"].trigger()
    wait(app, lambda: finished)
    wait(app, lambda: window.review.guard_is_current())
    window.page.compare_tabs.setCurrentWidget(window.page.evidence_panel)
    window.queue.setFocus()
    shoot("11-mixed-cluster")

    window.editor.setPlainText(STRICT_RISK_BODY)
    wait(app, lambda: window.review.guard_is_current() and window.review.strict is not None)
    window.page.compare_tabs.setCurrentWidget(window.diff_view)
    window.queue.setFocus()
    shoot("12-strict-lens")
    window.close()


def decisions_ahead(app, store, shots, clusters: int = 4) -> None:
    """15: the real model decides the clusters after the first one in the background (badges in the queue);
    J reaches a decided cluster and its groups, target and body are there at once. The model's record in the
    decision panel reads its self-test and `memgui evaluate-model --limit 5`, measured first."""
    from memgui.core.decide.ahead import model_key
    from memgui.core.decide.llm import LlamaDecider
    from memgui.core.decide.model_files import default_model_path
    from memgui.core.decide.selftest import run_selftest
    from memgui.core.forensics.model_quality import evaluate_model, save_quality

    decider = LlamaDecider(default_model_path(), n_threads=2, n_ctx=4096, timeout_s=0)
    try:
        report = run_selftest(decider)
        quality = run_to_end(evaluate_model(decider, limit=5))
        print("evaluate-model --limit 5:", quality.to_dict(), flush=True)
        save_quality(model_key(decider), replace(quality, selftest={"capable": report.capable,
                                                                   "passed": report.passed, "total": report.total}))
    finally:
        decider.close()
    window = MainWindow(real_services(), qsettings=QSettings(str(_TMP / "settings-15.ini"),
                                                             QSettings.Format.IniFormat))
    window.prompter.exec_box = lambda box: None
    show_and_open(app, window, store)
    merging = ("same", "mixed")
    wait(app, lambda: len(window.ahead.reviews) >= clusters
         and any(r.verdict in merging for r in window.ahead.reviews.values()), timeout_s=3600)
    row = next(r for r in window.cluster_model.rows()  # the first decided cluster with something to merge
               if getattr(window.ahead.reviews.get(frozenset(r.member_ids)), "verdict", None) in merging)
    window.select_cluster(row.cluster_id)
    wait(app, lambda: "decided ahead" in window.editor_title.text())
    wait(app, lambda: window.review.guard_is_current() or window.guard_panel.report is None)
    window.queue.setFocus()
    settle(app, 800)
    window.grab().save(str(OUT / "15-background-decisions.png"))
    shots.append("15-background-decisions")
    print("saved 15-background-decisions", flush=True)
    window.close()


def former_chain(store_path: Path) -> tuple[set[str], int]:
    """The largest connected component of the demo's nominee graph — what the queue showed as one cluster
    before clusters were kept coherent — and how many coherent clusters it is now."""
    from memgui.core.store import open_store
    from memgui.core.vectors.nominate import _components, default_threshold, nominee_edges

    with open_store(store_path, read_only=True) as reader:
        source, _ = resolve_source(reader, "auto")
        index = run_to_end(open_index(reader, source))
        threshold = default_threshold(source.info.model_id)
        edges = run_to_end(nominee_edges(index, index.order, k=5, threshold=threshold))
    return set(max(_components(index.order, edges), key=len)), len(edges)


def chained_cluster(app, store, shots) -> None:
    """16: the demo's former chain (one 25-document connected component) after the change: the queue holds
    its coherent clusters (≤ 8 members), and the largest of them judged pair by pair by the real model."""
    chain, _ = former_chain(store)
    window = MainWindow(real_services(),
                        qsettings=quiet_settings("settings-16.ini"))
    window.prompter.exec_box = lambda box: None
    show_and_open(app, window, store)
    parts = [r for r in window.cluster_model.rows() if set(r.member_ids) <= chain]
    print(f"former chain of {len(chain)} documents: now {len(parts)} clusters of "
          f"{sorted((len(r.member_ids) for r in parts), reverse=True)} members", flush=True)
    row = max(parts, key=lambda r: len(r.member_ids))
    window.select_cluster(row.cluster_id)
    wait(app, lambda: window.review.row is row and window.review.mark is not None)
    finished = []
    window.review.decisionFinished.connect(finished.append)
    window.actions_by_key["ask"].trigger()
    wait(app, lambda: finished, timeout_s=1800)
    wait(app, lambda: window.review.guard_is_current())
    window.queue.setFocus()
    settle(app)
    window.grab().save(str(OUT / "16-chained-cluster.png"))
    shots.append("16-chained-cluster")
    print("saved 16-chained-cluster", flush=True)
    window.close()


def at_size(app, store, shots, name: str, size: tuple[int, int], largest: bool = False) -> None:
    """13, 14, 17: the window at a laptop's and a desktop's size (`memgui --size`) on a three-member cluster with
    its union draft: the queue's columns, three source panes with their choices, the MergeGuard report. 18
    (`largest`): the demo's largest cluster at 1280×720, its panes scrolled so the target's is in view."""
    window = MainWindow(real_services(),
                        qsettings=quiet_settings(f"settings-{name}.ini"))
    window.prompter.exec_box = lambda box: None
    fit_window(window, window.page, size=size)
    show_and_open(app, window, store)
    if largest:
        row = max(window.cluster_model.rows(), key=lambda r: r.size)
    else:
        row = next(r for r in window.cluster_model.rows() if "Offsite backups" in r.titles_text and r.size == 3)
    window.select_cluster(row.cluster_id)
    wait(app, lambda: window.review.row is row)
    if largest:
        window.sources.set_target(window.sources.panes()[-1].doc.document_id)  # Shift+N on the last member
    window.actions_by_key["union"].trigger()
    wait(app, lambda: window.review.origin == "union" and window.review.guard_is_current())
    wait(app, lambda: window.diff_view.shown_request == window.diff_view.request)
    settle(app)
    window.grab().save(str(OUT / f"{name}.png"))
    shots.append(name)
    print("saved", name, flush=True)
    window.close()


if __name__ == "__main__":
    sys.exit(main())
