"""The one generic play screen: keys become Session calls, Session changes become widget updates.

No rule of play lives here: the board widget draws the layout the session gives and posts the
move the player picked; the session decides whether it is legal, what the mode allows, when the
game is won, what to search and what to save. This screen only arranges, forwards and shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.events import Resize
from textual.markup import escape
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from kaeru.engine.core import BadInput
from kaeru.engine.daily import clock, share_line, short_title
from kaeru.engine.modes import Mode, Refused
from kaeru.engine.session import Session
from kaeru.screens.play_text import status_text, verdict_text
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenHelp
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.coach_panel import CoachPanel, distance_line
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel

SIDE_WIDTH = 36
CHROME_ROWS = 7  # header, title, status lines, footer


class PlayScreen(Screen[None]):
    """Play one Session."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,backspace", "undo", "Undo", id="play.undo"),
        Binding("r", "redo", "Redo", show=False, id="play.redo"),
        Binding("R", "restart", "Restart", show=False, id="play.restart"),
        Binding("i", "hint", "Hint", id="play.hint"),
        Binding("o", "coach", "Coach", show=False, id="play.coach"),
        Binding("U", "undo_to_winnable", "Undo to winnable", show=False,
                id="play.undo_to_winnable"),
        Binding("A", "analysis", "Analysis", show=False, id="play.analysis"),
        Binding("D", "drill", "Drill", show=False, id="play.drill"),
        Binding("s", "solve", "Solve", id="play.solve"),
        Binding("n", "new_game", "New", id="play.new_game"),
        Binding("c", "copy_game_id", "Copy id", show=False, id="play.copy_id"),
        Binding("T", "toggle_timer", "Timer", show=False, id="play.timer"),
        Binding("question_mark,f1", "help", "Help", id="play.help"),
        Binding("escape", "escape", "Back", id="play.escape"),
    ]

    def __init__(self, session: Session[Any, Any], *, show_timer: bool = True) -> None:
        super().__init__()
        self.session = session
        layout = session.layout()
        self.board: BoardWidget = board_class(layout.kind)(layout, id="board")
        self._step_timer: Timer | None = None
        self._was_won = session.solved
        self.show_timer = show_timer

    @property
    def puzzle_id(self) -> str:
        return self.session.puzzle.id

    # ---- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield Static(id="title")
                with Center(id="board-box"):
                    yield self.board
                yield Static(id="status")
                yield Static(id="message")
            with Vertical(id="side"):
                yield Static(id="goal")
                yield CoachPanel(id="coach")
                yield StatsPanel(id="stats")
                yield PlaybackBar(id="playback")
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kaeru Arcade"
        self.sub_title = self.session.puzzle.title
        goal = self.query_one("#goal", Static)
        goal.border_title = "Goal"
        goal.update(escape(self.session.puzzle.goal_text(self.session.start)))
        self.session.subscribe(self.session_changed)
        self.board.focus()
        self.set_interval(1.0, self.refresh_clock)
        self.redraw()
        self.session.find_optimal_length()

    def on_unmount(self) -> None:
        self.session.listeners.remove(self.session_changed)
        self.session.close()

    def on_screen_suspend(self) -> None:
        self.session.pause()

    def on_screen_resume(self) -> None:
        self.session.resume()
        self.fit_to(self.size.width, self.size.height)

    def on_resize(self, event: Resize) -> None:
        self.fit_to(event.size.width, event.size.height)

    def fit_to(self, width: int, height: int) -> None:
        """Show a 'needs W×H' message instead of a board that does not fit; give the board its
        focus back when the terminal grows again."""
        need_w, need_h = self.board.needed_size()
        need_w, need_h = need_w + 4, need_h + CHROME_ROWS + 4
        too_small = width < need_w or height < need_h
        was_small = self.has_class("too-small")
        self.set_class(too_small, "too-small")
        self.set_class(width < need_w + SIDE_WIDTH, "narrow")
        if too_small:
            self.query_one("#too-small", Static).update(
                f"Terminal too small: this board needs at least {need_w}×{need_h} "
                f"(now {width}×{height}).\nEnlarge the window, or press Escape to go back."
            )
        elif was_small or self.focused is None:
            self.focus_current()

    def focus_current(self) -> None:
        if self.session.mode is Mode.PLAYBACK:
            self.query_one(PlaybackBar).focus()
        else:
            self.board.focus()

    # ---- drawing from the session ------------------------------------------------------------
    def session_changed(self, what: str) -> None:
        if not self.is_attached:
            return
        if what == "progress":
            self.show_search()
            return
        self.redraw()
        won = self.session.solved
        if won and not self._was_won and self.session.moves_made:
            self.celebrate()
        self._was_won = won

    def celebrate(self) -> None:
        """The win: the verdict, and for a daily puzzle the share line, copied (OSC 52)."""
        outcome = self.session.outcome()
        self.notify(f"{verdict_text(outcome)}  (A: the analysis)", title="Solved!")
        if self.session.daily:
            line = share_line(self.session.daily, short_title(self.puzzle_id),
                              outcome.chains if outcome.chains is not None else outcome.moves,
                              outcome.optimal, outcome.seconds)
            self.app.copy_to_clipboard(line)
            self.say(f"{line}   (copied)")

    def redraw(self) -> None:
        session = self.session
        playback = session.playback
        self.board.locked = session.mode is Mode.PLAYBACK
        last = playback.last_move if playback is not None else session.last_move
        piece = session.coach.hint_cells if playback is None else ()
        self.board.show(session.layout(), last_move=last, hint=session.hint_move, hint_piece=piece)
        title = f"{escape(session.puzzle.title)}  [dim]{escape(session.game_id)}[/dim]"
        self.query_one("#title", Static).update(title)
        status = status_text(session.outcome())
        coach = session.coach
        if coach.enabled:
            line = distance_line(coach.current, coach.unit, coach.gave_up_here)
            status += f"\n[b]Coach:[/b] {escape(line)}"
        self.query_one("#status", Static).update(status)
        self.query_one(CoachPanel).show_coach(coach.enabled, coach.current, coach.marks(),
                                              coach.unit, coach.gave_up_here)
        self.query_one("#message", Static).update(escape(session.message))
        self.show_search()
        bar = self.query_one(PlaybackBar)
        in_playback = playback is not None
        self.set_class(in_playback, "playing-back")
        if playback is not None:
            shown = playback.last_move
            words = session.puzzle.describe(shown) if shown is not None else ""
            bar.show_playback(playback, words)
            if not bar.has_focus:
                bar.focus()
        elif bar.has_focus:
            self.board.focus()
        self.schedule_step()
        self.refresh_clock()

    def show_search(self) -> None:
        search = self.session.search
        self.query_one(StatsPanel).show_stats(search.stats, search.status, search.tag.capitalize())

    def refresh_clock(self) -> None:
        self.sub_title = self.session.puzzle.title + (
            f"  · {clock(self.session.seconds)}" if self.show_timer else ""
        )

    def say(self, message: str) -> None:
        self.session.message = message
        self.query_one("#message", Static).update(escape(message))

    def attempt(self, action: Any, *args: Any) -> None:
        """Run a session action; a refusal or an illegal move is one line on screen."""
        try:
            action(*args)
        except (Refused, BadInput) as error:
            self.say(str(error))
            self.notify(str(error), severity="warning", timeout=3)

    # ---- keys and board messages -------------------------------------------------------------
    @on(BoardWidget.MoveChosen)
    def move_chosen(self, event: BoardWidget.MoveChosen) -> None:
        event.stop()
        self.attempt(self.session.push, event.move)

    @on(BoardWidget.Refused)
    def board_refused(self, event: BoardWidget.Refused) -> None:
        event.stop()
        self.say(event.reason)
        self.notify(event.reason, severity="warning", timeout=3)

    def action_undo(self) -> None:
        self.attempt(self.session.undo)

    def action_redo(self) -> None:
        self.attempt(self.session.redo)

    def action_restart(self) -> None:
        self.attempt(self.session.restart)

    def action_hint(self) -> None:
        self.attempt(self.session.hint)

    def action_coach(self) -> None:
        self.session.coach.toggle()

    def action_undo_to_winnable(self) -> None:
        self.attempt(self.session.coach.undo_to_winnable)

    def action_analysis(self) -> None:
        """After a win: the game's distance curve and its mistakes (`screens.analysis`)."""
        if not self.session.solved or not self.session.moves_made:
            self.say("The analysis comes after a win.")
            return
        from kaeru.screens.analysis import AnalysisScreen

        self.app.push_screen(AnalysisScreen(self.session, self.replay_from))

    def action_drill(self) -> None:
        from kaeru.screens.drill import DrillScreen

        self.app.push_screen(DrillScreen(self.puzzle_id))

    def replay_from(self, count: int) -> None:
        """A new game from this start with the first `count` moves of this one replayed."""
        from kaeru.engine.coach.analysis import replay_session

        self.replace_session(replay_session(self.session, count))

    def action_solve(self) -> None:
        self.attempt(self.session.solve)

    def action_copy_game_id(self) -> None:
        self.app.copy_to_clipboard(self.session.game_id)
        self.notify(f"Copied {self.session.game_id}", timeout=3)

    def action_toggle_timer(self) -> None:
        self.show_timer = not self.show_timer
        self.refresh_clock()

    def action_help(self) -> None:
        self.post_message(OpenHelp(self.puzzle_id))

    def action_new_game(self) -> None:
        from kaeru.screens.new_game import NewGameScreen

        def chosen(game_id: str | None) -> None:
            if game_id is not None:
                from kaeru.tui.messages import OpenGame

                self.post_message(OpenGame(game_id, fresh=True))

        self.app.push_screen(NewGameScreen(self.session.puzzle), chosen)

    def action_escape(self) -> None:
        """Escape undoes the latest thing: a search, then playback, then the screen."""
        if self.session.cancel_searches():
            return
        if self.session.mode is Mode.PLAYBACK:
            self.attempt(self.session.leave_playback)
            return
        self.app.pop_screen()

    # ---- playback ----------------------------------------------------------------------------
    @on(PlaybackBar.Command)
    def playback_command(self, event: PlaybackBar.Command) -> None:
        event.stop()
        if event.name == "leave":
            self.attempt(self.session.leave_playback)
        elif event.name == "take_over":
            self.attempt(self.session.take_over)
        else:
            self.attempt(self.session.playback_command, event.name)

    def schedule_step(self) -> None:
        if self._step_timer is not None:
            self._step_timer.stop()
            self._step_timer = None
        playback = self.session.playback
        if playback is not None and playback.playing:
            self._step_timer = self.set_timer(playback.interval, self.playback_tick)

    def playback_tick(self) -> None:
        self._step_timer = None
        if self.session.mode is Mode.PLAYBACK:
            self.attempt(self.session.playback_command, "tick")

    def replace_session(self, session: Session[Any, Any]) -> None:
        """Play another game of the same puzzle in this screen (a new game)."""
        self.session.listeners.remove(self.session_changed)
        self.session.close()
        self.session = session
        session.subscribe(self.session_changed)
        self._was_won = session.solved
        goal = self.query_one("#goal", Static)
        goal.update(escape(session.puzzle.goal_text(session.start)))
        self.redraw()
        self.board.focus()
        session.find_optimal_length()
