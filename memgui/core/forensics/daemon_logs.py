"""Netclaw daemon logs → a timeline of curation events (netclaw-compat §13, §15).

The daemon logs one line per curation step in a fixed `marker key=value …` shape, e.g.

    2026-06-01 12:00:00.123 +00:00 [INF] curation_merge_guard_passed anchor=atlas-sync targetDoc=doc-1 reason=…
    2026-06-01 12:00:01.004 +00:00 [WRN] curation_merge_guard_failed anchor=x targetDoc=doc-2 missingTokens=[1.5.62,https://a.b] reason=…

This module reads such files (`$NETCLAW_HOME/logs/daemon*.log`, or files and folders a person names) and turns
every marker line into a `DaemonEvent` linked to the documents it names. It reads what memgui itself writes too
(`core/curation/markers.py` renders the same templates).

Tolerated: Serilog-like prefixes (`2026-06-01 12:00:00.123 +00:00 [INF] `), Microsoft console two-line entries
(`info: Category[0]` then an indented message), Akka.NET prefixes (`[INFO][06/01/2026 12:00:00.123Z][Thread 0012]…`),
stdlib-logging prefixes, Serilog compact JSON lines (`{"@t":…, "@mt"/"@m":…}`), quoted values
(`anchor="atlas sync"`), values with spaces (a value runs to the next key the marker is known to carry;
`reason=` always runs to the end of the line), bracketed lists (`[a,b]`, `["a", "b"]`), bad UTF-8 (read as
U+FFFD), CRLF, and files of any size (streamed line by line, at most `MAX_LINE_BYTES` of a line kept).

A line that names a marker but cannot be read (unterminated list, no key=value where the marker needs them,
a required key missing, a broken JSON line) is skipped and counted in `stats.skipped_malformed`; it never
stops the parse. Lines without a marker are ordinary log lines and only counted in `stats.lines`.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

from ..curation import markers as memgui_markers
from ..tasks import NEVER_CANCELLED, CancelToken, Progress, Step, Work, run_to_end
from .daemon_log_files import LOG_GLOB, DaemonLogError, default_log_dirs, find_daemon_logs

MAX_LINE_BYTES = 1 << 20  # longer lines are cut here (and skipped if they carry a marker)
PROGRESS_EVERY_LINES = 20_000

# Markers and the keys their templates carry (memgui's own templates first, then the rest of netclaw-compat §13).
TEMPLATE_KEYS: dict[str, tuple[str, ...]] = {m: t[1] for m, t in memgui_markers.TEMPLATES.items()}
TEMPLATE_KEYS.update({
    "curation_actor_evaluating": ("proposalCount",),
    "curation_actor_evaluated": ("decisionCount",),
    "curation_actor_write_complete": ("evaluated", "skipped", "updated", "consolidated", "created"),
    "curation_actor_write_failed": (),
    "curation_actor_busy": (),
    "memory_embed_on_write_skipped": (),
    "memory_embed_on_write_failed": ("documentId",),
    "memory_embedding_stale_write_rejected": ("item", "model"),
    "memory_data_repair_compaction_recall_mode": ("rows",),
    "memory_embedding_disabled": (),
    "memory_embedding_ready": ("model", "dims", "hasQueryPrefix", "calibratedMinCosineSimilarity"),
    "memory_embedding_unavailable": ("model", "reason"),
    "memory_embedding_gap_repair_complete": ("embedded", "failed", "model"),
    "memory_embedding_gap_repair_batch_failed": ("count",),
    "memory_embedding_gap_repair_failed": (),
    "memory_embedding_keep_warm_failed": (),
    "memory_checkpoint_dropped_before_curation": (
        "CheckpointId", "SessionId", "TriggerType", "IsExplicitRequest", "ContentLength", "UserContentLength",
        "DropReason", "DropDetail",
    ),
})
SUFFIXES = {m: t[2] for m, t in memgui_markers.TEMPLATES.items() if t[2]}
# Keys that must be present for the line to mean anything (the rest may be missing in other versions).
REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "curation_merge_guard_passed": ("anchor", "targetDoc"),
    "curation_merge_guard_failed": ("anchor", "targetDoc", "missingTokens"),
    "curation_append_fallback": ("anchor", "targetDoc"),
    "curation_consolidate": ("anchor", "targetIds"),
    "curation_update": ("anchor", "targetDoc"),
    "curation_update_target_unknown": ("anchor", "targetId"),
    "curation_guard_fallthrough": ("anchor", "rejectedTarget"),
    "curation_reanchor": ("docId", "newAnchor"),
    "curation_tombstone_anchor": ("anchorId",),
    "curation_dedup_append": ("anchor", "targetDoc"),
    "curation_dedup_duplicate_skipped": ("anchor", "targetDoc"),
    "memory_embed_on_write_failed": ("documentId",),
}
ALL_KEYS = frozenset(k for keys in TEMPLATE_KEYS.values() for k in keys) | {"error"}
LIST_KEYS = frozenset({"targetIds", "missingTokens"})
ID_KEYS = ("targetDoc", "targetId", "docId", "rejectedTarget", "documentId", "item")
BOOL_KEYS = frozenset({"llm_available", "hadMergedBody", "hasQueryPrefix", "IsExplicitRequest"})
INT_KEYS = frozenset({
    "count", "responseLength", "anchor_hits", "content_hits", "merged", "proposalCount", "decisionCount",
    "evaluated", "skipped", "updated", "consolidated", "created", "rows", "dims", "embedded", "failed",
    "ContentLength", "UserContentLength",
})
FLOAT_KEYS = frozenset({"topCosine", "timeoutSeconds", "calibratedMinCosineSimilarity"})
EMPTY_IDS = {"", "(unknown)", "null", "none", "(null)"}

_MARKER_RE = re.compile(r"(?<![\w.\-/=])((?:curation|memory)_[a-z][a-z0-9_]*)(?=\s|$|:\s)")
_KEY_RE = re.compile(r"(?:(?<=\s)|^)([A-Za-z_][A-Za-z0-9_]*)=")
_ISO_TIME_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2})?"
)
_US_TIME_RE = re.compile(
    r"(\d{1,2})/(\d{1,2})/(\d{4}) (\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s?(AM|PM)?\s?(Z)?", re.IGNORECASE
)
_LEVELS = {
    "vrb": "debug", "verbose": "debug", "trce": "debug", "trace": "debug", "dbg": "debug", "dbug": "debug",
    "debug": "debug", "inf": "info", "info": "info", "information": "info", "wrn": "warning", "warn": "warning",
    "warning": "warning", "err": "error", "error": "error", "fail": "error", "ftl": "error", "crit": "error",
    "critical": "error", "fatal": "error",
}
_LEVEL_RE = re.compile(
    r"\[(VRB|VERBOSE|TRACE|DBG|DEBUG|INF|INFO|INFORMATION|WRN|WARN|WARNING|ERR|ERROR|FTL|FATAL|CRITICAL)\]"
    r"|\b(trce|dbug|info|warn|fail|crit):"
    r"|(?<![\w\[])(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)(?![\w\]])",
    re.IGNORECASE,
)
_BRACKET_LEVEL_RE = re.compile(r"\[([A-Za-z]{3,11})\]")
_MARKER_HINTS = (b"curation_", b"memory_")
_HEADER_HINTS = (b"trce: ", b"dbug: ", b"info: ", b"warn: ", b"fail: ", b"crit: ")
_CONSOLE_HEADER_RE = re.compile(r"^(?P<pre>.*?)\b(trce|dbug|info|warn|fail|crit): \S")


@dataclass(frozen=True, slots=True)
class DaemonEvent:
    time: str | None  # ISO 8601 as the line gave it (offset kept when there was one); None if the line had none
    marker: str
    anchor: str | None
    document_ids: tuple[str, ...]
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    line_no: int = 0
    file: str = ""
    level: str | None = None
    note: str | None = None  # a template's fixed tail (" — conservative create"), when the line had one

    @property
    def document_id(self) -> str | None:
        return self.document_ids[0] if self.document_ids else None

    @property
    def where(self) -> str:
        return f"{Path(self.file).name}:{self.line_no}"

    def as_dict(self) -> dict[str, Any]:
        """The shape `memgui audit --json` uses for `daemon_events`."""
        return {"time": self.time, "marker": self.marker, "anchor": self.anchor, "document_id": self.document_id,
                "fields": dict(self.fields)}


@dataclass(frozen=True)
class DaemonLogStats:
    files: int = 0
    lines: int = 0
    parsed: int = 0
    skipped_malformed: int = 0
    unreadable: tuple[str, ...] = ()  # "path: reason" for files found in a folder that could not be read
    malformed_samples: tuple[str, ...] = ()  # "file:line: why" for the first few skipped lines

    def as_dict(self) -> dict[str, Any]:
        return {"files": self.files, "lines": self.lines, "parsed": self.parsed,
                "skipped_malformed": self.skipped_malformed}


@dataclass(frozen=True)
class DaemonTimeline:
    events: tuple[DaemonEvent, ...]
    stats: DaemonLogStats
    paths: tuple[str, ...] = ()

    def for_document(self, document_id: str) -> list[DaemonEvent]:
        return [e for e in self.events if document_id in e.document_ids]

    def by_document(self) -> dict[str, list[DaemonEvent]]:
        out: dict[str, list[DaemonEvent]] = {}
        for e in self.events:
            for d in e.document_ids:
                out.setdefault(d, []).append(e)
        return out


EMPTY_TIMELINE = DaemonTimeline((), DaemonLogStats())


class _Malformed(Exception):
    pass


# ---- one line ------------------------------------------------------------------------------------------


def _iso_time(prefix: str) -> str | None:
    m = _ISO_TIME_RE.search(prefix)
    if m:
        y, mo, d, h, mi, s, frac, off = m.groups()
        try:
            datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))
        except ValueError:
            return None
        text = f"{y}-{mo}-{d}T{h}:{mi}:{s}" + (f".{frac[:6]}" if frac else "")
        if off:
            text += "+00:00" if off == "Z" else (off if ":" in off else f"{off[:3]}:{off[3:]}")
        return text
    m = _US_TIME_RE.search(prefix)
    if m:
        mo, d, y, h, mi, s, frac, ampm, z = m.groups()
        hour = int(h)
        if ampm:
            hour = hour % 12 + (12 if ampm.upper() == "PM" else 0)
        try:
            when = datetime(int(y), int(mo), int(d), hour, int(mi), int(s))
        except ValueError:
            return None
        text = when.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac[:6]}" if frac else "")
        return text + ("+00:00" if z else "")
    return None


def _level(prefix: str) -> str | None:
    quick = _BRACKET_LEVEL_RE.search(prefix)  # the common Serilog/Akka shapes first
    if quick and quick.group(1).lower() in _LEVELS:
        return _LEVELS[quick.group(1).lower()]
    m = _LEVEL_RE.search(prefix)
    if not m:
        return None
    word = next(g for g in m.groups() if g)
    return _LEVELS.get(word.lower())


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace('\\"', '"').replace("\\\\", "\\") if value[0] == '"' else inner
    return value


def _split_list(inner: str) -> list[str]:
    inner = inner.strip()
    if not inner:
        return []
    if '"' in inner:  # Serilog renders ["a", "b, c"]: split outside quotes
        items = [m.group(1) or m.group(2) for m in re.finditer(r'"((?:[^"\\]|\\.)*)"|([^,\s][^,]*)', inner)]
        return [i.replace('\\"', '"').strip() for i in items if i is not None and i.strip()]
    # memgui/.NET Join(",") has no space after the comma; then a ", " is inside a token ("June 1, 2026").
    parts = re.split(r",(?! )", inner) if re.search(r",(?! )", inner) else inner.split(", ")
    return [p.strip() for p in parts if p.strip()]


def _list_value(value: str) -> list[str]:
    value = value.strip()
    if not value.startswith("["):
        return _split_list(value)  # a bare single id
    depth, quoted, end = 0, False, -1
    for i, ch in enumerate(value):
        if ch == '"' and (i == 0 or value[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and ch == "[":
            depth += 1
        elif not quoted and ch == "]":
            depth -= 1
            if depth == 0:
                end = i
                break
    if end < 0:
        raise _Malformed("unterminated list")
    return _split_list(value[1:end])


def _convert(key: str, value: str) -> bool | int | float | str:
    if key in BOOL_KEYS and value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        if key in INT_KEYS:
            return int(value)
        if key in FLOAT_KEYS:
            return float(value)
    except ValueError:
        pass
    return value


def parse_fields(marker: str, rest: str) -> tuple[dict[str, Any], str | None]:
    """The key=value fields after a marker, and the template's fixed tail if the line carried it.
    Raises _Malformed when the text cannot be read as fields."""
    note = None
    suffix = SUFFIXES.get(marker)
    stripped = rest.rstrip()
    if suffix and stripped.endswith(suffix.rstrip()):
        stripped, note = stripped[: len(stripped) - len(suffix.rstrip())], suffix.strip(" —,")
    rest = stripped.strip()
    template = TEMPLATE_KEYS.get(marker)
    known = ALL_KEYS if template is not None else None
    matches = [m for m in _KEY_RE.finditer(rest) if known is None or m.group(1) in known]
    if not rest:
        if template:
            raise _Malformed("no fields")
        return {}, note
    if not matches or rest[: matches[0].start()].strip():
        raise _Malformed("text that is not key=value after the marker")
    fields: dict[str, Any] = {}
    for i, m in enumerate(matches):
        key = m.group(1)
        if key in fields:
            continue  # a key=… inside an earlier value (only reason may contain one; it ends the line)
        if key == "reason":
            raw, last = rest[m.end():], True
        else:
            nxt = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
            raw, last = rest[m.end():nxt], False
        raw = raw.strip()
        if key in LIST_KEYS:
            fields[key] = [_unquote(v) for v in _list_value(raw)]
        else:
            value = _unquote(raw)
            if key in BOOL_KEYS or key in INT_KEYS or key in FLOAT_KEYS:
                head, _, tail = value.partition(" ")  # a scalar is one word; anything after is a tail note
                value = head
                if tail and note is None:
                    note = tail.strip(" —,")
            fields[key] = _convert(key, value)
        if last:
            break
    for key in REQUIRED_KEYS.get(marker, ()):
        if key not in fields:
            raise _Malformed(f"no {key}=")
    return fields, note


def _document_ids(fields: Mapping[str, Any]) -> tuple[str, ...]:
    ids: list[str] = []
    for key in ID_KEYS:
        value = fields.get(key)
        if isinstance(value, str) and value.strip().lower() not in EMPTY_IDS:
            ids.append(value.strip())
    for value in fields.get("targetIds") or ():
        if isinstance(value, str) and value.strip().lower() not in EMPTY_IDS:
            ids.append(value.strip())
    return tuple(dict.fromkeys(ids))


def _anchor(fields: Mapping[str, Any]) -> str | None:
    for key in ("anchor", "anchorId", "newAnchor", "canonicalAnchor", "canonicalName"):
        value = fields.get(key)
        if isinstance(value, str) and value:
            return value
    return None


MAX_JSON_DEPTH = 64  # a log line nested deeper is not a log event (and would exhaust Python's recursion)


def _too_deep(line: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Does `line` nest brackets deeper than `limit` outside JSON strings? Linear, no recursion."""
    if line.count("[") + line.count("{") <= limit:
        return False
    depth, quoted, escaped = 0, False, False
    for ch in line:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _json_line(line: str) -> tuple[str, str | None, str | None] | None:
    """(message, time, level) of a Serilog compact / generic JSON log line, None if it is not one."""
    if _too_deep(line):
        if _MARKER_RE.search(line):
            raise _Malformed(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return None
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        if _MARKER_RE.search(line):
            raise _Malformed("broken JSON log line") from None
        return None
    if not isinstance(obj, dict):
        return None
    message = next((obj[k] for k in ("@m", "RenderedMessage", "Message", "message", "msg") if isinstance(obj.get(k), str)), None)
    if message is None and isinstance(obj.get("@mt"), str):
        def sub(m: re.Match[str]) -> str:
            value = obj.get(m.group(1))
            if isinstance(value, list):
                return "[" + ",".join(str(v) for v in value) + "]"
            return "" if value is None else str(value)
        message = re.sub(r"\{@?\$?([A-Za-z_][A-Za-z0-9_]*)(?:[,:][^}]*)?\}", sub, obj["@mt"])
    if message is None:
        return None
    when = next((obj[k] for k in ("@t", "Timestamp", "timestamp", "time", "@timestamp") if isinstance(obj.get(k), str)), None)
    level = next((obj[k] for k in ("@l", "Level", "level") if isinstance(obj.get(k), str)), "Information")
    return message, (_iso_time(when) if when else None), _LEVELS.get(level.lower())


@dataclass
class _Context:
    """What a Microsoft console header line (`info: Category[0]`) says about the message line after it."""

    time: str | None = None
    level: str | None = None
    pending: bool = False


def parse_line(line: str, *, file: str = "", line_no: int = 0, context: _Context | None = None) -> DaemonEvent | None:
    """One log line → an event, or None for a line without a marker. Raises _Malformed for a marker line
    that cannot be read."""
    ctx = context or _Context()
    text = line.rstrip("\r\n")
    time = level = None
    stripped = text.strip()
    if stripped.startswith("{") and ("curation_" in stripped or "memory_" in stripped):
        parsed = _json_line(stripped)
        if parsed is None:
            return None
        text, time, level = parsed
    m = _MARKER_RE.search(text)
    if m is None or (m.group(1).startswith("memory_") and m.group(1) not in TEMPLATE_KEYS):
        header = _CONSOLE_HEADER_RE.match(text)
        if header:
            ctx.time, ctx.level, ctx.pending = _iso_time(header.group("pre")), _LEVELS[header.group(2)], True
        elif ctx.pending and text.strip():
            ctx.pending = False
        return None
    prefix = text[: m.start()]
    if "=" in prefix:  # the marker is a value inside some other message
        return None
    marker = m.group(1)
    if time is None:
        time = _iso_time(prefix)
        level = _level(prefix)
        if ctx.pending and not prefix.strip():
            time, level = time or ctx.time, level or ctx.level
    ctx.pending = False
    fields, note = parse_fields(marker, text[m.end():])
    return DaemonEvent(time, marker, _anchor(fields), _document_ids(fields), fields, line_no, file,
                       level or memgui_markers.TEMPLATES.get(marker, (None,))[0], note)


# ---- files ---------------------------------------------------------------------------------------------


def _lines(fh: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """(line, complete) with at most MAX_LINE_BYTES kept; an overlong line is drained and flagged."""
    while True:
        chunk = fh.readline(MAX_LINE_BYTES)
        if not chunk:
            return
        if len(chunk) == MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            while True:  # drain the rest of the overlong line without keeping it
                more = fh.readline(MAX_LINE_BYTES)
                if not more or more.endswith(b"\n"):
                    break
            yield chunk, False
        else:
            yield chunk, True


def sort_key(e: DaemonEvent) -> str:
    if e.time and e.time.endswith("+00:00"):
        return e.time[:-6] + ("" if "." in e.time else ".000000")
    if e.time and len(e.time) > 19 and e.time[-6] in "+-":
        try:
            return datetime.fromisoformat(e.time).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")
        except ValueError:
            return e.time
    return e.time or ""


def parse_daemon_logs_work(paths: Sequence[str | os.PathLike[str]], *, cancel: CancelToken | None = None,
                           max_samples: int = 20) -> Work[DaemonTimeline]:
    """Read the given files and folders; yields Progress(Step.READING_LOGS, bytes done, bytes total) and returns
    a DaemonTimeline ordered by time (lines without a time keep their place after timed ones of their file)."""
    cancel = cancel or NEVER_CANCELLED
    files = find_daemon_logs(paths)
    sizes = {}
    for f in files:
        try:
            sizes[f] = f.stat().st_size
        except OSError:
            sizes[f] = 0
    total = sum(sizes.values())
    tally = _Tally(max_samples)
    unreadable: list[str] = []
    read_files = 0
    yield Progress(Step.READING_LOGS, 0, total or None, f"{len(files)} file(s)")
    for file_index, path in enumerate(files):
        cancel.raise_if_cancelled()
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed by `_read_log`'s `with fh:`; an unreadable file is skipped
        except OSError as exc:
            unreadable.append(f"{path}: {exc.strerror or exc}")
            continue
        read_files += 1
        yield from _read_log(fh, path, file_index, tally, cancel, total)
    cancel.raise_if_cancelled()
    events = sorted(tally.events, key=lambda ke: (ke[0], ke[1], ke[2].line_no))
    stats = DaemonLogStats(read_files, tally.lines, tally.parsed, tally.malformed, tuple(unreadable),
                           tuple(tally.samples))
    yield Progress(Step.READING_LOGS, total, total or None, f"{tally.parsed} event(s)")
    return DaemonTimeline(tuple(e for _k, _f, e in events), stats, tuple(str(f) for f in files))


@dataclass
class _Tally:
    """What reading the logs has found so far: bytes and lines read, events (with their sort key and file), lines
    that were malformed and samples of why."""
    max_samples: int
    done: int = 0
    lines: int = 0
    parsed: int = 0
    malformed: int = 0
    samples: list[str] = field(default_factory=list)
    events: list[tuple[str, int, DaemonEvent]] = field(default_factory=list)


def _read_log(fh: BinaryIO, path: Path, file_index: int, tally: _Tally, cancel: CancelToken, total: int) -> Work[None]:
    """Reads one log file (and closes it) into `tally`, yielding Progress every PROGRESS_EVERY_LINES lines."""
    ctx = _Context()
    last_key = ""  # an event without a time sorts where the previous timed line of its file did
    with fh:
        for line_no, (raw, complete) in enumerate(_lines(fh), start=1):
            tally.lines += 1
            tally.done += len(raw)
            if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if not any(h in raw for h in _MARKER_HINTS):  # most lines: no marker, maybe a console header
                if any(h in raw for h in _HEADER_HINTS):
                    parse_line(raw.decode("utf-8", errors="replace"), context=ctx)
                elif ctx.pending and raw.strip():
                    ctx.pending = False
            else:
                event = _read_marked_line(raw, complete, path, line_no, ctx, tally)
                if event is not None:
                    tally.parsed += 1
                    last_key = sort_key(event) or last_key
                    tally.events.append((last_key, file_index, event))
            if tally.lines % PROGRESS_EVERY_LINES == 0:
                cancel.raise_if_cancelled()
                yield Progress(Step.READING_LOGS, tally.done, total or None, path.name)


def _read_marked_line(raw: bytes, complete: bool, path: Path, line_no: int, ctx: _Context,
                      tally: _Tally) -> DaemonEvent | None:
    """The event of a line that holds a marker; None (counted, and sampled) when it is malformed."""
    text = raw.decode("utf-8", errors="replace")
    try:
        if not complete and _MARKER_RE.search(text):
            raise _Malformed(f"line longer than {MAX_LINE_BYTES} bytes")
        return parse_line(text, file=str(path), line_no=line_no, context=ctx) if complete else None
    except _Malformed as why:
        tally.malformed += 1
        if len(tally.samples) < tally.max_samples:
            tally.samples.append(f"{path.name}:{line_no}: {why}")
        return None


def parse_daemon_logs(paths: Sequence[str | os.PathLike[str]], *, cancel: CancelToken | None = None) -> DaemonTimeline:
    return run_to_end(parse_daemon_logs_work(paths, cancel=cancel))


__all__ = [
    "EMPTY_TIMELINE",
    "LOG_GLOB",
    "TEMPLATE_KEYS",
    "DaemonEvent",
    "DaemonLogError",
    "DaemonLogStats",
    "DaemonTimeline",
    "default_log_dirs",
    "find_daemon_logs",
    "parse_daemon_logs",
    "parse_daemon_logs_work",
    "parse_fields",
    "parse_line",
]
