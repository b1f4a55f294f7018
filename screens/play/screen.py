"""The one generic play screen: keys become Session calls, Session changes become widget updates.

No rule of play lives here: the board widget draws the layout the session gives and posts the
move the player picked; the session decides whether it is legal, what the mode allows, when the
game is won, what to search and what to save. This screen only arranges, forwards and shows.
Where its parts go at a given terminal size is `screens.play.layout`'s arithmetic, applied
by `screens.play.fitting`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar, ParamSpec

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.notifications import Notification, Notify
from textual.reactive import Reactive
from textual.timer import Timer
from textual.widgets import Static

from kaeru.engine.catalogue.daily import share_line, short_title
from kaeru.engine.game.modes import Mode, Refused
from kaeru.engine.game.record import Change
from kaeru.engine.game.session import Session
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock
from kaeru.screens.play.fitting import FittingScreen
from kaeru.screens.play.keys import PLAY_BINDINGS, PLAY_HELP_GROUPS
from kaeru.screens.play.text import goal_words, player_title, status_text, verdict_text
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenHelp
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.coach_panel import CoachPanel, distance_line
from kaeru.tui.widgets.goal_board import GoalBoard
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.quiet_header import QuietHeader
from kaeru.tui.widgets.stats import StatsPanel
from kaeru.tui.widgets.text_update import update_text

P = ParamSpec("P")
ESCAPE_AGAIN = "Press Escape again to leave (your game is saved)"
ESCAPE_WINDOW = 3.0  # seconds within which a second Escape leaves


class PlayScreen(FittingScreen):
    """Play one Session."""

    # the clock ticks in the sub-title every second: the header redraws it, the screen does not
    # repaint (over SSH a repaint a second per player adds up: bench/serve_latency.py)
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    BINDINGS: ClassVar[list[BindingType]] = PLAY_BINDINGS
    HELP_GROUPS: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = PLAY_HELP_GROUPS

    def __init__(self, session: Session[Any, Any], *, show_timer: bool = True) -> None:
        super().__init__()
        self.session = session
        layout = session.layout()
        self.board: BoardWidget = board_class(layout.kind)(layout, id="board")
        self._step_timer: Timer | None = None
        self._was_won = session.solved
        self.win_toast: Notification | None = None  # the win's toast, while it may be up
        self._escape_at: float | None = None
        self.show_timer = show_timer

    @property
    def puzzle_id(self) -> str:
        return self.session.puzzle.id

    # ---- the parts (laid out for the terminal's size by `FittingScreen`) ---------------------
    def compose(self) -> ComposeResult:
        goal_board, stats = self.goal_board(), StatsPanel(id="stats")
        self.preset_layout(goal_board, stats)
        yield QuietHeader(icon=HEADER_ICON)
        yield Static(id="panes")
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield Static(id="title")
                with Center(id="board-box"):
                    yield self.board
                yield PlaybackBar(id="playback")
                yield Static(id="status")
                yield Static(id="message")
            with VerticalScroll(id="side"):
                with Vertical(id="goal-panel"):
                    yield goal_board
                with Vertical(id="search-column"):
                    yield stats
                    yield CoachPanel(id="coach")
        yield Static(id="too-small")
        yield KeysFooter(compact=True, show_command_palette=False)  # ^p: in help

    def goal_board(self) -> GoalBoard:
        session = self.session
        target = session.puzzle.goal(session.start)
        layout = session.puzzle.layout(target) if target is not None else None
        return GoalBoard(layout, goal_words(session.puzzle, session.start), id="goal")

    def on_mount(self) -> None:
        self.title = "Kaeru Arcade"
        self.query_one("#goal-panel").border_title = "Goal"
        self.session.subscribe(self.session_changed)
        self.board.focus()
        self.set_interval(1.0, self.refresh_clock)
        self.redraw()
        self.session.find_optimal_length()

    def on_unmount(self) -> None:
        self.session.unsubscribe(self.session_changed)
        self.session.close()
        self.drop_win_toast()

    def on_screen_suspend(self) -> None:
        self.session.pause()
        self.drop_win_toast()

    def drop_win_toast(self) -> None:
        """The win's toast belongs to this screen: it goes when another screen comes up."""
        toast, self.win_toast = self.win_toast, None
        if toast is not None and toast in self.app._notifications:
            self.app._unnotify(toast)

    def on_screen_resume(self) -> None:
        self.session.resume()
        self.fit()

    # ---- drawing from the session ------------------------------------------------------------
    def session_changed(self, what: Change) -> None:
        if not self.is_attached:
            return
        if what == "progress":
            self.show_search()
            self.fit()
            return
        starts_playback = self.session.mode is Mode.PLAYBACK and not self.has_class("playing-back")
        if (what == "position" or starts_playback) and self.pane != "board":
            self.show_pane("board")  # the game moved, or a solution plays: show the board
        self.redraw()
        won = self.session.solved
        if won and not self._was_won and self.session.moves_made:
            self.celebrate()
        self._was_won = won

    def celebrate(self) -> None:
        """The win: the verdict, and for a daily puzzle the share line, copied (OSC 52)."""
        outcome = self.session.outcome()
        self.win_toast = Notification(f"{verdict_text(outcome)}  (A: the analysis)", "Solved!",
                                      "information", self.app.NOTIFICATION_TIMEOUT)
        self.app.post_message(Notify(self.win_toast))
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
        title = player_title(session.puzzle.title)
        update_text(self.query_one("#title", Static),
                    f"{escape(title)}  [dim]{escape(session.game_id)}[/dim]")
        status = status_text(session.outcome())
        coach = session.coach
        if coach.enabled:
            line = distance_line(coach.current, coach.unit, coach.gave_up_here)
            status += f"\n[b]Coach:[/b] {escape(line)}"
        update_text(self.query_one("#status", Static), status)
        self.query_one(CoachPanel).show_coach(coach.enabled, coach.current, coach.marks(),
                                              coach.unit, coach.gave_up_here)
        update_text(self.query_one("#message", Static), escape(session.message))
        self.show_search()
        bar = self.query_one(PlaybackBar)
        if playback is not None:
            shown = playback.last_move
            words = session.puzzle.describe(shown) if shown is not None else ""
            bar.show_playback(playback, words)
        self.fit()  # the layout classes too ("playing-back")
        if playback is not None and not bar.has_focus and self.pane == "board":
            bar.focus()
        elif playback is None and bar.has_focus:
            self.board.focus()
        self.schedule_step()
        self.refresh_clock()

    def show_search(self) -> None:
        search = self.session.search
        task = {"hint": "Hint", "solve": "Solution"}.get(search.tag, search.tag.capitalize())
        self.query_one(StatsPanel).show_stats(search.stats, search.status, task,
                                              self.session.coach.unit)

    def refresh_clock(self) -> None:
        self.sub_title = player_title(self.session.puzzle.title) + (
            f"  · {clock(self.session.seconds)}" if self.show_timer else ""
        )

    def say(self, message: str) -> None:
        self.session.say(message)
        update_text(self.query_one("#message", Static), escape(message))

    def attempt(self, action: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """Run a session action; a refusal or an illegal move is one line on screen."""
        try:
            action(*args, **kwargs)
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

    def action_play_hint(self) -> None:
        """m: make the move the last hint named ("No hint yet" when there is none)."""
        self.attempt(self.session.play_hint)

    def action_coach(self) -> None:
        self.session.coach.toggle()

    def action_undo_to_winnable(self) -> None:
        self.attempt(self.session.coach.undo_to_winnable)

    def action_analysis(self) -> None:
        """After a win: the game's distance curve and its mistakes (`screens.coach.analysis`)."""
        if not self.session.solved or not self.session.moves_made:
            self.say("The analysis comes after a win.")
            return
        from kaeru.screens.coach.analysis import AnalysisScreen

        self.app.push_screen(AnalysisScreen(self.session, self.replay_from))

    def action_drill(self) -> None:
        from kaeru.engine.coach.drill import drill_ids
        from kaeru.screens.coach.drill import DrillScreen

        if self.puzzle_id not in drill_ids():  # it needs a depth table that builds in seconds
            self.say("No drill for this puzzle: ctrl+p → Drill has the puzzles it covers.")
            return
        self.app.push_screen(DrillScreen(self.puzzle_id))

    def replay_from(self, count: int) -> None:
        """A new game from this start with the first `count` moves of this one replayed."""
        self.replace_session(self.session.replay(count))

    def action_solve(self) -> None:
        self.attempt(self.session.solve)

    def action_copy_game_id(self) -> None:
        self.app.copy_to_clipboard(self.session.game_id)
        self.notify(f"Copied {self.session.game_id}", timeout=3)

    def action_toggle_timer(self) -> None:
        self.show_timer = not self.show_timer
        self.refresh_clock()

    def action_details(self) -> None:
        """.: the search's algorithm and its own figures, or back to the plain words."""
        shown = self.query_one(StatsPanel).toggle_details()
        self.fit()
        if self.plan.mode == "tabbed" and "search" not in self.plan.panes:
            search_pane = "side"
        else:
            search_pane = "search"
        if shown and self.plan.mode == "tabbed" and self.pane == "board":
            self.show_pane(search_pane)

    def action_help(self) -> None:
        self.post_message(OpenHelp(self.puzzle_id))

    def action_new_game(self) -> None:
        from kaeru.screens.new_game import NewGameScreen

        def chosen(game_id: str | None) -> None:
            if game_id is not None:
                from kaeru.tui.messages import OpenGame

                self.post_message(OpenGame(game_id, fresh=True))

        self.app.push_screen(NewGameScreen(self.session.puzzle, self.session.searcher), chosen)

    def action_back(self) -> None:
        """q: back to the list of puzzles (the game is saved as it goes), past the games this
        one was opened from (the command palette opens a puzzle above the game on screen)."""
        if self.app.screen is not self:
            return
        stack = self.app.screen_stack
        games = 1
        while len(stack) - games > 1 and isinstance(stack[-1 - games], PlayScreen):
            games += 1
        for _ in range(games):
            self.app.pop_screen()

    def action_escape(self) -> None:
        """Escape undoes the latest thing: a search, then playback; else a second Escape within
        a few seconds leaves (a board uses Escape first, to drop a chosen piece)."""
        if self.session.mode is Mode.SEARCHING:
            self.session.cancel_searches(quiet_too=False)
            return
        if self.session.mode is Mode.PLAYBACK:
            self.attempt(self.session.leave_playback)
            return
        now = time.monotonic()
        if self._escape_at is not None and now - self._escape_at <= ESCAPE_WINDOW:
            self._escape_at = None
            self.action_back()
            return
        self._escape_at = now
        self.say(ESCAPE_AGAIN)

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
        self.session.unsubscribe(self.session_changed)
        self.session.close()
        self.session = session
        session.subscribe(self.session_changed)
        self._was_won = session.solved
        target = session.puzzle.goal(session.start)
        self.query_one(GoalBoard).set_goal(
            session.puzzle.layout(target) if target is not None else None,
            goal_words(session.puzzle, session.start),
        )
        self.redraw()
        self.board.focus()
        session.find_optimal_length()
