"""Depth tables for boards small enough to hold every position (at most ten cells).

A breadth-first search from the goal over a perfect index of permutations (numpy, one byte a
position, `engine.search.codes.depth_table`) gives every position's optimal distance; it is
cached on disk. A hint is a neighbour one step closer, a solution walks down the table, and a
game of exact difficulty is a uniform draw from the positions at that depth.
"""

from __future__ import annotations

import random
import threading
from math import factorial

import numpy as np

from engine.core import CancelCheck, Progress
from engine.search.codes import UNREACHED, depth_table
from engine.search.meter import Meter
from engine.sliding.geometry import Grid, Slide, State
from engine.sliding.perm_index import PermIndex
from engine.sliding.table_cache import load_table, save_table

MAX_CELLS = 10  # 10! = 3,628,800 bytes; 12! would be 479 MB
VERSION = 1


def fits(grid: Grid) -> bool:
    return grid.cells <= MAX_CELLS


class PermutationCodes:
    """The perfect index of whole layouts: the cell of tile 0 (the blank), 1, 2, ..."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.index = PermIndex(grid.cells, grid.cells)
        self.space_size = factorial(grid.cells)
        self._neighbours = grid.neighbour_array

    def encode(self, state: State) -> int:
        positions = [0] * len(state)
        for cell, tile in enumerate(state):
            positions[tile] = cell
        return self.index.rank_one(positions)

    def decode(self, code: int) -> State:
        positions = self.index.unrank_one(code)
        cells = [0] * len(positions)
        for tile, cell in enumerate(positions):
            cells[cell] = tile
        return tuple(cells)

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code (one per legal slide)."""
        pos = self.index.unrank(codes)
        m, n = pos.shape
        rows = np.arange(m)
        who = np.empty_like(pos)
        who[rows[:, None], pos] = np.arange(n)
        blank = pos[:, 0]
        out = []
        for k in range(self._neighbours.shape[1]):
            target = self._neighbours[blank, k]
            ok = target >= 0
            if not ok.any():
                continue
            child = pos[ok]
            r = np.arange(child.shape[0])
            cell = target[ok]
            tile = who[rows[ok], cell]
            child[r, tile] = blank[ok]
            child[:, 0] = cell
            out.append(self.index.rank(child))
        return np.concatenate(out)


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


def full_table(
    grid: Grid,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
) -> FullTable:
    """The board's table: from memory, else from the disk cache, else built (with progress)."""
    key = (grid.width, grid.height)
    with _lock:
        if key in _loaded:
            return _loaded[key]
        codes = PermutationCodes(grid)
        depth = load_table(table_name(grid), (codes.space_size,), np.dtype(np.uint8))
        if depth is None:
            meter = Meter(f"building depth table {grid.width}x{grid.height}", progress, cancelled)
            goal = np.array([codes.encode(grid.goal)])
            depth = depth_table(goal, codes.space_size, codes.expand_codes, meter)
            save_table(table_name(grid), depth)
            meter.finish()
        table = FullTable(grid, depth)
        _loaded[key] = table
        return table


def forget_loaded() -> None:
    """Drop tables held in memory (tests use it to exercise the disk cache)."""
    with _lock:
        _loaded.clear()
