"""Store stays split by concern (issue 25): the handle (connection, models, the one transaction rule), the reads
of Netclaw's tables, `store.writes` (Netclaw-exact writes) and `store.images` (row images for audit and undo).
A method added to the wrong part, or a part grown past the house's module size, fails here."""
import inspect
from pathlib import Path

from memgui.core.store.handle import StoreHandle
from memgui.core.store.netclaw_writes import NetclawWrites
from memgui.core.store.row_images import RowImages
from memgui.core.store.store import Store

STORE = Path(__file__).resolve().parents[3] / "memgui" / "core" / "store"
PARTS = {"handle.py": StoreHandle, "store.py": Store, "netclaw_writes.py": NetclawWrites, "row_images.py": RowImages}
MAX_LINES = 400
MAX_PUBLIC_METHODS = 25  # the whole Store, inherited handle included (31 public of 50 methods before the split)
WRITE_VERBS = ("upsert", "insert", "tombstone", "ensure", "reanchor", "restore", "delete", "update")


def _public_methods(cls: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")}


def test_every_part_module_stays_small():
    sizes = {name: len((STORE / name).read_text(encoding="utf-8").splitlines()) for name in PARTS}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_store_surface_stays_small_and_holds_no_write():
    public = _public_methods(Store)
    assert len(public) <= MAX_PUBLIC_METHODS, sorted(public)
    # rows change only through store.writes / store.images (each inside store.transaction(), with its audit row)
    assert sorted(n for n in public if n.split("_")[0] in WRITE_VERBS) == []


def test_writes_and_images_are_parts_of_every_open_store(empty_store):
    assert isinstance(empty_store.writes, NetclawWrites) and empty_store.writes.store is empty_store
    assert isinstance(empty_store.images, RowImages) and empty_store.images.store is empty_store
    assert {"upsert_document", "tombstone_document", "ensure_anchor"} <= _public_methods(NetclawWrites)
    assert {"row_image", "document_image", "restore_row", "restore_document_image"} <= _public_methods(RowImages)
