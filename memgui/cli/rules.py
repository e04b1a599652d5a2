"""`memgui rules [--store PATH] [--json]`: every fact-lens rule with its measured firings on faithful and lossy
merges of the labelled corpus, its precision (tune sets, check sets written by other hands, all) and its grade (only
a rule with precision ≥ 0.9 on cases it was not written for may say `loss`), and beside each, how often it fired on
a restatement a person confirmed in this store (core/forensics/rule_labels.py). Reads only; exit 0."""
from __future__ import annotations

import argparse
from typing import Any

from ..core.forensics.rule_labels import rules_report
from .common import EXIT_OK, open_store_or_fail, print_json, print_text, store_errors_as_cli_errors


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("rules", help="the fact lens's rules: measured precision, grade, this store's labels")
    p.add_argument("--store", default=argparse.SUPPRESS,
                   help="path to netclaw.db (default: located as Netclaw does, else the demo store)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _pct(value: Any) -> str:
    return "—" if value is None else f"{100 * float(value):.0f} %"


def format_rules(report: dict[str, Any]) -> str:
    lines = [f"{'rule':<28} {'faithful':>8} {'lossy':>6} {'check':>6} {'all':>6}  {'grade':<5} {'confirmed here':>14}"]
    for row in report["rules"]:
        lines.append(f"{row['rule']:<28} {row['faithful']:>8} {row['lossy']:>6} {_pct(row['precision_check']):>6} "
                     f"{_pct(row['precision_all']):>6}  {row['grade']:<5} {row['faithful_here']:>14}")
    lines.append(f"{report['confirmed_pairs']} restatement(s) confirmed in this store's merges; a rule that fired on "
                 "one fired on a case you called faithful")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    with store_errors_as_cli_errors(), open_store_or_fail(getattr(args, "store", None), read_only=True) as store:
        report = rules_report(store)
    if args.json:
        print_json(report)
    else:
        print_text(format_rules(report))
    return EXIT_OK
