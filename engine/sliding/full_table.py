"""Depth tables for boards small enough to hold every position (at most ten cells).

A breadth-first search from the goal over a perfect index of permutations (numpy, one byte a
position) gives every position's optimal distance; it is cached on disk. A hint is a neighbour
one step closer, a solution walks down the table, and a game of exact difficulty is a uniform
draw from the positions at that depth.

The index is the Lehmer code of the tiles' cells, tile 1 first and the blank last (its digit is
always 0). A slide moves one tile t between two cells b and c, so a child's code is its parent's
plus a few terms: t's own digit changes by the cells it crossed, and every later tile standing
between b and c (only vertical slides pass any) shifts its digit by one. The search carries the
boards of its frontier along (packed four bits a cell in one int64), so it never unranks, and
drops repeats with a scratch array in linear time.
"""

from __future__ import annotations

import random
import threading
from math import factorial

import numpy as np

from kaeru.engine.core import CancelCheck, Progress
from kaeru.engine.search.codes import UNREACHED
from kaeru.engine.search.meter import Meter
from kaeru.engine.sliding.geometry import Grid, Slide, State
from kaeru.engine.sliding.perm_index import PermIndex
from kaeru.engine.sliding.table_cache import holding, load_table, save_table

MAX_CELLS = 10  # 10! = 3,628,800 bytes; 12! would be 479 MB
VERSION = 2


def fits(grid: Grid) -> bool:
    return grid.cells <= MAX_CELLS


