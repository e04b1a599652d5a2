"""Numbers written as words, read as digits in place (text2num: `twenty two` = 22; `second floor` = `2nd floor`;
`a dozen` = 12; `twice` = 2 times; `three-fifths` = 60%): each is rewritten with digits of the same total length,
so every span stays where it was in the text and the value readers (values.py) read one spelling."""
from __future__ import annotations

import functools
import re

from .lexicon import FUNCTION_WORDS
from .values import MONTHS, NUMBER_WORDS, ORDINAL_WORDS, ordinal_value

WORD = re.compile(r"[^\W\d_](?:[\w’'-]*[^\W_])?", re.UNICODE)  # a word of a note (notes.py reads the same)
_NUMBER_RUN_WORDS = NUMBER_WORDS | {"and", "a", "-"}
_ADVERBIAL_FIRST = re.compile(r"\s*(?:[.,;:)!?\n]|$|\+|-\s|–|—|then\b|and\s+then\b)", re.IGNORECASE)
_PLACED = re.compile(r"\b(?:came|come|comes|finished|finish|finishes|placed|ranked|rank|ranks|is|was|were|are|"
                     r"be|the)\s+$", re.IGNORECASE)  # `came first` in a race is 1st place
_SCALE_WORDS = frozenset({"thousand", "million", "billion", "trillion"})
_AND_A_HALF = re.compile(r"\b(an?|one|two|three|four|five|six|seven|eight|nine|ten|\d+)[\s-]+(hour|day|week|month|"
                         r"year|minute|mile|kilometre|kilometer|litre|liter|pint|inch|foot|metre|meter|kilo|pound|"
                         r"cup|teaspoon|tablespoon)s?[\s-]+and[\s-]+a[\s-]+half\b", re.IGNORECASE)  # `a mile-and-a-half`
_AND_A_PART = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)[\s-]+and[\s-]+"
                         r"(a[\s-]+half|a[\s-]+quarter|three[\s-]+quarters|a[\s-]+third|two[\s-]+thirds)\b",
                         re.IGNORECASE)
# a share of a whole (halves, thirds and quarters are read in shares.fractions)
_SHARE = re.compile(r"\b(an?|one|two|three|four|five|six|seven|eight|nine)[\s-](fifth|sixth|"
                    r"seventh|eighth|ninth|tenth)s?\b(?!\s+(?:floor|place|time|row|day|week|month|year|grade|century|"
                    r"edition|attempt|round)s?\b)", re.IGNORECASE)
_PARTS = {"a half": 0.5, "a quarter": 0.25, "three quarters": 0.75, "a third": 1 / 3, "two thirds": 2 / 3}
_ORDINAL_SUFFIX = {1: "st", 2: "nd", 3: "rd"}
_DETERMINERS = frozenset("the this that which each every any no another".split())


