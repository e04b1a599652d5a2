"""core/merge/read_pairs.py: the alignment as rows a person reads (read first, differing words marked), kept-back
sentences beside what they were compared with, and confirmed restatements counted in the verdict."""
from __future__ import annotations

from memgui.core.merge.align import Fate, Verdict, judge
from memgui.core.merge.keep_draft import prove_or_keep
from memgui.core.merge.read_pairs import (
    DIFFERS,
    OWED,
    ConfirmedRestatement,
    confirmed_alignment,
    fate_counts,
    kept_back_alignment,
    pair_rows,
    word_marks,
)

SOURCES = ["Ana bought a car. She lives in Porto.", "Ana purchased a new car. Her flat is in Porto."]


def test_a_read_pair_marks_the_words_that_differ_and_what_the_proof_misses():
    _, alignment = judge(["Ana bought a car."], "Ana purchased a bike.")
    (row,) = pair_rows(alignment)
    assert row.fate is Fate.READ and row.confirmable
    assert row.source_text.marked_words(OWED) == ["car"] and row.source_text.marked_words(DIFFERS) == ["bought"]
    assert row.body_text.marked_words(OWED) == ["bike"] and row.body_text.marked_words(DIFFERS) == ["purchased"]
    assert "Ana" not in row.source_text.marked_words()


def test_words_only_moved_are_not_marked():
    source, body = word_marks("In Porto Ana lives.", "Ana lives in Porto.")
    assert source.marks == () and body.marks == ()


def test_read_rows_come_first_and_kept_rows_last():
    sources = ["Ana bought a car.", "The office opens at 9."]
    _, alignment = judge(sources, "The office opens at 9. Ana purchased a bike.")
    rows = pair_rows(alignment)
    assert [r.fate for r in rows] == [Fate.READ, Fate.KEPT]


def test_kept_back_sentences_sit_beside_the_sentence_they_were_compared_with():
    draft = prove_or_keep(SOURCES, primary=0)
    _, alignment = judge(SOURCES, draft.body)
    assert alignment.verdict is Verdict.PROVED  # kept back word for word: proved
    rows = pair_rows(alignment, draft.kept_back, before_kept_back=kept_back_alignment(SOURCES, 0))
    first = rows[0]
    assert (first.source, first.index, first.fate) == (1, 0, Fate.READ) and first.confirmable
    assert first.kept_back and first.body_text.text == "Ana bought a car."
    assert [r.fate for r in rows[2:]] == [Fate.KEPT, Fate.KEPT]


def test_a_confirmed_pair_counts_as_restated_and_the_union_drops_it():
    draft = prove_or_keep(SOURCES, confirmed=frozenset({(1, 0)}), primary=0)
    assert "purchased" not in draft.body
    _, alignment = judge(SOURCES, draft.body)
    confirmed = confirmed_alignment(alignment, {(1, 0)})
    fate = next(f for f in confirmed.sentences if (f.source, f.index) == (1, 0))
    assert fate.fate is Fate.RESTATED
    rows = pair_rows(alignment, draft.kept_back, {(1, 0)}, kept_back_alignment(SOURCES, 0))
    assert next(r for r in rows if r.key == (1, 0)).confirmed
    assert fate_counts(confirmed)[Fate.RESTATED] == 1


def test_confirming_every_read_pair_proves_the_merge_but_never_a_loss():
    _, alignment = judge(["Ana bought a car."], "Ana purchased a bike.")
    assert alignment.verdict is Verdict.READ
    assert confirmed_alignment(alignment, {(0, 0)}).verdict is Verdict.PROVED
    _, lossy = judge(["The invoice is 1200 EUR."], "The invoice is 1300 EUR.")
    if lossy.verdict is Verdict.LOSS:
        assert confirmed_alignment(lossy, {(0, 0)}).verdict is Verdict.LOSS


def test_a_confirmation_says_what_was_confirmed():
    c = ConfirmedRestatement("doc-1", 0, "Ana purchased a new car.", ("Ana bought a car.",))
    assert c.to_dict() == {"document_id": "doc-1", "sentence": 0, "text": "Ana purchased a new car.",
                           "body": ["Ana bought a car."]}
