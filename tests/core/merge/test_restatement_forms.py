"""How a note restates another in its own form (core/merge/restatement.py, sentences.py, facts/values.py): twins, each
a near-extractive merge that leaves out a sentence restated in another form (proved) and the same merge where that
form changes a fact (never proved). Without the mechanism the first of a twin stays `read`; without its limit the
second is proved."""
from __future__ import annotations

import pytest

from memgui.core.merge.align import Verdict, judge

TWINS = [
    # a note's sentence may leave out whom it is about: a pronoun is implied where the body names no one else
    ("Her bandoneon is a 1938 Alfred Arnold with 142 voices.", "Bandoneon: 1938 Alfred Arnold, 142 voices.",
     "Dad's bandoneon: 1938 Alfred Arnold, 142 voices."),
    ("My rate is NOK 1,450 per tuning.", "Rate: NOK 1,450 per tuning.", "His rate: NOK 1,450 per tuning."),
    ("She tunes the Steinway on Mondays.", "Tunes the Steinway on Mondays.", "Bev tunes the Steinway on Mondays."),
    # one clause said as consecutive clauses, each said whole; a clause only part of which answers binds otherwise
    ("The bandoneon is a 1938 Alfred Arnold with 142 voices.", "Bandoneon: 1938 Alfred Arnold, 142 voices.",
     "Bandoneon: 1938 Alfred Arnold reeds, 142 voices."),
    # an approximation said by a word or by `~`; a bare number is no approximation
    ("Rapid rating about 1740.", "Rapid rating ~1740.", "Rapid rating 1740."),
    ("Ferments around 22°C.", "Ferments at ~22 °C.", "Ferments at 22 °C."),
    # a weekday's recurrence: `every Tuesday` = `Tuesdays`, an abbreviation does not say; every second one is not
    ("Rehearsal every Tuesday at 7pm.", "Rehearsal Tuesdays at 7pm.", "Rehearsal every second Tuesday at 7pm."),
    ("Training Wednesdays at 4:30pm.", "Training Wed 4:30pm.", "Training Wednesday at 4:30pm."),
    # a currency written without its country is one of a family; another family, or another country, is not
    ("Sail quote is $4,800.", "Sail quote is AUD 4,800.", "Sail quote is EUR 4,800."),
    ("Rent is 16 800 kr a month.", "Rent is NOK 16,800 a month.", "Rent is NOK 16,300 a month."),
    # a web address without its scheme is the same address
    ("Charts are at github.com/mketterer/derwent-charts.", "Charts are at https://github.com/mketterer/derwent-charts.",
     "Charts are at https://github.com/mketterer/derwent-chart."),
    # `to` between two values is a range's word, said by a dash too; the values keep their order
    ("Ferments 10 to 12 days.", "Ferments 10–12 days.", "Ferments 12–10 days."),
    ("Rehearsals 7:30 to 9:30pm.", "Rehearsals 7:30–9:30pm.", "Rehearsals 7:30–10:30pm."),
]


@pytest.mark.parametrize(("left_out", "kept", "changed"), TWINS, ids=[t[0] for t in TWINS])
def test_a_restatement_in_another_form_is_proved_and_its_changed_twin_is_not(left_out: str, kept: str,
                                                                             changed: str) -> None:
    extra = "Next service is booked for 14 Nov 2025."
    _, proof = judge([kept, f"{left_out} {extra}"], f"{kept} {extra}")
    assert proof.verdict is Verdict.PROVED, proof.reasons
    _, twin = judge([changed, f"{left_out} {extra}"], f"{changed} {extra}")
    assert twin.verdict is not Verdict.PROVED, twin.reasons


def test_a_country_written_is_not_stated_by_a_bare_sign() -> None:
    """The family goes one way: the source's `AUD` is not stated by the body's `$`."""
    _, proof = judge(["Quote is $4,800.", "Quote is AUD 4,800."], "Quote is $4,800.")
    assert proof.verdict is not Verdict.PROVED


def test_or_is_owed() -> None:
    """`or` and `and` state different conditions (`above 39°C or lasts 3 days`)."""
    source = "Call the doctor if the fever goes above 39°C or lasts more than 3 days."
    _, proof = judge([source], source.replace(" or ", " and "))
    assert proof.verdict is not Verdict.PROVED
    _, same = judge([source], source.replace("Call the doctor", "Call the doctor,"))
    assert same.verdict is Verdict.PROVED


