"""The union's cover (union_cover.py): its indexes answer exactly what a scan of the whole draft would, and the
fact lens reads a clause against the draft's sentences that share its words, once."""
from __future__ import annotations

from hypothesis import assume, example, given, settings, strategies as st

from memgui.core.merge import union_cover
from memgui.core.merge.strict import contains_whole, normalise_text
from memgui.core.merge.union import sentence_union
from memgui.core.merge.union_cover import Cover, WholeText, whole_found

# texts dense in what `contains_whole` looks at: word runs, digits glued by "." and ",", underscores, spaces
PIECE = st.sampled_from(["5", "5.4", "4.20", "v5", "a", "ab", "_", ".", ",", " ", "-", "20 days", "ß", "\ud800", "x1"])
TEXT = st.lists(PIECE, max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT.map(normalise_text), max_size=5), TEXT.map(normalise_text))
@example(["v5.4.20"], "4.20")
@example(["5,5 and 5"], "5")
@example(["", "ab"], "b")
def test_the_word_index_answers_as_a_scan_of_the_whole_text(parts, needle):
    assume(needle)  # a fact is never empty
    index = WholeText()
    for part in parts:
        index.add(part)
    assert index.contains(needle) == contains_whole("\n" + "\n".join(parts), needle)


@settings(max_examples=300, deadline=None)
@given(st.sets(TEXT.map(normalise_text), max_size=12), TEXT)
@example({"4.20", "5.4.20", "v5.4.20"}, "v5.4.20 and 4.20")
def test_one_pass_finds_the_whole_needles_a_scan_would(needles, haystack):
    assert whole_found(set(needles), haystack) == {n for n in needles if n and contains_whole(haystack, n)}


def test_the_lens_reads_a_clause_against_the_sentences_sharing_its_words(monkeypatch):
    unrelated = " ".join(f"Item {i} ships on pallet {i + 100}." for i in range(200, 260))
    cover = Cover(unrelated + " Backups keep thirty days of snapshots.")
    bodies = []
    real = union_cover.check_facts
    monkeypatch.setattr(union_cover, "check_facts", lambda sources, body: bodies.append(body) or real(sources, body))
    assert not cover._lens_finds_new("Backups keep 30 days of snapshots")
    assert bodies == ["Backups keep thirty days of snapshots."]  # not the 60 sentences that share nothing


def test_a_clause_the_lens_found_nothing_new_in_is_not_read_again(monkeypatch):
    calls = []
    real = union_cover.check_facts
    monkeypatch.setattr(union_cover, "check_facts", lambda sources, body: calls.append(sources) or real(sources, body))
    other = " ".join(f"Backups keep thirty days of snapshots, per team {i}." for i in range(40))
    sentence_union("Backups: thirty days of snapshots are kept.", [other])
    asked = [c for c in calls if c == ["Backups keep thirty days of snapshots"]]
    assert len(asked) == 1  # forty sentences hold the clause: the lens read it once


def test_a_clause_the_lens_fails_on_is_kept(monkeypatch):
    def broken(sources, body):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(union_cover, "check_facts", broken)
    cover = Cover("Mira runs the cluster.")
    assert cover._lens_finds_new("Mira runs the cluster every 0 days")
