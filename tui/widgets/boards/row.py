"""The row-of-cells board: Flip It, Oshidori, Frog jump, Number reversal.

Stones are drawn as shapes (● black, ○ white) and numbers as digits, so the board reads in 16
colours and with NO_COLOR; the cursor is reversed and marked ▲ underneath, a hint is marked
★ (from) and ☆ (to). Wide terminals get boxed cells, narrow ones a compact row.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType

from kaeru.tui.widgets.board import BoardWidget

GLYPHS = {"B": "●", "W": "○", "_": " "}


class RowBoard(BoardWidget):
    """A row of cells with a cursor; Enter or Space moves the piece under the cursor."""

    BOARD_KIND = "row"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor(-1)", "Left", show=False),
        Binding("right,l", "cursor(1)", "Right", show=False),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
        Binding("enter,space", "move", "Move"),
    ] + [Binding(str(k % 10), f"cursor_to({k - 1})", show=False) for k in range(1, 11)]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "rowboard--frame",
        "rowboard--black",
        "rowboard--white",
        "rowboard--number",
        "rowboard--cursor",
        "rowboard--hint",
        "rowboard--last",
        "rowboard--label",
    }

    DEFAULT_CSS = """
    RowBoard { width: auto; height: auto; padding: 0 1; }
    RowBoard > .rowboard--frame { color: $foreground-muted; }
    RowBoard > .rowboard--black { color: $text; text-style: bold; }
    RowBoard > .rowboard--white { color: $warning; }
    RowBoard > .rowboard--number { color: $text; text-style: bold; }
    RowBoard > .rowboard--cursor { text-style: reverse bold; }
    RowBoard > .rowboard--hint { background: $accent 40%; text-style: underline; }
    RowBoard > .rowboard--last { background: $primary 25%; }
    RowBoard > .rowboard--label { color: $foreground-muted; }
    RowBoard:focus > .rowboard--cursor { text-style: reverse bold; }
    """

    cursor = 0

    def on_mount(self) -> None:
        text = str(self.state)
        self.cursor = text.index("_") if "_" in text else 0

    # ---- geometry ----------------------------------------------------------------------------
    @property
    def cells(self) -> int:
        return len(str(self.state))

    def boxed_width(self) -> int:
        return 4 * self.cells + 1

    def needed_size(self) -> tuple[int, int]:
        return 3 * self.cells + 2, 4

    def get_content_width(self, container: object, viewport: object) -> int:
        return self.boxed_width()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 5 if width >= self.boxed_width() else 3

    # ---- drawing -----------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"rowboard--{name}")

    def _marks(self) -> tuple[set[int], set[int], set[int]]:
        hint_from: set[int] = set()
        hint_to: set[int] = set()
        last: set[int] = set()
        if self.hint_move is not None:
            sources, targets = self.puzzle.move_cells(self.state, self.hint_move)
            hint_from, hint_to = set(sources), set(targets)
        if self.last_move is not None:
            last = set(self.last_move_targets())
        return hint_from, hint_to, last

    def last_move_targets(self) -> tuple[int, ...]:
        move = self.last_move
        if isinstance(move, tuple) and len(move) == 2 and all(isinstance(v, int) for v in move):
            width = getattr(self.puzzle, "width", 1)
            return tuple(range(move[1], move[1] + width))
        return ()

    def _piece(self, char: str) -> Text:
        if char in "BW":
            return Text(GLYPHS[char], self._style("black" if char == "B" else "white"))
        if char == "_":
            return Text(" ")
        return Text(char, self._style("number"))

    def render(self) -> Text:
        state = str(self.state)
        hint_from, hint_to, last = self._marks()
        boxed = self.size.width >= self.boxed_width()
        frame = self._style("frame")
        label = self._style("label")
        line = Text()
        for i, char in enumerate(state):
            cell = Text(" ")
            cell.append_text(self._piece(char))
            cell.append(" ")
            if i in hint_from or i in hint_to:
                cell.stylize(self._style("hint"))
            if i in last:
                cell.stylize(self._style("last"))
            if i == self.cursor and not self.locked:
                cell.stylize(self._style("cursor"))
            if boxed:
                line.append("│", frame)
            line.append_text(cell)
        if boxed:
            line.append("│", frame)
        pad = 2 if boxed else 1
        step = 4 if boxed else 3
        numbers = Text(" " * (pad - 1))
        marks = Text(" " * (pad - 1))
        for i in range(len(state)):
            numbers.append(f"{i + 1:^{step - 1}}".ljust(step), label)
            mark = "▲" if i == self.cursor and not self.locked else ""
            mark = "★" if i in hint_from else "☆" if i in hint_to else mark
            marks.append(f"{mark:^{step - 1}}".ljust(step))
        rows = []
        if boxed:
            rows.append(Text("┌" + "┬".join(["───"] * len(state)) + "┐", frame))
        rows.append(line)
        if boxed:
            rows.append(Text("└" + "┴".join(["───"] * len(state)) + "┘", frame))
            rows.append(numbers)
        rows.append(marks)
        return Text("\n").join(rows)

    # ---- keys and clicks ---------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        self.cursor = (self.cursor + delta) % self.cells
        self.refresh()

    def action_cursor_to(self, cell: int) -> None:
        if cell < self.cells:
            self.cursor = cell % self.cells
            self.refresh()

    def action_move(self) -> None:
        state = str(self.state)
        if state[self.cursor] == "_":
            self.refuse(f"cell {self.cursor + 1} is empty: put the cursor on a piece")
            return
        moves = self.moves_from(self.cursor)
        if not moves:
            self.refuse(f"the piece on cell {self.cursor + 1} has no legal move")
            return
        self.choose(moves[0])

    def on_click(self, event: events.Click) -> None:
        boxed = self.size.width >= self.boxed_width()
        step = 4 if boxed else 3
        x = event.x - 1 - (1 if boxed else 0)  # padding, frame
        cell = x // step
        if 0 <= cell < self.cells:
            self.cursor = cell
            self.refresh()
            self.action_move()
