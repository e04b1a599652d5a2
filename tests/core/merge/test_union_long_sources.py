"""Sources that bring more than `LEAN_UP_TO` characters of new sentences are not leaned clause by clause: every
sentence not literally in the draft yet is kept whole, in source order, once, and the draft is still checked
(issue 26 item 5: the union at 1 MB in under a second; docs/benchmarks.md). Under the limit the cover leans as
before."""
from __future__ import annotations

import memgui.core.merge.union as union_mod
from memgui.core.merge.guard import check_merge
from memgui.core.merge.union import LEAN_UP_TO, sentence_union

PRIMARY = "The staging server listens on port 5432. Mira owns the staging server."
OTHERS = ["The staging server listens on port 5432, and backups run nightly at 02:00.",
          "Mira owns the staging server; the pager rota lists Ben as her deputy."]


def test_under_the_limit_a_clause_the_draft_holds_is_left_out():
    merged = sentence_union(PRIMARY, OTHERS)
    assert "backups run nightly at 02:00" in merged and "Ben as her deputy" in merged
    assert merged.count("port 5432") == 1  # the restated clause is not added again


def test_past_the_limit_every_new_sentence_is_kept_whole(monkeypatch):
    monkeypatch.setattr(union_mod, "LEAN_UP_TO", 40)
    merged = sentence_union(PRIMARY, OTHERS)
    assert merged == PRIMARY + "\n\n" + "\n\n".join(OTHERS)


def _long_note(tag: str, count: int) -> str:
    return " ".join(f"The {tag} job {i} runs at {i % 24:02d}:{i % 60:02d} on host-{i}, as the runbook says."
                    for i in range(count))


def test_a_long_merge_keeps_each_new_sentence_whole_once_and_passes_the_guard():
    primary = "Backups of host-1 run at 01:01. " + _long_note("primary", 20)
    other = _long_note("backup", 1100)  # about 74 KB of new sentences
    repeated = other.split(". ")[5] + "."
    others = [other, f"{repeated} The archive lives at /srv/archive."]
    assert len(other) > LEAN_UP_TO
    merged = sentence_union(primary, others)
    assert merged.startswith(primary)
    assert merged.count(", as the runbook says.") == 1120  # no clause leaned away, though the draft restates it
    assert merged.count(repeated) == 1  # a sentence already there is not added twice
    assert merged.endswith("The archive lives at /srv/archive.")
    assert check_merge([primary, *others], merged).passed
