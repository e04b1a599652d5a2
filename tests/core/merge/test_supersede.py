"""Supersede (issue 38): the order of notes, the dated-series veto, the draft in Netclaw's "previously … as of"
form, and the check of any superseding body."""
from __future__ import annotations

import datetime as dt

import pytest

from memgui.core.merge.guard import check_merge
from memgui.core.merge.supersede import (
    TimedNote,
    changed_amount,
    check_supersession,
    history_phrase,
    order_of,
    replaced_value,
    series_of,
    split_history,
    supersede_draft,
)


def ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


NOW = ms("2026-12-07T00:00:00Z")
SOFA_ORDERED = TimedNote("Ordered the KIVIK sofa from IKEA on 3 March 2025; delivery expected in 2–3 weeks. "
                         "It is the grey one.", ms("2025-03-04T09:00:00Z"))
SOFA_ARRIVED = TimedNote("The KIVIK sofa arrived on 18 March 2025.", ms("2025-03-18T17:00:00Z"))
OLD_ADDRESS = TimedNote("Mira lives at 12 Rua Augusta, Lisbon. She works at Fernhill.", ms("2024-05-01T09:00:00Z"))
NEW_ADDRESS = TimedNote("Mira lives at 40 Rua do Ouro, Lisbon.", ms("2025-06-01T09:00:00Z"))


# ---- order --------------------------------------------------------------------------------------------------


def test_the_order_comes_from_freshness_not_from_the_list() -> None:
    order = order_of([SOFA_ARRIVED, SOFA_ORDERED], NOW)
    assert order.ordered and order.oldest_first == (1, 0) and order.newest == 0


def test_a_note_without_freshness_is_timed_by_the_latest_day_it_states() -> None:
    undated = TimedNote("The KIVIK sofa arrived on 18 March 2025.", None)
    assert order_of([undated, SOFA_ORDERED], NOW).oldest_first == (1, 0)


@pytest.mark.parametrize(("notes", "doubt"), [
    ([TimedNote("Ana's phone is 0612.", None), TimedNote("Ana's phone is 0799.", None)], "no time stamp"),
    ([SOFA_ORDERED, TimedNote("The sofa arrived.", ms("2031-01-01T00:00:00Z"))], "future"),
    ([TimedNote("Gate code 4411.", ms("2025-03-04T09:00:00Z")),
      TimedNote("Gate code 7720.", ms("2025-03-04T09:03:00Z"))], "within minutes"),
    ([TimedNote("Boiler serviced on 20 May 2025 by Engie.", ms("2025-05-21T08:00:00Z")),
      TimedNote("Boiler service booked for next month.", ms("2025-04-02T08:00:00Z") - 40 * 86_400_000)], None),
])
def test_doubt_is_a_reason_never_a_guess(notes: list[TimedNote], doubt: str | None) -> None:
    order = order_of(notes, NOW)
    if doubt is None:  # a plausible order: the booking note is older than the service it books
        assert order.ordered and order.newest == 0
    else:
        assert not order.ordered and doubt in order.doubt


def test_a_newer_note_that_speaks_of_a_time_before_the_older_notes_past_is_doubted() -> None:
    older = TimedNote("The car was serviced on 20 May 2025.", ms("2025-05-21T08:00:00Z"))
    newer = TimedNote("The car service is booked for 12 May 2025.", ms("2025-06-02T08:00:00Z"))
    assert "before an event" in order_of([older, newer], NOW).doubt
    later = TimedNote("The car service on 20 May 2025 cost €180.", ms("2025-06-02T08:00:00Z"))
    assert order_of([older, later], NOW).ordered


def test_each_note_newer_on_a_different_value_is_doubted_whatever_the_values_class() -> None:
    """The older note dates a change (an e-mail address: a value without a digit) that the newer note repeats undated,
    while dating a change of its own: each is newer on something."""
    older = TimedNote("Support e-mail moved to help@acme.io on 2025-02-14. Office phone: 555-0100.",
                      ms("2025-02-15T12:00:00Z"))
    newer = TimedNote("Office phone changed to 555-0199 on 2025-02-20. Support e-mail: info@acme.io.",
                      ms("2025-02-20T16:00:00Z"))
    assert "each note is newer on a different value" in order_of([older, newer], NOW).doubt


