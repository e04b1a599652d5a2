#!/usr/bin/env python3
"""Build an "outside" Netclaw memory store for testing memgui.

Written blind to memgui's code, from the Netclaw memory spec only
(/work/shared/spec/netclaw-memory.md): the tables, columns, id shapes, wire
values, FTS5 tables and write conventions below are what that spec says the
Netclaw daemon writes.  Nothing here was taken from memgui.

Persona: Margaret "Mags" Okafor-Reid, a freelance BSL/English interpreter in
Leeds who restores a 1987 VW T3 camper van ("Marigold"), keeps an allotment
and studies geology part-time with the Open University.  About 18 months of
memories (March 2024 - August 2025), in outside_store_notes.py; this file holds the
schema and the writes.

Usage:
    python3 tests/data/stores/outside_store.py OUT.db [--labels LABELS.json] [--notes MODULE]

--notes takes the memories from another module with the same interface as
outside_store_notes (default), e.g. outside2_notes.  Such a module may also set
MIGRATIONS, TOMBSTONED_ANCHOR and CHECKPOINT_CONTENT (defaults below).

Stdlib only.  Ids and timestamps are deterministic.
"""

import hashlib
import importlib
import json
import os
import random
import sqlite3
import sys

from outside_store_notes import (
    ABOUT,
    CHECKPOINTS,
    DOCS,
    DUP_GROUPS,
    LOOKALIKES,
    RECORDS,
    SEED_NS,
    anchor_id,
    cp_id,
    doc_id,
    ms,
    rec_id,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS memory_anchors (
    anchor_id TEXT PRIMARY KEY,
    anchor_type TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    parent_anchor_id TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS memory_documents (
    document_id TEXT PRIMARY KEY,
    anchor_id TEXT NOT NULL REFERENCES memory_anchors(anchor_id),
    memory_class TEXT NOT NULL DEFAULT 'durable_fact',
    title TEXT NOT NULL,
    markdown_body TEXT NOT NULL,
    aliases_json TEXT NULL,
    facets_json TEXT NULL,
    slots_json TEXT NULL,
    update_semantics TEXT NOT NULL,
    boundary TEXT NULL,
    audience TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    expires_at INTEGER NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_documents_anchor ON memory_documents(anchor_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS idx_memory_documents_policy ON memory_documents(sensitivity, recall_mode, updated_at DESC);
CREATE TABLE IF NOT EXISTS memory_records (
    record_id TEXT PRIMARY KEY,
    anchor_id TEXT NOT NULL REFERENCES memory_anchors(anchor_id),
    memory_class TEXT NOT NULL DEFAULT 'evidence',
    record_type TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    aliases_json TEXT NULL,
    facets_json TEXT NULL,
    slots_json TEXT NULL,
    supersedes_record_id TEXT NULL,
    update_semantics TEXT NOT NULL,
    boundary TEXT NULL,
    audience TEXT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    expires_at INTEGER NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_records_anchor ON memory_records(anchor_id, created_at DESC);
CREATE INDEX IF NOT EXISTS idx_memory_records_policy ON memory_records(sensitivity, recall_mode, created_at DESC);
CREATE TABLE IF NOT EXISTS memory_edges (
    edge_id TEXT PRIMARY KEY,
    from_anchor_id TEXT NOT NULL,
    to_anchor_id TEXT NOT NULL,
    relation_type TEXT NOT NULL,
    sensitivity TEXT NOT NULL,
    recall_mode TEXT NOT NULL,
    confidence REAL NOT NULL,
    freshness_at INTEGER NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_edges_from ON memory_edges(from_anchor_id, relation_type);
CREATE INDEX IF NOT EXISTS idx_memory_edges_to ON memory_edges(to_anchor_id, relation_type);
CREATE TABLE IF NOT EXISTS memory_checkpoints (
    checkpoint_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id TEXT NULL,
    trigger_type TEXT NOT NULL,
    priority INTEGER NOT NULL,
    status TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    retry_count INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_checkpoints_pending ON memory_checkpoints(status, priority DESC, created_at ASC);
CREATE TABLE IF NOT EXISTS memory_embeddings (
    item_id TEXT NOT NULL,
    item_kind TEXT NOT NULL,
    model_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (item_id, model_id)
);
CREATE INDEX IF NOT EXISTS idx_memory_embeddings_model ON memory_embeddings(model_id);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_documents_fts USING fts5(
    document_id UNINDEXED, title, body, aliases, facets,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_records_fts USING fts5(
    record_id UNINDEXED, title, body, aliases, facets,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
"""

DAEMON_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT,
    applied_at INTEGER
);
"""

MIGRATIONS = [
    (1, "001_initial", "2024-03-09 18:00"),
    (2, "002_sessions", "2024-03-09 18:00"),
    (3, "003_session_channels", "2024-06-30 09:12"),
    (4, "004_session_titles", "2024-11-30 10:05"),
    (5, "005_session_archive", "2025-03-01 09:40"),
    (6, "006_session_storage_bindings", "2025-06-21 08:55"),
]

# A consolidation once re-anchored the only doc of this anchor onto another one and
# tombstoned it (anchors are status-flipped, never deleted): (name, type, when).
TOMBSTONED_ANCHOR = ("camper", "vehicle", "2024-09-02 08:15")
# Content of the explicit-memory-request checkpoints.
CHECKPOINT_CONTENT = "remember that Mum's in Bradford BD9, landline 01632 960 118"

BOUNDARY_ERA = ms("2024-09-01 00:00")   # before: boundary/audience columns left NULL
REPAIR_ERA = ms("2024-12-01 00:00")     # before: legacy startup repair of extractor rows


def sj(values):
    """GATE SerializeStringList: trimmed, case-insensitive distinct, or NULL."""
    if not values:
        return None
    out, seen = [], set()
    for v in values:
        v = v.strip()
        if v and v.lower() not in seen:
            seen.add(v.lower())
            out.append(v)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")) if out else None


def build(path):
    if os.path.exists(path):
        os.remove(path)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    rng = random.Random(SEED_NS)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = WAL")
    con.executescript(DAEMON_SCHEMA)
    con.executemany("INSERT INTO schema_version(version, name, applied_at) VALUES (?,?,?)",
                    [(v, n, ms(t) // 1000) for v, n, t in MIGRATIONS])
    con.executescript(SCHEMA)
    anchors = {}   # anchor_id -> row dict
    with con:
        _write_documents(con, rng, anchors)
        # A consolidation once re-anchored the only doc of TOMBSTONED_ANCHOR (default
        # "camper", onto "vw-t3") and tombstoned it (status-flipped, never deleted).
        name, atype, when = TOMBSTONED_ANCHOR
        t = ms(when)
        _touch_anchor(anchors, name, atype, "normal", "auto", 0.8, t - 86400000 * 60,
                      t - 86400000 * 60, t, status="tombstoned")
        _write_records(con, rng, anchors)
        for aid, a in sorted(anchors.items()):
            con.execute(
                "INSERT INTO memory_anchors(anchor_id, anchor_type, canonical_name, "
                "parent_anchor_id, sensitivity, recall_mode, confidence, freshness_at, status, "
                "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (aid, a["anchor_type"], a["canonical_name"], None, a["sensitivity"],
                 a["recall_mode"], a["confidence"], a["freshness_at"], a["status"],
                 a["created_at"], a["updated_at"]))
        _write_checkpoints(con, rng)
    con.close()


def _touch_anchor(anchors, name, atype, sens, recall, conf, fresh, created, updated, status="active"):
    aid = anchor_id(name)
    a = anchors.get(aid)
    if a is None:
        anchors[aid] = dict(anchor_id=aid, anchor_type=atype, canonical_name=name,
                            sensitivity=sens, recall_mode=recall, confidence=conf,
                            freshness_at=fresh, status=status, created_at=created,
                            updated_at=updated)
    else:
        # EnsureAnchorAsync overwrites everything but created_at
        a.update(anchor_type=atype, canonical_name=name, sensitivity=sens,
                 recall_mode=recall, confidence=conf, freshness_at=fresh,
                 status=status, updated_at=max(a["updated_at"], updated))
    return aid


def _recall_and_facets(d, created, facets):
    """The document's recall mode (and its facets, which the legacy repair of extractor rows marked)."""
    recall = d["recall"]
    if d["path"] == "ext":
        if created < REPAIR_ERA:
            recall = recall or "searchable"
            facets = sj(["needs_metadata_enrichment"])
        else:
            recall = recall or "auto"
    recall = recall or "auto"
    if d["klass"] == "trace":
        recall = "never"
    if d["sensitivity"] == "secret":
        recall = "never"
    return recall, facets


def _write_documents(con, rng, anchors):
    seen_ids = set()
    for d in DOCS:
        did = doc_id(d["key"])
        assert did not in seen_ids
        seen_ids.add(did)
        created = ms(d["when"]) + rng.randint(0, 59999)
        updated = ms(d["updated"]) + rng.randint(0, 59999) if d["updated"] else created
        conf = d["conf"] if d["conf"] is not None else round(rng.uniform(0.72, 0.95), 2)
        aliases, facets, slots = sj(d["aliases"]), sj(d["facets"]), sj(d["slots"])
        recall, facets = _recall_and_facets(d, created, facets)
        if d["path"] == "ext":
            conf = round(rng.uniform(0.6, 0.8), 2)
        semantics = d["semantics"] or "merge-document"
        if created < BOUNDARY_ERA:
            boundary, audience = None, None
        else:
            boundary, audience = "boundary:trusted-instance", "personal"
        # anchor: extractor path makes `event` anchors only for records;
        # documents get the proposal anchor type (observer) or `concept`.
        atype = d["atype"] if d["path"] == "obs" else "concept"
        anchor_recall = "auto" if recall in ("auto", "searchable") else recall
        aid = _touch_anchor(anchors, d["anchor"], atype, d["sensitivity"], anchor_recall, conf,
                            created, created, updated)
        con.execute(
            "INSERT INTO memory_documents(document_id, anchor_id, memory_class, title, "
            "markdown_body, aliases_json, facets_json, slots_json, update_semantics, boundary, "
            "audience, sensitivity, recall_mode, confidence, freshness_at, expires_at, "
            "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (did, aid, d["klass"], d["title"], d["body"], aliases, facets,
             slots if d["klass"] == "durable_fact" else None, semantics, boundary, audience,
             d["sensitivity"], recall, conf, created, None, created, updated))
        if recall in ("auto", "searchable") and semantics != "tombstone":
            con.execute("DELETE FROM memory_documents_fts WHERE document_id = ?", (did,))
            con.execute("INSERT INTO memory_documents_fts(document_id, title, body, aliases, "
                        "facets) VALUES (?,?,?,?,?)",
                        (did, d["title"], d["body"], aliases or "", facets or ""))


def _write_records(con, rng, anchors):
    for key, when, anchor, rtype, env in RECORDS:
        rid = rec_id(key)
        created = ms(when) + rng.randint(0, 59999)
        env = dict(env)
        env["ExpiresAtMs"] = created + 30 * 86400000
        env["FreshUntilMs"] = None
        payload = json.dumps(env, ensure_ascii=False, separators=(",", ":"))
        aid = _touch_anchor(anchors, anchor, env["SubjectKind"], "normal", "searchable", 0.7,
                            created, created, created)
        con.execute(
            "INSERT INTO memory_records(record_id, anchor_id, memory_class, record_type, "
            "payload_json, aliases_json, facets_json, slots_json, supersedes_record_id, "
            "update_semantics, boundary, audience, sensitivity, recall_mode, confidence, "
            "freshness_at, expires_at, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (rid, aid, "evidence", rtype, payload, None, None, None, None,
             "immutable-record", "boundary:trusted-instance", "personal", "normal",
             "searchable", 0.7, created, created + 30 * 86400000, created))
        con.execute("INSERT INTO memory_records_fts(record_id, title, body, aliases, facets) "
                    "VALUES (?,?,?,?,?)", (rid, rtype, payload, "", ""))


def _write_checkpoints(con, rng):
    for key, when, trig, prio in CHECKPOINTS:
        created = ms(when) + rng.randint(0, 59999)
        session = "slack-dm-" + hashlib.md5((SEED_NS + key).encode()).hexdigest()[:12]
        if trig == "observed-memory-proposals":
            payload = {"SessionId": session, "TriggerType": trig, "Sensitivity": "normal",
                       "Operations": []}
        else:
            payload = {"SessionId": session, "TriggerType": trig, "Source": "user",
                       "Content": CHECKPOINT_CONTENT,
                       "UserContent": None, "AssistantContent": None,
                       "IsExplicitRequest": True, "HasVerifiedToolFinding": False,
                       "IsCompactionBoundary": False, "HasAcceptedSubAgentFinding": False,
                       "Sensitivity": "normal", "RecallMode": "auto", "Confidence": 0.9,
                       "MemoryId": None, "UpdateOldText": None, "UpdateNewText": None,
                       "Delete": False, "Kind": "document", "Title": None,
                       "UpdateSemantics": "merge-document", "Evidence": None,
                       "SupersedesRecordId": None, "FreshnessAtMs": created,
                       "Boundary": "boundary:trusted-instance", "Audience": "personal"}
        con.execute(
            "INSERT INTO memory_checkpoints(checkpoint_id, session_id, turn_id, trigger_type, "
            "priority, status, payload_json, retry_count, created_at, updated_at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (cp_id(key), session, None, trig, prio, "completed",
             json.dumps(payload, separators=(",", ":")), 0, created, created + 1800))


def labels():
    return {
        "about": ABOUT,
        "duplicate_groups": [[doc_id(k) for k in g] for g in DUP_GROUPS],
        "lookalike_pairs": [[doc_id(a), doc_id(b), why] for a, b, why in LOOKALIKES],
    }


def use_notes(name):
    """--notes: rebind the notes names (and the optional overrides) to another module."""
    mod = importlib.import_module(name)
    g = globals()
    for k in ("ABOUT", "CHECKPOINTS", "DOCS", "DUP_GROUPS", "LOOKALIKES", "RECORDS", "SEED_NS",
              "anchor_id", "cp_id", "doc_id", "ms", "rec_id"):
        g[k] = getattr(mod, k)
    for k in ("MIGRATIONS", "TOMBSTONED_ANCHOR", "CHECKPOINT_CONTENT"):
        if hasattr(mod, k):
            g[k] = getattr(mod, k)


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: outside_store.py OUT.db [--labels LABELS.json] [--notes MODULE]")
    if "--notes" in argv:
        use_notes(argv[argv.index("--notes") + 1])
    keys = {d["key"] for d in DOCS}
    for g in DUP_GROUPS:
        assert all(k in keys for k in g), g
    for a, b, _ in LOOKALIKES:
        assert a in keys and b in keys, (a, b)
    build(argv[1])
    if "--labels" in argv:
        with open(argv[argv.index("--labels") + 1], "w", encoding="utf-8") as f:
            json.dump(labels(), f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
