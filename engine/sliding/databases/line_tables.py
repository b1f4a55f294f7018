"""Tables that count the blank, for bringing a line of a big board home (`peel`).

A line's additive databases (`pdb_big`) count only the moves of the line's tiles: on a line of
six, the blank's trips between them, most of the moves, count nothing, and a weighted A* over
so weak a value returns lines half as long again as needed. These tables hold, for every
placement of a few tiles of the line *and the blank*, the fewest moves (of any tile) that bring
those tiles home: the exact cost of that smaller task, so a lower bound on the whole line's.
They do not add up (two of them count the same blank moves); the search takes the largest of
them and of the additive sum.

A table is indexed like `pdb_big`'s, the blank as the first digit (base N, N cells), and built
by one breadth-first search from every goal placement at once (the tiles home, the blank on any
other cell), over a queue. Three tiles and the blank on boards of up to 49 cells (36⁴ = 1.7 M
entries on the 6×6, under a second to build), two beyond; cached like the other tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid
from kaeru.engine.sliding.jit import njit
from kaeru.engine.tables.store import load_table, save_table

VERSION = 1
UNSEEN = 255
MOST_ENTRIES = 6_000_000  # past this, groups of two tiles with the blank


@njit(cache=True, nogil=True)
def _bfs_with_blank(nbr: np.ndarray, homes: np.ndarray, n: int) -> np.ndarray:
    """uint8[n**(k+1)]: fewest moves until the k tiles are on `homes`; digit 0 the blank's
    cell, digit i+1 tile i's; UNSEEN where two of them share a cell."""
    k = homes.size
    digits = k + 1
    size = n**digits
    depth = np.full(size, UNSEEN, dtype=np.uint8)
    mul = np.ones(digits, dtype=np.int64)
    for i in range(1, digits):
        mul[i] = mul[i - 1] * n
    queue = np.empty(size, dtype=np.int32)
    tail = 0
    home_index = 0
    for i in range(k):
        home_index += homes[i] * mul[i + 1]
    for b in range(n):
        free = True
        for i in range(k):
            if homes[i] == b:
                free = False
        if free:
            depth[home_index + b] = 0
            queue[tail] = home_index + b
            tail += 1
    cells = np.zeros(digits, dtype=np.int64)
    head = 0
    while head < tail:
        idx = np.int64(queue[head])
        head += 1
        rest = idx
        for i in range(digits):
            cells[i] = rest % n
            rest //= n
        b = cells[0]
        d = depth[idx] + 1
        for j in range(4):
            q = nbr[b, j]
            if q < 0:
                continue
            child = idx + (q - b)  # the blank steps to q; a tile there steps to b
            for i in range(1, digits):
                if cells[i] == q:
                    child += (b - q) * mul[i]
            if depth[child] == UNSEEN:
                depth[child] = d
                queue[tail] = child
                tail += 1
    return depth


def group_size_with_blank(shape: Grid) -> int:
    return 3 if shape.cells**4 <= MOST_ENTRIES else 2


def line_groups(shape: Grid, line: Sequence[int]) -> list[tuple[int, ...]]:
    """Every run of consecutive tiles of `line` of the size the board takes (overlapping: the
    value is the largest of them, so more groups only help)."""
    size = min(group_size_with_blank(shape), len(line))
    return [tuple(line[i : i + size]) for i in range(len(line) - size + 1)]


def table_file(shape: Grid, group: Sequence[int]) -> str:
    tiles = "-".join(str(t) for t in group)
    return f"sliding-{shape.width}x{shape.height}.blank-{tiles}.v{VERSION}.npy"


def blank_table(shape: Grid, group: Sequence[int]) -> np.ndarray:
    """The group's table: from the disk cache, else built and saved."""
    name = table_file(shape, group)
    table = load_table(name, (shape.cells ** (len(group) + 1),), np.dtype(np.uint8))
    if table is None:
        homes = np.array([shape.home(t) for t in group], dtype=np.int64)
        table = _bfs_with_blank(shape.neighbour_array, homes, shape.cells)
        save_table(name, table)
    return np.asarray(table)


class BlankTables:
    """A line's tables laid end to end, as a kernel reads them: `tiles[g]` the group's tiles
    (0, the blank, first), `size[g]` how many, `offset[g]` where its table starts."""

    def __init__(self, shape: Grid, line: Sequence[int]) -> None:
        groups = line_groups(shape, line)
        tables = [blank_table(shape, g) for g in groups]
        self.flat = np.concatenate(tables) if tables else np.zeros(1, dtype=np.uint8)
        self.offset = np.zeros(max(1, len(groups)), dtype=np.int64)
        if groups:
            self.offset[1:] = np.cumsum([t.size for t in tables])[:-1]
        width = 1 + max((len(g) for g in groups), default=0)
        self.tiles = np.zeros((len(groups), width), dtype=np.int64)
        self.size = np.zeros(len(groups), dtype=np.int64)
        for g, group in enumerate(groups):
            self.tiles[g, 1 : 1 + len(group)] = group
            self.size[g] = 1 + len(group)

    def arguments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.flat, self.offset[: self.size.size], self.tiles, self.size
