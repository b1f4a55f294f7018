"""A tiny app that holds one board widget and records what it posts, for widget tests that need
no play screen and no puzzle beyond the Layout they are given."""

from __future__ import annotations

from collections.abc import Hashable

from textual import on
from textual.app import App, ComposeResult

from kaeru.engine.rules.layout import Layout
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class

SIZE = (100, 40)


class RecordingApp(App[None]):
    """An app that keeps what its boards post: the moves chosen and the refusals' words."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[Hashable] = []
        self.refused: list[str] = []

    @on(BoardWidget.MoveChosen)
    def record_move(self, event: BoardWidget.MoveChosen) -> None:
        self.chosen.append(event.move)

    @on(BoardWidget.Refused)
    def record_refusal(self, event: BoardWidget.Refused) -> None:
        self.refused.append(event.reason)


class BoardHost(RecordingApp):
    """Mounts `board_class(layout.kind)(layout)` and keeps its MoveChosen and Refused."""

    def __init__(self, layout: Layout) -> None:
        super().__init__()
        self.board = board_class(layout.kind)(layout, id="board")

    def compose(self) -> ComposeResult:
        yield self.board

    def on_mount(self) -> None:
        self.animation_level = "none"
        self.board.focus()
