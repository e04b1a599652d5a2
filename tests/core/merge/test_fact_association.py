"""Crossed associations (memgui/core/merge/facts/association.py): two facts that trade partners between the
sources and the body are caught even when every token survives, across notes too; a merge that recombines
clauses but keeps each fact with its own subject is not."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memgui.core.merge.strict import check_strict


def _bindings(sources: list[str], body: str) -> list[str]:
    report = check_strict(sources, body)
    return [item.why for item in report.at_risk if item.kind == "binding"]


@pytest.mark.parametrize("sources, body", [
    # values swapped between two subjects that came from two different notes
    (["The blue queue drains at 40 jobs per minute.", "The green queue drains at 90 jobs per minute."],
     "Queues drain at 90 jobs per minute for blue and at 40 jobs per minute for green."),
    (["Ana's locker is number 14.", "Ben's locker is number 27."], "Ana's locker is number 27 and Ben's is number 14."),
    (["Piano: Wednesdays, with Mrs Lund.", "Swimming: Fridays, with coach Diaz."],
     "Piano is on Fridays with Mrs Lund; swimming is on Wednesdays with coach Diaz."),
    # weekdays swapped between two bullets of one note
    (["- piano Wed 4pm\n- swimming Fri 6pm"], "- piano Fri 4pm\n- swimming Wed 6pm"),
    # two roles traded between two people
    (["Ines chairs the committee and Tomasz is the treasurer."], "The committee's treasurer is Ines, chair Tomasz."),
    # a word and its derivation say whose the fact is (`cardiologist` / `cardiology`), plurals it does not know
    (["Dr Okonjo is Ma's cardiologist; Dr Abara is her neurologist."],
     "Ma sees Dr Abara for cardiology and Dr Okonjo for neurology."),
    (["Canary builds deploy from trunk; hotfix builds deploy from staging."],
     "Hotfixes deploy from trunk, while canary builds deploy from staging."),
    # half a cross across notes: the words around each value are shared, but one value moved next to the word
    # only the other was said with
    (["Parking on site is £4 for all visitors except blue badge holders.", "Visitors with a permit pay £2."],
     "Parking on site is £2 for all visitors except blue badge holders. Visitors with a permit pay £4."),
    # identifiers swapped between hosts
    (["Host alder-3 runs zookeeper; host birch-7 runs etcd."], "Host alder-3 runs etcd; host birch-7 runs zookeeper."),
])
def test_a_crossed_pair_is_a_changed_binding(sources: list[str], body: str) -> None:
    report = check_strict(sources, body)
    assert not report.passed
    bindings = [item for item in report.at_risk if item.kind in ("binding", "word_order")]
    assert bindings and {item.direction for item in bindings} == {"changed"}
    # one cross is one fact at risk, however many of its words could tell it
    assert len([item for item in bindings if "was said of" in item.why]) <= 1


@pytest.mark.parametrize("sources, body", [
    # recombined from two notes, each value still with its own subject
    (["The blue queue drains at 40 jobs per minute.", "The green queue drains at 90 jobs per minute."],
     "The blue queue drains at 40 jobs per minute and the green one at 90 jobs per minute."),
    # a list reordered: its items are no one's partner
    (["We use ansible, terraform and packer on the build hosts."],
     "We use packer, terraform and ansible on the build hosts."),
    # bullets written as prose, each day kept with its lesson
    (["- piano Wed 4pm\n- swimming Fri 6pm"], "Piano is on Wednesday at 4pm and swimming on Friday at 6pm."),
])
def test_a_recombination_that_keeps_each_binding_is_not_crossed(sources: list[str], body: str) -> None:
    assert not [why for why in _bindings(sources, body) if "was said of" in why]



def test_a_crossed_pair_is_told_the_same_way_on_every_run() -> None:
    """Sets iterate in hash order: which of a cross's words the report names must not depend on the hash seed."""
    code = ("from memgui.core.merge.strict import check_strict;"
            "r = check_strict(['Ingest pipeline: owned by Ravi; Mei is backup.'],"
            " 'Ingest pipeline: owned by Mei; Ravi is backup.');"
            "print([i.why for i in r.at_risk if i.kind == 'binding'])")
    told = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "2", "3", "4")}
    assert len(told) == 1, told
    assert "Ravi" in told.pop()  # and the cross is told at all
