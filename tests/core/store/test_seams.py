"""core/store/seams.py: the one schema for every file and row that crosses a seam, and its bounds."""
from __future__ import annotations

import json

import pytest

from memgui.core.decide.cache import DecisionCache
from memgui.core.store import seams
from memgui.core.store.seams import SeamError

STAMP = {"updated_at": 1749406833000, "content_hash": "ab" * 32}
DEEP = b"[" * 100_000 + b"]" * 100_000


def test_a_good_draft_and_stamps_file_decode_to_typed_values():
    draft = seams.decode(json.dumps({"stamps": {"doc-a": STAMP}, "merged_body": "x", "extra": [1]}).encode(),
                         seams.DecideDraft, "d")
    assert draft.merged_body == "x" and draft.stamps["doc-a"].updated_at == STAMP["updated_at"]
    assert draft.stamps["doc-a"].body_hash is None  # optional: older drafts have none


@pytest.mark.parametrize("data, why", [
    (b'{"doc-a": {"updated_at": 9223372036854775808, "content_hash": "x"}}', "<= 9223372036854775807"),
    (b'{"doc-a": {"updated_at": -9223372036854775809, "content_hash": "x"}}', ">= -9223372036854775808"),
    (b'{"doc-a": {"updated_at": 1, "content_hash": "\\ud800"}}', "lone UTF-16 surrogate"),
    (b'{"doc-a": {"updated_at": 1, "content_hash": "\\udc00x"}}', "lone UTF-16 surrogate"),
    (b'{"doc-a": {"updated_at": 1, "content_hash": "\xed\xa0\x80"}}', "not UTF-8"),
    (DEEP, "Expected object"),
    (b'{"doc-a": ' + DEEP + b"}", "Expected object"),
    (b"", "not valid JSON"),
])
def test_bad_stamps_are_one_line_errors(data, why):
    with pytest.raises(SeamError) as info:
        seams.decode(data, seams.Stamps, "stamps.json")
    assert why in str(info.value) and "\n" not in str(info.value) and str(info.value).startswith("stamps.json: ")


def test_depth_is_bounded_where_the_type_is_free_and_no_recursion_error_escapes():
    with pytest.raises(SeamError, match="nested deeper than 64"):
        seams.decode(b'{"x": ' + DEEP + b"}", seams.Details, "details")
    with pytest.raises(SeamError, match="nested deeper than 64"):
        seams.decode(b'{"x": ' + b"[" * 80 + b"]" * 80 + b"}", seams.Details, "details")
    assert seams.decode(b'{"x": ' + b"[" * 40 + b"]" * 40 + b"}", seams.Details, "details")


def test_the_size_bound(monkeypatch, tmp_path):
    monkeypatch.setattr(seams, "MAX_FILE_BYTES", 10)
    with pytest.raises(SeamError, match="larger than"):
        seams.decode(b'{"a": "0123456789"}', seams.Details, "d")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 11)
    with pytest.raises(SeamError, match="larger than"):
        seams.read_bytes(big, "a plan")


def test_audit_images_keep_their_stored_shape_and_refuse_what_is_not_an_image():
    stored = json.dumps({"documents": {"doc-a": {"row": {"n": 1, "b": {"$bytes": "00ff"}}, "fts": None}},
                         "anchors": {}, "records": {}, "exemptions": [{"pair": ["a", "b"], "row": None}]})
    assert seams.audit_image(stored, "audit 1") == json.loads(stored)  # no defaults filled in (undo compares)
    assert seams.audit_image("{}", "audit 1") == {}
    for bad in ("[]", '{"documents": []}', '{"tables": {}}', '{"documents": {"d": {"row": {"x": {"$bytes": "z"}}}}}',
                '{"anchors": {"a": {"n": 99999999999999999999}}}', '{"exemptions": [{"pair": ["a"]}]}'):
        with pytest.raises(SeamError, match=r"^audit 1: "):
            seams.audit_image(bad, "audit 1")


def test_int64_arguments():
    assert seams.int64("9223372036854775807") == 2 ** 63 - 1 and seams.int64("-5") == -5
    for bad in ("9223372036854775808", "-9223372036854775809", "1e3", "", "9" * 5000, "0x10"):
        with pytest.raises(SeamError):
            seams.int64(bad)


def test_paths_no_file_system_can_hold():
    seams.check_path("/tmp/ok/netclaw.db")
    for bad in ("/tmp/" + "x" * 256, "/" + "/".join(["y" * 200] * 30), "a\x00b"):
        with pytest.raises(SeamError):
            seams.check_path(bad)
    with pytest.raises(SeamError, match="longer than the file system allows"):
        seams.read_bytes("/tmp/" + "x" * 300, "a draft")


def test_batch_ids():
    assert seams.valid_batch_id("20260601-120000-ab12") and seams.valid_batch_id("x")
    assert not any(seams.valid_batch_id(b) for b in ("", "a b", "-x", "b" * 65, 7, None, "a\nb"))


def test_a_cache_that_is_malformed_or_too_deep_is_an_empty_cache(tmp_path):
    for content in (DEEP, b"[]", b"{bad", b"\xff\xfe", b'{"a": "\\ud800"}'):
        f = tmp_path / "cache.json"
        f.write_bytes(content)
        assert seams.read_cache(f) == {}
    assert seams.read_cache(tmp_path / "missing.json") == {}
    assert seams.loads_or("[" * 100_000, [], "ids") == [] and seams.loads_or('["a"]', [], "ids") == ["a"]


def test_the_decision_cache_survives_a_100k_deep_file(tmp_path):
    cache = DecisionCache(tmp_path / "netclaw.db", "model", root=tmp_path)
    cache.path.parent.mkdir(parents=True, exist_ok=True)
    cache.path.write_bytes(DEEP)
    assert cache._load() == {}
