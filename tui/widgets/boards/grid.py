"""The grid board: sliding puzzles of any size drawn as numbered tiles.

Tiles are coloured by their home row so progress shows at a glance; without colour the shape
tells the same: a tile on its home cell has a heavy frame (or [brackets] in the compact
layout). A hint is ★ on the tile and ☆ in the gap; the tile just moved is underlined. Arrow keys
slide the tile beside the gap into it (g flips them to "move the gap", as in Simon Tatham's
Fifteen); a click on a tile in line with the gap slides the whole run. A move slides the tile
across with a short animation, skipped when TEXTUAL_ANIMATIONS=none.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from kaeru.tui.widgets.board import BoardWidget

BOXED = (6, 3)  # (columns, rows) of one tile: a framed box
COMPACT = (4, 1)  # one line per row of tiles
CHROME = 11  # rows the play screen needs around the board
SIDE = 40  # columns of the side panel and margins
SLIDE_SECONDS = 0.12
ROW_COLOURS = 8
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
WHERE = {"up": "below", "down": "above", "left": "right of", "right": "left of"}
LIGHT = ("╭", "─", "╮", "│", "╰", "╯")
HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")


class _Canvas:
    """A grid of characters with styles, turned into Text line by line."""

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


class GridBoard(BoardWidget):
    """Numbered tiles in a W×H frame with one gap."""

    BOARD_KIND = "grid"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "arrow('up')", "Slide a tile up (after g: the gap)", show=False),
        Binding("down,j", "arrow('down')", "Slide a tile down (after g: the gap)", show=False),
        Binding("left,h", "arrow('left')", "Slide a tile left (after g: the gap)", show=False),
        Binding("right,l", "arrow('right')", "Slide a tile right (after g: the gap)", show=False),
        Binding("g", "gap_mode(True)", "Arrows move the gap"),
        Binding("g", "gap_mode(False)", "Arrows move tiles"),
        # a click on a tile in line with the gap slides the whole run (see on_click)
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "gridboard--frame",
        "gridboard--gap",
        "gridboard--hint",
        "gridboard--last",
        "gridboard--home",
        "gridboard--caption",
        "gridboard--tile",
        *(f"gridboard--row-{k}" for k in range(ROW_COLOURS)),
    }

    DEFAULT_CSS = """
    GridBoard { width: auto; height: auto; padding: 0 1; }
    GridBoard > .gridboard--frame { color: $foreground-muted; }
    GridBoard > .gridboard--gap { color: $accent; }
    GridBoard > .gridboard--hint { color: $accent; text-style: bold reverse; }
    GridBoard > .gridboard--last { text-style: underline; }
    GridBoard > .gridboard--home { text-style: bold; }
    GridBoard > .gridboard--caption { color: $foreground-muted; }
    GridBoard > .gridboard--tile { color: $text; }
    GridBoard > .gridboard--row-0 { color: ansi_bright_red; }
    GridBoard > .gridboard--row-1 { color: ansi_bright_green; }
    GridBoard > .gridboard--row-2 { color: ansi_bright_yellow; }
    GridBoard > .gridboard--row-3 { color: ansi_bright_blue; }
    GridBoard > .gridboard--row-4 { color: ansi_bright_magenta; }
    GridBoard > .gridboard--row-5 { color: ansi_bright_cyan; }
    GridBoard > .gridboard--row-6 { color: ansi_red; }
    GridBoard > .gridboard--row-7 { color: ansi_green; }
    """

    move_gap: reactive[bool] = reactive(False)
    slide_progress: reactive[float] = reactive(1.0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns: int = getattr(self.puzzle, "width", 3)
        self.rows: int = getattr(self.puzzle, "height", 3)
        self.sliding: tuple[int, int, int] | None = None  # (tile, from cell, to cell)

    # ---- geometry ------------------------------------------------------------------------------
    def layout_size(self, boxed: bool) -> tuple[int, int]:
        """(columns, rows) of the content: the framed board and the caption line."""
        cw, ch = BOXED if boxed else COMPACT
        return max(self.columns * cw + 2, len(self.caption())), self.rows * ch + 3

    def boxed_fits(self, width: int, height: int) -> bool:
        need_w, need_h = self.layout_size(True)
        return width >= need_w and height >= need_h

    def needed_size(self) -> tuple[int, int]:
        return self.layout_size(False)

    def _boxed_for(self, viewport: Any) -> bool:
        return self.boxed_fits(viewport.width - SIDE, viewport.height - CHROME)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.layout_size(self._boxed_for(viewport))[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.layout_size(self._boxed_for(viewport))[1]

    @property
    def boxed(self) -> bool:
        return self.boxed_fits(self.size.width, self.size.height)

    # ---- animation -----------------------------------------------------------------------------
    def show(
        self,
        state: Hashable,
        *,
        last_move: Hashable | None = None,
        hint: Hashable | None = None,
    ) -> None:
        previous = self.state
        super().show(state, last_move=last_move, hint=hint)
        self.start_slide(previous, state)

    def start_slide(self, before: Any, after: Any) -> None:
        """Animate the tile that moved from `before` to `after`, if exactly one slid."""
        self.sliding = None
        self.slide_progress = 1.0
        if not (isinstance(before, tuple) and isinstance(after, tuple)) or before == after:
            return
        if len(before) != len(after) or 0 not in before or 0 not in after:
            return
        old_gap, new_gap = before.index(0), after.index(0)
        changed = [i for i in range(len(after)) if before[i] != after[i]]
        if sorted(changed) != sorted((old_gap, new_gap)):
            return
        if self.app.animation_level == "none":
            return
        self.sliding = (after[old_gap], new_gap, old_gap)
        self.slide_progress = 0.0
        self.animate("slide_progress", 1.0, duration=SLIDE_SECONDS, level="basic",
                     on_complete=self._slide_done)

    def _slide_done(self) -> None:
        self.sliding = None
        self.refresh()

    def watch_slide_progress(self) -> None:
        self.refresh()

    # ---- drawing -------------------------------------------------------------------------------
    def _style(self, name: str, partial: bool = False) -> Style:
        return self.get_component_rich_style(f"gridboard--{name}", partial=partial)

    def _row_style(self, tile: int) -> Style:
        """The tile's home-row colour; plain text without colour (NO_COLOR), where the rows
        would only turn into greys of uneven contrast."""
        if self.app.no_color:
            return self._style("tile")
        return self._style(f"row-{(self.home_cell(tile) // self.columns) % ROW_COLOURS}")

    def caption(self) -> str:
        return "arrows: the gap (g: tiles)" if self.move_gap else "arrows: tiles (g: the gap)"

    def home_cell(self, tile: int) -> int:
        return tile - 1

    def _marks(self) -> tuple[set[int], set[int], set[int]]:
        hint_from: set[int] = set()
        hint_to: set[int] = set()
        last: set[int] = set()
        if self.hint_move is not None:
            sources, targets = self.puzzle.move_cells(self.state, self.hint_move)
            hint_from, hint_to = set(sources), set(targets)
        move = self.last_move
        if move is not None and isinstance(move, tuple) and move[0] in self.state:
            last = {self.state.index(move[0])}
        return hint_from, hint_to, last

    def render(self) -> Text:
        state: tuple[int, ...] = self.state
        boxed = self.boxed
        cw, ch = BOXED if boxed else COMPACT
        width, height = self.layout_size(boxed)
        canvas = _Canvas(width, height)
        frame = self._style("frame")
        inner_w, inner_h = self.columns * cw, self.rows * ch
        canvas.put(0, 0, "┌" + "─" * inner_w + "┐", frame)
        for y in range(1, inner_h + 1):
            canvas.put(0, y, "│", frame)
            canvas.put(inner_w + 1, y, "│", frame)
        canvas.put(0, inner_h + 1, "└" + "─" * inner_w + "┘", frame)
        canvas.put(0, inner_h + 2, self.caption(), self._style("caption"))
        hint_from, hint_to, last = self._marks()
        moving = self.sliding if self.slide_progress < 1.0 else None
        for cell, tile in enumerate(state):
            x, y = 1 + (cell % self.columns) * cw, 1 + (cell // self.columns) * ch
            if tile == 0 or (moving is not None and tile == moving[0]):
                self._draw_gap(canvas, x, y, cw, ch, cell in hint_to)
            else:
                self._draw_tile(canvas, x, y, boxed, tile, cell, cell in hint_from, cell in last)
        if moving is not None:
            tile, source, target = moving
            p = self.slide_progress
            sx, sy = (source % self.columns) * cw, (source // self.columns) * ch
            tx, ty = (target % self.columns) * cw, (target // self.columns) * ch
            x, y = 1 + round(sx + (tx - sx) * p), 1 + round(sy + (ty - sy) * p)
            self._draw_tile(canvas, x, y, boxed, tile, target, False, True)
        return canvas.text()

    def _draw_gap(self, canvas: _Canvas, x: int, y: int, cw: int, ch: int, marked: bool) -> None:
        style = self._style("gap")
        for dy in range(ch):
            canvas.put(x, y + dy, " " * cw, style)
        if marked:
            canvas.put(x + cw // 2 - 1 + (cw % 2), y + ch // 2, "☆", style)

    def _draw_tile(
        self, canvas: _Canvas, x: int, y: int, boxed: bool, tile: int, cell: int,
        hinted: bool, last: bool,
    ) -> None:
        home = self.home_cell(tile) == cell
        style = self._row_style(tile)
        if home:
            style += self._style("home", partial=True)
        number = style + (self._style("last", partial=True) if last else Style())
        if hinted:
            number += self._style("hint", partial=True)
        mark = "★" if hinted else " "
        if boxed:
            tl, hz, tr, vt, bl, br = HEAVY if home else LIGHT
            canvas.put(x, y, tl + hz * 4 + tr, style)
            canvas.put(x, y + 1, vt, style)
            canvas.put(x + 1, y + 1, f"{mark}{tile:>2} ", number)
            canvas.put(x + 5, y + 1, vt, style)
            canvas.put(x, y + 2, bl + hz * 4 + br, style)
        else:
            left = mark if hinted else "[" if home else " "
            canvas.put(x, y, f"{left}{tile:>2}", number)
            canvas.put(x + 3, y, "]" if home else " ", style)

    # ---- keys and clicks -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "gap_mode":
            return bool(parameters and parameters[0] != self.move_gap)
        return True

    def action_gap_mode(self, on: bool) -> None:
        self.move_gap = on

    def watch_move_gap(self) -> None:
        self.refresh_bindings()
        self.refresh(layout=True)

    def action_arrow(self, direction: str) -> None:
        """Slide the tile that moves `direction` (or, moving the gap, the one it swaps with)."""
        tile_direction = OPPOSITE[direction] if self.move_gap else direction
        for move in self.puzzle.moves(self.state):
            if isinstance(move, tuple) and move[1] == tile_direction:
                self.choose(move)
                return
        if self.move_gap:
            self.refuse(f"the gap cannot move {direction}: it is at the edge")
        else:
            self.refuse(f"no tile {WHERE[direction]} the gap to slide {direction}")

    def cell_at(self, x: int, y: int) -> int | None:
        """The cell under widget coordinates (padding and frame included), or None."""
        cw, ch = BOXED if self.boxed else COMPACT
        col, row = (x - 2) // cw, (y - 1) // ch
        if x < 2 or y < 1 or not (0 <= col < self.columns and 0 <= row < self.rows):
            return None
        return row * self.columns + col

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.slide_run(cell)

    def slide_run(self, cell: int) -> None:
        """Slide the tile on `cell` and every tile between it and the gap, nearest first."""
        state = self.state
        gap = state.index(0)
        if cell == gap:
            self.refuse("that is the gap: click a tile in line with it")
            return
        same_row = cell // self.columns == gap // self.columns
        same_column = cell % self.columns == gap % self.columns
        if not (same_row or same_column):
            self.refuse(f"tile {state[cell]} is not in line with the gap")
            return
        if self.locked:
            self.refuse("playback is running: press t to take over from here")
            return
        step = (1 if cell > gap else -1) * (1 if same_row else self.columns)
        moves = []
        for source in range(gap + step, cell + step, step):
            found = [m for m in self.puzzle.moves(state)
                     if self.puzzle.move_cells(state, m)[0] == (source,)]
            moves.append(found[0])
            state = self.puzzle.apply(state, found[0])
        for move in moves:
            self.choose(move)
