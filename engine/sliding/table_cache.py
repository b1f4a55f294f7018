"""Saving and loading numpy tables in the engine's cache folder, safely.

Writes go to a temporary file renamed into place, so a cancelled or crashed build never leaves a
half table behind; a file of the wrong shape or type is treated as missing and rebuilt.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np

from engine.cache import cache_file


def load_table(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The cached table `name` when it exists and has the expected shape and dtype."""
    path = cache_file(name)
    if not path.exists():
        return None
    try:
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if table.shape != shape or table.dtype != dtype:
        return None
    return table


def save_table(name: str, table: np.ndarray) -> int:
    """Write `table` to the cache as `name`; returns the size on disk in bytes."""
    path = cache_file(name)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, table, allow_pickle=False)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path.stat().st_size
