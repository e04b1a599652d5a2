"""The demo store: a Netclaw memory store built from the hand-written corpus in `resources/demo/`.

The corpus is one fictional person's memory (Mira Castell: work, open source, homelab, travel, health,
home) written for this project, in Netclaw's shape. `build_demo_store` turns it into a `netclaw.db` with
exactly the rows Netclaw itself would have written: anchors, documents (FTS rows only for live `auto` /
`searchable` documents), immutable records with one supersede chain (FTS row on the chain head), and
checkpoints. No `memory_embeddings` rows: memgui computes its own vectors.

Ids are stable: `doc-`/`rec-`/`cp-` + md5("memgui-demo/" + corpus key), so `resources/demo/labels.json`
(which documents are true duplicates, which are look-alike siblings) can name them and every rebuild gives
the same ids and the same rows (timestamps come from the corpus, not the clock).

Corpus conventions (see `resources/demo/README.md`): every theme file has `defaults` merged under each
document; an explicit `null` boundary/audience is stored as NULL (legacy reads); `freshness_at`,
`tombstoned_at`, `expires_at` are ISO UTC strings converted to Unix ms; `appends` become Netclaw's append
history (`\\n\\n---\\n_[merged YYYY-MM-DD]_\\n<text>`); `cluster`, `sibling` and `extra_tokens` are labels
only and never reach the store.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from peewee import DatabaseError as PeeweeDatabaseError, Model, SqliteDatabase

from ...config import resources_dir, user_data_dir
from ..netfx import anchor_id_for, build_appended_body
from .connection import read_columns, sqlite_reason
from .errors import StoreError
from .models import build_models, row_values
from .schema import create_store

ID_NAMESPACE = "memgui-demo/"
LABELS_FILE = "labels.json"
CORPUS_SUBDIR = "corpus"

MEMORY_CLASSES = ("durable_fact", "evidence", "trace")
RECALL_MODES = ("auto", "searchable", "manual", "never")
SENSITIVITIES = ("normal", "secret")
DOC_SEMANTICS = ("merge-document", "append-document", "conversation_trace", "tombstone")
RECORD_SEMANTICS = ("immutable-record", "supersede-record")
BOUNDARIES = ("boundary:public", "boundary:team", "boundary:personal", "boundary:trusted-instance")
AUDIENCES = ("public", "team", "personal")
CHECKPOINT_STATUSES = ("pending", "processing", "completed", "failed")
SEARCHABLE = ("auto", "searchable")
EXPIRY = {"evidence": timedelta(days=30), "trace": timedelta(hours=72)}  # netclaw-compat §3 expiry defaults


class DemoCorpusError(ValueError):
    """The corpus in resources/demo/ is malformed (a maintainer error, reported in one line)."""


# ---- small helpers -------------------------------------------------------------------------------------


def demo_corpus_dir() -> Path:
    """`resources/demo/` — the corpus, records, checkpoints and the label file."""
    return resources_dir() / "demo"


def default_demo_path() -> Path:
    """Where the demo store is built on first use (the same place `locate_store` looks)."""
    return user_data_dir() / "demo" / "netclaw.db"


def stable_id(prefix: str, key: str) -> str:
    """`prefix` + 32 lowercase hex derived from the corpus key (e.g. `doc-…`, 36 chars for documents)."""
    return prefix + hashlib.md5((ID_NAMESPACE + key).encode("utf-8")).hexdigest()


def document_id_for(key: str) -> str:
    return stable_id("doc-", key)


def iso_to_ms(text: str) -> int:
    """`YYYY-MM-DD[THH:MM[:SS]]` read as UTC → Unix epoch milliseconds."""
    value = datetime.fromisoformat(text.rstrip("Z").replace(" ", "T"))
    return int(value.replace(tzinfo=timezone.utc).timestamp() * 1000)


def _jitter_ms(key: str) -> int:
    """A deterministic 1–60 s delay between a fact's freshness and its write (a real store never has
    created_at exactly equal to freshness_at)."""
    return (int(hashlib.md5(key.encode("utf-8")).hexdigest()[:6], 16) % 60 + 1) * 1000


def _json_list(value: Any) -> str | None:
    """aliases/facets/slots as Netclaw serialises them: a compact JSON array of strings, or NULL."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DemoCorpusError(f"expected a list of strings or null, got {value!r}")
    seen: dict[str, str] = {}
    for item in value:
        seen.setdefault(item.strip().lower(), item.strip())
    return json.dumps(list(seen.values()), separators=(",", ":"))


