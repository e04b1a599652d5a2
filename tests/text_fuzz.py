"""Random strings for the text-path fuzz (tests/core/merge/test_text_fuzz.py with Hypothesis, a sample;
tests/perf/test_text_fuzz.py with this generator, 200,000 inputs): any code point — lone surrogates, NUL,
controls, astral characters, combining marks — mixed with the pieces the readers look for (dates, times,
units, versions, phones, URLs, markers, markdown) and words the union compares, so the inputs reach deep
into MergeGuard, the sentence union and the word diff instead of stopping at the first unknown byte."""
from __future__ import annotations

import random

PIECES = (
    "4 GB", "2gb", "€40", "EUR 280", "$85 per person", "14 July", "2026-07-14", "03/04/2026", "9:45 am", "09:45",
    "every 0 days", "twice a week", "every other Thursday", "+44 20 7946 0123", "v1.2.3", "db-01.internal",
    "https://x.org/a", "s3://b/k", "/srv/backups", "not", "never", "only", "Dr. Okafor", "Ana manages Ben", "1.",
    "\n- ", "\n1) ", ". ", ", and ", "; ", " (", ") ", " — ", "```\n", "\n\n", "# H\n", "| a | b |", "> q",
    "ß", "İ", "ſt", "\u0301", "\U0001F600", "\x00", "\r\n", "\t", "\ud800", "\udfff", "\ud83d\ude00",
)
WORDS = ("Atlas", "deploys", "port", "5432", "the", "Mira", "2025-06-11", "11 June 2025", "every", "days", "no",
         "sugar", "backups", "keep", "30", "UTC", "02:00", "e.g.", "No.", "16.4", "15.7")


def _code_point(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.25:
        return chr(rng.randint(0xD800, 0xDFFF))  # a lone surrogate: valid in Python and .NET strings
    if pick < 0.5:
        return chr(rng.randint(0, 0x7F))
    if pick < 0.75:
        return chr(rng.randint(0x80, 0x2FFF))
    return chr(rng.randint(0, 0x10FFFF))


def random_text(rng: random.Random, parts: int = 10) -> str:
    out = []
    for _ in range(rng.randint(0, parts)):
        pick = rng.random()
        if pick < 0.4:
            out.append(rng.choice(PIECES))
        elif pick < 0.6:
            out.append("".join(_code_point(rng) for _ in range(rng.randint(1, 6))))
        else:
            out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))))
    return "".join(out)
