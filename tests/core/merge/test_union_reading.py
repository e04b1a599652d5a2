"""The union reads each note once (union_reading.py): a sentence's or clause's tokens and facts taken from the scan
of its whole note are what reading the text alone gives, and the drafts are the same as when every text is read
alone. Fails when a speed-up (or a change of the lens's patterns the scan does not follow) changes an answer."""
from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings, strategies as st

from memgui.core.merge import strict, union as union_mod, union_reading
from memgui.core.merge.guard import extract_tokens
from memgui.core.merge.union import _clauses, sentence_union, split_units
from memgui.core.merge.union_reading import Reader
from text_fuzz import PIECES, WORDS, random_text

SENTENCES = (
    "Atlas rotates the backups every 37 days.", "The port of staging-4 is 5432.", "Meeting with Mira at 02:30 on Friday.",
    "Release 1.2.3 shipped on 2025-06-11, with the keys.", "- The pool: 40 GB at /srv/a12", "Ana prefers tea; Ben does not.",
    "Dr. Okafor (Director) — Tuesdays, 9:15 pm.", "No sugar, never before 14 August, 2025.", "Port:5432, then 10:30: x",
    "€1,150/month (see https://x.org/a, b), 600 requests per minute;", "Jan. 5, 2026 and e.g. Mira. Next",
    "1) Grace runs it: 2 December", "Mira, Ben and Ana (QA) sign off", "Terminal: fish, shell: zsh.",
)
PIECE = st.one_of(st.sampled_from(SENTENCES), st.sampled_from(PIECES), st.sampled_from(WORDS),
                  st.sampled_from([" ", "\n", ", ", "; ", ": ", " (", ") ", ". ", "\n\n", "\t", ",5", ":", ",€40", "/", "-"]))
NOTE = st.lists(PIECE, max_size=30).map("".join)


def _texts(note: str, reader: Reader) -> list[tuple[str, int]]:
    """Every sentence and clause the union would ask about, with where it stands in the note."""
    out = []
    for unit in split_units(note):
        if unit.at < 0:
            continue
        out.append((unit.text, unit.at))
        for clause in _clauses(unit.text, reader):
            out.append((clause.text, unit.at + clause.at))
    return out


def _located(note: str) -> Reader:
    reader = Reader()
    reader.note(note).spans_pay = True
    return reader


@settings(max_examples=300, deadline=None)
@given(NOTE)
@example("Port 5432: open, at 10:30: now")
@example("Dr.\nOkafor (Mira) and Ben; Ana")
@example("see http://x.org/a,b (c) 5,5 GB")
def test_a_span_of_a_note_reads_as_the_text_alone(note):
    reader = _located(note)
    reading = reader.note(note)
    for text, at in _texts(note, Reader()):
        assert note.startswith(text, at)
        got = reading.span(at, at + len(text))
        if got is not None:
            assert got == (tuple(extract_tokens(text)), tuple(strict.facts(text))), text


_EDGES = " \t\n\r();,:.-/"


@settings(max_examples=300, deadline=None)
@given(NOTE, st.data())
@example("a,5 GB a,€5 x", None)
def test_any_clean_span_reads_as_the_text_alone(note, data):
    reading = _located(note).note(note)
    # spans that start or end next to punctuation or white space: where a look-around would see past them
    starts = [0, *(i for i in range(1, len(note)) if note[i - 1] in _EDGES)]
    ends = [len(note), *(i for i in range(len(note)) if note[i] in _EDGES)]
    spans = [(a, b) for a in starts for b in ends if a < b]
    for start, end in (spans if data is None else data.draw(st.lists(st.sampled_from(spans), max_size=12)) if spans else []):
        got = reading.span(start, end)
        if got is not None:
            text = note[start:end]
            assert got == (tuple(extract_tokens(text)), tuple(strict.facts(text))), text


@settings(max_examples=200, deadline=None)
@given(NOTE)
def test_the_whole_note_reads_as_the_lens_reads_it(note):
    scanned = _located(note)
    scanned.note(note).span(0, len(note))  # the note indexed for spans: its whole facts come from the scan
    assert scanned.whole_facts(note) == tuple(strict.facts(note))
    assert Reader().whole_facts(note) == tuple(strict.facts(note))


