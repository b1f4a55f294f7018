"""The contract every board widget keeps with the generic play screen.

A board widget draws one puzzle state and turns keys (and clicks) into moves. It holds no
rules: it asks the puzzle (`moves`, `move_cells`, `describe`) and posts `MoveChosen`; the play
screen pushes the move through the Session and hands the new state back with `show`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from textual.binding import BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from kaeru.engine.core import Puzzle


class BoardWidget(Widget, can_focus=True):
    """Base class: subclasses set BOARD_KIND, draw `self.state`, and bind their keys."""

    BOARD_KIND: ClassVar[str] = ""
    BINDINGS: ClassVar[list[BindingType]] = []

    class MoveChosen(Message):
        """The player picked a move on the board."""

        def __init__(self, move: Hashable) -> None:
            super().__init__()
            self.move = move

    class Refused(Message):
        """The player tried something the board cannot turn into a move; `reason` says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    state: reactive[Hashable] = reactive(None, always_update=True, layout=True)
    hint_move: reactive[Hashable | None] = reactive(None, always_update=True)
    last_move: reactive[Hashable | None] = reactive(None, always_update=True)
    locked: reactive[bool] = reactive(False)  # True during playback: keys don't make moves

    def __init__(
        self,
        puzzle: Puzzle,
        state: Hashable,
        start: Hashable,
        *,
        id: str | None = None,  # noqa: A002 - Textual's name
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.puzzle = puzzle
        self.start = start
        self.set_reactive(BoardWidget.state, state)

    def show(
        self,
        state: Hashable,
        *,
        last_move: Hashable | None = None,
        hint: Hashable | None = None,
    ) -> None:
        """Draw a new position (after a move, undo, or a playback step)."""
        self.last_move = last_move
        self.hint_move = hint
        self.state = state

    def needed_size(self) -> tuple[int, int]:
        """(columns, rows) the board needs to be drawn whole; the screen checks the terminal."""
        return 20, 5

    def choose(self, move: Hashable) -> None:
        """Offer a move to the play screen (ignored while locked)."""
        if self.locked:
            self.refuse("playback is running: press t to take over from here")
            return
        self.post_message(self.MoveChosen(move))

    def refuse(self, reason: str) -> None:
        self.post_message(self.Refused(reason))

    def moves_from(self, cell: int) -> list[Hashable]:
        """Legal moves that take a piece from `cell`, those starting exactly there first."""
        found = []
        for move in self.puzzle.moves(self.state):
            sources, _ = self.puzzle.move_cells(self.state, move)
            if cell in sources:
                found.append((sources[0] != cell, move))
        return [move for _, move in sorted(found, key=lambda pair: pair[0])]
