"""The long texts of an audit row's images, stored once and compressed (audit image format 2).

A document of 1 MB appeared four times in a merge's audit row as format 1 wrote it — in its row and its FTS row,
before and after — and the whole image was serialised to JSON inside the write transaction. Format 2 keeps the
images' JSON (`before_json` / `after_json`) as it was, except that a text cell of `LONG_TEXT` characters or more
is written as `{"$ref": n}`: the n-th text of the row's `texts` column. A text the images share (a body and its
FTS row, a source's body before and after) is stored once. The texts are compressed when they are known, before
the write lock is taken (`TextPack.add`); inside the lock only the images' small JSON is written, and the texts'
prepared bytes joined.

The `texts` column: `MAGIC`, then for each text the length of its zlib stream (4 bytes, big-endian) and the
stream (UTF-8 text, zlib's own checksum). A row with no long text has `texts` NULL and is exactly a format 1 row
(every row memgui wrote before format 2 reads as it always did).

Reading (`resolve`) is part of the audit row's seam: a blob that is not this format, a stream that does not
decompress or is longer than one text may be, a reference to a text the row does not have, are refused as one
line (SeamError), never a traceback, and nothing is written.
"""
from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from .seams import MAX_FILE_BYTES, MAX_ITEMS, MAX_TEXT_CHARS, SeamError
from .values import RawText

MAGIC = b"memgui-texts\x00\x02"
LONG_TEXT = 1024  # characters: a cell this long or longer is stored once, compressed, by reference
LEVEL_PREPARED = 6  # zlib level for texts compressed before the write lock (≈ 23 ms and 5.8× on 1 MB of notes)
LEVEL_IN_LOCK = 1  # for a text first met inside the lock (a row that changed since): ≈ 6 ms per MB
REF = "$ref"
_LENGTH = struct.Struct(">I")
_MAX_TEXT_BYTES = 4 * MAX_TEXT_CHARS  # UTF-8 of the longest text a seam takes
MAX_ROW_TEXT_CHARS = 8 * MAX_TEXT_CHARS  # all of one row's texts (a row of many small zlib bombs is refused)


def normal(value: Any) -> Any:
    """`value` as it reads back from an audit row's JSON — bytes tagged `{"$bytes": hex}`, text that is not
    UTF-8 `{"$text": hex}`, tuples as lists, a non-finite float refused — without a JSON round trip (which cost
    ≈ 15 ms per MB of text inside the write lock)."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("Out of range float values are not JSON compliant")
        return value
    if isinstance(value, Mapping):
        return {_key(k): normal(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normal(v) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": bytes(value).hex()}
    if isinstance(value, RawText):
        return {"$text": value.data.hex()}
    raise TypeError(f"cannot store {type(value).__name__} in an audit image")


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    raise TypeError(f"an audit image's keys are text, not {type(key).__name__}")


class TextPack:
    """The long texts of one audit row: `add` a text when it is known (it is compressed then, before the lock);
    `refer` swaps every long text of an image for its reference (a text not added yet is compressed there, at a
    faster level); `blob` is the `texts` column — only the texts referred to, in the order first referred to."""

    def __init__(self, texts: Iterable[str | None] = ()):
        self._by_length: dict[int, list[int]] = {}
        self._texts: list[str] = []
        self._chunks: list[bytes] = []
        self._out: dict[int, int] = {}  # pack index -> position in the blob
        for text in texts:
            if text is not None and len(text) >= LONG_TEXT:
                self.add(text)

    def _find(self, text: str) -> int | None:
        for i in self._by_length.get(len(text), ()):
            if self._texts[i] == text:
                return i
        return None

    def add(self, text: str, level: int = LEVEL_PREPARED) -> int:
        found = self._find(text)
        if found is not None:
            return found
        chunk = zlib.compress(text.encode("utf-8"), level)
        self._texts.append(text)
        self._chunks.append(chunk)
        index = len(self._texts) - 1
        self._by_length.setdefault(len(text), []).append(index)
        return index

    def add_image(self, image: Any) -> None:
        """Add every long text of an image (an entry's images, read before the lock that writes their reverse)."""
        stack = [image]
        while stack:
            item = stack.pop()
            if isinstance(item, Mapping):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str) and len(item) >= LONG_TEXT:
                self.add(item)

    def _ref(self, text: str) -> dict[str, int]:
        index = self.add(text, LEVEL_IN_LOCK)
        out = self._out.setdefault(index, len(self._out))
        return {REF: out}

    def refer(self, image: Any) -> Any:
        """`image` (JSON-normal) with every text cell of LONG_TEXT characters or more as `{"$ref": n}`."""
        if isinstance(image, dict):
            return {k: self._ref(v) if isinstance(v, str) and len(v) >= LONG_TEXT else self.refer(v)
                    for k, v in image.items()}
        if isinstance(image, list):
            return [self.refer(v) for v in image]
        return image

    def blob(self) -> bytes | None:
        """The `texts` column: NULL when no text was referred to (the row is then a format 1 row)."""
        if not self._out:
            return None
        order = sorted(self._out, key=self._out.__getitem__)
        longest = max(len(self._texts[index]) for index in order)
        if longest > MAX_TEXT_CHARS:  # `unpack` would refuse the row: the write could never be undone
            raise SeamError(f"a text of {longest:,} characters is longer than the {MAX_TEXT_CHARS:,} an audit row "
                            "holds")
        if sum(len(self._texts[index]) for index in order) > MAX_ROW_TEXT_CHARS or len(order) > MAX_ITEMS:
            raise SeamError(f"its texts are longer in all than the {MAX_ROW_TEXT_CHARS:,} characters an audit row holds")
        parts = [MAGIC]
        for index in order:
            chunk = self._chunks[index]
            parts += [_LENGTH.pack(len(chunk)), chunk]
        blob = b"".join(parts)
        if len(blob) > MAX_FILE_BYTES:
            raise SeamError(f"its texts are larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB an audit row holds")
        return blob


