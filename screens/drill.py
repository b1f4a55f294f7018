"""The drill: "find the best move" on positions a chosen distance from the goal. The board shows
a position; the player picks a move on it; the screen says whether it was one of the best (one
step closer) and keeps the share found and the time per answer. + and - change the distance,
p the puzzle, n skips. The depth table is loaded (or built, once) in a thread worker."""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Header, Static

from kaeru.engine.coach.drill import DEFAULT_DEPTH, Drill, Question, drill_ids
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.protocol import BadInput
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
        self.prepare()

    @work(thread=True, exclusive=True, group="drill")
    def prepare(self) -> None:
        drill = self.drill
        drill.prepare()
        depths = drill.depth_range()
        self.app.call_from_thread(self.prepared, drill, depths)

    def prepared(self, drill: Drill, depths: tuple[int, int]) -> None:
        if drill is not self.drill:
            return
        self.depths = depths
        self.ready = True
        self.drill.depth = min(max(self.drill.depth, depths[0]), depths[1])
        self.show_text(
            "#drill-feedback", "Pick the move that brings the position one step closer to the goal."
        )
        self.next_question()

    # ---- questions ---------------------------------------------------------------------------
    def next_question(self) -> None:
        try:
            question = self.drill.question()
        except (BadInput, ValueError) as error:
            self.show_text("#drill-feedback", f"{error} (+ and - change the distance)")
            return
        self.question = question
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
        answer = self.drill.answer(question, event.move, seconds)
        puzzle = self.drill.puzzle
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
