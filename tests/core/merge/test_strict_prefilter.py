"""The strict lens's pre-tests (strict._KIND_NEEDS, strict._WORDS_NEEDED) only skip scans that would find
nothing: `facts` equals a reading that runs every pattern over every text. The union asks for the facts of every
sentence and clause of a long note (issue 26 item 5), so a pattern skipped on a text that cannot hold it is time
saved; one skipped on a text that can would lose a fact."""
from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from memgui.core.merge import strict
from memgui.core.merge.guard import extract_tokens
from text_fuzz import PIECES, WORDS

ANY_CHAR = st.characters(blacklist_categories=())  # surrogates (Cs) included
_WORDS = ["no", "Not", "never", "without", "don't", "CANNOT", "isn't", "Monday", "sundays", "DAY", "January",
          "june", "May", "Dec", "Sept.", "14th", "2nd", "of", "12", "5", "Aug", "\u017f", "\u212a", "\u0130", "\u0131",
          "\u0663", " ", ", ", "\n", "K", "ſ", "per", "PER", "/", " / ", "min", "ng/mL", "requests"]
TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=8), st.sampled_from(PIECES), st.sampled_from(WORDS),
                          st.sampled_from(_WORDS)), max_size=14).map("".join)


def _every_pattern(text: str) -> list[tuple[str, str]]:
    """`strict.facts` without its pre-tests: every pattern scanned."""
    found: dict[str, tuple[str, str]] = {}

    def add(token: str, kind: str) -> None:
        token = token.strip().rstrip(".,:;)]")
        key = strict.normalise_text(token)
        if key and key not in found:
            found[key] = (token, kind)

    for token, kind in extract_tokens(text):
        add(token, kind)
    for kind, pattern in strict._KIND_PATTERNS:
        for m in pattern.finditer(text):
            add(m.group(0), kind)
    for word in strict._proper_names(text):
        add(word, "name")
    return list(found.values())


@settings(max_examples=600, deadline=None)
@given(TEXT)
@example("Augu\u017ft 14")  # ſ matches s under IGNORECASE: not ASCII, so scanned
@example("\u212aeep it; no sugar on 2 Mar")
@example("we don't deploy on Fridays; it's 14 of june")
@example("never\ttwice, without approval, NOT before Sept. 3rd")
@example("600 requests PER minute, 600/min, 18 ng/mL, 7 / week")
def test_facts_equal_a_scan_of_every_pattern(text: str) -> None:
    assert strict.facts(text) == _every_pattern(text)
