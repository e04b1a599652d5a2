"""The closed classes of English that carry meaning in a note, listed whole (not the examples seen so far).

Open-class words (nouns, verbs, adjectives) are weighed by rarity and WordNet (see `notes.py`); the words
here are function words and fixed phrases whose class is finite: a grammar lists them all. Each maps to
`(class, value)`: two spellings with the same pair are the same fact ("doesn't" = "does not" → negation),
a changed value within a class is a changed fact ("always" → "usually"), and a class present in one text's
clause but not in the aligned clause of the other is a dropped or added fact ("only", "unless", "never").

No library lists these classes (WordNet has no function words; spaCy's lists are stop words, not meanings),
so they are written here once, by class.
"""
from __future__ import annotations

from ...netfx import StrEnum


class MarkerClass(StrEnum):
    """A marker's class (notes.Marker.cls): the lexicon's classes below, each also a report.FactKind."""

    NEGATION = "negation"
    QUANTIFIER = "quantifier"
    DEGREE = "degree"
    FREQUENCY = "frequency"
    RESTRICTION = "restriction"
    CONDITION = "condition"
    COMPARISON = "comparison"
    ORDER = "order"
    DIRECTION = "direction"
    STATE = "state"
    MODALITY = "modality"
    HEDGE = "hedge"
    BOUND = "bound"  # `at least`, `up to`: read with the amount it bounds (values.py), never a marker

# Contractions expand before anything else ("doesn't" → "does not"), so polarity is read once. The list is
# the closed set of English negative and auxiliary contractions.
CONTRACTIONS = {
    "won't": "will not", "can't": "can not", "cannot": "can not", "shan't": "shall not", "ain't": "is not",
    "n't": " not", "'re": " are", "'ve": " have", "'ll": " will", "'d": " would", "'m": " am",
}

