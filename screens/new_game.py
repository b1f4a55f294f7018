"""The new-game dialog: type a start layout, or ask for a shuffle (at a given distance where the
puzzle supports it). Errors show under the field; nothing closes until the input is good."""

from __future__ import annotations

import random
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from kaeru.engine.catalogue.game_ids import playable_start
from kaeru.engine.puzzles.sliding import SIZE_WORDS, SlidingPuzzle, sized_id
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.protocol import BadInput, Puzzle
from kaeru.engine.service.inline import InlineSearcher, Searcher
from kaeru.engine.service.jobs import CANCELLED, DONE, Job, JobKind, JobRequest, JobResult
from kaeru.tui.ui_thread import ui_poster
from kaeru.tui.widgets.goal_board import goal_position

FORMATS = {  # how a layout is typed, by the board's kind (and look)
    "row": "one character a cell, left to right: B a black stone, W a white stone, "
           "_ the empty cell (number rows: the digits)",
    "grid": "rows from the top, separated by /, tiles by spaces; _ the gap",
    "squares": "rows from the top, separated by /: B a black knight, W a white knight, "
               "_ an empty square",
    "pegs": "rows from the top, separated by /: o a peg, . an empty hole",
    "river": "who stands on the left bank, the boat (if it is there), then | and who stands "
             "on the right bank",
}


def format_help(layout: Layout, example: str) -> str:
    """How to type a layout of this board, with the standard start as the example."""
    kind = layout.holes.look if layout.kind == "holes" and layout.holes else layout.kind
    return f"Type {FORMATS.get(kind, 'the layout as the game id shows it')}.\nFor example " \
           f"{example!r} is this:"


def pick_depth(text: str, rng: random.Random) -> int | None:
    """`20` -> 20, `18-24` -> a depth drawn from the band, empty -> None (any shuffle)."""
    low, sep, high = text.replace(" ", "").partition("-")
    if not low and not sep:
        return None
    if not low.isdigit() or (sep and not high.isdigit()):
        raise BadInput("give a number of moves like 20, or a band like 18-24")
    lo, hi = int(low), int(high) if sep else int(low)
    if lo > hi:
        raise BadInput(f"the band {lo}-{hi} is empty")
    return rng.randint(lo, hi)


class NewGameScreen(ModalScreen[str | None]):
    """Returns the game id of the new game, or None when dismissed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]


    def __init__(self, puzzle: Puzzle, searcher: Searcher | None = None) -> None:
        super().__init__()
        self.puzzle = puzzle
        self.searcher: Searcher = searcher if searcher is not None else InlineSearcher()
        self.draw_job: Job | None = None
        self.draw_request: JobRequest | None = None

    def compose(self) -> ComposeResult:
        puzzle = self.puzzle
        with Vertical():
            yield Static(f"[b]New game: {escape(puzzle.title)}[/b]")
            example = puzzle.format(puzzle.initial())
            layout = puzzle.layout(puzzle.initial())
            yield Static("Start layout (Enter to play it; empty = the standard start):")
            yield Static(escape(format_help(layout, example)), id="format-help")
            yield goal_position(layout)
            yield Input(placeholder=example, id="layout")
            if puzzle.capabilities.random_starts:
                yield Label("…or a shuffle: moves from the goal, or a band (empty = random):")
                yield Input(placeholder="e.g. 20 or 18-24", id="depth", restrict=r"[0-9\- ]*")
            if isinstance(puzzle, SlidingPuzzle):
                yield Label(f"…or another size ({SIZE_WORDS}; its standard start):")
                yield Input(placeholder="e.g. 10x10", id="size", restrict=r"[0-9xX×* ]*")
            yield Static(id="error")
            yield Static("[dim]Escape cancels.[/dim]")

    @on(Input.Submitted, "#layout")
    def typed_layout(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            start = playable_start(self.puzzle, text)
        except BadInput as error:
            self.show_error(str(error))
            return
        self.dismiss(self.puzzle.game_id(start))

    @on(Input.Submitted, "#size")
    def resized(self, event: Input.Submitted) -> None:
        try:
            puzzle_id = sized_id(event.value)
        except BadInput as error:
            self.show_error(str(error))
            return
        self.dismiss(puzzle_id)

    @on(Input.Submitted, "#depth")
    def shuffled(self, event: Input.Submitted) -> None:
        rng = random.Random()
        try:
            depth = pick_depth(event.value, rng)
        except BadInput as error:
            self.show_error(str(error))
            return
        self.show_error("Shuffling… (the first time, a table may need building)")
        self.make_shuffle(depth, rng)

    def make_shuffle(self, depth: int | None, rng: random.Random) -> None:
        """A DRAW job on the search service (a shuffle at a depth may build a depth table
        first): never engine work on the app's threads."""
        if self.draw_job is not None:
            self.draw_job.cancel()
        request = JobRequest(JobKind.DRAW, self.puzzle.id, "", "", tag="draw",
                             args=(rng.randrange(2**32), depth))
        post = ui_poster(self.app)
        self.draw_request = request  # an answer to any earlier draw is dropped
        self.draw_job = self.searcher.submit(
            request, on_done=lambda job, result: post(lambda: self.drawn(result))
        )

    def drawn(self, result: JobResult) -> None:
        stale = result.request != self.draw_request or not self.is_attached
        if stale or result.outcome == CANCELLED:
            return
        if result.outcome == DONE and isinstance(result.value, str):
            self.dismiss(result.value)
        else:
            self.show_error(result.message)

    def show_error(self, text: str) -> None:
        self.query_one("#error", Static).update(escape(text))

    def action_cancel(self) -> None:
        if self.draw_job is not None:
            self.draw_job.cancel()
        self.dismiss(None)
