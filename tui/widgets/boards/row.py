"""The row-of-cells board: Flip It, Oshidori, Frog jump, Number reversal.

Stones are drawn as shapes (● black, bold; ○ white, in the default colour) and numbers as
digits, so the board reads in 16 colours and with NO_COLOR; `v` draws letters instead (B, W, .).
The cursor is reversed and marked ▲ underneath, a hint is marked ★ (from) and ☆ (to), the cells
the last move filled are underlined. The board draws the largest of three forms the room it is
given allows: boxed cells, a compact row with numbers under it, or a tight row whose numbers sit
on two staggered lines (frog jump with 10 a side fits 56 columns). The cursor starts on a piece
that can move and follows the piece it moved.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.strip import Strip

from kaeru.engine.rules.layout import BLACK, WHITE, Cell, Layout
from kaeru.tui.widgets.board import BoardWidget, arrow_bindings
from kaeru.tui.widgets.boards.canvas import Canvas, room

GLYPHS = {BLACK: "●", WHITE: "○", "vacant": "·", "cursor": "▲", "hint_from": "★",
          "hint_to": "☆", "frame": "┌┬┐└┴┘─│"}
LETTERS = {BLACK: "B", WHITE: "W", "vacant": ".", "cursor": "^", "hint_from": "*",
           "hint_to": "+", "frame": "++++++-|"}
PADDING = 2  # columns of the widget's own padding (0 1)
TWO_DIGIT_SECONDS = 1.0  # a second digit this soon after the first names cells 11 and on

FormName = Literal["boxed", "compact", "tight"]


@dataclass(frozen=True)
class RowForm:
    """One way to draw a row of `cells`: cells `step` columns apart.

    boxed:   ┌───┬───┐ / │ ● │ ○ │ / └───┴───┘, numbers, marks (5 lines)
    compact:  ●  ○  ·, numbers, marks, a blank line (4 lines)
    tight:    ● ○ ·, odd cells' numbers, even cells' numbers, marks (4 lines)

    A larger form is never smaller than a smaller one either way (the compact form keeps a
    blank line to be as tall as the tight one), so a board drawn in any form has at least
    `needed_size()`.
    """

    name: FormName
    cells: int
    piece_width: int  # columns of the widest piece (1 for stones)
    step: int

    @property
    def width(self) -> int:
        return self.step * self.cells + (1 if self.name == "boxed" else 0)

    @property
    def height(self) -> int:
        return {"boxed": 5, "compact": 4, "tight": 4}[self.name]

    def piece_x(self, cell: int) -> int:
        """The column a cell's piece starts at."""
        return self.step * cell + (2 if self.name == "boxed" else 1)

    def cell_span(self, cell: int) -> tuple[int, int]:
        """(first column, width) of what the cursor reverses: the inside of a box, a compact
        cell with its spaces, or only the piece in the tight row."""
        if self.name == "tight":
            return self.piece_x(cell), self.piece_width
        start = self.step * cell + (1 if self.name == "boxed" else 0)
        return start, self.step - (1 if self.name == "boxed" else 0)

    def cell_at(self, x: int) -> int | None:
        cell = x // self.step
        return cell if 0 <= cell < self.cells else None


