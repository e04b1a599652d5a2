"""The demo store opens and matches its label file; it is built exactly as Netclaw would have written it."""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import Counter
from datetime import datetime, timezone

import pytest

from memgui.core.store import demo, open_store
from memgui.core.store.demo import (
    build_demo_store,
    demo_labels,
    document_id_for,
    labels_from_corpus,
    load_corpus,
)

MERGED = re.compile(r"\n\n---\n_\[merged (\d{4}-\d{2}-\d{2})\]_\n")
NETCLAW_ID = re.compile(r"^doc-[0-9a-f]{32}$")


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.fixture(scope="module")
def labels():
    return demo_labels()


@pytest.fixture(scope="module")
def demo_path(tmp_path_factory):
    return build_demo_store(tmp_path_factory.mktemp("demo") / "netclaw.db")


@pytest.fixture
def store(demo_path):
    s = open_store(demo_path, read_only=True)
    yield s
    s.close()


def _table_dump(path) -> dict:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table') AND name LIKE 'memory_%' "
                                             "AND name NOT LIKE '%fts_%' ORDER BY name")]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


# ---- the store opens and holds exactly the corpus ----------------------------------------------------------


def test_demo_store_opens_and_counts_match_the_corpus(store, corpus):
    summary = store.summary()
    tombstoned = sum(d.is_tombstoned for d in corpus.documents)
    assert summary.live_documents == len(corpus.documents) - tombstoned
    assert summary.tombstoned_documents == tombstoned
    assert summary.records == len(corpus.records)
    assert summary.anchors == len(demo.anchor_rows(corpus))
    assert summary.checkpoints_by_status == dict(Counter(c["status"] for c in corpus.checkpoints))
    assert summary.embeddings_by_model == {}  # memgui computes its own vectors
    assert summary.legacy_columns == ()


def test_corpus_is_big_and_varied_like_a_real_store(corpus):
    docs = corpus.documents
    assert len(docs) >= 320
    classes = Counter(d.row["memory_class"] for d in docs)
    assert classes["durable_fact"] > len(docs) * 0.7 and classes["evidence"] >= 10 and classes["trace"] >= 3
    modes = Counter(d.row["recall_mode"] for d in docs)
    assert modes["auto"] > len(docs) / 2 and all(modes[m] >= 3 for m in ("searchable", "manual", "never"))
    assert sum(d.row["boundary"] is None for d in docs) >= 15, "legacy NULL boundaries exercise legacy reads"
    assert sum(d.row["audience"] is None for d in docs) >= 15
    assert sum(d.row["sensitivity"] == "secret" for d in docs) >= 2
    years = Counter(datetime.fromtimestamp(d.row["freshness_at"] / 1000, timezone.utc).year for d in docs)
    assert years[2025] >= 150 and years[2026] >= 40
    assert len({d.row["markdown_body"] for d in docs}) == len(docs), "no two documents share a body"
    assert len({d.anchor_name for d in docs}) >= 150
    assert all(NETCLAW_ID.match(d.document_id) for d in docs)


def test_rows_follow_netclaw_write_semantics(store, corpus, demo_path):
    """FTS rows exactly for live auto/searchable documents (with Netclaw's column mapping); tombstones are
    `tombstone` + `never` without an FTS row; timestamps are ms and created ≤ updated."""
    conn = sqlite3.connect(demo_path)
    try:
        fts = {r[0]: r[1:] for r in conn.execute("SELECT document_id, title, body, aliases, facets FROM memory_documents_fts")}
    finally:
        conn.close()
    expected = {d.document_id for d in corpus.documents if not d.is_tombstoned and d.row["recall_mode"] in ("auto", "searchable")}
    assert set(fts) == expected
    for doc in store.documents(include_tombstoned=True):
        assert doc.created_at <= doc.updated_at and doc.created_at > 1_600_000_000_000
        if doc.is_tombstoned:
            assert doc.recall_mode == "never"
        if doc.document_id in fts:
            assert fts[doc.document_id] == (doc.title, doc.markdown_body, doc.aliases_json or "", doc.facets_json or "")
        if doc.memory_class == "trace":
            assert doc.recall_mode == "never" and doc.expires_at is not None
    assert len(store.tombstoned_documents()) >= 8


def test_fts_finds_known_documents(store):
    restic = document_id_for("home/restic-1")
    assert restic in [d.document_id for d in store.search("Backblaze restic", limit=10)]
    relay = [d.document_id for d in store.search("relay.atlas-sync.dev", limit=10)]
    assert document_id_for("atlas/relay-1") in relay
    tombstoned_pihole = document_id_for("home/pihole-old-ip")
    assert tombstoned_pihole not in [d.document_id for d in store.search("192.168.1.2 Pi-hole", limit=50)]