@pytest.mark.parametrize(("older", "newer"), [
    ("Tom's contact: moved to 5 Quay Street, Bristol last week; mobile 07700 900111.",
     "Tom's contact: new mobile 07700 900222; address still 12 Hill Road, Bristol."),  # a name said to persist
    ("The club says the rack fee rises to 55 EUR for 2025.", "Club 2025: rack fee 40 EUR, unchanged."),  # a bare one
])
def test_a_newer_note_that_says_a_contradicted_value_persists_is_doubted(older: str, newer: str) -> None:
    """The newer note does not replace the older value: it says another one still holds. Twins: a persisting value
    the older note also states (`charges unchanged at €95`) is no disagreement, and without the persistence the
    newer value replaces the older."""
    notes = [TimedNote(older, ms("2025-02-10T10:00:00Z")), TimedNote(newer, ms("2025-03-01T10:00:00Z"))]
    assert "the newer says a value still holds" in order_of(notes, NOW).doubt
    plain = [notes[0], TimedNote(newer.replace("still ", "").replace(", unchanged", ""), notes[1].freshness_ms)]
    assert order_of(plain, NOW).ordered


def test_a_persisting_value_both_notes_state_does_not_doubt_the_change_beside_it() -> None:
    notes = [TimedNote("Rent: €1,180/month\nCharges: €95/month", ms("2025-01-10T10:00:00Z")),
             TimedNote("Rent revised on 1 September 2025: now €1,214/month, charges unchanged at €95.",
                       ms("2025-09-02T10:00:00Z"))]
    assert order_of(notes, NOW).ordered


# ---- dated series -------------------------------------------------------------------------------------------


def test_two_dated_observations_are_a_series() -> None:
    shots = [TimedNote("Flu shot on 2024-10-03 at CVS, left arm.", ms("2024-10-03T19:00:00Z")),
             TimedNote("Flu shot on 2025-10-10 at CVS, left arm.", ms("2025-10-10T19:00:00Z"))]
    assert "dated observations" in series_of(shots)
    releases = [TimedNote("atlas-sync v3.2.1 was released on 2025-09-02.", ms("2025-09-02T10:00:00Z")),
                TimedNote("atlas-sync v3.3.0 was released on 2025-11-14.", ms("2025-11-14T10:00:00Z"))]
    assert series_of(releases)


def test_one_action_done_twice_is_a_series_and_two_different_steps_are_not() -> None:
    """Two look-alike notes that each open with the same verb in the past tense record one thing done twice (a
    refill, a payment): the newer never replaces the older. Another action, or a plan, is no such record."""
    swaps = [TimedNote("Swapped the 13 kg butane bottle at the Galp shop — €32.", ms("2024-01-09T18:00:00Z")),
             TimedNote("Swapped the 13 kg butane bottle — €34 this time.", ms("2024-03-18T18:00:00Z"))]
    assert "one action done twice" in series_of(swaps)
    steps = [TimedNote("Ordered the 13 kg butane bottle at the Galp shop — €32.", ms("2024-01-09T18:00:00Z")),
             TimedNote("Collected the 13 kg butane bottle — €34 this time.", ms("2024-03-18T18:00:00Z"))]
    assert series_of(steps) == ""
    plans = [TimedNote("If we get separated, meet at the pharmacy in arrivals.", ms("2024-01-09T18:00:00Z")),
             TimedNote("If we get separated, meet at the taxi rank exit.", ms("2024-03-18T18:00:00Z"))]
    assert series_of(plans) == ""


def test_a_living_value_that_changed_is_no_series() -> None:
    assert series_of([OLD_ADDRESS, NEW_ADDRESS]) == ""
    assert series_of([SOFA_ORDERED, SOFA_ARRIVED]) == ""


# ---- the draft ----------------------------------------------------------------------------------------------


def test_the_newest_state_comes_first_and_the_older_is_dated_history() -> None:
    notes = [SOFA_ORDERED, SOFA_ARRIVED]
    draft = supersede_draft(notes, order_of(notes, NOW), stale=lambda note, sentence: "grey" not in sentence)
    assert draft.body.startswith("The KIVIK sofa arrived on 18 March 2025.")
    present, phrases = split_history(draft.body)
    assert any("delivery expected in 2–3 weeks" in old and day == "2025-03-04" for old, day in phrases)
    assert "expected" not in present  # the stale plan is no present claim
    assert "It is the grey one." in present  # what the reader says the newer note does not touch stays as written
    assert check_merge([n.body for n in notes], draft.body).passed  # Netclaw's MergeGuard holds too
    assert check_supersession(notes, draft.order, draft.body).passed


