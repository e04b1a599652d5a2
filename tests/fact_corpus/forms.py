"""Value forms for the generated fact corpus: how each annotated slot of a seed note can be written another way
(same meaning) or changed (different meaning). Standard library only; deterministic given a `random.Random`.

A seed slot is written `{type:text}`, `{type:text|alt|alt}` (alternatives given by hand) or `{type*:text}` (the
slot is a subject that values are bound to). The tables below are the generator's, not the lens's: they say what
a value means so that a mutation is well defined, nothing about how a lens should find it."""
from __future__ import annotations

import random
import re

WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a hundred": 100, "a dozen": 12,
}
NUMBER_WORD = {v: k for k, v in WORDS.items() if k != "a dozen"}

# unit → (dimension, spelled singular, spelled plural); the first spelling in each dimension list is the swap target
UNITS = {
    "mg": ("mass", "milligram", "milligrams"), "g": ("mass", "gram", "grams"), "kg": ("mass", "kilogram", "kilograms"),
    "mcg": ("mass", "microgram", "micrograms"),
    "ml": ("volume", "millilitre", "millilitres"), "l": ("volume", "litre", "litres"),
    "KB": ("data", "kilobyte", "kilobytes"), "MB": ("data", "megabyte", "megabytes"),
    "GB": ("data", "gigabyte", "gigabytes"), "TB": ("data", "terabyte", "terabytes"),
    "mm": ("length", "millimetre", "millimetres"), "cm": ("length", "centimetre", "centimetres"),
    "m": ("length", "metre", "metres"), "km": ("length", "kilometre", "kilometres"),
    "miles": ("length", "mile", "miles"),
    "min": ("time", "minute", "minutes"), "minutes": ("time", "minute", "minutes"),
    "hours": ("time", "hour", "hours"), "days": ("time", "day", "days"), "weeks": ("time", "week", "weeks"),
    "months": ("time", "month", "months"), "years": ("time", "year", "years"), "seconds": ("time", "second", "seconds"),
    "°C": ("temp", "degree Celsius", "degrees Celsius"), "°F": ("temp", "degree Fahrenheit", "degrees Fahrenheit"),
    "%": ("share", "percent", "percent"), "percent": ("share", "percent", "percent"),
    "km/h": ("speed", "kilometre per hour", "kilometres per hour"), "mph": ("speed", "mile per hour", "miles per hour"),
    "W": ("power", "watt", "watts"), "kW": ("power", "kilowatt", "kilowatts"),
    "ms": ("time", "millisecond", "milliseconds"), "GHz": ("freq", "gigahertz", "gigahertz"),
    "MHz": ("freq", "megahertz", "megahertz"), "hour": ("time", "hour", "hours"), "minute": ("time", "minute", "minutes"),
    "day": ("time", "day", "day"), "week": ("time", "week", "weeks"), "month": ("time", "month", "months"),
}
UNIT_SWAP = {"mg": "g", "g": "mg", "kg": "g", "mcg": "mg", "ml": "l", "l": "ml", "KB": "MB", "MB": "GB", "GB": "MB",
             "TB": "GB", "mm": "cm", "cm": "mm", "m": "km", "km": "miles", "miles": "km", "min": "hours",
             "minutes": "hours", "hours": "minutes", "days": "weeks", "weeks": "days", "months": "weeks",
             "years": "months", "seconds": "minutes", "°C": "°F", "°F": "°C", "km/h": "mph", "mph": "km/h",
             "W": "kW", "kW": "W", "hour": "minute", "minute": "hour", "day": "week",
             "week": "day", "month": "week", "ms": "seconds", "GHz": "MHz", "MHz": "GHz"}
NO_SPACE_UNITS = {"%", "°C", "°F"}

CURRENCIES = {"€": ("euro", "euros", "EUR"), "$": ("dollar", "dollars", "USD"), "£": ("pound", "pounds", "GBP")}
CURRENCY_SWAP = {"€": "$", "$": "£", "£": "€"}

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]