# ---- labels ------------------------------------------------------------------------------------------------


def test_label_file_is_up_to_date_with_the_corpus(corpus, labels):
    assert labels == labels_from_corpus(corpus), "regenerate with: python -m memgui.core.store.demo"


def test_every_labelled_id_exists_and_is_live(store, labels):
    labelled = {i for c in labels["duplicate_clusters"] for i in c} | {i for p in labels["sibling_pairs"] for i in p}
    found = {d.document_id: d for d in store.documents_by_ids(labelled)}
    assert set(found) == labelled
    assert not [d for d in found.values() if d.is_tombstoned]


def test_enough_clusters_and_sibling_pairs(labels):
    clusters, pairs = labels["duplicate_clusters"], labels["sibling_pairs"]
    assert len(clusters) >= 34
    assert sum(len(c) >= 3 for c in clusters) >= 8
    assert all(2 <= len(c) <= 5 for c in clusters)
    members = [i for c in clusters for i in c]
    assert len(members) == len(set(members)), "clusters are disjoint"
    assert len(pairs) >= 22 and all(len(p) == 2 and p[0] != p[1] for p in pairs)
    cluster_of = {i: n for n, c in enumerate(clusters) for i in c}
    for a, b in pairs:
        assert cluster_of.get(a, -1) != cluster_of.get(b, -2), f"sibling pair {a} {b} inside one cluster"


def test_clusters_paraphrase_and_siblings_differ(store, labels):
    """Cluster members are re-recordings (different titles or anchors); sibling pairs differ in a number."""
    for entry in labels["clusters"]:
        docs = store.documents_by_ids(entry["ids"])
        assert len({d.title for d in docs}) == len(docs), entry["name"]
        assert len({d.markdown_body for d in docs}) == len(docs)
    multi_anchor = [e for e in labels["clusters"] if len({a.lower().replace(" ", "-") for a in e["anchors"]}) > 1]
    assert len(multi_anchor) >= 25, "most clusters are spread over differently spelled anchors"
    facts = re.compile(r"\d[\d.,:/-]*|[A-Z][\w-]+|`[^`]+`")  # numbers, names, identifiers
    for a, b in labels["sibling_pairs"]:
        da, db = store.documents_by_ids([a, b])
        assert da.title != db.title
        assert set(facts.findall(da.markdown_body)) != set(facts.findall(db.markdown_body))


def test_extra_tokens_are_what_a_one_member_merge_would_lose(store, labels):
    with_extra = 0
    for entry in labels["clusters"]:
        bodies = {d.document_id: d.markdown_body.lower() for d in store.documents_by_ids(entry["ids"])}
        for doc_id, tokens in entry["extra_tokens"].items():
            for token in tokens:
                assert token.lower() in bodies[doc_id]
                assert any(token.lower() not in body for other, body in bodies.items() if other != doc_id), (entry["name"], token)
        with_extra += bool(entry["extra_tokens"])
    assert with_extra >= 30, "most clusters have a member that adds a detail"
    plain = sum(any(i not in entry["extra_tokens"] for i in entry["ids"]) for entry in labels["clusters"])
    assert plain >= 40, "most clusters also have a plain restatement that adds nothing"


# ---- append histories, records, checkpoints ----------------------------------------------------------------


