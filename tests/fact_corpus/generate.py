"""The generated half of the fact corpus (issue 23, item 11): labelled merge cases made from annotated seed notes.

    python -m tests.fact_corpus.generate            # writes tests/data/facts/generated.json
    python -m tests.fact_corpus.generate --check    # exits 1 when the committed file differs from a fresh run

Seeds live in `tests/data/facts/seeds.json`: short notes of an assistant's user from many domains, with their
values annotated as slots (`{type:text}`, see `forms.py`) and one `extra` sentence that a second source adds.

Labels:
- "lossless": the body keeps every fact of the sources (identity, duplicates, reordered sentences, other formats of
  the same value, the union of two near-duplicates, one source verbatim plus the other's remaining sentences);
- "lossy": one mutation operator changed the body (drop, alter, swap, negate, antonym, quantifier, unit, binding,
  add);
- "lookalike": two notes `a`, `b` that read alike but state different facts.

A seed's cases all land in one split ("tune" or "check", by a hash of the seed id). Deterministic: one seed,
one `random.Random` per seed, no dependence on dict order or the clock."""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import forms

DATA = Path(__file__).resolve().parents[1] / "data" / "facts"
SEEDS_PATH = DATA / "seeds.json"
GENERATED_PATH = DATA / "generated.json"
SEED = 20260723
PER_SEED = 9           # lossless and lossy cases kept per seed (each)
LOOKALIKES_PER_SEED = 2

SLOT_RE = re.compile(r"\{(\w+)(\*?):([^{}]*)\}")
ADDED_CONDITIONS = [" only on weekdays", " unless it rains", " at most twice a month", " except in August",
                    " but never after 9 pm", " only when someone else is home", " if the budget allows"]
LOSSY_OPERATORS = ("drop", "alter", "swap", "negate", "antonym", "quantifier", "unit", "binding", "add")
LOOKALIKE_OPERATORS = ("alter", "swap", "negate", "antonym", "quantifier", "unit", "binding")


@dataclass(frozen=True)
class Slot:
    kind: str
    text: str
    alts: tuple[str, ...]
    subject: bool


Segment = str | Slot
Key = tuple[int, int]   # (sentence index, segment index)


@dataclass
class Note:
    """A seed: its sentences as segments; `n_base` of them are the note, the rest is the extra sentence."""
    seed_id: str
    domain: str
    sentences: list[list[Segment]]
    n_base: int
    ordered: bool = False
    extra_refers: bool = False

    def slots(self, sentences: list[int] | None = None) -> list[tuple[Key, Slot]]:
        idx = range(len(self.sentences)) if sentences is None else sentences
        return [((i, k), seg) for i in idx for k, seg in enumerate(self.sentences[i]) if isinstance(seg, Slot)]

    def render(self, sentences: list[int], over: dict[Key, str] | None = None) -> str:
        return " ".join(self.sentence(i, over) for i in sentences)

    def sentence(self, i: int, over: dict[Key, str] | None = None) -> str:
        over = over or {}
        parts = [seg if isinstance(seg, str) else over.get((i, k), seg.text) for k, seg in enumerate(self.sentences[i])]
        text = re.sub(r"\s+", " ", "".join(parts)).strip()
        text = re.sub(r"\s+([,.;:])", r"\1", text).replace(",,", ",").replace(", .", ".")
        first = self.sentences[i][0]
        original_first = first if isinstance(first, str) else first.text
        if original_first[:1].isupper() and text[:1].islower():
            text = text[0].upper() + text[1:]
        return text

    def __repr__(self) -> str:
        return f"Note({self.seed_id!r})"

    @property
    def base(self) -> list[int]:
        return list(range(self.n_base))

    @property
    def everything(self) -> list[int]:
        return list(range(len(self.sentences)))


def parse_sentence(text: str) -> list[Segment]:
    out: list[Segment] = []
    pos = 0
    for m in SLOT_RE.finditer(text):
        if m.start() > pos:
            out.append(text[pos:m.start()])
        first, *alts = m[3].split("|")
        out.append(Slot(m[1], first, tuple(alts), m[2] == "*"))
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return out


PRONOUN_START = re.compile(r"^(he|she|it|they|her|his|its|their|then|each|both|this|that|these)\b", re.I)


def _refers_back(sentence: str) -> bool:
    """Does the sentence lean on the one before it (a pronoun at its start)? Such sentences are not reordered."""
    return bool(PRONOUN_START.match(SLOT_RE.sub(lambda m: m[3].split("|")[0], sentence).strip()))


