"""Saving and loading numpy tables in the engine's cache folder, safely, and waiting politely for
a table another search is building.

Writes go to a temporary file renamed into place, so a cancelled or crashed build never leaves a
half table behind; a file of the wrong shape or type is treated as missing and rebuilt.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from kaeru.engine.cache import cache_file
from kaeru.engine.core import CancelCheck, Cancelled, Progress, SearchStats

WAIT_STEP = 0.1  # seconds between cancel checks while another search builds the table


@contextmanager
def holding(lock: threading.Lock, what: str, progress: Progress, cancelled: CancelCheck
            ) -> Iterator[None]:
    """Hold `lock`; while another thread holds it (building `what`), say so a few times a
    second and give up at once on cancel."""
    started = time.perf_counter()
    while not lock.acquire(timeout=WAIT_STEP):
        if cancelled is not None and cancelled():
            raise Cancelled("search cancelled")
        if progress is not None:
            seconds = time.perf_counter() - started
            progress(SearchStats(f"waiting for the {what} another search is building",
                                 seconds=seconds))
    try:
        yield
    finally:
        lock.release()


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
