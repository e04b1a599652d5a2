"""Conflict evidence between two sources, and the "likely different facts" mark (issue 11, item 2)."""
import itertools

from memgui.core.merge.conflicts import likely_different, pair_evidence, value_conflicts
from memgui.core.store.demo import demo_labels, load_corpus

PROD = "Prod Postgres upgraded 15.7 → 16.4 on 2025-06-11 in the 02:00–04:00 UTC window, on db-prod.internal."
STAGING = "Staging Postgres upgraded 15.7 → 16.4 on 2025-05-28, on db-staging.internal; took 7 minutes."


def test_values_of_the_same_class_that_differ_are_conflicts():
    ev = pair_evidence(PROD, STAGING)
    by_class = {c.fact_class: (c.a, c.b) for c in ev.conflicts}
    assert by_class["date"] == (("2025-06-11",), ("2025-05-28",))
    assert "db-prod" in by_class["identifier"][0] and "db-staging" in by_class["identifier"][1]
    assert "06" not in by_class.get("number", ((), ()))[0]  # a piece of the date is not a fact of its own
    assert ("16.4", "version") in ev.shared and not any("16.4" in c.a for c in ev.conflicts)


def test_only_in_lists_what_the_other_source_lacks():
    ev = pair_evidence("Deploy with make deploy at 02:00 UTC.", "Deploy with make deploy at 02:00 UTC, see #ops.")
    assert [f for f, _ in ev.only_in_a] == []
    assert [f for f, _ in ev.only_in_b] == ["#ops"]
    assert ev.conflicts == ()


def test_the_source_vs_source_word_diff_marks_the_changed_words():
    ev = pair_evidence("The relay listens on port 7443.", "The relay listens on port 7444.")
    changed = [(s.a_text, s.b_text) for s in ev.spans if s.changed]
    assert changed == [("7443", "7444")]
    data = ev.to_dict("doc-a", "doc-b")
    assert data["conflicts"] == [{"class": "number", "doc-a": ["7443"], "doc-b": ["7444"]}]
    assert data["spans"][0]["a_text"] == "7443"


def test_members_that_each_name_their_own_things_are_likely_different():
    pins = ["Pin requests to 2.31.0 in api/requirements.txt because of CVE-2024-35195.",
            "Pin urllib3 to 2.2.2 in worker/requirements.txt because of CVE-2024-37891."]
    mark = likely_different(pins, ["requests-pin", "urllib3-pin"])
    assert mark.likely_different and mark.reason
    dupes = ["The relay runs on relay.atlas-sync.dev, port 7443.", "relay.atlas-sync.dev listens on 7443 (Caddy TLS)."]
    assert not likely_different(dupes).likely_different


def test_no_labelled_duplicate_cluster_of_the_demo_is_marked_different():
    bodies = {d.document_id: (d.row["markdown_body"], d.row["title"]) for d in load_corpus().documents}
    labels = demo_labels()

    def mark(ids):
        return likely_different([bodies[i][0] for i in ids], [bodies[i][1] for i in ids]).likely_different

    assert sum(mark(c) for c in labels["duplicate_clusters"]) == 0
    siblings_marked = sum(mark(p) for p in labels["sibling_pairs"])
    assert siblings_marked >= 5  # a prior before any model call, not the whole answer (8 of 32 today)
    pairs = [p for c in labels["duplicate_clusters"] for p in itertools.combinations(c, 2)]
    assert sum(mark(p) for p in pairs) <= 3  # 2 of 135 duplicate pairs today


def test_amounts_of_one_unit_that_differ_are_a_value_conflict_and_a_reworded_amount_is_not():
    rent = "Rent for the flat is €1,150/month, paid on the 1st."
    assert [(c.fact_class, c.unit, c.a, c.b) for c in value_conflicts(rent, "From May the rent is €1,173/month.")] == [
        ("amount", "€#/month", ("€1,150/month",), ("€1,173/month",))]
    assert value_conflicts(rent, "Flat rent: €1,150/month, due on the 1st.") == ()
    # an upgrade note that states both values is no conflict: it mentions the old amount too
    assert value_conflicts("Writes were paused for 11 minutes.", "Paused 11 minutes, not 7 minutes.") == ()
    assert value_conflicts("Writes were paused for 11 minutes.", "Writes were paused for 7 minutes.")