# phrases in one group mean the same; a phrase of another group is a different frequency
FREQUENCIES = [
    ["daily", "every day", "each day"], ["twice a day", "two times a day", "twice daily"],
    ["three times a day", "3 times a day"], ["once a week", "weekly", "every week"],
    ["twice a week", "two times a week", "2 times a week"], ["three times a week", "3 times a week"],
    ["every other day", "every second day"], ["once a month", "monthly", "every month"],
    ["every two weeks", "every other week", "fortnightly"], ["hourly", "every hour"],
    ["once a year", "yearly", "every year", "annually"], ["every morning", "each morning"],
    ["every evening", "each evening"], ["every night", "nightly"], ["twice a month", "two times a month"],
    ["every weekend", "each weekend"], ["every six months", "twice a year"],
]
QUANTIFIERS = [
    ["all", "most", "some", "few", "none of the"], ["every", "some", "no"],
    ["always", "usually", "often", "sometimes", "rarely", "never"],
    ["at least", "at most", "exactly"], ["both", "neither", "one of"], ["more than", "less than", "exactly"],
    ["most", "few", "all", "some"], ["everyone", "no one", "someone"], ["many", "few"],
]
ANTONYMS = dict(p for a, b in [
    ("enabled", "disabled"), ("enable", "disable"), ("allow", "deny"), ("allowed", "blocked"), ("allows", "blocks"),
    ("increase", "decrease"), ("increased", "decreased"), ("faster", "slower"), ("before", "after"),
    ("above", "below"), ("north", "south"), ("east", "west"), ("inbound", "outbound"), ("upload", "download"),
    ("uploads", "downloads"), ("must", "may"), ("required", "optional"), ("maximum", "minimum"),
    ("higher", "lower"), ("more", "less"), ("earlier", "later"), ("left", "right"), ("hot", "cold"),
    ("warm", "cool"), ("open", "closed"), ("on", "off"), ("accepted", "rejected"), ("include", "exclude"),
    ("includes", "excludes"), ("public", "private"), ("start", "stop"), ("first", "last"), ("likes", "dislikes"),
    ("loves", "hates"), ("prefers", "avoids"), ("indoors", "outdoors"), ("upstairs", "downstairs"),
    ("bought", "sold"), ("lent", "borrowed"), ("won", "lost"), ("import", "export"), ("safe", "unsafe"),
    ("passed", "failed"), ("older", "younger"), ("larger", "smaller"), ("cheaper", "pricier"), ("wet", "dry"),
    ("arrives", "departs"), ("incoming", "outgoing"), ("ascending", "descending"), ("added", "removed"),
    ("full sun", "full shade"), ("raise", "lower"), ("gained", "lost"), ("credit", "debit"), ("heavier", "lighter"),
    ("long", "short"), ("mild", "severe"), ("allergic", "tolerant"), ("stronger", "weaker"), ("early", "late"),
    ("inside", "outside"), ("push", "pull"), ("read-only", "read-write"), ("uphill", "downhill"),
    ("winter", "summer"), ("morning", "evening"), ("under", "over"), ("with", "without"), ("lend", "borrow"),
    ("win", "lose"), ("encrypted", "unencrypted"), ("sweet", "savoury"), ("front", "back"), ("above-ground",
    "underground"), ("odd", "even"), ("clockwise", "anticlockwise"), ("plus", "minus"),
] for p in ((a, b), (b, a)))

CONTRACTIONS = [("does not", "doesn't"), ("do not", "don't"), ("did not", "didn't"), ("is not", "isn't"),
                ("are not", "aren't"), ("was not", "wasn't"), ("cannot", "can't"), ("will not", "won't"),
                ("should not", "shouldn't"), ("must not", "mustn't"), ("has not", "hasn't"),
                ("have not", "haven't"), ("would not", "wouldn't"), ("could not", "couldn't"), ("it is", "it's")]