def test_append_documents_carry_netclaw_merge_history(store, labels):
    appended = store.documents_by_ids(labels["append_documents"])
    assert len(appended) >= 6
    stacked = 0
    for doc in appended:
        assert doc.update_semantics == "append-document"
        dates = MERGED.findall(doc.markdown_body)
        assert dates and dates == sorted(dates)
        last = datetime.strptime(dates[-1], "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp() * 1000
        assert last <= doc.updated_at < last + 86_400_000, "updated_at is the day of the last append"
        stacked += len(dates) >= 2
    assert stacked >= 3


def test_records_are_envelopes_with_a_supersede_chain(store, demo_path):
    records = store.records()
    assert len(records) >= 15
    by_id = {r.record_id: r for r in records}
    chains = [r for r in records if r.supersedes_record_id]
    assert chains and all(r.update_semantics == "supersede-record" and r.supersedes_record_id in by_id for r in chains)
    assert any(by_id[r.supersedes_record_id].supersedes_record_id for r in chains), "a chain of three"
    envelope_keys = {"SubjectKind", "SubjectValue", "Predicate", "ObjectValue", "Rationale", "ExpiresAtMs", "FreshUntilMs"}
    payloads = [json.loads(r.payload_json) for r in records]
    assert sum(set(p) == envelope_keys for p in payloads) >= 15
    assert {"status": "tombstone"} in payloads
    superseded = {r.supersedes_record_id for r in chains}
    conn = sqlite3.connect(demo_path)
    try:
        fts_ids = {r[0] for r in conn.execute("SELECT record_id FROM memory_records_fts")}
    finally:
        conn.close()
    assert fts_ids == {r.record_id for r in records if r.record_id not in superseded and r.recall_mode in ("auto", "searchable")}


def test_checkpoints_cover_the_worker_lifecycle(store):
    counts = store.checkpoint_counts()
    assert counts.get("pending", 0) >= 1 and counts.get("completed", 0) >= 1 and counts.get("failed", 0) >= 1


# ---- building: deterministic, idempotent, atomic -----------------------------------------------------------


def test_rebuilding_gives_identical_ids_and_rows(tmp_path, demo_path):
    again = build_demo_store(tmp_path / "again.db")
    assert _table_dump(again) == _table_dump(demo_path)
    key = "memgui-demo/atlas/repo-1"
    assert document_id_for("atlas/repo-1") == "doc-" + hashlib.md5(key.encode()).hexdigest()


def test_building_twice_is_a_no_op_without_force(tmp_path):
    path = build_demo_store(tmp_path / "netclaw.db")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE memory_documents SET title = 'edited by the user' WHERE document_id = ?", (document_id_for("atlas/repo-1"),))
    conn.commit()
    conn.close()
    assert build_demo_store(path) == path
    with open_store(path, read_only=True) as s:
        assert s.document(document_id_for("atlas/repo-1")).title == "edited by the user"
    build_demo_store(path, force=True)
    with open_store(path, read_only=True) as s:
        assert s.document(document_id_for("atlas/repo-1")).title == "atlas-sync repository"


def test_a_failed_build_leaves_nothing_half_built(tmp_path, monkeypatch):
    def broken_fill(db, corpus, legacy):
        with db.atomic():
            db.execute_sql("INSERT INTO memory_anchors VALUES ('anchor:x','concept','x',NULL,'normal','auto',0.8,NULL,'active',1,1)")
            raise RuntimeError("disk full")

    good = build_demo_store(tmp_path / "netclaw.db")
    before = _table_dump(good)
    monkeypatch.setattr(demo, "_fill", broken_fill)
    with pytest.raises(RuntimeError):
        build_demo_store(tmp_path / "fresh.db")
    with pytest.raises(RuntimeError):
        build_demo_store(good, force=True)
    assert not (tmp_path / "fresh.db").exists()
    assert _table_dump(good) == before
    assert sorted(p.name for p in tmp_path.iterdir() if "building" in p.name) == []


def test_legacy_variant_with_domain_columns_opens(tmp_path, corpus):
    path = build_demo_store(tmp_path / "legacy.db", legacy=True)
    with open_store(path, read_only=True) as s:
        assert s.legacy_domain
        assert s.summary().live_documents == sum(not d.is_tombstoned for d in corpus.documents)
        assert s.search("Backblaze")


# ---- wiring: first use without a store, and the CLI ---------------------------------------------------------


def test_open_store_or_fail_builds_the_demo_when_no_store_exists(tmp_path, monkeypatch):
    from memgui.cli.common import open_store_or_fail
    from memgui.config import user_data_dir

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.netclaw/netclaw.db
    with open_store_or_fail(None, read_only=True) as s:
        assert s.path == (user_data_dir() / "demo" / "netclaw.db").absolute()
        assert s.summary().live_documents >= 320


def test_cli_demo_builds_then_keeps(tmp_path, capsys):
    from memgui.__main__ import main

    out = tmp_path / "nested" / "netclaw.db"
    assert main(["demo", "--out", str(out)]) == 0
    first = capsys.readouterr().out
    assert f"demo store built: {out}" in first and "duplicate clusters" in first
    assert main(["demo", "--out", str(out)]) == 0
    assert "already exists" in capsys.readouterr().out
    assert main(["demo", "--out", str(out), "--force"]) == 0
    assert "demo store built" in capsys.readouterr().out


def test_cli_demo_refuses_a_directory_and_a_foreign_file(tmp_path, capsys):
    from memgui.__main__ import main

    assert main(["demo", "--out", str(tmp_path)]) == 2
    foreign = tmp_path / "notes.db"
    foreign.write_text("not a database")
    assert main(["demo", "--out", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert "is a directory" in err and "not an SQLite database" in err
    assert foreign.read_text() == "not a database"
