"""Exports of the audit: JSON Lines (one audit entry per line, lossless) and a Markdown report for people.

JSON Lines: each line is `AuditEntry.to_dict(images=True)` — the entry with its full before/after images —
so `read_jsonl(write_jsonl(...))` gives back dicts equal to the entries' dicts. Markdown: per write, when it
happened, who or what decided it (reviewer, LLM + model, rules), the guard result, the sources as they were
before and the merged body after, cosines, rationale, note; then the past daemon merges when given.

Files are written atomically (temporary file + rename), so a failed export never leaves half a file.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..netfx import format_timestamp

OPERATION_TITLES = {
    "merge": "Merge", "drop": "Drop (tombstone)", "edit": "Edit", "keep-separate": "Kept separate",
    "allow-nomination": "Allowed nomination again", "append-back": "Lost facts appended back", "undo": "Undo",
    "redo": "Redo",
    "decide-create": "Decision applied: create", "decide-append": "Decision applied: append",
    "decide-update": "Decision applied: update", "decide-consolidate": "Decision applied: consolidate",
}


def _entry_dict(entry: Any, images: bool = True) -> dict[str, Any]:
    return entry.to_dict(images=images) if hasattr(entry, "to_dict") else dict(entry)


def atomic_write(path: str | os.PathLike[str], text: str) -> Path:
    """`text` written to a temporary file beside `path`, then renamed over it: a full disk or a file-size limit half
    way leaves `path` as it was (absent, or the earlier file), never a truncated file under the asked-for name."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise OSError(f"{folder}: no such folder")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


# ---- JSON Lines ----------------------------------------------------------------------------------------


def jsonl_text(entries: Iterable[Any], *, images: bool = True) -> str:
    """One compact JSON object per line (UTF-8, no ASCII escaping), newline-terminated."""
    lines = [json.dumps(_entry_dict(e, images), ensure_ascii=False, sort_keys=True, allow_nan=False,
                        separators=(",", ":")) for e in entries]
    return "".join(line + "\n" for line in lines)


def write_jsonl(path: str | os.PathLike[str], entries: Iterable[Any], *, images: bool = True) -> int:
    """Write the entries to `path` as JSON Lines; returns how many were written."""
    text = jsonl_text(entries, images=images)
    atomic_write(path, text)
    return text.count("\n")


