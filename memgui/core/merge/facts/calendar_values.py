"""Calendar values: dates in any order and format, months, weekdays and their ranges, times of day, time zones,
and how often something happens (`twice a day` = `2 times daily`, `every six months` = `twice a year`,
`every other Thursday`). Month and day names come from the standard `calendar` module."""
from __future__ import annotations

import calendar
import dataclasses
import re

from .value_types import Value, ValueKind, fmt, inside


def _month_numbers() -> dict[str, int]:
    out = {}
    for i in range(1, 13):
        out[calendar.month_name[i].casefold()] = i
        out[calendar.month_abbr[i].casefold()] = i
    out["sept"] = 9
    return out


MONTHS = _month_numbers()
WEEKDAYS = {name.casefold(): i for i, name in enumerate(calendar.day_name)} | {
    abbr.casefold(): i for i, abbr in enumerate(calendar.day_abbr)} | {"tues": 1, "thur": 3, "thurs": 3, "weds": 2}
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:1[6-9]|2\d)\d\d)"
_DATE_PATTERNS = [re.compile(p, re.IGNORECASE) for p in (
    rf"\b{_YEAR}-(?P<m>[01]?\d)-(?P<d>[0-3]?\d)(?:[T ][\d:]+Z?)?\b",
    rf"\b{_YEAR}/(?P<m>[01]?\d)/(?P<d>[0-3]?\d)\b",
    rf"\b{_DAY}(?:\s+of)?[\s/-]+(?P<mn>{_MONTH_RE})\.?(?:,?[\s/-]+{_YEAR})?\b",  # `12/Jun/2023` too
    rf"\b(?P<mn>{_MONTH_RE})\.?\s+{_DAY}(?:,?\s+{_YEAR})?\b(?!:)",
    rf"\b(?P<mn>{_MONTH_RE})\.?,?\s+{_YEAR}\b",
    rf"\b(?P<a>[0-3]?\d)[/.](?P<b>[01]?\d)[/.]{_YEAR}\b",
    r"(?<![\w/.,])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)/(?P<yy>\d\d)\b(?![/.,]\d)",  # `18/05/25`, `12/31/24`: this
    # century's, read either way round
    rf"\b{_YEAR}-(?P<m>[01]\d)\b(?!-)",
    rf"(?<![\d/.])(?P<m>0?[1-9]|1[0-2])/{_YEAR}\b",  # `exp 03/2026`
    rf"\b(?P<part>mid|early|late|(?:the\s+)?(?:middle|beginning|start|end)\s+of)[-\s]+(?:the\s+month\s+of\s+)?"
    rf"(?P<mn>{_MONTH_RE})\b",  # `mid-March` = `the middle of March`
    r"(?<![\d/.,])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)\b(?![/.,]\d)",  # `last svc 14/09`: written as a date, see dates()
)]
_WEEKDAY_RE = re.compile(r"\b(" + "|".join(sorted(WEEKDAYS, key=len, reverse=True)) + r")s?\b", re.IGNORECASE)
_DAY_NAME = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_WEEKDAY_RANGE = re.compile(rf"\b({_DAY_NAME})\.?\s*(?:-|–|—|to|through|thru|until|till)\s*({_DAY_NAME})\b\.?",
                            re.IGNORECASE)
_WEEKDAYS_WORD = re.compile(r"\b(?:on\s+|every\s+|at\s+|over\s+(?:the\s+)?)?(weekdays?|weekends?|(?<=during\s)the\s+week|"
                            r"(?<=in\s)the\s+week(?=\s*[,;.])|midweek)\b", re.IGNORECASE)  # `during the week` = weekdays
