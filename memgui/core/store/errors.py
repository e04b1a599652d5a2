"""Errors the store raises. Every message is one line a user can act on (no traceback needed)."""


class StoreError(Exception):
    """The file cannot be used as a Netclaw memory store, or a store operation failed."""


class StoreReadOnlyError(StoreError):
    """A write was attempted on a store opened read-only."""


class StoreLockedError(StoreError):
    """Another process held the write lock past the busy timeout."""
