"""Pick-then-target boards: choose a piece, then where it goes (knights, peg solitaire).

The cursor walks the cells of the layout by their (row, col) places, wrapping round at the
edges; Enter or Space picks the piece under it, then moves the chosen piece to the cursor; a
click does the same where it lands; typing a cell's name (`a4`, then `c3`) goes there and acts;
a letter or a digit alone moves the cursor along its row or column. With a piece chosen,
Shift+arrow moves it the way of the arrow when exactly one target lies that way. Escape drops
the chosen piece (and goes on to the screen when nothing is chosen). Where the layout says so
(`HolesScene.chains`), a piece that just moved stays chosen while it can move on.

Everything comes from the layout: which moves start where (`LayoutMove.sources[0]`), where they
land (`targets[0]`); the words of a refusal are generic ones (`PieceWords`).
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType

from kaeru.engine.layout import Layout, LayoutMove
from kaeru.tui.widgets.board import BoardWidget, arrow_bindings

LETTERS = "abcdefg"
DIGITS = "123456789"
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


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


class PickTargetBoard(BoardWidget):
    """Cells at (row, col) places with a cursor; pick a piece, then a target."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *arrow_bindings({way: f"cursor({dx}, {dy})" for way, (dx, dy) in STEPS.items()}),
        *(
            Binding(f"shift+{way}", f"jump({dx}, {dy})", f"Move the chosen piece {way}",
                    show=False)
            for way, (dx, dy) in STEPS.items()
        ),
        Binding("enter,space", "act", "Pick / jump"),
        Binding("escape", "drop", "Drop the piece", show=False),
    ]
    BINDINGS += [
        Binding(letter, f"letter('{letter}')",
                "type a name (a4, c3): pick or jump there" if letter == "a" else "", show=False)
        for letter in LETTERS
    ]
    BINDINGS += [Binding(digit, f"digit('{digit}')", show=False) for digit in DIGITS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.selected: int | None = None
        self.keep_after: Hashable | None = None  # the move just chosen, for a chain
        self.letter_typed: str | None = None  # a letter was just typed: a digit names a cell
        self.plain = bool(os.environ.get("KAERU_ASCII"))
        self.cursor = self.first_cursor()

    def first_cursor(self) -> int:
        """Where the cursor starts: where the layout says, else on the first piece."""
        holes = self.shown.holes
        if holes is not None and holes.cursor is not None:
            return holes.cursor
        cells = self.shown.cells
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
        keep, self.keep_after = self.keep_after, None
        if keep is None or keep != self.last_move or self.locked or not self.chains():
            return
        entry = self.last_entry()
        if entry is not None and entry.targets and self.moves_of(entry.targets[0]):
            self.selected = entry.targets[0]  # the same piece may move on: a chain is one move

    def watch_locked(self, locked: bool) -> None:
        self.selected = None
        self.keep_after = None
        self.refresh()

    # ---- keys and clicks ---------------------------------------------------------------------
    def action_cursor(self, dx: int, dy: int) -> None:
        """Move to the nearest cell that way; past the edge, round to the far side."""
        cells = self.shown.cells
        here = cells[self.cursor]
        best: tuple[tuple[int, int, int], int] | None = None
        far: tuple[tuple[int, int], int] | None = None
        for index, cell in enumerate(cells):
            along = (cell.col - here.col) * dx + (cell.row - here.row) * dy * 2
            across = abs((cell.col - here.col) * dy) + abs((cell.row - here.row) * dx) * 2
            if along > 0:
                key = (along + 2 * across, cell.col, cell.row)
                if best is None or key < best[0]:
                    best = (key, index)
            elif along < 0 and across == 0 and (far is None or (along, index) < far[0]):
                far = ((along, index), index)
        if best is not None:
            self.cursor = best[1]
        elif far is not None:
            self.cursor = far[1]
        self.refresh()

    def action_letter(self, letter: str) -> None:
        """A letter: the cell of that letter on the cursor's row; a digit after it names a
        cell (`c3`) and acts there."""
        self.letter_typed = letter
        found = self.shown.cell_named(letter + self.cell_name(self.cursor)[1:])
        if found is not None:
            self.cursor = found
            self.refresh()

    def action_digit(self, digit: str) -> None:
        letter, self.letter_typed = self.letter_typed, None
        if letter is None:
            found = self.shown.cell_named(self.cell_name(self.cursor)[:1] + digit)
            if found is not None:
                self.cursor = found
                self.refresh()
            return
        found = self.shown.cell_named(letter + digit)
        if found is None:
            self.refuse(f"there is no {self.words().place} {letter}{digit} on this board")
            return
        self.cursor = found
        self.refresh()
        self.action_act()

    def on_key(self, event: events.Key) -> None:
        if event.key not in LETTERS and event.key not in DIGITS:
            self.letter_typed = None

    def action_toggle_glyphs(self) -> None:
        self.plain = not self.plain
        self.refresh()

    def action_drop(self) -> None:
        if self.selected is None:
            raise SkipAction()  # let Escape go back or cancel, as elsewhere
        self.selected = None
        self.refresh()

    def _move(self, entry: LayoutMove) -> None:
        if entry.targets:
            self.cursor = entry.targets[0]
        self.keep_after = entry.move
        self.choose(entry.move)

    def action_jump(self, dx: int, dy: int) -> None:
        """Move the chosen piece (or the one under the cursor) the way of the arrow."""
        source = self.selected if self.selected is not None else self.cursor
        cells = self.shown.cells
        start = cells[source]
        ahead = []
        for entry in self.moves_of(source):
            end = cells[entry.targets[0]]
            along = (end.col - start.col) * dx + 2 * (end.row - start.row) * dy
            if along > 0 and (dx == 0 or end.row == start.row):
                ahead.append(entry)
        words = self.words()
        name = f"the {words.piece} {words.on} {self.cell_name(source)}"
        if len(ahead) == 1:
            self._move(ahead[0])
        elif ahead:
            self.refuse(f"{name} can jump that way to two {words.place}s: pick one with Enter")
        else:
            self.refuse(f"{name} cannot jump that way")

    def action_act(self) -> None:
        """Pick up the piece under the cursor, or move the chosen piece to the cursor."""
        if self.locked:
            self.choose(None)  # the base class explains that playback is running
            return
        here = self.cursor
        name = self.cell_name(here)
        vacant = self.shown.cells[here].vacant
        words = self.words()
        if self.selected is not None:
            if here == self.selected:
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
            self.cursor = cell
            self.action_act()
