"""Numbers written as words, read as digits in place (text2num: `twenty two` = 22; `second floor` = `2nd floor`;
`a dozen` = 12; `twice` = 2 times; `three-fifths` = 60%): each is rewritten with digits of the same total length,
so every span stays where it was in the text and the value readers (values.py) read one spelling."""
from __future__ import annotations

import dataclasses
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
    _put_phrases(text, chars, regions)
    read = _Words(text, chars, regions, list(WORD.finditer("".join(chars))))
    i = 0
    while i < len(read.words):
        i = _read_word(read, i)
    return "".join(chars), regions


def _put_phrases(text: str, chars: list[str], regions: list[tuple[int, int]]) -> None:
    """The phrases read before the words: shares (`three-fifths`), `a pair of`, `an hour and a half`, `four and a
    half kilos`."""
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


@dataclasses.dataclass
class _Words:
    """A note as `digitised` reads it word by word: the text as written, its characters as rewritten so far, the
    regions rewritten, and the words (of the text after the phrases were read)."""

    text: str
    chars: list[str]
    regions: list[tuple[int, int]]
    words: list[re.Match[str]]

    def low(self, i: int) -> str:
        return self.words[i].group(0).casefold()

    def put(self, start: int, end: int, digits: str) -> None:
        _put(self.chars, self.regions, start, end, digits)


def _read_word(read: _Words, i: int) -> int:
    """Reads the word at `i` (with the words after it that belong to its number); returns the next word to read."""
    if _hyphenated(read, i) or _multiple_or_half(read, i) or _ordinal(read, i):
        return i + 1
    return _number_run(read, i)


def _hyphenated(read: _Words, i: int) -> bool:
    """`thirty-six`, `thirty-first`, `two-year-old`, `first-class`; True when the word was read (rewritten or left
    as a share such as `three-quarters`)."""
    low, word = read.low(i), read.words[i]
    head = low.split("-")[0]
    whole = _text2num(low.replace("-", " ")) if "-" in low and all(
        part in NUMBER_WORDS for part in low.split("-")) else None
    if whole is not None:  # `thirty-six` is one number
        read.put(word.start(), word.end(), str(whole))
        return True
    parts = low.split("-")
    last = ordinal_value(parts[-1]) if len(parts) > 1 else None
    tens = _text2num(" ".join(parts[:-1])) if last is not None and all(p in NUMBER_WORDS for p in parts[:-1]) \
        else None
    if tens is not None and last is not None and last < 10:  # `thirty-first` = `31st`, `twenty-second` = `22nd`
        n = tens + last
        read.put(word.start(), word.end(), f"{n}{_ORDINAL_SUFFIX.get(n % 10, 'th')}")
        return True
    if len(parts) == 2 and parts[0] in NUMBER_WORDS and parts[1] in ("quarter", "quarters", "third", "thirds"):
        return True  # `three-quarters`, `two-thirds`: a share, read whole (shares.fractions)
    lead = next((k for k in range(len(parts), 0, -1) if all(p in NUMBER_WORDS for p in parts[:k])), 0)
    if "-" in low and (lead > 1 or (lead == 1 and (head != "one" or _measured(parts[1]))) or
                      ordinal_value(head) is not None):
        lead_text = "-".join(parts[:max(lead, 1)])
        number = _text2num(lead_text.replace("-", " ")) if lead else None
        if number is not None:  # `two-year-old` → `2-year-old`, `one-hundred-dollar` → `100-dollar`
            read.put(word.start(), word.start() + len(lead_text), str(number))
        elif not lead and ordinal_value(head) is not None and parts[1] not in (
                "party", "hand", "rate", "person", "guess", "best", "nature", "string"):  # `third-party`,
            # `second-hand`: idioms, no places
            n = ordinal_value(head) or 0
            read.put(word.start(), word.start() + len(head),
                     f"{n}{_ORDINAL_SUFFIX.get(n % 10 if n > 20 else n, 'th')}")  # `first-class` = `1st-class`
        return True
    return False


