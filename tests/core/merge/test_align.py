"""The alignment of source sentences to body sentences: fates and verdicts (issue 36, core/merge/align.py)."""
from __future__ import annotations

import pytest

from memgui.core.merge.align import Fate, Verdict, align
from memgui.core.merge.strict import check_strict


def judged(sources: list[str], body: str):  # the way guard and accept-safe judge: the lens's findings graded
    return align(sources, body, check_strict(sources, body).at_risk)


def test_a_note_kept_whole_and_the_others_restatement_left_out_is_proved() -> None:
    sources = ["The dentist appointment is on 14 March at 9:00. Bring the insurance card.",
               "Dentist appointment on March 14 at 9:00."]
    result = judged(sources, sources[0])
    assert result.verdict is Verdict.PROVED
    fates = {(s.source, s.index): s.fate for s in result.sentences}
    assert fates[(0, 0)] is Fate.KEPT and fates[(0, 1)] is Fate.KEPT
    assert fates[(1, 0)] is Fate.RESTATED
    assert result.sentences[-1].body == (0,)


def test_kept_is_up_to_case_spacing_and_punctuation() -> None:
    result = align(["Backups run nightly at 02:00."], "backups   run nightly at 02:00")
    assert result.sentences[0].fate is Fate.KEPT
    assert result.verdict is Verdict.PROVED


def test_a_main_sense_synonym_of_the_same_part_of_speech_restates() -> None:
    assert align(["Ana bought a car."], "Ana purchased an automobile.").verdict is Verdict.PROVED


@pytest.mark.parametrize(("source", "body"), [
    ("Ana is allergic to peanuts.", "Ana is allergic to sesame."),  # a sibling in its category
    ("Ana manages Ben.", "Ben manages Ana."),  # who does what to whom
    ("Only Karen can sign off expenses over £1,000.", "Karen can only sign off expenses over £1,000."),
    ("My daughters have piano lessons.", "My daughter has piano lessons."),  # grammatical number
    ("Renewed the car insurance with Aviva on 2 Feb.", "Renew the car insurance with Aviva on 2 Feb."),  # tense
    ("Keep react pinned to ~18.2.0 for now.", "Keep react pinned to ^18.2.0 for now."),  # an operator
    ("The guest password is Blue-Heron-42.", "The guest password is blue-heron-42."),  # case of a secret
    ("Piano lessons are on Mondays at 5pm.", "Piano lessons are on Monday at 5pm."),  # recurring made one-off
    ("Lena eats fish but avoids red meat.", "Lena does not eat fish and avoids red meat."),  # a second negation
    ("Dr Okafor prescribed azithromycin 500 mg.", "Dr Okafor prescribed azithro 500 mg."),  # a clipped name
    ("Priya is vegetarian and eats eggs.", "Priya is vegan and eats eggs."),
    ("Bring peanuts, raisins and dates.", "Bring raisins and dates."),  # a list item dropped
    ("The thermostat drops to 16 °C at night and goes up to 20 °C at 6:30.",
     "The thermostat drops to 20 °C at night and goes up to 16 °C at 6:30."),
])
def test_a_change_of_fact_is_never_proved(source: str, body: str) -> None:
    result = judged([source], body)
    assert result.verdict is not Verdict.PROVED
    assert result.sentences[0].fate in (Fate.READ, Fate.LOST)


@pytest.mark.parametrize(("source", "body"), [
    ("Each session lasts 40 minutes.", "Each session lasts 40 min."),
    ("She visits twice a year, usually in June.", "She visits every six months, usually in June."),
    ("Rent is £48 a year.", "Rent is £48/yr."),
])
def test_an_amount_written_another_way_restates_whatever_its_last_word(source: str, body: str) -> None:
    """The value's key holds the amount (how long, how often, how much): `min` for `minutes` is no change of
    grammatical number. Twins: the amount changed, or a day's name made one-off, is never proved."""
    assert judged([source], body).verdict is Verdict.PROVED
    changed = body.replace("40", "45").replace("six", "three").replace("48", "84")
    assert judged([source], changed).verdict is not Verdict.PROVED