_MONTH_ALONE = re.compile(r"\b(" + "|".join(sorted((m for m in MONTHS if len(m) > 3 or m in (
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct", "nov", "dec")), key=len, reverse=True))
    + r")\b\.?", re.IGNORECASE)

_TIME = re.compile(
    r"\b(?P<h>[0-2]?\d)(?:(?P<sep>[:.])(?P<mi>[0-5]\d))?(?::(?P<s>[0-5]\d))?\s*(?P<ap>[ap]\.?\s?m\b\.?|(?<=\d)[ap]\b|o'clock\b|h\b|"
    r"in the (?:morning|afternoon|evening)\b|at night\b)?(?!\d)",
    re.IGNORECASE)
_PART_OF_DAY = r"(?P<ap>\s*(?:[ap]\.?\s?m\b\.?|in\s+the\s+(?:morning|afternoon|evening)\b|at\s+night\b|tonight\b))"
# a count of minutes only with `past` or `minutes`: `2 to 4` is a range, not 3:58
_SPOKEN_TIME = re.compile(r"\b(?:(?P<part>half|(?:a\s+)?quarter|\d{1,2}(?=\s+minutes\s|\s+past\s)|"
                          r"(?<=\bat)\s+(?:5|10|20|25)(?=\s+to\s))(?:\s+minutes)?"  # `at ten to ten` = 9:50
                          r"\s+(?P<dir>past|after|to)\s+"
                          r"(?P<h>\d{1,2}|midnight|noon|midday))\b(?:" + _PART_OF_DAY +
                          r"|(?!\s*(?:[:.]\d|%|(?-i:[a-z])\w*\s+(?:of|per)\b)))",
                          re.IGNORECASE)  # `quarter to nine Mr Doyle`, `quarter to 2 until 3`; not `20 past 6 units of`
# `half seven` is 7:30 in British speech: only where a time is expected (`at half seven`) or with a part of the day
_HALF_HOUR = re.compile(r"(?:(?<=\bat\s)|(?<=\bfrom\s)|(?<=\buntil\s)|(?<=\btill\s)|(?<=\bby\s)|(?<=\baround\s)|"
                        r"(?<=\b\d\sto\s)|(?<=\b\d\d\sto\s))"
                        r"half\s+(?P<h>\d{1,2})\b(?:" + _PART_OF_DAY + r"|(?!\s*(?:[:.]\d|%|[a-z])))|"
                        r"\bhalf\s+(?P<h2>\d{1,2})\b" + _PART_OF_DAY.replace("(?P<ap>", "(?P<ap2>"), re.IGNORECASE)
_RANGE_START = re.compile(r"(?<![\d:.,/-])(\d{1,2})(?:[.:](\d\d))?\s*(?:-|–|to|until|till)\s*\d{1,2}(?:[:.]\d\d)?\s*"
                          r"([ap])\.?\s?m\b", re.IGNORECASE)  # `from 6.30 to 7.30am`
# a 24-hour clock written as four digits, with what marks it as one: `0800 UTC`, `1430 hrs`, `2200Z`
_FOUR_DIGIT_TIME = re.compile(r"(?<![\w.,:/-])(?P<h>[01]\d|2[0-3])(?P<mi>[0-5]\d)(?:\s?(?:hrs\b|h\b|hours\b(?<=0\d\d\d\shours))|"
                              r"(?=\s?(?:Z\b|UTC\b|GMT\b|zulu\b|local\b)))")  # the zone is a value of its own
_TIME_WORDS = {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}
_ZONES = re.compile(r"\b(UTC|GMT|CET|CEST|EET|EEST|WET|BST|IST|JST|KST|AEST|AEDT|PST|PDT|MST|MDT|CST|CDT|EST|EDT|"
                    r"AKST|HST|Z)\b|(?:UTC|GMT)[+-]\d{1,2}(?::?\d\d)?")


_AFTERNOON = "~pm"  # a key suffix: an afternoon or evening time written on the 24-hour clock, or bare in its note
_RANGE_GLUE = re.compile(r"\s*(?:-|–|—|to|until|till)\s*$", re.IGNORECASE)


def times(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    meridiem: list[str] = []  # per clock time: "a", "p" or "" (none written)
    bare: list[int] = []  # clock times of 1-11 with no half of the day written (`6:45`)
    spoken = _spoken_times(text)  # read first: `half past 7 in the evening` is 19:30, not 19:00 and a half
    out = _clock_times(text, spoken, meridiem, bare)
    for m in _FOUR_DIGIT_TIME.finditer(text):
        out.append(Value(frozenset({f"time:{m.group('h')}:{m.group('mi')}"}), ValueKind.TIME, m.group(0), m.start(), m.end(),
                         "time"))
        meridiem.append("")
    _afternoon_times(text, out, meridiem, bare)
    _range_starts(text, out, meridiem)
    out += [v for v in spoken if not inside(v.start, v.end, [(x.start, x.end) for x in out])]
    for word, value in _TIME_WORDS.items():
        for m in re.finditer(rf"\b(?:12\s+)?{word}\b", text, re.IGNORECASE):  # `12 noon` is noon
            out.append(Value(frozenset({f"time:{value}"}), ValueKind.TIME, m.group(0), m.start(), m.end(), "time",
                             amount="12" if value == "12:00" else ""))  # `9–12` restated as `9 am to noon`
    for m in _ZONES.finditer(text):
        out.append(Value(frozenset({f"zone:{m.group(0).upper()}"}), ValueKind.ZONE, m.group(0), m.start(), m.end(), "zone"))
    return [v for v in out if not inside(v.start, v.end, taken)]


def _clock_times(text: str, spoken: list[Value], meridiem: list[str], bare: list[int]) -> list[Value]:
    """`9:45`, `7.30pm`, `8 o'clock` (not where a spoken time was read); each one's half of the day is appended to
    `meridiem`, and the index of each bare time of 1-11 to `bare`."""
    out: list[Value] = []
    for m in _TIME.finditer(text):
        if any(v.start < m.end() and m.start() < v.end for v in spoken):
            continue
        read = _clock_time(m)
        if read is None:
            continue
        value, ap, is_bare = read
        if is_bare:
            bare.append(len(out))
        out.append(value)
        meridiem.append(ap[:1] if ap[:1] in ("a", "p") else "")
    return out


def _clock_time(m: re.Match[str]) -> tuple[Value, str, bool] | None:
    """The time `m` writes, its half of the day as written (`_meridiem`), and whether it is a bare time of 1-11;
    None when it is no time (`8`, `7.30`, `5a`)."""
    h, mi, ap = m.group("h"), m.group("mi"), _meridiem(m.group("ap"))
    if mi is None and not ap.startswith(("a", "p", "o")):
        return None  # a bare number is a number, not a time (`8 o'clock` is one)
    if m.group("sep") == "." and not ap.startswith(("a", "p")):
        return None  # `7.30` is a number; `7.30pm` a time
    if ap in ("h", "a", "p") and mi is None:
        return None  # `5a` is a flat, `2:30p` a time
    hour, minute = int(h), int(mi or 0)
    if hour > 24:
        return None
    if ap.startswith("p") and hour < 12:
        hour += 12
    elif ap.startswith("a") and hour == 12:
        hour = 0
    keys = _clock_keys(m, ap, hour, minute)
    is_bare = ap in ("", "o'clock") and 1 <= hour <= 11 and not h.startswith("0") and mi is not None
    written = m.group(0).rstrip()
    if written.endswith("m.") and not written.endswith((".m.", ". m.")):
        written = written[:-1]  # "2:15 pm." ends a sentence; "2:15 p.m." keeps its dot
    hour_only = fmt((hour - 1) % 12 + 1) if minute == 0 else ""  # `10 am` answers for a note's plain `10`
    return (Value(frozenset(keys), ValueKind.TIME, written.strip(), m.start(), m.start() + len(written), "time",
                  amount=hour_only), ap, is_bare)


def _clock_keys(m: re.Match[str], ap: str, hour: int, minute: int) -> set[str]:
    """The keys of a clock time: the 24-hour time, and the other readings it may have (a duration, the afternoon)."""
    h, mi = m.group("h"), m.group("mi")
    keys = {f"time:{hour:02d}:{minute:02d}"}
    if m.group("s") and mi is not None and not ap:  # `4:52:10` may be a time taken: 4 h 52 min 10 s
        keys.add(f"duration:{int(h) * 3600 + int(mi) * 60 + int(m.group('s'))}")
    if ap in ("", "o'clock") and 1 <= hour <= 11 and not h.startswith("0"):
        keys.add(f"time:{hour + 12:02d}:{minute:02d}pm")  # `9:45` may be `9:45 pm`, not `21:45`
    elif ap.startswith("p"):
        keys.add(f"time:{hour:02d}:{minute:02d}pm")
    if ap == "" and 13 <= hour <= 23:
        keys.add(f"time:{hour:02d}:{minute:02d}{_AFTERNOON}")
    return keys


def _afternoon_times(text: str, out: list[Value], meridiem: list[str], bare: list[int]) -> None:
    """A bare time of the afternoon's first hours (`back by 2:30`), or any bare time in a note that writes the
    afternoon or evening elsewhere (`concert 7:30pm … call time 6:45`), is the 24-hour clock's afternoon time
    too (`14:30`, `18:45`); a bare `10:40` of a morning's note is not `22:40`. A range's bare start takes its end's
    afternoon (`from 7:30 to 9 pm`)."""
    afternoon = "p" in meridiem or any(f"{_AFTERNOON}" in key for v in out for key in v.keys)
    for k in bare:
        clock = next(key[5:10] for key in out[k].keys if len(key) == 10)  # `06:45` of `time:06:45`
        if int(clock[:2]) <= 6 or afternoon:
            out[k] = dataclasses.replace(out[k], keys=out[k].keys | {f"time:{int(clock[:2]) + 12:02d}{clock[2:]}{_AFTERNOON}"})
    for k in range(len(out) - 1):  # `from 7:30 to 9 pm`: the range's meridiem is both ends'
        first, second = out[k], out[k + 1]
        if meridiem[k] == "" and meridiem[k + 1] == "p" and _RANGE_GLUE.match(text[first.end:second.start]):
            hour_minute = [key[5:10] for key in first.keys if len(key) == 10]
            if hour_minute and 1 <= int(hour_minute[0][:2]) <= 11:
                h, mi = int(hour_minute[0][:2]) + 12, hour_minute[0][3:]
                out[k] = dataclasses.replace(first, keys=first.keys | {f"time:{h:02d}:{mi}"})


def _range_starts(text: str, out: list[Value], meridiem: list[str]) -> None:
    """`from 5 to 6 pm`: a range's bare start is a time of its end's half-day."""
    for m in _RANGE_START.finditer(text):
        hour, mm, end = int(m.group(1)), m.group(2) or "00", m.end(2) if m.group(2) else m.end(1)
        if 1 <= hour <= 12 and not inside(m.start(1), end, [(v.start, v.end) for v in out]):
            pm = m.group(3).casefold().startswith("p")
            h24 = hour + 12 if pm and hour < 12 else hour
            out.append(Value(frozenset({f"time:{h24:02d}:{mm}"} | ({f"time:{h24:02d}:{mm}pm"} if pm else set())),
                             ValueKind.TIME, text[m.start(1):end], m.start(1), end, "time",
                             amount=str(hour) if mm == "00" else ""))
            meridiem.append(m.group(3)[:1].casefold())


def _meridiem(written: str | None) -> str:
    ap = (written or "").casefold().replace(".", "").replace(" ", "").replace("\t", "")
    return {"inthemorning": "am", "intheafternoon": "pm", "intheevening": "pm", "atnight": "pm",
            "tonight": "pm"}.get(ap, ap)


def _spoken_times(text: str) -> list[Value]:
    """`half past 7` = 7:30, `quarter to 9` = 8:45, `20 past 6` = 6:20, `half 7 in the evening` = 19:30."""
    out: list[Value] = []
    for m in [*_SPOKEN_TIME.finditer(text), *_HALF_HOUR.finditer(text)]:
        if inside(m.start(), m.end(), [(v.start, v.end) for v in out]):
            continue
        groups = m.groupdict()
        part = (groups.get("part") or "half").casefold()
        minutes = 30 if part == "half" else 15 if part.endswith("quarter") else int(part)
        named = (groups.get("h") or "").casefold()
        named = named if named in ("midnight", "noon", "midday") else ""
        hour = 24 if named == "midnight" else 12 if named in ("noon", "midday") else int(groups.get("h") or
                                                                                         groups.get("h2") or 0)
        if not (1 <= hour <= 24 and 0 < minutes < 60):
            continue
        if named:  # `twenty to midnight` = 23:40, `quarter past noon` = 12:15: no other half of the day
            h = hour - 1 if (groups.get("dir") or "").casefold() == "to" else hour % 24
            m2 = 60 - minutes if (groups.get("dir") or "").casefold() == "to" else minutes
            out.append(Value(frozenset({f"time:{h:02d}:{m2:02d}"}), ValueKind.TIME, m.group(0).strip(), m.start(),
                             m.start() + len(m.group(0).rstrip()), "time"))
            continue
        if (groups.get("dir") or "").casefold() == "to":
            hour, minutes = (hour - 1) or 12, 60 - minutes
        ap = _meridiem(groups.get("ap") or groups.get("ap2"))
        if ap.startswith("p") and hour < 12:
            keys = {f"time:{hour + 12:02d}:{minutes:02d}", f"time:{hour + 12:02d}:{minutes:02d}pm"}
        elif ap.startswith("a"):
            keys = {f"time:{hour % 12:02d}:{minutes:02d}"}
        else:
            keys = {f"time:{hour:02d}:{minutes:02d}"} | ({f"time:{hour + 12:02d}:{minutes:02d}pm"} if hour < 12 else set())
        out.append(Value(frozenset(keys), ValueKind.TIME, m.group(0).strip(), m.start(), m.start() + len(m.group(0).rstrip()),
                         "time"))
    return out


def dates(text: str) -> list[Value]:
    out, taken = _calendar_dates(text)
    out += _weekdays(text, taken)
    for m in _MONTH_ALONE.finditer(text):
        word = m.group(1)
        if inside(m.start(), m.end(), taken) or (word.casefold() in ("may", "mar", "jan") and not word[0].isupper()):
            continue
        if word.casefold() == "may" and not re.search(r"\b(in|of|since|until|by|from|early|late|mid)\s+$",
                                                      text[max(0, m.start() - 8):m.start()], re.IGNORECASE):
            continue  # "May" opening a sentence is a verb
        end = m.end() if len(word) <= 4 else m.start() + len(word)  # a full name's full stop ends its sentence
        out.append(Value(frozenset({f"month:{MONTHS[word.casefold()]:02d}"}), ValueKind.MONTH, word, m.start(), end, "date"))
    return out


def _calendar_dates(text: str) -> tuple[list[Value], list[tuple[int, int]]]:
    """The dates `_DATE_PATTERNS` find, in their order, none within or across another; and the spans they take."""
    out: list[Value] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue  # within or across a date read before: `6 May two larvae` holds no `May 2`
            keys = _date_keys(m)
            if not keys:
                continue
            taken.append((m.start(), m.end()))
            out.append(Value(frozenset(keys), ValueKind.DATE, m.group(0), m.start(), m.end(), "date"))
    return out, taken


def _date_keys(m: re.Match[str]) -> set[str]:
    """The keys of the date `m` writes (a day, a month of a year, a part of a month); none when it is no date."""
    groups = m.groupdict()
    year = groups.get("y") or (f"20{groups['yy']}" if groups.get("yy") else None)
    if groups.get("mn"):
        month = MONTHS.get(groups["mn"].casefold().rstrip("."))
    elif groups.get("m"):
        month = int(groups["m"])
    else:
        month = None
    day = int(groups["d"]) if groups.get("d") else None
    if groups.get("a"):  # 03/04/2026: day-first or month-first, both read
        return _numeric_date_keys(m, year)
    if month is None or not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return set()
    if groups.get("part"):
        part = groups["part"].casefold().split()[-2 if groups["part"].casefold().endswith(" of") else -1]
        part = {"middle": "mid", "beginning": "early", "start": "early", "end": "late"}.get(part, part)
        return {f"date:????-{month:02d}@{part}"}
    if day is None:
        return {f"date:{year}-{month:02d}"}
    return {f"date:{year or '????'}-{month:02d}-{day:02d}"}


def _numeric_date_keys(m: re.Match[str], year: str | None) -> set[str]:
    """`03/04/2026`: day-first and month-first, both read; none for `3/4` or `24/7` without a year."""
    groups = m.groupdict()
    if year is None and not (len(groups["a"]) == len(groups["b"]) == 2 or (
            max(int(groups["a"]), int(groups["b"])) > 12 and m.group(0) != "24/7")):
        return set()  # without a year: `14/09`, `31/12`, `18/5` are dates; `3/4` and `24/7` are not
    a, b = int(groups["a"]), int(groups["b"])
    return {f"date:{year or '????'}-{mo:02d}-{d:02d}" for d, mo in ((a, b), (b, a)) if 1 <= d <= 31 and 1 <= mo <= 12}


def _weekdays(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    """`Mon-Fri`, `weekdays`, `weekends`, `on Tuesdays` (which may be every week); the spans of ranges and of
    `weekdays` are added to `taken`."""
    out: list[Value] = []
    for m in _WEEKDAY_RANGE.finditer(text):
        first, last = WEEKDAYS[m.group(1).casefold()], WEEKDAYS[m.group(2).casefold()]
        keys = {f"weekdays:{first}-{last}"} | ({"weekdays:0-4"} if (first, last) == (0, 4) else set())
        taken.append((m.start(), m.end()))
        out.append(Value(frozenset(keys), ValueKind.WEEKDAY, m.group(0), m.start(), m.end(), "weekday"))
    for m in _WEEKDAYS_WORD.finditer(text):
        if not inside(m.start(), m.end(), taken):
            key = "weekdays:5-6" if m.group(1).casefold().startswith("weekend") else "weekdays:0-4"
            taken.append((m.start(), m.end()))
            out.append(Value(frozenset({key}), ValueKind.WEEKDAY, m.group(0), m.start(), m.end(), "weekday"))
    for m in _WEEKDAY_RE.finditer(text):
        if not inside(m.start(), m.end(), taken) and not (m.group(1).casefold() in ("sat", "sun", "wed", "mon")
                                                          and m.group(1).islower()):
            day = WEEKDAYS[m.group(1).casefold()]
            out.append(Value(frozenset({f"weekday:{day}"}), ValueKind.WEEKDAY, m.group(0), m.start(), m.end(), "weekday"))
            out.append(Value(frozenset({f"freq:{fmt(1 / 604800)}"}), ValueKind.FREQUENCY, m.group(0), m.start(), m.end(),
                             "frequency", implied=True))  # `on Thursdays`, `on Tue`: maybe every week
    return out


_PERIODS = {"s": 1, "h": 3600, "d": 86400,  # after a count: `every 15 s`
            "second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400, "morning": 86400,
            "wk": 604800, "mo": 2629800, "mth": 2629800, "yr": 31557600,
            "evening": 86400, "night": 86400, "afternoon": 86400, "week": 604800, "weekend": 604800,
            "fortnight": 1209600, "month": 2629800, "quarter": 7889400, "year": 31557600, "decade": 315576000}
ADVERB_PERIODS = {"hourly": 3600, "daily": 86400, "nightly": 86400, "weekly": 604800, "fortnightly": 1209600,
                   "biweekly": 1209600, "monthly": 2629800, "quarterly": 7889400, "yearly": 31557600,
                   "annually": 31557600, "annual": 31557600}
# Latin dosing abbreviations, a closed class of medicine: times a day (qod every other day)
MEDICAL_FREQUENCIES = {"qd": (1, 86400), "od": (1, 86400), "bid": (2, 86400), "bd": (2, 86400), "tid": (3, 86400),
                       "tds": (3, 86400), "qid": (4, 86400), "qod": (1, 172800), "qam": (1, 86400), "qpm": (1, 86400),
                       "qhs": (1, 86400), "qw": (1, 604800), "qwk": (1, 604800)}
_MEDICAL = re.compile(r"(?<![\w.])(" + "|".join(MEDICAL_FREQUENCIES) + r"|b\.i\.d\.|t\.i\.d\.|q\.i\.d\.|q\.d\.)(?![\w])",
                      re.IGNORECASE)
_MEDICAL_PART = {"qam": "@morning", "qpm": "@evening", "qhs": "@night"}
_PERIOD = r"(?P<unit>" + "|".join([*_PERIODS, *WEEKDAYS]) + r")s?"
_FREQUENCIES = [re.compile(p, re.IGNORECASE) for p in (
    r"\b(?P<n>\d+(?:\.\d+)?)\s*(?:x|times)\s+(?:a|an|per|every|each|in\s+a)\s+(?:(?P<other>other|second|2nd)\s+)?"
    r"(?:(?P<k>\d+)\s+)?" + _PERIOD + r"\b",
    r"\b(?P<n>\d+(?:\.\d+)?)\s*(?:x|times)\s+(?P<adverb>" + "|".join(ADVERB_PERIODS) + r")\b",
    r"\b(?:every|each|once\s+(?:a|an|per|every))\s+(?:(?P<other>other|second|2nd)\s+)?(?:(?P<k>\d+)(?:st|nd|rd|th)?\s+)?"
    + _PERIOD + r"\b"  # `every 4th week` = `every four weeks`
    r"(?!\.?\s*(?:-|–|—|to|through|thru|until|till)\s*(?:" + _DAY_NAME + r")\b)",  # not `every Monday to Friday`
    r"\b(?:on\s+)?(?P<other>alternate|alt\.?)\s+" + _PERIOD + r"\b",  # `alternate Wednesdays` = `every other Wednesday`
    r"\b(?P<adverb>" + "|".join(ADVERB_PERIODS) + r")\b(?!\s+leave\b)",  # `annual leave` is time off
    r"(?<![\d%€$£¥]\s)(?<![\d%€$£¥])\bper\s+(?P<unit>" + "|".join(_PERIODS) + r")\b",  # `(per year)` = `annual`
    r"\bby\s+(?:the\s+)?(?P<unit>hour|day|week|month|year)\b",  # `partitioned by day` = `daily`
    r"\b(?:at\s+)?(?P<k>\d+)[\s-](?P<unit>second|minute|min|hour|day|week|month)s?\s+intervals?\b",  # `at 12-minute
    # intervals` = `every 12 min`
    r"(?<=[a-z.])\s+(?P<of>of|in)\s+(?:(?:the|each|every)\s+)?(?P<unit>month)\b",  # `1st Tues of (the) month`
)]


_Q_UNITS = {"h": 3600, "hr": 3600, "hrs": 3600, "d": 86400, "w": 604800, "wk": 604800, "wks": 604800,
            "mo": 2629800, "mos": 2629800, "mth": 2629800, "m": 2629800}
_EVERY_N = re.compile(r"(?<![\w.])q\.?(\d{1,2})\s?(hrs|hr|h|d|wks|wk|w|mos|mo|mth|m)\b", re.IGNORECASE)
_DAY_OF_MONTH = re.compile(r"(?:\d(?:st|nd|rd|th)|\b(?:first|second|third|fourth|last|" + "|".join(WEEKDAYS)
                           + r")s?\.?)$", re.IGNORECASE)


def frequencies(text: str) -> list[Value]:
    """How often: `twice a day` = `2 times daily`, `every six months` = `twice a year`, `every other week` =
    `fortnightly`; one key, times per second."""
    out: list[Value] = []
    for m in _MEDICAL.finditer(text):
        word = m.group(1).casefold().replace(".", "")
        per_day, seconds = MEDICAL_FREQUENCIES[word]
        out.append(Value(frozenset({f"freq:{fmt(per_day / seconds)}{_MEDICAL_PART.get(word, '')}"}), ValueKind.FREQUENCY,
                         m.group(0), m.start(), m.end(), "frequency"))
    for m in _EVERY_N.finditer(text):  # `q4h`, `q3mo`: the prescriber's every N hours / days / weeks / months
        every = _Q_UNITS[m.group(2).casefold()] * int(m.group(1))
        if every and not any(v.start <= m.start() < v.end for v in out):
            out.append(Value(frozenset({f"freq:{fmt(1 / every)}"}), ValueKind.FREQUENCY, m.group(0), m.start(), m.end(),
                             "frequency"))
    for pattern in _FREQUENCIES:
        for m in pattern.finditer(text):
            if any(v.start <= m.start() < v.end for v in out):
                continue
            groups = m.groupdict()
            if groups.get("of") and not _DAY_OF_MONTH.search(text, max(0, m.start() - 12), m.start()):
                continue  # `the end of the month` says when, not how often; `the 1st Tues of the month` is monthly
            times = float(groups.get("n") or 1)
            if groups.get("adverb"):
                period = float(ADVERB_PERIODS[groups["adverb"].casefold()])
            else:
                unit = groups["unit"].casefold()
                period = _PERIODS.get(unit, 604800) * float(groups.get("k") or 1)  # a weekday: once a week
                if groups.get("other"):
                    period *= 2
            if period <= 0:
                continue  # `every 0 days` is no frequency
            unit = (groups.get("unit") or "").casefold()
            if unit in WEEKDAYS:  # two facts: which day, and how often (`every other Thursday`)
                out.append(Value(frozenset({f"weekday:{WEEKDAYS[unit]}"}), ValueKind.WEEKDAY, m.group(0), m.start(),
                                 m.end(), "weekday"))
                out.append(Value(frozenset({f"freq:{fmt(times / period)}"}), ValueKind.FREQUENCY, m.group(0), m.start(),
                                 m.end(), "frequency"))
                continue
            if (groups.get("adverb") or "").casefold() == "nightly":
                unit = "night"
            part = f"@{unit}" if unit in ("morning", "evening", "night", "afternoon", "weekend") else ""
            out.append(Value(frozenset({f"freq:{fmt(times / period)}{part}"}), ValueKind.FREQUENCY, m.group(0), m.start(),
                             m.end(), "frequency"))
    return out


# A cron schedule (minute hour day-of-month month day-of-week), the five-field standard: what it says in values a
# prose restatement writes (`30 3 * * 0` = every Sunday at 03:30). Only plain fields are read; steps and lists
# are left as they are written.
_CRON = re.compile(r"(?<![\w*/,-])(?P<mi>\d{1,2})\s+(?P<h>\d{1,2})\s+(?P<dom>\*|\d{1,2})\s+(?P<mon>\*|\d{1,2})\s+"
                   r"(?P<dow>\*|[0-7](?:-[0-7])?)(?![\w*/,-])")


def cron_values(text: str) -> list[Value]:
    out: list[Value] = []
    for m in _CRON.finditer(text):
        if "*" not in m.group(0):
            continue  # five plain numbers are no schedule
        minute, hour = int(m.group("mi")), int(m.group("h"))
        if minute > 59 or hour > 23:
            continue
        span = (m.start(), m.end(), m.group(0))
        out.append(Value(frozenset({f"time:{hour:02d}:{minute:02d}"}), ValueKind.TIME, span[2], span[0], span[1], "time"))
        dom, dow = m.group("dom"), m.group("dow")
        if dow != "*":
            first, _, last = dow.partition("-")
            days = [(int(d) + 6) % 7 for d in (first, last or first)]  # cron: 0 and 7 are Sunday; here Monday is 0
            key = f"weekday:{days[0]}" if days[0] == days[1] else f"weekdays:{days[0]}-{days[1]}"
            out.append(Value(frozenset({key}), ValueKind.WEEKDAY, span[2], span[0], span[1], "weekday"))
            if days[0] == days[1]:
                out.append(Value(frozenset({f"freq:{fmt(1 / 604800)}"}), ValueKind.FREQUENCY, span[2], span[0], span[1],
                                 "frequency"))
        elif dom == "*":
            out.append(Value(frozenset({f"freq:{fmt(1 / 86400)}"}), ValueKind.FREQUENCY, span[2], span[0], span[1],
                             "frequency"))
        else:
            out.append(Value(frozenset({f"ordinal:{int(dom)}"}), ValueKind.ORDINAL, span[2], span[0], span[1], "ordinal"))
    return out


_QUARTER = re.compile(r"\b(?:(?P<q>[QH])(?P<n>[1-4])\b|(?P<ord>[1-4])(?:st|nd|rd|th)\s+(?P<part>quarter|half)\b)")


def quarters(text: str) -> list[Value]:
    """`Q3` = `the third quarter`, `H2` = `the second half` (of a year)."""
    out = []
    for m in _QUARTER.finditer(text):
        if m.group("q"):
            if m.group("q") == "H" and m.group("n") not in "12":
                continue
            part, n = ("quarter" if m.group("q") == "Q" else "half"), m.group("n")
        else:
            part, n = m.group("part"), m.group("ord")
            if part == "half" and n not in "12":
                continue
        out.append(Value(frozenset({f"{part}:{n}"}), ValueKind.DATE, m.group(0), m.start(), m.end(), "date"))
    return out


__all__ = ["ADVERB_PERIODS", "MEDICAL_FREQUENCIES", "MONTHS", "WEEKDAYS", "cron_values", "dates", "frequencies", "quarters", "times"]
