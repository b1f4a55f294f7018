"""Tables built once and kept: in memory for the process, and in the cache folder for the next.

`load_or_build(key, version, build, ...)` gives the table from memory, else from its file, else
builds it and writes it. The file is `<key>.v<version>.table`; writing it deletes the files of
other versions of the same key. A damaged file (wrong size, header or checksum) is rebuilt.
A file is mapped read-only, never read whole, its checksum verified once per file version
(`files.map_table`). A build may give its table as `Stretches`: written to the file without ever
being whole in memory, then mapped (whole in memory only when there is no file to write).

Only one builder at a time, across threads (a lock per key) and across processes (`filelock`
on `<key>.lock` in the cache folder, removed after): whoever comes second waits, cancellably,
showing the first one's progress when it is in the same process, then loads what the first
one wrote. When the cache folder cannot be used the table is built in memory all the same (see
`folder`).

Given a `BuildPlan` (`first_use`), every report of a build, of a wait for another builder and of
a long load from disk carries a note in a player's words and, for a build, how far along it is.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.results import CancelCheck, Cancelled, Progress, SearchStats
from kaeru.engine.tables.files import (
    STAMP,
    Stretches,
    map_table,
    read_table,
    stamp_written,
    write_table,
)
from kaeru.engine.tables.first_use import Announcer, BuildPlan, megabytes
from kaeru.engine.tables.folder import cache_dir, cache_file, notices, on_notice, unusable
from kaeru.engine.tables.lock_file import let_go, try_hold

WAIT_STEP = 0.1  # seconds between cancel checks while another builder holds the table
LOUD_LOAD = 20_000_000  # bytes: a table this big says it is loading (a second or more)
SUFFIX = ".table"

Build = Callable[[Control], np.ndarray | Stretches]

__all__ = [
    "depth_table",
    "Loaded",
    "file_name",
    "forget",
    "is_available",
    "load_or_build",
    "notices",
    "on_notice",
    "holding",
    "load_table",
    "save_table",
    "Stretches",
]


@dataclass(frozen=True)
class Loaded:
    """A table and how it was had: "memory", "disk" or "built"."""

    table: np.ndarray
    source: str
    stats: SearchStats


_memory: dict[str, np.ndarray] = {}  # file name -> table
_building: dict[str, SearchStats] = {}  # file name -> latest progress of a build under way
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def file_name(key: str, version: int) -> str:
    return f"{key}.v{version}{SUFFIX}"


def is_available(key: str, version: int) -> bool:
    """Whether the table can be had without building it (in memory or on disk)."""
    name = file_name(key, version)
    return name in _memory or cache_file(name).is_file()


def load_or_build(
    key: str,
    version: int,
    build: Build,
    *,
    shape: tuple[int, ...],
    dtype: np.dtype | type = np.uint8,
    control: Control = QUIET,
    what: str = "table",
    plan: BuildPlan | None = None,
) -> Loaded:
    """The table `key` (format `version`): from memory, disk, or `build(control)` (then saved).

    `what` names the table in progress reports while waiting for another builder. With a
    `plan`, every report of a build (or a wait for one, or a long load) carries a note in a
    player's words and how far along it is (`engine.tables.first_use`).
    """
    started = time.perf_counter()
    name = file_name(key, version)
    dtype = np.dtype(dtype)
    waiting = "" if plan is None else plan.waiting("another search")
    if (table := _memory.get(name)) is not None:
        return Loaded(table, "memory", _stats(f"{what} (in memory)", started))
    with holding(_lock_for(name), what, control.progress, control.cancelled, name, waiting):
        if (table := _memory.get(name)) is not None:
            return Loaded(table, "memory", _stats(f"{what} (in memory)", started))
        folder = cache_dir()
        if folder is None:
            loaded = _build(name, build, shape, dtype, control, None, plan)
        else:
            with _file_lock(folder, key, what, control, plan) as locked:
                if plan is not None and (folder / name).is_file():
                    _loading(plan, control)
                table = map_table(folder / name, shape, dtype)  # read-only, checked once
                if table is not None:
                    loaded = Loaded(table, "disk", _stats(f"{what} (cached on disk)", started))
                    if control.progress is not None:
                        control.progress(loaded.stats)
                else:  # saved only under the lock
                    folder_if_locked = folder if locked else None
                    loaded = _build(name, build, shape, dtype, control, folder_if_locked, plan)
        _memory[name] = loaded.table
        return loaded


def depth_table(
    key: str,
    version: int,
    space_size: int,
    algorithm: str,
    search: Callable[[Meter], np.ndarray],
    control: Control = QUIET,
    plan: BuildPlan | None = None,
) -> Loaded:
    """A one-byte depth table of `space_size` positions filled by `search(meter)`, kept as
    `key`; the search runs without a budget (its memory is known: a byte a position)."""

    def build(ctl: Control) -> np.ndarray:
        meter = Meter(algorithm, ctl.unlimited())
        depth = search(meter)
        meter.finish()
        return depth

    return load_or_build(
        key, version, build, shape=(space_size,), control=control, what="depth table", plan=plan
    )


def _build(
    name: str,
    build: Build,
    shape: tuple[int, ...],
    dtype: np.dtype,
    control: Control,
    folder: Path | None,
    plan: BuildPlan | None = None,
) -> Loaded:
    """Build (sharing progress with waiting threads), check, and save when there is a folder."""
    started = time.perf_counter()
    latest: list[SearchStats] = []
    announce = None if plan is None else Announcer(plan, None)

    def report(stats: SearchStats) -> None:
        if announce is not None:
            stats = announce.dress(stats)
        _building[name] = stats
        latest.append(stats)
        if control.progress is not None:
            control.progress(stats)

    try:
        table = build(replace(control, progress=report))
    finally:
        _building.pop(name, None)
    if table.shape != shape or table.dtype != dtype:
        raise ValueError(f"{name}: built {table.shape} {table.dtype}, expected {shape} {dtype}")
    if folder is not None:
        if plan is not None and control.progress is not None and latest:
            note = f"Saving {plan.what} in the cache folder ({megabytes(plan.size)})."
            control.progress(replace(latest[-1], note=note, progress=1.0))
        if save(folder, name, table) and isinstance(table, Stretches):
            mapped = map_table(folder / name, shape, dtype)  # checked as written: not read
            if mapped is not None:
                table = mapped
    if isinstance(table, Stretches):  # no file to map: whole in memory
        table = table.whole()
    stats = latest[-1] if latest else _stats("built", started)
    return Loaded(table, "built", stats)


def save(folder: Path, name: str, table: np.ndarray | Stretches) -> bool:
    """Write `table` as `name` and prune other versions of it; on failure a notice, not an
    error (the table stays usable in memory). Whether it was written."""
    try:
        write_table(folder / name, table)
        stamp_written(folder / name)  # checked as written: its first mapping reads nothing
    except OSError as error:
        unusable(folder, error)
        return False
    prune(folder, name)
    return True


def prune(folder: Path, name: str) -> list[str]:
    """Delete the files of the other versions of `name`'s key; returns their names."""
    found = re.fullmatch(r"(.*)\.v\d+" + re.escape(SUFFIX), name)
    if found is None:
        return []
    older = re.compile(
        re.escape(found[1]) + r"\.v\d+(\.npy|" + re.escape(SUFFIX) + r")(\.checked)?"
    )
    removed = []
    try:
        for path in folder.iterdir():
            if path.name not in (name, name + STAMP) and older.fullmatch(path.name):
                path.unlink(missing_ok=True)
                removed.append(path.name)
    except OSError:  # an old file that cannot be deleted is only wasted space
        pass
    return removed


