"""Seed 003's shuffle: Fisher–Yates, then at most one swap of two tiles to fix the parity.

Fisher–Yates is uniform over all layouts and each swap it makes (not a cell with itself) is one
transposition, so its swap count gives the permutation's parity for free. When that parity and
the blank's distance parity differ, swapping two tiles that are not the blank (cells 0 and 1, or
the two cells under them when one is the blank) fixes it. That swap is an involution pairing each
unsolvable layout with one solvable layout, so the result is uniform over the solvable ones.
"""

from __future__ import annotations

import random

from kaeru.engine.sliding.board.geometry import Grid, State


def fisher_yates(grid: Grid, rng: random.Random) -> tuple[list[int], int]:
    """A uniformly shuffled goal layout and the number of real swaps made."""
    cells = list(grid.goal)
    swaps = 0
    for i in range(len(cells) - 1, 0, -1):
        j = rng.randrange(i + 1)
        if i != j:
            cells[i], cells[j] = cells[j], cells[i]
            swaps += 1
    return cells, swaps


def parity_fix_cells(grid: Grid, cells: list[int]) -> tuple[int, int]:
    """The two cells to swap: 0 and 1, or the cells under them when the blank is on either."""
    if 0 in (cells[0], cells[1]):
        return grid.width, grid.width + 1
    return 0, 1


def shuffle_solvable(grid: Grid, rng: random.Random) -> State:
    """A layout drawn uniformly from the solvable ones (seed 003's method)."""
    cells, swaps = fisher_yates(grid, rng)
    steps = grid.distance(cells.index(0), grid.blank_goal)
    if swaps % 2 != steps % 2:
        a, b = parity_fix_cells(grid, cells)
        cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells)
