"""Pick-then-target boards: choose a piece, then where it goes (knights, peg solitaire).

The cursor walks the cells of the layout by their (row, col) places: left and right go along
the cursor's row (round to its other end past the last cell), up and down to the nearest cell
of the next row (round to the far row past the edge), keeping to the column the cursor left
(the left one of two as near), so that on a triangle's half-offset rows down then up comes
back. Enter or Space picks the piece under the cursor, then moves the chosen piece to the
cursor; a click does the same where it lands; typing a cell's name (`a4`, then `c3`) goes
there and acts; a letter or a digit alone moves the cursor along its row or column.

Shift+arrow moves the chosen piece (else the one under the cursor) the way of the arrow: to
the one target that way, or the one straight that way. Where two or more lie that way (a
triangle's diagonals, a knight's jumps), a second Shift+arrow across the first names the one
meant (Shift+Up then Shift+Left: up and to the left; where that still leaves two, the one
farthest the first way). Escape drops the chosen piece (and goes on to the screen when nothing
is chosen). Where the layout says so (`HolesScene.chains`), a piece that just moved stays
chosen while it can move on.

Everything comes from the layout: which moves start where (`LayoutMove.sources[0]`), where they
land (`targets[0]`); the words of a refusal are generic ones (`PieceWords`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType

from kaeru.engine.rules.layout import Cell, Layout, LayoutMove
from kaeru.tui.widgets.board import ARROW_KEYS, BoardWidget

LETTERS = "abcdefg"
DIGITS = "123456789"
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
SHIFT_ARROWS = {f"shift+{way}" for way in STEPS}


@dataclass(frozen=True)
class PieceWords:
    """How refusals name a board's pieces and places."""

    piece: str  # "knight"
    on: str  # "on" (the knight on a4), "in" (the peg in d2)
    place: str  # "square", "hole"
    stuck: str  # what a piece without a move lacks: "has no empty square to jump to"
    cannot: str  # a target it cannot reach: "a knight cannot jump from {source} to {target}"


GENERIC_WORDS = PieceWords(
    "piece", "on", "cell", "has no move", "the piece on {source} cannot go to {target}"
)


@dataclass(frozen=True)
class PendingJump:
    """A Shift+arrow that found several targets: the piece, the way, and the moves that way."""

    source: int
    way: tuple[int, int]
    moves: tuple[LayoutMove, ...]


def lies_that_way(start: Cell, end: Cell, way: tuple[int, int]) -> bool:
    dx, dy = way
    return (end.col - start.col) * dx > 0 if dx else (end.row - start.row) * dy > 0


def straight_that_way(start: Cell, end: Cell, way: tuple[int, int]) -> bool:
    return lies_that_way(start, end, way) and (
        end.row == start.row if way[0] else end.col == start.col
    )


def way_name(way: tuple[int, int]) -> str:
    return next(name for name, step in STEPS.items() if step == way)