def load_seeds(path: Path = SEEDS_PATH) -> list[Note]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    notes = []
    for s in raw["seeds"]:
        sentences = [parse_sentence(t) for t in s["sentences"]] + [parse_sentence(s["extra"])]
        refers = [_refers_back(t) for t in s["sentences"][1:]]
        notes.append(Note(s["id"], s["domain"], sentences, len(s["sentences"]), bool(s.get("ordered")) or any(refers),
                          _refers_back(s["extra"])))
    return notes


def split_of(seed_id: str) -> str:
    return "tune" if hashlib.sha256(seed_id.encode()).digest()[0] % 2 == 0 else "check"


# ---- meaning-preserving rewrites ---------------------------------------------------------------------------------
def formatted(note: Note, keys: list[tuple[Key, Slot]], rng: random.Random) -> dict[Key, str]:
    over = {}
    for key, slot in keys:
        fmt = forms.FORMATTERS.get(slot.kind)
        new = fmt(slot.text, rng) if fmt else None
        if new and new != slot.text:
            over[key] = new
    return over


def formattable(note: Note, sentences: list[int]) -> list[tuple[Key, Slot]]:
    rng = random.Random(0)
    return [(key, s) for key, s in note.slots(sentences)
            if s.kind in forms.FORMATTERS and (forms.FORMATTERS[s.kind](s.text, rng) or s.text) != s.text]


def lossless_candidates(note: Note, rng: random.Random) -> list[dict[str, Any]]:
    base, full = note.base, note.everything
    extra = len(note.sentences) - 1
    text = note.render(base)
    out: list[dict[str, Any]] = [
        dict(kind="identity", operator="identity", sources=[text], body=text),
        dict(kind="dedupe", operator="identity", sources=[text, text], body=text),
        dict(kind="union", operator="union", sources=[text, note.render([0, extra])], body=note.render(full)),
    ]
    if len(base) >= 2:
        first = note.render(base[:-1])
        out.append(dict(kind="verbatim_plus_remaining", operator="verbatim_plus_remaining",
                        sources=[first, note.render(full)], body=f"{first} {note.render(base[-1:] + [extra])}"))
    fmt_keys = formattable(note, full)
    if fmt_keys:
        over = formatted(note, fmt_keys, rng)
        variant = note.render(full, over)
        out.append(dict(kind="verbatim_plus_remaining", operator="verbatim_plus_remaining",
                        sources=[note.render(base, over), note.render(full)],
                        body=f"{note.render(base, over)} {note.sentence(extra)}"))
        out.append(dict(kind="format_across_sources", operator="format",
                        sources=[note.render(base), note.render(full, over)], body=note.render(full)))
        base_keys = [k for k in fmt_keys if k[0][0] < note.n_base]
        if len(base_keys) > 1:
            out.append(dict(kind="format_mixed", operator="format", sources=[text],
                            body=note.render(base, formatted(note, base_keys, rng))))
        elif len(fmt_keys) > 1:
            out.append(dict(kind="format_mixed", operator="format", sources=[note.render(full)], body=variant))
    for key, slot in fmt_keys:
        over = formatted(note, [(key, slot)], rng)
        if over:
            kind = {"neg": "contraction", "list": "list_reorder"}.get(slot.kind, f"format_{slot.kind}")
            out.append(dict(kind=kind, operator="format", sources=[note.render(full)], body=note.render(full, over)))
    if len(base) >= 2 and not note.ordered:
        order = base[1:] + base[:1]
        out.append(dict(kind="reorder", operator="reorder", sources=[text], body=note.render(order)))
    if not note.extra_refers:
        out.append(dict(kind="union_reordered", operator="union", sources=[note.render([0, extra]), text],
                        body=note.render([extra] + base)))
    return [c for c in out if c["body"] and (c["kind"] in ("identity", "dedupe") or c["body"] not in c["sources"]
                                             or c["operator"] != "format")]


