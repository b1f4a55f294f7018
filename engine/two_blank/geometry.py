"""The two-blank board and its sliding rule, on plain tuples.

A state is a tuple of W*H ints read row by row, 0 for an empty cell; the two empty cells are
always side by side in one row (the "pair"). A move is named by the way the tile(s) travel:

- "right": the tile left of the pair jumps across it (two cells right; the pair moves left),
- "left":  the tile right of the pair jumps across it,
- "down":  the two tiles directly above the pair slide down together,
- "up":    the two tiles directly below the pair slide up together.

Tiles therefore never change column parity: a tile lives in the even or in the odd columns
for ever, which is what makes the reachable space so small (see `engine.two_blank.index`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

BLANK = 0
DIRECTIONS = ("up", "down", "left", "right")  # the order moves are listed in

State = tuple[int, ...]


@dataclass(frozen=True)
class Geometry:
    """A board `width` cells wide and `height` tall, cells numbered row by row from 0."""

    width: int
    height: int

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def tiles(self) -> int:
        return self.cells - 2

    @cached_property
    def pair_cells(self) -> tuple[int, ...]:
        """Every place the pair can be, as its left cell; the pair index counts these."""
        return tuple(r * self.width + c for r in range(self.height) for c in range(self.width - 1))

    @property
    def pair_count(self) -> int:
        return len(self.pair_cells)

    def pair_index(self, left_cell: int) -> int:
        r, c = divmod(left_cell, self.width)
        return r * (self.width - 1) + c

    @cached_property
    def goal(self) -> State:
        """Tiles 1..N in order, the pair at the bottom right."""
        return tuple(range(1, self.tiles + 1)) + (BLANK, BLANK)

    @property
    def goal_pair(self) -> int:
        """The pair index of the goal (the last one: bottom right)."""
        return self.pair_count - 1

    # ---- the rule ------------------------------------------------------------------------------
    def pair_of(self, state: State) -> int:
        """The left cell of the pair."""
        return state.index(BLANK)

    def move_cells(self, left: int, direction: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(cells the moving tiles leave, cells they land on) for the pair at `left`; () when
        the move runs off the board."""
        w = self.width
        r, c = divmod(left, w)
        if direction == "right" and c >= 1:
            return (left - 1,), (left + 1,)
        if direction == "left" and c + 2 < w:
            return (left + 2,), (left,)
        if direction == "down" and r >= 1:
            return (left - w, left - w + 1), (left, left + 1)
        if direction == "up" and r + 1 < self.height:
            return (left + w, left + w + 1), (left, left + 1)
        return (), ()

    def directions(self, left: int) -> list[str]:
        """Legal move directions with the pair at `left`, in DIRECTIONS order."""
        return [d for d in DIRECTIONS if self.move_cells(left, d)[0]]

    def slide(self, state: State, direction: str) -> State:
        """The position after sliding the tile(s) in `direction` (assumed legal)."""
        left = state.index(BLANK)
        sources, targets = self.move_cells(left, direction)
        cells = list(state)
        moving = [state[s] for s in sources]
        for s in sources:
            cells[s] = BLANK
        for t, tile in zip(targets, moving, strict=True):
            cells[t] = tile
        return tuple(cells)
