"""The two-blank board: the 7-, 10- and 14-puzzle drawn as a framed grid of numbered tiles.

The empty pair is drawn as one wide gap (no wall between its two cells), so the pair reads as
a unit in any colour mode. Arrow keys (or h j k l) slide the tile(s) into the gap in that
direction; a click on a tile slides it. Marks that need no colour: a hint is ★ on the tile(s)
to move and ☆ in the gap they go to; the tiles just moved are underlined.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from tui.widgets.board import BoardWidget

BOXED_CELL = 5  # characters inside a cell when each row has its own frame line
COMPACT_CELL = 4
CHROME = 11  # rows the play screen needs around the board (header, title, status, footer)
DIRECTION_WORDS = {
    "up": "below the gap to slide up",
    "down": "above the gap to slide down",
    "left": "right of the gap to slide left",
    "right": "left of the gap to slide right",
}


class TwoBlankBoard(BoardWidget):
    """A grid of tiles with a two-cell gap; arrows slide tiles into the gap."""

    BOARD_KIND = "two-blank"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "slide('up')", "Slide up", show=False),
        Binding("down,j", "slide('down')", "Slide down", show=False),
        Binding("left,h", "slide('left')", "Slide left", show=False),
        Binding("right,l", "slide('right')", "Slide right", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "twoblankboard--frame",
        "twoblankboard--tile",
        "twoblankboard--gap",
        "twoblankboard--hint",
        "twoblankboard--last",
    }

    DEFAULT_CSS = """
    TwoBlankBoard { width: auto; height: auto; padding: 0 1; }
    TwoBlankBoard > .twoblankboard--frame { color: $foreground-muted; }
    TwoBlankBoard > .twoblankboard--tile { color: $text; text-style: bold; }
    TwoBlankBoard > .twoblankboard--gap { background: $surface-darken-1; }
    TwoBlankBoard > .twoblankboard--hint { color: $accent; text-style: bold; }
    TwoBlankBoard > .twoblankboard--last { text-style: bold underline; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns: int = getattr(self.puzzle, "width", 4)
        self.rows: int = getattr(self.puzzle, "height", 3)

    # ---- geometry ------------------------------------------------------------------------------
    def layout_size(self, boxed: bool) -> tuple[int, int]:
        cell = BOXED_CELL if boxed else COMPACT_CELL
        rows = 2 * self.rows + 1 if boxed else self.rows + 2
        return self.columns * (cell + 1) + 1, rows

    def boxed_fits(self, height: int) -> bool:
        return height >= self.layout_size(True)[1]

    def needed_size(self) -> tuple[int, int]:
        return self.layout_size(False)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.layout_size(self.boxed_fits(viewport.height - CHROME))[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.layout_size(self.boxed_fits(viewport.height - CHROME))[1]

    # ---- drawing -------------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"twoblankboard--{name}")

    def _cells(self, move: Any) -> tuple[set[int], set[int]]:
        if move is None:
            return set(), set()
        sources, targets = self.puzzle.move_cells(self.state, move)
        return set(sources), set(targets)

    def _last_targets(self) -> set[int]:
        """Cells the tiles of the last move stand on now (the move is already applied)."""
        move = self.last_move
        if not (isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], tuple)):
            return set()
        return {i for i, tile in enumerate(self.state) if tile in move[1]}

    def cell_text(self, cell: int, width: int, marks: dict[str, set[int]]) -> Text:
        tile = self.state[cell]
        if tile == 0:
            if cell in marks["hint_to"]:
                return Text("☆".center(width), self._style("gap") + self._style("hint"))
            return Text(" " * width, self._style("gap"))
        star = "★" if cell in marks["hint_from"] else " "
        text = Text(star, self._style("hint"))
        style = self._style("tile")
        if cell in marks["last"]:
            style += self._style("last")
        text.append(f"{tile:>2}", style)
        text.append(" " * (width - 3))
        return text

    def render(self) -> Text:
        boxed = self.boxed_fits(self.size.height)
        width = BOXED_CELL if boxed else COMPACT_CELL
        hint_from, hint_to = self._cells(self.hint_move)
        marks = {"hint_from": hint_from, "hint_to": hint_to, "last": self._last_targets()}
        frame = self._style("frame")
        lines = [self.rule(None, 0, width)]
        for row in range(self.rows):
            if row and boxed:
                lines.append(self.rule(row - 1, row, width))
            line = Text("│", frame)
            for col in range(self.columns):
                cell = row * self.columns + col
                line.append_text(self.cell_text(cell, width, marks))
                gap = not self.wall(row, col)
                line.append(" " if gap else "│", self._style("gap") if gap else frame)
            lines.append(line)
        lines.append(self.rule(self.rows - 1, None, width))
        return Text("\n").join(lines)

    def wall(self, row: int, col: int) -> bool:
        """Whether a wall stands right of cell (row, col): not inside the gap."""
        cell = row * self.columns + col
        return col + 1 >= self.columns or not self.state[cell] == self.state[cell + 1] == 0

    def rule(self, above: int | None, below: int | None, width: int) -> Text:
        """The frame line between row `above` and row `below` (None past the edge); the
        junctions follow the walls, so the gap shows as one wide cell."""
        ends = {(False, True): "┌┐", (True, True): "├┤", (True, False): "└┘"}
        left, right = ends[above is not None, below is not None]
        parts = [left]
        for col in range(self.columns):
            parts.append("─" * width)
            if col == self.columns - 1:
                parts.append(right)
                continue
            up = above is not None and self.wall(above, col)
            down = below is not None and self.wall(below, col)
            parts.append(
                {(True, True): "┼", (True, False): "┴", (False, True): "┬"}.get((up, down), "─")
            )
        return Text("".join(parts), self._style("frame"))

    # ---- keys and clicks -----------------------------------------------------------------------
    def action_slide(self, direction: str) -> None:
        for move in self.puzzle.moves(self.state):
            if move[0] == direction:
                self.choose(move)
                return
        self.refuse(f"no tile {DIRECTION_WORDS[direction]}")

    def on_click(self, event: events.Click) -> None:
        boxed = self.boxed_fits(self.size.height)
        width = (BOXED_CELL if boxed else COMPACT_CELL) + 1
        col = (event.x - 2) // width  # padding and the left wall
        row = (event.y - 1) // 2 if boxed else event.y - 1
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return
        cell = row * self.columns + col
        if self.state[cell] == 0:
            self.refuse("that is the gap: click a tile beside it, or use the arrow keys")
            return
        moves = self.moves_from(cell)
        if not moves:
            self.refuse(f"tile {self.state[cell]} cannot slide: it is not beside the gap")
            return
        self.choose(moves[0])