_CLASSES: dict[str, dict[str, str]] = {
    # polarity: every English negator (determiners, pronouns, adverbs, the preposition "without")
    "negation": {
        w: "not" for w in (
            "not no never none nothing nobody noone nowhere neither nor without lack lacks lacking "
            "absent hardly barely scarcely minus"
        ).split()
    } | {"no one": "not", "not any": "not", "no longer": "not", "not yet": "not", "by no means": "not",
         "in no way": "not", "not at all": "not", "no more": "not", "rather than": "not", "instead of": "not",
         # a prohibition is a negation however it is worded (`Don't X` = `X is off-limits` = `X is not allowed`)
         "forbidden": "not", "prohibited": "not", "banned": "not", "off-limits": "not", "off limits": "not",
         "disallowed": "not", "not allowed": "not", "not permitted": "not",
         # predicates that deny what follows them (`Don't reconcile until …` = `Hold off reconciling till …`)
         "off the table": "not", "off the menu": "not", "hold off": "not", "holds off": "not", "held off": "not",
         "holding off": "not", "refrain from": "not", "steer clear of": "not", "avoid": "not", "avoids": "not",
         "avoided": "not", "avoiding": "not"},
    # quantifiers: how much of a set (the determiners and pronouns of quantity)
    "quantifier": {
        "all": "all", "every": "all", "each": "all", "any": "any", "whole": "all", "entire": "all",
        "everything": "all", "everyone": "all", "everybody": "all", "everywhere": "all", "both": "both",
        "some": "some", "several": "several", "many": "many", "much": "many", "most": "most",
        "majority": "most", "mostly": "most", "few": "few", "a few": "several", "little": "few",
        "mainly": "most", "largely": "most", "chiefly": "most", "primarily": "most", "predominantly": "most",
        "a little": "some", "minority": "few", "plenty": "many", "numerous": "many", "lots": "many",
        "a lot": "many", "either": "either", "half": "half", "dozen": "dozen", "dozens": "dozens",
        "hundreds": "hundreds", "thousands": "thousands", "millions": "millions", "couple": "couple",
        "a couple": "couple", "a pair": "couple", "single": "one", "alone": "one",
        "others": "other", "another": "other", "enough": "enough", "partly": "some", "partially": "some",
        "fully": "all", "completely": "all", "entirely": "all", "totally": "all",
        "not all": "not all", "not every": "not all", "not everyone": "not all", "not everything": "not all",
        "not each": "not all", "not both": "not all", "one of the": "one of", "one of": "one of", "among the": "one of",
    },
    # degree: how far a state holds (`almost dry`, `nearly full`, `partly paid`); with an amount, also its bound
    "degree": {
        "almost": "almost", "nearly": "almost", "practically": "almost", "virtually": "almost",
        "all but": "almost", "not quite": "almost", "barely": "barely", "slightly": "slightly",
        "somewhat": "slightly", "a bit": "slightly", "half": "half", "halfway": "half",
        # how strongly: intensifiers and downtoners, a closed class (`very tannic` ≠ `mildly tannic`)
        "mildly": "slightly", "a little": "slightly", "fairly": "slightly", "moderately": "slightly",
        "very": "very", "extremely": "very", "highly": "very",
        "severely": "very", "heavily": "very", "strongly": "very", "intensely": "very",
    },
    # frequency adverbs and adjectives (numbers of times per period are read by `values.py`)
    "frequency": {
        "always": "always", "constantly": "always", "continuously": "always", "forever": "always",
        "usually": "usually", "normally": "usually", "generally": "usually", "typically": "usually",
        "mostly": "usually", "often": "often", "frequently": "often", "regularly": "often",
        "sometimes": "sometimes", "every so often": "sometimes", "from time to time": "sometimes",
        "occasionally": "sometimes", "periodically": "sometimes",
        "rarely": "rarely", "seldom": "rarely", "infrequently": "rarely", "hardly ever": "rarely",
        "ever": "ever", "again": "again", "once": "once", "twice": "twice", "thrice": "thrice",
        "daily": "1/day", "nightly": "1/day", "weekly": "1/week", "fortnightly": "1/2week", "biweekly": "1/2week",
        "monthly": "1/month", "quarterly": "1/quarter", "yearly": "1/year", "annually": "1/year", "annual": "1/year",
        "hourly": "1/hour", "every day": "1/day", "every night": "1/day", "every morning": "1/day",
        "every evening": "1/day", "every week": "1/week", "every month": "1/month", "every year": "1/year",
        "every hour": "1/hour", "every other day": "1/2day", "every other week": "1/2week",
        "each day": "1/day", "each week": "1/week", "each month": "1/month", "each year": "1/year",
        "a day": "1/day", "a week": "1/week", "a month": "1/month", "a year": "1/year", "an hour": "1/hour",
        "per day": "1/day", "per week": "1/week", "per month": "1/month", "per year": "1/year", "per hour": "1/hour",
        "every time": "always", "each time": "always", "every single time": "always", "at all times": "always",
        "all the time": "always", "without fail": "always",
        "on weekends": "weekend", "weekends": "weekend", "weekdays": "weekday", "on weekdays": "weekday",
    },
    # restriction and exception: what narrows a statement
    "restriction": {
        "only": "only", "just": "only", "solely": "only", "sole": "only", "exclusively": "only", "merely": "only",
        "nobody else": "only", "no one else": "only", "nothing else": "only", "no other": "only",  # `…, nobody else`
        "purely": "only", "strictly": "only", "except": "except", "excluding": "except", "exception": "except",
        "except for": "except", "all but": "except", "but one": "except", "other than": "except",
        "apart from": "except", "aside from": "except",
        "besides": "also", "but not": "except", "save for": "except", "including": "including",
        "incl": "including", "inc": "including", "excl": "except", "w/o": "except",  # note shorthand
        "especially": "especially", "particularly": "especially", "specifically": "especially",
        "even": "even", "also": "also", "too": "also", "as well": "also", "in addition": "also",
        # an amount on top of another, not part of it (`six plus the two kids` ≠ `six including the two kids`)
        "plus": "plus", "on top of": "plus", "in addition to": "plus", "as well as": "plus",
    },
    # conditions: subordinators that make a statement hold only sometimes
    "condition": {
        "if": "if", "unless": "unless", "when": "when", "whenever": "when", "while": "while",
        "provided": "if", "providing": "if", "as long as": "if", "so long as": "if", "in case": "if",
        "assuming": "if", "given that": "if", "once": "once", "until": "until", "till": "until",
        "otherwise": "otherwise", "whether": "whether", "depending": "depending", "depends": "depending",
        "only if": "only if", "only when": "only if", "only whenever": "only if", "only once": "only if",
        "even if": "even if", "even though": "though", "although": "though",
        "though": "though", "because": "because", "since": "since", "due to": "because", "so that": "so that",
        # which of two limits counts: `whichever comes first` = `whichever is sooner`
        **{f"whichever {verb}{word}": "whichever first" for verb in ("", "comes ", "is ", "happens ", "occurs ")
           for word in ("first", "sooner", "earlier", "earliest", "soonest")},
        **{f"whichever {verb}{word}": "whichever last" for verb in ("", "comes ", "is ", "happens ", "occurs ")
           for word in ("last", "later", "latest")},
    },
    # comparison: the comparative and superlative function words (inflected -er/-est adjectives: notes.py)
    "comparison": {
        "more": "more", "less": "less", "fewer": "less", "most": "most", "least": "least", "than": "than",
        "same": "same", "different": "different", "differs": "different", "equal": "same", "equally": "same",
        "as much as": "same", "similar": "same", "unlike": "different", "better": "better", "worse": "worse",
        "best": "best", "worst": "worst", "prefer": "prefer", "prefers": "prefer", "preferred": "prefer",
        "rather": "prefer", "instead": "instead",
    },
    # bounds on a value: how an amount is qualified
    "bound": {
        "at least": ">=", "at most": "<=", "no later than": "<=", "not later than": "<=", "by": "<=",
        "no earlier than": ">=", "not before": ">=", "not after": "<=", "no more than": "<=", "no less than": ">=", "not more than": "<=",
        "not less than": ">=", "no fewer than": ">=", "not fewer than": ">=",
        "up to": "<=", "as much as": "<=", "as many as": "<=", "more than": ">", "less than": "<", "fewer than": "<",
        "over": ">", "under": "<", "above": ">", "below": "<", "exceeding": ">", "within": "<=",
        "capped at": "<=", "caps at": "<=", "limited to": "<=", "at the most": "<=", "at the least": ">=",
        "exceeds": ">", "exceed": ">", "exceeded": ">", "not exceeding": "<=", "goes above": ">", "goes over": ">",
        "approx": "~", "minimum": ">=", "maximum": "<=", "min": ">=", "max": "<=", "or more": ">=", "or less": "<=",
        "maximum of": "<=", "minimum of": ">=", "max of": "<=", "min of": ">=",
        "capacity": "<=", "capacity of": "<=", "seats up to": "<=",  # a capacity is a maximum
        "or fewer": "<=", "exactly": "=", "precisely": "=", "approximately": "~", "about": "~", "around": "~", "est": "~", "estimated": "~",
        "roughly": "~", "nearly": "~<", "almost": "~<", "circa": "~", "ca": "~", "c.": "~", "some": "~",
        "born around": "~",
        "between": "range", "from": "from", "to": "to",
        "at the latest": "<=", "at the earliest": ">=",  # after a moment (values._MOMENT_BOUND_AFTER)
    },
    # order in time and sequence
    "order": {
        "before": "before", "after": "after", "earlier": "before", "later": "after", "prior": "before",
        "afterwards": "after", "beforehand": "before", "previously": "before", "formerly": "before",
        "then": "after", "next": "next", "last": "last", "first": "first", "firstly": "first", "finally": "last",
        "latest": "last", "earliest": "first", "previous": "previous", "following": "next",
        "preceding": "previous", "subsequent": "next", "since": "since", "until": "until", "by": "by",
        "during": "during", "already": "already", "still": "still", "unchanged": "still", "yet": "yet", "soon": "soon",
        "ahead of": "before", "in advance of": "before", "in advance": "before", "prior to": "before",
        "used to": "before",
        "now": "now", "currently": "now", "no longer": "no longer", "anymore": "no longer",
        "any more": "no longer", "former": "previous", "new": "new", "old": "old", "recently": "recent",
    },
    # direction and position
    "direction": {
        "north": "north", "south": "south", "east": "east", "west": "west", "northeast": "northeast",
        "northwest": "northwest", "southeast": "southeast", "southwest": "southwest", "northern": "north",
        "southern": "south", "eastern": "east", "western": "west", "left": "left", "right": "right",
        "up": "up", "down": "down", "upward": "up", "upwards": "up", "downward": "down", "downwards": "down",
        "upstairs": "up", "downstairs": "down", "above": "up", "below": "down", "beneath": "down",
        "underneath": "down", "upper": "up", "lower": "down", "top": "top", "bottom": "bottom",
        "inbound": "in", "outbound": "out", "incoming": "in", "outgoing": "out", "inside": "in",
        "outside": "out", "indoors": "in", "outdoors": "out", "internal": "in", "external": "out",
        "upstream": "upstream", "downstream": "downstream", "forward": "forward", "backward": "back",
        "backwards": "back", "back": "back", "front": "front", "behind": "behind", "ahead": "ahead",
        "clockwise": "clockwise", "counterclockwise": "counterclockwise", "anticlockwise": "counterclockwise",
        "into": "in", "onto": "on", "out of": "out", "away": "away", "toward": "toward", "towards": "toward",
    },
    # states of a switch or a setting (`on`/`off` are read as states only at the end of a clause: notes.py)
    "state": {
        "enabled": "on", "disabled": "off", "switched on": "on", "switched off": "off", "turned on": "on",
        "turned off": "off", "activated": "on", "deactivated": "off", "active": "on", "inactive": "off",
        "true": "on", "false": "off",  # a setting's value (`compress: true`)
    },
    # modality: obligation, permission, possibility
    "modality": {
        "must": "must", "shall": "must", "have to": "must", "has to": "must", "had to": "must",
        "need to": "must", "needs to": "must", "need": "must", "needs": "must", "needed": "must", "required": "must",
        "requires": "must", "require": "must", "req'd": "must", "reqd": "must",
        "mandatory": "must", "due": "must", "payable": "must", "obligatory": "must", "compulsory": "must", "necessary": "must",
        "should": "should", "ought": "should", "recommended": "should", "advised": "should",
        "may": "may", "can": "can", "could": "could", "allowed": "may", "permitted": "may",
        "optional": "may", "forbidden": "must not", "prohibited": "must not", "banned": "must not",
        "will": "will", "would": "would", "might": "might",
    },
    # hedges: how sure the note is
    "hedge": {
        "probably": "probably", "likely": "probably", "unlikely": "unlikely", "possibly": "possibly",
        "perhaps": "possibly", "maybe": "possibly", "might": "possibly", "apparently": "apparently",
        "seemingly": "apparently", "seems": "apparently", "seem": "apparently", "reportedly": "apparently",
        "supposedly": "apparently", "allegedly": "apparently", "presumably": "probably", "think": "belief",
        "thinks": "belief", "believe": "belief", "believes": "belief", "suspect": "belief",
        "suspects": "belief", "guess": "belief", "unsure": "unsure", "uncertain": "unsure",
        "not sure": "unsure", "definitely": "certain", "certainly": "certain", "surely": "certain",
        "estimated": "estimate", "estimate": "estimate", "est": "estimate", "tentative": "tentative", "tentatively": "tentative",
        "plan to": "plan", "plans to": "plan", "planned to": "plan", "planning to": "plan", "planning": "plan",
        "intend": "plan", "intends": "plan",
        "hope": "hope", "hopes": "hope", "hopefully": "hope", "want": "want", "wants": "want",
        "wish": "want", "wishes": "want", "considering": "consider", "proposed": "proposal",
        "pending": "pending", "expected": "expected", "expects": "expected",
    },
}

