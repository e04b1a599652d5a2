"""Prove or keep: one alignment of source sentences to body sentences, each source sentence's fate, and the merge's
verdict. Every check of a merge starts here (architecture.md, "Checking a merge").

A source sentence is
- **kept** when the body has it word for word (up to case, spacing and punctuation);
- **restated** when its aligned body sentence(s) hold every token it owes (sentences.py: values by normal form,
  markers by class and value, names by spelling, content words by lemma, main-sense synonym of the same part of
  speech or derivational form), each of its clauses inside one clause there in its order wherever order carries
  meaning (restatement.py's `in_order`), and the body sentence(s) add no token that the source sentences aligned
  to them do not hold;
- **lost** when a rule that earned the word (rule_grades.py: precision ≥ 0.9 on cases it was not written for)
  names a fact of it that the body dropped or changed;
- **read** otherwise: a person compares the pair.

A merge is **proved** when every source sentence is kept or restated and no body sentence adds anything, **loss**
when a sentence is lost, and **read** otherwise. Nothing here decides meaning it cannot see: what it cannot prove
it leaves for a person.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..netfx import LONE_SURROGATE
from .facts.lexicon import TITLE_ABBREVIATIONS
from .facts.report import FactAtRisk
from .restatement import in_order, markers_added, misses_at_least, not_found, qualified_before
from .rule_grades import Grade, grade
from .sentences import MAX_SENTENCE_CHARS, Sentence, Token, split, tokens
from .strict import StrictReport, check_strict, with_titles

PROVE_UP_TO = 16_000  # characters of sentences not kept word for word that the alignment proves one by one
_UNREAD = "(not read: past the proof's size limit)"
LENS_READS_UP_TO = 24_000  # characters of unproved text the lens reads to name losses (it is superlinear)
_CANDIDATES = 4  # body sentences proved against, per source sentence (the most shared keys first)
_POSTING_LIMIT = 64  # a key more than this many body sentences share aligns nothing (`the` of a 1 MB log)


class Fate(enum.Enum):
    KEPT = "kept"
    RESTATED = "restated"
    LOST = "lost"
    READ = "read"


class Verdict(enum.Enum):
    PROVED = "proved"
    LOSS = "loss"
    READ = "read"


@dataclass(frozen=True)
class SentenceFate:
    source: int  # which source
    index: int  # the sentence's number in its source
    text: str
    fate: Fate
    body: tuple[int, ...]  # the body sentences it aligns to
    missing: tuple[str, ...] = ()  # tokens it owes that the aligned body sentences do not hold
    added: tuple[str, ...] = ()  # tokens the aligned body sentences add
    rules: tuple[str, ...] = ()  # the rule ids of the findings that name it
    why: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "index": self.index, "text": self.text, "fate": self.fate.value,
                "body": list(self.body), "missing": list(self.missing), "added": list(self.added),
                "rules": list(self.rules), "why": self.why}


@dataclass(frozen=True)
class BodySentence:
    index: int
    text: str
    support: tuple[tuple[int, int], ...]  # the (source, sentence) pairs aligned to it
    added: tuple[str, ...]  # tokens no supporting source sentence holds

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "text": self.text, "support": [list(p) for p in self.support],
                "added": list(self.added)}


@dataclass(frozen=True)
class Alignment:
    verdict: Verdict
    sentences: tuple[SentenceFate, ...]
    body: tuple[BodySentence, ...]
    findings: tuple[FactAtRisk, ...] = ()
    reasons: tuple[str, ...] = field(default=())

    def fates(self, fate: Fate) -> list[SentenceFate]:
        return [s for s in self.sentences if s.fate is fate]

    def to_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict.value, "sentences": [s.to_dict() for s in self.sentences],
                "body_sentences": [b.to_dict() for b in self.body], "reasons": list(self.reasons)}


# ---- reading a note ---------------------------------------------------------------------------------------------
class _Read:
    """One sentence, its plain form, and its tokens read only when a proof needs them (a sentence kept word for
    word is never tokenized: a long body copied from its sources costs one pass)."""

    __slots__ = ("_tokens", "plain", "sentence", "unreadable")

    def __init__(self, sentence: Sentence) -> None:
        self.sentence = sentence
        self.plain = sentence.plain
        self.unreadable = not sentence.structural and (
            len(sentence.text) > MAX_SENTENCE_CHARS or bool(LONE_SURROGATE.search(sentence.text)))
        self._tokens: tuple[Token, ...] | None = None

    @property
    def tokens(self) -> tuple[Token, ...]:
        if self._tokens is None:
            self._tokens = () if self.unreadable or self.sentence.structural else _tokens_of(self.sentence.text)
        return self._tokens

    @property
    def owed(self) -> list[Token]:
        return [t for t in self.tokens if t.owed]

    @property
    def read(self) -> bool:
        """Its tokens are read already."""
        return self._tokens is not None

    def index_keys(self) -> frozenset[str]:
        return _index_keys(self.plain)


@functools.lru_cache(maxsize=1 << 14)
def _index_keys(plain: str) -> frozenset[str]:
    """Cheap keys to find candidate sentences by: each word's first five letters (`booked` and `booking` meet at
    `booke`, `deploys` and `deploy` at `deplo`), and each number; the proof itself is `found`."""
    keys = {w[:5] for w in plain.split() if len(w) > 2 or w.isdigit()}
    keys.update(TITLE_ABBREVIATIONS[w][:5] for w in plain.split() if w in TITLE_ABBREVIATIONS)
    return frozenset(keys)


@functools.lru_cache(maxsize=1 << 14)
def _tokens_of(text: str) -> tuple[Token, ...]:
    return tuple(tokens(text))  # a note repeats its sentences (logs, lists): each read once


def _read(text: str) -> list[_Read]:
    return [_Read(s) for s in split(text)]


# ---- the alignment -------------------------------------------------------------------------------------------------
def align(sources: Sequence[str | None], body: str | None, findings: Sequence[FactAtRisk] = ()) -> Alignment:
    """Align every source sentence to the body and give each its fate; `findings` are the lens's (their rule's
    measured grade decides whether one may say `lost`)."""
    return _aligned(sources, body).judged(findings)


@dataclass(frozen=True)
class _Aligned:
    """The alignment before the lens's findings are read into it (computed once, judged with any findings)."""

    source_reads: list[list[_Read]]
    body_read: list[_Read]
    support: dict[int, list[tuple[int, int]]]
    drafts: list[tuple[int, int, _Read, Fate, tuple[int, ...], list[Token]]]
    body_out: list[BodySentence]

    def judged(self, findings: Sequence[FactAtRisk]) -> Alignment:
        return _judged(self, findings)


