"""`memgui scan`: JSON shape, text output, bad input, degraded and stored-vector messages."""
from __future__ import annotations

import json

import pytest

from factories import put_embedding
from memgui.__main__ import main
from memgui.core.store import create_store, open_store
from vector_fakes import add_doc, text_vector


@pytest.fixture
def store_path(tmp_path):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        add_doc(store, "Staging deploy key", "The deploy key for the staging server rotates every 90 days.", anchor="staging")
        add_doc(store, "Staging key rotation", "Staging server deploy keys are rotated every ninety days.", anchor="keys")
        add_doc(store, "Revenue", "Quarterly revenue grew by 12 percent.", anchor="revenue")
    return path


def test_scan_json(store_path, capsys):
    assert main(["scan", "--store", str(store_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["embedder"] == {"model_id": "all-minilm-l6-v2", "dims": 384, "source": "default"}
    assert out["k"] == 5 and out["degraded"] is False and isinstance(out["threshold"], float)
    (cluster,) = out["clusters"]
    assert {m["title"] for m in cluster["members"]} == {"Staging deploy key", "Staging key rotation"}
    assert all(set(m) == {"document_id", "title"} for m in cluster["members"])
    (pair,) = cluster["pairs"]
    assert {pair["a"], pair["b"]} == {m["document_id"] for m in cluster["members"]}
    assert out["threshold"] <= pair["cosine"] <= 1.0 and pair["nominee"] is True and pair["same_anchor"] is False


def test_scan_marks_notes_of_one_anchor(tmp_path, capsys):
    path = create_store(tmp_path / "netclaw.db")
    with open_store(path) as store:
        flights = add_doc(store, "Lisbon flights", "TAP TP1351 leaves Heathrow 07:40 on 12 May.", anchor="lisbon-trip")
        hotel = add_doc(store, "Lisbon hotel", "Booked Casa do Príncipe, four nights with breakfast.", anchor="lisbon-trip")
        add_doc(store, "Revenue", "Quarterly revenue grew by 12 percent.", anchor="revenue")
    assert main(["scan", "--store", str(path), "--json"]) == 0
    (cluster,) = json.loads(capsys.readouterr().out)["clusters"]
    (pair,) = cluster["pairs"]
    assert {pair["a"], pair["b"]} == {flights.document_id, hotel.document_id}
    assert pair["same_anchor"] is True and pair["nominee"] is False and pair["cosine"] < 0.68
    assert main(["scan", "--store", str(path)]) == 0
    assert "same anchor" in capsys.readouterr().out


def test_scan_text_and_options(store_path, capsys):
    assert main(["--store", str(store_path), "scan", "--k", "1", "--threshold", "0.99"]) == 0
    out = capsys.readouterr().out
    assert "all-minilm-l6-v2" in out and "k=1 threshold=0.99" in out and "clusters=0" in out


@pytest.mark.parametrize("args, message", [
    (["--k", "0"], "--k must be at least 1"),
    (["--threshold", "1.5"], "--threshold must be a cosine"),
])
def test_bad_options_exit_2(store_path, capsys, args, message):
    assert main(["scan", "--store", str(store_path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_missing_store_exit_2(tmp_path, capsys):
    assert main(["scan", "--store", str(tmp_path / "nope.db")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_wrong_dimension_stored_vectors_exit_2(store_path, capsys):
    with open_store(store_path) as store:
        a, b, _ = store.documents()
        put_embedding(store, a, "snowflake-arctic-embed-m-int8", text_vector("a", 768))
        put_embedding(store, b, "snowflake-arctic-embed-m-int8", text_vector("b", 384))
    assert main(["scan", "--store", str(store_path), "--embedder", "stored", "--json"]) == 2
    err = capsys.readouterr().err
    assert "wrong dimension" in err and "refusing to mix vector spaces" in err


def test_degraded_scan_is_flagged(store_path, capsys, monkeypatch, tmp_path):
    # No embedder can load: the model files are gone and the weights package cannot be found.
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "no-models"))
    monkeypatch.setattr("memgui.core.vectors.embedder_model.SOURCE_PACKAGE", "memgui_no_such_weights_package")
    with open_store(store_path) as store:
        add_doc(store, "Staging key copy", "The deploy key for the staging server rotates every 90 days, per ops.")
    assert main(["scan", "--store", str(store_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["degraded"] is True and out["embedder"] is None
    assert out["degraded_reason"].startswith("embedder_unavailable")
    assert out["clusters"] and all(p["cosine"] is None for c in out["clusters"] for p in c["pairs"])
