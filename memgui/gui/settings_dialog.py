"""Settings kept in QSettings: store, recent stores, embedder, decider model, K, threshold, timeouts, threads.

K and threshold may be left at "default" (None): the core then uses Netclaw's configured value or the
per-embedding-model default. Values seed from `config.load_curation_settings()`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..config import load_curation_settings
from .services.types import DiscoveredModel, EmbedderChoice

EMBEDDERS = (
    (EmbedderChoice.AUTO, "automatic (the daemon's vectors when complete, else the default)"),
    (EmbedderChoice.DEFAULT, "memgui's offline default (all-MiniLM-L6-v2)"),
    (EmbedderChoice.STORED, "the daemon's stored vectors (memory_embeddings)"),
    (EmbedderChoice.ONNX, "the daemon's own ONNX model (optional extra)"),
)
MAX_RECENT = 8


class ScanOptions(TypedDict):
    """The settings a scan takes (`Services.scan`'s keywords)."""

    embedder_choice: EmbedderChoice
    k: int | None
    threshold: float | None


@dataclass(frozen=True)
class GuiSettings:
    store_path: str = ""
    recent_stores: tuple[str, ...] = ()
    embedder: EmbedderChoice = EmbedderChoice.AUTO
    decider_model: str = ""  # GGUF path; "" = the bundled default
    k: int | None = None
    threshold: float | None = None
    llm_timeout_s: float = 120.0
    llm_threads: int = 2
    llm_context: int = 4096
    guard_debounce_ms: int = 250
    decide_ahead: bool = True  # the model decides the next clusters in the background (when it is capable)
    extra: dict[str, object] = field(default_factory=dict)

    def scan_kwargs(self) -> ScanOptions:
        return {"embedder_choice": self.embedder, "k": self.k, "threshold": self.threshold}

    def with_recent(self, path: str) -> GuiSettings:
        recent = [path] + [p for p in self.recent_stores if p != path]
        return replace(self, store_path=path, recent_stores=tuple(recent[:MAX_RECENT]))


def _embedder(value: object) -> EmbedderChoice:
    """A stored or chosen embedder; one this version does not know (a newer memgui's) is automatic."""
    return EmbedderChoice(value) if isinstance(value, str) and value in set(EmbedderChoice) else EmbedderChoice.AUTO


def _int(value: object, default: int) -> int:
    try:
        return int(value) if isinstance(value, (int, float, str)) else default
    except ValueError:
        return default


def _float(value: object, default: float) -> float:
    try:
        return float(value) if isinstance(value, (int, float, str)) else default
    except ValueError:
        return default


def load_settings(qs: QSettings) -> GuiSettings:
    base = load_curation_settings()
    stored = qs.value("store/recent", [])  # QSettings gives a lone string for a one-item list
    recent: list[object] = ([stored] if stored else []) if isinstance(stored, str) else \
        list(stored) if isinstance(stored, (list, tuple)) else []
    k = _int(qs.value("scan/k", 0), 0)
    threshold = _float(qs.value("scan/threshold", 0.0), 0.0)
    return GuiSettings(
        store_path=str(qs.value("store/path", "") or ""),
        recent_stores=tuple(str(p) for p in recent if p)[:MAX_RECENT],
        embedder=_embedder(qs.value("scan/embedder", "auto")),
        decider_model=str(qs.value("decider/model", "") or ""),
        k=k if k > 0 else None,
        threshold=threshold if threshold > 0 else None,
        llm_timeout_s=_float(qs.value("decider/timeout_s", base.interactive_llm_timeout_seconds),
                             base.interactive_llm_timeout_seconds),
        llm_threads=_int(qs.value("decider/threads", base.llm_threads), base.llm_threads),
        llm_context=_int(qs.value("decider/context", base.llm_context), base.llm_context),
        decide_ahead=str(qs.value("decider/ahead", "true")).lower() not in ("false", "0", ""),
    )


def save_settings(qs: QSettings, s: GuiSettings) -> None:
    qs.setValue("store/path", s.store_path)
    qs.setValue("store/recent", list(s.recent_stores))
    qs.setValue("scan/embedder", s.embedder)
    qs.setValue("scan/k", s.k or 0)
    qs.setValue("scan/threshold", s.threshold or 0.0)
    qs.setValue("decider/model", s.decider_model)
    qs.setValue("decider/timeout_s", s.llm_timeout_s)
    qs.setValue("decider/threads", s.llm_threads)
    qs.setValue("decider/context", s.llm_context)
    qs.setValue("decider/ahead", "true" if s.decide_ahead else "false")
    qs.sync()


def _model_label(model: DiscoveredModel) -> tuple[str, str]:
    """(label, path) for a discovered GGUF model (core.decide.discovery.DiscoveredModel)."""
    path = str(model.path)
    name = model.name or Path(path).name
    origin, size = model.source, model.size_bytes
    bits = [name]
    if origin:
        bits.append(f"({origin})")
    if isinstance(size, (int, float)) and size > 0:
        bits.append(f"{size / 1e9:.1f} GB")
    return " ".join(bits), path


class SettingsDialog(QDialog):
    def __init__(self, settings: GuiSettings, models: Sequence[DiscoveredModel] = (), parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("memgui settings")
        self.setObjectName("settingsDialog")
        self._settings = settings
        form = QFormLayout()
        self._add_sources(form, settings, models)
        self._add_tuning(form, settings)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def _add_sources(self, form: QFormLayout, settings: GuiSettings, models: Sequence[DiscoveredModel]) -> None:
        """Where the notes, the vectors and the decisions come from: the store, the embedder, the decider model."""
        self.store_edit = QLineEdit(settings.store_path)
        self.store_edit.setPlaceholderText("located automatically ($NETCLAW_HOME, ~/.netclaw, else the demo)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse_store)
        row = QHBoxLayout()
        row.addWidget(self.store_edit, 1)
        row.addWidget(browse)
        form.addRow("Store:", row)

        self.embedder_combo = QComboBox()
        for key, label in EMBEDDERS:
            self.embedder_combo.addItem(label, key)
        self.embedder_combo.setCurrentIndex(max(0, self.embedder_combo.findData(settings.embedder)))
        form.addRow("Embedder:", self.embedder_combo)

        self.model_combo = QComboBox()
        self.model_combo.setEditable(True)
        self.model_combo.addItem("bundled default decider", "")
        for model in models:
            label, path = _model_label(model)
            self.model_combo.addItem(label, path)
        index = self.model_combo.findData(settings.decider_model)
        if index >= 0:
            self.model_combo.setCurrentIndex(index)
        elif settings.decider_model:
            self.model_combo.addItem(settings.decider_model, settings.decider_model)
            self.model_combo.setCurrentIndex(self.model_combo.count() - 1)
        pick = QPushButton("GGUF file…")
        pick.clicked.connect(self._browse_model)
        row = QHBoxLayout()
        row.addWidget(self.model_combo, 1)
        row.addWidget(pick)
        form.addRow("Decider model:", row)
        if not models:
            form.addRow("", QLabel("No other GGUF files found on this machine (Ollama, LM Studio, models folder)."))

    def _add_tuning(self, form: QFormLayout, settings: GuiSettings) -> None:
        """K, the cosine threshold, the model's timeout and threads, and decisions ahead."""
        self.k_spin = QSpinBox()
        self.k_spin.setRange(0, 50)
        self.k_spin.setSpecialValueText("default")
        self.k_spin.setValue(settings.k or 0)
        form.addRow("Nominees per document (K):", self.k_spin)

        self.threshold_spin = QDoubleSpinBox()
        self.threshold_spin.setRange(0.0, 1.0)
        self.threshold_spin.setDecimals(3)
        self.threshold_spin.setSingleStep(0.005)
        self.threshold_spin.setSpecialValueText("default for the embedding model")
        self.threshold_spin.setValue(settings.threshold or 0.0)
        form.addRow("Cosine threshold:", self.threshold_spin)

        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(5.0, 3600.0)
        self.timeout_spin.setSuffix(" s")
        self.timeout_spin.setValue(settings.llm_timeout_s)
        form.addRow("Model timeout:", self.timeout_spin)

        self.threads_spin = QSpinBox()
        self.threads_spin.setRange(1, 64)
        self.threads_spin.setValue(settings.llm_threads)
        form.addRow("Model threads:", self.threads_spin)

        self.ahead_check = QCheckBox("Decide the next clusters in the background while I review")
        self.ahead_check.setObjectName("decideAhead")
        self.ahead_check.setToolTip("Runs the model on the clusters after the current one, one at a time, and "
                                    "pauses while you ask the model yourself. Needs a model that passed its "
                                    "self-test.")
        self.ahead_check.setChecked(settings.decide_ahead)
        form.addRow("Decisions ahead:", self.ahead_check)

    def _browse_store(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Netclaw store", self.store_edit.text(), "SQLite (*.db);;All files (*)")
        if path:
            self.store_edit.setText(path)

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Decider model", "", "GGUF models (*.gguf)")
        if path:
            self.model_combo.addItem(path, path)
            self.model_combo.setCurrentIndex(self.model_combo.count() - 1)

    def result_settings(self) -> GuiSettings:
        model = self.model_combo.currentData()
        if model is None:  # typed into the editable combo
            model = self.model_combo.currentText().strip()
        return replace(
            self._settings,
            store_path=self.store_edit.text().strip(),
            embedder=_embedder(self.embedder_combo.currentData()),
            decider_model=str(model or ""),
            k=self.k_spin.value() or None,
            threshold=self.threshold_spin.value() or None,
            llm_timeout_s=self.timeout_spin.value(),
            llm_threads=self.threads_spin.value(),
            decide_ahead=self.ahead_check.isChecked(),
        )
