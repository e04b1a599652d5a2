"""Id shapes, timestamps and the append separator both outside stores' notes use (outside_store_notes.py,
outside2_notes.py), as the Netclaw spec writes them. Stdlib only; ids are deterministic per seed namespace."""

import datetime as _dt
import hashlib

MERGE_SEP = "\n\n---\n_[merged {}]_\n"  # STORE BuildDedupAppendedBody / EVAL BuildAppendedBody


def make_ids(seed_ns):
    """(doc_id, rec_id, cp_id) of one store: md5 of the seed namespace, the id's kind and its key."""

    def of(prefix, kind):
        return lambda key: prefix + hashlib.md5((seed_ns + "/" + kind + "/" + key).encode()).hexdigest()

    return of("doc-", "doc"), of("rec-", "rec"), of("cp-", "cp")


def anchor_id(name):
    # IDS AnchorId: "anchor:" + trimmed, invariant lower-case, spaces -> "-"
    return "anchor:" + name.strip().lower().replace(" ", "-")


def ms(when):
    """'YYYY-MM-DD HH:MM' (UTC) -> epoch milliseconds."""
    d = _dt.datetime.strptime(when, "%Y-%m-%d %H:%M").replace(tzinfo=_dt.timezone.utc)
    return int(d.timestamp() * 1000)
