from memgui.core.merge.repeats import repeated_sentences


def test_a_sentence_stated_twice_is_flagged_once():
    body = ("Backups run nightly at 02:00 UTC. The replica is db-02.internal.\n\n"
            "Backups run nightly at 02:00 UTC.")
    assert repeated_sentences(body) == ["Backups run nightly at 02:00 UTC."]


def test_case_and_spacing_do_not_hide_a_repeat_and_short_lines_are_ignored():
    body = "Notes:\nThe  replica is db-02.internal.\nNotes:\nthe replica is db-02.internal"
    assert repeated_sentences(body) == ["The  replica is db-02.internal."]


def test_a_body_without_repeats_has_none():
    assert repeated_sentences("Postgres 14.2 on db-01. Port 5432.") == []
    assert repeated_sentences("") == []
