"""Depth tables of sliding boards small enough to hold every position (at most ten cells).

A breadth-first search from the goal over the permutation index (`perm_codes`) gives every
layout's optimal distance, one byte each (10! = 3,628,800 bytes), kept by `engine.tables.store`.
A hint is a neighbour one step closer, a solution walks down the table, and a game of exact
difficulty is a uniform draw among the layouts at that depth (`engine.tables.table`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.sliding.board.geometry import Grid, Slide, State
from kaeru.engine.sliding.board.perm_codes import PermutationCodes
from kaeru.engine.tables import store
from kaeru.engine.tables.dense import dense_bfs_carrying
from kaeru.engine.tables.first_use import BuildPlan
from kaeru.engine.tables.table import DepthTable

MAX_CELLS = 10  # 10! = 3,628,800 bytes; 12! would be 479 MB
VERSION = 3  # 3: the checked table file of engine.tables
# Measured from an empty cache (bench/first_use.py, 2 cores shared with other work): the
# 8-puzzle's table in 0.2 s, the 9-puzzle's (5x2, 1,814,400 positions) in 2.0 s.
BUILD_START = 0.2  # seconds before the search runs (the index, numpy's first calls)
BUILD_RATE = 1_000_000  # positions found per second

SlidingTable = DepthTable[State, Slide]

_wrapped: dict[tuple[int, int], SlidingTable] = {}  # the last table handed out per board


def fits(grid: Grid) -> bool:
    return grid.cells <= MAX_CELLS


def table_key(grid: Grid) -> str:
    return f"sliding-{grid.width}x{grid.height}.depth"


def is_cached(grid: Grid) -> bool:
    """Whether the table is in memory or on disk (so getting it is quick)."""
    return store.is_available(table_key(grid), VERSION)


def layered_depths(codes: PermutationCodes, root: State, meter: Meter) -> np.ndarray:
    """Distance from `root` of every layout (uint8; UNREACHED for the other parity)."""
    return dense_bfs_carrying(
        codes.space_size,
        np.array([codes.encode(root)], dtype=np.int64),
        codes.payload(root),
        codes.expand_carrying,
        codes.advance,
        meter,
        expected=codes.space_size // 2,  # one parity of the layouts
    )


def build_plan(grid: Grid, space_size: int) -> BuildPlan:
    """What building the board's table means for a player: what, how big, how long."""
    return BuildPlan(
        f"the distance table of the {grid.cells - 1}-puzzle ({grid.width}×{grid.height})",
        space_size,
        BUILD_START + space_size / 2 / BUILD_RATE,
    )


def full_table(grid: Grid, control: Control = QUIET) -> SlidingTable:
    """The board's table (distances to the goal): from memory, disk, or built with progress."""
    codes = PermutationCodes(grid)

    loaded = store.depth_table(
        table_key(grid),
        VERSION,
        codes.space_size,
        f"building depth table {grid.width}x{grid.height}",
        lambda meter: layered_depths(codes, grid.goal, meter),
        control,
        build_plan(grid, codes.space_size),
    )
    known = _wrapped.get((grid.width, grid.height))
    if known is not None and known.depth is loaded.table:
        return known

    def successors(state: State) -> Iterator[tuple[Slide, State]]:
        for move in grid.slides(state):
            yield move, grid.slide(state, move)

    table = DepthTable(loaded.table, codes.encode, codes.decode, successors)
    _wrapped[grid.width, grid.height] = table
    return table