@pytest.mark.parametrize(("source", "body"), [
    ("Elena takes 1000 IU of vitamin D every day from October to March.",
     "Elena takes 1,000 IU of vitamin D daily from October to March."),  # the comma of `1,000`
    ("The flight to Lisbon leaves on 14 July 2026 at 09:45 CET.",
     "The flight to Lisbon leaves on July 14, 2026 at 09:45 CET."),  # the comma of a date
    ("The machine is descaled monthly.", "The machine is descaled once a month."),  # `once` begins the value
])
def test_punctuation_or_a_conjunction_inside_a_value_does_not_end_a_clause(source: str, body: str) -> None:
    """A clause break inside a value is part of the value, so the restatement keeps its words in one clause.
    Twin: the same sentence with its amount changed is never proved."""
    assert judged([source], body).verdict is Verdict.PROVED
    changed = body.replace("1,000", "2,000").replace("July 14", "July 15").replace("month", "week")
    assert judged([source], changed).verdict is not Verdict.PROVED


def test_an_equative_may_name_its_sides_in_either_order() -> None:
    assert align(["Leila's pediatrician is Dr. Okonkwo."], "Dr. Okonkwo is Leila's pediatrician.").verdict \
        is Verdict.PROVED


@pytest.mark.parametrize(("source", "body"), [
    ("Ana is Ben's manager.", "Ben is Ana's manager."),  # each side a phrase kept whole: not `Ben … manager`
    ("Load 7731: Reno to Boise.", "Load 7731: Boise to Reno."),  # no equative: the order is the route
])
def test_sides_that_trade_their_words_are_not_an_equative_swapped(source: str, body: str) -> None:
    assert judged([source], body).verdict is not Verdict.PROVED


def test_a_body_sentence_that_adds_a_fact_makes_the_merge_unproved() -> None:
    result = align(["The boiler is serviced every May."], "The boiler is serviced every May. The code is 4471.")
    assert result.verdict is Verdict.READ
    assert result.body[1].added and not result.body[1].support


def test_a_dropped_date_named_by_a_rule_that_earned_it_is_a_loss() -> None:
    sources = ["Dentist on 14 March 2026 at 9:00. Bring the card."]
    result = judged(sources, "Dentist at 9:00. Bring the card.")
    assert result.verdict is Verdict.LOSS
    lost = result.fates(Fate.LOST)
    assert [s.index for s in lost] == [0] and "dropped.date" in lost[0].rules


def test_read_says_what_the_aligned_sentence_does_not_state() -> None:
    result = align(["Ana is allergic to peanuts."], "Ana is allergic to sesame.")
    sentence = result.sentences[0]
    assert sentence.fate is Fate.READ and sentence.missing == ("peanuts",)
    assert "peanuts" in sentence.why and result.body[0].added == ("sesame",)


def test_netclaws_append_separator_is_structure_not_an_addition() -> None:
    body = "Gate code is 4471.\n\n---\n_[merged 2026-05-01]_\nThe gate sticks in winter."
    result = align(["Gate code is 4471.", "The gate sticks in winter."], body)
    assert result.verdict is Verdict.PROVED


@pytest.mark.parametrize("body", ["", "   ", "\ud800 lone surrogate", "x " * 3000 + "."])
def test_bad_or_blank_bodies_get_a_verdict_never_proved(body: str) -> None:
    result = align(["The boiler is serviced every May."], body)
    assert result.verdict is not Verdict.PROVED


def test_a_sentence_too_long_to_read_is_read_never_proved() -> None:
    endless = "item " * 2000 + "done"
    result = align([endless], endless.replace("done", "gone"))
    assert result.sentences[0].fate is Fate.READ
    assert result.verdict is Verdict.READ
    assert "too long" in result.sentences[0].why


def test_to_dict_carries_verdict_sentences_and_their_body_indices() -> None:
    data = align(["A. Ana bought a car."], "A. Ana purchased an automobile.").to_dict()
    assert data["verdict"] == "proved"
    assert [(s["index"], s["fate"], s["body"]) for s in data["sentences"]] == [(0, "kept", [0]), (1, "restated", [1])]
