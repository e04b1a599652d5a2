"""The lens's report: each fact at risk with its direction, kind, spans and why, and what was equated."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...netfx import StrEnum


class Direction(StrEnum):
    """Which way a fact at risk went between the sources and the merged body."""

    DROPPED = "dropped"  # a source states it, the body does not
    ADDED = "added"  # the body states it, no source does
    CHANGED = "changed"  # one of a kind dropped and another added where the sentences restate each other


class FactKind(StrEnum):
    """What kind of fact a fact at risk is: the rule id's second half (`dropped.date`, `changed.word-order`). A
    closed set: a kind no reader makes is refused when the finding is built, so a typo fails a test."""

    # values (value_types.Value.kind: values.py, calendar_values.py, identifiers.py, shares.py, worded_values.py)
    NUMBER = "number"
    QUANTITY = "quantity"
    MONEY = "money"
    RATE = "rate"
    ORDINAL = "ordinal"
    DATE = "date"
    MONTH = "month"
    WEEKDAY = "weekday"
    TIME = "time"
    ZONE = "zone"
    FREQUENCY = "frequency"  # also a marker class
    PHONE = "phone"
    URL = "url"  # also a MergeGuard token class
    EMAIL = "email"
    CHANNEL = "channel"
    PATH = "path"
    VERSION = "version"  # also a MergeGuard token class
    CODE = "code"
    TERM = "term"  # a value (`1:1`) and a content word the body lost or added
    # MergeGuard's token classes (guard_tokens.KINDS), read as values by identifiers.tokens
    ISO_DATE = "iso_date"
    WRITTEN_DATE = "written_date"
    REVERSE_DATE = "reverse_date"
    SLASH_DATE = "slash_date"
    FILE_PATH = "file_path"
    DOTTED_IDENTIFIER = "dotted_identifier"
    CAMEL_CASE = "camel_case"
    SNAKE_CASE = "snake_case"
    KEBAB_CASE = "kebab_case"
    ALL_CAPS = "all_caps"
    INTEGER = "integer"
    # marker classes (lexicon.MARKER_CLASSES, and `bound`)
    NEGATION = "negation"
    QUANTIFIER = "quantifier"
    DEGREE = "degree"
    RESTRICTION = "restriction"
    CONDITION = "condition"
    COMPARISON = "comparison"
    ORDER = "order"
    DIRECTION = "direction"
    STATE = "state"
    MODALITY = "modality"
    HEDGE = "hedge"
    BOUND = "bound"
    # what the lens's other readers find changed, dropped or added
    BINDING = "binding"
    WORD_ORDER = "word_order"
    WORD = "word"
    PHRASE = "phrase"
    MODIFIER = "modifier"
    SENTENCE = "sentence"
    TENSE = "tense"
    TITLE_IDENTIFIER = "title_identifier"  # strict.py: an identifier in a source's title the merge lost


_SLUG_GAPS = re.compile(r"[\s_]+")


def rule_id(direction: str, kind: str) -> str:
    """The stable id of a finding's rule: `dropped.date`, `changed.term`, `dropped.title-identifier`."""
    return f"{direction}.{_SLUG_GAPS.sub('-', kind.strip().lower())}"


@dataclass(frozen=True)
class FactAtRisk:
    direction: Direction
    kind: FactKind  # the value kind (date, money, …), "term", or the marker class (negation, frequency, …)
    token: str  # as the source wrote it; for "added", as the body wrote it
    sources: tuple[int, ...]  # the sources it comes from (empty for "added")
    source_span: tuple[int, int] | None  # in the first of `sources`
    body_token: str | None  # for "added" and "changed": the body's words
    body_span: tuple[int, int] | None
    why: str  # one line for the reviewer

    def __post_init__(self) -> None:
        if type(self.direction) is not Direction:  # a plain string (a test, an old caller): checked and made one
            object.__setattr__(self, "direction", Direction(self.direction))
        if type(self.kind) is not FactKind:  # likewise a kind: an unknown one raises here, not in a reader's table
            object.__setattr__(self, "kind", FactKind(self.kind))

    @property
    def rule(self) -> str:
        """The stable id of the rule that found it (direction, then the kind slugified), for grades and tables."""
        return rule_id(self.direction, self.kind)

    def describe(self, width: int = 28) -> str:
        """One short phrase for the reviewer: `Postgres → MySQL (term)`, `+never (negation, added)`."""
        def short(text: str) -> str:
            return text if len(text) <= width else text[: width - 1] + "…"
        if self.direction is Direction.CHANGED and self.body_token:
            return f"{short(self.token)} → {short(self.body_token)} ({self.kind})"
        if self.direction is Direction.ADDED:
            return f"+{short(self.body_token or self.token)} ({self.kind}, added)"
        return f"{short(self.token)} ({self.kind})"

    def to_dict(self) -> dict[str, object]:
        return {"token": self.token, "kind": self.kind, "sources": list(self.sources), "direction": self.direction,
                "source_span": list(self.source_span) if self.source_span else None,
                "body_token": self.body_token, "body_span": list(self.body_span) if self.body_span else None,
                "why": self.why, "rule": self.rule}


class Equivalence(StrEnum):
    """Why a source's word or value is the body's (word_found, respelled_found; SAME is never listed)."""
    SAME, SAME_VALUE, PLURAL, SIZE, LEMMA, SYNONYM, STEM = "same", "same value", "plural", "size", "lemma", "synonym", "stem"
    DERIVED, PART, NUMBER_NAMED, SAME_ROLE, CODE = "derived form", "part of a compound", "number named", "same role", "code"
    ABBREVIATION, ACRONYM, SPELLING, PREFIX, COMPOUND = "abbreviation", "acronym", "spelling", "prefix", "compound"


@dataclass(frozen=True)
class Equated:
    source: str
    body: str
    rule: Equivalence

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "body": self.body, "rule": self.rule}


@dataclass(frozen=True)
class FactReport:
    passed: bool
    at_risk: tuple[FactAtRisk, ...]
    checked: int
    equated: tuple[Equated, ...]


# ---- matching one fact in another note -------------------------------------------------------------------


class Findings:
    def __init__(self) -> None:
        self.items: list[FactAtRisk] = []
        self.equated: dict[tuple[str, str], Equated] = {}

    def add(self, item: FactAtRisk) -> None:
        self.items.append(item)

    def equate(self, source: str, body: str, rule: Equivalence) -> None:
        if source.casefold() != body.casefold() and rule is not Equivalence.SAME:
            self.equated.setdefault((source.casefold(), body.casefold()), Equated(source, body, rule))


__all__ = ["Direction", "Equated", "Equivalence", "FactAtRisk", "FactKind", "FactReport", "Findings", "rule_id"]