def test_a_changed_value_is_kept_inline_after_the_sentence_that_replaces_it() -> None:
    notes = [NEW_ADDRESS, OLD_ADDRESS]
    draft = supersede_draft(notes, order_of(notes, NOW), stale=lambda note, sentence: False)
    assert draft.body.splitlines()[0] == ("Mira lives at 40 Rua do Ouro, Lisbon. (previously: Mira lives at 12 Rua "
                                          "Augusta, Lisbon, as of 2024-05-01)")
    assert draft.body.splitlines()[1] == "She works at Fernhill."
    assert [(h.note, h.index) for h in draft.history] == [(1, 0)]


def test_without_a_reader_an_untouched_older_statement_is_dated_history_not_a_present_claim() -> None:
    """Nobody read whether the newer note makes it stale: `previously …, as of DATE` is true of it either way."""
    notes = [SOFA_ORDERED, SOFA_ARRIVED]
    draft = supersede_draft(notes, order_of(notes, NOW))
    present, phrases = split_history(draft.body)
    assert "grey" not in present and ("It is the grey one", "2025-03-04") in phrases


def test_what_the_newer_note_restates_leaves_the_draft() -> None:
    older = TimedNote("The router's admin page is http://192.168.1.1. The Wi-Fi password is Tulip-4491.",
                      ms("2025-01-05T10:00:00Z"))
    newer = TimedNote("The router's admin page is http://192.168.1.1. The Wi-Fi password is Heron-7702.",
                      ms("2025-04-05T10:00:00Z"))
    notes = [older, newer]
    draft = supersede_draft(notes, order_of(notes, NOW))
    assert draft.body.count("http://192.168.1.1") == 1 and draft.dropped == ((0, 0),)
    assert "(previously: The Wi-Fi password is Tulip-4491, as of 2025-01-05)" in draft.body


def test_a_chain_keeps_every_older_state_with_its_own_day() -> None:
    notes = [TimedNote("Quote for the hull repaint: CAD$ 4,200 from Dartmouth Marine.", ms("2025-02-01T12:00:00Z")),
             TimedNote("Hull repaint paid in full: CAD$ 4,350 to Dartmouth Marine.", ms("2025-05-02T12:00:00Z")),
             TimedNote("Hull repaint invoiced by Dartmouth Marine: CAD$ 4,350.", ms("2025-04-10T12:00:00Z"))]
    order = order_of(notes, NOW)
    assert order.oldest_first == (0, 2, 1)
    draft = supersede_draft(notes, order)
    _, phrases = split_history(draft.body)
    assert {day for _, day in phrases} == {"2025-02-01", "2025-04-10"}
    assert check_supersession(notes, order, draft.body).passed


def test_a_history_phrase_already_in_a_note_is_not_nested_twice() -> None:
    phrase = "Dr. Lam is the GP (previously: Dr. Okafor, as of 2023-02-01)."
    assert history_phrase(phrase, "2024-01-01") == phrase
    notes = [TimedNote(phrase, ms("2024-01-01T09:00:00Z")),
             TimedNote("Dr. Ruiz is the GP.", ms("2025-03-01T09:00:00Z"))]
    draft = supersede_draft(notes, order_of(notes, NOW))
    assert draft.body.lower().count("previously") == 1 + 0  # the older note's own phrase, kept once
    assert draft.body.count("Dr. Okafor") == 1


def test_the_draft_refuses_notes_it_cannot_order() -> None:
    notes = [TimedNote("Gate code 4411.", None), TimedNote("Gate code 7720.", None)]
    with pytest.raises(ValueError, match="cannot be ordered"):
        supersede_draft(notes, order_of(notes, NOW))


# ---- the check ----------------------------------------------------------------------------------------------


def test_the_notes_run_together_leave_the_stale_state_as_a_present_claim() -> None:
    notes = [OLD_ADDRESS, NEW_ADDRESS]
    order = order_of(notes, NOW)
    check = check_supersession(notes, order, NEW_ADDRESS.body + "\n" + OLD_ADDRESS.body)
    assert [(f.index, f.problem) for f in check.findings] == [(0, "left as a present claim")]


def test_an_older_value_dropped_or_misdated_is_named() -> None:
    notes = [OLD_ADDRESS, NEW_ADDRESS]
    order = order_of(notes, NOW)
    dropped = check_supersession(notes, order, "Mira lives at 40 Rua do Ouro, Lisbon. She works at Fernhill.")
    assert [(f.index, f.problem) for f in dropped.findings] == [(0, "dropped")]
    misdated = check_supersession(notes, order, "Mira lives at 40 Rua do Ouro, Lisbon. (previously: Mira lives at "
                                                "12 Rua Augusta, Lisbon, as of 2025-06-01) She works at Fernhill.")
    assert [(f.index, f.problem) for f in misdated.findings] == [(0, "history without its date")]