def read_jsonl(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The entries of a JSON Lines export (blank lines ignored), each line validated by the export's schema
    (core/store/seams.py: bounds on size, depth, integers; lone surrogates refused). Raises ValueError (a
    seams.SeamError) naming the bad line."""
    from ..store.seams import export_line, read_bytes

    out = []
    for n, line in enumerate(read_bytes(path, "a JSON Lines export").split(b"\n"), start=1):
        if not line.strip():
            continue
        out.append(export_line(line, f"{path}:{n}: not an audit export line"))
    return out


# ---- Markdown --------------------------------------------------------------------------------------------


def _when(ms: int | None) -> str:
    return format_timestamp(ms, seconds=True, empty="unknown time")


def fence(text: str, info: str = "") -> str:
    """A fenced code block that survives backticks inside `text`."""
    longest, run = 0, 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    body = text.replace("\r\n", "\n")
    return f"{ticks}{info}\n{body}{'' if body.endswith(chr(10)) else chr(10)}{ticks}"


def _inline(text: Any) -> str:
    """A value inline in Markdown: code-quoted, with its backticks accounted for."""
    s = str(text).replace("\n", " ")
    if "`" in s:
        return f"`` {s} ``"
    return f"`{s}`"


def _plain(text: Any) -> str:
    """Free text on one Markdown line (no accidental headings/lists)."""
    s = " ".join(str(text).split())
    return s.replace("<", "&lt;").replace(">", "&gt;")


def _row(image: Mapping[str, Any], doc_id: str) -> Mapping[str, Any] | None:
    doc = (image.get("documents") or {}).get(doc_id) or {}
    return doc.get("row")


def decided_by_text(d: Mapping[str, Any]) -> str:
    who = d.get("decided_by") or "unknown"
    label = {"reviewer": "a person (reviewer)", "llm": "the LLM", "rules": "the rules tier", "cli": "the command line"}
    text = label.get(who, who)
    if d.get("model_id"):
        text += f", model {_inline(d['model_id'])}"
    if d.get("prompt_hash"):
        text += f", prompt sha256 {_inline(str(d['prompt_hash'])[:16])}…"
    return text


def guard_text(d: Mapping[str, Any]) -> str:
    details = d.get("details") or {}
    report = details.get("guard") or {}
    if d.get("guard_passed") is None and not report:
        return "not run"
    passed = d.get("guard_passed") if d.get("guard_passed") is not None else report.get("passed")
    text = "passed" if passed else "FAILED"
    if details.get("guard_override"):
        text += " — written anyway by the reviewer's override"
    if report:
        bits = []
        if report.get("retention") is not None:
            bits.append(f"retention {float(report['retention']):.0%}")
        if report.get("length_ratio") is not None:
            bits.append(f"length ratio {float(report['length_ratio']):.2f}")
        if bits:
            text += f" ({', '.join(bits)})"
        if report.get("missing"):
            text += "; missing: " + ", ".join(_inline(t) for t in report["missing"])
        if report.get("reason"):
            text += f"; {_plain(report['reason'])}"
    return text


def _entry_markdown(d: Mapping[str, Any]) -> list[str]:
    details = d.get("details") or {}
    before, after = d.get("before") or {}, d.get("after") or {}
    op = d.get("operation", "?")
    out = [f"## #{d.get('audit_id')} · {OPERATION_TITLES.get(op, op)} · {_when(d.get('created_at'))}", ""]
    facts = [
        ("When", _when(d.get("created_at"))),
        ("Decided by", decided_by_text(d)),
        ("State", str(d.get("state")) + (f" (reverts #{d['reverts_audit_id']})" if d.get("reverts_audit_id") else "")),
        ("Guard", guard_text(d)),
    ]
    if d.get("target_id"):
        facts.append(("Target", _inline(d["target_id"])))
    others = [s for s in d.get("source_ids") or [] if s != d.get("target_id")]
    if others:
        facts.append(("Sources", ", ".join(_inline(s) for s in others)))
    if details.get("mode"):
        facts.append(("Mode", details["mode"]))
    if details.get("outcome"):
        facts.append(("Outcome", details["outcome"]))
    if details.get("tombstoned"):
        facts.append(("Tombstoned", ", ".join(_inline(s) for s in details["tombstoned"])))
    if details.get("cosines"):
        facts.append(("Cosines", "; ".join(f"{_inline(a)} ↔ {_inline(b)} {float(c):.3f}" for a, b, c in details["cosines"])))
    if details.get("pairs"):
        facts.append(("Pairs", "; ".join(" & ".join(_inline(x) for x in p) for p in details["pairs"])))
    decision = details.get("decision") or {}
    if decision.get("reason"):
        facts.append(("Decision reason", _plain(decision["reason"])))
    if details.get("rationale"):
        facts.append(("Rationale", _plain(details["rationale"])))
    if details.get("note"):
        facts.append(("Note", _plain(details["note"])))
    out += [f"- **{k}:** {v}" for k, v in facts] + [""]
    touched = list(dict.fromkeys([*(d.get("source_ids") or []), *(before.get("documents") or {}),
                                  *(after.get("documents") or {})]))
    sources = [(i, row) for i in touched if (row := _row(before, i)) is not None]
    if sources:
        out += ["### Sources before", ""]
        for doc_id, row in sources:
            out += [f"#### {_plain(row.get('title') or '(untitled)')} — {_inline(doc_id)}", "",
                    fence(row.get("markdown_body") or ""), ""]
    target = d.get("target_id")
    target_after = _row(after, target) if target else None
    if target_after is not None:
        semantics = target_after.get("update_semantics")
        title = "Merged body after" if op in ("merge", "decide-update", "decide-consolidate") else "Body after"
        out += [f"### {title} ({_inline(semantics)})" if semantics else f"### {title}", "",
                fence(target_after.get("markdown_body") or ""), ""]
    if details.get("raw_reply"):
        out += ["<details><summary>Raw model reply</summary>", "", fence(details["raw_reply"]), "", "</details>", ""]
    return out


def markdown_report(
    entries: Iterable[Any],
    *,
    histories: Sequence[Any] = (),
    daemon_events: Sequence[Any] = (),
    unrecoverable: Sequence[Mapping[str, Any]] = (),
    store_path: str | None = None,
    generated_at: datetime | None = None,
) -> str:
    """A readable report: one section per audited write (newest first as given), then past daemon merges."""
    items = [_entry_dict(e, True) for e in entries]
    now = format_timestamp(int((generated_at or datetime.now(timezone.utc)).timestamp() * 1000))
    out = ["# memgui audit report", ""]
    if store_path:
        out.append(f"Store: {_inline(store_path)}  ")
    out += [f"Generated: {now}  ", f"memgui writes: {len(items)}", ""]
    if not items:
        out += ["_No writes by memgui are recorded in this store._", ""]
    for d in items:
        out += _entry_markdown(d)
    if histories:
        out += ["# Past daemon merges: append histories", ""]
        for h in histories:
            h = h.as_dict() if hasattr(h, "as_dict") else h
            out += [f"## {_plain(h.get('title') or '(untitled)')} — {_inline(h['document_id'])}", ""]
            for seg in h["segments"]:
                out += [f"**{'Original' if seg['date'] is None else 'Appended ' + seg['date']}**", "",
                        fence(seg["text"]), ""]
    if unrecoverable:
        out += ["# Daemon merges whose earlier body is gone", ""]
        for u in unrecoverable:
            out.append(f"- {_inline(u.get('document_id'))} ({_plain(u.get('title') or 'not in the store')}), "
                       f"{u.get('time') or 'time unknown'}: {_plain(u.get('message', ''))}")
        out.append("")
    if daemon_events:
        out += ["# Daemon log timeline", "", "| Time | Marker | Anchor | Document | Details |", "|---|---|---|---|---|"]
        for e in daemon_events:
            e = e.as_dict() if hasattr(e, "as_dict") else e
            extra = ", ".join(f"{k}={v}" for k, v in (e.get("fields") or {}).items() if k not in ("anchor",))
            cells = [e.get("time") or "", e.get("marker") or "", e.get("anchor") or "", e.get("document_id") or "", extra]
            out.append("| " + " | ".join(_plain(c).replace("|", "\\|") for c in cells) + " |")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def write_markdown(path: str | os.PathLike[str], entries: Iterable[Any], **kw: Any) -> Path:
    return atomic_write(path, markdown_report(entries, **kw))


def write_plan(path: str | os.PathLike[str], plan: Any) -> Path:
    """An accept-safe plan (core/ops/batch.BatchPlan): JSON for a `.json` name (the file `accept-safe --plan` applies),
    else Markdown for people; written whole or not at all."""
    if Path(path).suffix.lower() == ".json":
        return atomic_write(path, json.dumps(plan.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return atomic_write(path, plan.to_markdown())


__all__ = ["atomic_write", "fence", "jsonl_text", "markdown_report", "read_jsonl", "write_jsonl", "write_markdown",
           "write_plan"]