def append_history(body: str, appends: list[dict[str, Any]]) -> str:
    """Netclaw's append format (netclaw-compat §9): body + `\\n\\n---\\n_[merged YYYY-MM-DD]_\\n` + text, stacked."""
    for item in appends:
        body = build_appended_body(body, item["text"], item["date"])
    return body


# ---- corpus values -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoDocument:
    key: str
    theme: str
    anchor_name: str
    anchor_type: str
    row: dict[str, Any]  # exactly the memory_documents columns
    cluster: str | None = None
    siblings: tuple[str, ...] = ()
    extra_tokens: tuple[str, ...] = ()

    @property
    def document_id(self) -> str:
        return str(self.row["document_id"])

    @property
    def is_tombstoned(self) -> bool:
        return bool(self.row["update_semantics"] == "tombstone")

    @property
    def has_fts_row(self) -> bool:
        return not self.is_tombstoned and self.row["recall_mode"] in SEARCHABLE


@dataclass(frozen=True)
class DemoRecord:
    key: str
    anchor_name: str
    anchor_type: str
    row: dict[str, Any]  # exactly the memory_records columns


@dataclass(frozen=True)
class DemoCorpus:
    documents: tuple[DemoDocument, ...]
    records: tuple[DemoRecord, ...]
    checkpoints: tuple[dict[str, Any], ...]
    anchors: tuple[dict[str, Any], ...]
    themes: tuple[str, ...] = field(default=())

    def document(self, key: str) -> DemoDocument:
        for doc in self.documents:
            if doc.key == key:
                return doc
        raise KeyError(key)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError) as exc:
        raise DemoCorpusError(f"{path}: cannot be read as JSON ({exc})") from None


