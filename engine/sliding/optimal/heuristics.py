"""Manhattan distance plus linear conflicts: the classic admissible heuristic, two ways.

Linear conflict (Hansson, Mayer and Yung): in a row, the tiles that belong to that row and stand
in it must pass each other when their order is wrong; at least (those tiles - the longest run
already in order) of them must leave the row and come back, two extra moves each. The same holds
for columns, and rows and columns add up. `manhattan_lc` computes it for one state;
`ManhattanLC` evaluates whole arrays of packed codes for the frontier search (line tables are
precomputed for lines of up to six cells; longer lines count Manhattan distance only).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from functools import cache
from itertools import product

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.board.packed import U64, PackedBoard

MAX_TABLE_LINE = 6  # (6+1)**6 = 117,649 entries per line table


def longest_increasing(seq: list[int]) -> int:
    tails: list[int] = []
    for x in seq:
        at = bisect_left(tails, x)
        if at == len(tails):
            tails.append(x)
        else:
            tails[at] = x
    return len(tails)


def line_conflict(goal_places: list[int]) -> int:
    """Extra moves forced in one line: goal places (within the line) of its own tiles in order."""
    return 2 * (len(goal_places) - longest_increasing(goal_places))


def manhattan(grid: Grid, state: State) -> int:
    return sum(grid.distance(cell, tile - 1) for cell, tile in enumerate(state) if tile)


def manhattan_lc(grid: Grid, state: State) -> int:
    """Manhattan distance plus row and column linear conflicts of one state."""
    w, h = grid.width, grid.height
    total = manhattan(grid, state)
    for r in range(h):
        places = [(t - 1) % w for t in state[r * w : (r + 1) * w] if t and (t - 1) // w == r]
        total += line_conflict(places)
    for c in range(w):
        places = [(t - 1) // w for t in state[c::w] if t and (t - 1) % w == c]
        total += line_conflict(places)
    return total


@cache
def line_table(length: int) -> np.ndarray:
    """Conflict moves of a line keyed by sum(code[c] * (length+1)**c), code = 1 + goal place of
    the line's own tile on cell c, or 0 for any other piece."""
    table = np.zeros((length + 1) ** length, dtype=np.int32)
    for key, codes in enumerate(product(range(length + 1), repeat=length)):
        places = [code - 1 for code in codes if code]  # codes[j] is cell j of the line
        if len(set(places)) == len(places):
            table[key] = line_conflict(places)
    return table


class ManhattanLC:
    """Manhattan + linear conflict on arrays of packed codes."""

    name = "Manhattan + linear conflict"

    def __init__(self, packed: PackedBoard) -> None:
        grid = packed.grid
        self.packed = packed
        self.grid = grid
        n, w, h = grid.cells, grid.width, grid.height
        self._distance = np.zeros((n, 16), dtype=np.int32)  # [item, cell]
        for i, tile in enumerate(packed.order):
            if tile:
                for cell in range(n):
                    self._distance[i, cell] = grid.distance(cell, grid.home(tile))
        # For each line: its cells, and per item the digit it contributes on that line.
        self._lines: list[tuple[list[int], np.ndarray, np.ndarray]] = []
        def column_of(tile: int) -> int:
            return (tile - 1) % w

        def row_of(tile: int) -> int:
            return (tile - 1) // w

        for r in range(h):
            self._add_line([r * w + c for c in range(w)], row_of, r, column_of)
        for c in range(w):
            self._add_line([r * w + c for r in range(h)], column_of, c, row_of)

    def _add_line(
        self, cells: list[int], line_of: Callable[[int], int], line: int,
        place: Callable[[int], int],
    ) -> None:
        """A line's table: the tiles whose home is on `line` (by `line_of`), each by `place`."""
        length = len(cells)
        if length > MAX_TABLE_LINE:
            return
        digit = np.zeros(16, dtype=np.int64)
        for i, tile in enumerate(self.packed.order):
            if tile and line_of(tile) == line:
                digit[i] = 1 + place(tile)
        self._lines.append((cells, digit, line_table(length)))

    def lookup(self, codes: np.ndarray) -> np.ndarray:
        total = np.zeros(codes.shape, dtype=np.int32)
        for i in range(1, self.grid.cells):
            cell = ((codes >> U64(4 * i)) & U64(15)).astype(np.intp)
            total += self._distance[i][cell]
        if self._lines:
            forward = self.packed.cells_of(codes)
            for cells, digit, table in self._lines:
                key = np.zeros(codes.shape, dtype=np.int64)
                for c in cells:  # highest power first: cell order matches the table's digits
                    item = ((forward >> U64(4 * c)) & U64(15)).astype(np.intp)
                    key = key * (len(cells) + 1) + digit[item]
                total += table[key]
        return total

    def value(self, state: State) -> int:
        return int(self.lookup(np.array([self.packed.pack(state)], dtype=U64))[0])