def test_the_newest_state_must_be_kept_as_present() -> None:
    notes = [OLD_ADDRESS, NEW_ADDRESS]
    order = order_of(notes, NOW)
    body = ("(previously: Mira lives at 40 Rua do Ouro, Lisbon, as of 2025-06-01) (previously: Mira lives at "
            "12 Rua Augusta, Lisbon, as of 2024-05-01) She works at Fernhill.")
    assert [f.problem for f in check_supersession(notes, order, body).findings] == ["newest state not kept"]


# ---- what the newest note replaces ----------------------------------------------------------------------------


def _replaced(older: str, newer: str) -> str:
    notes = [TimedNote(older, ms("2024-06-01T09:00:00Z")), TimedNote(newer, ms("2025-06-01T09:00:00Z"))]
    return replaced_value(notes, order_of(notes, NOW))


@pytest.mark.parametrize(("older", "newer"), [
    ("The flat's rent is €1,100 a month, paid on the 5th.", "The flat's rent is €1,180 a month, paid on the 5th."),
    ("Dr. Ames sees us on Tuesday 3 March at the Leith clinic.", "Dr. Ames sees us on Tuesday 14 April at the Leith clinic."),
    ("The backup server's address is 10.0.4.21.", "The backup server's address is 10.0.4.37."),
    ("Tapioca eats 250 g of kibble twice a day.", "The vet cut Tapioca's food to 200 g twice a day."),  # 0.2 vs 0.25
    ("Maths is in Room 12 this term.", "Maths moved to Room 14 this term."),  # a bare number under the same word
])
def test_a_value_of_one_kind_contradicted_is_a_replacement(older: str, newer: str) -> None:
    assert _replaced(older, newer) == older


@pytest.mark.parametrize(("older", "newer"), [
    ("The policy renews on 2 February.", "The policy's renewal is in early February."),  # looser, same month
    ("Membership costs £110.", "Membership costs £110 a year."),  # the amount and its rate
    ("The rent is €1,100 a month.", "The rent is €1,100 a month; the landlord is Ms Duval."),  # restated, one added
    ("The rent is €1,100 a month.", "The boiler was serviced for €95."),  # another fact, no aligned value
    ("Studio: Clayground, Unit 4, Mill Lane.", "Clayground studio: shelf B7, fob no. 0412."),  # numbers of two things
])
def test_a_looser_spelling_a_rate_or_another_fact_is_no_replacement(older: str, newer: str) -> None:
    assert _replaced(older, newer) == ""


@pytest.mark.parametrize(("older", "newer"), [
    ("Biscuit is followed by Dr. Morel at the Brotteaux clinic.", "Biscuit is followed by Dr. Perrin at the Brotteaux clinic."),
    ("Spare keys are with our neighbour Mme Roux.", "Spare keys are now with Émilie Moreau."),
])
def test_another_name_in_its_place_is_a_replacement(older: str, newer: str) -> None:
    assert _replaced(older, newer) == older


@pytest.mark.parametrize(("older", "newer"), [
    # a fuller spelling of the same name
    ("Biscuit is followed by Dr. Morel at the Brotteaux clinic.", "Biscuit is followed by Dr. Anne Morel at the Brotteaux clinic."),
    ("Spare keys are with our neighbour Mme Roux.", "Our neighbour Mme Roux keeps the spare keys."),  # restated
])
def test_a_fuller_spelling_of_the_name_or_the_same_name_is_no_replacement(older: str, newer: str) -> None:
    assert _replaced(older, newer) == ""


@pytest.mark.parametrize(("older", "newer", "amount"), [
    ("Parking: space 42 in the underground lot, €85/month, badge 0042.",
     "Since 1 Feb 2026 the car is parked in box 12 at 20 rue Chaponnay (rented from M. Lenoir, €110/month).",
     "€85/month"),
    ("The rent is €1,100 a month.", "Rent €1,100/month, paid by transfer on the 5th.", ""),  # restated
    ("The desk is 140 cm wide.", "The desk (140 cm) is from the office sale; we paid €60.", ""),  # another measure
])
def test_an_amount_stated_another_value_anywhere_in_the_newest_note_is_looser_evidence(older, newer, amount) -> None:
    notes = [TimedNote(older, ms("2024-06-01T09:00:00Z")), TimedNote(newer, ms("2026-02-01T09:00:00Z"))]
    assert changed_amount(notes, order_of(notes, NOW)) == amount
