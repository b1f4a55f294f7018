"""The two-blank board: the 7-, 10- and 14-puzzle, drawn by the sliding puzzles' grid board.

The drawing (framed tiles, home-row colours, heavy frames on tiles at home, ★/☆ hint marks,
the compact layout) is `GridBoard`'s; two empty cells side by side simply show as one wide gap.
What differs is how moves are picked: an arrow slides the tile(s) beside the pair into it in
that direction (the two tiles above or below move together), g flips the arrows to move the
pair instead, and a click on a tile beside the pair slides it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType

from kaeru.tui.widgets.boards.grid import OPPOSITE, GridBoard

WHERE = {
    "up": "below the gap to slide up",
    "down": "above the gap to slide down",
    "left": "right of the gap to slide left",
    "right": "left of the gap to slide right",
}


class TwoBlankBoard(GridBoard):
    """Numbered tiles with an empty pair; moves are (direction, tiles) from the puzzle."""

    BOARD_KIND = "two-blank"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "arrow('up')", "Slide up (after g: the gap)", show=False),
        Binding("down,j", "arrow('down')", "Slide down (after g: the gap)", show=False),
        Binding("left,h", "arrow('left')", "Slide left (after g: the gap)", show=False),
        Binding("right,l", "arrow('right')", "Slide right (after g: the gap)", show=False),
        Binding("g", "gap_mode(True)", "Arrows move the gap"),
        Binding("g", "gap_mode(False)", "Arrows move tiles"),
    ]

    # ---- what the grid board asks --------------------------------------------------------------
    def _marks(self) -> tuple[set[int], set[int], set[int]]:
        hint_from: set[int] = set()
        hint_to: set[int] = set()
        if self.hint_move is not None:
            sources, targets = self.puzzle.move_cells(self.state, self.hint_move)
            hint_from, hint_to = set(sources), set(targets)
        return hint_from, hint_to, self.last_cells()

    def last_cells(self) -> set[int]:
        """Cells the tiles of the last move stand on now (the move is already applied)."""
        move = self.last_move
        if not (isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], tuple)):
            return set()
        return {i for i, tile in enumerate(self.state) if tile in move[1]}

    def start_slide(self, before: Any, after: Any) -> None:
        """Animate a single tile jumping across the pair; two tiles moving together just land."""
        self.sliding = None
        self.slide_progress = 1.0
        if not (isinstance(before, tuple) and isinstance(after, tuple)) or before == after:
            return
        changed = [i for i in range(len(after)) if before[i] != after[i]]
        moved = [i for i in changed if after[i] != 0]
        if len(moved) != 1 or self.app.animation_level == "none":
            return
        target = moved[0]
        source = before.index(after[target])
        self.sliding = (after[target], source, target)
        self.slide_progress = 0.0
        self.animate(
            "slide_progress", 1.0, duration=0.12, level="basic", on_complete=self._slide_done
        )

    # ---- keys and clicks -----------------------------------------------------------------------
    def action_arrow(self, direction: str) -> None:
        tile_direction = OPPOSITE[direction] if self.move_gap else direction
        for move in self.puzzle.moves(self.state):
            if move[0] == tile_direction:
                self.choose(move)
                return
        if self.move_gap:
            self.refuse(f"the gap cannot move {direction}: it is at the edge")
        else:
            self.refuse(f"no tile {WHERE[direction]}")

    def on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not the grid board's click: that slides runs of one-gap tiles
        cell = self.cell_at(event.x, event.y)
        if cell is None:
            return
        if self.state[cell] == 0:
            self.refuse("that is the gap: click a tile beside it, or use the arrow keys")
            return
        moves: list[Hashable] = self.moves_from(cell)
        if not moves:
            self.refuse(f"tile {self.state[cell]} cannot slide: it is not beside the gap")
            return
        self.choose(moves[0])
