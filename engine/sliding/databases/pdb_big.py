"""Additive pattern databases for big boards (5×5 and larger): small groups of tiles, each table
indexed by the cells of its tiles as base-N digits (N cells), so a search keeps every group's
index up to date with one multiply-add per move (`engine.sliding.near_optimal.bounded_kernels`).

A table holds, for every placement of its k tiles, the fewest moves of those tiles that bring
them home when every other cell is free (the blank is left out: a group tile may step to any
neighbouring cell no other group tile holds). Groups that share no tile add up to a lower bound
on the moves left; a one-tile group is the tile's Manhattan distance. Built once by a compiled
breadth-first search from the goal (under a second for the 5×5's four groups of five), cached.

The 5×5 takes 5-5-5-5-4 (39 MB in all); boards of 26 to 49 cells groups of four; larger ones
groups of three (their tables stay small: 64³ entries).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.sliding.board.geometry import Grid
from kaeru.engine.sliding.jit import njit
from kaeru.engine.tables.store import holding, load_table, save_table

VERSION = 1
UNSEEN = 255
FIVE_BY_FIVE = (  # compact blocks of the 24-puzzle (goal: tile t on cell t-1, the gap last)
    (1, 2, 3, 6, 7),
    (4, 5, 8, 9, 10),
    (11, 12, 16, 17, 21),
    (13, 14, 15, 18, 19),
    (20, 22, 23, 24),
)


@dataclass(frozen=True)
class BigPartition:
    """Disjoint groups of tiles covering every tile of a board."""

    groups: tuple[tuple[int, ...], ...]

    @property
    def name(self) -> str:
        return "-".join(str(len(g)) for g in self.groups)


def group_size_for(grid: Grid) -> int:
    if grid.cells <= 25:
        return 5
    return 4 if grid.cells <= 49 else 3


def default_big_partition(grid: Grid) -> BigPartition:
    """5-5-5-5-4 blocks on the 5×5; elsewhere compact blocks of the board cut row band by row
    band (bands two rows high, cut left to right into groups of the size the board takes)."""
    if (grid.width, grid.height) == (5, 5):
        return BigPartition(FIVE_BY_FIVE)
    size = group_size_for(grid)
    order: list[int] = []
    for top in range(0, grid.height, 2):
        rows = range(top, min(top + 2, grid.height))
        for col in range(grid.width):
            tiles = (r * grid.width + col + 1 for r in rows)
            order += [t for t in tiles if t < grid.cells]
    groups = [tuple(sorted(order[i : i + size])) for i in range(0, len(order), size)]
    return BigPartition(tuple(groups))


@njit(cache=True, nogil=True)
def _bfs_group(nbr: np.ndarray, homes: np.ndarray, n: int) -> np.ndarray:
    """uint8[n**k]: fewest moves of the k tiles (cells as base-n digits, the first tile the
    lowest digit) to reach `homes`, the other cells free; UNSEEN for no placement."""
    k = homes.size
    size = n**k
    depth = np.full(size, UNSEEN, dtype=np.uint8)
    mul = np.ones(k, dtype=np.int64)
    for i in range(1, k):
        mul[i] = mul[i - 1] * n
    start = 0
    for i in range(k):
        start += homes[i] * mul[i]
    depth[start] = 0
    cells = np.zeros(k, dtype=np.int64)
    d = 0
    found = 1
    while found:
        found = 0
        for idx in range(size):
            if depth[idx] != d:
                continue
            rest = idx
            for i in range(k):
                cells[i] = rest % n
                rest //= n
            for i in range(k):
                p = cells[i]
                for j in range(4):
                    q = nbr[p, j]
                    if q < 0:
                        continue
                    taken = False
                    for o in range(k):
                        if cells[o] == q:
                            taken = True
                    if taken:
                        continue
                    child = idx + (q - p) * mul[i]
                    if depth[child] == UNSEEN:
                        depth[child] = d + 1
                        found += 1
        d += 1
    return depth


def build_table(grid: Grid, group: Sequence[int]) -> np.ndarray:
    homes = np.array([grid.home(t) for t in group], dtype=np.int64)
    return _bfs_group(grid.neighbour_array, homes, grid.cells)


def table_file(grid: Grid, group: Sequence[int]) -> str:
    tiles = "-".join(str(t) for t in group)
    return f"sliding-{grid.width}x{grid.height}.pdbx-{tiles}.v{VERSION}.npy"


class BigDatabase:
    """The tables of one partition laid end to end (`flat`), with what a kernel needs to index
    them: each tile's group, the weight of its cell in the group's index, each group's offset."""

    mirrored = True  # whether the diagonal mirror's value is a lower bound too (square boards)
    chase = np.zeros(0, dtype=np.int64)  # tiles the blank must reach first (`peel`'s lines)
    goal_groups = 0  # with a rest weight: the groups before this one are the goal's (`peel`)
    # tables that count the blank (`line_tables.BlankTables.arguments`): none here
    blank_tables: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] = (
        np.zeros(1, dtype=np.uint8), np.zeros(0, dtype=np.int64),
        np.zeros((0, 1), dtype=np.int64), np.zeros(0, dtype=np.int64))

    def __init__(self, grid: Grid, partition: BigPartition, tables: list[np.ndarray]) -> None:
        n = grid.cells
        self.grid, self.partition = grid, partition
        self.flat = np.concatenate(tables)
        self.offset = np.zeros(len(tables), dtype=np.int64)
        self.offset[1:] = np.cumsum([t.size for t in tables])[:-1]
        self.tile_group = np.full(n, -1, dtype=np.int64)
        self.tile_mul = np.zeros(n, dtype=np.int64)
        largest = max(len(g) for g in partition.groups)
        self.group_tiles = np.zeros((len(partition.groups), largest), dtype=np.int64)
        self.group_size = np.array([len(g) for g in partition.groups], dtype=np.int64)
        for g, (group, table) in enumerate(zip(partition.groups, tables, strict=True)):
            for i, tile in enumerate(group):  # a one-entry table counts nothing: index 0
                self.tile_group[tile], self.tile_mul[tile] = g, n**i if table.size > 1 else 0
                self.group_tiles[g, i] = tile

    @property
    def name(self) -> str:
        return f"PDB {self.partition.name}"

    def indices(self, cell_of: np.ndarray) -> np.ndarray:
        """int64[groups]: each group's index for tiles on `cell_of[tile]`."""
        out = np.zeros(len(self.partition.groups), dtype=np.int64)
        for tile in range(1, self.grid.cells):
            out[self.tile_group[tile]] += cell_of[tile] * self.tile_mul[tile]
        return out

    def value(self, cell_of: np.ndarray) -> int:
        idx = self.indices(cell_of)
        return int(sum(int(self.flat[o + i]) for o, i in zip(self.offset, idx, strict=True)))


