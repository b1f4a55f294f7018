"""The contract every board widget keeps with the generic play screen.

A board widget draws a `Layout` (pure data from `puzzle.layout(state)`, see `engine.rules.layout`)
and turns keys and clicks into one of the layout's legal moves, which it posts as `MoveChosen`;
the play screen pushes the move through the Session and hands the next layout back with
`show`. A widget knows nothing of the puzzle: it never reads its attributes, never calls it and
never applies a move. What it cannot turn into a move it answers with `Refused`, in the
engine's words where the layout carries them (`Layout.refusals`), else in plain generic words.

    board = board_class(layout.kind)(layout, id="board")
    board.show(next_layout, last_move=move, hint=None)   # move objects, as in LayoutMove.move
    board.locked = True                                   # playback: keys make no moves
    board.needed_size()                                   # (columns, rows) of its smallest form
    board.plain                                           # letters instead of glyphs (key v)

Keys mean the same on every board (help lists them from these bindings): arrows / h j k l move
the cursor (a sliding board slides tiles), Enter or Space moves or picks, digits and letters
name a cell, v switches glyphs and letters, Escape drops a chosen piece (and otherwise goes on
to the screen).
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from kaeru.engine.rules.layout import Layout, LayoutMove

PLAYBACK_REFUSAL = "playback is running: press t to take over from here"
ARROW_KEYS = {"up": "up,k", "down": "down,j", "left": "left,h", "right": "right,l"}


def arrow_bindings(actions: dict[str, str], words: dict[str, str] | None = None) -> list[Binding]:
    """Hidden bindings of arrow keys (and h j k l): `actions` maps a way ("up") to the action
    it runs; `words` its description (default: the way, capitalised)."""
    return [
        Binding(ARROW_KEYS[way], action, (words or {}).get(way, way.capitalize()), show=False,
                id=f"board.{way}")
        for way, action in actions.items()
    ]


class BoardWidget(Widget, can_focus=True):
    """Base class: subclasses set BOARD_KIND (a `Layout.kind`), draw `self.shown`, bind keys."""

    BOARD_KIND: ClassVar[str] = ""
    HELP_SECTION: ClassVar[str] = "On the board"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "toggle_view", "Glyphs / letters", show=False, id="board.view"),
    ]

    class MoveChosen(Message):
        """The player picked a move on the board (one of the layout's `LayoutMove.move`)."""

        def __init__(self, move: Hashable) -> None:
            super().__init__()
            self.move = move

    class Refused(Message):
        """The player tried something the board cannot turn into a move; `reason` says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    # a new position lays the screen out again only when the board's size may change (`sizes`)
    shown: reactive[Layout] = reactive(Layout("row", 0, 0, (), ()), always_update=True)
    hint_move: reactive[Hashable | None] = reactive(None, always_update=True)
    last_move: reactive[Hashable | None] = reactive(None, always_update=True)
    locked: reactive[bool] = reactive(False)  # True during playback: keys don't make moves
    plain: reactive[bool] = reactive(False)  # letters instead of glyphs (v; KAERU_ASCII)

    def __init__(
        self,
        layout: Layout,
        *,
        id: str | None = None,  # Textual's name
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.previous: Layout | None = None  # the position shown before this one
        self.hint_cells: tuple[int, ...] = ()  # the piece a graded hint names
        self.moved = True  # whether the last `show` brought a new position
        self.picture = False  # drawn as a picture (the goal): no cursor, no key captions
        self.set_reactive(BoardWidget.shown, layout)
        self.set_reactive(BoardWidget.plain, bool(os.environ.get("KAERU_ASCII")))

    def show(
        self,
        layout: Layout,
        *,
        last_move: Hashable | None = None,
        hint: Hashable | None = None,
        hint_piece: tuple[int, ...] = (),
    ) -> None:
        """Draw a position (after a move, undo, hint, or a playback step). Showing the same
        position again (a redraw) keeps what the player was doing on the board. `hint_piece`
        marks only the cells of the piece to move (a graded hint's second level)."""
        self.moved = layout != self.shown
        sizes = self.sizes()
        if self.moved:
            self.previous = self.shown
        self.last_move = last_move
        self.hint_cells = hint_piece
        self.hint_move = hint
        self.shown = layout
        if self.sizes() != sizes:
            self.refresh(layout=True)

    def sizes(self) -> Hashable:
        """What the board's sizes depend on, for the position shown: a new position with the
        same sizes needs no new layout of the screen (over SSH, a playback step or a move laid
        the whole screen out again). By default the layout itself: any new position."""
        return self.shown

    def needed_size(self) -> tuple[int, int]:
        """(columns, rows) the board needs to be drawn whole in its smallest (compact) form;
        the screen checks the terminal against it. Given more room, a board may draw larger."""
        return 20, 5

    def action_toggle_view(self) -> None:
        """v: letters instead of glyphs, or back."""
        self.plain = not self.plain

    def watch_plain(self, plain: bool) -> None:
        self.refresh(layout=True)

    # ---- moves ---------------------------------------------------------------------------------
    def choose(self, move: Hashable) -> None:
        """Offer a move to the play screen (refused while locked)."""
        if self.locked:
            self.refuse(PLAYBACK_REFUSAL)
            return
        self.post_message(self.MoveChosen(move))

    def refuse(self, reason: str) -> None:
        self.post_message(self.Refused(reason))

    def hint_entry(self) -> LayoutMove | None:
        """The hinted move, as the layout lists it (None when there is no hint); only the piece
        (no target) while a graded hint shows which piece moves."""
        if self.hint_move is None and self.hint_cells:
            return LayoutMove(None, "", self.hint_cells, ())
        return self.shown.find(self.hint_move)

    def last_entry(self) -> LayoutMove | None:
        """The last move, as the previous layout listed it, when the layout shown now is the
        position it led to (the pieces its sources held now stand on its targets)."""
        previous = self.previous
        entry = previous.find(self.last_move) if previous is not None else None
        if entry is None or previous is None:
            return None
        now, before = self.shown.cells, previous.cells
        if len(now) != len(before):
            return None
        for source, target in zip(entry.sources, entry.targets, strict=False):
            if (now[target].piece, now[target].label) != (
                before[source].piece,
                before[source].label,
            ):
                return None
        if entry.targets and any(
            not now[s].vacant for s in entry.sources if s not in entry.targets
        ):
            return None
        return entry
