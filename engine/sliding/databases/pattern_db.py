"""Additive pattern databases: numpy breadth-first searches over groups of tiles, cached on disk.

For a group of k tiles, a search from the goal over (cells of the group's tiles, cell of the
blank) counts only moves of the group's tiles (the blank wandering among the other tiles is
free), so the databases of disjoint groups add up to an admissible heuristic. The blank is the
last piece of the index, so "the best over every blank cell" is one reshape and one min.

Lookups work on packed codes (`engine.sliding.board.packed`): each group sits in consecutive
nibbles, so its index into a 16**k "sparse" table is one shift and one mask. On square boards the
value of the diagonal mirror is taken too, and the larger of the two used.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from math import perm

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.sliding.board.arrays import sorted_unique
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.board.packed import U64, PackedBoard
from kaeru.engine.tables.first_use import Announcer, BuildPlan
from kaeru.engine.tables.store import holding, load_table, save_table

UNREACHED = 255
CHUNK = 1 << 19
VERSION = 2
MAX_GROUP = 6  # 16**6 bytes = 16.8 MB per sparse table; 7 would be 268 MB
# Measured from an empty cache (bench/first_use.py, 2 cores shared with other work): the
# 11-puzzle's three tables in 0.3 s; the 15-puzzle's 6-6-3 (two of 57,657,600 states) in 88 s.
BUILD_RATE = 1_500_000  # search states closed per second

# Well-tried 6-6-3 split of the 15-puzzle (goal blank bottom right): two compact blocks of six
# and the rest of the top row.
FIFTEEN_663 = ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4))
FIFTEEN_555 = ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15))


@dataclass(frozen=True)
class Partition:
    """Disjoint groups of tiles covering every tile of a board."""

    groups: tuple[tuple[int, ...], ...]

    @property
    def name(self) -> str:
        return "-".join(str(len(g)) for g in self.groups)


def default_partition(grid: Grid) -> Partition:
    """6-6-3 on the 4x4; otherwise the tiles in row order cut into near-equal groups of at most
    six (16 cells) or five (fewer cells: those boards are easy, and a build stays small)."""
    if (grid.width, grid.height) == (4, 4):
        return Partition(FIFTEEN_663)
    return row_partition(grid, MAX_GROUP if grid.cells == 16 else MAX_GROUP - 1)


def row_partition(grid: Grid, largest: int) -> Partition:
    """The tiles in row order cut into near-equal groups of at most `largest`."""
    tiles = list(range(1, grid.cells))
    count = -(-len(tiles) // largest)
    size, extra = divmod(len(tiles), count)
    groups, at = [], 0
    for g in range(count):
        take = size + (1 if g < extra else 0)
        groups.append(tuple(tiles[at : at + take]))
        at += take
    return Partition(tuple(groups))


def check_partition(grid: Grid, partition: Partition) -> None:
    tiles = sorted(t for g in partition.groups for t in g)
    if tiles != list(range(1, grid.cells)):
        raise ValueError("a partition must hold every tile exactly once")
    if any(not 1 <= len(g) <= MAX_GROUP for g in partition.groups):
        raise ValueError(f"pattern groups hold 1 to {MAX_GROUP} tiles")


# ---- building one group's table ---------------------------------------------------------------
# A search state packs the blank's cell in nibble 0 and the cells of the group's tiles in nibbles
# 1..k, so children are a few bit operations (no ranking) and "best over the blank" is a reshape.
# The depth array has 16**(k+1) bytes (268 MB for six tiles); only the positions are visited.


def _expand(neighbours: np.ndarray, codes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(children by a free blank move, children by a move of a group tile) of packed codes."""
    blank = codes & 15
    owner = np.zeros(codes.shape, dtype=np.int64)  # nibble c: 1 + index of the tile on cell c
    for i in range(1, k + 1):
        owner |= np.int64(i) << (((codes >> (4 * i)) & 15) << 2)
    cell = neighbours[blank]  # (m, 4), -1 off the board
    valid = cell >= 0
    b = blank[:, None]
    cell = np.where(valid, cell, b)
    item = (owner[:, None] >> (cell << 2)) & 15
    moving = item > 0
    child = codes[:, None] - b + cell + ((b - cell) << (item << 2)) * moving
    return child[valid & ~moving], child[moving]


