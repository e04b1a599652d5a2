"""HTML for the audit tab's detail panes: one audited write (who, when, why, guard, cosines, prompt, reply), a
before/after word diff (spans from core.diff), and a document's append history with its daemon events.
Pure presentation of core values; no decisions are made here."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..services.types import AuditEntry, DaemonEvent, DocumentHistory, WordDiff
from ..services.values import DELETE, EQUAL, INSERT, LENGTH_COLLAPSE_THRESHOLD, REPLACE, RETENTION_THRESHOLD
from .models import guard_label, operation_label, when_text

# JSON read back from an audit row or a report (a guard report, an unrecoverable merge): any JSON value inside
JsonObject = Mapping[str, Any]

DEL_STYLE = "background:#ffd7d5;color:#82071e;text-decoration:line-through"
INS_STYLE = "background:#ccffd8;color:#055d20"
MISSING_STYLE = "background:#ffd7d5;color:#82071e;font-weight:600"
MAX_DIFF_CHARS = 200_000

OPERATION_HELP = {
    "merge": "A reviewer merged a cluster into its target; the other members were tombstoned.",
    "append": "A reviewer appended the other members to the target under dated separators (append-document); "
              "they were tombstoned.",
    "drop": "A reviewer tombstoned a redundant document.",
    "edit": "A reviewer edited a document's body.",
    "keep-separate": "Pairs were marked \"not duplicates\"; the nominator will not offer them again.",
    "allow-nomination": "\"Kept separate\" was removed; the pairs may be nominated again.",
    "append-back": "Facts a past merge lost (found by Re-check merges) were appended back to its target.",
    "undo": "An earlier write was undone (its before-images were put back).",
    "redo": "An undone write was applied again.",
    "decide-create": "A curation decision wrote a new document.",
    "decide-append": "A curation decision appended to an existing document.",
    "decide-update": "A curation decision updated a document (guarded merge or append).",
    "decide-consolidate": "A curation decision consolidated documents under one anchor.",
}


def _pre(text: str) -> str:
    return f"<pre style='white-space:pre-wrap;margin:2px 0 6px 0'>{escape(text)}</pre>"


def _doc(doc_id: str | None, titles: Mapping[str, str]) -> str:
    if not doc_id:
        return "—"
    title = titles.get(doc_id)
    return (f"<b>{escape(title)}</b> <span style='color:#6e7781'>{escape(doc_id)}</span>" if title
            else f"<span style='color:#6e7781'>{escape(doc_id)}</span>")


def _row(label: str, value: str) -> str:
    return (f"<tr><td style='color:#57606a;padding-right:10px;vertical-align:top;white-space:nowrap'>{escape(label)}</td>"
            f"<td>{value}</td></tr>")


def _decided_by(e: AuditEntry) -> str:
    who = {"reviewer": "a person (reviewer)", "llm": "the LLM", "rules": "the rules tier", "cli": "the command line"}
    return escape(who.get(e.decided_by or "", e.decided_by or "unknown"))


def guard_html(report: JsonObject | None, entry: AuditEntry) -> str:
    if not report:
        return escape(guard_label(entry)) if entry.guard_passed is not None else "not run"
    passed = report.get("passed")
    color = "#1a7f37" if passed else "#cf222e"
    text = f"<b style='color:{color}'>{'passed' if passed else 'FAILED'}</b>"
    if entry.guard_override:
        text += " — <b>written anyway</b> (the reviewer overrode the guard)"
    bits = []
    if report.get("retention") is not None:
        bits.append(f"retention {float(report['retention']):.0%} (needs {RETENTION_THRESHOLD:.0%})")
    if report.get("length_ratio") is not None:
        bits.append(f"length ratio {float(report['length_ratio']):.2f} (needs {LENGTH_COLLAPSE_THRESHOLD:.2f})")
    if bits:
        text += " · " + " · ".join(bits)
    if report.get("reason"):
        text += f"<br><span style='color:#57606a'>{escape(str(report['reason']))}</span>"
    missing = report.get("missing") or []
    if missing:
        text += "<br>missing: " + " ".join(f"<span style='{MISSING_STYLE}'>&nbsp;{escape(str(t))}&nbsp;</span>" for t in missing)
    tokens = report.get("tokens") or []
    if tokens and not report.get("reason"):
        kept = sum(1 for t in tokens if t.get("retained"))
        text += f"<br><span style='color:#57606a'>{kept} of {len(tokens)} load-bearing tokens kept</span>"
    return text


def entry_html(e: AuditEntry, titles: Mapping[str, str]) -> str:
    """The facts of one audited write."""
    d, op = e.details or {}, operation_label(e)
    rows = [
        _row("When", escape(when_text(e.created_at))),
        _row("Operation", f"<b>{escape(op)}</b> — {escape(OPERATION_HELP.get(op, ''))}"),
        _row("State", escape(e.state) + (f" (reverts #{e.reverts_audit_id})" if e.reverts_audit_id else "")),
        _row("Decided by", _decided_by(e)),
    ]
    if e.model_id:
        rows.append(_row("Model", escape(e.model_id)))
    if e.prompt_hash:
        rows.append(_row("Prompt hash", f"<code>{escape(e.prompt_hash)}</code>"))
    rows.append(_row("Guard", guard_html(e.guard_report, e)))
    rows.append(_row("Target", _doc(e.target_id, titles)))
    others = [s for s in e.source_ids if s != e.target_id]
    if others:
        rows.append(_row("Sources", "<br>".join(_doc(s, titles) for s in others)))
    if d.get("mode"):
        rows.append(_row("Mode", escape(str(d["mode"]))))
    if d.get("outcome"):
        rows.append(_row("Outcome", escape(str(d["outcome"]))))
    if d.get("tombstoned"):
        rows.append(_row("Tombstoned", "<br>".join(_doc(s, titles) for s in d["tombstoned"])))
    if d.get("pairs"):
        rows.append(_row("Pairs", "<br>".join(" &amp; ".join(_doc(x, titles) for x in p) for p in d["pairs"])))
    cosines = e.cosines
    if cosines:
        rows.append(_row("Cosines", "<br>".join(
            f"{float(c):.3f} &nbsp; {escape(titles.get(a) or a)} ↔ {escape(titles.get(b) or b)}" for a, b, c in cosines)))
    decision = d.get("decision") or {}
    if decision.get("reason"):
        rows.append(_row("Decision reason", escape(str(decision["reason"]))))
    if e.rationale:
        rows.append(_row("Rationale", escape(e.rationale)))
    if e.note:
        rows.append(_row("Note", escape(e.note)))
    html = "<table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"
    if d.get("markers"):
        html += "<p style='margin:6px 0 0 0;color:#57606a'>Markers</p>" + _pre("\n".join(d["markers"]))
    if e.prompt:
        html += "<p style='margin:6px 0 0 0;color:#57606a'>Prompt</p>" + _pre(e.prompt)
    if e.raw_reply:
        html += "<p style='margin:6px 0 0 0;color:#57606a'>Raw model reply</p>" + _pre(e.raw_reply)
    return html


def diff_html(diff: WordDiff) -> str:
    """A core.diff.WordDiff as HTML: text only before struck through in red, only after in green."""
    out, budget = [], MAX_DIFF_CHARS
    for span in diff.spans:
        if budget <= 0:
            out.append("\n… (diff truncated for display)")
            break
        if span.op == EQUAL:
            out.append(escape(span.b_text))
        if span.op in (DELETE, REPLACE):
            out.append(f"<span style='{DEL_STYLE}'>{escape(span.a_text)}</span>")
        if span.op in (INSERT, REPLACE):
            out.append(f"<span style='{INS_STYLE}'>{escape(span.b_text)}</span>")
        budget -= len(span.a_text) + len(span.b_text)
    return f"<div style='white-space:pre-wrap'>{''.join(out)}</div>"


def body_html(text: str, note: str) -> str:
    return f"<p style='color:#57606a'>{escape(note)}</p><div style='white-space:pre-wrap'>{escape(text)}</div>"


def history_html(history: DocumentHistory | None, events: Sequence[DaemonEvent],
                 unrecoverable: Sequence[JsonObject],
                 document_id: str | None = None) -> str:
    """A document's append history (dated segments), what cannot be recovered, and the daemon events naming it."""
    parts = []
    if history is not None:
        parts.append(f"<h3 style='margin:0'>{escape(history.title or history.document_id)}</h3>"
                     f"<p style='color:#6e7781;margin:0'>{escape(history.document_id)} · last write "
                     f"<code>{escape(history.update_semantics)}</code></p>")
        if history.additions or not unrecoverable:  # else the box below says it
            parts.append(f"<p>{escape(history.message)}</p>")
        for seg in history.segments:
            head = ("Original" if history.additions else "Current body") if seg.date is None else f"Appended {seg.date}"
            color = "#24292f" if seg.date is None else "#0969da"
            parts.append(f"<p style='margin:8px 0 0 0'><b style='color:{color}'>{escape(head)}</b></p>")
            parts.append(f"<div style='white-space:pre-wrap;margin-left:10px'>{escape(seg.text) or '<i>(empty)</i>'}</div>")
    elif document_id:
        parts.append(f"<p><b>{escape(document_id)}</b> is not in the store (deleted, or named by a log of another store).</p>")
    for u in unrecoverable:
        parts.append(f"<p style='background:#fff8c5;padding:4px'><b>Earlier body not recoverable.</b> "
                     f"{escape(u.get('time') or '')} {escape(u.get('message') or '')}</p>")
    if events:
        parts.append("<p style='margin:10px 0 2px 0'><b>Daemon log events naming this document</b></p><ul>")
        for e in events:
            extra = " ".join(f"{k}={v}" for k, v in e.fields.items() if k not in ("anchor",))
            parts.append(f"<li><code>{escape(e.time or '?')}</code> <b>{escape(e.marker)}</b> {escape(extra)}</li>")
        parts.append("</ul>")
    return "".join(parts) or "<p style='color:#6e7781'>Select a document or a log event.</p>"


__all__ = ["body_html", "diff_html", "entry_html", "guard_html", "history_html"]