# ---- mutations ---------------------------------------------------------------------------------------------------
def _mutations_for(note: Note, operator: str, sentences: list[int], rng: random.Random,
                   others: list[Note]) -> list[tuple[str, dict[Key, str], list[int]]]:
    """(kind, slot overrides, kept sentences) for every way `operator` can change the rendered sentences."""
    slots = note.slots(sentences)
    if operator == "drop":
        return _drops(slots, sentences, rng)
    if operator == "alter":
        return _alterations(slots, sentences, rng)
    if operator in ("swap", "binding"):
        return _swaps(note, operator, slots, sentences)
    if operator == "negate":
        return [("negation_removed" if re.search(r"\b(not|no|never|none|nothing|nobody|cannot)\b|n't", s.text.lower())
                 else "negation_added", {key: s.alts[0]}, sentences)
                for key, s in slots if s.kind == "neg" and s.alts]
    if operator == "antonym":
        return _antonyms(slots, sentences, rng)
    if operator == "quantifier":
        return _quantifiers(slots, sentences, rng)
    if operator == "unit":
        return _units(slots, sentences, rng)
    if operator == "add":
        return _additions(note, sentences, rng, others)
    return []


Mutation = tuple[str, dict[Key, str], list[int]]  # (kind, slot overrides, kept sentences)


def _drops(slots: list[tuple[Key, Slot]], sentences: list[int], rng: random.Random) -> list[Mutation]:
    """A sentence, a list item or a droppable slot left out."""
    out: list[Mutation] = []
    if len(sentences) >= 2:
        for i in sentences:
            out.append(("drop_sentence", {}, [j for j in sentences if j != i]))
    for key, s in slots:
        if s.kind == "list":
            new = forms.list_drop(s.text, rng)
            if new:
                out.append(("drop_list_item", {key: new}, sentences))
        elif s.kind in forms.DROPPABLE:
            out.append((f"drop_{s.kind}", {key: s.alts[0] if s.alts else ""}, sentences))
    return out


def _alterations(slots: list[tuple[Key, Slot]], sentences: list[int], rng: random.Random) -> list[Mutation]:
    """A value or entity changed to another of its kind (a range narrowed)."""
    out: list[Mutation] = []
    for key, s in slots:
        if s.subject or s.kind in ("neg", "ant", "quant", "freq", "list") or s.kind in forms.DROPPABLE:
            continue
        new = s.alts[0] if s.alts and s.kind in forms.ENTITY_TYPES else None
        if new is None and s.kind in forms.ALTERERS:
            new = forms.ALTERERS[s.kind](s.text, rng)
            kind = "range_narrowed" if s.kind == "range" else f"alter_{s.kind}"
        else:
            new = new or forms.entity_alter(s.kind, s.text, rng)
            kind = f"alter_{s.kind}"
        if new and new != s.text:
            out.append((kind, {key: new}, sentences))
    return out


def _swaps(note: Note, operator: str, slots: list[tuple[Key, Slot]], sentences: list[int]) -> list[Mutation]:
    """Two values of one kind swapped (`swap`), or two subjects' values swapped or moved, or a subject dropped
    (`binding`)."""
    out: list[Mutation] = []
    for a in range(len(slots)):
        for b in range(a + 1, len(slots)):
            (ka, sa), (kb, sb) = slots[a], slots[b]
            if sa.kind != sb.kind or sa.text.lower() == sb.text.lower() or sa.subject != (operator == "binding"):
                continue
            if sa.kind == "word" and ka[0] != kb[0]:
                continue   # free-form values of different sentences are not of one kind ("vegetarian", "July")
            if _coordinated(note, ka, kb):
                continue   # "peanuts and sesame" → "sesame and peanuts" says the same
            if sa.kind == "num" and _unit_of(sa.text) != _unit_of(sb.text):
                continue   # a weight swapped with a duration is nonsense, not a plausible merge
            out.append((f"swap_{sa.kind}" if operator == "swap" else "binding_swap",
                        {ka: _placed(sb.text, ka, sa.kind), kb: _placed(sa.text, kb, sa.kind)}, sentences))
            if operator == "binding":
                out.append(("binding_move", {kb: _placed(sa.text, kb, sa.kind)}, sentences))
    if operator == "binding":
        for key, s in slots:
            if s.subject and s.alts:
                out.append(("subject_dropped", {key: s.alts[0]}, sentences))
    return out


def _antonyms(slots: list[tuple[Key, Slot]], sentences: list[int], rng: random.Random) -> list[Mutation]:
    out: list[Mutation] = []
    for key, s in slots:
        if s.kind == "ant":
            new = s.alts[0] if s.alts else forms.antonym(s.text, rng)
            if new:
                out.append(("antonym", {key: new}, sentences))
    return out


