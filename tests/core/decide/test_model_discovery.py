"""Finding GGUF models already on the machine (user path, Ollama, LM Studio) with their quantisation."""
import json

import numpy as np
import pytest

gguf = pytest.importorskip("gguf")  # part of the [models] extra; make test installs it

from memgui.core.decide.discovery import (  # noqa: E402
    FILE_TYPE_NAMES,
    OLLAMA_MODEL_MEDIA_TYPE,
    discover_gguf_models,
    read_gguf_header,
)


def write_gguf(path, *, arch="llama", name="tiny", file_type=gguf.LlamaFileType.MOSTLY_Q4_K_M, tokens=0):
    """A small but valid GGUF file written with the `gguf` package (one tiny tensor)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    w = gguf.GGUFWriter(str(path), arch)
    if tokens:  # a big array before file_type, like real tokenizer metadata
        w.add_token_list([f"tok{i}" for i in range(tokens)])
    w.add_name(name)
    if file_type is not None:
        w.add_file_type(int(file_type))
    w.add_tensor("t", np.zeros((4,), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def test_header_reader_gets_file_type_architecture_and_name(tmp_path):
    f = write_gguf(tmp_path / "a.gguf", arch="qwen2", name="Qwen Tiny", tokens=500)
    info = read_gguf_header(f)
    assert (info.architecture, info.name, FILE_TYPE_NAMES[info.file_type]) == ("qwen2", "Qwen Tiny", "Q4_K_M")


def test_our_quantisation_names_match_the_gguf_package():
    for ft in gguf.LlamaFileType:
        if ft.value in FILE_TYPE_NAMES and ft.name.startswith("MOSTLY_"):
            assert FILE_TYPE_NAMES[ft.value] == ft.name.removeprefix("MOSTLY_")


def test_user_path_file_or_folder(tmp_path):
    one = write_gguf(tmp_path / "models" / "phi-mini.Q8_0.gguf", file_type=gguf.LlamaFileType.MOSTLY_Q8_0)
    write_gguf(tmp_path / "models" / "sub" / "other.gguf", file_type=gguf.LlamaFileType.MOSTLY_F16)
    (tmp_path / "models" / "notes.txt").write_text("not a model")
    (tmp_path / "models" / "fake.gguf").write_bytes(b"not gguf at all")
    found = discover_gguf_models([tmp_path / "models"], home=tmp_path / "home", include_default=False)
    assert {(m.name, m.quantization, m.source) for m in found} == {("phi-mini.Q8_0", "Q8_0", "user"), ("other", "F16", "user")}
    assert next(m for m in found if m.name == "phi-mini.Q8_0").size_bytes == one.stat().st_size
    assert [m.path for m in discover_gguf_models([one], home=tmp_path / "home", include_default=False)] == [one]


def test_quantisation_falls_back_to_the_file_name(tmp_path):
    f = write_gguf(tmp_path / "mistral-7b-instruct.Q5_K_S.gguf", file_type=None)
    [m] = discover_gguf_models([f], home=tmp_path / "home", include_default=False)
    assert m.quantization == "Q5_K_S"


def test_ollama_manifest_points_at_a_blob(tmp_path, monkeypatch):
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    home = tmp_path / "home"
    root = home / ".ollama" / "models"
    digest = "sha256:" + "ab" * 32
    write_gguf(root / "blobs" / digest.replace(":", "-"), arch="llama", file_type=gguf.LlamaFileType.MOSTLY_Q4_0)
    manifest = {
        "schemaVersion": 2,
        "layers": [
            {"mediaType": OLLAMA_MODEL_MEDIA_TYPE, "digest": digest, "size": 1},
            {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "cd" * 32},
        ],
    }
    mdir = root / "manifests" / "registry.ollama.ai" / "library" / "llama3.2"
    mdir.mkdir(parents=True)
    (mdir / "3b").write_text(json.dumps(manifest))
    broken = root / "manifests" / "registry.ollama.ai" / "library" / "broken"
    broken.mkdir(parents=True)
    (broken / "latest").write_text("{not json")
    [m] = discover_gguf_models(home=home, include_default=False)
    assert (m.name, m.source, m.quantization, m.architecture) == ("llama3.2:3b", "ollama", "Q4_0", "llama")
    assert m.path == root / "blobs" / ("sha256-" + "ab" * 32)


def test_lmstudio_folders_and_duplicates_listed_once(tmp_path, monkeypatch):
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    home = tmp_path / "home"
    f = write_gguf(home / ".lmstudio" / "models" / "lmstudio-community" / "gemma" / "gemma-Q4_K_M.gguf")
    write_gguf(home / ".cache" / "lm-studio" / "models" / "pub" / "repo" / "x.gguf",
               file_type=gguf.LlamaFileType.MOSTLY_Q6_K)
    found = discover_gguf_models([f], home=home, include_default=False)  # same file via user path and LM Studio
    assert [(m.name, m.source) for m in found] == [("gemma-Q4_K_M", "user"), ("pub/repo/x", "lmstudio")]
    assert found[1].quantization == "Q6_K"


def test_nothing_installed_gives_an_empty_list(tmp_path, monkeypatch):
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    assert discover_gguf_models([tmp_path / "missing"], home=tmp_path / "home", include_default=False) == []
