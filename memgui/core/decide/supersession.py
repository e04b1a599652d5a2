"""The supersede reading of a cluster (issue 38): "supersedes", "dated-series" or "undecided", with its order and
the reason a person sees.

The deterministic parts speak first and the model only reads what they leave open:
1. the notes must be ordered without doubt (merge/supersede.py `order_of`), else "undecided";
2. two dated observations of one series (`series_of`) make it "dated-series", whatever the model says;
3. the model reads each consecutive (older, newer) pair; a pair read as SERIES with p ≥ `SERIES_AT_LEAST` makes it
   "dated-series"; every pair read as UPDATE makes it "supersedes" at p ≥ `UPDATE_AT_LEAST` when the newest note
   states a value in place of an older one (`replaced_value`, in aligned sentences: required for an unattended
   write; or `changed_amount`, anywhere in the notes), and at p ≥ `UNSUPPORTED_UPDATE_AT_LEAST` without it (a plan
   that happened, a thing moved to someone else: the state moved on in words, not values); anything else is
   "undecided" (a person decides). Without a model the reading is "undecided".

The thresholds were chosen on the tune half of the labelled groups (tests/data/supersede/groups_tune.json) and
are reported on the check half (`tests/perf/test_supersede_reading.py`).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..merge.supersede import Order, Reading, TimedNote, changed_amount, day_of, order_of, replaced_value, series_of
from ..tasks import CancelToken, Progress, Step, Work
from .supersede_reader import SERIES, UPDATE, PairReading, SupersedeReader

UPDATE_AT_LEAST = 0.7
UNSUPPORTED_UPDATE_AT_LEAST = 0.85  # the model alone, no value replaced: it must be surer
SERIES_AT_LEAST = 0.6
# accept-safe writes a supersession only above a wider margin than the reading shown to a person
UNATTENDED_UPDATE_AT_LEAST = 0.85
STAGE = Step.SUPERSEDE_READING


@dataclass(frozen=True)
class SupersedeReading:
    reading: Reading
    order: Order
    reason: str
    pairs: tuple[PairReading, ...] = field(default=())
    model_id: str = ""
    replaced: str = ""  # the older sentence whose value the newest note's aligned sentence replaces ("": none)

    def to_dict(self) -> dict[str, object]:
        return {"reading": self.reading.value, "order": self.order.to_dict(), "reason": self.reason,
                "pairs": [p.to_dict() for p in self.pairs], "model_id": self.model_id, "replaced": self.replaced}


def read_supersession(notes: Sequence[TimedNote], now_ms: int, reader: SupersedeReader | None, *,
                      cancel: CancelToken | None = None) -> Work[SupersedeReading]:
    order = order_of(notes, now_ms)
    if not order.ordered:
        return SupersedeReading(Reading.UNDECIDED, order, f"a person decides: {order.doubt}")
    series = series_of(notes)
    if series:
        return SupersedeReading(Reading.DATED_SERIES, order, f"dated series, never superseded: {series}")
    replaced = replaced_value(notes, order)
    evidence = replaced or changed_amount(notes, order)
    if reader is None:
        return SupersedeReading(Reading.UNDECIDED, order, "no model to read whether the newer note replaces the "
                                                          "older: a person decides")
    pairs: list[PairReading] = []
    steps = list(itertools.pairwise(order.oldest_first))
    for n, (a, b) in enumerate(steps):
        yield Progress(STAGE, n, len(steps), f"pair {n + 1} of {len(steps)}")
        pairs.append((yield from reader.read(notes[a].body, day_of(order.times[a] or 0), notes[b].body,
                                             day_of(order.times[b] or 0), cancel=cancel)))
    yield Progress(STAGE, len(steps), len(steps), "done")
    return _combined(order, tuple(pairs), reader.model_id, replaced, evidence)


def _combined(order: Order, pairs: tuple[PairReading, ...], model_id: str, replaced: str,
              evidence: str) -> SupersedeReading:
    unread = [p for p in pairs if not p.answer]
    if unread:
        return SupersedeReading(Reading.UNDECIDED, order, f"a person decides: {unread[0].why_unread}", pairs, model_id,
                                replaced)
    if any(p.p.get(SERIES, 0.0) >= SERIES_AT_LEAST for p in pairs):
        return SupersedeReading(Reading.DATED_SERIES, order, "the model reads separate dated observations", pairs,
                                model_id, replaced)
    bar = UPDATE_AT_LEAST if evidence else UNSUPPORTED_UPDATE_AT_LEAST
    weakest = min(p.p.get(UPDATE, 0.0) for p in pairs)
    if weakest >= bar:
        why = "" if evidence else " (no value stated in place of an older one: the model alone, at a higher bar)"
        return SupersedeReading(Reading.SUPERSEDES, order, f"the model reads the newer note as the newer state{why}",
                                pairs, model_id, replaced)
    unsupported = "" if evidence else "; the newest note states no value in place of an older one"
    return SupersedeReading(Reading.UNDECIDED, order, f"a person decides: the model is not sure the newer note "
                                                      f"replaces the older (p = {weakest:.2f}, under {bar:.2f})"
                                                      f"{unsupported}", pairs, model_id, replaced)


__all__ = ["SERIES_AT_LEAST", "UNATTENDED_UPDATE_AT_LEAST", "UNSUPPORTED_UPDATE_AT_LEAST", "UPDATE_AT_LEAST",
           "SupersedeReading", "read_supersession"]
