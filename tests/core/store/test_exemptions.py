"""core/store/exemptions.py: the remembered "not duplicates" pairs the nominator drops."""
from __future__ import annotations

import pytest

from memgui.core.store.exemptions import (
    add_exemption,
    all_pairs,
    exempt_pairs,
    is_exempt,
    list_exemptions,
    ordered_pair,
    remove_exemption,
)


def test_add_list_remove(empty_store):
    store = empty_store
    assert exempt_pairs(store) == set() and list_exemptions(store) == []
    assert add_exemption(store, "doc-b", "doc-a", "different servers") is True
    assert add_exemption(store, "doc-a", "doc-b", "again") is False  # one row per unordered pair, note kept
    assert add_exemption(store, "doc-a", "doc-c") is True
    assert exempt_pairs(store) == {frozenset({"doc-a", "doc-b"}), frozenset({"doc-a", "doc-c"})}
    rows = {(e.first_id, e.second_id): e.note for e in list_exemptions(store)}
    assert rows == {("doc-a", "doc-b"): "different servers", ("doc-a", "doc-c"): None}
    assert is_exempt(store, "doc-b", "doc-a") and not is_exempt(store, "doc-b", "doc-c")
    assert remove_exemption(store, "doc-b", "doc-a") is True and remove_exemption(store, "doc-a", "doc-b") is False
    assert exempt_pairs(store) == {frozenset({"doc-a", "doc-c"})}


def test_callable_inside_an_open_transaction_and_rolled_back_with_it(empty_store):
    store = empty_store
    with store.transaction():
        add_exemption(store, "doc-1", "doc-2")
        assert is_exempt(store, "doc-1", "doc-2")  # visible inside the transaction
    assert is_exempt(store, "doc-1", "doc-2")

    class Boom(Exception):
        pass

    with pytest.raises(Boom), store.transaction():
        add_exemption(store, "doc-3", "doc-4")
        raise Boom
    assert not is_exempt(store, "doc-3", "doc-4")  # the outer rollback takes it back


def test_pairs_are_validated_and_enumerated():
    assert ordered_pair("doc-z", "doc-a") == ("doc-a", "doc-z")
    with pytest.raises(ValueError):
        ordered_pair("doc-a", "doc-a")
    with pytest.raises(ValueError):
        ordered_pair("", "doc-a")
    assert all_pairs(["c", "a", "b", "a"]) == [("a", "b"), ("a", "c"), ("b", "c")]
