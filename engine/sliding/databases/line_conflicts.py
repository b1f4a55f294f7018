"""Manhattan distance plus linear conflicts, kept up to date move by move by a compiled search
(`engine.sliding.near_optimal.max_kernel.ida_max`).

A row's conflict: the tiles in their goal row but out of order there. All but the longest
increasing run of them (by goal column) must leave the row and come back, two vertical moves
each that the Manhattan distance does not count; columns likewise with horizontal moves. Rows
and columns count different moves, so Manhattan + every row's + every column's conflict is a
lower bound (Hansson, Mayer & Yung 1992, with the fewest tiles to take out, not pairs).

A line's tiles are read as base-B digits (B = the longest side + 1): on each cell of the line,
0 when its tile's goal is in another line, else one more than the goal's place along the line.
`Conflicts.table` holds the conflict moves for every such code (7⁶ = 117,649 bytes on the 6×6),
so a move costs a table read or two.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cache

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.jit import njit


def conflict_moves(digits: list[int]) -> int:
    """Extra moves a line's tiles need: two for each one not in the longest increasing run of
    its nonzero digits."""
    present = [d for d in digits if d]
    tails: list[int] = []
    for d in present:
        i = bisect.bisect_left(tails, d)
        if i == len(tails):
            tails.append(d)
        else:
            tails[i] = d
    return 2 * (len(present) - len(tails))


@njit(cache=True, nogil=True)
def _conflict_table(base: int, side: int) -> np.ndarray:
    """`conflict_moves` of every line code, compiled (base ** side entries)."""
    table = np.zeros(base**side, dtype=np.uint8)
    tails = np.zeros(side, dtype=np.int64)
    for code in range(base**side):
        rest, present, run = code, 0, 0
        for _ in range(side):
            d = rest % base
            rest //= base
            if d == 0:
                continue
            present += 1
            i = 0  # the first tail not below d (tails stay increasing)
            while i < run and tails[i] < d:
                i += 1
            tails[i] = d
            if i == run:
                run += 1
        table[code] = 2 * (present - run)
    return table


@dataclass(frozen=True)
class Conflicts:
    """What the kernel reads: each tile's distance to its goal from each cell, its goal's row and
    column, each cell's row and column, the digits' place values and the conflict table."""

    distance: np.ndarray  # int64[tile, cell]: Manhattan distance (0 for the blank)
    goal_row: np.ndarray  # int64[tile]
    goal_col: np.ndarray  # int64[tile]
    cell_row: np.ndarray  # int64[cell]
    cell_col: np.ndarray  # int64[cell]
    place: np.ndarray  # int64[side]: base ** position
    table: np.ndarray  # uint8[base ** side]: conflict moves of a line's code


@cache
def conflicts(grid: Grid) -> Conflicts:
    """The board's arrays (the table compiled and filled in milliseconds on a 6×6: 7⁶ codes)."""
    side = max(grid.width, grid.height)
    base = side + 1
    n = grid.cells
    cell = np.arange(n, dtype=np.int64)
    cell_row, cell_col = cell // grid.width, cell % grid.width
    goal_row, goal_col = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    distance = np.zeros((n, n), dtype=np.int64)
    for tile in range(1, n):
        home = grid.home(tile)
        goal_row[tile], goal_col[tile] = home // grid.width, home % grid.width
        distance[tile] = abs(cell_row - goal_row[tile]) + abs(cell_col - goal_col[tile])
    table = _conflict_table(base, side)
    place = np.array([base**i for i in range(side)], dtype=np.int64)
    return Conflicts(distance, goal_row, goal_col, cell_row, cell_col, place, table)


def conflict_value(grid: Grid, state: State) -> int:
    """Manhattan + linear conflicts + last moves of a position, read plainly (what the
    kernel keeps up to date)."""
    w = grid.width
    total = 0
    rows: list[list[int]] = [[0] * w for _ in range(grid.height)]
    cols: list[list[int]] = [[0] * grid.height for _ in range(w)]
    for cell, tile in enumerate(state):
        if not tile:
            continue
        home = grid.home(tile)
        r, c, gr, gc = cell // w, cell % w, home // w, home % w
        total += abs(r - gr) + abs(c - gc)
        if r == gr:
            rows[r][c] = gc + 1
        if c == gc:
            cols[c][r] = gr + 1
    total += sum(conflict_moves(line) for line in rows + cols)
    return total + last_moves(grid, state, rows, cols) if total else 0


def last_moves(grid: Grid, state: State, rows: list[list[int]], cols: list[list[int]]) -> int:
    """Korf & Taylor's last moves, as `max_kernel._last_moves` reads them: two when the
    tile at home left of the blank's goal is outside the last column and the one above it
    outside the last row (and neither sits in its goal line beside a conflict there)."""
    w, h = grid.width, grid.height
    if w < 2 or h < 2:
        return 0
    left, up = grid.cells - 1, grid.cells - w
    lc, ur = state.index(left) % w, state.index(up) // w
    if lc == w - 1 or ur == h - 1:
        return 0
    if lc == w - 2 and conflict_moves(cols[w - 2]):
        return 0
    if ur == h - 2 and conflict_moves(rows[h - 2]):
        return 0
    return 2
