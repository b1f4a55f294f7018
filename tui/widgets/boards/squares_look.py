"""The chessboard look of a "holes" board (knights): squares alternate plain (light) and shaded
`░` (dark), so the checker pattern reads in 16 colours and with NO_COLOR. Knights are ♞ (black,
bold) and ♘ (white), both in the terminal's own foreground, or the letters B and W. Marks, all
by shape: the cursor is framed (bracketed on small squares), the chosen knight is »♞« (reverse),
its targets •, a hint ★♞★ and its target ☆, the last move's knight is underlined and the
square it left shows ·.

Two forms: small squares (5 columns, 1 line), and tall ones (7 × 3, named in their corner)
where the board is given the room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text

from kaeru.engine.rules.layout import KNIGHT_BLACK, KNIGHT_WHITE
from kaeru.tui.widgets.pick_target import PieceWords

if TYPE_CHECKING:
    from kaeru.tui.widgets.boards.holes import HolesBoard

GLYPHS = {KNIGHT_BLACK: "♞", KNIGHT_WHITE: "♘"}
LETTERS = {KNIGHT_BLACK: "B", KNIGHT_WHITE: "W"}
STYLES = {KNIGHT_BLACK: "black", KNIGHT_WHITE: "white"}
DARK_FILL = "░"
# The marks by shape: glyphs, or plain ASCII (v, or KAERU_ASCII / the Glyphs setting).
GLYPH_MARKS = {"dark": DARK_FILL, "target": "•", "hint_to": "☆", "hint_from": "★", "left": "·",
               "chosen": "»«", "frame": "┌┐└┘─│"}
ASCII_MARKS = {"dark": ":", "target": "*", "hint_to": "+", "hint_from": "+", "left": ".",
               "chosen": "><", "frame": "++++-|"}
TALL = (7, 3)  # a square's columns and rows when the terminal has room
SMALL = (5, 1)
RANK_LABEL = 2  # columns for the row numbers on the left
WORDS = PieceWords(
    "knight",
    "on",
    "square",
    "has no empty square to jump to",
    "a knight cannot jump from {source} to {target}",
)


class SquaresLook:
    """Draws a board's cells as the squares of a chessboard."""

    words = WORDS

    def __init__(self, board: HolesBoard) -> None:
        self.board = board

    @property
    def rows(self) -> int:
        return self.board.shown.rows

    @property
    def columns(self) -> int:
        return self.board.shown.columns

    # ---- geometry ----------------------------------------------------------------------------
    def size(self, large: bool) -> tuple[int, int]:
        """(columns, rows) of a form: small squares a line high, or tall framed ones."""
        width, height = TALL if large else SMALL
        return RANK_LABEL + self.columns * width, self.rows * height + 1

    def cell_at(self, x: int, y: int, large: bool) -> int | None:
        width, height = TALL if large else SMALL
        col = (x - 1 - RANK_LABEL) // width  # 1: the left padding
        row = y // height
        if 0 <= col < self.columns and 0 <= row < self.rows and x >= 1 + RANK_LABEL:
            return row * self.columns + col
        return None

    # ---- drawing -----------------------------------------------------------------------------
    def marks(self) -> dict[str, str]:
        return ASCII_MARKS if self.board.plain else GLYPH_MARKS

    def is_dark(self, square: int) -> bool:
        row, col = divmod(square, self.columns)
        return (self.rows - 1 - row + col) % 2 == 0  # a1 is dark, as on a chessboard

    def square_text(self, square: int, width: int, marks: dict[str, Any]) -> Text:
        """The middle line of one square: fill, flanks, the piece or a mark."""
        board = self.board
        style = board.style_of
        cell = board.shown.cells[square]
        dark = self.is_dark(square)
        signs = self.marks()
        fill = signs["dark"] if dark else " "
        base = style("dark" if dark else "light")
        chars = [fill] * width
        styles: list[Style | None] = [None] * width
        mid = width // 2
        if not cell.vacant:
            chars[mid - 1] = chars[mid + 1] = " "
            chars[mid] = (LETTERS if board.plain else GLYPHS).get(cell.piece, "?")
            styles[mid] = style(STYLES.get(cell.piece, "black"))
            if square == marks["last_to"]:
                styles[mid] = (styles[mid] or Style()) + style("last")
        elif square in marks["targets"]:
            chars[mid], styles[mid] = signs["target"], style("target")
        elif square == marks["hint_to"]:
            chars[mid], styles[mid] = signs["hint_to"], style("hint")
        elif square == marks["last_from"]:
            chars[mid] = signs["left"]
        if square == board.selected:
            chars[mid - 1], chars[mid + 1] = signs["chosen"][0], signs["chosen"][1]
            for i in (mid - 1, mid, mid + 1):
                styles[i] = (styles[i] or Style()) + style("selected")
        elif square == marks["hint_from"]:
            chars[mid - 1] = chars[mid + 1] = signs["hint_from"]
            styles[mid - 1] = styles[mid + 1] = style("hint")
        if square == board.cursor and not board.locked and width == SMALL[0]:
            chars[0], chars[-1] = "[", "]"
            styles[0] = styles[-1] = style("cursor")
        text = Text(style=base)
        for char, char_style in zip(chars, styles, strict=True):
            text.append(char, char_style)  # merged with the run before it when alike
        return text

    def frame_line(self, square: int, width: int, line: int) -> Text:
        """A top or bottom line of a tall square: the cursor's frame, or the square's name."""
        board = self.board
        dark = self.is_dark(square)
        base = board.style_of("dark" if dark else "light")
        frame = self.marks()["frame"]
        if square == board.cursor and not board.locked:
            corners = frame[0:2] if line == 0 else frame[2:4]
            left, right = corners[0], corners[1]
            return Text(left + frame[4] * (width - 2) + right, base + board.style_of("cursor"))
        fill = self.marks()["dark"] if dark else " "
        text = Text(fill * width, base)
        if line == 0:
            name = board.shown.cells[square].name
            text = Text(name.ljust(width, fill)[:width], base)
            text.stylize(board.style_of("label"), 0, len(name))
        return text

    def render(self, large: bool) -> Text:
        board = self.board
        scene = board.scene()
        width, height = TALL if large else SMALL
        hint, last = board.hint_entry(), board.last_entry()
        marks = {
            "targets": board.targets(),
            "hint_from": hint.sources[0] if hint else None,
            "hint_to": hint.targets[0] if hint and hint.targets else None,
            "last_from": last.sources[0] if last else None,
            "last_to": last.targets[0] if last and last.targets else None,
        }
        label = board.style_of("label")
        cursor = board.style_of("cursor")
        lines: list[Text] = []
        for row in range(self.rows):
            squares = range(row * self.columns, (row + 1) * self.columns)
            for line in range(height):
                middle_line = line == height // 2
                rank = scene.row_labels[row] if middle_line else ""
                text = Text(f"{rank:<{RANK_LABEL}}", label)
                for square in squares:
                    if middle_line:
                        middle = self.square_text(square, width, marks)
                        if height > 1 and square == board.cursor and not board.locked:
                            side = Text(self.marks()["frame"][5], cursor)
                            middle = side + middle[1:-1] + side
                        text.append_text(middle)
                    else:
                        text.append_text(self.frame_line(square, width, line))
                lines.append(text)
        files = "".join(name.center(width) for name in scene.column_labels)
        lines.append(Text(" " * RANK_LABEL + files, label))
        return Text("\n").join(lines)
