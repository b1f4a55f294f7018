"""The knight board: a small chessboard for the knight-exchange puzzles.

Squares alternate plain (light) and shaded `░` (dark), so the checker pattern reads in 16
colours and with NO_COLOR. Knights are ♞ (black) and ♘ (white), or the letters B and W (press
g, or set KAERU_ASCII). Enter picks the knight under the cursor, then jumps it to a target
(marked •); typing a square's name (a4, then c3) does the same. Marks, all by shape: the cursor
is framed (bracketed on small terminals), the chosen knight is »♞«, a hint is ★♞★ and its
target ☆, the last move's knight is underlined and the square it left shows ·.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType

from kaeru.tui.widgets.board import BoardWidget

GLYPHS = {"B": "♞", "W": "♘"}
LETTERS = {"B": "B", "W": "W"}
NAMES = {"B": "black", "W": "white"}
EMPTY = "_"
DARK_FILL = "░"
TALL = (7, 3)  # a square's columns and rows when the terminal has room
SMALL = (5, 1)
RANK_LABEL = 2  # columns for the rank numbers on the left
FILES = "abcdef"
CHROME = 11  # rows the play screen needs around the board (header, title, status, footer)


class KnightBoard(BoardWidget):
    """A grid of squares with a cursor; Enter picks a knight, then where it jumps."""

    BOARD_KIND = "knights"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1, 0)", "Up", show=False),
        Binding("down,j", "cursor(1, 0)", "Down", show=False),
        Binding("left,h", "cursor(0, -1)", "Left", show=False),
        Binding("right,l", "cursor(0, 1)", "Right", show=False),
        Binding("enter,space", "act", "Pick / jump"),
        Binding("escape", "drop", "Drop the knight", show=False),
        Binding("g", "toggle_glyphs", "Glyphs/letters", show=False),
    ]
    BINDINGS += [
        Binding(f, f"file({i})", "type a square (a4, c3): pick or jump there" if i == 0 else "",
                show=False)
        for i, f in enumerate(FILES)
    ]
    BINDINGS += [Binding(str(r), f"rank({r})", show=False) for r in range(1, 9)]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "knightboard--light",
        "knightboard--dark",
        "knightboard--black",
        "knightboard--white",
        "knightboard--cursor",
        "knightboard--selected",
        "knightboard--target",
        "knightboard--hint",
        "knightboard--last",
        "knightboard--label",
    }

    DEFAULT_CSS = """
    KnightBoard { width: auto; height: auto; padding: 0 1; }
    KnightBoard > .knightboard--light { background: $surface-lighten-2; color: $foreground; }
    KnightBoard > .knightboard--dark { background: $surface-darken-1; color: $foreground-muted; }
    KnightBoard > .knightboard--black { color: $text; text-style: bold; }
    KnightBoard > .knightboard--white { color: $warning; text-style: bold; }
    KnightBoard > .knightboard--cursor { color: $accent; text-style: bold; }
    KnightBoard > .knightboard--selected { text-style: reverse bold; }
    KnightBoard > .knightboard--target { color: $success; text-style: bold; }
    KnightBoard > .knightboard--hint { color: $accent; text-style: bold; }
    KnightBoard > .knightboard--last { text-style: bold underline; }
    KnightBoard > .knightboard--label { color: $foreground-muted; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns: int = getattr(self.puzzle, "width", 3)
        self.rows: int = getattr(self.puzzle, "height", 3)
        self.cursor = self._first_knight()
        self.selected: int | None = None
        self.file_typed = False  # a file letter was just typed: a rank digit completes a square
        self.plain = bool(os.environ.get("KAERU_ASCII"))

    def _first_knight(self) -> int:
        text = str(self.state)
        return next((i for i, c in enumerate(text) if c != EMPTY), 0)

    # ---- geometry -------------------------------------------------------------------------------
    def square_size(self, height: int | None = None) -> tuple[int, int]:
        """TALL when `height` rows (the widget's, else the terminal's) hold the big board."""
        if height is None:
            height = self.app.size.height - CHROME if self.is_attached else 0
        return TALL if height >= self.rows * TALL[1] + 1 else SMALL

    def board_size(self, square: tuple[int, int]) -> tuple[int, int]:
        return RANK_LABEL + self.columns * square[0], self.rows * square[1] + 1

    def needed_size(self) -> tuple[int, int]:
        return self.board_size(SMALL)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.board_size(self.square_size(viewport.height - CHROME))[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.board_size(self.square_size(viewport.height - CHROME))[1]

    # ---- what each square shows ------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"knightboard--{name}")

    def targets(self) -> dict[int, Any]:
        """Squares the chosen knight can jump to, with the move for each."""
        if self.selected is None:
            return {}
        found = {}
        for move in self.puzzle.moves(self.state):
            sources, ends = self.puzzle.move_cells(self.state, move)
            if sources == (self.selected,):
                found[ends[0]] = move
        return found

    def _cells_of(self, move: Any) -> tuple[int | None, int | None]:
        if move is None:
            return None, None
        sources, ends = self.puzzle.move_cells(self.state, move)
        return (sources[0] if sources else None), (ends[0] if ends else None)

    def is_dark(self, square: int) -> bool:
        row, col = divmod(square, self.columns)
        return (self.rows - 1 - row + col) % 2 == 0  # a1 is dark, as on a chessboard

    def square_text(self, square: int, width: int, marks: dict[str, Any]) -> Text:
        """The middle line of one square: fill, flanks, the piece or a mark."""
        piece = str(self.state)[square]
        dark = self.is_dark(square)
        fill = DARK_FILL if dark else " "
        base = self._style("dark" if dark else "light")
        chars = [fill] * width
        styles: list[Style | None] = [None] * width
        mid = width // 2
        if piece != EMPTY:
            chars[mid - 1] = chars[mid + 1] = " "
            chars[mid] = (LETTERS if self.plain else GLYPHS)[piece]
            styles[mid] = self._style(NAMES[piece])
            if square == marks["last_to"]:
                styles[mid] = styles[mid] + self._style("last")
        elif square in marks["targets"]:
            chars[mid], styles[mid] = "•", self._style("target")
        elif square == marks["hint_to"]:
            chars[mid], styles[mid] = "☆", self._style("hint")
        elif square == marks["last_from"]:
            chars[mid] = "·"
        if square == self.selected:
            chars[mid - 1], chars[mid + 1] = "»", "«"
            for i in (mid - 1, mid, mid + 1):
                styles[i] = (styles[i] or Style()) + self._style("selected")
        elif square == marks["hint_from"]:
            chars[mid - 1] = chars[mid + 1] = "★"
            styles[mid - 1] = styles[mid + 1] = self._style("hint")
        if square == self.cursor and not self.locked and width == SMALL[0]:
            chars[0], chars[-1] = "[", "]"
            styles[0] = styles[-1] = self._style("cursor")
        text = Text()
        for char, style in zip(chars, styles, strict=True):
            text.append(char, base + style if style else base)
        return text

    def frame_line(self, square: int, width: int, line: int) -> Text:
        """A top or bottom line of a tall square: the cursor's frame, or the square's name."""
        dark = self.is_dark(square)
        base = self._style("dark" if dark else "light")
        if square == self.cursor and not self.locked:
            left, right = ("┌", "┐") if line == 0 else ("└", "┘")
            return Text(left + "─" * (width - 2) + right, base + self._style("cursor"))
        fill = DARK_FILL if dark else " "
        text = Text(fill * width, base)
        if line == 0:
            name = self.puzzle.square_name(square) if hasattr(self.puzzle, "square_name") else ""
            text = Text(name.ljust(width, fill)[:width], base)
            text.stylize(self._style("label"), 0, len(name))
        return text

    def render(self) -> Text:
        width, height = self.square_size(self.size.height)
        hint_from, hint_to = self._cells_of(self.hint_move)
        last_from, last_to = self._cells_of(self.last_move)
        marks = {
            "targets": self.targets(),
            "hint_from": hint_from,
            "hint_to": hint_to,
            "last_from": last_from,
            "last_to": last_to,
        }
        label = self._style("label")
        lines: list[Text] = []
        for row in range(self.rows):
            squares = range(row * self.columns, (row + 1) * self.columns)
            for line in range(height):
                middle_line = line == height // 2
                text = Text(f"{self.rows - row if middle_line else '':<{RANK_LABEL}}", label)
                for square in squares:
                    if line == height // 2:
                        middle = self.square_text(square, width, marks)
                        if height > 1 and square == self.cursor and not self.locked:
                            cursor = self._style("cursor")
                            middle = Text("│", cursor) + middle[1:-1] + Text("│", cursor)
                        text.append_text(middle)
                    else:
                        text.append_text(self.frame_line(square, width, line))
                lines.append(text)
        files = "".join(FILES[c].center(width) for c in range(self.columns))
        lines.append(Text(" " * RANK_LABEL + files, label))
        return Text("\n").join(lines)

    # ---- state changes ---------------------------------------------------------------------------
    def watch_state(self, state: Any) -> None:
        self.selected = None

    def watch_locked(self, locked: bool) -> None:
        self.selected = None
        self.refresh()

    # ---- keys and clicks -------------------------------------------------------------------------
    def action_cursor(self, rows: int, columns: int) -> None:
        row, col = divmod(self.cursor, self.columns)
        row, col = (row + rows) % self.rows, (col + columns) % self.columns
        self.cursor = row * self.columns + col
        self.refresh()

    def action_file(self, col: int) -> None:
        if col < self.columns:
            self.cursor = self.cursor - self.cursor % self.columns + col
            self.file_typed = True
            self.refresh()

    def action_rank(self, rank: int) -> None:
        """Go to that rank; after a file letter (a square's name, `c3`), act there too."""
        typed, self.file_typed = self.file_typed, False
        if rank <= self.rows:
            self.cursor = (self.rows - rank) * self.columns + self.cursor % self.columns
            self.refresh()
            if typed:
                self.action_act()

    def on_key(self, event: events.Key) -> None:
        if event.key not in FILES and not event.key.isdigit():
            self.file_typed = False

    def action_toggle_glyphs(self) -> None:
        self.plain = not self.plain
        self.refresh()

    def action_drop(self) -> None:
        if self.selected is None:
            raise SkipAction()  # let Escape go back or cancel, as elsewhere
        self.selected = None
        self.refresh()

    def action_act(self) -> None:
        """Pick up the knight under the cursor, or jump the chosen one to the cursor."""
        if self.locked:
            self.choose(None)  # the base class explains that playback is running
            return
        here = self.cursor
        name = self.square_label(here)
        if self.selected is not None:
            if here == self.selected:
                self.selected = None
                self.refresh()
                return
            move = self.targets().get(here)
            if move is not None:
                self.cursor = here
                self.choose(move)
                return
            if str(self.state)[here] == EMPTY:
                reason = self.puzzle.explain_illegal(self.state, (self.selected, here))
                self.refuse(reason)
                return
        if str(self.state)[here] == EMPTY:
            self.refuse(f"{name} is empty: put the cursor on a knight first")
            return
        if not self.moves_from(here):
            self.refuse(f"the knight on {name} has no empty square to jump to")
            return
        self.selected = here
        self.refresh()

    def square_label(self, square: int) -> str:
        if hasattr(self.puzzle, "square_name"):
            return str(self.puzzle.square_name(square))
        return f"square {square + 1}"

    def on_click(self, event: events.Click) -> None:
        width, height = self.square_size(self.size.height)
        col = (event.x - 1 - RANK_LABEL) // width  # 1: the left padding
        row = event.y // height
        if 0 <= col < self.columns and 0 <= row < self.rows:
            self.cursor = row * self.columns + col
            self.action_act()
