"""core/store/audit_texts.py: the images' JSON-normal form without a JSON round trip, and the texts column."""
from __future__ import annotations

import json
import struct
import zlib

import pytest

from memgui.core.store import audit_texts
from memgui.core.store.audit_texts import LONG_TEXT, TextPack, normal, resolve, unpack
from memgui.core.store.seams import SeamError
from memgui.core.store.values import RawText


def _round_trip(value):
    def enc(v):
        if isinstance(v, (bytes, bytearray, memoryview)):
            return {"$bytes": bytes(v).hex()}
        if isinstance(v, RawText):
            return {"$text": v.data.hex()}
        raise TypeError
    return json.loads(json.dumps(value, default=enc, ensure_ascii=False, allow_nan=False))


def test_normal_is_what_the_json_round_trip_gave():
    image = {"documents": {"d": {"row": {"t": "Café\r\n", "n": 3, "x": 0.1, "b": b"\x00\xff", "r": RawText(b"\xff"),
                                         "none": None, "yes": True, "big": 2 ** 62},
                                 "fts": None, "embeddings": [{"vector": "00ff", "dims": 2}]}},
             "exemptions": [{"pair": ("a", "b"), "row": None}]}
    assert normal(image) == _round_trip(image)
    with pytest.raises(ValueError):
        normal({"x": float("inf")})
    with pytest.raises(TypeError):
        normal({"x": object()})


def test_each_long_text_is_stored_once_and_short_ones_stay_inline():
    body = "Zoë ☕ " * LONG_TEXT
    pack = TextPack([body, "short"])
    image = {"documents": {"d": {"row": {"markdown_body": body, "title": "short"}, "fts": {"body": body}}}}
    skeleton = pack.refer(image)
    assert skeleton["documents"]["d"]["row"] == {"markdown_body": {"$ref": 0}, "title": "short"}
    assert skeleton["documents"]["d"]["fts"] == {"body": {"$ref": 0}}
    blob = pack.blob()
    assert blob is not None and len(blob) < len(body) // 10
    assert resolve(json.loads(json.dumps(skeleton)), unpack(blob, "audit 1"), "audit 1") == image
    assert TextPack(["short"]).blob() is None  # no long text: a format 1 row


def test_a_text_first_met_inside_the_lock_is_stored_too():
    pack = TextPack()
    text = "x" * (LONG_TEXT + 1)
    assert unpack(pack.blob() if pack.refer({"a": text}) else None, "audit 1") == [text]


def test_unused_prepared_texts_are_left_out_of_the_row():
    kept, unused = "k" * LONG_TEXT, "u" * LONG_TEXT
    pack = TextPack([unused, kept])
    assert pack.refer({"a": kept}) == {"a": {"$ref": 0}}
    assert unpack(pack.blob(), "audit 1") == [kept]


@pytest.mark.parametrize("blob, why", [
    (b"garbage", "unknown format"),
    (audit_texts.MAGIC + b"\x00\x00\x00\x09abc", "cut short"),
    ("text", "holds text"),
])
def test_a_texts_column_that_is_not_memguis_is_refused_in_one_line(blob, why):
    with pytest.raises(SeamError) as info:
        unpack(blob, "audit 7")
    assert str(info.value).startswith("audit 7: ") and why in str(info.value) and "\n" not in str(info.value)


def test_a_row_of_many_small_zlib_bombs_is_refused_before_it_fills_the_memory(monkeypatch):
    """Each text is bounded, and so is the row's sum: many streams of 1 MB of zeros (1 KB each) are refused."""
    monkeypatch.setattr(audit_texts, "MAX_ROW_TEXT_CHARS", 10 * 1024 * 1024)  # the same rule at a tenth of a test's cost
    bomb = zlib.compress(b"0" * (1024 * 1024), 9)
    blob = audit_texts.MAGIC + (struct.pack(">I", len(bomb)) + bomb) * 40
    assert len(blob) < 64 * 1024
    with pytest.raises(SeamError) as info:
        unpack(blob, "audit 7")
    assert "longer in all than" in str(info.value)
    assert unpack(audit_texts.MAGIC + (struct.pack(">I", len(bomb)) + bomb) * 3, "audit 7") == ["0" * (1024 * 1024)] * 3