def test_different_calendar_dates_are_a_value_conflict_however_they_are_written():
    first = "Blood test on 2025-11-18: ferritin low at 18 ng/mL."
    follow_up = "Follow-up blood test on 2026-02-20: ferritin 41 ng/mL, back in range."
    conflicts = {c.unit or c.fact_class: (c.a, c.b) for c in value_conflicts(first, follow_up)}
    assert conflicts == {"date": (("2025-11-18",), ("2026-02-20",)), "# ng/ml": (("18 ng/ml",), ("41 ng/ml",))}
    assert value_conflicts("The lease renews on 1 May 2026.", "Lease renewal: 2026-05-01.") == ()
    assert value_conflicts("Renews on March 14th, 2026.", "Renewal 2026-03-14, by e-mail.") == ()
    # September (and Sept) dates are read too: "Sept" must not turn "September" into "Sepember"
    assert value_conflicts("Porto Half Marathon, 21 September 2025.", "Half marathon on 2025-09-21.") == ()
    assert value_conflicts("Porto Half Marathon, 21 September 2025.", "Half marathon on 2025-09-28.")
    assert value_conflicts("Renews Sept. 3, 2025.", "Renewal 2025-09-03.") == ()


def test_on_the_decider_devset_value_conflicts_flag_only_pairs_of_different_facts():
    """The devset (resources/prompts/decider_devset.json) was not used to design the rule: no paraphrase and
    no same-fact-plus-detail pair may be flagged; most siblings (another release, another flight) are."""
    import json

    from memgui.config import resources_dir

    pairs = json.loads((resources_dir() / "prompts" / "decider_devset.json").read_text())["pairs"]
    flagged = {kind: sum(bool(value_conflicts(a, b)) for k, a, b in pairs if k == kind) for kind, _, _ in pairs}
    assert flagged["para"] == flagged["extra"] == 0
    assert flagged["sibling"] >= 4


# ---- conflicts from the alignment (issue 36, item 8): a one-word contrast between look-alike notes is named ----
import pytest  # noqa: E402

from memgui.core.merge.contrasts import contrasts  # noqa: E402


@pytest.mark.parametrize(("a", "b", "mine", "theirs"), [
    ("Tom's blood group is A+.", "Tom's blood group is B+.", "A", "B"),
    ("Visitors must sign in at reception.", "Visitors may sign in at reception.", "must", "may"),
    ("The backup cron runs at 0 3 * * *.", "The backup cron runs at 0 4 * * *.", "0 3 * * *", "0 4 * * *"),
    ("We format the code with black.", "We format the code with ruff.", "black", "ruff"),
    ("Keep react pinned to ~18.2.0.", "Keep react pinned to ^18.2.0.", "~18.2.0", "^18.2.0"),
])
def test_a_one_word_contrast_inside_otherwise_identical_sentences_is_named(a, b, mine, theirs):
    found = contrasts(a, b)
    assert found and mine in found[0].a_words and theirs in found[0].b_words
    assert any(set(c.a) & {mine} and set(c.b) & {theirs} for c in pair_evidence(a, b).conflicts)


def test_two_different_statements_are_not_a_contrast():
    assert contrasts("The boiler is serviced every May.", "Lena is allergic to peanuts.") == []
    assert contrasts("Ana bought a car.", "Ana purchased an automobile.") == []  # a restatement, proved


@pytest.mark.parametrize(("a", "b", "marked"), [
    ("Hawks home kit: navy shirts, white shorts, sky-blue socks.", "Hawks away kit: sky-blue shirts, navy shorts, white "
     "socks.", True),  # a word and its antonym in look-alike sentences: two kits, not one
    ("The invoice for March is paid.", "The invoice for March is unpaid.", True),
    ("Mira prefers Neovim with lazy.nvim and a 2-space indent.", "Her editor is Neovim (lazy.nvim); indent is 2 spaces.",
     False),  # a rewording
])
def test_look_alike_sentences_that_differ_by_an_antonym_are_likely_different_facts(a, b, marked) -> None:
    mark = likely_different([a, b])
    assert mark.likely_different is marked and (("opposite things" in mark.reason) is marked)
