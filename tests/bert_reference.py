"""A plain numpy BERT encoder + BERT WordPiece tokenizer: an independent reference for the GGUF conversion
(sentence-transformers' all-MiniLM-L6-v2 = BERT, mean pooling over tokens, L2 norm). Test helper only."""
from __future__ import annotations

import math
import unicodedata
from pathlib import Path

import numpy as np


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def _layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


class ReferenceBert:
    def __init__(self, folder: Path):
        import json

        from safetensors.numpy import load_file

        self.t = {k: v.astype(np.float64) for k, v in load_file(str(folder / "model.safetensors")).items() if v.dtype != np.int64}
        self.cfg = json.loads((folder / "config.json").read_text())
        self.vocab = {tok: i for i, tok in enumerate((folder / "vocab.txt").read_text(encoding="utf-8").splitlines())}

    # -- tokenizer (BertTokenizer: clean, lower-case, strip accents, split punctuation, greedy WordPiece) --
    @staticmethod
    def _is_punct(ch: str) -> bool:
        cp = ord(ch)
        if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
            return True
        return unicodedata.category(ch).startswith("P")

    def tokenize(self, text: str) -> list[int]:
        text = "".join(" " if ch.isspace() else ch for ch in text
                       if (ord(ch) not in (0, 0xFFFD) and unicodedata.category(ch) not in ("Cc", "Cf")) or ch in "\t\n\r")
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
        words: list[str] = []
        for chunk in text.split():
            current = ""
            for ch in chunk:
                if self._is_punct(ch):
                    if current:
                        words.append(current)
                    words.append(ch)
                    current = ""
                else:
                    current += ch
            if current:
                words.append(current)
        ids = [self.vocab["[CLS]"]]
        for word in words:
            start, pieces = 0, []
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.vocab:
                        pieces.append(self.vocab[piece])
                        break
                    end -= 1
                if end == start:
                    pieces = [self.vocab["[UNK]"]]
                    break
                start = end
            ids.extend(pieces)
        return ids + [self.vocab["[SEP]"]]

    # -- encoder --
    def embed_ids(self, ids: list[int]) -> np.ndarray:
        t, cfg = self.t, self.cfg
        eps, heads = cfg["layer_norm_eps"], cfg["num_attention_heads"]
        n = len(ids)
        x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n]
        x = x + t["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"], eps)
        d = x.shape[1] // heads
        for i in range(cfg["num_hidden_layers"]):
            p = f"encoder.layer.{i}."

            def lin(v, name, p=p):
                return v @ t[p + name + ".weight"].T + t[p + name + ".bias"]

            q = lin(x, "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
            k = lin(x, "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
            v = lin(x, "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(d)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            ctx = (scores @ v).transpose(1, 0, 2).reshape(n, heads * d)
            x = _layer_norm(x + lin(ctx, "attention.output.dense"), t[p + "attention.output.LayerNorm.weight"],
                            t[p + "attention.output.LayerNorm.bias"], eps)
            h = _gelu(lin(x, "intermediate.dense"))
            x = _layer_norm(x + lin(h, "output.dense"), t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"], eps)
        pooled = x.mean(0)
        return (pooled / np.linalg.norm(pooled)).astype(np.float32)

    def embed(self, text: str) -> np.ndarray:
        return self.embed_ids(self.tokenize(text))
