"""Watching another player's live game, read-only: their board, moves and clock, following
them as they play (the watched arcade sends each move to the place at once; this screen looks
every POLL_SECONDS: a move shows within a frame or two). The player is told they are
watched, and can turn watching off in Settings, which ends this view. The board comes from
the engine (`engine.place.replay.watched_board`): this screen only shows it."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, Static

from kaeru.engine.place.place import Place, Presence
from kaeru.engine.place.replay import WatchedBoard, watched_board
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.words import plural

POLL_SECONDS = 1 / 30  # a move shows within two frames at 60 per second (each look: ~1 ms)


class WatchScreen(Screen[None]):
    """A live game of another player; keys make no moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="watch.back"),
    ]

    def __init__(self, place: Place, player: str, name: str) -> None:
        super().__init__()
        self.place = place
        self.player = player
        self.name_shown = name
        self.seen: tuple[str | None, tuple[str, ...]] | None = None
        self.board: BoardWidget | None = None
        self.status = ""

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static(f"Watching {self.name_shown}…", id="watch-status")
        yield Vertical(id="watch-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Watching {self.name_shown}"
        self.look()
        self.set_interval(POLL_SECONDS, self.look)

    @work(thread=True, exclusive=True, exit_on_error=False)
    def look(self) -> None:
        presence = self.place.watch(self.player)
        self.app.call_from_thread(self.follow, presence)

    def say(self, text: str) -> None:
        if text != self.status:  # looked at 30 times a second: drawn only when it changes
            self.status = text
            self.query_one("#watch-status", Static).update(text)

    def follow(self, presence: Presence | None) -> None:
        if presence is None:
            self.say(f"{self.name_shown} has left, or turned watching off.")
            return
        if presence.game_id is None:
            self.say(f"{presence.name} is not playing just now.")
            return
        self.say(f"{presence.name} · {presence.puzzle_id} ·"
                 f" {plural(len(presence.moves), 'move')} · {clock(presence.seconds)}"
                 "  (read-only)")
        now = (presence.game_id, presence.moves)
        if now == self.seen:
            return
        try:
            shown = watched_board(presence.game_id, presence.moves)
        except BadInput:
            return
        new_game = self.seen is None or self.seen[0] != presence.game_id
        self.seen = now
        if new_game or self.board is None:
            self.call_next(self._new_board, shown)
        else:
            self.board.show(shown.layout, last_move=shown.last_move)

    async def _new_board(self, shown: WatchedBoard) -> None:
        """Another game (or the first): its board in place of the one shown."""
        if self.board is not None:
            await self.board.remove()
        self.board = board_class(shown.layout.kind)(shown.layout, id="watch-board")
        self.board.locked = True
        await self.query_one("#watch-body").mount(self.board)
        self.board.show(shown.layout, last_move=shown.last_move)