def _aligned(sources: Sequence[str | None], body: str | None) -> _Aligned:
    body_read = _read(body or "")
    source_reads = [_read(s or "") for s in sources]
    postings: dict[str, list[int]] = defaultdict(list)
    by_plain: dict[str, int] = {}
    for b, r in enumerate(body_read):
        by_plain.setdefault(r.plain, b)
    source_plains = {r.plain for reads in source_reads for r in reads if not r.sentence.structural}
    for b, r in enumerate(body_read):
        if not r.sentence.structural:
            for key in r.index_keys():
                postings[key].append(b)
    support: dict[int, list[tuple[int, int]]] = defaultdict(list)
    drafts: list[tuple[int, int, _Read, Fate, tuple[int, ...], list[Token]]] = []
    budget = _Budget(PROVE_UP_TO)
    for si, reads in enumerate(source_reads):
        for r in reads:
            if r.sentence.structural:
                continue
            fate, aligned, missing = _align_one(r, body_read, by_plain, postings, budget)
            for b in aligned:
                support[b].append((si, r.sentence.index))
            drafts.append((si, r.sentence.index, r, fate, aligned, missing))
    body_out = _body_sentences(body_read, source_reads, support, source_plains, budget)
    return _Aligned(source_reads, body_read, support, drafts, body_out)


