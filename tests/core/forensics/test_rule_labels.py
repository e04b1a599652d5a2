"""This store's labels for the lens's rules: a restatement a person confirmed is a faithful case, and the rules that
fire on it are counted beside the corpus's figures (issue 36, item 9; `memgui rules`)."""
from __future__ import annotations

import json

from factories import seed_document
from memgui.__main__ import main
from memgui.core.forensics.rule_labels import confirmed_pairs, faithful_firings, rules_report
from memgui.core.merge.read_pairs import ConfirmedRestatement
from memgui.core.ops.apply import MergePlan, draft_stamps, merge_cluster

SOURCE = "Backups run every night at 02:00 and are kept for 30 days."
REWORDED = "Nightly backups at 2 am, kept at most a month."  # a person read it and said: the same fact


def _merge_with_a_confirmation(store):
    a = seed_document(store, "Backups", SOURCE, anchor="backups")
    b = seed_document(store, "Backups again", REWORDED, anchor="backups")
    ids = [a.document_id, b.document_id]
    confirmed = (ConfirmedRestatement(b.document_id, 0, REWORDED, (SOURCE,)),)
    return merge_cluster(store, MergePlan(a.document_id, tuple(ids), merged_body=SOURCE,
                                          drafted=draft_stamps(store, ids), confirmed=confirmed, guard_override=True))


def test_a_confirmed_restatement_is_a_faithful_label_for_every_rule_that_fires_on_it(empty_store):
    entry = _merge_with_a_confirmation(empty_store)
    [pair] = confirmed_pairs(empty_store)
    assert (pair.audit_id, pair.text, pair.body) == (entry.audit_id, REWORDED, SOURCE)
    fired = faithful_firings([pair])
    assert fired and all(n == 1 for n in fired.values())  # the lens flags the rewording: each rule a false alarm
    report = rules_report(empty_store)
    by_rule = {row["rule"]: row for row in report["rules"]}
    assert report["confirmed_pairs"] == 1
    assert all(by_rule[rule]["faithful_here"] == n for rule, n in fired.items())
    assert sum(row["faithful_here"] for row in report["rules"]) == sum(fired.values())


def test_a_store_without_confirmations_counts_none(empty_store):
    report = rules_report(empty_store)
    assert report["confirmed_pairs"] == 0 and report["rules"]
    assert all(row["faithful_here"] == 0 for row in report["rules"])
    assert any(row["grade"] == "loss" for row in report["rules"]) and any(row["grade"] == "read" for row in report["rules"])


def test_memgui_rules_prints_the_table_and_this_stores_labels(empty_store, capsys):
    _merge_with_a_confirmation(empty_store)
    path = empty_store.path
    assert main(["rules", "--store", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["confirmed_pairs"] == 1
    date_rule = next(row for row in report["rules"] if row["rule"] == "dropped.date")
    assert date_rule["grade"] == "loss" and date_rule["precision_check"] >= 0.9
    assert main(["rules", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert "dropped.date" in out and "1 restatement(s) confirmed" in out