def unpack(blob: Any, where: str) -> list[str]:
    """The texts of a `texts` column (SeamError naming the row when it is not format 2's)."""
    if blob is None:
        return []
    if isinstance(blob, str):
        raise SeamError(f"{where}: its texts column holds text, not the compressed texts memgui writes")
    data = bytes(blob)
    if len(data) > MAX_FILE_BYTES:
        raise SeamError(f"{where}: its texts column is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if not data.startswith(MAGIC):
        raise SeamError(f"{where}: its texts column is not memgui's compressed texts (unknown format)")
    texts: list[str] = []
    at, total = len(MAGIC), 0
    while at < len(data):
        if len(texts) >= MAX_ITEMS:
            raise SeamError(f"{where}: its texts column holds more than {MAX_ITEMS} texts")
        if at + _LENGTH.size > len(data):
            raise SeamError(f"{where}: its texts column is cut short")
        (size,) = _LENGTH.unpack_from(data, at)
        at += _LENGTH.size
        if at + size > len(data):
            raise SeamError(f"{where}: its texts column is cut short")
        texts.append(_inflate(data[at:at + size], f"{where}: its text {len(texts)}"))
        total += len(texts[-1])
        if total > MAX_ROW_TEXT_CHARS:
            raise SeamError(f"{where}: its texts are longer in all than {MAX_ROW_TEXT_CHARS:,} characters")
        at += size
    return texts


def _inflate(chunk: bytes, where: str) -> str:
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(chunk, _MAX_TEXT_BYTES + 1)
    except zlib.error:
        raise SeamError(f"{where} is damaged (it does not decompress)") from None
    if len(raw) > _MAX_TEXT_BYTES or inflater.unconsumed_tail:
        raise SeamError(f"{where} is longer than {MAX_TEXT_CHARS:,} characters")
    if not inflater.eof or inflater.unused_data:
        raise SeamError(f"{where} is damaged (its compressed stream is cut or followed by other bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SeamError(f"{where} is not UTF-8 text") from None
    if len(text) > MAX_TEXT_CHARS:
        raise SeamError(f"{where} is longer than {MAX_TEXT_CHARS:,} characters")
    return text


def resolve(image: Any, texts: list[str], where: str) -> Any:
    """`image` (decoded JSON, depth already bounded) with every `{"$ref": n}` replaced by the n-th text.
    Iterative; a reference to a text the row does not have is a SeamError."""
    root: list[Any] = [image]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        parent, key = stack.pop()
        value = parent[key]
        if isinstance(value, dict):
            if len(value) == 1 and REF in value:
                n = value[REF]
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < len(texts):
                    have = f"it has {len(texts)}" if texts else "it has none"
                    raise SeamError(f"{where}: refers to text {n!r}, which the row does not have ({have})")
                parent[key] = texts[n]
            else:
                stack.extend((value, k) for k in value)
        elif isinstance(value, list):
            stack.extend((value, i) for i in range(len(value)))
    return root[0]


__all__ = ["LONG_TEXT", "MAGIC", "REF", "TextPack", "normal", "resolve", "unpack"]