class PermutationCodes:
    """The perfect index of whole layouts: the cells of tiles 1, 2, ..., then of the blank."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        n = grid.cells
        self.index = PermIndex(n, n)
        self.space_size = factorial(n)
        self._neighbours = grid.neighbour_array
        # weight[t]: the place value of tile t's digit, (n - t)!; weight[0] (the blank) is 0
        self.weight = np.array([0] + [factorial(n - t) for t in range(1, n)], dtype=np.int64)

    def encode(self, state: State) -> int:
        positions = [0] * len(state)
        for cell, tile in enumerate(state):
            positions[tile - 1 if tile else len(state) - 1] = cell
        return self.index.rank_one(positions)

    def decode(self, code: int) -> State:
        positions = self.index.unrank_one(code)
        cells = [0] * len(positions)
        for item, cell in enumerate(positions[:-1]):
            cells[cell] = item + 1
        return tuple(cells)

    def child_codes(
        self, codes: np.ndarray, boards: np.ndarray, blanks: np.ndarray, targets: np.ndarray
    ) -> np.ndarray:
        """Codes after the tile on `targets` slides into the blank (see the module notes).

        `boards` are packed: four bits per cell, cell 0 lowest, holding the tile (0: blank).
        Every row moves the same way (one direction at a time), so the cells crossed are the
        same number of steps for all.
        """
        tile = (boards >> (targets << 2)) & 15
        code = codes + (blanks - targets) * self.weight[tile]
        crossed = abs(int(targets[0] - blanks[0])) if codes.size else 0
        if crossed > 1:
            sign = np.where(blanks > targets, 1, -1)
            low = np.minimum(blanks, targets)
            for step in range(1, crossed):
                other = (boards >> ((low + step) << 2)) & 15
                code += sign * np.where(other > tile, self.weight[other], -self.weight[tile])
        return code

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code (one per legal slide): for generic callers."""
        boards, blanks = self.boards(codes)
        out = [self.child_codes(codes[ok], boards[ok], blanks[ok], targets)
               for ok, targets in self.slides(blanks)]
        return np.concatenate(out)

    def boards(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(packed boards, blank cells) of codes."""
        pos = self.index.unrank(codes)
        boards = np.zeros(pos.shape[0], dtype=np.int64)
        for item in range(pos.shape[1] - 1):
            boards |= np.int64(item + 1) << (pos[:, item] << 2)
        return boards, pos[:, -1]

    @staticmethod
    def pack(state: State) -> int:
        return sum(tile << (4 * cell) for cell, tile in enumerate(state))

    def slides(self, blanks: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per direction: (rows that can slide, the cell each one's blank moves to)."""
        out = []
        for k in range(self._neighbours.shape[1]):
            target = self._neighbours[blanks, k]
            ok = target >= 0
            if ok.any():
                out.append((ok, target[ok]))
        return out


def layered_depths(codes: PermutationCodes, root: State, meter: Meter) -> np.ndarray:
    """Distance from `root` of every code (uint8; UNREACHED where none): a breadth-first
    search that carries its frontier's boards and computes children's codes incrementally."""
    depth = np.full(codes.space_size, UNREACHED, dtype=np.uint8)
    owner = np.zeros(codes.space_size, dtype=np.int32)  # scratch: which new entry owns a code
    frontier = np.array([codes.encode(root)], dtype=np.int64)
    boards = np.array([codes.pack(root)], dtype=np.int64)
    blanks = np.array([root.index(0)], dtype=np.int64)
    depth[frontier] = 0
    d = 0
    while frontier.size:
        meter.depth, meter.frontier = d, int(frontier.size)
        found, parents, cells = [], [], []
        for ok, targets in codes.slides(blanks):
            rows = np.flatnonzero(ok)
            child = codes.child_codes(frontier[rows], boards[rows], blanks[rows], targets)
            fresh = depth[child] == UNREACHED
            found.append(child[fresh])
            parents.append(rows[fresh])
            cells.append(targets[fresh])
            meter.generated += int(child.size)
        child, parent, cell = (np.concatenate(x) for x in (found, parents, cells))
        owner[child] = np.arange(child.size, dtype=np.int32)
        keep = owner[child] == np.arange(child.size, dtype=np.int32)
        child, parent, cell = child[keep], parent[keep], cell[keep]
        depth[child] = d + 1
        boards, old_blank = boards[parent], blanks[parent]
        tile = (boards >> (cell << 2)) & 15
        boards += (tile << (old_blank << 2)) - (tile << (cell << 2))
        frontier, blanks = child, cell
        meter.tick(int(frontier.size))
        meter.check()
        d += 1
        if d >= UNREACHED:  # pragma: no cover - boards of ten cells stay far below
            raise OverflowError("depth table overflow")
    return depth


class FullTable:
    """The optimal distance to the goal of every layout of one board."""

    def __init__(self, grid: Grid, depth: np.ndarray) -> None:
        self.grid = grid
        self.codes = PermutationCodes(grid)
        self.depth = depth
        self.histogram = np.bincount(depth[depth != UNREACHED])

    @property
    def max_depth(self) -> int:
        return len(self.histogram) - 1

    def distance(self, state: State) -> int | None:
        d = int(self.depth[self.codes.encode(state)])
        return None if d == UNREACHED else d

    def step(self, state: State) -> tuple[Slide, State] | None:
        """A move one step closer to the goal and where it leads; None at the goal.

        Raises ValueError for an unreachable layout (callers check parity first).
        """
        here = self.distance(state)
        if here is None:
            raise ValueError("layout is not reachable from the goal")
        if here == 0:
            return None
        for move in self.grid.slides(state):
            after = self.grid.slide(state, move)
            if self.distance(after) == here - 1:
                return move, after
        raise AssertionError("depth table is inconsistent")  # pragma: no cover

    def walk(self, state: State) -> tuple[list[Slide], list[State]]:
        """An optimal solution: keep stepping down the table."""
        moves, states = [], [state]
        while (found := self.step(states[-1])) is not None:
            moves.append(found[0])
            states.append(found[1])
        return moves, states

    def random_at(self, rng: random.Random, depth: int) -> State:
        """A layout exactly `depth` moves from the goal, uniformly among them."""
        if not 0 <= depth <= self.max_depth:
            raise ValueError(f"depth must be 0 to {self.max_depth}")
        candidates = np.flatnonzero(self.depth == depth)
        return self.codes.decode(int(candidates[rng.randrange(candidates.size)]))

    def farthest(self) -> list[State]:
        return [self.codes.decode(int(c)) for c in np.flatnonzero(self.depth == self.max_depth)]


_loaded: dict[tuple[int, int], FullTable] = {}
_lock = threading.Lock()


def table_name(grid: Grid) -> str:
    return f"sliding-{grid.width}x{grid.height}.depth.v{VERSION}.npy"


def is_cached(grid: Grid) -> bool:
    """Whether the table is in memory or on disk (so getting it is quick)."""
    from kaeru.engine.cache import cache_file

    return (grid.width, grid.height) in _loaded or cache_file(table_name(grid)).exists()


def full_table(
    grid: Grid,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
) -> FullTable:
    """The board's table: from memory, else from the disk cache, else built (with progress)."""
    key = (grid.width, grid.height)
    with holding(_lock, "depth table", progress, cancelled):
        if key in _loaded:
            return _loaded[key]
        codes = PermutationCodes(grid)
        depth = load_table(table_name(grid), (codes.space_size,), np.dtype(np.uint8))
        if depth is None:
            meter = Meter(f"building depth table {grid.width}x{grid.height}", progress, cancelled)
            depth = layered_depths(codes, grid.goal, meter)
            save_table(table_name(grid), depth)
            meter.finish()
        table = FullTable(grid, depth)
        _loaded[key] = table
        return table


def forget_loaded() -> None:
    """Drop tables held in memory (tests use it to exercise the disk cache)."""
    with _lock:
        _loaded.clear()
