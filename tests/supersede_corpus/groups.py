"""Load the labelled supersede groups: each group's notes as TimedNote, its label, and what it replaces."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from memgui.core.merge.supersede import Reading, TimedNote

DATA = Path(__file__).resolve().parents[1] / "data" / "supersede"
# blind: written by a third hand (2026-12-08), read once before any change; blind2: by a fourth hand (2026-12-08,
# later session), read once at 1b73461 (docs/supersede.md), then the series veto learnt "one action done twice" from it
SETS = ("tune", "check", "blind", "blind2")
TAUGHT = ("tune", "check")  # the sets the deterministic rules were read against
# The day the sets were read against: a note's time after it is "in the future".
NOW_MS = int(dt.datetime(2026, 12, 7, tzinfo=dt.timezone.utc).timestamp() * 1000)


@dataclass(frozen=True)
class Replaced:
    old: str
    new: str
    older_note: int


@dataclass(frozen=True)
class Group:
    id: str
    kind: Reading
    cls: str
    notes: tuple[TimedNote, ...]
    newest: int | None
    replaced: tuple[Replaced, ...]


def _ms(iso: str | None) -> int | None:
    if not iso:
        return None
    return int(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def load(which: str) -> list[Group]:
    data = json.loads((DATA / f"groups_{which}.json").read_text(encoding="utf-8"))
    return [Group(g["id"], Reading(g["kind"]), g.get("class", ""),
                  tuple(TimedNote(n["body"], _ms(n.get("freshness")), n.get("title", "")) for n in g["notes"]),
                  g.get("newest"), tuple(Replaced(r["old"], r["new"], r["older_note"]) for r in g.get("replaced") or ()))
            for g in data["groups"]]