def _judged(done: _Aligned, findings: Sequence[FactAtRisk]) -> Alignment:
    source_reads, body_read, support, drafts, body_out = (done.source_reads, done.body_read, done.support,
                                                          done.drafts, done.body_out)
    unplaced = tuple(f for f in findings if f.source_span is None and f.body_span is None
                     and grade(f.rule) is not Grade.LOSS)  # a title's identifier: no sentence to read it in
    added_at = {b.index: b.added for b in body_out}
    kept = {(si, index) for si, index, _, fate, _, _ in drafts if fate is Fate.KEPT}
    lost_rules = _lost_rules(findings, source_reads, body_read, support, kept, body_out)
    fates: list[SentenceFate] = []
    for si, index, r, fate, aligned, missing in drafts:
        added = tuple(dict.fromkeys(a for b in aligned for a in added_at.get(b, ())))
        rules = tuple(lost_rules.get((si, index), ()))
        why = ""
        if rules:
            fate, why = Fate.LOST, "a rule that earned 'loss' names a fact of it the body dropped or changed"
        elif fate is Fate.RESTATED and added:
            fate, why = Fate.READ, "its body sentence adds words no aligned source states"
        elif fate is Fate.READ:
            why = _why_read(r, aligned, missing)
        fates.append(SentenceFate(si, index, r.sentence.text, fate, aligned,
                                  tuple(t.text for t in missing), added, rules, why))
    verdict = _verdict(fates, body_out)
    if unplaced and verdict is Verdict.PROVED:
        verdict = Verdict.READ
    reasons = _reasons(fates, body_out) + tuple(f"{f.rule}: {f.why}" for f in unplaced)
    return Alignment(verdict, tuple(fates), tuple(body_out), tuple(findings), reasons)


def judge(sources: Sequence[str | None], body: str | None, titles: Sequence[str | None] = (),
          kept_title: str | None = None) -> tuple[StrictReport, Alignment]:
    """How every caller judges a merge: the alignment first; then the lens reads only what the alignment did not
    prove (the unproved source sentences and the body sentences they align to or that add something), so a long
    body copied or restated from its sources costs one pass; the lens's findings, mapped back to the whole texts,
    name what is lost. Returns (the lens's report, the alignment with those findings)."""
    done = _aligned(sources, body)
    first = done.judged(())
    open_pairs = {(f.source, f.index) for f in first.sentences if f.fate not in (Fate.KEPT, Fate.RESTATED)}
    open_body = {b for f in first.sentences if (f.source, f.index) in open_pairs for b in f.body}
    open_body |= {b.index for b in first.body if b.added}
    if not open_pairs and not open_body:
        return with_titles((), 0, (), body, titles, kept_title), _with_findings(first, titles, body, kept_title)
    source_texts = [s or "" for s in sources]
    # and the sentences those body sentences came from: else a body sentence copied from a source reads as added
    read_pairs = open_pairs | {pair for b in open_body for pair in first.body[b].support}
    reduced_sources = [_Excerpt(text, [x.index for x in split(text) if (si, x.index) in read_pairs])
                       for si, text in enumerate(source_texts)]
    reduced_body = _Excerpt(body or "", sorted(open_body))
    if len(reduced_body.text) + sum(len(r.text) for r in reduced_sources) > LENS_READS_UP_TO:
        report = with_titles((), 0, (), body, titles, kept_title)  # too much to read in time: a person reads it
        proof = done.judged(report.at_risk) if report.at_risk else first
        note = (f"the lens did not read the {len(open_pairs)} unproved sentences (over {LENS_READS_UP_TO // 1000} KB): "
                "they are left for a person, none is named lost")
        return report, dataclasses.replace(proof, reasons=(note, *proof.reasons))
    lens = check_strict([r.text for r in reduced_sources], reduced_body.text)
    mapped = tuple(_mapped(f, reduced_sources, reduced_body) for f in lens.at_risk)
    report = with_titles(mapped, lens.checked, lens.equated, body, titles, kept_title)
    return report, done.judged(report.at_risk)


def _with_findings(first: Alignment, titles: Sequence[str | None], body: str | None,
                   kept_title: str | None) -> Alignment:
    report = with_titles((), 0, (), body, titles, kept_title)
    if not report.at_risk:
        return first
    reasons = first.reasons + tuple(f"{f.rule}: {f.why}" for f in report.at_risk)
    return dataclasses.replace(first, verdict=Verdict.READ if first.verdict is Verdict.PROVED else first.verdict,
                               findings=report.at_risk, reasons=reasons)


class _Excerpt:
    """Some sentences of a text, joined by line breaks, and where each came from (to map a span back)."""

    def __init__(self, text: str, indices: Sequence[int]) -> None:
        wanted = set(indices)
        pieces: list[str] = []
        self.starts: list[tuple[int, int, int]] = []  # (start here, start in the text, length)
        at = 0
        for sentence in split(text):
            if sentence.index in wanted:
                self.starts.append((at, sentence.start, sentence.end - sentence.start))
                pieces.append(text[sentence.start:sentence.end])
                at += sentence.end - sentence.start + 1
        self.text = "\n".join(pieces)

    def original(self, span: tuple[int, int] | None) -> tuple[int, int] | None:
        if span is None:
            return None
        for here, there, length in reversed(self.starts):
            if here <= span[0]:
                shift = there - here
                return span[0] + shift, min(span[1], here + length) + shift
        return span