def test_space_grouped_digits_are_one_amount_only_before_a_currency() -> None:
    from memgui.core.merge.sentences import TokenClass, tokens
    amounts = [t.keys for t in tokens("Rent is 16 800 kr a month.") if t.cls is TokenClass.VALUE]
    assert any("16800" in k for keys in amounts for k in keys)
    kids = [t.text for t in tokens("Kids aged 7 800 metres away.") if t.cls is TokenClass.VALUE]
    assert "7" in kids


QUALIFIED = [
    ("Ana has a key to the shed.", "Ana might have a key to the shed."),  # a modal
    ("Uses zsh as the login shell.", "No longer uses zsh as the login shell."),  # a negation before it, word for word
    ("The pool opens at 7am.", "The pool usually opens at 7am."),  # a frequency
]


@pytest.mark.parametrize(("fact", "qualified"), QUALIFIED, ids=[q[1] for q in QUALIFIED])
def test_another_notes_qualified_sentence_does_not_restate_the_plain_fact(fact: str, qualified: str) -> None:
    """A body that keeps only the other note's qualified sentence drops the plain fact, even though every body
    sentence is a source's, word for word; with the plain fact's own sentence kept it is proved."""
    _, dropped = judge([fact, qualified], qualified)
    assert dropped.verdict is not Verdict.PROVED, dropped.reasons
    _, both = judge([fact, qualified], f"{fact} {qualified}")
    assert both.verdict is Verdict.PROVED, both.reasons


MONEY_FORMS = [
    # thousands grouped by dots beside a currency; a bare number keeps its dot as a decimal point
    ("Rent is CLP 340,000 a month.", "Rent is CLP 340.000 a month.", "Rent is CLP 340 a month."),
    # an ISO code written after or before an amount, by pycountry's table
    ("Dues are 60k CLP each March.", "Dues are CLP 60,000 each March.", "Dues are CLP 6,000 each March."),
    # `$` is a sign of pesos as well as dollars
    ("The plan costs $12,990 a month.", "The plan costs CLP 12.990 a month.", "The plan costs EUR 12.990 a month."),
]


@pytest.mark.parametrize(("left_out", "kept", "changed"), MONEY_FORMS, ids=[t[0] for t in MONEY_FORMS])
def test_an_amount_in_another_locale_is_proved_and_another_amount_is_not(left_out: str, kept: str, changed: str) -> None:
    _, proof = judge([kept, left_out], kept)
    assert proof.verdict is Verdict.PROVED, proof.reasons
    _, twin = judge([changed, left_out], changed)
    assert twin.verdict is not Verdict.PROVED, twin.reasons


def test_words_that_are_no_currency_or_unit_stay_words() -> None:
    from memgui.core.merge.sentences import TokenClass, tokens
    for text in ("TOP 10 songs", "ALL 3 kids came", "Top up 10 at a time"):
        keys = [k for t in tokens(text) if t.cls is TokenClass.VALUE for k in t.keys]
        assert not any(k.startswith(("money:", "q:")) for k in keys), (text, keys)
    assert [t.text for t in tokens("version 1.000 released") if t.cls is TokenClass.VALUE] == ["1.000"]
    assert any(k == "n:1" for t in tokens("version 1.000 released") for k in t.keys)


def test_a_sentence_not_read_is_never_held_inside_another() -> None:
    """A sentence the tokenizer cannot read (a lone surrogate) has no tokens: the word-for-word check inside a
    longer sentence reads nothing and fails nothing (the fuzz test found an index past the end)."""
    from memgui.core.merge.restatement import qualified_before
    assert qualified_before([], []) is False
    _, proof = judge(["0\ud800"], "0\ud8000")
    assert proof.verdict is not Verdict.PROVED


def test_a_month_name_leaves_the_full_stop_to_its_sentence_and_a_recurring_due_is_no_deadline() -> None:
    """`each October.`: the value is `October` (an abbreviation keeps its dot: `Aug.`); `due every October` is a
    schedule, `due 30 May` a deadline (`by 30 May`)."""
    from memgui.core.merge.facts.values import values
    from memgui.core.merge.sentences import TokenClass, tokens
    assert [t.text for t in tokens("Inspection each October.") if t.cls is TokenClass.VALUE] == ["October"]
    assert [t.text for t in tokens("Brumates May–Aug.") if t.cls is TokenClass.VALUE][-1] == "Aug."
    assert [sorted(v.keys) for v in values("Inspection due every October.")] == [["month:10"]]
    assert all(k.startswith("<=") for v in values("Report due 30 May.") for k in v.keys)
    _, proof = judge(["Revisión técnica due every October.", "Needs its inspection each October."],
                     "Revisión técnica due every October.")
    assert proof.verdict is not Verdict.PROVED  # `needs`, `inspection`: a person reads the pair
