"""Rules earn their verdict (issue 36, item 5): `make bench` prints, for each rule id of the fact lens, its firings on
faithful and on lossy cases and its precision (`rule_grades.table()`: measured on the labelled corpus, the check
half being the latest blind sets written by other hands), and holds that every rule graded `loss` has a precision
≥ 0.9 on the check sets (and over all sets, as `rule_grades.grade` demands).

The table is the one stored in `rule_measured.py` (written by `python -m tests.fact_corpus.rule_precision --write`);
the lens changes under it, so the firings are also measured again here, on the same corpus and by the same command's
code (`check_strict` on every case, each rule once a case; ≈ 10 s on 2 cores), and the goal is held on both: the
rules graded `loss` must keep a check precision ≥ 0.9 as the lens reads now. Rules whose firings moved since the
table was written, and rules the table has never measured, are printed.
"""
from __future__ import annotations

from memgui.core.merge import rule_grades
from tests.fact_corpus.rule_precision import cases, measure, run


def _p(value: object) -> str:
    return "—" if value is None else f"{value:.2f}"


def test_rule_table_and_the_precision_of_loss_rules(goals) -> None:
    rows = rule_grades.table()
    assert rows, "no rule measured"
    header = ("rule", "faithful", "lossy", "faithful (check)", "lossy (check)", "precision (check)",
              "precision (all)", "grade")
    cells = [header, *((str(r["rule"]), str(r["faithful"]), str(r["lossy"]), str(r["faithful_check"]),
                        str(r["lossy_check"]), _p(r["precision_check"]), _p(r["precision_all"]), str(r["grade"]))
                       for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    print(f"\nrule precision ({len(rows)} rules; check sets {', '.join(rule_grades.CHECK_SETS)}; a rule says "
          f"`loss` with precision ≥ {rule_grades.MIN_PRECISION} and ≥ {rule_grades.MIN_CHECK_FIRINGS} firings there)")
    for n, c in enumerate(cells):
        print("| " + " | ".join(c[i].ljust(widths[i]) for i in range(len(header))) + " |")
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    loss = [r for r in rows if r["grade"] == rule_grades.Grade.LOSS.value]
    weak = [r for r in loss if r["precision_check"] is None or r["precision_check"] < rule_grades.MIN_PRECISION
            or r["precision_all"] is None or r["precision_all"] < rule_grades.MIN_PRECISION]
    lowest = min((r["precision_check"] for r in loss if r["precision_check"] is not None), default=None)
    print(f"{len(loss)} rules graded loss, {len(rows) - len(loss)} read; the lowest check precision of a loss rule "
          f"{_p(lowest)}")
    goals.hold("rules graded loss with check precision < 0.9", "0",
               f"{len(weak)} of {len(loss)} (lowest {_p(lowest)})" + (f": {', '.join(str(r['rule']) for r in weak)}"
                                                                      if weak else ""), not weak)


def test_loss_rules_keep_their_precision_as_the_lens_reads_now(goals) -> None:
    now = measure(run(cases(), jobs=2))
    stored = rule_grades.MEASURED
    loss = [rule for rule in stored if rule_grades.grade(rule) is rule_grades.Grade.LOSS]
    weak, lowest = [], None
    for rule in loss:
        faithful_check, lossy_check, faithful_all, lossy_all = now.get(rule, (0, 0, 0, 0))
        check = lossy_check / (lossy_check + faithful_check) if lossy_check + faithful_check else None
        whole = lossy_all / (lossy_all + faithful_all) if lossy_all + faithful_all else None
        if check is not None:
            lowest = check if lowest is None else min(lowest, check)
        if (check is not None and check < rule_grades.MIN_PRECISION) or (
                whole is not None and whole < rule_grades.MIN_PRECISION):
            weak.append(f"{rule} {_p(check)}/{_p(whole)}")
    moved = sorted(rule for rule in set(stored) | set(now) if stored.get(rule) != now.get(rule))
    unmeasured = sorted(set(now) - set(stored))
    print(f"\nrule firings measured now: {len(now)} rules fired; {len(moved)} moved since the stored table"
          + (f" ({', '.join(f'{r} {stored.get(r)} → {now.get(r)}' for r in moved[:20])}"
             f"{', …' if len(moved) > 20 else ''})" if moved else "")
          + (f"; never measured (graded read): {', '.join(unmeasured)}" if unmeasured else ""))
    goals.hold("rules graded loss with check precision < 0.9, measured now", "0",
               f"{len(weak)} of {len(loss)} (lowest {_p(lowest)})" + (f": {', '.join(weak)}" if weak else ""),
               not weak)