def _mapped(f: FactAtRisk, sources: Sequence[_Excerpt], body: _Excerpt) -> FactAtRisk:
    source_span = sources[f.sources[0]].original(f.source_span) if f.sources and f.sources[0] < len(sources) \
        else f.source_span
    return dataclasses.replace(f, source_span=source_span, body_span=body.original(f.body_span))


def proof_dict(strict: StrictReport, proof: Alignment) -> dict[str, object]:
    """The lens's report with the verdict and the sentences' fates beside it: the `strict` of a review or plan."""
    return {**strict.to_dict(), "verdict": proof.verdict.value, "sentences": [s.to_dict() for s in proof.sentences],
            "reasons": list(proof.reasons[:20])}


class _Budget:
    """Characters of text the alignment still reads word by word: past PROVE_UP_TO of sentences that are not kept
    word for word, the rest are left for a person unread (linear time on a 1 MB body rewritten throughout)."""

    def __init__(self, chars: int) -> None:
        self.left = chars

    def take(self, text: str) -> bool:
        self.left -= len(text)
        return self.left >= 0


def _align_one(r: _Read, body_read: list[_Read], by_plain: dict[str, int],
               postings: dict[str, list[int]], budget: _Budget) -> tuple[Fate, tuple[int, ...], list[Token]]:
    plain = r.plain
    if plain in by_plain:
        return Fate.KEPT, (by_plain[plain],), []
    if not budget.take(r.sentence.text):
        return Fate.READ, (), []
    owed = r.owed
    ranked = _candidates(r, postings)
    for b in ranked:  # kept inside a longer body sentence (`A. B.` written as `A; B.`), not qualified there
        if plain and f" {plain} " in f" {body_read[b].plain} " and not qualified_before(r.tokens, body_read[b].tokens):
            return Fate.KEPT, (b,), []
    if r.unreadable or not owed or not ranked:
        return Fate.READ, tuple(ranked[:1]), owed
    best, best_missing = _best_restatement(owed, ranked, body_read, budget)
    among = [t for b in best for t in body_read[b].tokens]
    if best_missing or not in_order(owed, among, r.tokens):
        return Fate.READ, best, best_missing
    said_more = markers_added(r.tokens, among)
    if said_more:
        return Fate.READ, best, said_more
    if any(body_read[b].unreadable for b in best):
        return Fate.READ, best, best_missing
    return Fate.RESTATED, best, []


def _candidates(r: _Read, postings: dict[str, list[int]]) -> list[int]:
    """The body sentences that share the most keys with `r` (at most `_CANDIDATES`, none with far fewer)."""
    counts: dict[int, int] = defaultdict(int)
    for key in r.index_keys():
        hits = postings.get(key, ())
        if len(hits) <= _POSTING_LIMIT:
            for b in set(hits):
                counts[b] += 1
    ranked = sorted(counts, key=lambda b: (-counts[b], b))[:_CANDIDATES]
    return [b for b in ranked if 2 * counts[b] >= counts[ranked[0]]]  # far fewer shared keys: cannot restate it


def _best_restatement(owed: list[Token], ranked: list[int], body_read: list[_Read],
                      budget: _Budget) -> tuple[tuple[int, ...], list[Token]]:
    """The candidate that misses the fewest of the tokens `owed`, and what it misses (all of them when none is read
    within the budget)."""
    best: tuple[int, ...] = ()
    best_missing = owed
    for b in ranked:
        if not body_read[b].read and not budget.take(body_read[b].sentence.text):
            break  # past the size limit: what was compared so far decides
        if best and misses_at_least(owed, body_read[b].tokens, len(best_missing)):
            continue  # no better than the best so far
        missing = not_found(owed, body_read[b].tokens)
        if len(missing) < len(best_missing):
            best, best_missing = (b,), missing
        if not missing:
            break
    return best, best_missing