def digitised(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`text` with numbers written as words replaced by digits of the same total length (right-aligned), so
    spans do not move (`twenty two users` → `        22 users`, `second floor` → `   2nd floor`), and the
    regions replaced."""
    regions: list[tuple[int, int]] = []
    if not re.search(r"(?i)\b(?:" + "|".join(sorted(NUMBER_WORDS | ORDINAL_WORDS | {"dozen", "twice", "thrice", "half",
                                                                                   "minus", "pair"},
                                                   key=len, reverse=True)) + r")\b", text):
        return text, regions
    chars = list(text)
    for m in _SHARE.finditer(text):  # `three-fifths` = `60%`, `a tenth` = `10%`, `two-thirds` = `66.6667%`
        top = 1 if m.group(1).casefold() in ("a", "an", "one") else _text2num(m.group(1))
        bottom = ordinal_value(m.group(2))
        if top and bottom and top < bottom:
            _put(chars, regions, m.start(), m.end(), f"{100 * top / bottom:.6g}%")
    for m in re.finditer(r"\ba\s+(pair)\s+of\b", text, re.IGNORECASE):  # `a pair of whistles` = `two whistles`
        _put(chars, regions, m.start(), m.end(1), "2")
    for m in _AND_A_HALF.finditer(text):  # `an hour and a half` = `1.5 hour`, `two days and a half` = `2.5 day`
        count = 1 if m.group(1).casefold() in ("a", "an", "one") else _text2num(m.group(1)) if not m.group(1).isdigit() \
            else int(m.group(1))
        if count is not None:
            _put(chars, regions, m.start(), m.end(), f"{count + 0.5:g} {m.group(2)}")
    for m in _AND_A_PART.finditer("".join(chars)):  # `four and a half kilos` = `4.5 kilos`, `one and a quarter cups`
        whole = int(m.group(1)) if m.group(1).isdigit() else _text2num(m.group(1))
        if whole is not None:
            _put(chars, regions, m.start(), m.end(),
                 f"{whole + _PARTS[' '.join(m.group(2).casefold().replace('-', ' ').split())]:.3g}")
    words = list(WORD.finditer("".join(chars)))
    i = 0
    while i < len(words):
        low = words[i].group(0).casefold()
        head = low.split("-")[0]
        whole = _text2num(low.replace("-", " ")) if "-" in low and all(
            part in NUMBER_WORDS for part in low.split("-")) else None
        if whole is not None:  # `thirty-six` is one number
            _put(chars, regions, words[i].start(), words[i].end(), str(whole))
            i += 1
            continue
        parts = low.split("-")
        last = ordinal_value(parts[-1]) if len(parts) > 1 else None
        tens = _text2num(" ".join(parts[:-1])) if last is not None and all(p in NUMBER_WORDS for p in parts[:-1]) \
            else None
        if tens is not None and last is not None and last < 10:  # `thirty-first` = `31st`, `twenty-second` = `22nd`
            n = tens + last
            _put(chars, regions, words[i].start(), words[i].end(), f"{n}{_ORDINAL_SUFFIX.get(n % 10, 'th')}")
            i += 1
            continue
        if len(parts) == 2 and parts[0] in NUMBER_WORDS and parts[1] in ("quarter", "quarters", "third", "thirds"):
            i += 1
            continue  # `three-quarters`, `two-thirds`: a share, read whole (shares.fractions)
        lead = next((k for k in range(len(parts), 0, -1) if all(p in NUMBER_WORDS for p in parts[:k])), 0)
        if "-" in low and (lead > 1 or (lead == 1 and (head != "one" or _measured(parts[1]))) or
                          ordinal_value(head) is not None):
            lead_text = "-".join(parts[:max(lead, 1)])
            number = _text2num(lead_text.replace("-", " ")) if lead else None
            if number is not None:  # `two-year-old` → `2-year-old`, `one-hundred-dollar` → `100-dollar`
                _put(chars, regions, words[i].start(), words[i].start() + len(lead_text), str(number))
            elif not lead and ordinal_value(head) is not None and parts[1] not in (
                    "party", "hand", "rate", "person", "guess", "best", "nature", "string"):  # `third-party`,
                # `second-hand`: idioms, no places
                n = ordinal_value(head) or 0
                _put(chars, regions, words[i].start(), words[i].start() + len(head),
                     f"{n}{_ORDINAL_SUFFIX.get(n % 10 if n > 20 else n, 'th')}")  # `first-class` = `1st-class`
            i += 1
            continue
        if re.fullmatch(r"minus[\s-]\d", text[words[i].start():words[i].start() + 7].casefold()):
            _put(chars, regions, words[i].start(), words[i].start() + 6, "-")  # `minus-80`, `minus 5` = `-80`, `-5`
            i += 1
            continue
        if low in ("twice", "thrice") or (low == "once" and i + 1 < len(words) and (
                words[i + 1].group(0).casefold() in ("per", "every", "each") or (
                    words[i + 1].group(0).casefold() in ("a", "an") and i + 2 < len(words) and
                    _period(words[i + 2].group(0).casefold())))):  # not the `once` of `once a deposit is paid`
            _put(chars, regions, words[i].start(), words[i].end(), {"once": "1x", "twice": "2x", "thrice": "3x"}[low])
            i += 1
            continue
        if low in ("half-hour", "half-day", "half-hourly"):  # `a half-hour break` = a 0.5-hour break
            _put(chars, regions, words[i].start(), words[i].start() + 4, "0.5")
            i += 1
            continue
        if low == "half" and i + 1 < len(words) and words[i + 1].group(0).casefold() in ("hour", "day") and \
                text[words[i].end():words[i + 1].start()] in (" ", "-"):  # `a final half hour` = `0.5 hour`
            _put(chars, regions, words[i].start(), words[i].end(), "0.5")
            i += 1
            continue
        if low == "dozen" or (low == "half" and i + 1 < len(words) and words[i + 1].group(0).casefold() in ("a", "an")):
            start = words[i - 1].start() if i and words[i - 1].group(0).casefold() in ("a", "one") else words[i].start()
            end = words[i + 1].end() if low == "half" else words[i].end()  # `half an hour` = `0.5 hour`
            _put(chars, regions, start, end, "12" if low == "dozen" else "0.5")
            i += 1
            continue
        ordinal = ordinal_value(low)
        if low == "first" and re.match(r"\s+thing\b", text[words[i].end():words[i].end() + 7]):
            i += 1
            continue  # `first thing in the morning`: early, no 1st
        if low == "first" and _ADVERBIAL_FIRST.match(text, words[i].end()) and not _PLACED.search(
                text, max(0, words[i].start() - 16), words[i].start()):
            i += 1
            continue  # `approved by him first`, `dimple + oil first`: beforehand, an order word (lexicon), no 1st
        if low == "third" and re.search(r"\b(?:a|one)\s+$", text[max(0, words[i].start() - 4):words[i].start()],
                                        re.IGNORECASE) and re.match(r"\s+of\b|\s*[.,;:)!?]|\s*$", text[words[i].end():]):
            i += 1
            continue  # `pays a third (of it)`: a share, read whole (shares.fractions)
        if ordinal is not None and re.search(r"\bwhichever\s+(?:\w+\s+)?$", text[max(0, words[i].start() - 30):
                                                                               words[i].start()], re.IGNORECASE):
            i += 1
            continue  # `whichever comes first`: which limit counts, not a first of anything
        if (ordinal is not None and low not in ("second",)) or (low == "second" and i + 1 < len(words) and
                                                                  words[i + 1].group(0).casefold() not in (
                                                                      "of", "and", "or", "to", "a", "s")):
            ordinal = 2 if ordinal is None else ordinal  # the `second` of `second floor`
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(ordinal if ordinal < 20 else ordinal % 10, "th")
            _put(chars, regions, words[i].start(), words[i].end(), f"{ordinal}{suffix}")
            i += 1
            continue
        if low in NUMBER_WORDS and i + 1 < len(words) and words[i + 1].group(0).casefold() in (
                "quarter", "quarters", "third", "thirds"):
            i += 1
            continue  # `three quarters`, `two thirds`: a fraction, read whole (shares.fractions)
        if low in _SCALE_WORDS and re.search(r"\d\s?$", text[max(0, words[i].start() - 4):words[i].start()]):
            i += 1
            continue  # `$2 million`: the scale of the digits before it (values._numbers), not a number of its own
        if (low in NUMBER_WORDS and low != "one") or (low == "one" and _counts_next(words, i)):
            j = i
            while j + 1 < len(words) and all(part in _NUMBER_RUN_WORDS - {"a"} for part in words[j + 1].group(0)
                                             .casefold().split("-")) and \
                    text[words[j].end():words[j + 1].start()].strip() in ("", "-"):
                j += 1
            while words[j].group(0).casefold() == "and":
                j -= 1
            phrase = text[words[i].start():words[j].end()].replace("-", " ")
            number = _text2num(phrase)
            while number is None and j > i:  # `forty and ten`: two numbers, not one
                j -= 1
                while j > i and words[j].group(0).casefold() == "and":
                    j -= 1
                phrase = text[words[i].start():words[j].end()].replace("-", " ")
                number = _text2num(phrase)
            if number is not None:
                _put(chars, regions, words[i].start(), words[j].end(), str(number))
            i = j + 1
            continue
        i += 1
    return "".join(chars), regions


def _period(word: str) -> bool:
    """`day`, `week`, `fortnight`, a weekday or a part of the day: what `once a …` can be once in."""
    from .units import CALENDAR_UNITS
    return word in CALENDAR_UNITS or word in _PERIOD_WORDS


_PERIOD_WORDS = frozenset("night morning evening afternoon weekend term semester season shift lifetime session "
                          "monday tuesday wednesday thursday friday saturday sunday".split())


def _measured(word: str) -> bool:
    """`one-dollar`, `one-hour`, `one-litre`: `one` counts the unit after it (not `one-off`, `one-way`)."""
    from .currencies import CURRENCY_WORDS
    from .units import CALENDAR_UNITS, unit_of
    return word in CURRENCY_WORDS or word in CALENDAR_UNITS or (word != "shot" and unit_of(word) is not None)


def _counts_next(words: list[re.Match[str]], i: int) -> bool:
    """`one` is the number 1 only before something counted (`one drive`) or opening a range (`rows one to
    fourteen`), not as a pronoun (`the one`)."""
    if i + 1 >= len(words) or (i and words[i - 1].group(0).casefold() in _DETERMINERS):
        return False  # "the one spare drive": a pronoun's determiner, not a count
    following = words[i + 1].group(0).casefold()
    if following in ("to", "through", "till", "until", "and", "or") and i + 2 < len(words) and \
            words[i + 2].group(0).casefold().split("-")[0] in NUMBER_WORDS:
        return True  # `rows one to fourteen`, `seats one and two`
    if following == "per" and i + 2 < len(words) and words[i + 2].group(0).casefold() not in FUNCTION_WORDS:
        return True  # `one per unit`: a count of something per another
    return following not in FUNCTION_WORDS and following not in ("another", "day", "time", "way") and \
        following.rstrip(".") not in MONTHS  # `the next one Oct` is no 1 October


@functools.lru_cache(maxsize=4096)
def _text2num(phrase: str) -> int | None:
    from text_to_num import text2num
    try:
        return int(text2num(phrase.casefold(), "en"))
    except (ValueError, TypeError):
        return None


def _put(chars: list[str], regions: list[tuple[int, int]], start: int, end: int, digits: str) -> None:
    width = end - start
    if len(digits) > width:
        return  # cannot happen for English number words; kept as words if it did
    regions.append((start, end))
    chars[start:end] = list(" " * (width - len(digits)) + digits)


__all__ = ["WORD", "digitised"]
