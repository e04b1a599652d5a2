"""core/merge/diff.py: word-level spans that cover both texts, whitespace-insensitive, cancellable."""
import pytest
from hypothesis import given, settings, strategies as st

from memgui.core.merge.diff import DELETE, EQUAL, INSERT, REPLACE, word_diff, word_diff_work
from memgui.core.tasks import Cancelled, CancelToken, Progress


def _check_cover(a, b, diff):
    assert "".join(s.a_text for s in diff.spans) == a
    assert "".join(s.b_text for s in diff.spans) == b
    a_pos = b_pos = 0
    for span in diff.spans:
        assert (span.a_start, span.b_start) == (a_pos, b_pos)
        assert a[span.a_start:span.a_end] == span.a_text
        assert b[span.b_start:span.b_end] == span.b_text
        a_pos, b_pos = span.a_end, span.b_end
    assert (a_pos, b_pos) == (len(a), len(b))


def test_changed_version_is_one_replace_and_rest_equal():
    a = "The deploy uses Postgres 14.2 on host db-01. Backups run nightly."
    b = "The deploy uses Postgres 15.1 on host db-01. Backups run nightly."
    diff = word_diff(a, b)
    _check_cover(a, b, diff)
    changed = diff.changed_spans()
    assert [(s.op, s.a_text, s.b_text) for s in changed] == [(REPLACE, "14.2", "15.1")]
    assert diff.inserted_words == 1 and diff.deleted_words == 1


def test_insert_and_delete_words():
    diff = word_diff("Backups run nightly at 02:00.", "Backups run at 02:00 UTC.")
    ops = [(s.op, s.a_text.strip(), s.b_text.strip()) for s in diff.changed_spans()]
    assert (DELETE, "nightly", "") in ops
    assert (INSERT, "", "UTC") in ops


def test_adjacent_word_changes_read_as_one_replacement():
    diff = word_diff("keep a b c keep", "keep x y z keep")
    assert [(s.op, s.a_text, s.b_text) for s in diff.changed_spans()] == [(REPLACE, "a b c", "x y z")]


def test_reflowed_whitespace_is_not_a_change():
    a = "One sentence here.\nAnother  one\nwrapped."
    b = "One sentence here. Another one wrapped."
    diff = word_diff(a, b)
    _check_cover(a, b, diff)
    assert diff.identical


def test_new_sentence_appended_is_an_insert():
    a = "Alpha is first."
    b = "Alpha is first. Beta was added later."
    diff = word_diff(a, b)
    _check_cover(a, b, diff)
    assert [s.op for s in diff.changed_spans()] == [INSERT]
    assert "Beta was added later." in diff.changed_spans()[0].b_text


def test_empty_inputs():
    assert word_diff("", "").spans == ()
    only_insert = word_diff("", "abc")
    assert [(s.op, s.b_text) for s in only_insert.spans] == [(INSERT, "abc")]
    only_delete = word_diff("abc", "")
    assert [(s.op, s.a_text) for s in only_delete.spans] == [(DELETE, "abc")]


def test_urls_and_paths_stay_single_tokens():
    a = "See https://example.com/a/b?x=1 and src/app/main.py for details."
    b = "See https://example.com/a/c?x=1 and src/app/main.py for details."
    changed = word_diff(a, b).changed_spans()
    assert len(changed) == 1 and changed[0].a_text.startswith("https://")


def test_generator_yields_progress_and_cancel_stops_it():
    a = " ".join(f"Sentence number {i} says fact {i}." for i in range(300))
    b = " ".join(f"Sentence number {i} says fact {i * 7}." for i in range(300))
    work = word_diff_work(a, b)
    first = next(work)
    assert isinstance(first, Progress) and first.stage == "diffing" and first.total and first.total > 1
    token = CancelToken()
    work = word_diff_work(a, b, cancel=token)
    next(work)
    next(work)
    token.cancel()
    with pytest.raises(Cancelled):
        for _ in work:
            pass


def test_big_input_is_complete_and_covers_both_texts():
    a = "\n".join(f"Line {i}: the service db-{i:03d} listens on port {8000 + i}." for i in range(2000))
    b = a.replace("port 8500", "port 9500").replace("db-1000", "db-1000b")
    diff = word_diff(a, b)
    _check_cover(a, b, diff)
    changed = diff.changed_spans()
    assert {(s.a_text, s.b_text) for s in changed} == {("8500", "9500"), ("db-1000", "db-1000b")}


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200), st.text(max_size=200))
def test_spans_always_cover_both_texts(a, b):
    diff = word_diff(a, b)
    _check_cover(a, b, diff)
    for span in diff.spans:
        if span.op == EQUAL:
            assert " ".join(span.a_text.split()) == " ".join(span.b_text.split())


def test_big_blocks_are_aligned_at_unique_anchors_not_reported_as_one_replace():
    words = [f"w{i}" for i in range(4000)]  # one 4,000-word "sentence": far above the difflib budget
    a = " ".join(words)
    b = " ".join(words[:1000] + ["CHANGED"] + words[1001:])
    diff = word_diff(a, b)
    assert [(s.a_text, s.b_text) for s in diff.changed_spans()] == [("w1000", "CHANGED")]


def test_repeated_lines_still_find_the_one_change():
    line = "The pool size is 20 and the port is 5432.\n"
    a = line * 800
    b = line * 400 + line.replace("5432", "5433") + line * 399
    changed = [(s.a_text, s.b_text) for s in word_diff(a, b).changed_spans()]
    assert changed == [("5432", "5433")]
