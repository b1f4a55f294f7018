"""A replay of a shared win: the board step by step with the playback bar (space plays, ←→
step, Home/End, +/- speed, Escape leaves), and the coach's mark on each move (optimal, wasted,
lost) once worked out in a worker — as solutions play back on the play screen."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Static

from kaeru.engine.game.playback import Playback
from kaeru.engine.place.ranking import Result
from kaeru.engine.place.replay import marks_request, replay_line
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock
from kaeru.screens.engine_job import await_job
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.words import plural


class ReplayScreen(Screen[None]):
    """One shared win, step by step."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="replay.back"),
    ]

    def __init__(self, result: Result) -> None:
        super().__init__()
        self.result = result
        self.puzzle: Any = None
        self.playback: Playback[Any, Any] | None = None
        self.marks: list[str] | None = None
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        r = self.result
        over = "" if r.over is None else (" · optimal" if r.over <= 0 else f" · +{r.over}")
        yield Static(
            f"{r.name} · {r.puzzle_id} · {plural(r.move_count, 'move')}{over}"
            f" · {clock(r.seconds)}{' · helped' if r.helped else ''}",
            id="replay-title",
        )
        with Vertical(id="replay-body"):
            try:
                self.puzzle, solution = replay_line(self.result)
            except BadInput as error:
                yield Static(f"This game cannot be replayed: {error}", id="replay-mark")
                return
            self.playback = Playback(solution)
            layout = self.puzzle.layout(solution.states[0])
            board = board_class(layout.kind)(layout, id="replay-board")
            board.locked = True
            yield board
            yield PlaybackBar(id="replay-playback")
            yield Static("Coach's marks: working them out…", id="replay-mark")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Replay"
        if self.playback is not None:
            self.query_one(PlaybackBar).focus()
            self.show()
            self.mark_moves()

    @work(exclusive=True, group="replay-marks", exit_on_error=False)
    async def mark_moves(self) -> None:
        """The coach's marks, a GRADE job of the search service (cancelled with the screen)."""
        try:
            request = marks_request(self.result)
        except BadInput:
            return
        result = await await_job(self.app, request)
        marks = result.value if isinstance(result.value, list) else None
        if marks is None:
            self.query_one("#replay-mark", Static).update(
                "Coach's marks: not worked out (the search's budget ran out)."
            )
            return
        self.marks = [str(mark) for mark in marks]
        self.show()

    def show(self) -> None:
        playback = self.playback
        if playback is None:
            return
        board = self.query_one("#replay-board", BoardWidget)
        last = playback.last_move
        board.show(self.puzzle.layout(playback.state), last_move=last)
        words = "" if last is None else self.puzzle.describe(last)
        self.query_one(PlaybackBar).show_playback(playback, words)
        mark = self.query_one("#replay-mark", Static)
        if self.marks is None:
            return
        if not self.marks:
            mark.update("Coach's marks: none for this game.")
        elif playback.index == 0:
            counts = {v: self.marks.count(v) for v in ("optimal", "wasted", "lost")}
            mark.update("Coach's marks: " + ", ".join(f"{n} {v}" for v, n in counts.items()))
        else:
            mark.update(f"Move {playback.index}: {self.marks[playback.index - 1]}")

    @on(PlaybackBar.Command)
    def command(self, event: PlaybackBar.Command) -> None:
        event.stop()
        if event.name in ("leave", "take_over"):
            self.app.pop_screen()
            return
        if self.playback is None:
            return
        self.playback.command(event.name)
        self.show()
        self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playback is not None and self.playback.playing:
            self._timer = self.set_timer(self.playback.interval, self._tick)

    def _tick(self) -> None:
        if self.playback is not None and self.playback.playing:
            self.playback.command("tick")
            self.show()
            self._schedule()