@settings(max_examples=300, deadline=None)
@given(NOTE)
@example("Release on 2025-06-11 and June 11, 2025; 11 June 2025, 2 December and Dec 2nd")
def test_the_dates_of_a_text_read_alone_are_those_of_its_full_reading(text):
    calendar, day_months = Reader().dates(text)
    assert calendar == tuple(item for item in extract_tokens(text) if item[1] in {"iso_date", "written_date", "reverse_date"})
    assert day_months == tuple(token for token, kind in strict.facts(text) if kind == "day_month")


def _alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text read alone, as before the union read each note once."""
    monkeypatch.setattr(union_reading.Reader, "_from_note", lambda self, text: None)


def _cases() -> list[tuple[str, list[str]]]:
    rng = random.Random(26)
    cases = []
    for _ in range(40):
        parts = [" ".join(rng.choice(SENTENCES) for _ in range(rng.randint(1, 30))) for _ in range(rng.randint(2, 3))]
        cases.append((parts[0], parts[1:]))
    for _ in range(40):
        cases.append((random_text(rng, 12), [random_text(rng, 20) + " " + " ".join(rng.sample(SENTENCES, 5))]))
    return cases


def test_the_drafts_are_those_of_reading_every_text_alone(monkeypatch):
    cases = _cases()
    assert union_mod._SPANS_PAY  # the cases' notes are mostly new sentences: read from their scan
    once = [sentence_union(primary, others) for primary, others in cases]
    _alone(monkeypatch)
    assert [sentence_union(primary, others) for primary, others in cases] == once


def _missing_as_before(sources: list[str | None], merged: str) -> tuple[str, ...]:
    """The final check's strict-lens tokens as the union computed them before it read each note once: every
    source's facts standing whole in it, then those the body lacks."""
    wanted: dict[str, str] = {}
    for source in sources:
        facts: dict[str, str] = {}
        for token, _ in strict.facts(source or ""):
            facts.setdefault(strict.normalise_text(token), token)
        whole = {key for key in facts if key and strict.contains_whole(strict.normalise_text(source or ""), key)}
        wanted.update((key, token) for key, token in facts.items() if key in whole and key not in wanted)
    body = strict.normalise_text(merged)
    return tuple(token for key, token in wanted.items() if not strict.contains_whole(body, key))


@settings(max_examples=300, deadline=None)
@given(st.lists(NOTE, min_size=1, max_size=3), st.lists(st.integers(0, 2), max_size=6), NOTE)
@example(["v5.4.20 and 14 August", "No sugar. Mira at 02:30"], [1], "v5.4.20 14 August")
@example(["Mira at 02:30", "Mira at 02:30"], [0, 1], "")
def test_the_final_check_misses_what_it_missed_before(sources, picks, extra):
    # bodies that start with the primary (as the union's do), keep some sources whole, or drop them
    merged = "\n\n".join([sources[0], *(sources[p] for p in picks if p < len(sources)), extra])
    for body in (merged, extra, sources[0]):
        assert union_mod._strict_tokens_missing(list(sources), body, Reader()) == _missing_as_before(sources, body)


def test_a_note_with_a_match_too_long_to_pack_is_read_text_by_text(monkeypatch):
    monkeypatch.setattr(union_reading, "_LENGTH", 7)  # matches of 7 characters or more do not pack
    note = "Release 1.2.3 shipped on 2025-06-11, see https://x.org/a. Mira runs it."
    reading = _located(note).note(note)
    assert reading.span(0, 25) is None
    monkeypatch.setattr(reading, "_index", lambda: pytest.fail("the note is scanned again"))
    assert reading.span(26, 40) is None
    assert reading.whole_facts() == tuple(strict.facts(note))
    draft = sentence_union("Mira runs it.", [note])
    _alone(monkeypatch)
    assert sentence_union("Mira runs it.", [note]) == draft
