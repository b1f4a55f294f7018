"""The grid board: sliding puzzles of any size, and the two-blank 7-, 10- and 14-puzzles,
drawn as numbered tiles in a frame.

Tiles are coloured by their home row so progress shows at a glance; without colour the shape
tells the same: a tile on its home cell has a heavy frame (or [brackets] in the compact
layout). A hint is ★ on the (reversed) tile and ☆ in the gap; the tile just moved is underlined.
`v` draws plain ASCII frames and marks. Arrow keys slide the tile(s) beside the gap into it that
way (x flips them to "move the gap", as in Simon Tatham's Fifteen). With one gap a click on a
tile in line with it slides the whole run, one move after another; with an empty pair a click
slides the tile(s) beside it. A single tile's move slides it across with a short animation,
skipped when TEXTUAL_ANIMATIONS=none.

The boxed tiles are drawn when the room the board is given holds them, else the compact form
(one line a row: the 63-puzzle fits 56×11).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from kaeru.engine.rules.layout import Layout, LayoutMove
from kaeru.tui.widgets.board import BoardWidget, arrow_bindings
from kaeru.tui.widgets.boards.canvas import Canvas, room

BOXED = (6, 3)  # (columns, rows) of one tile: a framed box
COMPACT = (4, 1)  # one line per row of tiles
PADDING = 2  # columns of the widget's own padding (0 1)
SLIDE_SECONDS = 0.12
ROW_COLOURS = 8
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
WHERE = {"up": "below", "down": "above", "left": "right of", "right": "left of"}
LIGHT = ("╭", "─", "╮", "│", "╰", "╯")
HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")
FRAME = ("┌", "─", "┐", "│", "└", "┘")
GLYPHS = {"light": LIGHT, "heavy": HEAVY, "frame": FRAME, "hint_from": "★", "hint_to": "☆"}
LETTERS = {"light": ("+", "-", "+", "|", "+", "+"), "heavy": ("#", "=", "#", "#", "#", "#"),
           "frame": ("+", "-", "+", "|", "+", "+"), "hint_from": "*", "hint_to": "+"}


def direction_of(layout: Layout, entry: LayoutMove) -> str:
    """Which way a move carries its first piece: up, down, left or right."""
    source, target = layout.cells[entry.sources[0]], layout.cells[entry.targets[0]]
    if target.row != source.row:
        return "down" if target.row > source.row else "up"
    return "right" if target.col > source.col else "left"


class GridBoard(BoardWidget):
    """Numbered tiles in a W×H frame with one gap or an empty pair."""

    BOARD_KIND = "grid"
    BINDINGS: ClassVar[list[BindingType]] = [
        *arrow_bindings(
            {way: f"arrow('{way}')" for way in OPPOSITE},
            {way: f"Slide a tile {way} (after x: the gap)" for way in OPPOSITE},
        ),
        Binding("x", "gap_mode(True)", "Arrows move the gap", id="board.gap_mode"),
        Binding("x", "gap_mode(False)", "Arrows move tiles", id="board.gap_mode"),
        # a click on a tile slides it, or the run between it and the gap (see on_click)
        # a tile's number slides it the same way; Enter (or Space) after a number that a
        # longer one could go on from ("1" on the 15-puzzle: 1, or 10 to 15?)
        *[Binding(str(k), f"tile_digit({k})", "Type a tile's number: it slides" if k == 1
                  else "", show=False, id=f"board.tile_digit_{k}") for k in range(10)],
        Binding("enter,space", "slide_typed", "Slide the tile typed", show=False,
                id="board.slide_typed"),
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
    GridBoard > .gridboard--hint { text-style: bold reverse; }
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
        self.sliding: tuple[str, int, int] | None = None  # (tile, from cell, to cell)
        self.run_to: tuple[int, Hashable] | None = None  # a clicked run: its far cell, last move
        self.typed = ""  # the digits of a tile's number typed so far
        self._styles: dict[tuple[str, bool], Style] = {}  # looked up this frame

    @property
    def columns(self) -> int:
        return self.shown.columns

    @property
    def rows(self) -> int:
        return self.shown.rows

    def gaps(self) -> list[int]:
        return [i for i, cell in enumerate(self.shown.cells) if cell.vacant]

    # ---- geometry ------------------------------------------------------------------------------
    def layout_size(self, boxed: bool) -> tuple[int, int]:
        """(columns, rows) of the content: the framed board and the caption line."""
        cw, ch = BOXED if boxed else COMPACT
        return max(self.columns * cw + 2, len(self.caption(boxed))), self.rows * ch + 3

    def boxed_fits(self, width: int, height: int) -> bool:
        need_w, need_h = self.layout_size(True)
        return width >= need_w and height >= need_h

    def sizes(self) -> Hashable:
        return self.layout_size(True), self.layout_size(False)

    def needed_size(self) -> tuple[int, int]:
        width, height = self.layout_size(False)
        return width + PADDING, height

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.layout_size(self.boxed_fits(*room(container, viewport)))[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        rows = room(container, viewport)[1]
        return self.layout_size(self.boxed_fits(width, rows))[1]

    @property
    def boxed(self) -> bool:
        return self.boxed_fits(self.size.width, self.size.height)

    # ---- a new position: animation, and the next move of a clicked run -------------------------
    def watch_shown(self, layout: Layout) -> None:
        if not self.moved or self.previous is None:
            return
        self.start_slide(self.previous, layout)
        run, self.run_to = self.run_to, None
        if run is not None and self.last_move is not None and self.last_move == run[1]:
            self.slide_run(run[0])

    def start_slide(self, before: Layout, after: Layout) -> None:
        """Animate the tile that moved from `before` to `after`, if exactly one did."""
        self.sliding = None
        self.slide_progress = 1.0
        if before == after or len(before.cells) != len(after.cells):
            return
        old = {cell.label: i for i, cell in enumerate(before.cells) if not cell.vacant}
        moved = [
            (cell.label, old[cell.label], i)
            for i, cell in enumerate(after.cells)
            if not cell.vacant and cell.label in old and old[cell.label] != i
        ]
        if len(moved) != 1 or self.app.animation_level == "none":
            return
        self.sliding = moved[0]
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
        """A component style, looked up once a render (an 8x8 board asks ~70 times a frame,
        and each look-up walks the stylesheet: while a long solution played back, the app's
        keys waited on it)."""
        key = (name, partial)
        found = self._styles.get(key)
        if found is None:
            found = self._styles[key] = self.get_component_rich_style(
                f"gridboard--{name}", partial=partial)
        return found

    def _row_style(self, home: int) -> Style:
        """The tile's home-row colour; plain text without colour (NO_COLOR), where the rows
        would only turn into greys of uneven contrast."""
        if self.app.no_color:
            return self._style("tile")
        return self._style(f"row-{(home // self.columns) % ROW_COLOURS}")

    def caption(self, boxed: bool) -> str:
        """What the arrows move; the boxed form names the x key too. (The compact caption is
        short, so the compact form is always narrower than the boxed one: a board held to its
        needed width draws compact.)"""
        if self.picture:
            return ""
        if not boxed:
            return "arrows: the gap" if self.move_gap else "arrows: tiles"
        return "arrows: the gap (x: tiles)" if self.move_gap else "arrows: tiles (x: the gap)"

    @property
    def signs(self) -> dict[str, Any]:
        """Frames and marks: box drawing and stars, or plain ASCII after `v`."""
        return LETTERS if self.plain else GLYPHS

    def _marks(self) -> tuple[set[int], set[int], set[int]]:
        hint_from: set[int] = set()
        hint_to: set[int] = set()
        hint = self.hint_entry()
        if hint is not None:
            hint_from, hint_to = set(hint.sources), set(hint.targets)
        last = self.last_entry()
        return hint_from, hint_to, set(last.targets) if last is not None else set()

    def render(self) -> Text:
        self._styles = {}  # looked up afresh each frame (the theme may have changed)
        cells = self.shown.cells
        boxed = self.boxed
        cw, ch = BOXED if boxed else COMPACT
        width, height = self.layout_size(boxed)
        canvas = Canvas(width, height)
        frame = self._style("frame")
        inner_w, inner_h = self.columns * cw, self.rows * ch
        tl, hz, tr, vt, bl, br = self.signs["frame"]
        canvas.put(0, 0, tl + hz * inner_w + tr, frame)
        for y in range(1, inner_h + 1):
            canvas.put(0, y, vt, frame)
            canvas.put(inner_w + 1, y, vt, frame)
        canvas.put(0, inner_h + 1, bl + hz * inner_w + br, frame)
        canvas.put(0, inner_h + 2, self.caption(boxed), self._style("caption"))
        hint_from, hint_to, last = self._marks()
        moving = self.sliding if self.slide_progress < 1.0 else None
        homes = {cell.label: cell.home for cell in cells}
        for i, cell in enumerate(cells):
            x, y = 1 + (i % self.columns) * cw, 1 + (i // self.columns) * ch
            if cell.vacant or (moving is not None and cell.label == moving[0]):
                self._draw_gap(canvas, x, y, cw, ch, i in hint_to)
            else:
                self._draw_tile(canvas, x, y, boxed, cell.label, cell.home, i, i in hint_from,
                                i in last)
        if moving is not None:
            label, source, target = moving
            p = self.slide_progress
            sx, sy = (source % self.columns) * cw, (source // self.columns) * ch
            tx, ty = (target % self.columns) * cw, (target // self.columns) * ch
            x, y = 1 + round(sx + (tx - sx) * p), 1 + round(sy + (ty - sy) * p)
            self._draw_tile(canvas, x, y, boxed, label, homes.get(label), target, False, True)
        return canvas.text()

    def _draw_gap(self, canvas: Canvas, x: int, y: int, cw: int, ch: int, marked: bool) -> None:
        style = self._style("gap")
        for dy in range(ch):
            canvas.put(x, y + dy, " " * cw, style)
        if marked:
            canvas.put(x + cw // 2 - 1 + (cw % 2), y + ch // 2, self.signs["hint_to"], style)

    def _draw_tile(
        self, canvas: Canvas, x: int, y: int, boxed: bool, label: str, home: int | None,
        cell: int, hinted: bool, last: bool,
    ) -> None:
        at_home = home == cell
        style = self._row_style(home if home is not None else cell)
        if at_home:
            style += self._style("home", partial=True)
        number = style + (self._style("last", partial=True) if last else Style())
        if hinted:
            number += self._style("hint", partial=True)
        mark = self.signs["hint_from"] if hinted else " "
        if boxed:
            tl, hz, tr, vt, bl, br = self.signs["heavy" if at_home else "light"]
            canvas.put(x, y, tl + hz * 4 + tr, style)
            canvas.put(x, y + 1, vt, style)
            canvas.put(x + 1, y + 1, f"{mark}{label:>2} ", number)
            canvas.put(x + 5, y + 1, vt, style)
            canvas.put(x, y + 2, bl + hz * 4 + br, style)
        else:
            left = mark if hinted else "[" if at_home else " "
            canvas.put(x, y, f"{left}{label:>2}", number)
            canvas.put(x + 3, y, "]" if at_home else " ", style)

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
        """Slide the tile(s) that move `direction` (or, moving the gap, the opposite way)."""
        self.run_to = None
        tile_direction = OPPOSITE[direction] if self.move_gap else direction
        for entry in self.shown.moves:
            if direction_of(self.shown, entry) == tile_direction:
                self.choose(entry.move)
                return
        if self.move_gap:
            self.refuse(f"the gap cannot move {direction}: it is at the edge")
        else:
            self.refuse(f"no tile {WHERE[direction]} the gap to slide {direction}")

    def action_tile_digit(self, digit: int) -> None:
        """A digit of a tile's number: the tile slides as soon as no other number goes on
        from what was typed, else on Enter (or when the next digit makes it whole)."""
        typed = self.typed + str(digit)
        labels = {cell.label for cell in self.shown.cells if not cell.vacant}
        longer = [label for label in labels if label.startswith(typed) and label != typed]
        if not longer and typed not in labels:
            self.typed = ""
            self.refuse(f"there is no tile {typed}")
            return
        if longer:
            self.typed = typed  # "1" of the 15-puzzle: Enter slides 1, a digit more 10–15
            return
        self.typed = ""
        self.slide_label(typed)

    def action_slide_typed(self) -> None:
        typed, self.typed = self.typed, ""
        if not typed:
            self.refuse("type a tile's number to slide it (Enter after it where a longer "
                        "number could follow), or use the arrow keys")
            return
        self.slide_label(typed)

    def slide_label(self, label: str) -> None:
        cell = next(i for i, c in enumerate(self.shown.cells) if c.label == label and not c.vacant)
        self.slide_run(cell)

    def on_key(self, event: events.Key) -> None:
        if not (event.character or "").isdigit() and event.key not in ("enter", "space"):
            self.typed = ""  # a number is typed in one go

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
        """Slide the tile on `cell` into the gap; with one gap, a tile in line with it slides
        with every tile between them, nearest first (one move, then the next on `show`)."""
        self.run_to = None
        gaps = self.gaps()
        tile = self.shown.cells[cell]
        if tile.vacant:
            if len(gaps) == 1:
                self.refuse("that is the gap: click a tile in line with it")
            else:
                self.refuse("that is the gap: click a tile beside it, or use the arrow keys")
            return
        moves = self.shown.moves_from(cell)
        if moves:
            self.choose(moves[0].move)
            return
        if len(gaps) != 1:
            self.refuse(f"tile {tile.label} cannot slide: it is not beside the gap")
            return
        gap = self.shown.cells[gaps[0]]
        if tile.row != gap.row and tile.col != gap.col:
            self.refuse(f"tile {tile.label} is not in line with the gap")
            return
        if self.locked:
            self.choose(None)  # the base class explains that playback is running
            return
        step = (1 if cell > gaps[0] else -1) * (1 if tile.row == gap.row else self.columns)
        first = self.shown.moves_from(gaps[0] + step)
        if first:
            self.run_to = (cell, first[0].move)
            self.choose(first[0].move)