def group_table(grid: Grid, group: tuple[int, ...]) -> np.ndarray:
    """One group's table: from the disk cache, else built and saved."""
    name = table_file(grid, group)
    table = load_table(name, (grid.cells ** len(group),), np.dtype(np.uint8))
    if table is None:
        table = build_table(grid, group)
        save_table(name, table)
    return np.asarray(table)


_loaded: dict[tuple[int, int, BigPartition], BigDatabase] = {}
_lock = threading.Lock()


def is_cached(grid: Grid, partition: BigPartition | None = None) -> bool:
    partition = partition or default_big_partition(grid)
    if (grid.width, grid.height, partition) in _loaded:
        return True
    from kaeru.engine.tables.folder import cache_file

    return all(cache_file(table_file(grid, g)).exists() for g in partition.groups)


def big_database(
    grid: Grid, partition: BigPartition | None = None, control: Control = QUIET
) -> BigDatabase:
    """The partition's tables: from memory, else the disk cache, else built (seconds) and saved."""
    partition = partition or default_big_partition(grid)
    key = (grid.width, grid.height, partition)
    with holding(_lock, "pattern databases", control.progress, control.cancelled):
        if key in _loaded:
            return _loaded[key]
        database = BigDatabase(grid, partition, [group_table(grid, g) for g in partition.groups])
        _loaded[key] = database
        return database


@cache
def mirror_maps(grid: Grid) -> tuple[np.ndarray, np.ndarray, bool]:
    """(mirror tile, transposed cell, whether the board has the mirror: square boards)."""
    n = grid.cells
    cells = np.arange(n, dtype=np.int64)
    if grid.width != grid.height:
        return cells.copy(), cells.copy(), False
    w = grid.width
    transpose = (cells % w) * w + cells // w
    mirror_tile = np.zeros(n, dtype=np.int64)
    for tile in range(1, n):
        mirror_tile[tile] = 1 + transpose[tile - 1]
    return mirror_tile, transpose, True


class Views:
    """Several additive databases, each read plain or mirrored (square boards): their largest
    value is a lower bound, as each is (`max_kernel.ida_max`'s arrays; none: no views)."""

    def __init__(self, grid: Grid, views: list[tuple[BigDatabase, bool]]) -> None:
        n = grid.cells
        mirror_tile, transpose, _ = mirror_maps(grid)
        databases = list(dict.fromkeys(db for db, _ in views))
        flat_base = dict(zip(databases, np.cumsum([0] + [d.flat.size for d in databases]),
                             strict=False))
        self.flat = np.concatenate([d.flat for d in databases] or [np.zeros(1, np.uint8)])
        offsets: list[int] = []
        self.tile = np.zeros((len(views), n), dtype=np.int64)
        self.cell = np.zeros((len(views), n), dtype=np.int64)
        self.group = np.zeros((len(views), n), dtype=np.int64)
        self.mul = np.zeros((len(views), n), dtype=np.int64)
        for v, (db, mirrored) in enumerate(views):
            base = len(offsets)
            offsets += [int(flat_base[db] + o) for o in db.offset]
            self.tile[v] = mirror_tile if mirrored else np.arange(n)
            self.tile[v, 0] = 0
            self.cell[v] = transpose if mirrored else np.arange(n)
            self.group[v] = np.maximum(db.tile_group, 0) + base
            self.mul[v] = db.tile_mul
        self.group_offset = np.array(offsets, dtype=np.int64)
