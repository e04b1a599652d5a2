"""Errors the store raises. Every message is one line a user can act on (no traceback needed)."""


class StoreError(Exception):
    """The file cannot be used as a Netclaw memory store, or a store operation failed. The message is
    always one line: SQLite's multi-line details (integrity-check reports) are folded."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(" ".join(str(message).split()), *args)


class StoreReadOnlyError(StoreError):
    """A write was attempted on a store opened read-only."""


class StoreLockedError(StoreError):
    """Another process held the write lock past the busy timeout."""


class StoreWriteFailedError(StoreError):
    """The store could not take a write for a reason outside it (a full disk, a file-size limit, an I/O error, its
    file replaced since it was opened): the write rolled back, and the next write would fail the same way."""
