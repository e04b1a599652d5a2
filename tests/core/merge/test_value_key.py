"""A value's key is written by the value readers and read back in one place (facts/value_types.ValueKey): what the
supersede reading, the lens's years and the word-order classes ask of a key, they ask of it, not of its spelling."""
import json
from pathlib import Path

import pytest

from memgui.core.merge.facts.value_types import KeyDate, KeyHead, ValueKey
from memgui.core.merge.facts.values import values
from memgui.core.merge.strict import _date_years
from memgui.core.merge.supersede import _contradicts, stated_days

DATA = Path(__file__).parents[2] / "data" / "facts"


@pytest.mark.parametrize(("key", "bound", "head", "date", "unit"), [
    ("date:2025-03-18", "", KeyHead.DATE, KeyDate(2025, 3, 18, True), ""),
    ("<=date:2024-11", "<=", KeyHead.DATE, KeyDate(2024, 11, None, True), ""),
    ("~date:????-05@mid", "~", KeyHead.DATE, KeyDate(None, 5, None, False), ""),
    ("q:meter ** 3:0.1", "", KeyHead.Q, None, "meter ** 3"),
    ("money:EUR:4.51", "", KeyHead.MONEY, None, ""),
])
def test_a_key_reads_as_its_bound_head_date_and_unit(key, bound, head, date, unit) -> None:
    read = ValueKey.read(key)
    assert read is not None and (read.bound, read.head, read.date, read.unit) == (bound, head, date, unit)


def test_a_key_of_no_known_head_reads_as_none() -> None:
    assert ValueKey.read("colour:red") is None and ValueKey.read("date") is None


def test_every_key_the_value_readers_write_reads_back() -> None:
    """The writers (f-strings across facts/) and the one reader agree: a new head must be named in KeyHead."""
    texts = [src for name in ("handwritten.json", "handwritten_blind21.json")
             for case in json.loads((DATA / name).read_text(encoding="utf-8"))["cases"]
             for src in [*case["sources"], case["body"]] if src]
    keys = {key for text in texts for value in values(text) for key in value.keys}
    assert len(keys) > 500 and {k for k in keys if ValueKey.read(k) is None} == set()
    assert {ValueKey.read(k).head for k in keys} >= {KeyHead.DATE, KeyHead.TIME, KeyHead.MONEY, KeyHead.Q}


def test_the_readers_outside_facts_read_dates_through_the_key() -> None:
    assert _date_years("Paid on 18/05/25 and again in May 2026.") == {"2025", "2026"}
    assert len(stated_days("Seen on 14 July.", year_hint=2026)) == 1 and stated_days("Seen on 14 July.") == []
    march, feb = frozenset({"date:2025-03-18"}), frozenset({"date:2025-02-02"})
    assert _contradicts(march, feb) and not _contradicts(feb, frozenset({"~date:????-02@early"}))
    assert not _contradicts(march, frozenset({"date:????-03"}))  # a day and its month, the year unsaid, agree


@pytest.mark.parametrize(("text", "bounded"), [
    ("The rack fee goes up to 55 EUR for 2025.", False),  # `go up to`: where the amount rises to
    ("Postage went up to £4.59 in April.", False),
    ("The cabin sleeps up to 6.", True),  # a most
    ("Refunds of up to £50.", True),
])
def test_up_to_after_go_is_the_new_level_not_a_most(text: str, bounded: bool) -> None:
    from memgui.core.merge.sentences import TokenClass, tokens

    keys = [k for t in tokens(text) if t.cls is TokenClass.VALUE for k in t.keys if not k.startswith("n:20")]
    assert keys and any(k.startswith("<=") for k in keys) is bounded
