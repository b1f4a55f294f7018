"""The one generic play screen: a board widget, the move counter, hint, solve, playback, stats.

Nothing here knows which puzzle it plays: the board widget comes from the puzzle's board kind,
and every rule question goes through the Session and the Puzzle protocol.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.events import Resize
from textual.markup import escape
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from kaeru.engine.core import BadInput, Solution
from kaeru.engine.playback import Playback
from kaeru.engine.session import Session
from kaeru.screens.search_runner import SearchRunner
from kaeru.tui import saves
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.playback_bar import PlaybackBar
from kaeru.tui.widgets.stats import StatsPanel

SIDE_WIDTH = 36
CHROME_ROWS = 6  # header, title, status lines, footer


class PlayScreen(SearchRunner):
    """Play one Session; everything the player does is a Session call or an engine search."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,backspace", "undo", "Undo"),
        Binding("r", "redo", "Redo", show=False),
        Binding("R", "restart", "Restart", show=False),
        Binding("i", "hint", "Hint"),
        Binding("s", "solve", "Solve"),
        Binding("n", "new_game", "New game"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("escape", "escape", "Cancel/Back"),
    ]

    DEFAULT_CSS = """
    PlayScreen #main { height: 1fr; }
    PlayScreen #board-area { width: 1fr; padding: 0 1; }
    PlayScreen #title { text-style: bold; padding: 0 0 1 0; }
    PlayScreen #board-box { height: auto; padding: 1 0; }
    PlayScreen #status { height: auto; padding: 1 0 0 0; }
    PlayScreen #message { height: auto; color: $text-accent; }
    PlayScreen #side { width: SIDE_WIDTH; padding: 0 1 0 0; }
    PlayScreen #goal { height: auto; border: round $secondary; padding: 0 1; }
    PlayScreen #playback { display: none; }
    PlayScreen #too-small { display: none; width: 100%; height: 1fr; content-align: center middle;
                            text-style: bold; }
    PlayScreen.too-small #main { display: none; }
    PlayScreen.too-small #too-small { display: block; }
    PlayScreen.narrow #side { display: none; }
    PlayScreen.playing-back #playback { display: block; }
    """.replace("SIDE_WIDTH", str(SIDE_WIDTH))

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.board: BoardWidget = board_class(session.puzzle.board)(
            session.puzzle, session.state, session.start, id="board"
        )
        self.playback: Playback | None = None
        self._timer: Timer | None = None
        self.message = ""
        self.dead_end: str | None = None

    # ---- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        puzzle = self.session.puzzle
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield Static(f"{puzzle.title}  [dim]{puzzle.id}[/dim]", id="title")
                with Center(id="board-box"):
                    yield self.board
                yield Static(id="status")
                yield Static(id="message")
            with Vertical(id="side"):
                yield Static(id="goal")
                yield StatsPanel(id="stats")
                yield PlaybackBar(id="playback")
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kaeru Arcade"
        self.sub_title = self.session.puzzle.title
        goal = self.query_one("#goal", Static)
        goal.border_title = "Goal"
        goal.update(self.session.puzzle.goal_text(self.session.start))
        self.board.focus()
        self.refresh_status()
        if self.session.optimal_length is None:
            self.find_optimal_length()

    def on_resize(self, event: Resize) -> None:
        self.fit_to(event.size.width, event.size.height)

    def fit_to(self, width: int, height: int) -> None:
        """Show a 'needs W×H' message instead of a board that does not fit."""
        need_w, need_h = self.board.needed_size()
        need_w, need_h = need_w + 4, need_h + CHROME_ROWS + 4
        too_small = width < need_w or height < need_h
        self.set_class(too_small, "too-small")
        self.set_class(width < need_w + SIDE_WIDTH, "narrow")
        if too_small:
            self.query_one("#too-small", Static).update(
                f"Terminal too small: this board needs at least {need_w}×{need_h} "
                f"(now {width}×{height}).\nEnlarge the window, or press Escape to go back."
            )

    # ---- status line -------------------------------------------------------------------------
    def refresh_status(self) -> None:
        session = self.session
        optimal = session.optimal_length
        made = session.moves_made
        counter = f"Moves: {made}"
        counter += f"   optimal from the start: {optimal}" if optimal is not None else ""
        chains = session.puzzle.chains(session.history)
        if chains is not None:
            counter = f"Jumps: {made}   moves: {len(chains)}"
        if session.solved and made:
            counter += f"\n[b]{self.verdict()}[/b]"
        elif self.dead_end:
            counter += f"\n[b]This position can no longer be won:[/b] {escape(self.dead_end)}"
        self.query_one("#status", Static).update(counter)
        self.query_one("#message", Static).update(escape(self.message))

    def verdict(self) -> str:
        made, optimal = self.session.moves_made, self.session.optimal_length
        chains = self.session.puzzle.chains(self.session.history)
        if chains is not None:  # counted as players count them: jumps, and chains as moves
            return f"Solved: {made} jumps, {len(chains)} moves."
        if optimal is None:
            return f"Solved in {made} moves!"
        perfect = " A perfect game." if made == optimal else ""
        return f"Solved in {made} moves — optimal is {optimal}!{perfect}"

    def say(self, message: str) -> None:
        self.message = message
        self.refresh_status()

    # ---- playing -----------------------------------------------------------------------------
    @on(BoardWidget.MoveChosen)
    def play_move(self, event: BoardWidget.MoveChosen) -> None:
        event.stop()
        self.make_move(event.move)

    def make_move(self, move: Hashable) -> None:
        if self.playback is not None:
            self.say("Playback is running: press t to take over, or Escape to leave it.")
            return
        was_solved = self.session.solved
        try:
            self.session.push(move)
        except BadInput as error:
            self.notify(str(error), title="Not allowed", severity="warning")
            return
        self.cancel_search()
        self.after_change(self.session.puzzle.describe(move), last_move=move)
        if self.session.solved and not was_solved:
            self.notify(self.verdict(), title="Solved!")

    @on(BoardWidget.Refused)
    def refused(self, event: BoardWidget.Refused) -> None:
        event.stop()
        self.notify(event.reason, severity="warning")

    def after_change(self, described: str = "", last_move: Hashable | None = None) -> None:
        self.dead_end = None
        self.board.show(self.session.state, last_move=last_move)
        self.message = described
        self.refresh_status()
        saves.save(self.session)
        if self.session.puzzle.checks_dead_ends and not self.session.solved:
            self.check_dead_end(self.session.state)

    def action_undo(self) -> None:
        move = self.session.undo()
        if move is None:
            self.notify("Nothing to undo.")
            return
        self.after_change(f"Undid {self.session.puzzle.describe(move)}")

    def action_redo(self) -> None:
        move = self.session.redo()
        if move is None:
            self.notify("Nothing to redo.")
            return
        self.after_change(f"Redid {self.session.puzzle.describe(move)}", last_move=move)

    def action_restart(self) -> None:
        self.session.restart()
        self.after_change("Back at the start (r redoes the moves).")

    def action_hint(self) -> None:
        if self.session.solved:
            self.notify("Already solved.")
            return
        self.say("Thinking about a hint… (Escape cancels)")
        self.start_search("Hint")

    def action_solve(self) -> None:
        if self.session.solved:
            self.notify("Already solved.")
            return
        self.say("Solving… (Escape cancels)")
        self.start_search("Solve")

    def action_help(self) -> None:
        from kaeru.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.session.puzzle, self.board))

    def action_new_game(self) -> None:
        from kaeru.screens.new_game import NewGameScreen

        def opened(game: Session | None) -> None:
            if game is not None:
                self.app.call_later(self.app.open_session, game, replace=True)  # type: ignore[attr-defined]

        self.app.push_screen(NewGameScreen(self.session.puzzle), opened)

    def action_escape(self) -> None:
        if self.cancel_search():
            self.say("Search cancelled.")
        elif self.playback is not None:
            self.leave_playback()
        else:
            self.app.pop_screen()

    # ---- search results (SearchRunner hooks) -------------------------------------------------
    def search_finished(self, task: str, state: Hashable, solution: Solution) -> None:
        if state != self.session.state:
            self.say("The position changed while the engine was thinking: ask again.")
            return
        if not solution.moves:
            self.say("Already solved.")
            return
        quality = "optimal" if solution.optimal else "not optimal"
        if task == "Hint":
            move = solution.moves[0]
            self.board.show(self.session.state, hint=move)
            self.say(f"Hint: {self.session.puzzle.describe(move)}  "
                     f"({solution.length} moves to go, {quality})")
        else:
            self.say(f"Solution: {solution.length} moves ({quality}). Space plays, t takes over.")
            self.start_playback(solution)

    def search_failed(self, task: str, message: str, severity: str) -> None:
        self.say(message)
        self.notify(message, severity=severity)  # type: ignore[arg-type]

    def optimal_known(self, length: int | None, note: str) -> None:
        self.session.optimal_length = length
        if note:
            self.message = f"From the start: {note}"
        self.refresh_status()

    def dead_end_found(self, reason: str) -> None:
        self.dead_end = reason
        self.refresh_status()
        self.notify(f"This position can no longer be won: {reason}", severity="warning")

    # ---- playback ----------------------------------------------------------------------------
    def start_playback(self, solution: Solution) -> None:
        self.playback = Playback(solution)
        self.board.locked = True
        self.add_class("playing-back")
        bar = self.query_one(PlaybackBar)
        bar.focus()
        self.playback.toggle()
        self.show_playback_step()
        self.schedule_step()

    def show_playback_step(self) -> None:
        playback = self.playback
        if playback is None:
            return
        last = playback.last_move
        self.board.show(playback.state, last_move=last)
        described = self.session.puzzle.describe(last) if last is not None else ""
        self.query_one(PlaybackBar).show_playback(playback, described)

    def schedule_step(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playback is not None and self.playback.playing:
            self._timer = self.set_timer(self.playback.interval, self.playback_tick)

    def playback_tick(self) -> None:
        if self.playback is None:
            return
        self.playback.forward()
        self.show_playback_step()
        self.schedule_step()

    @on(PlaybackBar.Command)
    def playback_command(self, event: PlaybackBar.Command) -> None:
        event.stop()
        playback = self.playback
        if playback is None:
            return
        name = event.name
        if name == "leave":
            self.leave_playback()
            return
        if name == "take_over":
            self.take_over()
            return
        if name == "toggle":
            playback.toggle()
        elif name == "forward":
            playback.playing = False
            playback.forward()
        elif name == "back":
            playback.playing = False
            playback.back()
        elif name == "first":
            playback.seek(0)
        elif name == "last":
            playback.seek(playback.length)
        elif name == "faster":
            playback.faster()
        elif name == "slower":
            playback.slower()
        self.show_playback_step()
        self.schedule_step()

    def take_over(self) -> None:
        """Continue playing from the playback's current step."""
        playback = self.playback
        if playback is None:
            return
        steps = playback.index
        self.leave_playback()
        self.session.adopt(playback.solution, steps)
        self.after_change(f"Took over after {steps} moves of the solution.")

    def leave_playback(self) -> None:
        self.playback = None
        self.schedule_step()
        self.remove_class("playing-back")
        self.board.locked = False
        self.board.show(self.session.state)
        self.board.focus()
        self.refresh_status()
