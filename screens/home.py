"""The home screen: every puzzle grouped by family; Enter plays, e explores its state space."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from kaeru.engine.core import BadInput
from kaeru.engine.random_games import has_random_games, random_game
from kaeru.engine.registry import families, get_puzzle
from kaeru.engine.store import IN_PROGRESS, SOLVED
from kaeru.tui.glyphs import HEADER_ICON
from kaeru.tui.messages import OpenExplorer, OpenGame, OpenHelp, OpenScreen
from kaeru.tui.widgets.safe_option_list import SafeOptionList


class HomeScreen(Screen[None]):
    """Pick a puzzle and a variant."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", show=True, priority=False, id="home.play"),
        Binding("n", "random_game", "Random", id="home.random"),
        Binding("d", "daily", "Daily", id="home.daily"),
        Binding("r", "records", "Records", id="home.records"),
        Binding("e", "explore", "Explore", id="home.explore"),
        Binding("comma", "settings", "Settings", show=False, id="home.settings"),
        Binding("question_mark,f1", "help", "Help", id="home.help"),
        Binding("q", "app.quit", "Quit", id="home.quit"),
    ]

    def __init__(self, marks: Callable[[], dict[str, str]] | None = None) -> None:
        super().__init__()
        self.marks = marks or dict

    DEFAULT_CSS = """
    HomeScreen #lists { height: 1fr; }
    HomeScreen #puzzles { width: 44; height: 1fr; border: round $primary; }
    HomeScreen #about { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
    HomeScreen #welcome { height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Header(icon=HEADER_ICON)
        yield Static(
            "[b]Kaeru Arcade[/b] — pick a puzzle with ↑ ↓ and press Enter to play, "
            "e to explore its positions.",
            id="welcome",
        )
        options: list[Option | None] = []
        marks = self.marks()
        for family in families():
            if options:
                options.append(None)
            options.append(Option(f"[b]{escape(family.title)}[/b]", id=f"family:{family.key}",
                                  disabled=True))
            for puzzle_id in family.ids:
                options.append(Option(self._line(puzzle_id, marks), id=puzzle_id))
        with Horizontal(id="lists"):
            yield SafeOptionList(*options, id="puzzles")
            with VerticalScroll(id="about"):
                yield Static(id="about-text")
        yield Footer()

    def _line(self, puzzle_id: str, marks: dict[str, str]) -> str:
        mark = {IN_PROGRESS: " [dim](in progress)[/dim]", SOLVED: " ✓"}.get(
            marks.get(puzzle_id, ""), "")
        return f"  {escape(self._label(puzzle_id))}{mark}"

    def on_screen_resume(self) -> None:
        """Back from a game: its progress mark may have changed."""
        marks = self.marks()
        puzzles = self.query_one("#puzzles", OptionList)
        for index, option in enumerate(puzzles.options):
            if option.id and not option.disabled:
                puzzles.replace_option_prompt_at_index(index, self._line(option.id, marks))

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
            self.post_message(OpenGame(event.option.id))

    def action_play(self) -> None:
        if self.chosen_id:
            self.post_message(OpenGame(self.chosen_id))

    def action_explore(self) -> None:
        if self.chosen_id:
            self.post_message(OpenExplorer(self.chosen_id))

    def action_records(self) -> None:
        self.post_message(OpenScreen("records"))

    def action_daily(self) -> None:
        self.post_message(OpenScreen("daily"))

    def action_settings(self) -> None:
        self.post_message(OpenScreen("settings"))

    def action_random_game(self) -> None:
        """A random start of the highlighted puzzle (uniform, or at an exact distance where
        the family draws that way); drawn off the UI thread, a table may need building."""
        puzzle_id = self.chosen_id
        if not puzzle_id:
            return
        if not has_random_games(get_puzzle(puzzle_id)):
            self.notify(f"{puzzle_id} has one start only.", timeout=3)
            return
        self.notify("Drawing a random game…", timeout=2)
        self.draw_random(puzzle_id)

    @work(thread=True, exclusive=True, group="random")
    def draw_random(self, puzzle_id: str) -> None:
        try:
            game = random_game(puzzle_id)
        except (BadInput, ValueError) as error:
            self.app.call_from_thread(self.notify, str(error), severity="warning")
            return
        self.app.call_from_thread(self.post_message, OpenGame(game.game_id, fresh=True))

    def action_help(self) -> None:
        self.post_message(OpenHelp(self.chosen_id))