def _quantifiers(slots: list[tuple[Key, Slot]], sentences: list[int], rng: random.Random) -> list[Mutation]:
    """A quantifier or a frequency changed."""
    out: list[Mutation] = []
    for key, s in slots:
        if s.kind == "quant":
            new = s.alts[0] if s.alts else forms.quant_alter(s.text, rng)
            out += [("quantifier", {key: new}, sentences)] if new else []
        elif s.kind == "freq":
            new = s.alts[0] if s.alts else forms.freq_alter(s.text, rng)
            out += [("frequency", {key: new}, sentences)] if new else []
    return out


def _units(slots: list[tuple[Key, Slot]], sentences: list[int], rng: random.Random) -> list[Mutation]:
    """A number's unit or an amount's currency changed."""
    out: list[Mutation] = []
    for key, s in slots:
        new = forms.num_unit(s.text, rng) if s.kind == "num" else (
            forms.money_unit(s.text, rng) if s.kind == "money" else None)
        if new and new != s.text:
            out.append(("unit" if s.kind == "num" else "currency", {key: new}, sentences))
    return out


def _additions(note: Note, sentences: list[int], rng: random.Random, others: list[Note]) -> list[Mutation]:
    """A condition added to a sentence, or a sentence of another note of the domain."""
    out: list[Mutation] = []
    i = rng.choice(sentences)
    last = len(note.sentences[i]) - 1
    tail = note.sentences[i][last]
    if isinstance(tail, str) and tail.endswith("."):
        out.append(("add_condition", {}, sentences))
    donors = [o for o in others if o.seed_id != note.seed_id and not o.extra_refers]
    donor = rng.choice([o for o in donors if o.domain == note.domain] or donors or others)
    out.append(("add_sentence", {(-1, 0): donor.sentence(len(donor.sentences) - 1)}, sentences))
    return out


def _coordinated(note: Note, ka: Key, kb: Key) -> bool:
    """Two slots of one sentence joined only by 'and', 'or' or a comma: swapping them keeps the meaning."""
    if ka[0] != kb[0]:
        return False
    between = note.sentences[ka[0]][ka[1] + 1:kb[1]]
    return all(isinstance(s, str) for s in between) and "".join(map(str, between)).strip() in ("and", "or", ",", "")


def _unit_of(text: str) -> str:
    p = forms.parse_num(text)
    return p[3].partition(" ")[0] if p else text


def _placed(text: str, key: Key, kind: str) -> str:
    """A value moved to another place: capitalised at a sentence start, lower-cased elsewhere when it is a common
    noun (kind 'env'); names keep their case."""
    if kind in ("pkg", "drug", "tool", "food", "plant"):
        return text
    if key[1] == 0:
        return text[:1].upper() + text[1:]
    return text[:1].lower() + text[1:] if kind == "env" else text


def render_mutation(note: Note, over: dict[Key, str], kept: list[int], kind: str, rng: random.Random) -> str:
    added = over.pop((-1, 0), None)
    body = note.render(kept, over)
    if kind == "add_condition":
        cond = rng.choice(ADDED_CONDITIONS)
        sentences = [note.sentence(i, over) for i in kept]
        j = rng.randrange(len(sentences))
        if sentences[j].endswith("."):
            sentences[j] = sentences[j][:-1] + cond + "."
        body = " ".join(sentences)
    if added:
        body = f"{body} {added}"
    return body


def lossy_candidates(note: Note, rng: random.Random, others: list[Note]) -> list[dict[str, Any]]:
    out = []
    extra = len(note.sentences) - 1
    for operator in LOSSY_OPERATORS:
        for union in (False, True):
            sentences = note.everything if union else note.base
            sources = [note.render(note.base), note.render([0, extra])] if union else [note.render(note.base)]
            if union and rng.random() < .5:   # the second source in other formats: the lens must still see the loss
                over = formatted(note, [k for k in formattable(note, [0, extra]) if k[0][0] in (0, extra)], rng)
                sources[1] = note.render([0, extra], over)
            for kind, over, kept in _mutations_for(note, operator, sentences, rng, others):
                body = render_mutation(note, dict(over), kept, kind, rng)
                if body and body != note.render(sentences):
                    out.append(dict(kind=kind, operator=operator, sources=list(sources), body=body))
    return out