class PickTargetBoard(BoardWidget):
    """Cells at (row, col) places with a cursor; pick a piece, then a target."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(
                ARROW_KEYS[way],
                f"cursor({dx}, {dy})",
                f"Cursor {way}",
                show=False,
                id=f"board.cursor.{way}",
            )
            for way, (dx, dy) in STEPS.items()
        ),
        *(
            Binding(
                f"shift+{way}",
                f"jump({dx}, {dy})",
                f"Jump {way}; then Shift+←/→ for a diagonal" if dy else f"Jump {way}",
                show=False,
                id=f"board.jump.{way}",
            )
            for way, (dx, dy) in STEPS.items()
        ),
        Binding("enter,space", "act", "Pick / jump", id="board.act"),
        Binding("escape", "drop", "Drop the chosen piece", show=False, id="board.drop"),
    ]
    BINDINGS += [
        Binding(
            letter,
            f"letter('{letter}')",
            "Type a place (a–g, 1–9: c3): pick / jump" if letter == "a" else "",
            show=False,
            id=f"board.column.{letter}",
        )
        for letter in LETTERS
    ]
    BINDINGS += [
        Binding(digit, f"digit('{digit}')", show=False, id=f"board.row.{digit}") for digit in DIGITS
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.selected: int | None = None
        self.keep_after: Hashable | None = None  # the move just chosen, for a chain
        self.chained = False  # `selected` is the piece that just moved, kept for a chain
        self.letter_typed: str | None = None  # a letter was just typed: a digit names a cell
        self.pending: PendingJump | None = None  # a Shift+arrow waiting for a second one
        self.goal_col: int | None = None  # the column up and down keep to
        self.cursor = self.first_cursor()

    def first_cursor(self) -> int:
        """Where the cursor starts: where the layout says, else on the first piece (in reading
        order) that has a move, else on the first piece."""
        layout = self.shown
        holes = layout.holes
        if holes is not None and holes.cursor is not None:
            return holes.cursor
        cells = layout.cells
        movers = {entry.sources[0] for entry in layout.moves if entry.sources}
        if movers:
            return min(movers, key=lambda i: (cells[i].row, cells[i].col))
        return next((i for i, cell in enumerate(cells) if not cell.vacant), 0)

    # ---- what the layout offers --------------------------------------------------------------
    def words(self) -> PieceWords:
        """How refusals name this board's pieces and places."""
        return GENERIC_WORDS

    def cell_name(self, cell: int) -> str:
        return self.shown.cells[cell].name

    def targets(self) -> dict[int, LayoutMove]:
        """Cells the chosen piece can move to, with the move for each."""
        if self.selected is None:
            return {}
        return {
            entry.targets[0]: entry
            for entry in self.shown.moves
            if entry.sources[0] == self.selected and entry.targets
        }

    def moves_of(self, cell: int) -> list[LayoutMove]:
        return [entry for entry in self.shown.moves if entry.sources[0] == cell]

    def chains(self) -> bool:
        holes = self.shown.holes
        return holes is not None and holes.chains

    # ---- state changes -----------------------------------------------------------------------
    def watch_shown(self, layout: Layout) -> None:
        if not self.moved:
            return
        self.selected = None
        self.chained = False
        self.pending = None
        if self.cursor >= len(layout.cells):
            self.cursor = self.first_cursor()
        keep, self.keep_after = self.keep_after, None
        if keep is None or keep != self.last_move or self.locked or not self.chains():
            return
        entry = self.last_entry()
        if entry is not None and entry.targets and self.moves_of(entry.targets[0]):
            self.selected = entry.targets[0]  # the same piece may move on: a chain is one move
            self.chained = True

    def watch_locked(self, locked: bool) -> None:
        self.selected = None
        self.keep_after = None
        self.pending = None
        self.refresh()

    def put_cursor(self, cell: int, *, keep_column: bool = False) -> None:
        self.cursor = cell
        if not keep_column:
            self.goal_col = None
        self.refresh()

    # ---- keys and clicks ---------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        """Along the row (dx), or to the next row's cell nearest the column (dy)."""
        cells = self.shown.cells
        if not cells:
            return
        here = cells[self.cursor]
        if dx:
            along = sorted(
                (cell.col * dx, index) for index, cell in enumerate(cells) if cell.row == here.row
            )
            ahead = [index for key, index in along if key > here.col * dx]
            self.put_cursor(ahead[0] if ahead else along[0][1])
            return
        rows = sorted({cell.row for cell in cells})
        row = rows[(rows.index(here.row) + dy) % len(rows)]
        goal = here.col if self.goal_col is None else self.goal_col
        nearest = min(
            (index for index, cell in enumerate(cells) if cell.row == row),
            key=lambda i: (abs(cells[i].col - goal), cells[i].col),
        )
        self.goal_col = goal
        self.put_cursor(nearest, keep_column=True)

    def action_letter(self, letter: str) -> None:
        """A letter: the cell of that letter on the cursor's row; a digit after it names a
        cell (`c3`) and acts there."""
        self.letter_typed = letter
        found = self.shown.cell_named(letter + self.cell_name(self.cursor)[1:])
        if found is not None:
            self.put_cursor(found)

    def action_digit(self, digit: str) -> None:
        letter, self.letter_typed = self.letter_typed, None
        if letter is None:
            found = self.shown.cell_named(self.cell_name(self.cursor)[:1] + digit)
            if found is not None:
                self.put_cursor(found)
            return
        found = self.shown.cell_named(letter + digit)
        if found is None:
            self.refuse(f"there is no {self.words().place} {letter}{digit} on this board")
            return
        self.put_cursor(found)
        self.action_act()

    def on_key(self, event: events.Key) -> None:
        if event.key not in LETTERS and event.key not in DIGITS:
            self.letter_typed = None
        if event.key not in SHIFT_ARROWS:
            self.pending = None

    def action_drop(self) -> None:
        self.pending = None
        if self.selected is None:
            raise SkipAction()  # let Escape go back or cancel, as elsewhere
        self.selected = None
        self.refresh()

    def _move(self, entry: LayoutMove) -> None:
        self.pending = None
        if entry.targets:
            self.put_cursor(entry.targets[0])
        self.keep_after = entry.move
        self.choose(entry.move)

    def action_jump(self, dx: int, dy: int) -> None:
        """Move the chosen piece (or the one under the cursor) the way of the arrow; a second
        Shift+arrow across the first chooses among several that way."""
        way = (dx, dy)
        pending, self.pending = self.pending, None
        source = self.selected if self.selected is not None else self.cursor
        cells = self.shown.cells
        start = cells[source]
        words = self.words()
        name = f"the {words.piece} {words.on} {self.cell_name(source)}"
        if start.vacant:
            self.refuse(f"{start.name} is empty: put the cursor on a {words.piece} first")
            return
        if pending is not None and pending.source == source and (dx == 0) != (pending.way[0] == 0):
            self._second_jump(pending, way, name)
            return
        ahead = [
            entry
            for entry in self.moves_of(source)
            if entry.targets and lies_that_way(start, cells[entry.targets[0]], way)
        ]
        straight = [e for e in ahead if straight_that_way(start, cells[e.targets[0]], way)]
        if len(ahead) == 1 or len(straight) == 1:
            self._move(ahead[0] if len(ahead) == 1 else straight[0])
        elif ahead:
            self.pending = PendingJump(source, way, tuple(ahead))
            across = "Left or Right" if dy else "Up or Down"
            self.refuse(
                f"{name} can jump {way_name(way)} to {len(ahead)} {words.place}s: press "
                f"Shift+{across} now to choose, or put the cursor on one and press Enter"
            )
        else:
            self.refuse(f"{name} cannot jump that way")

    def _second_jump(self, pending: PendingJump, way: tuple[int, int], name: str) -> None:
        """Of the jumps the first Shift+arrow found, those that also go `way`; of several, the
        one farthest the first way (a knight's Shift+Up, Shift+Left: two up, one left)."""
        cells = self.shown.cells
        start = cells[pending.source]
        both = [e for e in pending.moves if lies_that_way(start, cells[e.targets[0]], way)]
        if not both:
            self.refuse(f"{name} cannot jump {way_name(pending.way)} and {way_name(way)}")
            return
        first_x, first_y = pending.way

        def reach(entry: LayoutMove) -> int:
            end = cells[entry.targets[0]]
            return abs(end.col - start.col) * abs(first_x) + abs(end.row - start.row) * abs(first_y)

        farthest = max(map(reach, both))
        best = [entry for entry in both if reach(entry) == farthest]
        if len(best) == 1:
            self._move(best[0])
        else:
            self.refuse(
                f"{name} has {len(best)} jumps that way: put the cursor on one and press Enter"
            )

    def action_act(self) -> None:
        """Pick up the piece under the cursor, or move the chosen piece to the cursor."""
        if self.locked:
            self.choose(None)  # the base class explains that playback is running
            return
        here = self.cursor
        name = self.cell_name(here)
        vacant = self.shown.cells[here].vacant
        words = self.words()
        chained, self.chained = self.chained, False
        if self.selected is not None:
            if here == self.selected:
                if not chained:  # picking the piece kept for a chain keeps it (typed moves)
                    self.selected = None
                self.refresh()
                return
            entry = self.targets().get(here)
            if entry is not None:
                self._move(entry)
                return
            if vacant:
                source = self.cell_name(self.selected)
                self.refuse(words.cannot.format(source=source, target=name))
                return
        if vacant:
            self.refuse(f"{name} is empty: put the cursor on a {words.piece} first")
            return
        if not self.moves_of(here):
            self.refuse(f"the {words.piece} {words.on} {name} {words.stuck}")
            return
        self.selected = here
        self.refresh()

    def cell_at(self, x: int, y: int) -> int | None:
        """The cell under widget coordinates; each look says."""
        return None

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.put_cursor(cell)
            self.action_act()