def _multiple_or_half(read: _Words, i: int) -> bool:
    """`minus 5`, `twice`, `once a week`, `a half-hour`, `half an hour`, `a dozen`; True when rewritten."""
    text, words, low, word = read.text, read.words, read.low(i), read.words[i]
    if re.fullmatch(r"minus[\s-]\d", text[word.start():word.start() + 7].casefold()):
        read.put(word.start(), word.start() + 6, "-")  # `minus-80`, `minus 5` = `-80`, `-5`
        return True
    if low in ("twice", "thrice") or (low == "once" and i + 1 < len(words) and (
            read.low(i + 1) in ("per", "every", "each") or (
                read.low(i + 1) in ("a", "an") and i + 2 < len(words) and
                _period(read.low(i + 2))))):  # not the `once` of `once a deposit is paid`
        read.put(word.start(), word.end(), {"once": "1x", "twice": "2x", "thrice": "3x"}[low])
        return True
    if low in ("half-hour", "half-day", "half-hourly"):  # `a half-hour break` = a 0.5-hour break
        read.put(word.start(), word.start() + 4, "0.5")
        return True
    if low == "half" and i + 1 < len(words) and read.low(i + 1) in ("hour", "day") and \
            text[word.end():words[i + 1].start()] in (" ", "-"):  # `a final half hour` = `0.5 hour`
        read.put(word.start(), word.end(), "0.5")
        return True
    if low == "dozen" or (low == "half" and i + 1 < len(words) and read.low(i + 1) in ("a", "an")):
        start = words[i - 1].start() if i and read.low(i - 1) in ("a", "one") else word.start()
        end = words[i + 1].end() if low == "half" else word.end()  # `half an hour` = `0.5 hour`
        read.put(start, end, "12" if low == "dozen" else "0.5")
        return True
    return False


def _ordinal(read: _Words, i: int) -> bool:
    """`second floor` = `2nd floor`; True when the word was read as an ordinal, or as an ordinal word that counts no
    place (`first thing`, `a third of it`, `whichever comes first`)."""
    words, low, word = read.words, read.low(i), read.words[i]
    ordinal = ordinal_value(low)
    if _no_place(read, i, ordinal):
        return True
    if (ordinal is not None and low not in ("second",)) or (low == "second" and i + 1 < len(words) and
                                                              read.low(i + 1) not in ("of", "and", "or", "to", "a", "s")):
        ordinal = 2 if ordinal is None else ordinal  # the `second` of `second floor`
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(ordinal if ordinal < 20 else ordinal % 10, "th")
        read.put(word.start(), word.end(), f"{ordinal}{suffix}")
        return True
    return False


def _no_place(read: _Words, i: int, ordinal: int | None) -> bool:
    """An ordinal word that is no place in an order: `first thing`, `approved first`, `a third (of it)`,
    `whichever comes first`."""
    text, low, word = read.text, read.low(i), read.words[i]
    if low == "first" and re.match(r"\s+thing\b", text[word.end():word.end() + 7]):
        return True  # `first thing in the morning`: early, no 1st
    if low == "first" and _ADVERBIAL_FIRST.match(text, word.end()) and not _PLACED.search(
            text, max(0, word.start() - 16), word.start()):
        return True  # `approved by him first`, `dimple + oil first`: beforehand, an order word (lexicon), no 1st
    if low == "third" and re.search(r"\b(?:a|one)\s+$", text[max(0, word.start() - 4):word.start()],
                                    re.IGNORECASE) and re.match(r"\s+of\b|\s*[.,;:)!?]|\s*$", text[word.end():]):
        return True  # `pays a third (of it)`: a share, read whole (shares.fractions)
    # `whichever comes first`: which limit counts, not a first of anything
    return ordinal is not None and bool(re.search(r"\bwhichever\s+(?:\w+\s+)?$",
                                                  text[max(0, word.start() - 30):word.start()], re.IGNORECASE))


def _number_run(read: _Words, i: int) -> int:
    """`twenty two`, `one hundred and five`: a run of number words from `i` read as one number; returns the next
    word to read."""
    text, words, low = read.text, read.words, read.low(i)
    if low in NUMBER_WORDS and i + 1 < len(words) and read.low(i + 1) in ("quarter", "quarters", "third", "thirds"):
        return i + 1  # `three quarters`, `two thirds`: a fraction, read whole (shares.fractions)
    if low in _SCALE_WORDS and re.search(r"\d\s?$", text[max(0, words[i].start() - 4):words[i].start()]):
        return i + 1  # `$2 million`: the scale of the digits before it (values._numbers), not a number of its own
    if not ((low in NUMBER_WORDS and low != "one") or (low == "one" and _counts_next(words, i))):
        return i + 1
    j = i
    while j + 1 < len(words) and all(part in _NUMBER_RUN_WORDS - {"a"} for part in read.low(j + 1).split("-")) and \
            text[words[j].end():words[j + 1].start()].strip() in ("", "-"):
        j += 1
    while read.low(j) == "and":
        j -= 1
    phrase = text[words[i].start():words[j].end()].replace("-", " ")
    number = _text2num(phrase)
    while number is None and j > i:  # `forty and ten`: two numbers, not one
        j -= 1
        while j > i and read.low(j) == "and":
            j -= 1
        phrase = text[words[i].start():words[j].end()].replace("-", " ")
        number = _text2num(phrase)
    if number is not None:
        read.put(words[i].start(), words[j].end(), str(number))
    return j + 1


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
