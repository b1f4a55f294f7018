"""The depth table of a two-blank board: distance to the goal for every position, one byte each.

Built once by `layered_bfs`, then kept in memory and on disk under the cache folder
(`engine.cache`, $KAERU_CACHE_DIR in tests): the 14-puzzle's table is 76,204,800 bytes.
Only one thread builds a given table at a time; others wait (and can still be cancelled).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kaeru.engine.cache import cache_file
from kaeru.engine.core import CancelCheck, Cancelled, Progress, SearchStats
from kaeru.engine.search.meter import Meter
from kaeru.engine.two_blank.bfs import layered_bfs
from kaeru.engine.two_blank.index import TwoBlankIndex

FORMAT = 1  # bump when the index layout changes: old files are then ignored

_tables: dict[str, np.ndarray] = {}
_building: dict[str, SearchStats] = {}  # the latest progress of builds under way
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@dataclass(frozen=True)
class LoadedTable:
    """A depth table and how it was obtained ("memory", "disk" or "built")."""

    depth: np.ndarray
    source: str
    stats: SearchStats


def table_path(name: str) -> Path:
    return cache_file(f"{name}.depth.v{FORMAT}.npy")


def cached_table(name: str, index: TwoBlankIndex) -> np.ndarray | None:
    """The table when it is in memory or on disk (a bad file is ignored), else None."""
    if name in _tables:
        return _tables[name]
    path = table_path(name)
    if not path.exists():
        return None
    try:
        depth = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if depth.dtype != np.uint8 or depth.shape != (index.space_size,):
        return None
    _tables[name] = depth
    return depth


def has_table(name: str) -> bool:
    """Whether the table can be had without building it."""
    return name in _tables or table_path(name).exists()


def load_or_build(
    name: str,
    index: TwoBlankIndex,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
) -> LoadedTable:
    """The depth table for `name` from memory, disk, or a fresh build (saved to disk)."""
    started = time.perf_counter()
    if name in _tables:
        return LoadedTable(_tables[name], "memory", _stats("depth table (in memory)", started))
    lock = _lock_for(name)
    shown: SearchStats | None = None
    while not lock.acquire(timeout=0.05):  # another thread is building it: wait, cancellably
        if cancelled is not None and cancelled():
            raise Cancelled("search cancelled")
        latest = _building.get(name)
        if progress is not None and latest is not None and latest is not shown:
            progress(latest)  # show the build we are waiting for
            shown = latest
    try:
        if name in _tables:
            return LoadedTable(_tables[name], "memory", _stats("depth table (in memory)", started))
        depth = cached_table(name, index)
        if depth is not None:
            stats = _stats("depth table (cached on disk)", started, depth)
            if progress is not None:
                progress(stats)
            return LoadedTable(depth, "disk", stats)

        def report(stats: SearchStats) -> None:
            _building[name] = stats
            if progress is not None:
                progress(stats)

        meter = Meter("depth table: numpy BFS", report, cancelled)
        try:
            depth = layered_bfs(index, index.encode(index.geometry.goal), meter)
        finally:
            _building.pop(name, None)
        save_table(name, depth)
        _tables[name] = depth
        return LoadedTable(depth, "built", meter.finish())
    finally:
        lock.release()


def save_table(name: str, depth: np.ndarray) -> None:
    """Write atomically, so a reader never sees half a file; a read-only cache is no error."""
    path = table_path(name)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            np.save(handle, depth, allow_pickle=False)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def forget_tables() -> None:
    """Drop the in-memory copies (tests use it to exercise the disk cache)."""
    _tables.clear()


def _lock_for(name: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


def _stats(algorithm: str, started: float, depth: np.ndarray | None = None) -> SearchStats:
    return SearchStats(
        algorithm=algorithm,
        depth=0 if depth is None else int(depth.max()),
        seconds=time.perf_counter() - started,
    )
