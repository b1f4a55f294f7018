"""The home screen: every puzzle grouped by family; Enter plays, e explores its state space."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.core import BadInput
from kaeru.engine.registry import families, get_puzzle


class HomeScreen(Screen[None]):
    """Pick a puzzle and a variant."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", show=True, priority=False),
        Binding("e", "explore", "Explore"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    DEFAULT_CSS = """
    HomeScreen #lists { height: 1fr; }
    HomeScreen #puzzles { width: 44; height: 1fr; border: round $primary; }
    HomeScreen #about { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
    HomeScreen #welcome { height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(
            "[b]Kaeru Arcade[/b] — pick a puzzle with ↑ ↓ and press Enter to play, "
            "e to explore its positions.",
            id="welcome",
        )
        options: list[Option | None] = []
        for family in families():
            if options:
                options.append(None)
            options.append(Option(f"[b]{escape(family.title)}[/b]", id=f"family:{family.key}",
                                  disabled=True))
            for puzzle_id in family.ids:
                options.append(Option(f"  {escape(self._label(puzzle_id))}", id=puzzle_id))
        with Horizontal(id="lists"):
            yield OptionList(*options, id="puzzles")
            with VerticalScroll(id="about"):
                yield Static(id="about-text")
        yield Footer()

    @staticmethod
    def _label(puzzle_id: str) -> str:
        try:
            return get_puzzle(puzzle_id).title
        except BadInput:
            return puzzle_id

    def on_mount(self) -> None:
        self.title = "Kaeru Arcade"
        self.sub_title = "puzzles, and an engine that solves them"
        puzzles = self.query_one("#puzzles", OptionList)
        puzzles.border_title = "Puzzles"
        self.query_one("#about").border_title = "About"
        puzzles.focus()
        first = next(i for i, o in enumerate(puzzles.options) if not o.disabled)
        puzzles.highlighted = first

    @property
    def chosen_id(self) -> str | None:
        puzzles = self.query_one("#puzzles", OptionList)
        if puzzles.highlighted is None:
            return None
        option = puzzles.get_option_at_index(puzzles.highlighted)
        return None if option.disabled else option.id

    @on(OptionList.OptionHighlighted)
    def describe(self, event: OptionList.OptionHighlighted) -> None:
        puzzle_id = event.option.id
        if not puzzle_id or puzzle_id.startswith("family:"):
            return
        puzzle = get_puzzle(puzzle_id)
        family = next(f for f in families() if f.key == puzzle.family)
        text = (
            f"[b]{escape(puzzle.title)}[/b]   [dim]{escape(puzzle.id)}[/dim]\n"
            f"{escape(family.blurb)}\n\n{escape(puzzle.rules)}\n\n"
            f"Start: {escape(puzzle.format(puzzle.initial()))}\n"
            f"Goal:  {escape(puzzle.goal_text(puzzle.initial()))}"
        )
        self.query_one("#about-text", Static).update(text)

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.app.open_game(event.option.id)  # type: ignore[attr-defined]

    def action_play(self) -> None:
        if self.chosen_id:
            self.app.open_game(self.chosen_id)  # type: ignore[attr-defined]

    def action_explore(self) -> None:
        if self.chosen_id:
            self.app.open_explorer(self.chosen_id)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        from kaeru.tui.messages import OpenHelp

        self.post_message(OpenHelp(self.chosen_id))
