"""Where the merged body in the editor came from, and whether the reviewer has edited it since: what the window
shows beside the editor, asks before replacing, records in the audit note, and hands to the write (the model's
result goes with a model draft only)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class DraftSource(StrEnum):
    NONE = ""  # the editor is empty
    UNION = "union"  # U: memgui's proved draft
    MODEL = "model"  # M: the model's merged body
    AHEAD = "model, decided ahead"  # the model's body from the decisions-ahead queue
    SUPERSESSION = "supersession"  # N: the superseding draft
    TYPED = "typed"  # the reviewer wrote it into an empty editor


@dataclass(frozen=True)
class DraftOrigin:
    source: DraftSource = DraftSource.NONE
    edited: bool = False  # the reviewer changed the drafted body

    def __str__(self) -> str:
        return f"{self.source} · edited" if self.edited else str(self.source)

    @property
    def empty(self) -> bool:
        return self.source is DraftSource.NONE

    @property
    def by_hand(self) -> bool:
        """The reviewer wrote or changed it: replacing it asks first."""
        return self.source is DraftSource.TYPED or self.edited

    @property
    def from_model(self) -> bool:
        return self.source in (DraftSource.MODEL, DraftSource.AHEAD)

    def after_edit(self) -> DraftOrigin:
        return DraftOrigin(DraftSource.TYPED) if self.empty else replace(self, edited=True)


__all__ = ["DraftOrigin", "DraftSource"]