# Classes a rewording is free to move inside a sentence but not to drop or add; "bound" words like
# "from"/"to" only count next to a value (values.py reads them there), so they are not phrase markers.
MARKER_CLASSES = tuple(c for c in MarkerClass if c is not MarkerClass.BOUND)
# Phrases read as markers: every class except `bound` (which binds to an amount, values.py).
PHRASES: dict[str, tuple[MarkerClass, str]] = {}
for _cls in MARKER_CLASSES:
    for _phrase, _value in _CLASSES[_cls].items():
        PHRASES.setdefault(_phrase, (_cls, _value))
BOUNDS: dict[str, str] = dict(_CLASSES["bound"])
LONGEST_PHRASE = max(len(p.split()) for p in (*PHRASES, *BOUNDS))

# Markers too common to mean anything alone: they count only as part of a longer phrase or beside a value.
WEAK_MARKERS = frozenset((MarkerClass(c), v) for c, v in {
    ("restriction", "also"), ("restriction", "even"), ("order", "now"), ("modality", "will"),
    ("modality", "would"), ("modality", "can"), ("modality", "could"), ("condition", "when"),
    ("condition", "while"), ("condition", "because"), ("condition", "since"), ("order", "by"),
    ("order", "since"), ("order", "during"), ("order", "new"), ("order", "old"), ("order", "still"),
    ("direction", "in"), ("direction", "on"), ("direction", "back"), ("direction", "up"), ("direction", "down"),
    ("direction", "right"), ("direction", "top"), ("comparison", "than"), ("comparison", "same"),
    ("quantifier", "any"), ("quantifier", "one"), ("quantifier", "other"), ("frequency", "ever"),
    ("order", "yet"), ("order", "already"),
    ("hedge", "want"), ("comparison", "prefer"), ("restriction", "including"), ("restriction", "especially"),
    ("quantifier", "all"), ("order", "recent"), ("condition", "so that"), ("frequency", "again"),
    ("comparison", "instead"), ("quantifier", "many"), ("condition", "though"),  # a concession narrows nothing
})