def _body_sentences(body_read: list[_Read], source_reads: list[list[_Read]],
                    support: dict[int, list[tuple[int, int]]], source_plains: set[str],
                    budget: _Budget) -> list[BodySentence]:
    out = []
    for b, r in enumerate(body_read):
        if r.sentence.structural or r.plain in source_plains:  # a source's sentence, word for word: adds nothing
            out.append(BodySentence(b, r.sentence.text, (), ()))
            continue
        pairs = tuple(support.get(b, ()))
        if not budget.take(r.sentence.text):
            out.append(BodySentence(b, r.sentence.text, pairs, (_UNREAD,)))
            continue
        among = [t for si, index in pairs for t in source_reads[si][index].tokens]
        added = (tuple(t.text for t in r.owed) or ((r.sentence.text[:60],) if r.unreadable else ())) if not pairs \
            else tuple(t.text for t in not_found(r.owed, among))
        if r.unreadable and pairs:
            added = added or (r.sentence.text[:60],)
        out.append(BodySentence(b, r.sentence.text, pairs, added))
    return out


def _sentence_of(reads: list[_Read], span: tuple[int, int] | None) -> int | None:
    if span is None:
        return None
    for r in reads:
        if r.sentence.start <= span[0] < max(r.sentence.end, r.sentence.start + 1):
            return r.sentence.index
    return None


def _lost_rules(findings: Sequence[FactAtRisk], source_reads: list[list[_Read]], body_read: list[_Read],
                support: dict[int, list[tuple[int, int]]], kept: set[tuple[int, int]],
                body_out: list[BodySentence]) -> dict[tuple[int, int], list[str]]:
    """The source sentences a loss-grade finding names: by its source span (never a sentence the body keeps word for
    word: nothing of it is lost), else by the body sentence it points at — only one that adds what its sources do
    not state (the alignment's own reading), naming the sentences it restates before those it keeps."""
    out: dict[tuple[int, int], list[str]] = defaultdict(list)
    for f in findings:
        if grade(f.rule) is not Grade.LOSS:
            continue
        named: list[tuple[int, int]] = []
        if f.sources and f.sources[0] < len(source_reads):
            at = _sentence_of(source_reads[f.sources[0]], f.source_span)
            if at is not None:
                if (f.sources[0], at) in kept:
                    continue
                named.append((f.sources[0], at))
        if not named:
            b = _sentence_of(body_read, f.body_span)
            if b is not None:
                if not body_out[b].added:
                    continue  # every word of it is stated by the sentences it came from
                pairs = support.get(b, [])
                named.extend([p for p in pairs if p not in kept] or pairs)
        if not named and source_reads and source_reads[0]:
            first = next((r for r in source_reads[0] if not r.sentence.structural), None)
            if first is not None:
                named.append((0, first.sentence.index))
        for pair in named:
            if f.rule not in out[pair]:
                out[pair].append(f.rule)
    return out


def _why_read(r: _Read, aligned: tuple[int, ...], missing: list[Token]) -> str:
    if r.unreadable:
        return "too long or not text to read word by word: a person reads it"
    if not aligned and not missing and r.owed:
        return (f"not read word by word: past {PROVE_UP_TO // 1000} KB of sentences not kept as written, a person "
                "reads the rest")
    if not aligned:
        return "no body sentence restates it"
    if missing and not any(t is s for t in missing for s in r.tokens):
        return "its aligned body sentence says what it does not: " + ", ".join(t.text for t in missing[:6])
    if missing:
        return "its aligned body sentence does not state: " + ", ".join(t.text for t in missing[:6])
    return "its words are in another order there, inside one clause: who does what to whom may have changed"


def _verdict(fates: list[SentenceFate], body: list[BodySentence]) -> Verdict:
    if any(f.fate is Fate.LOST for f in fates):
        return Verdict.LOSS
    if all(f.fate in (Fate.KEPT, Fate.RESTATED) for f in fates) and not any(b.added for b in body):
        return Verdict.PROVED
    return Verdict.READ


def _reasons(fates: list[SentenceFate], body: list[BodySentence]) -> tuple[str, ...]:
    out = [f"source {f.source + 1} sentence {f.index + 1}: {f.fate.value} — {f.why}" for f in fates
           if f.fate in (Fate.LOST, Fate.READ)]
    out += [f"body sentence {b.index + 1} adds: {', '.join(b.added[:6])}" for b in body if b.added]
    return tuple(out)


__all__ = ["Alignment", "BodySentence", "Fate", "SentenceFate", "Verdict", "align", "judge", "proof_dict"]
