"""`memgui guard --source FILE [--source FILE …] --merged FILE [--json] [--strict]`: run MergeGuard on files.

Exit 0 when the merged body passes, 1 when it fails, 2 on bad input (missing file, not UTF-8).
`-` reads that body from standard input. Plain `guard` exits on Netclaw's MergeGuard verdict; memgui's fact
lens (facts the guard cannot see, in both directions) is reported beside it (`"strict"` in the JSON: each fact
at risk with its direction — dropped, added, changed — kind, source and body spans, and what the lens
equated). `--strict` also exits 1 when the lens finds a fact at risk, for scripts that gate on it.
"""
from __future__ import annotations

import argparse

from ..core.merge.align import Alignment, Fate, judge
from ..core.merge.facts.report import Direction
from ..core.merge.guard import MergeGuardReport, check_merge
from ..core.merge.strict import AtRisk, StrictReport
from ..core.netfx import LENGTH_COLLAPSE_THRESHOLD, RETENTION_THRESHOLD
from .common import EXIT_NEGATIVE, EXIT_OK, print_json, print_text, read_text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "guard",
        help="check that a merged body keeps every load-bearing token of its sources (MergeGuard)",
        description="Exit 0 when the merged body passes MergeGuard, 1 when it fails, 2 on bad input.",
    )
    p.add_argument("--source", action="append", required=True, metavar="FILE", help="a source body (repeatable)")
    p.add_argument("--merged", required=True, metavar="FILE", help="the merged body to check ('-' = stdin)")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when memgui's fact lens finds a fact dropped, added or changed (as well as when "
                        "MergeGuard fails)")
    p.set_defaults(func=run)


def read_body(name: str) -> str:
    """A UTF-8 text file (a leading BOM is dropped; line endings kept), or stdin for '-'."""
    return read_text(name, "a body (UTF-8 text)")


def format_report(report: MergeGuardReport, strict: StrictReport, proof: Alignment | None = None) -> str:
    lines = [
        f"{'PASS' if report.passed else 'FAIL'}: {report.reason}",
        f"retention:    {report.retention:.1%} (floor {RETENTION_THRESHOLD:.0%})",
        f"length ratio: {report.length_ratio:.1%} (floor {LENGTH_COLLAPSE_THRESHOLD:.0%})",
        f"tokens:       {len(report.tokens)} load-bearing, {len(report.missing)} missing",
    ]
    for token in report.tokens:
        if not token.retained:
            sources = ",".join(str(i + 1) for i in token.sources)
            lines.append(f"  missing  {token.kind:<17} {token.token}   (source {sources})")
    lines.append(f"strict lens:  {'clean' if strict.passed else f'{len(strict.at_risk)} facts at risk'}"
                 f" ({strict.checked} facts checked; memgui's check, beside Netclaw's verdict)")
    for risk in strict.at_risk:
        where = f"source {','.join(str(i + 1) for i in risk.sources)}" if risk.sources else "body"
        lines.append(f"  {risk.direction:<8} {risk.kind:<17} {_shown(risk)}   ({where})")
    for same in strict.equated[:MAX_EQUATED_SHOWN]:
        lines.append(f"  equated  {same.rule:<17} {same.source} = {same.body}")
    if proof is not None:
        lines += format_proof(proof)
    return "\n".join(lines)


def format_proof(proof: Alignment) -> list[str]:
    """memgui's verdict (proved / loss / read) and the fate of every source sentence that is not kept."""
    counts = {fate: len(proof.fates(fate)) for fate in Fate}
    lines = [f"verdict:      {proof.verdict.value} ({', '.join(f'{n} {f.value}' for f, n in counts.items() if n)}; "
             "memgui's check, beside Netclaw's verdict)"]
    for s in proof.sentences:
        if s.fate is Fate.KEPT:
            continue
        where = ",".join(str(b + 1) for b in s.body) or "-"
        lines.append(f"  {s.fate.value:<8} source {s.source + 1} sentence {s.index + 1} → body {where}: {s.text[:70]}")
        if s.fate in (Fate.READ, Fate.LOST) and s.why:
            lines.append(f"           {s.why}" + (f" [{', '.join(s.rules)}]" if s.rules else ""))
    for b in proof.body:
        if b.added:
            lines.append(f"  added    body sentence {b.index + 1}: {', '.join(b.added[:8])}")
    return lines


MAX_EQUATED_SHOWN = 12


def _shown(risk: AtRisk) -> str:
    if risk.direction is Direction.CHANGED and risk.body_token:
        return f"{risk.token} → {risk.body_token}"
    return str(risk.body_token if risk.direction is Direction.ADDED and risk.body_token else risk.token)


def run(args: argparse.Namespace) -> int:
    sources = [read_body(name) for name in args.source]
    merged = read_body(args.merged)
    report = check_merge(sources, merged)
    strict, proof = judge(sources, merged)
    if args.json:
        print_json({**report.to_dict(), "strict": strict.to_dict(), "verdict": proof.verdict.value,
                    "sentences": [s.to_dict() for s in proof.sentences],
                    "body_sentences": [b.to_dict() for b in proof.body]})
    else:
        print_text(format_report(report, strict, proof))
    if getattr(args, "strict", False) and not strict.passed:
        return EXIT_NEGATIVE
    return EXIT_OK if report.passed else EXIT_NEGATIVE