def forget() -> None:
    """Drop the tables held in memory (tests use it to exercise the disk)."""
    with _guard:
        _memory.clear()


# ---- plain reads and writes by file name (the pattern databases use these) ---------------------
def load_table(name: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The table saved as `name` when it is whole and of that shape and dtype, else None."""
    folder = cache_dir()
    return None if folder is None else read_table(folder / name, shape, dtype)


def save_table(name: str, table: np.ndarray) -> bool:
    """Save `table` as `name` (atomically); whether it was saved (a notice says why not)."""
    folder = cache_dir()
    return folder is not None and save(folder, name, table)


# ---- waiting for a builder ----------------------------------------------------------------------
@contextmanager
def holding(
    lock: threading.Lock,
    what: str,
    progress: Progress,
    cancelled: CancelCheck,
    name: str | None = None,
    note: str = "",
) -> Iterator[None]:
    """Hold `lock`; while another thread holds it, report (the builder's own progress when
    `name` is being built, else that we wait, with `note`) and give up at once on cancel."""
    started = time.perf_counter()
    shown: SearchStats | None = None
    while not lock.acquire(timeout=WAIT_STEP):
        if cancelled is not None and cancelled():
            raise Cancelled("search cancelled")
        if progress is not None:
            latest = _building.get(name) if name is not None else None
            if latest is None:
                seconds = time.perf_counter() - started
                progress(
                    SearchStats(
                        f"waiting for the {what} another search is building",
                        seconds=seconds,
                        note=note,
                    )
                )
            elif latest is not shown:
                progress(latest)
                shown = latest
    try:
        yield
    finally:
        lock.release()


def _loading(plan: BuildPlan, control: Control) -> None:
    """Say that a big table is being read from the cache folder (it takes a second or more)."""
    if control.progress is not None and plan.size >= LOUD_LOAD:
        note = f"Loading {plan.what} from the cache folder ({megabytes(plan.size)})."
        control.progress(SearchStats("loading a table", note=note))


@contextmanager
def _file_lock(
    folder: Path, key: str, what: str, control: Control, plan: BuildPlan | None = None
) -> Iterator[bool]:
    """Hold `<key>.lock` exclusively, waiting cancellably for another process. Yields whether
    it is held: False (with the folder's notice) when the lock file cannot be made or locked,
    e.g. in a read-only folder, where tables already there can still be read."""
    started = time.perf_counter()
    while True:
        try:
            held = try_hold(folder / f"{key}.lock")
        except OSError as error:  # a read-only folder, no locks on this file system
            unusable(folder, error)
            yield False
            return
        if held is not None:
            break
        if control.is_cancelled():
            raise Cancelled("search cancelled")
        if control.progress is not None:
            note = "" if plan is None else plan.waiting("another window of the arcade")
            control.progress(
                SearchStats(
                    f"waiting for the {what} another program is building",
                    seconds=time.perf_counter() - started,
                    note=note,
                )
            )
        time.sleep(WAIT_STEP)
    try:
        yield True
    finally:
        let_go(held)  # and its file: no empty lock files left behind


def _lock_for(name: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(name, threading.Lock())


def _stats(algorithm: str, started: float) -> SearchStats:
    return SearchStats(algorithm=algorithm, seconds=time.perf_counter() - started)
