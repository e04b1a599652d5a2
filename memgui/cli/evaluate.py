"""`memgui evaluate` (being built; see the issue tracker)."""


def register(subparsers) -> None:
    pass
