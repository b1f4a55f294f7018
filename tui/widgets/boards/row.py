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

from kaeru.engine.layout import BLACK, WHITE, Cell
from kaeru.tui.widgets.board import BoardWidget, arrow_bindings

GLYPHS = {BLACK: "●", WHITE: "○"}


class RowBoard(BoardWidget):
    """A row of cells with a cursor; Enter or Space moves the piece under the cursor."""

    BOARD_KIND = "row"
    BINDINGS: ClassVar[list[BindingType]] = [
        *arrow_bindings({"left": "cursor(-1)", "right": "cursor(1)"}),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
        Binding("enter,space", "move", "Move"),
    ]
    BINDINGS += [Binding(str(k % 10), f"cursor_to({k - 1})", show=False) for k in range(1, 11)]

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
        cells = self.shown.cells
        self.cursor = next((i for i, cell in enumerate(cells) if cell.vacant), 0)

    # ---- geometry ----------------------------------------------------------------------------
    @property
    def cells(self) -> int:
        return len(self.shown.cells)

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
        hint = self.hint_entry()
        if hint is not None:
            hint_from, hint_to = set(hint.sources), set(hint.targets)
        last_move = self.last_entry()
        if last_move is not None:
            last = set(last_move.targets)
        return hint_from, hint_to, last

    def _piece(self, cell: Cell) -> Text:
        if cell.piece in GLYPHS:
            return Text(GLYPHS[cell.piece], self._style(cell.piece))
        if cell.vacant:
            return Text(" ")
        return Text(cell.label, self._style("number"))

    def render(self) -> Text:
        cells = self.shown.cells
        hint_from, hint_to, last = self._marks()
        boxed = self.size.width >= self.boxed_width()
        frame = self._style("frame")
        label = self._style("label")
        line = Text()
        for i, square in enumerate(cells):
            cell = Text(" ")
            cell.append_text(self._piece(square))
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
        for i in range(len(cells)):
            numbers.append(f"{i + 1:^{step - 1}}".ljust(step), label)
            mark = "▲" if i == self.cursor and not self.locked else ""
            mark = "★" if i in hint_from else "☆" if i in hint_to else mark
            marks.append(f"{mark:^{step - 1}}".ljust(step))
        rows = []
        if boxed:
            rows.append(Text("┌" + "┬".join(["───"] * len(cells)) + "┐", frame))
        rows.append(line)
        if boxed:
            rows.append(Text("└" + "┴".join(["───"] * len(cells)) + "┘", frame))
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
        name = self.shown.cells[self.cursor].name
        if self.shown.cells[self.cursor].vacant:
            self.refuse(f"cell {name} is empty: put the cursor on a piece")
            return
        moves = self.shown.moves_from(self.cursor)
        if not moves:
            self.refuse(f"the piece on cell {name} has no legal move")
            return
        self.choose(moves[0].move)

    def on_click(self, event: events.Click) -> None:
        boxed = self.size.width >= self.boxed_width()
        step = 4 if boxed else 3
        x = event.x - 1 - (1 if boxed else 0)  # padding, frame
        cell = x // step
        if 0 <= cell < self.cells:
            self.cursor = cell
            self.refresh()
            self.action_move()
