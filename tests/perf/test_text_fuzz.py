"""The 200,000-input fuzz of issue 26 (item 5, "done when"): MergeGuard, the sentence union and the word diff on
random strings of any code point (lone surrogates included; tests/text_fuzz.py), each input through all three.
Goal: 0 crashes. Prints the count, the time and each kind of crash with one input that raised it, so a
failure here is a reproducible case. MEMGUI_FUZZ_INPUTS sets the count (default 200,000: about 15 minutes
on this machine's core; `make bench`)."""
from __future__ import annotations

import os
import random
import time
import traceback

from memgui.core.merge.diff import word_diff
from memgui.core.merge.guard import check_merge
from memgui.core.merge.union import sentence_union
from text_fuzz import random_text


def test_guard_union_and_diff_survive_random_strings():
    count = int(os.environ.get("MEMGUI_FUZZ_INPUTS", "200000"))
    rng = random.Random(2026)
    crashes: dict[tuple[str, str], tuple[str, str, str]] = {}
    lost = 0
    start = time.perf_counter()
    for _ in range(count):
        a, b = random_text(rng), random_text(rng)
        for path, run in (("MergeGuard", lambda a=a, b=b: check_merge([a, b], a)),
                          ("union", lambda a=a, b=b: sentence_union(a, [b])),
                          ("word diff", lambda a=a, b=b: word_diff(a, b))):
            try:
                result = run()
            except Exception as exc:  # noqa: BLE001 - every crash is counted and shown
                crashes.setdefault((path, type(exc).__name__), (a, b, traceback.format_exc(limit=-2)))
                continue
            if path == "union" and check_merge([a, b], result).missing:
                lost += 1
    seconds = time.perf_counter() - start
    print(f"\ntext-path fuzz: {count:,} inputs × (MergeGuard, union, word diff) in {seconds:.0f} s: "
          f"{len(crashes)} kinds of crash, {lost} unions that lost a token")
    for (path, kind), (a, b, where) in crashes.items():
        print(f"  {path} raised {kind} on {a!r:.120} / {b!r:.120}\n{where}")
    assert not crashes and not lost
