"""What the window's review add-ons (the decisions-ahead queue, Accept all safe) use of the window: its
`ReviewHost` side plus the services, runner, prompter, the Review controller and the queue's widgets, and the
window's signals. A Protocol `MainWindow` satisfies, so the add-ons hold a typed window, not an untyped one."""
from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenuBar, QStatusBar

from ..dialogs import Prompter
from ..services import Services
from ..workers import TaskRunner
from .cluster_model import ClusterFilterProxy, ClusterTableModel
from .controller import Review
from .host import ReviewHost
from .page import ReviewPage
from .queue_view import QueueView


class ReviewWindow(ReviewHost, Protocol):
    services: Services
    runner: TaskRunner
    prompter: Prompter
    review: Review
    page: ReviewPage
    queue: QueueView
    proxy: ClusterFilterProxy
    cluster_model: ClusterTableModel
    actions_by_key: dict[str, QAction]

    @property
    def storeOpened(self) -> SignalInstance: ...

    @property
    def scanFinished(self) -> SignalInstance: ...

    def statusBar(self) -> QStatusBar: ...

    def menuBar(self) -> QMenuBar: ...

    def addAction(self, action: QAction, /) -> None: ...


__all__ = ["ReviewWindow"]
