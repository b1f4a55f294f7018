"""The 15-puzzle's additive pattern databases, in two tiers:

- the middle tier, 7-7-1 (tiles 9-15, the bottom rows; 1-3 and 5-8; and 4 alone: 115 MB), built
  on first use in about 12 s of CPU (`engine.sliding.databases.pdb_build`) while walking distance
  serves. Of the splits tried it prunes best for its size: 6-6-3 splits were 3-5 times slower on
  hard positions, 7-6-2 ones 2 times (bench/fifteen.py --tiers);
- the full tier, 7-8 (tiles 1-8, the top two rows, and 9-15; 577 MB), built in about a minute of
  CPU and 0.8 GB of memory, by `kaeru tables build`, or in the background by a long-lived
  search worker whose search runs long; never by a one-shot command.

Each group's table is kept by `engine.tables.store`, mapped read-only from the cache folder (no
read, no copy; the checksum is verified once per file version), in the tile order the search
looks it up in (`pdb_order`: most moves land near the lookup before); the tables an earlier
version kept in the build's block order are converted on first use, in seconds.
`pattern_set(tier, control)` gives a tier (from memory, disk, or built with progress and
cancel); `ready(tier)` says whether it can be had without building. Lookups happen inside the
compiled IDA* (`ida_kernels.ida_pattern`), which also reads the diagonal mirror of the position
and keeps the larger value.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import cache
from math import perm

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.results import Cancelled, SearchStats
from kaeru.engine.sliding.board.geometry import State, grid
from kaeru.engine.tables import store
from kaeru.engine.tables.files import Stretches
from kaeru.engine.tables.first_use import BuildPlan

VERSION = 4  # 4: stored in tile order (pdb_order); 3: in the build's block order (pdb_index),
EARLIER = 3  # converted on first use (`_convert_earlier`); 2: an earlier build, deleted
FULL, MIDDLE = "7-8", "7-7-1"
TIERS: dict[str, tuple[tuple[int, ...], ...]] = {
    FULL: ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15)),  # the 7 shared with MIDDLE
    MIDDLE: ((9, 10, 11, 12, 13, 14, 15), (1, 2, 3, 5, 6, 7, 8), (4,)),
}
GROUPS = TIERS[FULL]
NAME = "7-8 pattern databases"
# Measured (bench/fifteen.py --build, one niced process on 2 cores shared with other work): CPU
# seconds of each group's build, the fixed part (its blocks and moves) included; and of the
# conversion of an earlier version's table (bench/fifteen_mapping.py --convert: the 7-8 tier in
# 6 s of CPU and 663 MiB, 495 of them the earlier file's pages, mapped).
BUILD_SECONDS = {8: 46.0, 7: 6.0, 6: 1.0, 1: 0.1}
CONVERT_SECONDS = {8: 5.0, 7: 1.0, 1: 0.1}
AUTO_BUILD_ENV = "KAERU_PDB_BUILD"  # "off": build no tier unasked; "middle": only the 7-7-1


def tier_name(tier: str) -> str:
    return f"{tier} pattern databases"


def table_key(group: tuple[int, ...]) -> str:
    return "sliding-4x4.pdb-" + "-".join(str(t) for t in group)


def ready(tier: str = FULL) -> bool:
    """Whether the tier's databases are in memory or on disk (so no build is needed: the
    tables of the earlier version are converted, in seconds)."""
    return all(store.is_available(table_key(g), VERSION) or _convertible(g)
               for g in TIERS[tier])


def _convertible(group: tuple[int, ...]) -> bool:
    return store.is_available(table_key(group), EARLIER)


@cache
def _geometry() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(neighbours, transpose of cells, mirror of tiles, popcount)."""
    g = grid(4, 4)
    transpose = np.array([(c % 4) * 4 + c // 4 for c in range(16)], dtype=np.int64)
    mirror = np.zeros(16, dtype=np.int64)
    for tile in range(1, 16):
        mirror[tile] = transpose[tile - 1] + 1
    masks = np.arange(1 << 16, dtype=np.int64)
    popcount = ((masks[:, None] >> np.arange(16)) & 1).sum(axis=1).astype(np.uint8)
    return g.neighbour_array, transpose, mirror, popcount


def build_group(group: tuple[int, ...], control: Control = QUIET) -> Stretches:
    """One group's database in tile order (`pdb_build`), with progress and cancel: its last
    part, storing the levels in tile order, runs as the stretches are written."""
    from kaeru.engine.sliding.databases.pdb_build import build_group as build

    meter = Meter(f"building the pattern database of tiles {_tiles(group)}", control.unlimited())
    return build(group, meter)


def convert_earlier(group: tuple[int, ...], control: Control = QUIET) -> Stretches | None:
    """The group's database converted into tile order from the file the earlier version
    kept (block order, mapped read-only), as stretches converted while they are written, with
    progress and cancel; None when the cache folder holds no whole one. Seconds where a build
    takes a minute; the earlier file is deleted once the new one is saved (`store.prune`)."""
    from kaeru.engine.sliding.databases.pdb_order import tile_order
    from kaeru.engine.tables.files import map_table
    from kaeru.engine.tables.folder import cache_dir

    folder = cache_dir()
    if folder is None:
        return None
    path = folder / store.file_name(table_key(group), EARLIER)
    earlier = map_table(path, (perm(16, len(group)),), np.dtype(np.uint8))
    if earlier is None:
        return None
    meter = Meter(f"converting the pattern database of tiles {_tiles(group)}",
                  control.unlimited())
    return tile_order(earlier, len(group), meter)


def _build_or_convert(group: tuple[int, ...], control: Control) -> Stretches:
    converted = convert_earlier(group, control)
    return build_group(group, control) if converted is None else converted


def _tiles(group: tuple[int, ...]) -> str:
    if list(group) == list(range(group[0], group[-1] + 1)):
        return f"{group[0]}–{group[-1]}"
    return ", ".join(str(t) for t in group)


def build_plan(group: tuple[int, ...], converting: bool = False) -> BuildPlan:
    """What building (or `converting`) one group's database means for a player: what, how
    big, how long."""
    k = len(group)
    tier = next((t for t, groups in TIERS.items() if group in groups), None)
    groups = TIERS[tier] if tier is not None else (group,)
    return BuildPlan(
        f"the 15-puzzle's lookup tables, part {groups.index(group) + 1} of {len(groups)} "
        f"(tiles {_tiles(group)})",
        perm(16, k),
        (CONVERT_SECONDS.get(k, 0.1 + perm(16, k) / 100_000_000) if converting
         else BUILD_SECONDS.get(k, 1.0 + perm(16, k) / 10_000_000)),
        then="its hints and solutions are much faster",
        verb="Converting" if converting else "Building",
    )


def _rank(pos: np.ndarray, tiles: np.ndarray, popcount: np.ndarray) -> int:
    """A group's entry in tile order (`pdb_order`), as the compiled search computes it."""
    code, used = 0, 0
    for i, tile in enumerate(tiles):
        p = int(pos[tile])
        code = code * (16 - i) + p - int(popcount[used & ((1 << p) - 1)])
        used |= 1 << p
    return code


def _table(group: tuple[int, ...], control: Control) -> np.ndarray:
    """One group's database through the shared table store (the one place storage happens)."""
    loaded = store.load_or_build(
        table_key(group), VERSION, lambda c: _build_or_convert(group, c),
        shape=(perm(16, len(group)),), dtype=np.uint8, control=control,
        what=f"pattern database of tiles {_tiles(group)}",
        plan=build_plan(group, converting=_convertible(group)),
    )
    table = loaded.table
    if table.flags.writeable:  # built here: read-only like a mapped one (one compiled kernel)
        table = table.view()
        table.flags.writeable = False
    return table


@dataclass(frozen=True)
class PatternSet:
    """The loaded databases with the arrays the compiled search reads."""

    tables: tuple[np.ndarray, ...]
    group_tiles: np.ndarray
    group_size: np.ndarray
    tile_group: np.ndarray
    tier: str = FULL

    @property
    def name(self) -> str:
        return f"{tier_name(self.tier)} + mirror"

    def value(self, state: State) -> int:
        """max(plain, mirrored) additive value of a state (for tests and the root's figure)."""
        _, transpose, mirror, popcount = _geometry()
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


def make_set(groups: tuple[tuple[int, ...], ...], tables: tuple[np.ndarray, ...],
             tier: str = FULL) -> PatternSet:
    group_tiles = np.zeros((len(groups), 16), dtype=np.int64)
    group_size = np.array([len(g) for g in groups], dtype=np.int64)
    tile_group = np.full(16, -1, dtype=np.int64)
    for number, group in enumerate(groups):
        group_tiles[number, : len(group)] = group
        for tile in group:
            tile_group[tile] = number
    return PatternSet(tables, group_tiles, group_size, tile_group, tier)


_set_lock = threading.Lock()
_loaded: dict[str, PatternSet] = {}


LEGACY = "sliding-4x4.pdb78-*.v2.table*"  # the 7-8 databases as indexed before (577 MB)


def drop_legacy() -> list[str]:
    """Delete the databases of the earlier index from the cache folder (once their files have
    no reader but an old arcade); the names deleted."""
    from kaeru.engine.tables.folder import cache_dir

    folder = cache_dir()
    removed = []
    for path in [] if folder is None else list(folder.glob(LEGACY)):
        try:
            path.unlink()
            removed.append(path.name)
        except OSError:  # wasted space only
            pass
    return removed


def pattern_set(tier: str = FULL, control: Control = QUIET) -> PatternSet:
    """The tier's databases: from memory, else the disk, else built with progress."""
    with _set_lock:
        if tier in _loaded:
            return _loaded[tier]
    tables = tuple(_table(group, control) for group in TIERS[tier])
    if tier == FULL:
        drop_legacy()
    with _set_lock:
        return _loaded.setdefault(tier, make_set(TIERS[tier], tables, tier))


def is_loaded(tier: str = FULL) -> bool:
    return tier in _loaded


def forget_loaded() -> None:
    """Drop the tiers held by this process (tests use it to exercise the disk)."""
    with _set_lock:
        _loaded.clear()


# ---- the background build ---------------------------------------------------------------------
@dataclass
class Background:
    """One tier's build (or load) in a daemon thread, at most once per process."""

    thread: threading.Thread | None = None
    latest: SearchStats | None = None
    failure: str = ""
    told: bool = False  # the failure went out with a search's figures


_background: dict[str, Background] = {}
_stop = threading.Event()
_long_lived: list[bool] = [False]


def allow_unasked_builds(allowed: bool = True) -> None:
    """Let this process build the 7-8 databases unasked, in the background, when a search runs
    long (the search worker: it lives on to use them; a one-shot command never does)."""
    _long_lived[0] = allowed


def may_build_unasked(tier: str) -> bool:
    """Whether a search may start building `tier` by itself: the middle tier (seconds, 115 MB)
    unless $KAERU_PDB_BUILD=off; the full one only in a long-lived process, and only when
    $KAERU_PDB_BUILD is neither off nor middle."""
    setting = os.environ.get(AUTO_BUILD_ENV, "")
    if tier != FULL:
        return setting != "off"
    return _long_lived[0] and setting not in ("off", "middle")


def start_background_build(tier: str = FULL) -> None:
    """Build (or load) the tier in a daemon thread at lowered priority, once per process: a
    build that failed (out of memory, say) is not tried again, and says so once
    (`background_failure`). Only a load when building is not allowed here."""
    if not ready(tier) and not may_build_unasked(tier):
        return
    with _set_lock:
        job = _background.setdefault(tier, Background())
        if tier in _loaded or job.thread is not None:
            return
        _stop.clear()
        job.thread = threading.Thread(target=_build_quietly, args=(tier, job),
                                      name=f"kaeru-pdb-{tier}", daemon=True)
        job.thread.start()


def background_progress(tier: str = FULL) -> SearchStats | None:
    """The latest progress of the tier's background build, if one is under way."""
    job = _background.get(tier)
    return None if job is None else job.latest


def background_failure(tier: str = FULL) -> str:
    """Why the tier's background build failed ("" when it did not)."""
    job = _background.get(tier)
    return "" if job is None else job.failure


def failure_to_tell() -> str:
    """A background build's failure not told yet (each is told once), else ""."""
    for job in _background.values():
        if job.failure and not job.told:
            job.told = True
            return job.failure
    return ""


def stop_background_build(timeout: float = 5.0) -> None:
    """Ask the background builds to stop (between stretches) and wait for them a little."""
    _stop.set()
    for job in list(_background.values()):
        if job.thread is not None:
            job.thread.join(timeout)


def background_running(tier: str = FULL) -> bool:
    job = _background.get(tier)
    return job is not None and job.thread is not None and job.thread.is_alive()


def _build_quietly(tier: str, job: Background) -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):  # pragma: no cover - not Linux, or not permitted
        pass

    def progress(stats: SearchStats) -> None:
        job.latest = stats

    try:
        pattern_set(tier, Control(progress=progress, cancelled=_stop.is_set, budget=None))
    except Cancelled:
        job.thread = None  # stopped on purpose: a later search may start it again
    except MemoryError:
        job.failure = (f"the {tier_name(tier)} could not be built: out of memory "
                       f"(they need about 0.8 GB; `kaeru tables build` with more memory)")
    except Exception as error:  # a failed build leaves the fallback serving
        job.failure = f"the {tier_name(tier)} could not be built: {type(error).__name__}: {error}"
