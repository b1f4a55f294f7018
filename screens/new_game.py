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

from engine.core import BadInput, Puzzle
from engine.session import Session


class NewGameScreen(ModalScreen[Session | None]):
    """Returns a new Session, or None when dismissed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical { width: 70; max-width: 100%; height: auto; border: thick $primary;
                               background: $surface; padding: 1 2; }
    NewGameScreen #error { color: $text-error; height: auto; }
    """

    def __init__(self, puzzle: Puzzle) -> None:
        super().__init__()
        self.puzzle = puzzle

    def compose(self) -> ComposeResult:
        puzzle = self.puzzle
        with Vertical():
            yield Static(f"[b]New game: {escape(puzzle.title)}[/b]")
            yield Label("Start layout (Enter to play it; empty = the standard start):")
            yield Input(placeholder=puzzle.format(puzzle.initial()), id="layout")
            if puzzle.can_shuffle:
                yield Label("…or a shuffle: moves from the goal (empty = random), Enter:")
                yield Input(placeholder="e.g. 20", id="depth", type="integer")
            yield Static(id="error")
            yield Static("[dim]Escape cancels.[/dim]")

    @on(Input.Submitted, "#layout")
    def typed_layout(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            start = self.puzzle.parse(text) if text else self.puzzle.initial()
        except BadInput as error:
            self.query_one("#error", Static).update(escape(str(error)))
            return
        reason = self.puzzle.unsolvable_reason(start, start)
        if reason:
            self.query_one("#error", Static).update(escape(f"Refused: {reason}"))
            return
        self.dismiss(Session(self.puzzle, start))

    @on(Input.Submitted, "#depth")
    def shuffled(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            depth = int(text) if text else None
            start = self.puzzle.random_start(random.Random(), depth)
        except (BadInput, ValueError) as error:
            self.query_one("#error", Static).update(escape(str(error)))
            return
        self.dismiss(Session(self.puzzle, start))

    def action_cancel(self) -> None:
        self.dismiss(None)