def row_forms(cells: int, piece_width: int) -> list[RowForm]:
    """The forms of a row, largest first; the last one is the smallest."""
    digits = len(str(cells))
    forms = [
        RowForm("boxed", cells, piece_width, max(piece_width + 3, digits + 1)),
        RowForm("compact", cells, piece_width, max(piece_width + 2, digits + 1)),
    ]
    tight = RowForm("tight", cells, piece_width, max(piece_width + 1, -(-(digits + 1) // 2)))
    if tight.width < forms[-1].width:
        forms.append(tight)
    return forms


def first_movable(layout: Layout) -> int:
    """The leftmost cell whose piece has a move (else the first piece, else cell 0)."""
    starts = [entry.sources[0] for entry in layout.moves if entry.sources]
    if starts:
        return min(starts)
    return next((i for i, cell in enumerate(layout.cells) if not cell.vacant), 0)


class RowBoard(BoardWidget):
    """A row of cells with a cursor; Enter or Space moves the piece under the cursor."""

    BOARD_KIND = "row"
    BINDINGS: ClassVar[list[BindingType]] = [
        *arrow_bindings({"left": "cursor(-1)", "right": "cursor(1)"},
                        {"left": "Cursor left", "right": "Cursor right"}),
        Binding("home", "cursor_to(0)", "First cell", show=False, id="board.first"),
        Binding("end", "cursor_to(-1)", "Last cell", show=False, id="board.last"),
        Binding("enter,space", "move", "Move", id="board.move"),
    ]
    BINDINGS += [
        Binding(str(k), f"digit({k})", "Go to cell 1–9, 0 = 10 (two digits: 11 on)" if k == 1
                else "", show=False, id=f"board.digit_{k}")
        for k in range(10)
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "rowboard--frame",
        "rowboard--black",
        "rowboard--white",
        "rowboard--number",
        "rowboard--vacant",
        "rowboard--cursor",
        "rowboard--hint",
        "rowboard--last",
        "rowboard--label",
    }

    DEFAULT_CSS = """
    RowBoard { width: auto; height: auto; padding: 0 1; }
    RowBoard > .rowboard--frame { color: $foreground-muted; }
    RowBoard > .rowboard--black { color: $foreground; text-style: bold; }
    RowBoard > .rowboard--white { color: $foreground; }
    RowBoard > .rowboard--number { color: $foreground; text-style: bold; }
    RowBoard > .rowboard--vacant { color: $foreground-muted; }
    RowBoard > .rowboard--cursor { text-style: reverse bold; }
    RowBoard > .rowboard--hint { color: $accent; text-style: bold; }
    RowBoard > .rowboard--last { text-style: underline; }
    RowBoard > .rowboard--label { color: $foreground-muted; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # the lines drawn for each cursor cell since the last change of anything else (a
        # cursor move only picks them: over SSH it is the key pressed most, see
        # bench/key_cost.py); (cursor, width, height, line) -> the line
        self._drawn: dict[tuple[int, int, int, int], Strip] = {}
        self._cursor_moving = False  # a refresh for a cursor move: the lines drawn stay good
        super().__init__(*args, **kwargs)
        self.cursor = first_movable(self.shown)
        self._digit: tuple[int, float] | None = None  # the last digit typed, and when

    # ---- geometry ----------------------------------------------------------------------------
    @property
    def cells(self) -> int:
        return len(self.shown.cells)

    def forms(self) -> list[RowForm]:
        labels = [len(cell.label) for cell in self.shown.cells if cell.piece not in GLYPHS]
        return row_forms(self.cells, max([1, *labels]))

    def form_for(self, width: int, height: int) -> RowForm:
        """The largest form that fits width × height (the smallest when none does)."""
        forms = self.forms()
        return next((f for f in forms if f.width <= width and f.height <= height), forms[-1])

    @property
    def form(self) -> RowForm:
        """The form drawn now, in the size the board was given."""
        return self.form_for(self.size.width, self.size.height)

    def sizes(self) -> Hashable:
        return tuple(self.forms())

    def needed_size(self) -> tuple[int, int]:
        smallest = self.forms()[-1]
        return smallest.width + PADDING, smallest.height

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.form_for(*room(container, viewport)).width

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.form_for(width, room(container, viewport)[1]).height

    # ---- drawing -----------------------------------------------------------------------------
    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        """Any refresh but a cursor move's (a new position, a mark, the styles, the size, the
        focus…) forgets the lines drawn."""
        if not self._cursor_moving:
            self._drawn.clear()
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    def notify_style_update(self) -> None:
        self._drawn.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        """A line as last drawn with the cursor on this cell, else drawn now."""
        width, height = self.size
        key = (self.cursor, width, height, y)
        line = self._drawn.get(key)
        if line is None:
            line = self._drawn[key] = super().render_line(y)
        return line

    def move_cursor(self, cell: int) -> None:
        """Put the cursor on `cell` and redraw (from the lines drawn, when it was there)."""
        self.cursor = cell
        self._cursor_moving = True
        try:
            self.refresh()
        finally:
            self._cursor_moving = False

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

    def _piece(self, cell: Cell, boxed: bool) -> tuple[str, Style]:
        signs = LETTERS if self.plain else GLYPHS
        if cell.piece in (BLACK, WHITE):
            return signs[cell.piece], self._style(cell.piece)
        if cell.vacant:
            return (" " if boxed else signs["vacant"]), self._style("vacant")
        return cell.label or "?", self._style("number")

    def render(self) -> Text:
        form = self.form
        boxed = form.name == "boxed"
        signs = LETTERS if self.plain else GLYPHS
        canvas = Canvas(form.width, form.height)
        frame, label = self._style("frame"), self._style("label")
        hint_from, hint_to, last = self._marks()
        cursor = None if self.locked else self.cursor
        row = 1 if boxed else 0
        lines = signs["frame"]
        if boxed:
            inner = lines[6] * (form.step - 1)
            canvas.put(0, 0, lines[0] + lines[1].join([inner] * form.cells) + lines[2], frame)
            canvas.put(0, 2, lines[3] + lines[4].join([inner] * form.cells) + lines[5], frame)
        for i, cell in enumerate(self.shown.cells):
            if boxed:
                canvas.put(form.step * i, row, lines[7], frame)
            text, style = self._piece(cell, boxed)
            x = form.piece_x(i)
            canvas.put(x + form.piece_width - len(text), row, text, style)
            start, span = form.cell_span(i)
            if i in hint_from or i in hint_to:
                canvas.stylize(start, row, span, self._style("hint"))
            if i in last:
                canvas.stylize(start, row, span, self._style("last"))
            if i == cursor:
                canvas.stylize(start, row, span, self._style("cursor"))
            number = str(i + 1)
            numbers_row = row + (2 if boxed else 1) + (i % 2 if form.name == "tight" else 0)
            canvas.put(x + form.piece_width - len(number), numbers_row, number, label)
            mark = ("hint_from" if i in hint_from else "hint_to" if i in hint_to
                    else "cursor" if i == cursor else "")
            if mark:
                marks_row = numbers_row + 1 if form.name == "compact" else form.height - 1
                canvas.put(x + (form.piece_width - 1) // 2, marks_row, signs[mark], Style())
        if boxed:
            canvas.put(form.step * form.cells, row, lines[7], frame)
        return canvas.text()

    # ---- a new position: the cursor follows the piece it moved -------------------------------
    def watch_shown(self, layout: Layout) -> None:
        if not self.moved:
            return
        if self.previous is None or len(self.previous.cells) != len(layout.cells):
            self.cursor = first_movable(layout)
            return
        entry = self.last_entry()
        if entry is not None and self.cursor in entry.sources:
            k = entry.sources.index(self.cursor)
            if k < len(entry.targets):
                self.cursor = entry.targets[k]
        if layout.cells[self.cursor].vacant:
            self.cursor = self._nearest_movable(layout)

    def _nearest_movable(self, layout: Layout) -> int:
        """The movable piece nearest the cursor (the left one on a tie); the cursor itself when
        no piece can move."""
        starts = {entry.sources[0] for entry in layout.moves if entry.sources}
        if not starts:
            return self.cursor
        return min(starts, key=lambda cell: (abs(cell - self.cursor), cell))

    # ---- keys and clicks ---------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        self._digit = None
        self.move_cursor((self.cursor + delta) % self.cells)

    def action_cursor_to(self, cell: int) -> None:
        if -self.cells <= cell < self.cells:
            self.move_cursor(cell % self.cells)

    def action_digit(self, digit: int) -> None:
        """1–9 and 0 (= 10) put the cursor on that cell; a second digit typed soon after the
        first names cells 11 and on (1 then 5: cell 15) on rows that long."""
        now = time.monotonic()
        first, self._digit = self._digit, (digit, now)
        if first is not None and now - first[1] <= TWO_DIGIT_SECONDS and first[0] > 0:
            cell = 10 * first[0] + digit
            if 10 < cell <= self.cells:
                self._digit = None
                self.action_cursor_to(cell - 1)
                return
        self.action_cursor_to((digit or 10) - 1)

    def action_move(self) -> None:
        self._digit = None
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
        cell = self.form.cell_at(event.x - PADDING // 2)
        if cell is not None:
            self.move_cursor(cell)
            self.action_move()
