"""Where a scan's vectors come from: a module of its own, so the CLI can name the choices without numpy."""
from __future__ import annotations

from enum import StrEnum


class EmbedderChoice(StrEnum):
    """Where a scan's vectors come from (`memgui scan --embedder`, the settings' embedder), and, but for AUTO, where
    a scan's vectors came from (`EmbedderInfo.source`)."""

    AUTO = "auto"  # the daemon's vectors when every live document has a current one, else memgui's default
    DEFAULT = "default"  # memgui's MiniLM
    STORED = "stored"  # the daemon's rows (memory_embeddings)
    ONNX = "onnx"  # the daemon's own ONNX model, run here


__all__ = ["EmbedderChoice"]
