"""A grid of characters with styles, turned into Rich Text line by line (the grid board's)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text


class Canvas:
    """Characters with styles on a width×height grid; writes past the right edge are dropped."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells: list[list[tuple[str, Style]]] = [
            [(" ", Style())] * width for _ in range(height)
        ]

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        row = self.cells[y]
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (char, style)

    def text(self) -> Text:
        lines = []
        for row in self.cells:
            line = Text()
            for char, style in row:
                line.append(char, style)
            lines.append(line)
        return Text("\n").join(lines)
