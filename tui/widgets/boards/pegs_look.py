"""The peg-hole look of a "holes" board: peg solitaire on the English cross, the French
octagon and the triangle, each in its true shape (the triangle's rows offset by half a hole).

Everything reads by shape, so it works in 16 colours and with NO_COLOR: a peg is ●, an empty
hole ·, the cursor is bracketed [●], the chosen peg ◉, the holes it can jump to ○, a hint ★ (the
peg) and ☆ (where it lands), the peg that last moved is underlined and the peg it jumped shows ✕
(so playback shows each jumped peg leaving). Letters o . @ + * ^ x stand in for them when
glyphs are off.

Two forms: the compact one draws a line a row of holes (the English board in 30×8 with its
row numbers and column letters); the large one leaves a line between rows, which gives the
boards their true proportions, where the board is given the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text

from kaeru.engine.rules.layout import Cell
from kaeru.tui.widgets.pick_target import PieceWords

if TYPE_CHECKING:
    from kaeru.tui.widgets.boards.holes import HolesBoard

GLYPHS = {
    "peg": "●",
    "hole": "·",
    "chosen": "◉",
    "target": "○",
    "hint_from": "★",
    "hint_to": "☆",
    "jumped": "✕",
}
LETTERS = {
    "peg": "o",
    "hole": ".",
    "chosen": "@",
    "target": "+",
    "hint_from": "*",
    "hint_to": "^",
    "jumped": "x",
}
STEP = 2  # characters per half hole across
LABEL = 3  # columns for the row numbers on the left
LINES = {False: 1, True: 2}  # lines per row of holes: compact, large (rows spaced out)
WORDS = PieceWords(
    "peg",
    "in",
    "hole",
    "has no jump: it needs a neighbour and an empty hole beyond it",
    "the peg in {source} cannot jump to {target}",
)


class PegsLook:
    """Draws a board's cells as peg holes at their places."""

    words = WORDS

    def __init__(self, board: HolesBoard) -> None:
        self.board = board

    # ---- geometry ----------------------------------------------------------------------------
    def size(self, large: bool) -> tuple[int, int]:
        """(columns, rows) of a form: the compact one a line a row of holes, the large one
        with a line between rows (a truer shape); the column letters below."""
        shown = self.board.shown
        width = LABEL + STEP * (shown.columns - 1) + 3
        return width, LINES[large] * (shown.rows - 1) + 2

    def hole_at(self, column: int, row: int) -> int | None:
        for index, cell in enumerate(self.board.shown.cells):
            if (cell.col, cell.row) == (column, row):
                return index
        return None

    def cell_at(self, x: int, y: int, large: bool) -> int | None:
        column = x - 1 - LABEL  # 1: the left padding
        row, between = divmod(y, LINES[large])
        if column < 0 or between:
            return None
        hole = self.hole_at(column // STEP, row)
        if hole is None:
            hole = self.hole_at((column - 1) // STEP, row)
        return hole

    # ---- drawing -----------------------------------------------------------------------------
    def mark_of(self, hole: int, cell: Cell, marks: dict[str, Any]) -> tuple[str, Style]:
        """The glyph and style of one hole."""
        board = self.board
        style = board.style_of
        glyphs = LETTERS if board.plain else GLYPHS
        peg = not cell.vacant
        if hole == board.selected:
            return glyphs["chosen"], style("selected")
        if hole in marks["targets"]:
            return glyphs["target"], style("target")
        if hole == marks["hint_from"]:
            return glyphs["hint_from"], style("hint")
        if hole == marks["hint_to"]:
            return glyphs["hint_to"], style("hint")
        if not peg and hole in marks["jumped"]:
            return glyphs["jumped"], style("jumped")
        if peg:
            peg_style = style("peg")
            if hole == marks["last_to"]:
                peg_style += style("last")
            return glyphs["peg"], peg_style
        return glyphs["hole"], style("hole")

    def render(self, large: bool) -> Text:
        board = self.board
        scene = board.scene()
        hint, last = board.hint_entry(), board.last_entry()
        marks = {
            "targets": board.targets(),
            "hint_from": hint.sources[0] if hint else None,
            "hint_to": hint.targets[0] if hint and hint.targets else None,
            "jumped": set(last.sources[1:]) if last else set(),
            "last_to": last.targets[0] if last and last.targets else None,
        }
        label = board.style_of("label")
        cursor = board.style_of("cursor")
        width = self.size(large)[0]
        cells = board.shown.cells
        lines = []
        for row, row_label in enumerate(scene.row_labels):
            chars: list[tuple[str, Style | None]] = [(" ", None)] * (width - LABEL)
            for hole, cell in enumerate(cells):
                if cell.row != row:
                    continue
                column = STEP * cell.col
                chars[column + 1] = self.mark_of(hole, cell, marks)
                if hole == board.cursor and not board.locked:
                    chars[column] = ("[", cursor)
                    chars[column + 2] = ("]", cursor)
            text = Text(f"{row_label:>2} ", label)
            for char, style in chars:
                text.append(char, style)
            if row and large:
                lines.append(Text(""))
            lines.append(text)
        if scene.column_labels:
            footer = " " * (LABEL + 1) + "   ".join(scene.column_labels)
        else:
            footer = " " * LABEL + scene.note
        lines.append(Text(footer[:width], label))
        return Text("\n").join(lines)
