"""Drawing helpers of the line boards (row, grid, river): a grid of characters with styles turned
into Rich Text line by line, and the room a board is given, from which it picks its form."""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

# rows the play screen keeps around its board: its header and footer (play_layout.CHROME_ROWS),
# the board area's title, status and message (TEXT_ROWS) and a panel's border (BOX)
ROWS_AROUND_BOARD = 9


def room(container: Size, viewport: Size) -> tuple[int, int]:
    """(columns, rows) a board may fill, from what Textual hands `get_content_width/height`:
    the container's width, and its height where the container has one (a container whose
    height follows its content passes 0), never more than the screen less the play screen's
    chrome."""
    rows = viewport.height - ROWS_AROUND_BOARD
    if container.height > 0:
        rows = min(rows, container.height)
    return container.width, rows


class Canvas:
    """Characters with styles on a width×height grid; writes past the edges are dropped."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: list[list[tuple[str, Style]]] = [
            [(" ", Style())] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (char, style)

    def stylize(self, x: int, y: int, width: int, style: Style) -> None:
        """Add `style` over `width` characters already drawn from (x, y)."""
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i in range(max(x, 0), min(x + width, self.width)):
            char, old = row[i]
            row[i] = (char, old + style)

    def text(self) -> Text:
        lines = []
        for row in self.cells:
            line = Text()
            for style, run in groupby(row, key=itemgetter(1)):  # one span per run of a style
                line.append("".join(char for char, _ in run), style)
            lines.append(line)
        return Text("\n").join(lines)