def build_group(grid: Grid, group: Sequence[int], meter: Meter) -> np.ndarray:
    """The group's sparse table: fewest moves of its tiles to bring them home, indexed by the
    tiles' cells as nibbles (first tile lowest); uint8, 16**k entries."""
    k = len(group)
    states = group_states(grid, k)
    neighbours = grid.neighbour_array
    depth = np.full(16 ** (k + 1), UNREACHED, dtype=np.uint8)
    start = grid.blank_goal
    for i, tile in enumerate(group, 1):
        start |= grid.home(tile) << (4 * i)
    depth[start] = 0
    layer = np.array([start], dtype=np.int64)
    d = 0
    while layer.size:
        meter.depth = d
        following = []
        frontier = layer
        while frontier.size:  # close layer d under the free blank moves
            found = []
            meter.frontier = int(frontier.size)
            for begin in range(0, frontier.size, CHUNK):
                chunk = frontier[begin : begin + CHUNK]
                free, paid = _expand(neighbours, chunk, k)
                meter.generated += int(free.size + paid.size)
                paid = paid[depth[paid] == UNREACHED]
                depth[paid] = d + 1  # provisional: a free path may still reach it at d
                following.append(paid.astype(np.int32))
                free = free[(depth[free] == UNREACHED) | (depth[free] == d + 1)]
                free = sorted_unique(free)
                depth[free] = d
                found.append(free)
                meter.done = min(1.0, (meter.expanded + int(chunk.size)) / states)
                meter.tick(int(chunk.size))
                meter.check()
            frontier = np.concatenate(found)
        layer = sorted_unique(np.concatenate(following))
        layer = layer[depth[layer] == d + 1].astype(np.int64)
        d += 1
        if d >= UNREACHED:  # pragma: no cover - boards here stay far below
            raise OverflowError("pattern database deeper than 254")
    meter.done = 1.0
    table = depth.reshape(-1, 16).min(axis=1)
    del depth
    table[table == UNREACHED] = 0  # nibble patterns that are no placement
    return table


def group_states(grid: Grid, k: int) -> int:
    """Search states of a k-tile group: its tiles on distinct cells, the blank on another (each
    is closed once, so the count of those closed says how far a build is)."""
    return perm(grid.cells, k) * (grid.cells - k)


def build_plan(grid: Grid, group: Sequence[int], number: int, count: int) -> BuildPlan:
    """What building one group's table means for a player: what, how big, how long."""
    return BuildPlan(
        f"the lookup tables of the {grid.cells - 1}-puzzle ({grid.width}×{grid.height}), "
        f"part {number} of {count}",
        16 ** len(group),
        0.1 + group_states(grid, len(group)) / BUILD_RATE,
        then="its hints are much faster",
    )


# ---- the database of a partition --------------------------------------------------------------
class PatternDatabase:
    """The additive heuristic of one partition, looked up on packed codes."""

    def __init__(self, grid: Grid, partition: Partition, tables: list[np.ndarray]) -> None:
        self.grid = grid
        self.partition = partition
        self.packed = PackedBoard(grid, (0, *[t for g in partition.groups for t in g]))
        self.sparse: list[np.ndarray] = []
        self.slices: list[tuple[np.uint64, np.uint64]] = []
        offset = 1
        for group, table in zip(partition.groups, tables, strict=True):
            self.sparse.append(table)
            self.slices.append((U64(4 * offset), U64((1 << (4 * len(group))) - 1)))
            offset += len(group)
        self.mirror = self.packed.transposer()

    @property
    def name(self) -> str:
        suffix = " + mirror" if self.mirror else ""
        return f"PDB {self.partition.name}{suffix}"

    def _plain(self, codes: np.ndarray) -> np.ndarray:
        total = np.zeros(codes.shape, dtype=np.int32)
        for table, (shift, mask) in zip(self.sparse, self.slices, strict=True):
            total += table[((codes >> shift) & mask).astype(np.intp)]
        return total

    def lookup(self, codes: np.ndarray) -> np.ndarray:
        """Heuristic values (int32) of packed codes."""
        h = self._plain(codes)
        if self.mirror is not None:
            np.maximum(h, self._plain(self.packed.mirror(codes, *self.mirror)), out=h)
        return h

    def value(self, state: State) -> int:
        return int(self.lookup(np.array([self.packed.pack(state)], dtype=U64))[0])


_loaded: dict[tuple[int, int, Partition], PatternDatabase] = {}
_lock = threading.Lock()


def group_file(grid: Grid, group: Sequence[int]) -> str:
    tiles = "-".join(str(t) for t in group)
    return f"sliding-{grid.width}x{grid.height}.pdb-{tiles}.v{VERSION}.npy"


def is_cached(grid: Grid, partition: Partition) -> bool:
    key = (grid.width, grid.height, partition)
    if key in _loaded:
        return True
    from kaeru.engine.tables.folder import cache_file

    return all(cache_file(group_file(grid, g)).exists() for g in partition.groups)


def pattern_database(
    grid: Grid,
    partition: Partition | None = None,
    control: Control = QUIET,
) -> PatternDatabase:
    """The partition's database: from memory, else the disk cache, else built with progress."""
    partition = partition or default_partition(grid)
    check_partition(grid, partition)
    key = (grid.width, grid.height, partition)
    with holding(_lock, "pattern databases", control.progress, control.cancelled):
        if key in _loaded:
            return _loaded[key]
        tables = []
        for number, group in enumerate(partition.groups, 1):
            table = load_table(group_file(grid, group), (16 ** len(group),), np.dtype(np.uint8))
            if table is None:
                count = len(partition.groups)
                announce = Announcer(build_plan(grid, group, number, count), control.progress)
                meter = Meter(
                    f"building pattern database {number}/{count} ({len(group)} tiles)",
                    Control(announce, control.cancelled, None),
                )
                meter.extra["building"] = f"{number}/{len(partition.groups)}"
                table = build_group(grid, group, meter)
                save_table(group_file(grid, group), table)
                meter.finish()
            tables.append(table)
        database = PatternDatabase(grid, partition, tables)
        _loaded[key] = database
        return database


def forget_loaded() -> None:
    with _lock:
        _loaded.clear()
