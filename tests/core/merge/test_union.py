"""The sentence-union draft: keeps the primary verbatim, adds only new sentences, always passes MergeGuard."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings, strategies as st

from memgui.core.merge.guard import check_merge
from memgui.core.merge.strict import check_strict
from memgui.core.merge.union import normalise_sentence, sentence_union, split_units

PRIMARY = """Atlas 2.14.3 was deployed on 2024-03-18. See https://docs.example.com/atlas/deploy-v2 for the runbook.
The metrics port is 9464.

- Ticket: OPS-4471
- Owner: priya@example.com
"""

OTHER = """the metrics  port is 9464! Atlas 2.14.3 was deployed on 2024-03-18
Rollback to 2.13.9 needs --dry-run first. WAL replay takes 30 seconds.

* Ticket: OPS-4471
* Channel: #atlas-sync. Ask there first.

```
atlas deploy --dry-run
The metrics port is 9464.
```
"""


def test_primary_is_kept_verbatim_and_only_new_sentences_are_added_in_order():
    union = sentence_union(PRIMARY, [OTHER])
    assert union.startswith(PRIMARY)
    added = union[len(PRIMARY):]
    assert added == (
        "\nRollback to 2.13.9 needs --dry-run first. WAL replay takes 30 seconds.\n"
        "\n"
        "* Channel: #atlas-sync. Ask there first.\n"
        "\n"
        "```\natlas deploy --dry-run\nThe metrics port is 9464.\n```"
    )
    assert check_merge([PRIMARY, OTHER], union).passed


def test_duplicates_differing_in_case_spacing_markers_and_end_punctuation_are_not_repeated():
    union = sentence_union("The pool size is 20.", ["THE POOL   SIZE IS 20!", "- the pool size is 20", "The pool size is 20"])
    assert union == "The pool size is 20."


def test_a_sentence_repeated_across_other_sources_is_added_once():
    union = sentence_union("Alpha.", ["Beta is new. Alpha.", "beta is new"])
    assert union == "Alpha.\n\nBeta is new."


def test_markdown_lines_stay_whole_and_sentences_of_prose_are_split():
    units = [u.text for u in split_units("One. Two!\n- a bullet. With two sentences\n# Heading. Still one\n| a | b. |")]
    assert units == ["One.", "Two!", "- a bullet. With two sentences", "# Heading. Still one", "| a | b. |"]
    assert [u.text for u in split_units("See Jan. 5, 2026 and e.g. this. Next")] == [
        "See Jan. 5, 2026 and e.g. this.", "Next"]


def test_fenced_code_block_is_one_unit_even_unclosed():
    units = [u.text for u in split_units("Text.\n```py\nx = 1\n\ny = 2\n```\nAfter.")]
    assert units == ["Text.", "```py\nx = 1\n\ny = 2\n```", "After."]
    assert [u.text for u in split_units("~~~\nopen")] == ["~~~\nopen"]


def test_normalised_key():
    assert normalise_sentence("  - The  Port is 80!! ") == normalise_sentence("the port is 80") == "THE PORT IS 80"
    assert normalise_sentence("1. Step one:") == "STEP ONE"
    assert normalise_sentence("...") == ""


def test_non_primary_source_much_longer_than_primary():
    primary = "Short note about 5433."
    long_other = " ".join(f"Fact number {i} is value-{i}." for i in range(200)) + " Short note about 5433."
    union = sentence_union(primary, [long_other])
    report = check_merge([primary, long_other], union)
    assert report.passed and report.missing == ()
    assert union.count("Short note about 5433") == 1
    assert report.length_ratio >= 0.99


def test_token_split_across_a_sentence_boundary_survives():
    # "Jan.  5, 2026" differs only in white space from the primary's sentences, which are "already
    # present" - but the token (with two spaces) must still be in the draft.
    primary = "Shipped Jan. 5, 2026 to prod."
    other = "Shipped Jan.  5, 2026 to prod."
    union = sentence_union(primary, [other])
    report = check_merge([primary, other], union)
    assert report.passed and report.missing == ()
    assert "Jan.  5, 2026" in union


def test_degenerate_sources_fall_back_to_appending_verbatim():
    repeated = "A. " * 40
    union = sentence_union("x", [repeated])
    assert check_merge(["x", repeated], union).passed
    assert union == "x\n\n" + repeated
    blank_longest = " " * 50
    assert check_merge(["a", blank_longest], sentence_union("a", [blank_longest])).passed


def test_empty_primary_and_empty_others():
    assert sentence_union("", ["One. Two."]) == "One. Two."
    assert sentence_union(None, []) == ""
    assert sentence_union("Keep me.", [None, "", "keep me"]) == "Keep me."
    assert sentence_union("ends with newline\n", ["New one."]) == "ends with newline\n\nNew one."


# ── Properties ───────────────────────────────────────────────────────────────────────────────────

any_text = st.text(st.characters(exclude_categories=()), max_size=200)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_text, st.lists(st.one_of(st.none(), any_text), max_size=4))
def test_union_of_arbitrary_text_always_passes_the_guard(primary, others):
    union = sentence_union(primary, others)
    assert union.startswith(primary)
    report = check_merge([primary, *others], union)
    assert report.passed, report.reason
    assert report.missing == ()


SENTENCES = st.sampled_from([
    "The pool size is 20.", "the pool size is 20!", "Deploy v2.14.3 on 2024-03-18.", "See https://x.org/a/b.",
    "Port 9464 is open.", "- Ticket OPS-4471", "* ticket OPS-4471", "Jan. 5, 2026 was the date.",
    "Config lives in deploy/staging/db.yaml.", "maxOutputTokens is 4096.", "1. First step: run it",
    "```\ncode 1.2.3\n```", "# Heading", "", "\n", "Short.", "Version 1.5.62, not 1.5.60.",
])
DOC = st.lists(SENTENCES, max_size=8).map(lambda parts: " ".join(parts))
DOC_LINES = st.lists(SENTENCES, max_size=8).map(lambda parts: "\n".join(parts))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(DOC, DOC_LINES), st.lists(st.one_of(DOC, DOC_LINES), max_size=4))
@example("", ["The pool size is 20. # Heading The pool size is 20. # Heading The pool size is 20."])
def test_union_of_overlapping_notes_passes_and_is_the_deduplicated_draft_when_that_is_safe(primary, others):
    union = sentence_union(primary, others)
    assert union.startswith(primary)
    report = check_merge([primary, *others], union)
    assert report.passed and report.missing == ()
    draft = sentence_union_dedup_only(primary, others)
    draft_report = check_merge([primary, *others], draft)
    if not draft_report.missing and draft_report.length_ratio >= 0.6:
        # the greedy cover only leaves out: no known sentence is added twice, nothing beyond the draft is added
        assert len(union) <= len(draft)
    else:
        assert len(union) >= len(draft)  # the safety net only ever adds


def sentence_union_dedup_only(primary, others):
    """The de-duplicated draft before any safety net (what the fallback replaced)."""
    from memgui.core.merge.union import _append, _join

    seen = {u.key for u in split_units(primary)}
    parts = []
    for other in others:
        kept = []
        for unit in split_units(other):
            if unit.key and unit.key not in seen:
                seen.add(unit.key)
                kept.append(unit)
        parts.append(_join(kept))
    return _append(primary, parts)


def test_a_sentence_put_back_for_a_missing_fact_is_put_back_once_not_with_its_repeats():
    # "Heading" mid-line reads as a name; the cover drops its sentence, the check puts it back — one copy
    other = "The pool size is 20. # Heading The pool size is 20. # Heading The pool size is 20."
    assert sentence_union("", [other]) == "The pool size is 20. # Heading The pool size is 20."


def test_a_paraphrase_that_brings_no_new_fact_is_left_out():
    primary = "The staging database runs Postgres 16.4 on db-staging.internal, port 5433."
    paraphrase = "Postgres 16.4 runs the staging database on db-staging.internal (port 5433)."
    extra = "Backups of staging run nightly at 03:00 UTC."
    assert sentence_union(primary, [paraphrase]) == primary
    assert sentence_union(primary, [paraphrase + " " + extra]) == primary + "\n\n" + extra


def test_a_sentence_with_a_new_fact_is_added_even_when_its_words_are_known():
    primary = "The staging database runs Postgres on db-staging.internal."
    other = "The staging database runs Postgres 16.4 on db-staging.internal."
    assert sentence_union(primary, [other]) == primary + "\n\n" + other


def test_a_sentence_with_one_new_content_word_is_kept_so_no_detail_is_lost():
    primary = "All Routewise Go services are pinned to Go 1.23.4 in `.tool-versions`; CI reads the same file."
    other = "Backend services use Go 1.23.4, pinned via `.tool-versions` (asdf) and used by CI too."
    assert "asdf" in sentence_union(primary, [other])  # the tool name is a detail only the second note has


def test_a_date_the_other_note_spells_differently_is_noted_in_place_not_added_as_a_clause():
    primary = ("Upgrade of the production Postgres (RDS, instance `routewise-prod-db`) from 15.7 to 16.4 on "
               "2025-06-11. Writes were paused for 11 minutes.")
    other = "Routewise prod runs Postgres 16.4 (upgraded from 15.7 on 11 June 2025, 11 minutes of write downtime)."
    merged = sentence_union(primary, [other])
    # MergeGuard needs "11 June 2025" verbatim; the reader needs the date once. The fact lens reads "downtime"
    # as a fact of its own (a rare word), so the clause that states it comes along.
    assert merged == primary.replace("2025-06-11.", "2025-06-11 (11 June 2025).") + "\n\n11 minutes of write downtime."
    assert check_merge([primary, other], merged).passed and check_strict([primary, other], merged).passed


def test_a_day_and_month_of_a_date_the_draft_holds_is_noted_in_place():
    primary = "Tomás was born on 1987-12-02 in Porto."
    other = "Tomás was born on 2 December."
    assert sentence_union(primary, [other]) == "Tomás was born on 1987-12-02 (2 December) in Porto."
    # a sentence that says more than the date ("birthday") is kept, not folded into the note
    assert sentence_union(primary, ["Tomás's birthday is 2 December."]).endswith("\n\nTomás's birthday is 2 December.")


def test_a_sentence_that_adds_one_fact_adds_only_that_clause():
    primary = "Upgrade of the production Postgres from 15.7 to 16.4 on 2025-06-11. Writes were paused for 11 minutes."
    other = "Prod runs Postgres 16.4 (upgraded from 15.7 on 2025-06-11, on instance db.r7g.xlarge)."
    merged = sentence_union(primary, [other])
    assert merged.startswith(primary)
    added = merged[len(primary):].strip()
    assert added == "on instance db.r7g.xlarge."  # the new fact, not the paraphrase around it
    assert check_merge([primary, other], merged).passed and check_strict([primary, other], merged).passed


def test_a_title_before_a_name_is_not_a_sentence_end():
    primary = "Pimenta's vet is Dr. Nuno Alves."
    other = "Vet: Dr. Nuno Alves, Clínica Veterinária da Boavista."
    merged = sentence_union(primary, [other])
    assert "Dr. Clínica" not in merged and "Clínica Veterinária da Boavista" in merged
    assert [u.text for u in split_units("Born c. 2019. Vet is Dr. Alves. Done.")] == [
        "Born c. 2019.", "Vet is Dr. Alves.", "Done."]


def test_a_label_before_a_colon_is_added_only_with_its_value():
    primary = "Terminal: WezTerm with JetBrains Mono at 13 pt."
    other = "Terminal: WezTerm; shell: fish with the starship prompt."
    added = sentence_union(primary, [other])[len(primary):].strip()
    assert added == "shell: fish with the starship prompt."  # not "Terminal; shell; fish …", nor a bare "fish"
    # a long clause before a colon is a sentence of its own, not a label to carry along
    primary = "Mira sees physio Marta Sousa at Clínica Movimento for pain in her left knee."
    other = "Mira sees physio Marta Sousa at Clínica Movimento for pain in her left knee: sessions on Tuesdays."
    assert sentence_union(primary, [other]) == primary + "\n\nsessions on Tuesdays."


def test_a_list_item_adds_only_the_clauses_that_bring_something_under_its_own_marker():
    primary = "Guests are VLAN 30 on 192.168.30.0/24."
    other = "- VLAN 10 main: 192.168.50.0/24\n- VLAN 30 guest: 192.168.30.0/24, Wi-Fi SSID `Castell-Guest`"
    merged = sentence_union(primary, [other])
    assert merged == primary + "\n\n- VLAN 10 main: 192.168.50.0/24\n- Wi-Fi SSID `Castell-Guest`"
    assert check_merge([primary, other], merged).passed and check_strict([primary, other], merged).passed


def test_a_quantity_in_another_unit_spelling_is_the_same_fact():
    primary = "Backlog of 47 minutes; Redis maxmemory 2gb, alert at 80 percent. Plan: €60 a month."
    other = "The backlog lasted 47 min (Redis maxmemory 2 GB, alert at 80%); plan €60/month."
    assert sentence_union(primary, [other]) == primary
    assert check_strict([primary, other], primary).passed
    # another amount, unit or rate is still a new fact
    assert "47 hours" in sentence_union(primary, ["The backlog lasted 47 hours."])
    assert "€60/year" in sentence_union(primary, ["Plan: €60/year."])


def test_a_number_written_as_a_word_is_the_same_fact():
    # (MergeGuard finds "4" and "2" inside 14TB and 2025: it needs the digits somewhere, the strict lens does not)
    primary = "The NAS has four 14TB IronWolf drives in RAIDZ1. The ESTA, approved 2025-01-22, is good for two years."
    other = "NAS: 4× 14TB IronWolf in RAIDZ1. ESTA approved on 2025-01-22; good for 2 years."
    assert sentence_union(primary, [other]) == primary
    assert check_strict([other], primary).passed
    # another number is still a new fact, and "one" stays a word ("the one on the left")
    assert "5 years" in sentence_union(primary, ["The ESTA is valid for 5 years."])
    assert not check_strict(["Keep 1 spare drive."], "Keep the spare drive.").passed


def test_a_dash_after_a_parenthesis_does_not_start_the_clause_added():
    primary = "Dara's manager is Oluwaseun Adeyemi, Director of Platform."
    other = "Weekly 1:1 with Oluwaseun Adeyemi (Director of Platform) — Tuesdays 15:30 Dublin time."
    added = sentence_union(primary, [other])[len(primary):]
    assert "Tuesdays 15:30 Dublin time" in added and "—" not in added


def test_kept_clauses_keep_their_own_punctuation_and_parentheses_go_with_what_they_held():
    primary = "atlas-sync switched from BoltDB to SQLite (`modernc.org/sqlite`, no cgo) in v3.0.0."
    other = ("Decision (Jan 2025): atlas-sync 3.0 drops BoltDB and stores replicas in SQLite through "
             "`modernc.org/sqlite` (pure Go, no cgo).")
    # "no cgo" is there already: only it is left out, and its parenthesis is closed after "pure Go"
    assert sentence_union(primary, [other]) == primary + "\n\nDecision (Jan 2025): atlas-sync 3.0 drops BoltDB " \
        "and stores replicas in SQLite through `modernc.org/sqlite` (pure Go)."
    # a parenthesis whose "(" was left out is not closed; clauses next to each other keep their comma
    primary = "Biscuit is a tabby cat, born around 2019."
    added = sentence_union(primary, ["Biscuit (tabby, ~2019, adopted 2021): 4.6 kg at the last check, on Royal Canin."])
    assert added == primary + "\n\nadopted 2021: 4.6 kg at the last check, on Royal Canin."


def test_a_clause_cut_never_falls_inside_a_fact():
    primary = "The lease is renewed every year."
    other = "The lease is renewed every year, next on March 14, 2026, by e-mail to the landlord."
    merged = sentence_union(primary, [other])
    assert "March 14, 2026" in merged
    assert check_merge([primary, other], merged).passed


def test_a_clause_of_mostly_new_words_is_kept():
    primary = "Penicillin allergy: hives after amoxicillin."
    other = "Penicillin allergy (hives after amoxicillin). Safe alternative she has taken before: azithromycin."
    assert "azithromycin" in sentence_union(primary, [other])


def test_a_value_of_a_word_or_two_keeps_its_label_however_long():
    # a bare "azithromycin." in an allergy note could be read as the allergen
    primary = "Penicillin allergy: hives after amoxicillin."
    other = "Penicillin allergy (hives after amoxicillin). Safe alternative she has taken before: azithromycin."
    assert sentence_union(primary, [other]) == primary + "\n\nSafe alternative she has taken before: azithromycin."
    # a longer value says what it is: a long label is still left out when it brings nothing
    other = "The vet we have used since moving here in 2019: Dr. Costa at Clínica Veterinária Lumiar, Thursdays."
    added = sentence_union("Our vet since 2019.", [other])
    assert "Dr. Costa at Clínica Veterinária Lumiar" in added and "moving here" not in added


def test_a_clause_kept_without_the_one_before_it_does_not_start_with_and():
    primary = "The atlas-sync repo lives at https://github.com/miracastell/atlas-sync; PRs target `main`."
    other = "Repo: https://github.com/miracastell/atlas-sync. PRs target `main`, and Mira squash-merges them."
    assert sentence_union(primary, [other]) == primary + "\n\nMira squash-merges them."
    # "or" says how the clauses relate: it stays
    assert sentence_union("The office Wi-Fi is guest-5G.", ["Office Wi-Fi guest-5G, or the cable in room 4."]) \
        .endswith("or the cable in room 4.")


def test_a_full_date_of_a_day_and_month_the_draft_writes_without_its_year_is_noted_in_place():
    primary = "Japan, 2 April – 19 April 2026, with Tomás: Tokyo, Kyoto, Osaka."
    other = "Holiday in Japan with Tomás from 2026-04-02 to 2026-04-19."
    merged = sentence_union(primary, [other])
    assert merged == "Japan, 2 April (2026-04-02) – 19 April 2026 (2026-04-19), with Tomás: Tokyo, Kyoto, Osaka."
    assert check_merge([primary, other], merged).passed and check_strict([primary, other], merged).passed
    # without the year in the draft, "2 April" may be another year's: the clause is added, not noted
    other_year = "Holiday in Japan with Tomás from 2025-04-02."
    assert "from 2025-04-02" in sentence_union(primary.replace("19 April 2026", "19 April"), [other_year])


def test_list_items_whose_first_word_is_capitalised_add_nothing_when_their_facts_are_there():
    primary = ("restic runs nightly at 03:30 to Backblaze B2 (`castell-restic-offsite`). "
               "Keeps 7 daily / 4 weekly / 12 monthly.")
    other = "- Tool: restic\n- When: 03:30 every night\n- Keeps: 7 daily, 4 weekly, 12 monthly"
    assert sentence_union(primary, [other]) == primary  # "Tool" opens the list: it names no one
