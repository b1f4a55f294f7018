"""The shape of a W×H sliding board: cells, neighbours, the goal, and the move type.

Cells are numbered row by row from 0 (top left). A state is a tuple of ints, one per cell,
row by row, 0 for the blank. A move names the tile and the way it slides.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import NamedTuple

import numpy as np

MIN_SIDE, MAX_SIDE = 2, 10  # 9×9 and 10×10: answered near-optimally or by the reduction
DIRECTIONS = ("up", "down", "left", "right")
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

State = tuple[int, ...]


class Slide(NamedTuple):
    """A tile sliding one cell `direction` into the gap."""

    tile: int
    direction: str


@dataclass(frozen=True)
class Grid:
    """A board `width` columns by `height` rows."""

    width: int
    height: int

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def blank_goal(self) -> int:
        return self.cells - 1

    @cached_property
    def goal(self) -> State:
        return (*range(1, self.cells), 0)

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)

    def home(self, tile: int) -> int:
        """The cell where `tile` belongs (the blank's is the last cell)."""
        return self.blank_goal if tile == 0 else tile - 1

    def step(self, cell: int, direction: str) -> int | None:
        """The cell one step `direction` from `cell`, or None off the board."""
        r, c = divmod(cell, self.width)
        dr, dc = STEP[direction]
        r, c = r + dr, c + dc
        if 0 <= r < self.height and 0 <= c < self.width:
            return r * self.width + c
        return None

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, its neighbours in DIRECTIONS order (off-board ones left out)."""
        return tuple(
            tuple(n for d in DIRECTIONS if (n := self.step(cell, d)) is not None)
            for cell in range(self.cells)
        )

    @cached_property
    def neighbour_array(self) -> np.ndarray:
        """(cells, 4) int64: the neighbour of each cell in each direction, -1 off the board."""
        out = np.full((self.cells, len(DIRECTIONS)), -1, dtype=np.int64)
        for cell in range(self.cells):
            for k, d in enumerate(DIRECTIONS):
                n = self.step(cell, d)
                if n is not None:
                    out[cell, k] = n
        return out

    def distance(self, a: int, b: int) -> int:
        """Row plus column distance between two cells."""
        ra, ca = divmod(a, self.width)
        rb, cb = divmod(b, self.width)
        return abs(ra - rb) + abs(ca - cb)

    def slides(self, state: State) -> list[Slide]:
        """Legal moves: the tiles next to the blank, in DIRECTIONS order seen from the blank."""
        blank = state.index(0)
        out = []
        for d in DIRECTIONS:
            cell = self.step(blank, d)
            if cell is not None:
                out.append(Slide(state[cell], OPPOSITE[d]))
        return out

    def slide(self, state: State, move: Slide) -> State:
        """The state after `move` (assumed legal)."""
        blank = state.index(0)
        source = self.step(blank, OPPOSITE[move.direction])
        assert source is not None and state[source] == move.tile, f"illegal {move}"
        cells = list(state)
        cells[blank], cells[source] = move.tile, 0
        return tuple(cells)

    def slide_from(self, state: State, blank: int, cell: int) -> Slide:
        """The move that takes the tile on `cell` into the blank on the neighbouring `blank`."""
        for d in DIRECTIONS:
            if self.step(cell, d) == blank:
                return Slide(state[cell], d)
        raise ValueError(f"cell {cell} is not next to the blank on {blank}")


@cache
def grid(width: int, height: int) -> Grid:
    """The shared Grid for a size."""
    return Grid(width, height)