def lookalike_candidates(note: Note, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    a = note.render(note.base)
    for operator in LOOKALIKE_OPERATORS:
        for kind, over, kept in _mutations_for(note, operator, note.base, rng, []):
            b = note.render(kept, over)
            if b != a:
                out.append(dict(kind=f"lookalike_{kind}", operator=operator, a=a, b=b))
    return out


def _round_robin(cands: list[dict[str, Any]], n: int, rng: random.Random, by: str = "kind") -> list[dict[str, Any]]:
    """Up to n candidates, spreading over kinds (or operators) first: each one's first pick before any second."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for c in cands:
        by_kind.setdefault(c[by], []).append(c)
    kinds = sorted(by_kind)
    rng.shuffle(kinds)
    for k in kinds:
        rng.shuffle(by_kind[k])
    picked: list[dict[str, Any]] = []
    seen: set[tuple[str, ...]] = set()
    while len(picked) < n and any(by_kind.values()):
        for k in kinds:
            while by_kind[k]:
                c = by_kind[k].pop()
                sig = (c.get("body") or "", *c.get("sources", []), c.get("a", ""), c.get("b", ""))
                if sig not in seen:
                    seen.add(sig)
                    picked.append(c)
                    break
            if len(picked) >= n:
                break
    return picked


def cases_for(note: Note, others: list[Note]) -> list[dict[str, Any]]:
    rng = random.Random(f"{SEED}:{note.seed_id}")
    lossless = _round_robin(lossless_candidates(note, rng), PER_SEED, rng)
    lossy = _round_robin(lossy_candidates(note, rng, others), max(PER_SEED, len(lossless)), rng, "operator")
    lossless += _round_robin(lossless_candidates(note, rng), len(lossy) - len(lossless), rng) if len(
        lossy) > len(lossless) else []
    looks = _round_robin(lookalike_candidates(note, rng), LOOKALIKES_PER_SEED, rng)
    out = []
    for label, group in (("lossless", lossless), ("lossy", lossy), ("lookalike", looks)):
        for n, c in enumerate(group):
            case = {"id": f"gen-{note.seed_id}-{label}-{n:02d}", "label": label, "kind": c["kind"],
                    "operator": c["operator"], "split": split_of(note.seed_id), "seed": note.seed_id,
                    "domain": note.domain}
            if label == "lookalike":
                case.update(sources=[c["a"], c["b"]], body=None, a=c["a"], b=c["b"])
            else:
                case.update(sources=c["sources"], body=c["body"])
            out.append(case)
    return out


def generate(seeds: list[Note] | None = None) -> list[dict[str, Any]]:
    notes = seeds if seeds is not None else load_seeds()
    out: list[dict[str, Any]] = []
    for note in notes:
        out += cases_for(note, notes)
    return out


def mutate(note: Note, operator: str, rng: random.Random, others: list[Note] | None = None,
           union: bool = False) -> dict[str, Any] | None:
    """One lossy case of `operator` on `note` (None when the operator has nothing to change in it): for property
    tests that sample seeds and operators."""
    extra = len(note.sentences) - 1
    sentences = note.everything if union else note.base
    options = _mutations_for(note, operator, sentences, rng, others or [note])
    if not options:
        return None
    kind, over, kept = rng.choice(options)
    body = render_mutation(note, dict(over), kept, kind, rng)
    sources = [note.render(note.base), note.render([0, extra])] if union else [note.render(note.base)]
    return {"kind": kind, "operator": operator, "sources": sources, "body": body} if body != note.render(
        sentences) else None


def verbatim_plus_remaining(note: Note, rng: random.Random) -> dict[str, Any]:
    """Sources: part of the note (possibly in other formats) and the whole note plus its extra; body: the first
    source verbatim plus the second's sentences the first lacks."""
    extra = len(note.sentences) - 1
    cut = rng.randrange(1, note.n_base + 1)
    over = formatted(note, formattable(note, list(range(cut))), rng) if rng.random() < .5 else {}
    first = note.render(list(range(cut)), over)
    rest = note.render(list(range(cut, note.n_base)) + [extra])
    return {"sources": [first, note.render(note.everything)], "body": f"{first} {rest}"}


def dump(cases: list[dict[str, Any]]) -> str:
    meta = {"generator": "tests/fact_corpus/generate.py", "seed": SEED, "count": len(cases),
            "labels": {lab: sum(c["label"] == lab for c in cases) for lab in ("lossy", "lossless", "lookalike")}}
    lines = [json.dumps(c, ensure_ascii=False) for c in cases]
    return '{"meta": ' + json.dumps(meta, ensure_ascii=False) + ',\n"cases": [\n' + ",\n".join(lines) + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    ap.add_argument("--out", type=Path, default=GENERATED_PATH)
    args = ap.parse_args(argv)
    text = dump(generate())
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print("generated.json is up to date" if same else "generated.json differs from a fresh run")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({json.loads(text)['meta']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
