"""The 15-puzzle's 7-8 additive pattern databases: tiles 1-8 (the top two rows) and 9-15, one byte
per placement (518,918,400 + 57,657,600 entries, 576 MB), built once by the compiled
breadth-first search of `engine.sliding.pdb_kernels` (about 1.6 GB while it runs) and kept by
`engine.tables.store`.

`pattern_set(control)` gives them (from memory, disk, or built with progress and cancel);
`start_background_build()` builds them in a daemon thread (lowered priority) while the solver
serves with walking distance; `ready()` says whether they can be had without building. Lookups
happen inside the compiled IDA* (`ida_kernels.ida_pattern`), which also reads the diagonal mirror
of the position and keeps the larger value.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import cache
from math import perm

import numpy as np

from kaeru.engine.control import QUIET, Control, Meter
from kaeru.engine.results import Cancelled, SearchStats
from kaeru.engine.sliding.geometry import State, grid
from kaeru.engine.tables import store
from kaeru.engine.tables.first_use import BuildPlan

VERSION = 2  # 2: the blank's region counted (1 ignored the blank)
GROUPS = ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15))
STRETCH = 1 << 22  # search states per kernel call: under a second even at the busiest level
NAME = "7-8 pattern databases"

# How far a build is. The search is the same on every machine: 39 levels for 8 tiles, 35 for 7,
# each a pass over the marks of every state (cheap while few states are marked, dear later),
# reaching every (placement, blank's region) state once in all. Measured (bench/first_use.py
# --pdb78, a niced process on 2 cores shared with other work): the share of the build's time
# spent when each level begins. Within a level the pass goes in stretches, shared out evenly.
LEVEL_SHARES = {
    8: (0.0, 0.004, 0.004, 0.007, 0.007, 0.007, 0.01, 0.01, 0.01, 0.013, 0.013, 0.016, 0.019,
        0.019, 0.025, 0.028, 0.031, 0.034, 0.037, 0.051, 0.06, 0.078, 0.122, 0.157, 0.202, 0.291,
        0.371, 0.487, 0.555, 0.633, 0.714, 0.755, 0.81, 0.878, 0.916, 0.937, 0.943, 0.978, 0.996),
    7: (0.0, 0.008, 0.008, 0.008, 0.008, 0.008, 0.008, 0.008, 0.008, 0.008, 0.024, 0.024, 0.039,
        0.054, 0.07, 0.116, 0.227, 0.305, 0.417, 0.478, 0.509, 0.54, 0.634, 0.696, 0.804, 0.866,
        0.897, 0.927, 0.943, 0.958, 0.958, 0.973, 0.973, 0.988, 0.988),
}
# The same run: 1,740 s and 334 s of wall time while other work held the cores (650 s and 125 s
# of CPU time). Told at first is about the CPU time: what a machine with a free core takes;
# the rate so far corrects it as the build goes.
BUILD_SECONDS = {8: 720.0, 7: 140.0}


def table_key(group: tuple[int, ...]) -> str:
    return "sliding-4x4.pdb78-" + "-".join(str(t) for t in group)


def ready() -> bool:
    """Whether both databases are in memory or on disk (so no build is needed)."""
    return all(store.is_available(table_key(g), VERSION) for g in GROUPS)


@cache
def _geometry() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(neighbours, transpose of cells, mirror of tiles, popcount, select)."""
    from kaeru.engine.sliding.pdb_kernels import bit_tables

    g = grid(4, 4)
    transpose = np.array([(c % 4) * 4 + c // 4 for c in range(16)], dtype=np.int64)
    mirror = np.zeros(16, dtype=np.int64)
    for tile in range(1, 16):
        mirror[tile] = transpose[tile - 1] + 1
    popcount, select = bit_tables()
    return g.neighbour_array, transpose, mirror, popcount, select


def build_group_with_blank(group: tuple[int, ...], control: Control = QUIET) -> np.ndarray:
    """The database of one group counting the blank's whereabouts: the fewest group moves from
    each placement, with the blank in its best region (`pdb_kernels.expand_region_level`)."""
    from kaeru.engine.sliding.pdb_kernels import UNSEEN, expand_region_level

    nbr, _, _, popcount, select = _geometry()
    regions = _regions()
    k = len(group)
    free_cells = 16 - k
    placements = perm(16, k)
    states = placements * free_cells
    marks = np.zeros((states + 3) // 4, dtype=np.uint8)
    final = np.full(placements, UNSEEN, dtype=np.uint8)
    goal = np.zeros(16, dtype=np.int64)
    used = 0
    for tile in group:
        goal[tile] = tile - 1
        used |= 1 << (tile - 1)
    index = _rank(goal, np.array(group, dtype=np.int64), popcount)
    region = int(regions[0xFFFF & ~used, 15])
    low = (region & -region).bit_length() - 1
    root = index * free_cells + low - int(popcount[used & ((1 << low) - 1)])
    marks[root >> 2] = 1 << (2 * (root & 3))  # code 1: the frontier of level 0
    final[index] = 0
    meter = Meter(f"building the {NAME} ({k} tiles)", control.unlimited())
    meter.extra["states"] = f"{states:,}"
    reached, depth = 1, 0
    while True:
        found = 0
        for begin in range(0, states, STRETCH):
            found += expand_region_level(marks, final, k, depth, begin,
                                         min(states + 3 - (states + 3) % 4, begin + STRETCH),
                                         nbr, select, popcount, regions)
            meter.expanded = reached
            meter.generated = reached + found
            meter.extra["level"] = str(depth)
            meter.done = fraction_done(k, depth, min(1.0, (begin + STRETCH) / states))
            meter.check()
        if found == 0:
            break
        reached += found
        depth += 1
        meter.depth = depth
    del marks
    if (final == UNSEEN).any():  # pragma: no cover - every placement is reachable
        raise AssertionError("pattern database left placements unreached")
    meter.done = 1.0
    meter.finish()
    return final


def fraction_done(k: int, level: int, part: float) -> float:
    """How far a k-tile build is, in time, `part` of the way through the pass of `level`
    (groups of sizes not measured: levels counted alike, as if there were 40)."""
    shares = LEVEL_SHARES.get(k) or tuple(level / 40 for level in range(40))
    if level >= len(shares):
        return 1.0
    following = shares[level + 1] if level + 1 < len(shares) else 1.0
    return min(1.0, shares[level] + (following - shares[level]) * part)


def build_plan(group: tuple[int, ...]) -> BuildPlan:
    """What building one group's database means for a player: what, how big, how long."""
    k = len(group)
    part = GROUPS.index(group) + 1 if group in GROUPS else 1
    count = len(GROUPS) if group in GROUPS else 1
    return BuildPlan(
        f"the 15-puzzle's lookup tables, part {part} of {count} (tiles {group[0]}–{group[-1]})",
        perm(16, k),
        BUILD_SECONDS.get(k, 1.0 + perm(16, k) * (16 - k) / 2_000_000),
        then="its hints and solutions are much faster",
    )


@cache
def _regions() -> np.ndarray:
    from kaeru.engine.sliding.pdb_kernels import region_table

    return region_table()


def _rank(pos: np.ndarray, tiles: np.ndarray, popcount: np.ndarray) -> int:
    code, used = 0, 0
    for i, tile in enumerate(tiles):
        p = int(pos[tile])
        code = code * (16 - i) + p - int(popcount[used & ((1 << p) - 1)])
        used |= 1 << p
    return code


def _table(group: tuple[int, ...], control: Control) -> np.ndarray:
    """One group's database through the shared table store (the one place storage happens)."""
    loaded = store.load_or_build(
        table_key(group), VERSION, lambda c: build_group_with_blank(group, c),
        shape=(perm(16, len(group)),), dtype=np.uint8, control=control,
        what=f"{NAME} ({len(group)} tiles)", plan=build_plan(group),
    )
    return loaded.table


@dataclass(frozen=True)
class PatternSet:
    """The loaded databases with the arrays the compiled search reads."""

    tables: tuple[np.ndarray, ...]
    group_tiles: np.ndarray
    group_size: np.ndarray
    tile_group: np.ndarray

    @property
    def name(self) -> str:
        return f"{NAME} + mirror"

    def value(self, state: State) -> int:
        """max(plain, mirrored) additive value of a state (for tests and the root's figure)."""
        _, transpose, mirror, popcount, _ = _geometry()
        pos = np.zeros(16, dtype=np.int64)
        mpos = np.zeros(16, dtype=np.int64)
        for cell, tile in enumerate(state):
            pos[tile] = cell
            mpos[mirror[tile]] = transpose[cell]
        plain = mirrored = 0
        for table, tiles, size in zip(self.tables, self.group_tiles, self.group_size,
                                      strict=True):
            plain += int(table[_rank(pos, tiles[:size], popcount)])
            mirrored += int(table[_rank(mpos, tiles[:size], popcount)])
        return max(plain, mirrored)


def make_set(groups: tuple[tuple[int, ...], ...], tables: tuple[np.ndarray, ...]) -> PatternSet:
    group_tiles = np.zeros((len(groups), 16), dtype=np.int64)
    group_size = np.array([len(g) for g in groups], dtype=np.int64)
    tile_group = np.full(16, -1, dtype=np.int64)
    for number, group in enumerate(groups):
        group_tiles[number, : len(group)] = group
        for tile in group:
            tile_group[tile] = number
    return PatternSet(tables, group_tiles, group_size, tile_group)


_set_lock = threading.Lock()
_loaded: list[PatternSet] = []


def pattern_set(control: Control = QUIET) -> PatternSet:
    """Both databases: from memory, else the disk, else built (minutes, once) with progress."""
    with _set_lock:
        if _loaded:
            return _loaded[0]
    tables = tuple(_table(group, control) for group in GROUPS)
    with _set_lock:
        if not _loaded:
            _loaded.append(make_set(GROUPS, tables))
        return _loaded[0]


# ---- the background build ---------------------------------------------------------------------
_background: list[threading.Thread] = []
_stop = threading.Event()
_latest: list[SearchStats] = []
_failure: list[str] = []


AUTO_BUILD_ENV = "KAERU_PDB_BUILD"  # "off": never build them unasked (tests, small machines)


def start_background_build() -> None:
    """Build (or load) the databases in a daemon thread at lowered priority, once per process.
    With $KAERU_PDB_BUILD=off only databases already on disk are loaded."""
    if os.environ.get(AUTO_BUILD_ENV) == "off" and not ready():
        return
    with _set_lock:
        if _loaded or (_background and _background[0].is_alive()):
            return
        _stop.clear()
        thread = threading.Thread(target=_build_quietly, name="kaeru-pdb78", daemon=True)
        _background[:] = [thread]
        thread.start()


def background_progress() -> SearchStats | None:
    """The latest progress of the background build, if one is under way."""
    return _latest[-1] if _latest else None


def stop_background_build(timeout: float = 5.0) -> None:
    """Ask the background build to stop (between stretches) and wait for it a little."""
    _stop.set()
    for thread in _background:
        thread.join(timeout)


def background_running() -> bool:
    return any(thread.is_alive() for thread in _background)


def is_loaded() -> bool:
    return bool(_loaded)


def _build_quietly() -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):  # pragma: no cover - not Linux, or not permitted
        pass

    def progress(stats: SearchStats) -> None:
        _latest[:] = [stats]

    try:
        pattern_set(Control(progress=progress, cancelled=_stop.is_set, budget=None))
    except Cancelled:
        pass
    except Exception as error:  # noqa: BLE001 - a failed build leaves the fallback serving
        _failure[:] = [f"{type(error).__name__}: {error}"]