# Markers of one meaning across classes: either answers for the other (`If it rains` = `whenever it rains`,
# `After each backup` = `Once a backup finishes`).
EQUIVALENT_MARKERS: dict[tuple[MarkerClass, str], frozenset[tuple[MarkerClass, str]]] = {}
for _group in (
    {("condition", "if"), ("condition", "when")},
    {("restriction", "only"), ("condition", "only if")},  # `only kicks in after the 5th` = `only if … after the 5th`
    {("order", "after"), ("condition", "once"), ("frequency", "once")},
    {("quantifier", "all"), ("frequency", "always")},  # `all matches` / `always` of a schedule
    {("modality", "may"), ("modality", "can")},  # permission: `can go on conferences` = `may be spent on`
    {("condition", "when"), ("condition", "once"), ("frequency", "once")},  # `harvest when …` = `once …`
    {("direction", "ahead"), ("order", "before")},  # `24 h ahead` = `a day in advance` = `beforehand`
    {("order", "first"), ("order", "before")},  # `approved by him first` = `approval before any repair`
    {("hedge", "expected"), ("hedge", "probably"), ("hedge", "estimate")},  # `(expected May)` = `probably in May`,
    # `Est. 3 hrs` = `expected to take about three hours`
):
    _typed = {(MarkerClass(c), v) for c, v in _group}
    for _key in _typed:  # a key in two groups answers for both
        EQUIVALENT_MARKERS[_key] = EQUIVALENT_MARKERS.get(_key, frozenset()) | frozenset(_typed - {_key})

