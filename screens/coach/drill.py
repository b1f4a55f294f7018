"""The drill: "find the best move" on positions a chosen distance from the goal. The board shows
a position; the player picks a move on it; the screen says whether it was one of the best (one
step closer) and keeps the share found and the time per answer. + and - change the distance,
p the puzzle, n skips. Each question is a DRILL job of the search service (the depth table is
loaded, or built once, in the search worker process; the question comes with the distance after
each move), awaited by an async worker of the screen: leaving the screen cancels it."""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.markup import escape
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static

from kaeru.engine.coach.drill import DEFAULT_DEPTH, Answer, Drill, Question, drill_ids
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.layout import Layout
from kaeru.engine.service.job_kinds import Posed
from kaeru.engine.service.jobs import DONE, JobKind, JobRequest, JobResult
from kaeru.screens.engine_job import await_job
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.widgets.board import BoardWidget
from kaeru.tui.widgets.boards import board_class
from kaeru.tui.widgets.keys_footer import KeysFooter
from kaeru.tui.words import plural


class DrillScreen(Screen[None]):
    """Find the best move, question after question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign", "depth(1)", "Farther", id="drill.farther"),
        Binding("minus", "depth(-1)", "Nearer", id="drill.nearer"),
        Binding("n", "skip", "Skip", id="drill.skip"),
        Binding("p", "next_puzzle", "Puzzle", id="drill.puzzle"),
        Binding("escape", "close", "Back", id="drill.close"),
    ]

    def __init__(self, puzzle_id: str | None = None, *, seed: int | None = None) -> None:
        super().__init__()
        ids = drill_ids()
        self.puzzle_id = puzzle_id if puzzle_id in ids else ids[0]
        self.seed = seed
        self.drill = Drill.for_id(self.puzzle_id, DEFAULT_DEPTH, seed)
        self.question: Question | None = None
        self.after: dict[str, int | None] = {}  # the question's moves -> distance after each
        self.serial = 0  # of the newest request for a question
        self.asked_at = 0.0
        self.board: BoardWidget | None = None
        self.ready = False
        self.depths = (1, DEFAULT_DEPTH)
        self.board_swap = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        with Vertical(id="drill-body"):
            yield Static(id="drill-title")
            yield Center(id="drill-board-box")
            yield Static(id="drill-feedback")
            yield Static(id="drill-stats")
        yield KeysFooter(compact=True)  # the board's keys and the drill's, Back included, at 80

    def on_mount(self) -> None:
        self.title = "Drill"
        self.start_puzzle()

    # ---- preparing ---------------------------------------------------------------------------
    def start_puzzle(self) -> None:
        self.question = None
        self.ready = False  # the depth table is loaded and the distances known
        self.sub_title = get_puzzle(self.puzzle_id).title
        self.show_text("#drill-feedback", "Loading the depth table…")
        self.next_question()  # the first one builds or loads the table, in the search worker

    def prepared(self, depths: tuple[int, int]) -> None:
        """The table is in: the distances a question can have are known."""
        self.depths = depths
        self.ready = True
        self.show_text(
            "#drill-feedback", "Pick the move that brings the position one step closer to the goal."
        )

    # ---- questions ---------------------------------------------------------------------------
    class Answered(Message):
        """The search service's answer to the drill's `serial`-th request for a question."""

        def __init__(self, serial: int, result: JobResult) -> None:
            super().__init__()
            self.serial = serial
            self.result = result

    def next_question(self) -> None:
        """Ask the search service for a question at the drill's distance (the table is built
        there first if need be); until it comes, no move answers the old one."""
        self.question = None
        self.serial += 1
        self.ask(self.serial, self.drill)

    @work(exclusive=True, group="drill")
    async def ask(self, serial: int, drill: Drill) -> None:
        request = JobRequest(
            JobKind.DRILL, drill.puzzle.id, "", "", tag="drill",
            args=(drill.depth, drill.rng.getstate()),
        )
        self.post_message(self.Answered(serial, await await_job(self.app, request)))

    @on(Answered)
    def answered(self, event: Answered) -> None:
        if event.serial != self.serial:  # a newer question was asked for since
            return
        result = event.result
        if result.outcome != DONE or not isinstance(result.value, Posed):
            self.show_text("#drill-feedback", result.message)
            return
        self.posed(result.value, result.message)

    def posed(self, posed: Posed, message: str) -> None:
        """The service's question: shown, and the drill's random state goes on from it."""
        self.drill.rng.setstate(posed.rng_state)
        if not self.ready:
            self.prepared(posed.depths)
        question = posed.question
        if question is None:
            self.show_text("#drill-feedback", f"{message} (+ and - change the distance)")
            return
        self.drill.depth = question.distance
        self.question, self.after = question, posed.after
        self.show_board(self.drill.puzzle.layout(question.state))
        self.asked_at = time.monotonic()
        self.show_title()
        self.show_stats()

    def show_board(self, layout: Layout) -> None:
        """Show `layout` on the board, or on a new board of its kind: the old one's removal is
        awaited before the new one (the same id) is mounted, one swap at a time."""
        if self.board is not None and self.board.BOARD_KIND == layout.kind:
            self.board.show(layout)
            if self.board.is_mounted:
                self.board.focus()
            return
        self.board = board_class(layout.kind)(layout, id="drill-board")
        self.run_worker(self.swap_board(self.board), group="drill-board")

    async def swap_board(self, board: BoardWidget) -> None:
        async with self.board_swap:
            if board is not self.board:  # a newer board is on its way
                return
            box = self.query_one("#drill-board-box")
            await box.remove_children()
            await box.mount(board)
            board.focus()

    @on(BoardWidget.MoveChosen)
    def move_chosen(self, event: BoardWidget.MoveChosen) -> None:
        event.stop()
        question = self.question
        if question is None:
            return
        seconds = time.monotonic() - self.asked_at
        puzzle = self.drill.puzzle
        answer = Answer(
            event.move, event.move in question.best, seconds,
            self.after.get(puzzle.format_move(event.move)),
        )
        self.drill.answers.append(answer)  # what Drill.answer records, the distance told
        if answer.right:
            text = f"[green]Found![/green] {escape(puzzle.describe(event.move))} ({seconds:.1f} s)"
        else:
            best = ", ".join(puzzle.describe(m) for m in question.best)
            after = "? moves" if answer.after is None else plural(answer.after, "move")
            text = (
                f"[yellow]Not the best:[/yellow] {escape(puzzle.describe(event.move))} leads "
                f"to {after} from the goal; best: {escape(best)}"
            )
        self.show_text("#drill-feedback", text, markup=True)
        self.next_question()

    @on(BoardWidget.Refused)
    def board_refused(self, event: BoardWidget.Refused) -> None:
        event.stop()
        self.show_text("#drill-feedback", event.reason)

    # ---- drawing -----------------------------------------------------------------------------
    def show_text(self, selector: str, text: str, *, markup: bool = False) -> None:
        self.query_one(selector, Static).update(text if markup else escape(text))

    def show_title(self) -> None:
        low, high = self.depths
        self.show_text(
            "#drill-title",
            f"{self.drill.puzzle.title}: {plural(self.drill.depth, 'move')} from the goal "
            f"(+ and -: {low}–{high})",  # what to do is the line under the board
        )

    def show_stats(self) -> None:
        self.show_text("#drill-stats", self.drill.summary())

    # ---- keys --------------------------------------------------------------------------------
    def action_depth(self, step: int) -> None:
        if not self.ready:  # the distances are the new puzzle's once its table is in
            return
        low, high = self.depths
        depth = min(max(self.drill.depth + step, low), high)
        if depth != self.drill.depth:
            self.drill.depth = depth
            self.next_question()

    def action_skip(self) -> None:
        if self.question is not None:
            self.next_question()

    def action_next_puzzle(self) -> None:
        ids = drill_ids()
        self.puzzle_id = ids[(ids.index(self.puzzle_id) + 1) % len(ids)]
        self.drill = Drill.for_id(self.puzzle_id, self.drill.depth, self.seed)
        self.start_puzzle()

    def action_close(self) -> None:
        self.dismiss()

    @property
    def state(self) -> Any:
        return None if self.question is None else self.question.state