POOLS = {
    "person": ["Ana", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Liam",
               "Maya", "Noor", "Oscar", "Priya", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yusuf", "Zoe"],
    "place": ["Lisbon", "Porto", "Kyoto", "Oslo", "Denver", "Nairobi", "Tallinn", "Cork", "Bruges", "Lyon", "Austin",
              "Valencia", "Ghent", "Bergen", "Graz", "Malmö", "Leeds", "Utrecht"],
    "drug": ["metformin", "lisinopril", "ibuprofen", "amoxicillin", "azithromycin", "atorvastatin", "levothyroxine",
             "sertraline", "omeprazole", "cetirizine", "paracetamol", "warfarin", "prednisone", "loratadine"],
    "pkg": ["requests", "numpy", "pandas", "redis", "postgres", "kafka", "nginx", "terraform", "ansible", "pytest",
            "django", "flask", "celery", "rabbitmq", "sqlite", "helm", "prometheus", "grafana", "rsync", "webpack",
            "openssl", "httpx", "pydantic", "alembic", "uvicorn"],
    "food": ["peanuts", "shellfish", "gluten", "lactose", "sesame", "eggs", "soy", "kiwi", "walnuts", "mustard"],
    "plant": ["basil", "tomatoes", "lavender", "rosemary", "mint", "dahlias", "roses", "courgettes", "chillies",
              "thyme", "peonies", "blueberries"],
    "rel": ["sister", "brother", "cousin", "aunt", "uncle", "niece", "nephew", "mother", "father", "daughter", "son",
            "grandmother", "neighbour", "colleague", "stepbrother", "godmother"],
    "role": ["manager", "team lead", "intern", "reviewer", "owner", "admin", "on-call engineer", "director",
             "treasurer", "secretary", "coach", "captain"],
    "brand": ["Toyota", "Honda", "Skoda", "Volvo", "Subaru", "Kia", "Mazda", "Renault", "Fiat", "Peugeot"],
    "lang": ["Python", "Rust", "Go", "Java", "Kotlin", "TypeScript", "Ruby", "Elixir"],
    "org": ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Vandelay"],
    "tool": ["vim", "emacs", "tmux", "zsh", "git", "jq", "curl", "make", "htop", "ripgrep", "fzf", "black", "ruff"],
    "animal": ["cat", "dog", "rabbit", "parrot", "hamster", "tortoise", "ferret", "guinea pig"],
    "sport": ["tennis", "football", "basketball", "volleyball", "badminton", "squash", "rugby", "cricket"],
    "colour": ["red", "blue", "green", "yellow", "black", "white", "grey", "orange"],
}
ENTITY_TYPES = set(POOLS) | {"word"}

NUM_RE = re.compile(r"^(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|" +
                    "|".join(sorted((re.escape(w) for w in WORDS), key=len, reverse=True)) +
                    r")(?P<sp>\s*)(?P<unit>.*)$")
MONEY_RE = re.compile(r"^(?P<sym>[€$£])(?P<amt>[\d,]+(?:\.\d+)?)$")
DATE_DMY = re.compile(r"^(?P<d>\d{1,2}) (?P<m>[A-Z][a-z]+)(?: (?P<y>\d{4}))?$")
DATE_MDY = re.compile(r"^(?P<m>[A-Z][a-z]+) (?P<d>\d{1,2})(?:, (?P<y>\d{4}))?$")
DATE_ISO = re.compile(r"^(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})$")
TIME_24 = re.compile(r"^(?P<h>\d{1,2}):(?P<m>\d{2})$")
TIME_12 = re.compile(r"^(?P<h>\d{1,2})(?::(?P<m>\d{2}))? ?(?P<ap>am|pm)$")
RANGE_RE = re.compile(r"^(?P<a>\d+)(?P<sep>–|-| to )(?P<b>\d+)(?P<rest>.*)$")


def _keep_case(old: str, new: str) -> str:
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


# ---- numbers and quantities -------------------------------------------------------------------------------------
def parse_num(text: str) -> tuple[float, str, str, str] | None:
    """(value, style, spacing, unit) where style is 'word', 'comma' or 'digit'."""
    m = NUM_RE.match(text)
    if not m:
        return None
    raw = m["num"]
    if raw in WORDS:
        return float(WORDS[raw]), "word", m["sp"], m["unit"]
    return float(raw.replace(",", "")), ("comma" if "," in raw else "digit"), m["sp"], m["unit"]


def fmt_number(value: float, style: str) -> str:
    if style == "word" and value in NUMBER_WORD:
        return NUMBER_WORD[int(value)]
    if value != int(value):
        return f"{value:g}"
    return f"{int(value):,}" if style == "comma" else str(int(value))


def _with_unit(number: str, sp: str, unit: str) -> str:
    return f"{number}{sp}{unit}" if unit else number


def num_format(text: str, rng: random.Random) -> str | None:
    p = parse_num(text)
    if not p:
        return None
    value, style, sp, unit = p
    options = []
    if style == "word":
        options.append(_with_unit(fmt_number(value, "digit"), sp or " ", unit))
    elif value in NUMBER_WORD and value <= 20 and (not unit or UNITS.get(unit.split(" ")[0], ("", "", ""))[2]
                                                   in ("", unit.split(" ")[0])):
        options.append(_with_unit(NUMBER_WORD[int(value)], sp or " ", unit))
    if value >= 1000 and value == int(value) and (unit or style == "comma"):
        options.append(_with_unit(fmt_number(value, "digit" if style == "comma" else "comma"), sp, unit))
    head, _, tail = unit.partition(" ")
    if head in UNITS and UNITS[head][1] != head and head not in ("percent", "minutes", "hours", "days", "weeks",
                                                                   "months", "years", "seconds", "miles"):
        spelled = UNITS[head][1] if value == 1 else UNITS[head][2]
        options.append(_with_unit(fmt_number(value, style), " ", (spelled + " " + tail).strip()))
    if head == "percent":
        options.append(_with_unit(fmt_number(value, "digit"), "", ("%" + " " + tail).rstrip()))
    if head == "minutes":
        options.append(_with_unit(fmt_number(value, style), " ", ("min " + tail).strip()))
    return rng.choice(options) if options else None


def num_alter(text: str, rng: random.Random) -> str | None:
    p = parse_num(text)
    if not p:
        return None
    value, style, sp, unit = p
    if value != int(value):
        candidates = [value + 0.5, value * 2, value + 1]
    else:
        v = int(value)
        candidates = [v + 1, v * 2, v + 10, v - 1 if v > 2 else v + 3, v * 3]
        if style == "word":
            candidates = [c for c in candidates if c in NUMBER_WORD] or candidates
    new = rng.choice([c for c in candidates if c != value and c > 0])
    return _with_unit(fmt_number(new, style), sp, unit)


def num_unit(text: str, rng: random.Random) -> str | None:
    p = parse_num(text)
    if not p:
        return None
    value, style, _sp, unit = p
    head, _, tail = unit.partition(" ")
    if head not in UNIT_SWAP:
        return None
    new = UNIT_SWAP[head]
    spacing = "" if new in NO_SPACE_UNITS else " "
    return _with_unit(fmt_number(value, style), spacing, (new + " " + tail).strip())


# ---- money ------------------------------------------------------------------------------------------------------
def money_format(text: str, rng: random.Random) -> str | None:
    m = MONEY_RE.match(text)
    if not m:
        return None
    sym, amt = m["sym"], m["amt"]
    single, plural, code = CURRENCIES[sym]
    plain = amt.replace(",", "")
    options = [f"{plain if rng.random() < .5 else amt} {single if plain == '1' else plural}", f"{code} {amt}"]
    if "," in amt:
        options.append(f"{sym}{plain}")
    elif len(plain.split(".")[0]) >= 4:
        options.append(f"{sym}{int(plain.split('.')[0]):,}" + ("." + plain.split(".")[1] if "." in plain else ""))
    return rng.choice(options)


def money_alter(text: str, rng: random.Random) -> str | None:
    m = MONEY_RE.match(text)
    if not m:
        return None
    new = num_alter(m["amt"], rng)
    return f"{m['sym']}{new}" if new else None


def money_unit(text: str, rng: random.Random) -> str | None:
    m = MONEY_RE.match(text)
    return f"{CURRENCY_SWAP[m['sym']]}{m['amt']}" if m else None


# ---- dates, times, weekdays, ordinals ----------------------------------------------------------------------------
def parse_date(text: str) -> tuple[int | None, int, int, str] | None:
    for rx, style in ((DATE_DMY, "dmy"), (DATE_MDY, "mdy")):
        m = rx.match(text)
        if m and m["m"] in MONTHS:
            return (int(m["y"]) if m["y"] else None), MONTHS.index(m["m"]) + 1, int(m["d"]), style
    m = DATE_ISO.match(text)
    return (int(m["y"]), int(m["m"]), int(m["d"]), "iso") if m else None


def render_date(y: int | None, mo: int, d: int, style: str) -> str:
    name = MONTHS[mo - 1]
    if style == "iso" and y:
        return f"{y:04d}-{mo:02d}-{d:02d}"
    if style == "mdy":
        return f"{name} {d}, {y}" if y else f"{name} {d}"
    if style == "th":
        return f"the {d}{_suffix(d)} of {name}" + (f" {y}" if y else "")
    return f"{d} {name} {y}" if y else f"{d} {name}"


def date_format(text: str, rng: random.Random) -> str | None:
    p = parse_date(text)
    if not p:
        return None
    y, mo, d, style = p
    styles = [s for s in ("dmy", "mdy", "iso", "th") if s != style and (y or s != "iso")]
    return render_date(y, mo, d, rng.choice(styles))


def date_alter(text: str, rng: random.Random) -> str | None:
    p = parse_date(text)
    if not p:
        return None
    y, mo, d, style = p
    if rng.random() < .5:
        d = d + rng.choice([1, 2, 7, 10]) if d <= 18 else d - rng.choice([1, 3, 7])
    else:
        mo = mo % 12 + 1
    return render_date(y, mo, d, style)


def parse_time(text: str) -> tuple[int, int, str] | None:
    m = TIME_24.match(text)
    if m:
        return int(m["h"]), int(m["m"]), "24"
    m = TIME_12.match(text)
    if m:
        h = int(m["h"]) % 12 + (12 if m["ap"] == "pm" else 0)
        return h, int(m["m"] or 0), "12" if m["m"] else "12h"
    return None


def render_time(h: int, mi: int, style: str) -> str:
    if style == "24":
        return f"{h:02d}:{mi:02d}"
    ap = "pm" if h >= 12 else "am"
    h12 = h % 12 or 12
    return f"{h12} {ap}" if style == "12h" and mi == 0 else f"{h12}:{mi:02d} {ap}"


def time_format(text: str, rng: random.Random) -> str | None:
    p = parse_time(text)
    if not p:
        return None
    h, mi, style = p
    return render_time(h, mi, "12" if style == "24" else "24")


def time_alter(text: str, rng: random.Random) -> str | None:
    p = parse_time(text)
    if not p:
        return None
    h, mi, style = p
    h = (h + rng.choice([1, 2, 3, 12])) % 24
    return render_time(h, mi, style)


def day_format(text: str, rng: random.Random) -> str | None:
    base = text[:-1] if text.endswith("s") else text
    if base in WEEKDAYS:
        return base[:3]
    for d in WEEKDAYS:
        if d[:3] == text:
            return d
    return None


def day_alter(text: str, rng: random.Random) -> str | None:
    plural = text.endswith("s") and text[:-1] in WEEKDAYS
    base = text[:-1] if plural else text
    if base in WEEKDAYS:
        new = rng.choice([d for d in WEEKDAYS if d != base])
        return new + ("s" if plural else "")
    if base in [d[:3] for d in WEEKDAYS]:
        return rng.choice([d[:3] for d in WEEKDAYS if d[:3] != base])
    return None


def _suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def ord_format(text: str, rng: random.Random) -> str | None:
    low = text.lower()
    if low in ORDINALS:
        n = ORDINALS.index(low) + 1
        return f"{n}{_suffix(n)}"
    m = re.match(r"^(\d+)(st|nd|rd|th)$", text)
    if m and 1 <= int(m[1]) <= 10:
        return ORDINALS[int(m[1]) - 1]
    return None


def ord_alter(text: str, rng: random.Random) -> str | None:
    low = text.lower()
    if low in ORDINALS:
        i = ORDINALS.index(low)
        j = i + 1 if i < 9 and (i == 0 or rng.random() < .5) else i - 1
        return _keep_case(text, ORDINALS[j])
    m = re.match(r"^(\d+)(st|nd|rd|th)$", text)
    if m:
        n = int(m[1]) + 1
        return f"{n}{_suffix(n)}"
    return None


# ---- words of closed classes --------------------------------------------------------------------------------------
def _group_of(text: str, groups: list[list[str]]) -> list[str] | None:
    low = text.lower()
    return next((g for g in groups if low in g), None)


def freq_format(text: str, rng: random.Random) -> str | None:
    g = _group_of(text, FREQUENCIES)
    others = [w for w in (g or []) if w != text.lower()]
    return _keep_case(text, rng.choice(others)) if others else None


def freq_alter(text: str, rng: random.Random) -> str | None:
    g = _group_of(text, FREQUENCIES)
    if g is None:
        return None
    other = rng.choice([h for h in FREQUENCIES if h is not g])
    return _keep_case(text, rng.choice(other))


def quant_alter(text: str, rng: random.Random) -> str | None:
    g = _group_of(text, QUANTIFIERS)
    if g is None:
        return None
    return _keep_case(text, rng.choice([w for w in g if w != text.lower()]))


def antonym(text: str, rng: random.Random) -> str | None:
    low = text.lower()
    return _keep_case(text, ANTONYMS[low]) if low in ANTONYMS else None


def contraction_toggle(text: str, rng: random.Random) -> str | None:
    for full, short in CONTRACTIONS:
        for a, b in ((full, short), (short, full)):
            i = text.lower().find(a)
            if i >= 0:
                return text[:i] + _keep_case(text[i:i + len(a)], b) + text[i + len(a):]
    return None


def entity_alter(kind: str, text: str, rng: random.Random) -> str | None:
    pool = [w for w in POOLS.get(kind, []) if w.lower() != text.lower()]
    if not pool:
        return None
    new = rng.choice(pool)
    return new.lower() if text.islower() else _keep_case(text, new)


def range_alter(text: str, rng: random.Random) -> str | None:
    m = RANGE_RE.match(text)
    return f"{m['a'] if rng.random() < .5 else m['b']}{m['rest']}" if m else None


def range_format(text: str, rng: random.Random) -> str | None:
    m = RANGE_RE.match(text)
    if not m:
        return None
    seps = [s for s in ("–", " to ") if s != m["sep"]]
    if rng.random() < .3:
        return f"between {m['a']} and {m['b']}{m['rest']}"
    return f"{m['a']}{rng.choice(seps)}{m['b']}{m['rest']}"


def list_items(text: str) -> tuple[list[str], str] | None:
    for conj in (" and ", " or "):
        if conj in text:
            head, last = text.rsplit(conj, 1)
            items = [s.strip() for s in head.split(",")] + [last.strip()]
            items = [s for s in items if s]
            return (items, conj.strip()) if len(items) >= 2 else None
    return None


def join_list(items: list[str], conj: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {conj} " + items[-1]


def list_drop(text: str, rng: random.Random) -> str | None:
    p = list_items(text)
    if not p or len(p[0]) < 2:
        return None
    items, conj = p
    i = rng.randrange(len(items))
    return join_list(items[:i] + items[i + 1:], conj)


def list_reorder(text: str, rng: random.Random) -> str | None:
    p = list_items(text)
    if not p:
        return None
    items, conj = p
    new = items[1:] + items[:1] if len(items) > 2 and rng.random() < .5 else list(reversed(items))
    return join_list(new, conj)


FORMATTERS = {"num": num_format, "money": money_format, "date": date_format, "time": time_format,
              "day": day_format, "ord": ord_format, "freq": freq_format, "range": range_format,
              "neg": contraction_toggle, "list": list_reorder}
ALTERERS = {"num": num_alter, "money": money_alter, "date": date_alter, "time": time_alter, "day": day_alter,
            "ord": ord_alter, "range": range_alter}
DROPPABLE = {"cond", "mod", "tz", "hedge", "only"}