# Words that answer for a marker but are too common to be checked themselves ("then" answers for "afterwards").
WEAK_PHRASES = frozenset({"then", "by", "first", "next", "last", "firstly", "finally", "just"})  # `just a heads up`

# Function words: never facts, never units, never content (articles, pronouns, auxiliaries, prepositions,
# conjunctions). The closed class of English function words.
FUNCTION_WORDS = frozenset((
    "a an the this that these those it its it's he him his she her hers they them their theirs we us our ours "
    "you your yours i me my mine myself yourself himself herself itself ourselves themselves who whom whose "
    "which what where why how there here is am are was were be been being do does did done doing have has "
    "had having of in on at to for from with by as into onto upon about re and or but so nor yet if then than "
    "also too very just such own same other another each both either any some all via per vs etc "
    "will would shall should can could may might must get gets got getting make makes made let lets "
    "one ones thing things way ways lot lots kind sort bit part "
    "basically essentially actually really literally honestly simply quite pretty fairly "
    "anywhere anything anyone anybody somewhere something someone somebody w "
    # words about the note rather than in it (`Just a reminder to myself:`, `FYI`, `Note to self`)
    "reminder fyi memo note self"
).split())

# Prepositions of place and way: a closed class; one never qualifies the word after it (`through GitHub`), nor is
# swapping one for another a changed fact by itself (the direction markers above are checked as markers).
PREPOSITIONS = frozenset("through across along via within without between among towards toward behind beyond inside "
                         "outside around under over above below beside near past into onto throughout".split())

# Title and address abbreviations: a closed class, too common in print for the rarity test of abbreviations.
TITLE_ABBREVIATIONS = {
    "dr": "doctor", "mr": "mister", "prof": "professor", "st": "street", "rd": "road", "ave": "avenue",
    "mt": "mount", "ft": "feet", "apt": "apartment", "dept": "department", "govt": "government", "jr": "junior",
    "sr": "senior", "capt": "captain", "sgt": "sergeant", "lt": "lieutenant", "rev": "reverend", "hr": "hour",
    "hrs": "hours", "yr": "year", "yrs": "years", "mo": "month", "mos": "months", "wk": "week", "wks": "weeks",
}