def _check(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise DemoCorpusError(f"{where}: {message}")


def _document(theme: str, defaults: dict[str, Any], raw: dict[str, Any], where: str) -> DemoDocument:
    d = {**defaults, **raw}
    for required in ("key", "anchor", "title", "body", "freshness_at"):
        _check(bool(d.get(required)), where, f"missing {required}")
    key = d["key"]
    where = f"{where} {key}"
    memory_class = d.get("memory_class", "durable_fact")
    recall_mode = d.get("recall_mode", "auto")
    semantics = d.get("update_semantics", "merge-document")
    sensitivity = d.get("sensitivity", "normal")
    _check(memory_class in MEMORY_CLASSES, where, f"unknown memory_class {memory_class!r}")
    _check(sensitivity in SENSITIVITIES, where, f"unknown sensitivity {sensitivity!r}")
    _check(d.get("boundary") is None or d["boundary"] in BOUNDARIES, where, f"unknown boundary {d.get('boundary')!r}")
    _check(d.get("audience") is None or d["audience"] in AUDIENCES, where, f"unknown audience {d.get('audience')!r}")
    if memory_class == "trace":
        recall_mode = "never"  # netclaw-compat §9: trace forces recall_mode never
    freshness = iso_to_ms(d["freshness_at"])
    created = freshness + _jitter_ms(key)
    updated = created
    body = d["body"]
    appends = d.get("appends") or []
    if appends:
        _check(semantics == "append-document", where, "appends need update_semantics append-document")
        last = d["freshness_at"][:10]
        for item in appends:
            _check(item.get("date", "") >= last and bool(item.get("text")), where, "append dates must not go back in time")
            last = item["date"]
            updated = max(updated, iso_to_ms(item["date"] + "T12:00") + _jitter_ms(key + item["date"]))
        body = append_history(body, appends)
    else:
        _check(semantics != "append-document", where, "append-document without appends")
    if d.get("tombstoned_at"):
        tombstoned = iso_to_ms(d["tombstoned_at"])
        _check(tombstoned >= updated, where, "tombstoned before it was written")
        semantics, recall_mode, updated = "tombstone", "never", tombstoned
        _check(not d.get("cluster") and not d.get("sibling"), where, "a tombstoned document cannot be labelled")
    _check(semantics in DOC_SEMANTICS, where, f"unknown update_semantics {semantics!r}")
    _check(recall_mode in RECALL_MODES, where, f"unknown recall_mode {recall_mode!r}")
    expires = d.get("expires_at")
    if expires:
        expires_ms: int | None = iso_to_ms(expires)
    else:
        expires_ms = freshness + int(EXPIRY[memory_class].total_seconds() * 1000) if memory_class in EXPIRY else None
    row = {
        "document_id": document_id_for(key),
        "anchor_id": anchor_id_for(d["anchor"]),
        "memory_class": memory_class,
        "title": d["title"],
        "markdown_body": body,
        "aliases_json": _json_list(d.get("aliases")),
        "facets_json": _json_list(d.get("facets")),
        "slots_json": _json_list(d.get("slots")),
        "update_semantics": semantics,
        "boundary": d.get("boundary"),
        "audience": d.get("audience"),
        "sensitivity": sensitivity,
        "recall_mode": recall_mode,
        "confidence": float(d.get("confidence", 0.8)),
        "freshness_at": freshness,
        "expires_at": expires_ms,
        "created_at": created,
        "updated_at": updated,
    }
    sibling = d.get("sibling")
    siblings = (sibling,) if isinstance(sibling, str) else tuple(sibling or ())
    extra = tuple(d.get("extra_tokens") or ())
    for token in extra:
        _check(token.lower() in body.lower(), where, f"extra token {token!r} is not in the body")
    return DemoDocument(key, theme, d["anchor"], d.get("anchor_type", "concept"), row, d.get("cluster"), siblings, extra)


def _records(data: dict[str, Any], where: str) -> list[DemoRecord]:
    defaults = data.get("defaults", {})
    out: list[DemoRecord] = []
    ids: dict[str, str] = {}
    for raw in data.get("records", []):
        d = {**defaults, **raw}
        key = d["key"]
        memory_class = d.get("memory_class", "evidence")
        _check(memory_class in MEMORY_CLASSES, f"{where} {key}", f"unknown memory_class {memory_class!r}")
        freshness = iso_to_ms(d["freshness_at"])
        recall_mode = "never" if memory_class == "trace" else d.get("recall_mode", "searchable")
        expires = iso_to_ms(d["expires_at"]) if d.get("expires_at") else freshness + int(
            EXPIRY.get(memory_class, EXPIRY["evidence"]).total_seconds() * 1000)
        if "payload_raw" in d:
            payload = d["payload_raw"]
        else:
            envelope = dict(d["payload"])
            envelope["ExpiresAtMs"] = expires
            envelope["FreshUntilMs"] = iso_to_ms(envelope["FreshUntilMs"]) if envelope.get("FreshUntilMs") else None
            payload = envelope
        supersedes = d.get("supersedes")
        if supersedes is not None:
            _check(supersedes in ids, f"{where} {key}", f"supersedes unknown or later record {supersedes!r}")
        semantics = d.get("update_semantics", "immutable-record")
        _check(semantics in RECORD_SEMANTICS, f"{where} {key}", f"unknown update_semantics {semantics!r}")
        _check((semantics == "supersede-record") == (supersedes is not None), f"{where} {key}",
               "supersede-record and supersedes go together")
        row = {
            "record_id": stable_id("rec-", key),
            "anchor_id": anchor_id_for(d["anchor"]),
            "memory_class": memory_class,
            "record_type": d["record_type"],
            "payload_json": json.dumps(payload, separators=(",", ":")),
            "aliases_json": _json_list(d.get("aliases")),
            "facets_json": _json_list(d.get("facets")),
            "slots_json": _json_list(d.get("slots")),
            "supersedes_record_id": ids[supersedes] if supersedes else None,
            "update_semantics": semantics,
            "boundary": d.get("boundary"),
            "audience": d.get("audience"),
            "sensitivity": d.get("sensitivity", "normal"),
            "recall_mode": recall_mode,
            "confidence": float(d.get("confidence", 0.75)),
            "freshness_at": freshness,
            "expires_at": expires,
            "created_at": freshness + _jitter_ms(key),
        }
        ids[key] = row["record_id"]
        out.append(DemoRecord(key, d["anchor"], d.get("anchor_type", "event"), row))
    return out


def _checkpoints(data: dict[str, Any], where: str) -> list[dict[str, Any]]:
    rows = []
    for raw in data.get("checkpoints", []):
        key = raw["key"]
        _check(raw["status"] in CHECKPOINT_STATUSES, f"{where} {key}", f"unknown status {raw['status']!r}")
        payload = raw["payload_raw"] if "payload_raw" in raw else json.dumps(raw["payload"], separators=(",", ":"))
        rows.append({
            "checkpoint_id": stable_id("cp-", key),
            "session_id": raw["session_id"],
            "turn_id": raw.get("turn_id"),
            "trigger_type": raw["trigger_type"],
            "priority": int(raw["priority"]),
            "status": raw["status"],
            "payload_json": payload,
            "retry_count": int(raw.get("retry_count", 0)),
            "created_at": iso_to_ms(raw["created_at"]),
            "updated_at": iso_to_ms(raw["updated_at"]),
        })
    return rows


def load_corpus(corpus_dir: Path | None = None) -> DemoCorpus:
    """Read and validate the corpus (theme files, records, checkpoints, extra anchors)."""
    base = Path(corpus_dir) if corpus_dir else demo_corpus_dir()
    theme_files = sorted((base / CORPUS_SUBDIR).glob("*.json"))
    _check(bool(theme_files), str(base / CORPUS_SUBDIR), "no theme files")
    documents: list[DemoDocument] = []
    themes: list[str] = []
    for path in theme_files:
        data = _read_json(path)
        theme = data.get("theme") or path.stem
        themes.append(theme)
        for raw in data.get("documents", []):
            documents.append(_document(theme, data.get("defaults", {}), raw, path.name))
    keys = [d.key for d in documents]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    _check(not dupes, str(base), f"duplicate document keys {dupes}")
    records = _records(_read_json(base / "records.json"), "records.json") if (base / "records.json").exists() else []
    checkpoints = _checkpoints(_read_json(base / "checkpoints.json"), "checkpoints.json") if (base / "checkpoints.json").exists() else []
    anchors = _read_json(base / "anchors.json").get("anchors", []) if (base / "anchors.json").exists() else []
    return DemoCorpus(tuple(documents), tuple(records), tuple(checkpoints), tuple(anchors), tuple(themes))


# ---- anchors: what EnsureAnchorAsync would have left behind ---------------------------------------------


def anchor_rows(corpus: DemoCorpus) -> list[dict[str, Any]]:
    """One row per anchor. Every write upserts its anchor as `active` with the writer's name, type and
    policy (netclaw-compat §2.1), so the newest write wins; created_at is the first write. Tombstoning a document
    does not touch its anchor. Extra anchors (consolidated away) come from anchors.json."""
    writes: list[tuple[int, str, str, dict[str, Any]]] = []
    for doc in corpus.documents:
        written = doc.row["created_at"] if doc.is_tombstoned else doc.row["updated_at"]
        writes.append((doc.row["created_at"], doc.anchor_name, doc.anchor_type, {**doc.row, "updated_at": written}))
    for rec in corpus.records:
        writes.append((rec.row["created_at"], rec.anchor_name, rec.anchor_type, {**rec.row, "updated_at": rec.row["created_at"]}))
    rows: dict[str, dict[str, Any]] = {}
    for created, name, anchor_type, row in sorted(writes, key=lambda w: (w[3]["updated_at"], w[1])):
        aid = anchor_id_for(name)
        previous = rows.get(aid)
        rows[aid] = {
            "anchor_id": aid, "anchor_type": anchor_type, "canonical_name": name, "parent_anchor_id": None,
            "sensitivity": row["sensitivity"], "recall_mode": row["recall_mode"], "confidence": row["confidence"],
            "freshness_at": row["freshness_at"], "status": "active",
            "created_at": min(created, previous["created_at"]) if previous else created,
            "updated_at": row["updated_at"],
        }
    for extra in corpus.anchors:
        aid = anchor_id_for(extra["name"])
        _check(aid not in rows, "anchors.json", f"{aid} is also used by documents or records")
        rows[aid] = {
            "anchor_id": aid, "anchor_type": extra.get("anchor_type", "concept"), "canonical_name": extra["name"],
            "parent_anchor_id": None, "sensitivity": extra.get("sensitivity", "normal"),
            "recall_mode": extra.get("recall_mode", "auto"), "confidence": float(extra.get("confidence", 0.8)),
            "freshness_at": iso_to_ms(extra["created_at"]), "status": extra.get("status", "active"),
            "created_at": iso_to_ms(extra["created_at"]), "updated_at": iso_to_ms(extra["updated_at"]),
        }
    return [rows[k] for k in sorted(rows)]


# ---- labels --------------------------------------------------------------------------------------------


def labels_from_corpus(corpus: DemoCorpus) -> dict[str, Any]:
    """The label file's content, derived from the `cluster` / `sibling` / `extra_tokens` fields."""
    clusters: dict[str, list[DemoDocument]] = {}
    siblings: dict[str, list[DemoDocument]] = {}
    for doc in corpus.documents:
        if doc.cluster:
            clusters.setdefault(doc.cluster, []).append(doc)
        for name in doc.siblings:
            siblings.setdefault(name, []).append(doc)
    for name, members in clusters.items():
        _check(2 <= len(members) <= 5, f"cluster {name}", f"has {len(members)} members (need 2-5)")
    for name, pair in siblings.items():
        _check(len(pair) == 2, f"sibling pair {name}", f"has {len(pair)} members (need 2)")
        _check(not pair[0].cluster or pair[0].cluster != pair[1].cluster, f"sibling pair {name}",
               "both members are in the same duplicate cluster")
    cluster_entries = [
        {
            "name": name,
            "ids": [m.document_id for m in members],
            "keys": [m.key for m in members],
            "anchors": [m.anchor_name for m in members],
            "titles": [m.row["title"] for m in members],
            "extra_tokens": {m.document_id: list(m.extra_tokens) for m in members if m.extra_tokens},
        }
        for name, members in clusters.items()
    ]
    sibling_entries = [
        {"name": name, "ids": [p.document_id for p in pair], "keys": [p.key for p in pair],
         "titles": [p.row["title"] for p in pair]}
        for name, pair in siblings.items()
    ]
    live = [d for d in corpus.documents if not d.is_tombstoned]
    return {
        "version": 1,
        "notes": (
            "Ground truth for the demo store built from resources/demo/corpus. duplicate_clusters: documents that "
            "state the SAME fact (paraphrases an agent re-recorded on different days, sometimes under a differently "
            "spelled anchor); any two members of one cluster are true duplicates. sibling_pairs: same topic, "
            "DIFFERENT fact (another version, date, amount, person, host or port) — must never be merged. Every live "
            "document not in a cluster is a singleton, so any pair not inside one cluster is a non-duplicate. "
            "extra_tokens: load-bearing tokens a member carries that at least one other member of its cluster lacks "
            "(a merge that keeps only one member would lose them; this is what MergeGuard catches). Ids are "
            "'doc-' + md5('memgui-demo/' + key); regenerate this file with `python -m memgui.core.store.demo`."
        ),
        "id_scheme": "doc-/rec-/cp- + md5('memgui-demo/' + corpus key)",
        "counts": {
            "documents": len(corpus.documents),
            "live_documents": len(live),
            "tombstoned_documents": len(corpus.documents) - len(live),
            "duplicate_clusters": len(clusters),
            "clusters_with_3_plus": sum(len(m) >= 3 for m in clusters.values()),
            "documents_in_clusters": sum(len(m) for m in clusters.values()),
            "sibling_pairs": len(siblings),
            "records": len(corpus.records),
            "checkpoints": len(corpus.checkpoints),
        },
        "duplicate_clusters": [entry["ids"] for entry in cluster_entries],
        "sibling_pairs": [entry["ids"] for entry in sibling_entries],
        "clusters": cluster_entries,
        "siblings": sibling_entries,
        "append_documents": [d.document_id for d in corpus.documents if d.row["update_semantics"] == "append-document"],
        "tombstoned_documents": [d.document_id for d in corpus.documents if d.is_tombstoned],
    }


def demo_labels() -> dict[str, Any]:
    """The label file `resources/demo/labels.json` (duplicate clusters and sibling pairs by document id)."""
    return _read_json(demo_corpus_dir() / LABELS_FILE)


def write_labels(path: Path | None = None) -> Path:
    """Regenerate the label file from the corpus (maintainers run `python -m memgui.core.store.demo`)."""
    target = path or demo_corpus_dir() / LABELS_FILE
    text = json.dumps(labels_from_corpus(load_corpus()), indent=1, ensure_ascii=False) + "\n"
    target.write_text(text, encoding="utf-8")
    return target


# ---- building the store --------------------------------------------------------------------------------


def _insert(model: type[Model], row: dict[str, Any]) -> None:
    unknown = [c for c in row if c not in model._meta.columns]
    if unknown:
        raise DemoCorpusError(f"{model._meta.table_name} has no column {', '.join(unknown)}")
    model.insert(row_values(model, row)).execute()


def _fill(db: SqliteDatabase, corpus: DemoCorpus, legacy: bool) -> None:
    """Every row in one BEGIN IMMEDIATE transaction, as Netclaw's batch writes would have left them."""
    m = build_models(db, read_columns(db))
    themes = {doc.anchor_name: doc.theme for doc in corpus.documents}
    domain_of = {anchor_id_for(n): t for n, t in themes.items()}
    with db.atomic():
        for row in anchor_rows(corpus):
            _insert(m.anchors, {**row, "domain": domain_of.get(row["anchor_id"], "general")} if legacy else row)
        for doc in corpus.documents:
            _insert(m.documents, {**doc.row, "domain": doc.theme} if legacy else doc.row)
            if doc.has_fts_row:
                r = doc.row
                _insert(m.documents_fts, dict(document_id=r["document_id"], title=r["title"], body=r["markdown_body"],
                                              aliases=r["aliases_json"] or "", facets=r["facets_json"] or ""))
        fts = m.records_fts
        for rec in corpus.records:
            r = rec.row
            _insert(m.records, {**r, "domain": "general"} if legacy else r)
            if r["supersedes_record_id"]:  # SupersedeRecordAsync moves the FTS row to the new head
                fts.delete().where(fts.record_id == r["supersedes_record_id"]).execute()
            if r["recall_mode"] in SEARCHABLE:
                _insert(fts, dict(record_id=r["record_id"], title=r["record_type"], body=r["payload_json"],
                                  aliases=r["aliases_json"] or "", facets=r["facets_json"] or ""))
        for row in corpus.checkpoints:
            _insert(m.checkpoints, row)


def _remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def build_demo_store(path: Path, *, force: bool = False, legacy: bool = False) -> Path:
    """Build the demo store at `path` and return it. An existing file is kept unless `force`.

    The store is created with Netclaw's schema (WAL) in a temporary file next to `path`, filled in one
    transaction, checkpointed and closed, then renamed over `path` — a half-built demo never exists under
    the real name. `legacy=True` builds the prototype-era variant with `domain` columns.
    """
    path = Path(path).expanduser().absolute()
    if path.exists() and not force:
        return path
    corpus = load_corpus()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.building-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        try:
            create_store(tmp, legacy=legacy)
            db = SqliteDatabase(str(tmp), lock_type="IMMEDIATE")
            try:
                _fill(db, corpus, legacy)
                db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")  # raw SQL: PRAGMA has no Peewee query form
            finally:
                db.close()
        except StoreError as exc:  # named by the file the user asked for, not the hidden one being built
            raise StoreError(str(exc).replace(str(tmp), str(path))) from None
        except (PeeweeDatabaseError, sqlite3.Error) as exc:  # a full disk, a file-size limit
            raise StoreError(f"{path}: cannot build the demo store here ({sqlite_reason(exc)}); nothing was written"
                             ) from None
        # A WAL/SHM pair left by an earlier file must never be replayed into the new one.
        for suffix in ("-wal", "-shm"):
            _remove_quietly(path.with_name(path.name + suffix))
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            _remove_quietly(leftover)
    return path


if __name__ == "__main__":  # regenerate resources/demo/labels.json
    print(write_labels())
